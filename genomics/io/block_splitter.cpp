#include "genomics/io/block_splitter.hpp"

#include <cstring>
#include <string_view>

#include "genomics/io/input_error.hpp"

namespace xenon::genomics {
namespace {

std::string describe_byte(char byte) {
  const auto value = static_cast<unsigned char>(byte);
  if (value >= 0x20 && value < 0x7f) return std::string("'") + byte + "'";
  static constexpr char kHex[] = "0123456789abcdef";
  return std::string("byte 0x") + kHex[value >> 4] + kHex[value & 15];
}

}  // namespace

BlockSplitter::BlockSplitter(std::string path, std::uint32_t file_index, std::size_t target_bytes)
    : file_(std::move(path)), file_index_(file_index), target_bytes_(target_bytes) {
  // The first byte that is not a line break decides the format.
  while (true) {
    const std::size_t first = pending_.find_first_not_of("\r\n", begin_);
    if (first != std::string::npos) {
      if (pending_[first] == '>') {
        format_ = SequenceFormat::kFasta;
      } else if (pending_[first] == '@') {
        format_ = SequenceFormat::kFastq;
      } else {
        throw InputError(file_.path(), "neither FASTA nor FASTQ: starts with " +
                                           describe_byte(pending_[first]) +
                                           ", not '>' or '@'");
      }
      begin_ = first;
      return;
    }
    begin_ = pending_.size();
    if (!read_more()) throw InputError(file_.path(), "empty file: neither FASTA nor FASTQ");
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
  const std::size_t got = file_.read(pending_.data() + old_size, chunk);
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
    if (format_ == SequenceFormat::kFastq) {
      if (line_number % 4 == 0 && consider(line_start, line_number / 4)) return true;
    } else if (line_start < data.size() && data[line_start] == '>') {
      // (At the end of the data the next line is unknown, so that is no FASTA boundary.)
      if (consider(line_start, headers_seen)) return true;
      ++headers_seen;
    }
    if (line_start >= data.size()) break;
    const void* newline = std::memchr(data.data() + line_start, '\n', data.size() - line_start);
    if (newline == nullptr) break;  // a line still being read
    line_start = static_cast<std::size_t>(static_cast<const char*>(newline) - data.data()) + 1;
    ++line_number;
  }
  return found;
}

bool BlockSplitter::next(BlockOrigin& origin, std::string& block) {
  origin.file_index = file_index_;
  origin.format = format_;
  origin.first_record = next_record_;
  while (true) {
    const std::size_t held = pending_.size() - begin_;
    if (end_of_file_ && held <= target_bytes_) {
      if (held == 0) return false;
      block.assign(pending_, begin_, held);  // the last records, complete or not
      begin_ = pending_.size();
      origin.ends_file = true;
      return true;
    }
    Cut cut;
    if ((held >= target_bytes_ || end_of_file_) && find_cut(cut)) {
      block.assign(pending_, begin_, cut.bytes);
      begin_ += cut.bytes;
      next_record_ += cut.records;
      origin.ends_file = false;
      return true;
    }
    if (end_of_file_) {  // one record larger than the target, and the last
      block.assign(pending_, begin_, held);
      begin_ = pending_.size();
      origin.ends_file = true;
      return true;
    }
    read_more();
  }
}

}  // namespace xenon::genomics
