// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/run_log.hpp"

#include <cerrno>
#include <chrono>
#include <ctime>
#include <stdexcept>

#include <xenon/xenon.hpp>

namespace xenon::genomics {

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
}

void RunLog::line(std::string_view text) {
  std::lock_guard<std::mutex> lock(mutex_);
  write_locked(text);
}

void RunLog::begin_phase(std::string name) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!phase_.empty()) end_phase_locked({});
  phase_ = std::move(name);
  phase_started_ = MonotonicClock::now();
  write_locked("phase " + phase_ + ": started");
}

void RunLog::end_phase(std::string_view details) {
  std::lock_guard<std::mutex> lock(mutex_);
  end_phase_locked(details);
}

void RunLog::failed(std::string_view why) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!phase_.empty()) {
    char duration[48];
    std::snprintf(duration, sizeof duration, "%.3f s", seconds_between(phase_started_, MonotonicClock::now()));
    write_locked("phase " + phase_ + ": stopped by an error after " + duration);
    phase_.clear();
  }
  write_locked("error: " + std::string(why));
}

void RunLog::end_phase_locked(std::string_view details) {
  const MonotonicClock::time_point now = MonotonicClock::now();
  char duration[48];
  std::snprintf(duration, sizeof duration, "done in %.3f s", seconds_between(phase_started_, now));
  std::string text = "phase " + (phase_.empty() ? std::string("(unnamed)") : phase_) + ": " + duration;
  if (!details.empty()) text += ": " + std::string(details);
  write_locked(text);
  phase_.clear();
  phase_started_ = now;
}

void RunLog::write_locked(std::string_view text) {
  if (file_ == nullptr) return;
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
}

}  // namespace xenon::genomics
