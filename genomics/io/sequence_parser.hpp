// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "genomics/io/block_splitter.hpp"
#include "genomics/io/input_error.hpp"

namespace xenon::genomics {

// Parses one block of records (see BlockSplitter) and checks each record, handing the
// sequence of every record to a visitor:
//   visitor.begin_record();               // a new record starts
//   visitor.bases(std::string_view line); // its sequence, in one piece (FASTQ) or per line (FASTA)
//   visitor.resume_record(std::string_view carried);  // a FASTA block that continues a record
//                                         // cut by the splitter: its bases just before the cut
// Problems throw InputError naming the file and the record: a FASTQ record without its '@'
// header or '+' line, quality and sequence of different lengths, a record cut short by the end
// of the file. Line ends may be "\n" or "\r\n". Returns the number of records parsed.
class SequenceParser {
 public:
  SequenceParser(const BlockOrigin& origin, std::string_view block, const std::string& file_name)
      : origin_(origin), block_(block), file_name_(file_name) {}

  template <class Visitor>
  std::uint64_t parse(Visitor& visitor) {
    return origin_.format == SequenceFormat::kFastq ? parse_fastq(visitor) : parse_fasta(visitor);
  }

 private:
  // The next line without its line end; false at the end of the block.
  bool next_line(std::string_view& line) {
    if (position_ >= block_.size()) return false;
    const std::size_t end = block_.find('\n', position_);
    const std::size_t stop = end == std::string_view::npos ? block_.size() : end;
    line = block_.substr(position_, stop - position_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    position_ = end == std::string_view::npos ? block_.size() : end + 1;
    return true;
  }

  bool only_line_breaks_remain() const {
    return block_.find_first_not_of("\r\n", position_) == std::string_view::npos;
  }

  [[noreturn]] void fail(std::uint64_t record, const std::string& problem) const {
    throw InputError(file_name_, record, problem);
  }

  static std::string quoted_start(std::string_view line) {
    std::string shown(line.substr(0, 20));
    for (char& c : shown) {
      if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
    }
    return "\"" + shown + (line.size() > 20 ? "...\"" : "\"");
  }

  template <class Visitor>
  std::uint64_t parse_fastq(Visitor& visitor) {
    std::uint64_t record = origin_.first_record;
    std::string_view header, sequence, separator, quality;
    while (next_line(header)) {
      if (header.empty()) {
        // Blank lines may end a file, nothing else.
        if (origin_.ends_file && only_line_breaks_remain()) break;
        fail(record, "empty line where a FASTQ record should start");
      }
      if (header.front() != '@') {
        fail(record, "expected a FASTQ header starting with '@', found " + quoted_start(header));
      }
      if (!next_line(sequence)) fail(record, "truncated: the file ends after the header");
      if (!next_line(separator)) fail(record, "truncated: the file ends after the sequence");
      if (separator.empty() || separator.front() != '+') {
        fail(record, "missing '+' line after the sequence, found " + quoted_start(separator));
      }
      if (!next_line(quality)) fail(record, "truncated: the file ends before the quality line");
      if (quality.size() != sequence.size()) {
        fail(record, "quality length " + std::to_string(quality.size()) +
                         " differs from sequence length " + std::to_string(sequence.size()));
      }
      visitor.begin_record();
      visitor.bases(sequence);
      ++record;
    }
    return record - origin_.first_record;
  }

  // Returns the records that begin in the block (not one it continues).
  template <class Visitor>
  std::uint64_t parse_fasta(Visitor& visitor) {
    std::uint64_t records = 0;
    bool in_record = false;
    std::string_view line;
    if (origin_.continues_record && next_line(line)) {
      visitor.resume_record(line);
      in_record = true;
    }
    while (next_line(line)) {
      if (!line.empty() && line.front() == '>') {
        ++records;
        in_record = true;
        visitor.begin_record();
      } else if (!in_record) {
        if (line.empty()) continue;
        fail(origin_.first_record, "expected a FASTA header starting with '>', found " +
                                       quoted_start(line));
      } else {
        visitor.bases(line);
      }
    }
    return records;
  }

  const BlockOrigin& origin_;
  std::string_view block_;
  const std::string& file_name_;
  std::size_t position_ = 0;
};

}  // namespace xenon::genomics
