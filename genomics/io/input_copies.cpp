// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/input_copies.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/io/input_error.hpp"
#include "genomics/io/input_file.hpp"
#include "genomics/io/temporary_files.hpp"

namespace xenon::genomics {
namespace {

// Input name -> its copy. InputFile may be opened on any worker, so the map is guarded.
std::mutex copies_mutex;
std::map<std::string, std::string>& copy_paths() {
  static std::map<std::string, std::string> paths;
  return paths;
}

// Closes a descriptor when the copy is done, whichever way.
struct Descriptor {
  int value;
  ~Descriptor() {
    if (value >= 0) close(value);
  }
};

// Every byte of `input` into a new file at `path`; returns how many.
std::uint64_t copy_bytes(const std::string& input, const std::string& path) {
  InputFile::check_readable(input);
  Descriptor from{input == kStandardInput ? dup(STDIN_FILENO) : open(input.c_str(), O_RDONLY | O_CLOEXEC)};
  if (from.value < 0) throw InputError(input, "cannot open: " + error_text(errno));
  Descriptor to{open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)};
  if (to.value < 0) throw std::runtime_error(path + ": cannot create a copy of " + input_display_name(input) + ": " + error_text(errno));
  std::vector<char> buffer(1 << 20);
  std::uint64_t total = 0;
  while (true) {
    const ssize_t got = read(from.value, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError(input, "read error: " + error_text(errno));
    if (got == 0) return total;
    for (ssize_t written = 0; written < got;) {
      const ssize_t put = write(to.value, buffer.data() + written, static_cast<std::size_t>(got - written));
      if (put < 0 && errno == EINTR) continue;
      if (put < 0) throw std::runtime_error(path + ": write failed: " + error_text(errno));
      written += put;
    }
    total += static_cast<std::uint64_t>(got);
  }
}

}  // namespace

bool is_read_once(const std::string& input) {
  struct stat status {};
  if (input == kStandardInput) return true;
  return stat(input.c_str(), &status) == 0 && !S_ISREG(status.st_mode) && !S_ISDIR(status.st_mode);
}

std::string file_to_read(const std::string& input) {
  std::lock_guard<std::mutex> lock(copies_mutex);
  const auto found = copy_paths().find(input);
  return found == copy_paths().end() ? input : found->second;
}

InputCopies::InputCopies(const std::vector<std::string>& inputs, const std::string& directory) {
  copies_.reserve(inputs.size());  // never moved: TemporaryFiles holds their paths' addresses
  try {
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (!is_read_once(inputs[i])) continue;
      Copy copy;
      copy.input = inputs[i];
      copy.path = (std::filesystem::path(directory) /
                   (".input-" + std::to_string(i + 1) + ".copy-" + std::to_string(getpid())))
                      .string();
      copies_.push_back(copy);  // before copying: a half-written copy is removed too
      TemporaryFiles::add(copies_.back().path);  // and removed if a signal ends the run
      copies_.back().bytes = copy_bytes(copy.input, copy.path);
      std::lock_guard<std::mutex> lock(copies_mutex);
      copy_paths()[copy.input] = copy.path;
    }
  } catch (...) {
    remove_all();
    throw;
  }
}

InputCopies::~InputCopies() { remove_all(); }

void InputCopies::remove_all() {
  std::lock_guard<std::mutex> lock(copies_mutex);
  for (const Copy& copy : copies_) {
    copy_paths().erase(copy.input);
    std::remove(copy.path.c_str());
    TemporaryFiles::remove(copy.path);
  }
  copies_.clear();
}

}  // namespace xenon::genomics
