// SPDX-License-Identifier: BSD-3-Clause
// Input read by every node: the ranges of a plain or BGZF file, cut anywhere, hold every
// record exactly once; the plan shares files among readers; and end to end, any mix of plain,
// BGZF and gzip inputs gives the same bytes for 1 to 4 processes, each reading its share,
// with the first bad record named by its number in the file whichever node read it.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <tuple>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "genomics/io/bgzf.hpp"
#include "genomics/io/block_splitter.hpp"
#include "genomics/io/input_file.hpp"
#include "genomics/io/input_plan.hpp"
#include "genomics/io/record_range.hpp"
#include "genomics/io/record_start.hpp"
#include "genomics/io/sequence_parser.hpp"
#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"
#include "tests/support/record_collector.hpp"
#include "tests/support/temporary_directory.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/test_support.hpp"

namespace {

using namespace xenon::genomics;
using xenon::testing::data_directory;
using xenon::testing::mpi_run;
using xenon::testing::run_binary;
using xenon::testing::run_command;
using xenon::testing::test_data_present;

class Directory : public xenon::testing::TemporaryDirectory {
 public:
  Directory() : xenon::testing::TemporaryDirectory("xenon-input-ranges") {}
};

// BGZF as bgzip writes it, with members of at most `member_bytes` of text (bgzip's are
// 64 KiB; small ones put many member boundaries in a small file).
std::string bgzf(const std::string& text, std::size_t member_bytes) {
  std::string out;
  const auto member = [&](std::string_view chunk) {
    z_stream stream{};
    deflateInit2(&stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
    std::string deflated(deflateBound(&stream, static_cast<uLong>(chunk.size())), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(chunk.data()));
    stream.avail_in = static_cast<uInt>(chunk.size());
    stream.next_out = reinterpret_cast<Bytef*>(deflated.data());
    stream.avail_out = static_cast<uInt>(deflated.size());
    deflate(&stream, Z_FINISH);
    deflated.resize(stream.total_out);
    deflateEnd(&stream);
    const std::size_t size = 18 + deflated.size() + 8;
    const unsigned char header[18] = {0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, 'B', 'C', 2, 0,
                                      static_cast<unsigned char>((size - 1) & 0xff),
                                      static_cast<unsigned char>((size - 1) >> 8)};
    out.append(reinterpret_cast<const char*>(header), sizeof header);
    out += deflated;
    const auto crc = static_cast<std::uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(chunk.data()), static_cast<uInt>(chunk.size())));
    for (const std::uint32_t value : {crc, static_cast<std::uint32_t>(chunk.size())}) {
      for (int byte = 0; byte < 4; ++byte) out += static_cast<char>((value >> (8 * byte)) & 0xff);
    }
  };
  for (std::size_t at = 0; at < text.size(); at += member_bytes) member(std::string_view(text).substr(at, member_bytes));
  member({});  // bgzip's end-of-file marker: an empty member
  return out;
}

using Collector = xenon::testing::RecordCollector;

// The records of one piece, through the splitter (small blocks) and the parser, as a reader
// and its parsers see them; their numbers must run from 1 without a gap.
std::vector<std::string> records_of(std::unique_ptr<ByteSource> source, const std::string& path) {
  BlockSplitter splitter(std::move(source), 0, 64, 10);
  Collector collector;
  BlockOrigin origin;
  std::string block;
  std::uint64_t expected_first = 1;
  while (splitter.next(origin, block)) {
    if (!origin.continues_record) {
      EXPECT_EQ(origin.first_record, expected_first);
    }
    expected_first = origin.first_record + SequenceParser(origin, block, path).parse(collector) +
                     (origin.continues_record ? 1 : 0);
  }
  return collector.sequences;
}

// Each split point of a file, two ranges: [0, cut) and [cut, size).
void expect_every_cut_reads_each_record_once(const std::string& path, SplittableEncoding encoding,
                                             SequenceFormat format, std::uint64_t size) {
  const std::vector<std::string> whole = records_of(std::make_unique<InputFile>(path), path);
  ASSERT_GT(whole.size(), 10u);
  for (std::uint64_t cut = 1; cut < size; ++cut) {
    std::vector<std::string> both = records_of(std::make_unique<RecordRange>(path, encoding, format, 0, cut), path);
    const std::vector<std::string> second =
        records_of(std::make_unique<RecordRange>(path, encoding, format, cut, size), path);
    both.insert(both.end(), second.begin(), second.end());
    ASSERT_EQ(both, whole) << path << " cut at byte " << cut;
  }
}

