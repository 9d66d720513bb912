// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/run/sudden_exit.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>

#include "genomics/io/temporary_files.hpp"

namespace xenon::genomics::sudden_exit {
namespace {

std::atomic<const char*> program_name{"xenon"};
std::atomic<int> log_descriptor{-1};
// Guards `activity`; whoever holds it never allocates, so the out-of-memory path can wait
// for it.
std::mutex activity_mutex;
char activity[301] = "starting";

void write_all(int descriptor, const char* text, std::size_t length) noexcept {
  while (length != 0) {
    const ssize_t written = write(descriptor, text, length);
    if (written <= 0) return;
    text += written;
    length -= static_cast<std::size_t>(written);
  }
}

}  // namespace

// Release: pairs with the acquire load in the exit path, which then reads the name's bytes.
void set_program(const char* program) noexcept { program_name.store(program, std::memory_order_release); }
// Release: pairs with the acquire load in the exit path, which then writes to the opened log.
void set_log(int descriptor) noexcept { log_descriptor.store(descriptor, std::memory_order_release); }

void note_activity(std::string_view text) noexcept {
  std::lock_guard<std::mutex> lock(activity_mutex);
  const std::size_t length = std::min(text.size(), sizeof activity - 1);
  std::memcpy(activity, text.data(), length);
  activity[length] = '\0';
}

void exit_now(const char* reason, const char* consequence, int status) noexcept {
  char doing[sizeof activity];
  {
    std::lock_guard<std::mutex> lock(activity_mutex);
    std::memcpy(doing, activity, sizeof doing);
  }
  char line[800];
  int length = std::snprintf(line, sizeof line, "%s: error: %s in %s: %s, exit status %d\n", program_name.load(std::memory_order_acquire),
                             reason, doing, consequence, status);
  write_all(STDERR_FILENO, line, static_cast<std::size_t>(std::clamp(length, 0, int{sizeof line} - 1)));
  if (const int log = log_descriptor.load(std::memory_order_acquire); log >= 0) {
    // The log's own line format: the UTC time, two spaces, the text.
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    tm utc{};
    gmtime_r(&now.tv_sec, &utc);
    char stamp[40];
    const std::size_t stamp_length = std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &utc);
    length = std::snprintf(line, sizeof line, "%.*s.%03ldZ  error: %s in %s: %s, exit status %d\n",
                           static_cast<int>(stamp_length), stamp, now.tv_nsec / 1000000, reason, doing, consequence,
                           status);
    write_all(log, line, static_cast<std::size_t>(std::clamp(length, 0, int{sizeof line} - 1)));
  }
  TemporaryFiles::remove_all_before_exit();
  _exit(status);
}

}  // namespace xenon::genomics::sudden_exit
