// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "genomics/io/byte_source.hpp"

namespace xenon::genomics {

// A sequence file read as a stream of bytes, plain or gzip-compressed (detected from its
// first bytes; concatenated gzip members are read one after the other; after the last
// member, zeros are padding, and any other byte is an error naming its offset). It
// inflates with isa-l, the fastest of the libraries measured that streams
// (performance/decompression_bench). "-" is standard
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
  struct Inflater;  // isa-l's state, kept out of this header

  bool fill();
  bool only_zeros_follow();  // consumes the rest of the file
  std::size_t inflate_into(char* out, std::size_t capacity);

  std::string path_;
  int descriptor_ = -1;
  std::unique_ptr<unsigned char[]> input_;  // read from the file, not yet inflated: [taken_, held_)
  std::size_t taken_ = 0;
  std::size_t held_ = 0;
  bool end_of_input_ = false;
  bool started_ = false;  // the first bytes have said whether it is gzip
  std::unique_ptr<Inflater> inflater_;  // gzip only
  std::uint64_t bytes_read_ = 0;
};

}  // namespace xenon::genomics