// Quality lines that start with '@' (and '+'), as Illumina's often do: only the 4-line
// structure tells them from headers.
std::string tricky_fastq(int records) {
  std::string text;
  for (int i = 0; i < records; ++i) {
    const std::string bases = std::string(static_cast<std::size_t>(5 + i % 9), "ACGT"[i % 4]) + "TTGCA"[i % 5];
    std::string quality(bases.size(), 'I');
    quality[0] = i % 3 == 0 ? '@' : (i % 3 == 1 ? '+' : 'I');
    text += "@r" + std::to_string(i) + (i % 4 == 0 ? "\r\n" : "\n") + bases + "\n+\n" + quality + "\n";
  }
  return text;
}

// Short records around one far longer than a block, sequence in lines of 60.
std::string fasta_with_a_long_record() {
  std::string text;
  for (int i = 0; i < 12; ++i) {
    std::string bases;
    const std::size_t length = i == 5 ? 700 : static_cast<std::size_t>(20 + i * 3);
    for (std::size_t b = 0; b < length; ++b) bases += "ACGT"[(b * 7 + static_cast<std::size_t>(i)) % 4];
    text += ">contig" + std::to_string(i) + " some description\n";
    for (std::size_t at = 0; at < bases.size(); at += 60) text += bases.substr(at, 60) + "\n";
  }
  return text;
}

TEST(RecordStart, FindsTheFirstHeaderAfterTheFirstLineBreak) {
  const std::string fastq = "@a\nAC\n+\n@I\n@b\nGT\n+\nII\n";
  // From inside the first header: the quality line "@I" is passed by (two lines on: "GT").
  RecordStart found = find_record_start(std::string_view(fastq).substr(1), true, SequenceFormat::kFastq);
  ASSERT_EQ(found.result, RecordStart::Result::kFound);
  EXPECT_EQ(found.offset + 1, fastq.find("@b"));
  // A record right at the point belongs to the range before.
  found = find_record_start(fastq, true, SequenceFormat::kFastq);
  EXPECT_EQ(found.offset, fastq.find("@b"));
  EXPECT_EQ(find_record_start(std::string_view(fastq).substr(0, 14), false, SequenceFormat::kFastq).result,
            RecordStart::Result::kNeedMore);
  EXPECT_EQ(find_record_start(std::string_view(fastq).substr(12), true, SequenceFormat::kFastq).result,
            RecordStart::Result::kNone);
  const std::string fasta = ">a\nACGT\nACGT\n>b\nAC\n";
  EXPECT_EQ(find_record_start(fasta, true, SequenceFormat::kFasta).offset, fasta.find(">b"));
}

TEST(RecordRange, EveryCutOfAPlainFastqFileReadsEachRecordOnce) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "one thread only: nothing for ThreadSanitizer";
  Directory directory;
  const std::string text = tricky_fastq(40);
  const std::string path = directory.write("reads.fq", text);
  expect_every_cut_reads_each_record_once(path, SplittableEncoding::kPlain, SequenceFormat::kFastq, text.size());
}

TEST(RecordRange, EveryCutOfAPlainFastaFileWithALongRecordReadsEachRecordOnce) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "one thread only: nothing for ThreadSanitizer";
  Directory directory;
  const std::string text = fasta_with_a_long_record();
  const std::string path = directory.write("genome.fa", text);
  expect_every_cut_reads_each_record_once(path, SplittableEncoding::kPlain, SequenceFormat::kFasta, text.size());
}

TEST(RecordRange, EveryCutOfABgzfFileReadsEachRecordOnce) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "one thread only: nothing for ThreadSanitizer";
  Directory directory;
  for (const auto& [name, text, format] :
       {std::tuple{"reads.fq.gz", tricky_fastq(40), SequenceFormat::kFastq},
        std::tuple{"genome.fa.gz", fasta_with_a_long_record(), SequenceFormat::kFasta}}) {
    const std::string compressed = bgzf(text, 97);
    const std::string path = directory.write(name, compressed);
    ASSERT_TRUE(starts_bgzf(reinterpret_cast<const unsigned char*>(compressed.data()), compressed.size()));
    expect_every_cut_reads_each_record_once(path, SplittableEncoding::kBgzf, format, compressed.size());
  }
}

