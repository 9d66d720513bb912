// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/input_file.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>
#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <climits>
#include <cstring>

#include <xenon/xenon.hpp>
#include "genomics/io/input_copies.hpp"
#include "genomics/io/input_bytes.hpp"
#include "genomics/io/input_error.hpp"

namespace xenon::genomics {
namespace {

constexpr std::size_t kInputBytes = 1 << 18;

bool starts_gzip(const unsigned char* bytes, std::size_t size) {
  return size >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
}

std::string isal_problem(int status) {
  switch (status) {
    case ISAL_INVALID_BLOCK: return "an invalid deflate block";
    case ISAL_INVALID_SYMBOL: return "an invalid deflate symbol";
    case ISAL_INVALID_LOOKBACK: return "an invalid back-reference distance";
    case ISAL_INVALID_WRAPPER: return "an invalid gzip header";
    case ISAL_UNSUPPORTED_METHOD: return "a compression method other than deflate";
    case ISAL_INCORRECT_CHECKSUM: return "CRC-32 mismatch";
    default: return "isa-l error " + std::to_string(status);
  }
}


}  // namespace

struct InputFile::Inflater {
  inflate_state state;
  bool member_done = false;
};

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

InputFile::InputFile(std::string path) : path_(std::move(path)), input_(new unsigned char[kInputBytes]) {
  const std::string source = file_to_read(path_);
  check_readable(source);
  descriptor_ = source == kStandardInput ? dup(STDIN_FILENO) : open(source.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor_ < 0) throw InputError(path_, "cannot open: " + error_text(errno));
}

InputFile::~InputFile() {
  if (descriptor_ >= 0) close(descriptor_);
}

// More bytes of the file after those held; false at its end.
bool InputFile::fill() {
  if (end_of_input_) return false;
  if (taken_ > 0) {
    std::memmove(input_.get(), input_.get() + taken_, held_ - taken_);
    held_ -= taken_;
    taken_ = 0;
  }
  while (true) {
    const ssize_t got = ::read(descriptor_, input_.get() + held_, kInputBytes - held_);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError(path_, "read error: " + error_text(errno));
    if (got == 0) end_of_input_ = true;
    held_ += static_cast<std::size_t>(got);
    bytes_read_ += static_cast<std::uint64_t>(got);
    count_input_bytes(static_cast<std::uint64_t>(got));
    return got != 0;
  }
}

std::size_t InputFile::read(char* out, std::size_t capacity) {
  if (capacity == 0) return 0;
  if (!started_) {
    while (held_ < 2 && fill()) {}
    started_ = true;
    if (starts_gzip(input_.get(), held_)) {
      inflater_ = std::make_unique<Inflater>();
      isal_inflate_init(&inflater_->state);
      inflater_->state.crc_flag = ISAL_GZIP;
    }
  }
  if (inflater_ != nullptr) return inflate_into(out, capacity);
  // Plain: what is held, then straight from the file.
  if (taken_ == held_ && !fill()) return 0;
  const std::size_t n = std::min(capacity, held_ - taken_);
  std::memcpy(out, input_.get() + taken_, n);
  taken_ += n;
  return n;
}

std::size_t InputFile::inflate_into(char* out, std::size_t capacity) {
  inflate_state& state = inflater_->state;
  const auto room = static_cast<std::uint32_t>(std::min<std::size_t>(capacity, UINT32_MAX));
  while (true) {
    if (inflater_->member_done) {
      // Another member, or the end. `cat a.gz b.fq > c.gz` must not pass for a.gz alone:
      // other bytes are an error, but for zeros (padding, which gzip also accepts).
      while (held_ - taken_ < 2 && fill()) {}
      if (held_ == taken_) return 0;
      if (!starts_gzip(input_.get() + taken_, held_ - taken_)) {
        const std::uint64_t offset = bytes_read_ - (held_ - taken_);
        if (!only_zeros_follow()) {
          throw InputError(path_, "data after the end of the gzip stream at byte " + std::to_string(offset) +
                                      " is not another gzip member (a file appended to a .gz file?)");
        }
        return 0;
      }
      isal_inflate_reset(&state);
      state.crc_flag = ISAL_GZIP;
      inflater_->member_done = false;
    }
    if (taken_ == held_ && !fill()) throw InputError(path_, "compressed data is truncated");
    state.next_in = input_.get() + taken_;
    state.avail_in = static_cast<std::uint32_t>(held_ - taken_);
    state.next_out = reinterpret_cast<unsigned char*>(out);
    state.avail_out = room;
    const int status = isal_inflate(&state);
    taken_ = held_ - state.avail_in;
    if (status < 0) throw InputError(path_, "corrupt compressed data: " + isal_problem(status));
    if (state.block_state == ISAL_BLOCK_FINISH) inflater_->member_done = true;
    const std::size_t produced = room - state.avail_out;
    if (produced != 0) return produced;
  }
}

bool InputFile::only_zeros_follow() {
  do {
    if (std::any_of(input_.get() + taken_, input_.get() + held_, [](unsigned char byte) { return byte != 0; })) {
      return false;
    }
    taken_ = held_;
  } while (fill());
  return true;
}

std::uint64_t InputFile::file_bytes_read() const noexcept { return bytes_read_; }

}  // namespace xenon::genomics
