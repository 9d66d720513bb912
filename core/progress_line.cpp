// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/core/progress_line.hpp"

#include <unistd.h>

namespace xenon {

ProgressLine::ProgressLine(std::FILE* stream, bool enabled, double interval_seconds)
    : stream_(stream),
      enabled_(enabled && stream != nullptr),
      terminal_(enabled_ && isatty(fileno(stream)) == 1),
      interval_seconds_(interval_seconds),
      last_shown_(MonotonicClock::now()) {}

ProgressLine::~ProgressLine() {
  if (line_open_) std::fputc('\n', stream_);
}

bool ProgressLine::due() const {
  return enabled_ && seconds_between(last_shown_, MonotonicClock::now()) >= interval_seconds_;
}

void ProgressLine::show(const std::string& text) {
  last_shown_ = MonotonicClock::now();
  if (!enabled_) return;
  if (terminal_) {
    // Overwrite the previous line; pad with spaces where it was longer.
    const std::size_t padding = last_width_ > text.size() ? last_width_ - text.size() : 0;
    std::fprintf(stream_, "\r%s%*s", text.c_str(), static_cast<int>(padding), "");
    last_width_ = text.size();
    line_open_ = true;
  } else {
    std::fprintf(stream_, "%s\n", text.c_str());
  }
  std::fflush(stream_);
}

void ProgressLine::finish(const std::string& text) {
  if (!enabled_) return;
  if (!text.empty()) show(text);
  if (line_open_) {
    std::fputc('\n', stream_);
    line_open_ = false;
    last_width_ = 0;
  }
  std::fflush(stream_);
}

}  // namespace xenon
