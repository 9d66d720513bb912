// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>

#include <xenon/xenon.hpp>

namespace xenon::genomics {

// The log of one run of a tool (OUTDIR/TOOL.log): what was asked, then each phase with its
// start, end and duration, the files written, and how the run ended. Every line starts with
// its UTC time and is flushed as it is written, so the log tells how far a run got even
// when it failed or was killed. It is the one file of the output directory written in place
// rather than all-or-nothing (see AtomicOutputFile): a failed run keeps it, and it is most
// useful then. A default-constructed log is closed, and every call on it does nothing (the
// nodes other than 0 keep no log).
class RunLog {
 public:
  RunLog() = default;
  ~RunLog();
  RunLog(const RunLog&) = delete;
  RunLog& operator=(const RunLog&) = delete;

  // Creates (or replaces) the log at `path`; throws std::runtime_error naming it if it
  // cannot.
  void open(const std::string& path);
  bool is_open() const noexcept { return file_ != nullptr; }
  const std::string& path() const noexcept { return path_; }

  // One line of text (one line: newlines in it become spaces).
  void line(std::string_view text);

  // A phase begins; one still open ends first, without details.
  void begin_phase(std::string name);
  // The open phase ends: "phase NAME: done in S s: DETAILS". Without an open phase, the
  // duration is counted from the end of the last one.
  void end_phase(std::string_view details = {});

  // The run failed: the open phase, if any, is marked as stopped by it, then "error: WHY".
  void failed(std::string_view why);

 private:
  void write_locked(std::string_view text);
  void end_phase_locked(std::string_view details);

  std::mutex mutex_;  // the coordinator logs from its worker, the tool from main()
  std::FILE* file_ = nullptr;
  std::string path_;
  bool write_failed_ = false;
  std::string phase_;  // the open phase, or empty
  MonotonicClock::time_point phase_started_ = MonotonicClock::now();
};

// "2026-11-30T17:07:34.123Z": now, in UTC, to the millisecond.
std::string utc_timestamp();

}  // namespace xenon::genomics