TEST(RecordRange, NamesTheFileAndOffsetOfACorruptBgzfMember) {
  Directory directory;
  std::string compressed = bgzf(tricky_fastq(40), 200);
  const std::size_t second = bgzf_block_size(reinterpret_cast<const unsigned char*>(compressed.data()), 18);
  compressed[second + 30] = static_cast<char>(compressed[second + 30] ^ 0x55);
  const std::string path = directory.write("bad.fq.gz", compressed);
  BlockSplitter splitter(std::make_unique<RecordRange>(path, SplittableEncoding::kBgzf, SequenceFormat::kFastq, 0,
                                                       compressed.size()), 0, 64, 10);
  BlockOrigin origin;
  std::string block;
  try {
    while (splitter.next(origin, block)) {}
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()).rfind(path + ": corrupt BGZF block at byte " + std::to_string(second) + ": ", 0), 0u)
        << error.what();
  }
}

TEST(InputPlan, TellsPlainGzipAndBgzfApart) {
  Directory directory;
  const std::string text = tricky_fastq(40);
  const std::string compressed = bgzf(text, 200);
  EXPECT_EQ(inspect_input(directory.write("reads.fq", text)).encoding, InputEncoding::kPlain);
  EXPECT_EQ(inspect_input(directory.write("reads.fq", text)).format, SequenceFormat::kFastq);
  const InputLayout bgzf_layout = inspect_input(directory.write("reads.bgz", compressed));
  EXPECT_EQ(bgzf_layout.encoding, InputEncoding::kBgzf);
  EXPECT_EQ(bgzf_layout.format, SequenceFormat::kFastq);
  EXPECT_EQ(bgzf_layout.size, compressed.size());
  // Without bgzip's end marker (cut short, or with plain gzip appended): read whole.
  EXPECT_EQ(inspect_input(directory.write("cut.bgz", compressed.substr(0, compressed.size() - 28))).encoding,
            InputEncoding::kGzip);
  gzFile out = gzopen((directory.path() + "/reads.gz").c_str(), "wb");
  gzwrite(out, text.data(), static_cast<unsigned>(text.size()));
  gzclose(out);
  EXPECT_EQ(inspect_input(directory.path() + "/reads.gz").encoding, InputEncoding::kGzip);
  EXPECT_EQ(inspect_input(directory.write("genome.fa", fasta_with_a_long_record())).format, SequenceFormat::kFasta);
  EXPECT_FALSE(inspect_input(directory.write("empty.fq", "")).format.has_value());
  EXPECT_FALSE(inspect_input(directory.write("notes.txt", "hello\n")).format.has_value());
}

TEST(InputPlan, SplitsPlainAndBgzfFilesAndSpreadsTheOthersWhole) {
  const std::vector<InputLayout> files = {
      {InputEncoding::kPlain, SequenceFormat::kFastq, 1000},
      {InputEncoding::kGzip, std::nullopt, 300},
      {InputEncoding::kBgzf, SequenceFormat::kFasta, 403},
      {InputEncoding::kGzip, std::nullopt, 200},
      {InputEncoding::kReadOnce, std::nullopt, 0},
      {InputEncoding::kPlain, std::nullopt, 50},  // empty or unknown: whole
  };
  const auto plan = plan_input(files, 3);
  ASSERT_EQ(plan.size(), 3u);
  std::vector<std::uint64_t> covered(files.size(), 0);
  for (std::size_t reader = 0; reader < plan.size(); ++reader) {
    for (std::size_t i = 0; i < plan[reader].size(); ++i) {
      const InputPiece& piece = plan[reader][i];
      if (i > 0) {
        EXPECT_LT(plan[reader][i - 1].file_index, piece.file_index) << "in input order";
      }
      covered[piece.file_index] += piece.end - piece.begin;
      if (piece.file_index == 0 || piece.file_index == 2) {
        EXPECT_FALSE(piece.whole);
        EXPECT_EQ(piece.piece, reader);
        EXPECT_EQ(piece.begin, files[piece.file_index].size * reader / 3);
      } else {
        EXPECT_TRUE(piece.whole);
      }
      if (piece.file_index == 4) {
        EXPECT_EQ(reader, 0u) << "a read-once input is node 0's";
      }
    }
  }
  for (std::size_t file = 0; file < files.size(); ++file) EXPECT_EQ(covered[file], files[file].size);
  // Whole files, largest first, to the reader with the fewest bytes: 300 to reader 0, 200 to
  // reader 1, 50 to reader 2.
  const auto holds = [&](std::size_t reader, std::uint32_t file) {
    return std::any_of(plan[reader].begin(), plan[reader].end(), [&](const InputPiece& p) { return p.file_index == file; });
  };
  EXPECT_TRUE(holds(0, 1));
  EXPECT_TRUE(holds(1, 3));
  EXPECT_TRUE(holds(2, 5));
  const auto one = plan_input(files, 1);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].size(), files.size());
  for (const InputPiece& piece : one[0]) EXPECT_TRUE(piece.whole) << "one reader reads every file whole";
}

