// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <xenon/xenon.hpp>

namespace xenon::genomics {

// The log of one run of a tool (OUTDIR/TOOL.log): what was asked, then each phase with its
// start, end and duration, the files written, and how the run ended. Every line starts with
// its UTC time and is flushed as it is written, so the log tells how far a run got even
// when it failed or was killed. It is the one file of the output directory written in place
// rather than all-or-nothing (see AtomicOutputFile): a failed run keeps it, and it is most
// useful then.
//
// For the fault tests, XENON_TEST_SIGNAL_AT="SIGNAL:TEXT" (e.g. "KILL:phase dump: done")
// makes the process send itself SIGNAL (a number or KILL, TERM, INT) right after writing a
// line that begins with TEXT, and wait for it: a run stopped at an exact point.
// A default-constructed log is closed, and every call on it does nothing (the
// nodes other than 0 keep no log).
class RunLog {
 public:
  // One phase as it ran, in Unix time (ns), for the per-phase figures of --stats.
  struct Phase {
    std::string name;
    std::int64_t began_unix_nanoseconds = 0;
    std::int64_t ended_unix_nanoseconds = 0;
  };

  RunLog() = default;
  ~RunLog();
  RunLog(const RunLog&) = delete;
  RunLog& operator=(const RunLog&) = delete;

  // Creates (or replaces) the log at `path`; throws std::runtime_error naming it if it
  // cannot.
  void open(const std::string& path);
  bool is_open() const noexcept { return file_ != nullptr; }
  // Its file descriptor (-1 when closed), for the line of a run that ends at once
  // (sudden_exit).
  int descriptor() const noexcept;
  const std::string& path() const noexcept { return path_; }

  // One line of text (one line: newlines in it become spaces).
  void line(std::string_view text);

  // A phase begins; one still open ends first, without details. It is also noted as what the
  // run is doing (sudden_exit::note_activity).
  void begin_phase(std::string name);
  // The open phase ends: "phase NAME: done in S s: DETAILS". Without an open phase, the
  // duration is counted from the end of the last one.
  void end_phase(std::string_view details = {});

  // The run failed: the open phase, if any, is marked as stopped by it, then "error: WHY".
  void failed(std::string_view why);

  // The phases that ended so far, in order (none while the log is closed).
  std::vector<Phase> phases() const;

 private:
  // Writes one line; true if it is the one XENON_TEST_SIGNAL_AT waits for.
  bool write_locked(std::string_view text);
  void signal_if(bool asked) const;
  bool end_phase_locked(std::string_view details);

  mutable std::mutex mutex_;  // the coordinator logs from its worker, the tool from main()
  std::FILE* file_ = nullptr;
  std::string path_;
  bool write_failed_ = false;
  int test_signal_ = 0;            // XENON_TEST_SIGNAL_AT: the signal, 0 if none
  std::string test_signal_after_;  // and the beginning of the line after which it is sent
  std::string phase_;  // the open phase, or empty
  MonotonicClock::time_point phase_started_ = MonotonicClock::now();
  std::int64_t phase_started_unix_ = 0;
  std::vector<Phase> phases_;
};

// Now, in Unix time, in nanoseconds.
std::int64_t unix_nanoseconds();

// "2026-11-30T17:07:34.123Z": now, in UTC, to the millisecond.
std::string utc_timestamp();

}  // namespace xenon::genomics
