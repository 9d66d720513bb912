#pragma once

#include <cstddef>
#include <string>

#include "genomics/io/byte_source.hpp"

namespace xenon::genomics {

// A sequence file read as a stream of bytes, plain or gzip-compressed (detected from its
// first bytes; concatenated gzip members are read one after the other). "-" is standard
// input. A file that InputCopies copied is read from its copy, under its own name. Errors
// (missing or unreadable file, corrupt or truncated compressed data) throw InputError naming
// the file.
class InputFile final : public ByteSource {
 public:
  explicit InputFile(std::string path);
  ~InputFile() override;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // Throws InputError unless `path` names something readable that is not a directory
  // (for "-": unless standard input is open); reads nothing, so a pipe keeps its bytes.
  static void check_readable(const std::string& path);

  // Reads up to `capacity` bytes; returns 0 only at the end of the file.
  std::size_t read(char* out, std::size_t capacity) override;

  const std::string& path() const noexcept override { return path_; }
  std::uint64_t file_bytes_read() const noexcept override;

 private:
  std::string path_;
  void* handle_ = nullptr;  // zlib's gzFile, kept out of this header
};

}  // namespace xenon::genomics
