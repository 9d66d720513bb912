// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace xenon::genomics {

// A regular file read at given offsets (pread), for the readers that each take a range of
// one. Counts the bytes it reads, so each node can say how much of the input it read.
// Errors throw InputError naming the file as given (`path`; the bytes may come from its copy).
class PositionedFile {
 public:
  explicit PositionedFile(std::string path);
  ~PositionedFile();
  PositionedFile(const PositionedFile&) = delete;
  PositionedFile& operator=(const PositionedFile&) = delete;

  // Reads up to `capacity` bytes at `offset`: fewer only at the end of the file.
  std::size_t read_at(std::uint64_t offset, char* out, std::size_t capacity);

  std::uint64_t size() const noexcept { return size_; }
  std::uint64_t bytes_read() const noexcept { return bytes_read_; }
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
  int descriptor_ = -1;
  std::uint64_t size_ = 0;
  std::uint64_t bytes_read_ = 0;
};

}  // namespace xenon::genomics
