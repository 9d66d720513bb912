// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "genomics/io/sequence_format.hpp"

namespace xenon::genomics {

// How an input file is stored, which decides how it can be shared among readers.
enum class InputEncoding : unsigned char {
  kPlain = 1,     // split by byte ranges
  kBgzf = 2,      // split by BGZF member (BGZF from its first member to bgzip's end marker)
  kGzip = 3,      // one gzip stream: read whole, by one reader
  kReadOnce = 4,  // standard input, a pipe: read whole, by node 0's reader (it holds any copy)
};

// What node 0 learns of an input before the reading starts.
struct InputLayout {
  InputEncoding encoding = InputEncoding::kPlain;
  std::optional<SequenceFormat> format;  // of the first record; none if empty or unknown
  std::uint64_t size = 0;                // bytes in the file (0 for a read-once input)
};

// Looks at the first bytes of `path` (not of a read-once input, whose bytes would be lost).
// Problems are left for the reader to report in input order: a file that cannot be opened or
// decompressed gets no format, and is read whole.
InputLayout inspect_input(const std::string& path);

// What one reader reads of one file: all of it, or the records of a byte range (RecordRange).
// The pieces of a file are numbered in file order, so a record's place in the file is the
// records of the pieces before its own, plus its place in its piece.
struct InputPiece {
  std::uint32_t file_index = 0;
  std::uint32_t piece = 0;  // of the file's pieces, in file order
  InputEncoding encoding = InputEncoding::kPlain;
  std::optional<SequenceFormat> format;
  bool whole = true;  // else the range [begin, end)
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

// For each of `readers` readers (one per node; reader 0 on node 0), its pieces in input order.
// Plain and BGZF files whose format is known are cut into one range per reader, of equal
// bytes; every other file goes whole to a reader: read-once inputs to reader 0, the rest each
// to the reader with the fewest bytes so far. With one reader, every file is read whole.
std::vector<std::vector<InputPiece>> plan_input(const std::vector<InputLayout>& files, int readers);

}  // namespace xenon::genomics