// ---- End to end, with the tools ----

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

std::string gunzip(const std::string& path) {
  gzFile in = gzopen(path.c_str(), "rb");
  std::string text;
  char buffer[1 << 16];
  for (int got; (got = gzread(in, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(got));
  gzclose(in);
  return text;
}

// The "input bytes read by each node" line of a run's log, as numbers.
std::vector<std::uint64_t> bytes_read_by_node(const std::string& log) {
  const std::string key = "input bytes read by each node: ";
  const auto at = log.find(key);
  std::vector<std::uint64_t> bytes;
  if (at == std::string::npos) return bytes;
  std::istringstream numbers(log.substr(at + key.size(), log.find('\n', at) - at - key.size()));
  for (std::uint64_t value; numbers >> value;) bytes.push_back(value);
  return bytes;
}

// Plain, BGZF (made by bgzip, as users make it) and gzip inputs in one run: the same bytes
// out for 1 to 4 processes (1 or 2 workers each), and for the two Unicycler read files alone, Jellyfish's answer;
// at 4 processes no node reads more than 30% of the plain and BGZF input.
TEST(InputByEveryNode, MixedInputsGiveTheSameBytesForOneToFourProcesses) {
  SKIP_WITHOUT_MPI();
  ASSERT_TRUE(test_data_present());
  ASSERT_EQ(run_command("command -v bgzip >/dev/null").exit_code, 0)
      << "bgzip not found: run `make deps` (it installs tabix, which has bgzip)";
  Directory in;
  const std::string plain = in.write("short_1.fq", gunzip(data_directory() + "/unicycler-sample/short_reads_1.fastq.gz"));
  const std::string bgzipped = in.path() + "/short_2.fq.gz";
  ASSERT_EQ(run_command("gzip -dc " + data_directory() + "/unicycler-sample/short_reads_2.fastq.gz | bgzip -c > " +
                        bgzipped).exit_code, 0);
  const std::string gzipped = data_directory() + "/lambda/reads_1.fq.gz";
  const std::string genome = in.write("lambda.fa", gunzip(data_directory() + "/lambda/lambda_virus.fa.gz"));
  const std::string mixed = plain + " " + gzipped + " " + bgzipped + " " + genome;
  std::string histogram, summary;
  for (int processes = 1; processes <= 4; ++processes) {
    if (xenon::testing::under_sanitizer() && (processes == 2 || processes == 4)) continue;  // 1 and 3 keep both thread counts
    Directory out;
    const int threads = processes % 2 + 1;  // 2, 1, 2, 1: the bytes depend on neither
    const auto run = mpi_run(processes, "kmer_counter",
                             "--quiet -t " + std::to_string(threads) + " -block-kib 64 -o " + out.path() + " " + mixed);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    if (processes == 1) {
      histogram = out.read("histogram.txt");
      summary = out.read("summary.json");
      continue;
    }
    EXPECT_EQ(out.read("histogram.txt"), histogram) << processes << " processes";
    EXPECT_EQ(out.read("summary.json"), summary) << processes << " processes";
  }
  Directory out;
  const auto run = mpi_run(4, "kmer_counter", "--quiet -t 1 -o " + out.path() + " " + plain + " " + bgzipped);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(out.read("histogram.txt"), read_file("tests/genomics/expected/unicycler-sample.k31.histo"));
  const std::vector<std::uint64_t> bytes = bytes_read_by_node(out.read("kmer_counter.log"));
  ASSERT_EQ(bytes.size(), 4u) << out.read("kmer_counter.log");
  const std::uint64_t input = std::filesystem::file_size(plain) + std::filesystem::file_size(bgzipped);
  for (std::size_t node = 0; node < bytes.size(); ++node) {
    EXPECT_LE(bytes[node], input * 3 / 10) << "node " << node << " read " << bytes[node] << " of " << input << " bytes";
  }
}

// The assembler counts through the same readers, then threads every read again on node 0:
// plain and BGZF inputs split over 3 processes give the contigs of one.
TEST(InputByEveryNode, TheAssemblerGivesTheSameContigsFromSplitInputs) {
  SKIP_WITHOUT_MPI();
  ASSERT_TRUE(test_data_present());
  Directory in;
  const std::string plain = in.write("reads_1.fq", gunzip(data_directory() + "/lambda/reads_1.fq.gz"));
  const std::string split_bgzf = in.write("reads_2.fq.gz", bgzf(gunzip(data_directory() + "/lambda/reads_2.fq.gz"), 65280));
  std::string contigs;
  for (const int processes : {1, 3}) {
    Directory out;
    const auto run = mpi_run(processes, "assembler", "--quiet -t 1 -o " + out.path() + " " + plain + " " + split_bgzf);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    if (processes == 1) {
      contigs = out.read("contigs.fasta");
      ASSERT_FALSE(contigs.empty());
    } else {
      EXPECT_EQ(out.read("contigs.fasta"), contigs);
      EXPECT_EQ(bytes_read_by_node(out.read("assembler.log")).size(), 3u);
    }
  }
}

// What the tool printed, without what mpiexec adds after a rank's non-zero exit.
std::string first_line(const std::string& output) { return output.substr(0, output.find('\n') + 1); }

std::string reads_with_bad(int count, const std::vector<int>& bad) {
  std::string reads;
  for (int i = 1; i <= count; ++i) {
    const bool is_bad = std::find(bad.begin(), bad.end(), i) != bad.end();
    reads += "@r" + std::to_string(i) + "\nACGTTGCAACGGTACCAGTAGGATTACAGATTACAGGCCA\n+\n";
    reads += std::string(is_bad ? 12 : 40, 'I') + "\n";
  }
  return reads;
}

// A bad record in a later node's range is named by its number in the file; of two bad
// records held by two nodes, the earlier is reported, whichever node finds its own first.
TEST(InputByEveryNode, NamesTheFirstBadRecordWhicheverNodeReadsIt) {
  SKIP_WITHOUT_MPI();
  Directory in;
  const std::string one = in.write("one_bad.fq", reads_with_bad(3000, {2500}));
  const std::string two_text = reads_with_bad(4000, {2300, 3700});
  const std::string two = in.write("two_bad.fq", two_text);
  const std::string two_bgzf = in.write("two_bad.fq.gz", bgzf(two_text, 65280));
  const std::string good = in.write("good.fq", reads_with_bad(500, {}));
  const std::string message = ": quality length 12 differs from sequence length 40\n";
  for (int processes = 2; processes <= 4; ++processes) {
    if (xenon::testing::under_sanitizer() && processes == 3) continue;  // 2 and 4 cover both cases below
    Directory out;
    auto run = mpi_run(processes, "kmer_counter", "--quiet -t 1 -block-kib 4 -o " + out.path() + " " + good + " " + one);
    EXPECT_NE(run.exit_code, 0);
    EXPECT_EQ(first_line(run.output), "kmer_counter: error: " + one + ": record 2500" + message) << processes << " processes";
    for (const std::string& file : {two, two_bgzf}) {
      if (processes == 2) continue;  // both bad records in node 1's half: nothing to choose
      run = mpi_run(processes, "kmer_counter", "--quiet -t 2 -block-kib 4 -o " + out.path() + " " + file);
      EXPECT_NE(run.exit_code, 0);
      EXPECT_EQ(first_line(run.output), "kmer_counter: error: " + file + ": record 2300" + message)
          << processes << " processes";
    }
    EXPECT_EQ(out.entries(), std::vector<std::string>{"kmer_counter.log"});
  }
}

}  // namespace
