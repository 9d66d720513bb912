// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/positioned_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <xenon/xenon.hpp>

#include "genomics/io/input_copies.hpp"
#include "genomics/io/input_bytes.hpp"
#include "genomics/io/input_error.hpp"

namespace xenon::genomics {

PositionedFile::PositionedFile(std::string path) : path_(std::move(path)) {
  const std::string source = file_to_read(path_);
  descriptor_ = open(source.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor_ < 0) throw InputError(path_, "cannot open: " + error_text(errno));
  struct stat status {};
  if (fstat(descriptor_, &status) != 0) {
    const int error = errno;
    close(descriptor_);
    throw InputError(path_, "cannot read: " + error_text(error));
  }
  size_ = static_cast<std::uint64_t>(status.st_size);
}

PositionedFile::~PositionedFile() {
  if (descriptor_ >= 0) close(descriptor_);
}

std::size_t PositionedFile::read_at(std::uint64_t offset, char* out, std::size_t capacity) {
  std::size_t total = 0;
  while (total < capacity) {
    const ssize_t got = pread(descriptor_, out + total, capacity - total, static_cast<off_t>(offset + total));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError(path_, "read error: " + error_text(errno));
    if (got == 0) break;
    total += static_cast<std::size_t>(got);
  }
  bytes_read_ += total;
  count_input_bytes(total);
  return total;
}

}  // namespace xenon::genomics
