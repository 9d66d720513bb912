// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <string_view>

#include "genomics/io/sequence_format.hpp"

namespace xenon::genomics {

// Where the first record after a point of a FASTA or FASTQ file starts: the rule by which
// readers of neighbouring ranges agree on the record that straddles their boundary. `data`
// is the file's bytes from the point on. The record is the first that starts on a line after
// the first line break at or after the point (so a record that starts right at the point
// belongs to the range before it, which reads through to this one):
//   FASTA: a line that starts with '>';
//   FASTQ: a line that starts with '@' and whose second line after starts with '+' (a quality
//   line may start with '@', but two lines after it comes a sequence, never a '+').
// The rule is a function of the bytes alone, so every reader finds the same place whatever
// the input holds; in bad input it may pass a bad record by, which the range before then
// reads (and reports).
struct RecordStart {
  enum class Result { kFound, kNone, kNeedMore };
  Result result = Result::kNone;
  std::size_t offset = 0;  // in `data`, when found
};

// `complete`: `data` runs to the end of the file (no more is to come); else the answer may be
// kNeedMore: call again with more bytes.
inline RecordStart find_record_start(std::string_view data, bool complete, SequenceFormat format) {
  const RecordStart need_more{complete ? RecordStart::Result::kNone : RecordStart::Result::kNeedMore, 0};
  std::size_t line = data.find('\n');
  if (line == std::string_view::npos) return need_more;
  ++line;
  while (true) {
    if (line >= data.size()) return need_more;
    if (format == SequenceFormat::kFasta) {
      if (data[line] == '>') return {RecordStart::Result::kFound, line};
    } else if (data[line] == '@') {
      const std::size_t second = data.find('\n', line);
      const std::size_t third = second == std::string_view::npos ? second : data.find('\n', second + 1);
      if (third == std::string_view::npos || third + 1 >= data.size()) return need_more;
      if (data[third + 1] == '+') return {RecordStart::Result::kFound, line};
    }
    const std::size_t end = data.find('\n', line);
    if (end == std::string_view::npos) return need_more;
    line = end + 1;
  }
}

}  // namespace xenon::genomics
