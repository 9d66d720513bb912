// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/input_file.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <climits>
#include <cstring>

#include <xenon/xenon.hpp>
#include "genomics/io/input_copies.hpp"
#include "genomics/io/input_error.hpp"

namespace xenon::genomics {
namespace {

gzFile as_gz(void* handle) { return static_cast<gzFile>(handle); }

// gzread reads plain files too, so one reader serves both forms.
constexpr unsigned kZlibBufferBytes = 1u << 18;

}  // namespace

void InputFile::check_readable(const std::string& path) {
  // stat and access, not a trial read: a pipe (<(zcat ...), /dev/stdin) must keep its bytes.
  struct stat status {};
  if (path == kStandardInput) {
    if (fstat(STDIN_FILENO, &status) != 0) throw InputError(path, "cannot read: " + error_text(errno));
    if (S_ISDIR(status.st_mode)) throw InputError(path, "cannot read: a directory");
    return;
  }
  if (stat(path.c_str(), &status) != 0) {
    throw InputError(path, "cannot open: " + error_text(errno));
  }
  if (S_ISDIR(status.st_mode)) throw InputError(path, "cannot read: a directory");
  if (access(path.c_str(), R_OK) != 0) {
    throw InputError(path, "cannot open: " + error_text(errno));
  }
}

InputFile::InputFile(std::string path) : path_(std::move(path)) {
  const std::string source = file_to_read(path_);
  check_readable(source);
  errno = 0;
  gzFile file = nullptr;
  if (source == kStandardInput) {
    // zlib closes the descriptor it is given: a duplicate leaves standard input open.
    const int descriptor = dup(STDIN_FILENO);
    if (descriptor < 0) throw InputError(path_, "cannot read: " + error_text(errno));
    file = gzdopen(descriptor, "rb");
    if (file == nullptr) close(descriptor);
  } else {
    file = gzopen(source.c_str(), "rb");
  }
  if (file == nullptr) {
    throw InputError(path_, std::string("cannot open: ") +
                                (errno != 0 ? error_text(errno) : std::string("out of memory")));
  }
  gzbuffer(file, kZlibBufferBytes);
  handle_ = file;
}

InputFile::~InputFile() {
  if (handle_ != nullptr) gzclose(as_gz(handle_));
}

std::size_t InputFile::read(char* out, std::size_t capacity) {
  const unsigned request = capacity > static_cast<std::size_t>(INT_MAX)
                               ? static_cast<unsigned>(INT_MAX)
                               : static_cast<unsigned>(capacity);
  const int got = gzread(as_gz(handle_), out, request);
  int error = Z_OK;
  const char* message = gzerror(as_gz(handle_), &error);
  if (got < 0 || (error != Z_OK && error != Z_STREAM_END)) {
    // Z_BUF_ERROR at the end means the compressed stream stopped in the middle.
    if (error == Z_BUF_ERROR) throw InputError(path_, "compressed data is truncated");
    if (error == Z_ERRNO) throw InputError(path_, "read error: " + error_text(errno));
    throw InputError(path_, std::string("corrupt compressed data: ") + message);
  }
  return static_cast<std::size_t>(got);
}

}  // namespace xenon::genomics
