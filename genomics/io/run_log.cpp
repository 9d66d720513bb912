// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/run_log.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <chrono>
#include <ctime>
#include <stdexcept>

#include <xenon/xenon.hpp>

#include "genomics/run/sudden_exit.hpp"

namespace xenon::genomics {
namespace {

int signal_number(const std::string& name) {
  if (name == "KILL") return SIGKILL;
  if (name == "TERM") return SIGTERM;
  if (name == "INT") return SIGINT;
  return std::atoi(name.c_str());
}

}  // namespace

std::string utc_timestamp() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto milliseconds =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[40];
  const std::size_t length = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  std::snprintf(text + length, sizeof text - length, ".%03dZ", static_cast<int>(milliseconds));
  return text;
}

std::int64_t unix_nanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

RunLog::~RunLog() {
  if (file_ != nullptr) std::fclose(file_);
}

void RunLog::open(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (file_ != nullptr) throw std::logic_error(path_ + ": log opened twice");
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr) throw std::runtime_error(path + ": cannot create the log: " + error_text(errno));
  path_ = path;
  phase_started_ = MonotonicClock::now();
  phase_started_unix_ = unix_nanoseconds();
  if (const char* hook = std::getenv("XENON_TEST_SIGNAL_AT")) {  // NOLINT(concurrency-mt-unsafe): read once, no setenv
    const std::string text(hook);
    const std::size_t colon = text.find(':');
    if (colon != std::string::npos) {
      test_signal_ = signal_number(text.substr(0, colon));
      test_signal_after_ = text.substr(colon + 1);
    }
  }
}

int RunLog::descriptor() const noexcept { return file_ == nullptr ? -1 : fileno(file_); }

void RunLog::signal_if(bool asked) const {
  if (!asked) return;
  kill(getpid(), test_signal_);
  for (;;) pause();  // until the signal ends the process
}

void RunLog::line(std::string_view text) {
  bool asked = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    asked = write_locked(text);
  }
  signal_if(asked);
}

void RunLog::begin_phase(std::string name) {
  sudden_exit::note_activity("phase " + name);
  bool asked = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!phase_.empty()) asked = end_phase_locked({});
    phase_ = std::move(name);
    phase_started_ = MonotonicClock::now();
    phase_started_unix_ = unix_nanoseconds();
    asked = write_locked("phase " + phase_ + ": started") || asked;
    xenon::begin_run_phase(phase_);  // the engine's trace and report show it too
  }
  signal_if(asked);
}

void RunLog::end_phase(std::string_view details) {
  bool asked = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    asked = end_phase_locked(details);
  }
  signal_if(asked);
}

void RunLog::failed(std::string_view why) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!phase_.empty()) {
    char duration[48];
    std::snprintf(duration, sizeof duration, "%.3f s", seconds_between(phase_started_, MonotonicClock::now()));
    write_locked("phase " + phase_ + ": stopped by an error after " + duration);
    xenon::end_run_phase();
    phase_.clear();
  }
  write_locked("error: " + std::string(why));
}

bool RunLog::end_phase_locked(std::string_view details) {
  const MonotonicClock::time_point now = MonotonicClock::now();
  char duration[48];
  std::snprintf(duration, sizeof duration, "done in %.3f s", seconds_between(phase_started_, now));
  std::string text = "phase " + (phase_.empty() ? std::string("(unnamed)") : phase_) + ": " + duration;
  if (!details.empty()) text += ": " + std::string(details);
  const bool asked = write_locked(text);
  if (!phase_.empty()) xenon::end_run_phase();
  if (file_ != nullptr) {
    const std::int64_t now_unix = unix_nanoseconds();
    phases_.push_back({phase_.empty() ? std::string("(unnamed)") : phase_, phase_started_unix_, now_unix});
    phase_started_unix_ = now_unix;
  }
  phase_.clear();
  phase_started_ = now;
  return asked;
}

std::vector<RunLog::Phase> RunLog::phases() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return phases_;
}

bool RunLog::write_locked(std::string_view text) {
  if (file_ == nullptr) return false;
  std::string entry = utc_timestamp() + "  ";
  for (const char c : text) entry += (c == '\n' || c == '\r') ? ' ' : c;
  entry += '\n';
  const bool written = std::fwrite(entry.data(), 1, entry.size(), file_) == entry.size() && std::fflush(file_) == 0;
  // The log serves the run, not the other way round: a full disk warns once, and the run goes on.
  if (!written && !write_failed_) {
    write_failed_ = true;
    std::fprintf(stderr, "warning: %s: write failed (%s): the log is incomplete\n", path_.c_str(),
                 error_text(errno).c_str());
  }
  return test_signal_ != 0 && text.substr(0, test_signal_after_.size()) == test_signal_after_;
}

}  // namespace xenon::genomics
