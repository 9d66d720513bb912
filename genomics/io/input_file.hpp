// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace xenon::genomics {

// A sequence file read as a stream of bytes, plain or gzip-compressed (detected from its
// first bytes; concatenated gzip members are read one after the other). "-" is standard
// input. A file that InputCopies copied is read from its copy, under its own name. Errors
// (missing or unreadable file, corrupt or truncated compressed data) throw InputError naming
// the file.
class InputFile {
 public:
  explicit InputFile(std::string path);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // Throws InputError unless `path` names something readable that is not a directory
  // (for "-": unless standard input is open); reads nothing, so a pipe keeps its bytes.
  static void check_readable(const std::string& path);

  // Reads up to `capacity` bytes; returns 0 only at the end of the file.
  std::size_t read(char* out, std::size_t capacity);

  const std::string& path() const noexcept { return path_; }

  // Bytes (after decompression) that read() returned in this process so far, over every
  // InputFile: the input this node read, for --stats. \threads Any thread.
  static std::uint64_t bytes_read_by_this_process() noexcept;

 private:
  std::string path_;
  void* handle_ = nullptr;  // zlib's gzFile, kept out of this header
};

}  // namespace xenon::genomics
