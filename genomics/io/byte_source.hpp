// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace xenon::genomics {

// The bytes of one piece of a sequence file, decompressed, for BlockSplitter: a whole file
// (InputFile) or a range of one (RecordRange).
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to `capacity` bytes; returns 0 only at the end of the piece. Errors throw
  // InputError naming the file.
  virtual std::size_t read(char* out, std::size_t capacity) = 0;
  // The file, as given on the command line.
  virtual const std::string& path() const noexcept = 0;
  // Whether the piece ends where the file ends (blank lines may only end a file).
  virtual bool ends_file() const noexcept { return true; }
  // Bytes taken from the file itself (compressed, where it is), for the per-node tally.
  virtual std::uint64_t file_bytes_read() const noexcept = 0;
};

}  // namespace xenon::genomics
