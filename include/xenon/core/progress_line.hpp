// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdio>
#include <string>

#include "xenon/core/clock.hpp"

namespace xenon {

/// Progress of a long run on standard error (or any stream): on a terminal one line that is
/// rewritten in place, otherwise plain lines, at most one per interval. Disabled, it prints
/// nothing, so callers need no conditionals of their own.
///
///     ProgressLine progress(stderr, !quiet);
///     while (working) { if (progress.due()) progress.show(text()); }
///     progress.finish(final_text());
///
/// \threads One thread at a time (no locking); show() and finish() write and flush the stream.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
class ProgressLine {
 public:
  /// Shows lines on `stream` when `enabled` (and `stream` is not null), at most one per
  /// `interval_seconds` as judged by due().
  ProgressLine(std::FILE* stream, bool enabled, double interval_seconds = 1.0);
  /// Ends an open terminal line with a newline.
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// Whether anything is shown at all.
  bool enabled() const noexcept { return enabled_; }
  /// True when enabled and an interval has passed since the last line shown (or the start).
  bool due() const;
  /// Shows a line now and restarts the interval.
  void show(const std::string& text);
  /// Shows a last line (if any text) and, on a terminal, ends it with a newline.
  void finish(const std::string& text = {});

 private:
  std::FILE* stream_;
  bool enabled_;
  bool terminal_;
  double interval_seconds_;
  MonotonicClock::time_point last_shown_;
  bool line_open_ = false;  // a terminal line without its newline yet
  std::size_t last_width_ = 0;
};

}  // namespace xenon
