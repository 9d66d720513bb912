// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target for sequence input (genomics/io): the input's first byte picks a block
// size and a k, the rest is a file (plain, or gzip when it starts with gzip's magic). Cutting
// it into blocks and parsing them may succeed or throw InputError, and must do nothing else
// (no crash, no other exception, no read out of bounds). For plain input the blocks must put
// the file back together exactly, and blocks that parse must start where records start; and
// the file cut into two ranges (RecordRange, as two nodes read it) at a point the first byte
// also picks must give back every byte once, whatever the bytes are, in either format.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "genomics/io/block_splitter.hpp"
#include "genomics/io/input_error.hpp"
#include "genomics/io/record_range.hpp"
#include "genomics/io/sequence_parser.hpp"
#include "genomics/kmer/kmer.hpp"

namespace {

void require(bool condition) {
  if (!condition) __builtin_trap();
}

struct KmerCounting {
  xenon::genomics::KmerScanner<2> scanner;
  std::uint64_t records = 0;
  void begin_record() {
    ++records;
    scanner.reset();
  }
  void resume_record(std::string_view carried) {
    scanner.reset();
    scanner.feed(carried, [](const xenon::genomics::PackedKmer<2>&) {});
  }
  void bases(std::string_view line) {
    scanner.feed(line, [](const xenon::genomics::PackedKmer<2>&) {});
  }
};

// Every byte a range hands out.
std::string drain(xenon::genomics::ByteSource&& source) {
  std::string bytes;
  char buffer[97];  // small and odd: reads end anywhere
  for (std::size_t got; (got = source.read(buffer, sizeof buffer)) != 0;) bytes.append(buffer, got);
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t target = 1 + data[0] % 64;
  const int k = 33 + data[0] % 32;
  const std::string contents(reinterpret_cast<const char*>(data) + 1, size - 1);
  static const std::string path = "/tmp/xenon-sequence-fuzz-" + std::to_string(getpid());
  {
    std::FILE* file = std::fopen(path.c_str(), "wb");
    require(file != nullptr);
    std::fwrite(contents.data(), 1, contents.size(), file);
    std::fclose(file);
  }
  const bool plain = contents.size() < 2 || static_cast<unsigned char>(contents[0]) != 0x1f ||
                     static_cast<unsigned char>(contents[1]) != 0x8b;
  std::string joined;
  try {
    xenon::genomics::BlockSplitter splitter(path, 0, target, static_cast<std::size_t>(k - 1));
    xenon::genomics::BlockOrigin origin;
    std::string block;
    bool first = true;
    while (splitter.next(origin, block)) {
      require(!block.empty() || origin.continues_record);
      // A block that continues a cut FASTA record starts with a line of carried bases.
      joined += origin.continues_record ? block.substr(block.find('\n') + 1) : block;
      KmerCounting counting{xenon::genomics::KmerScanner<2>(k)};
      const std::uint64_t records = xenon::genomics::SequenceParser(origin, block, path).parse(counting);
      require(records == counting.records);
      // A block that parsed starts where a record starts, unless it is the blank lines that
      // may end a file.
      if (!first && !origin.continues_record && block.find_first_not_of("\r\n") != std::string::npos) {
        require(block.front() == (origin.format == xenon::genomics::SequenceFormat::kFasta ? '>' : '@'));
      }
      first = false;
    }
    // Everything after the leading line breaks the format check skipped.
    const std::size_t start = contents.find_first_not_of("\r\n");
    if (plain) require(joined == (start == std::string::npos ? std::string() : contents.substr(start)));
  } catch (const xenon::genomics::InputError&) {
  }
  if (plain && contents.size() >= 2) {
    const std::uint64_t cut = 1 + (data[0] * 2654435761u) % (contents.size() - 1);
    for (const auto format : {xenon::genomics::SequenceFormat::kFasta, xenon::genomics::SequenceFormat::kFastq}) {
      using xenon::genomics::RecordRange;
      using xenon::genomics::SplittableEncoding;
      const std::string both = drain(RecordRange(path, SplittableEncoding::kPlain, format, 0, cut)) +
                               drain(RecordRange(path, SplittableEncoding::kPlain, format, cut, contents.size()));
      require(both == contents);
    }
  }
  return 0;
}
