// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/temporary_files.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <stdexcept>

namespace xenon::genomics {
namespace {

// A run has a few files half-written at once (the counter three, the assembler three and
// its copies of standard input); 64 leaves room.
constexpr std::size_t kSlots = 64;

std::mutex registry_mutex;
std::array<const std::string*, kSlots> registry{};

// The process id at the end of `name` after `marker` ("counts.txt.partial-123" -> 123, and
// "graph.png.partial-123.png" -> 123), or 0.
long owner_pid(const std::string& name, const std::string& marker) {
  const std::size_t at = name.rfind(marker);
  if (at == std::string::npos || at == 0) return 0;
  std::string digits = name.substr(at + marker.size());
  const std::size_t extension = digits.find('.');
  if (extension != std::string::npos) {
    if (name.compare(name.size() - (digits.size() - extension), std::string::npos,
                     std::filesystem::path(name.substr(0, at)).extension().string()) != 0) {
      return 0;  // only the ending of the file it stands for
    }
    digits.resize(extension);
  }
  if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
  return std::stol(digits);
}

// Whether a process with this id exists (EPERM: it does, owned by another user).
bool process_exists(long pid) { return kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM; }

}  // namespace

void TemporaryFiles::add(const std::string& path) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  for (const std::string*& slot : registry) {
    if (slot == nullptr) {
      slot = &path;
      return;
    }
  }
  throw std::logic_error(path + ": too many files half-written at once");
}

void TemporaryFiles::remove(const std::string& path) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  for (const std::string*& slot : registry) {
    if (slot == &path) slot = nullptr;
  }
}

int TemporaryFiles::publish(const std::string& from, const char* to) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  const int result = std::rename(from.c_str(), to);
  if (result != 0) return result;
  for (const std::string*& slot : registry) {
    if (slot == &from) slot = nullptr;
  }
  return 0;
}

void TemporaryFiles::remove_all_before_exit() noexcept {
  registry_mutex.lock();  // never unlocked: the process exits next
  for (const std::string* path : registry) {
    if (path != nullptr) unlink(path->c_str());
  }
}

std::string partial_file_name(const std::string& path, long pid) { return path + ".partial-" + std::to_string(pid); }

std::string partial_file_name_keeping_extension(const std::string& path, long pid) {
  return partial_file_name(path, pid) + std::filesystem::path(path).extension().string();
}

int remove_stale_temporary_files(const std::string& directory) {
  std::error_code error;
  int removed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    const std::string name = entry.path().filename().string();
    long pid = owner_pid(name, ".partial-");
    if (pid == 0 && name.rfind(".input-", 0) == 0) pid = owner_pid(name, ".copy-");
    if (pid == 0 || pid == getpid() || process_exists(pid)) continue;
    if (std::filesystem::remove(entry.path(), error)) ++removed;
  }
  return removed;
}

}  // namespace xenon::genomics
