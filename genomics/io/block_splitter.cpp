// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/block_splitter.hpp"

#include <cstring>
#include <string_view>

#include "genomics/io/input_error.hpp"
#include "genomics/io/input_file.hpp"

namespace xenon::genomics {
namespace {

std::string describe_byte(char byte) {
  const auto value = static_cast<unsigned char>(byte);
  if (value >= 0x20 && value < 0x7f) return std::string("'") + byte + "'";
  static constexpr char kHex[] = "0123456789abcdef";
  return std::string("byte 0x") + kHex[value >> 4] + kHex[value & 15];
}

}  // namespace

BlockSplitter::BlockSplitter(std::string path, std::uint32_t file_index, std::size_t target_bytes,
                             std::size_t overlap_bases)
    : BlockSplitter(std::make_unique<InputFile>(std::move(path)), file_index, target_bytes, overlap_bases) {}

BlockSplitter::BlockSplitter(std::unique_ptr<ByteSource> source, std::uint32_t file_index, std::size_t target_bytes,
                             std::size_t overlap_bases)
    : source_(std::move(source)),
      file_index_(file_index),
      target_bytes_(target_bytes == 0 ? 1 : target_bytes),
      overlap_bases_(overlap_bases) {
  // The first byte that is not a line break decides the format.
  while (true) {
    const std::size_t first = pending_.find_first_not_of("\r\n", begin_);
    if (first != std::string::npos) {
      if (pending_[first] == '>') {
        format_ = SequenceFormat::kFasta;
      } else if (pending_[first] == '@') {
        format_ = SequenceFormat::kFastq;
      } else {
        throw InputError(source_->path(), "neither FASTA nor FASTQ: starts with " +
                                           describe_byte(pending_[first]) +
                                           ", not '>' or '@'");
      }
      begin_ = first;
      return;
    }
    begin_ = pending_.size();
    if (!read_more()) {
      empty_ = true;
      return;
    }
  }
}

bool BlockSplitter::read_more() {
  if (end_of_file_) return false;
  if (begin_ > 0 && begin_ * 2 >= pending_.size()) {  // keep the copy cheap: drop the consumed front
    pending_.erase(0, begin_);
    begin_ = 0;
  }
  const std::size_t old_size = pending_.size();
  const std::size_t chunk = target_bytes_ < 65536 ? 65536 : target_bytes_;
  pending_.resize(old_size + chunk);
  const std::size_t got = source_->read(pending_.data() + old_size, chunk);
  pending_.resize(old_size + got);
  if (got == 0) end_of_file_ = true;
  return got != 0;
}

// Finds the last record boundary at or before the target size, or the first one after it when
// no record ends sooner. False when the data held so far has no boundary after offset 0.
bool BlockSplitter::find_cut(Cut& cut) const {
  const std::string_view data(pending_.data() + begin_, pending_.size() - begin_);
  bool found = false;
  // Returns true once the search can stop.
  const auto consider = [&](std::size_t boundary, std::uint64_t records_before) {
    if (boundary == 0) return false;
    if (found && boundary > target_bytes_) return true;
    cut = {boundary, records_before};
    found = true;
    return boundary > target_bytes_;
  };
  std::uint64_t headers_seen = 0;  // FASTA records begun before line_start
  std::uint64_t line_number = 0;   // complete lines before line_start
  std::size_t line_start = 0;
  while (true) {
    const bool at_end = line_start >= data.size();
    if (format_ == SequenceFormat::kFastq) {
      // Not before a blank line: blank lines may end the file, and they go with the last block.
      const bool blank_next = !at_end && (data[line_start] == '\n' || data[line_start] == '\r');
      if (line_number % 4 == 0 && !blank_next && consider(line_start, line_number / 4)) return true;
    } else if (!at_end && data[line_start] == '>') {
      // (At the end of the data the next line is unknown, so that is no FASTA boundary.)
      if (consider(line_start, headers_seen)) return true;
      ++headers_seen;
    }
    if (at_end) break;
    const void* newline = std::memchr(data.data() + line_start, '\n', data.size() - line_start);
    if (newline == nullptr) break;  // a line still being read
    line_start = static_cast<std::size_t>(static_cast<const char*>(newline) - data.data()) + 1;
    ++line_number;
  }
  return found;
}

// Where to cut a FASTA record that fills more than a block: at the target size, but after the
// header line if the block starts with one (a cut may fall inside a sequence line).
std::size_t BlockSplitter::record_cut() const {
  const std::string_view data(pending_.data() + begin_, pending_.size() - begin_);
  std::size_t cut = target_bytes_;
  if (!continuing_ && data.front() == '>') {
    const std::size_t header_end = data.find('\n');
    if (header_end != std::string_view::npos && header_end + 1 > cut) cut = header_end + 1;
  }
  return cut < data.size() ? cut : data.size();
}

// Hands out `bytes` of the held data as the next block, after the carried line if the block
// continues a record.
void BlockSplitter::emit(std::string& block, std::size_t bytes) {
  block.clear();
  if (continuing_) {
    block += carried_;
    block += '\n';
  }
  block.append(pending_, begin_, bytes);
  begin_ += bytes;
}

bool BlockSplitter::next(BlockOrigin& origin, std::string& block) {
  if (empty_) return false;
  origin.file_index = file_index_;
  origin.format = format_;
  origin.first_record = next_record_;
  origin.continues_record = continuing_;
  while (true) {
    const std::size_t held = pending_.size() - begin_;
    if (end_of_file_ && held <= target_bytes_) {
      if (held == 0 && !continuing_) return false;
      emit(block, held);  // the last records, complete or not
      origin.ends_file = source_->ends_file();
      continuing_ = false;
      return true;
    }
    Cut cut;
    if ((held >= target_bytes_ || end_of_file_) && find_cut(cut)) {
      emit(block, cut.bytes);
      // A block that continues a record counts that record as begun before it.
      next_record_ += cut.records + (continuing_ ? 1 : 0);
      origin.ends_file = false;
      continuing_ = false;
      return true;
    }
    const bool starts_with_header = !continuing_ && pending_[begin_] == '>';
    const bool header_complete =
        !starts_with_header || pending_.find('\n', begin_) != std::string::npos;
    if (format_ == SequenceFormat::kFasta && held >= target_bytes_ && header_complete) {
      // One record fills the block: cut inside it, and carry its last bases over.
      emit(block, record_cut());
      const std::size_t sequence_start = starts_with_header ? block.find('\n') + 1 : 0;
      carried_.clear();
      for (std::size_t at = block.size(); at > sequence_start && carried_.size() < overlap_bases_;) {
        const char c = block[--at];
        if (c != '\n' && c != '\r') carried_ += c;
      }
      carried_.assign(carried_.rbegin(), carried_.rend());
      origin.ends_file = false;
      continuing_ = true;
      return true;
    }
    if (end_of_file_) {  // one FASTQ record (or FASTA header) larger than the target, and the last
      emit(block, held);
      origin.ends_file = source_->ends_file();
      continuing_ = false;
      return true;
    }
    read_more();
  }
}

}  // namespace xenon::genomics
