// SPDX-License-Identifier: BSD-3-Clause
#include "engine/trace_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <stdexcept>

#include "xenon/core/error_text.hpp"
#include "xenon/core/json_text.hpp"

namespace xenon {
namespace {

// The phases' thread: far above any worker index.
constexpr int kPhaseThread = 1 << 20;

std::string microseconds(std::int64_t unix_nanoseconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", static_cast<double>(unix_nanoseconds) / 1000.0);
  return text;
}

void add(std::string& events, const std::string& event) {
  if (!events.empty()) events += ",\n";
  events += event;
}

}  // namespace

std::string node_trace_events(const NodeTraceInput& input) {
  const std::string pid = std::to_string(input.node);
  std::string events;
  add(events, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + pid +
                  ",\"args\":{\"name\":\"node " + pid + "\"}}");
  for (std::size_t w = 0; w < input.worker_spans.size(); ++w) {
    const std::string tid = std::to_string(w);
    add(events, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + pid + ",\"tid\":" + tid +
                    ",\"args\":{\"name\":\"worker " + tid + "\"}}");
    const SpanRing* spans = input.worker_spans[w];
    if (spans == nullptr) continue;
    const std::string kept = std::to_string(spans->stride());
    for (const SpanRing::Span& span : spans->spans()) {
      add(events, "{\"ph\":\"X\",\"name\":\"busy\",\"cat\":\"worker\",\"pid\":" + pid +
                      ",\"tid\":" + tid + ",\"ts\":" +
                      microseconds(input.origin_unix_nanoseconds + span.begin_nanoseconds) +
                      ",\"dur\":" + microseconds(span.end_nanoseconds - span.begin_nanoseconds) +
                      ",\"args\":{\"messages\":" + std::to_string(span.messages) +
                      ",\"one_round_in\":" + kept + "}}");
    }
  }
  add(events, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + pid + ",\"tid\":" +
                  std::to_string(kPhaseThread) + ",\"args\":{\"name\":\"phases\"}}");
  for (std::size_t p = 0; p < input.phases.size(); ++p) {
    const std::int64_t begin = input.phases[p].start_unix_nanoseconds;
    const std::int64_t end = input.phases[p].end_unix_nanoseconds;
    add(events, "{\"ph\":\"X\",\"name\":" + json_quoted(input.phases[p].name) +
                    ",\"cat\":\"phase\",\"pid\":" + pid + ",\"tid\":" + std::to_string(kPhaseThread) +
                    ",\"ts\":" + microseconds(begin) + ",\"dur\":" +
                    microseconds(end > begin ? end - begin : 0) + "}");
  }
  // Busy share of each worker per bucket, as a percentage.
  std::size_t buckets = 0;
  for (const auto& worker : input.worker_busy_buckets) buckets = std::max(buckets, worker.size());
  for (std::size_t b = 0; b < buckets && input.bucket_nanoseconds > 0; ++b) {
    std::string args;
    for (std::size_t w = 0; w < input.worker_busy_buckets.size(); ++w) {
      const auto& worker = input.worker_busy_buckets[w];
      const std::uint64_t busy = b < worker.size() ? worker[b] : 0;
      if (!args.empty()) args += ',';
      args += "\"worker " + std::to_string(w) + "\":" +
              std::to_string(100 * busy / input.bucket_nanoseconds);
    }
    add(events, "{\"ph\":\"C\",\"name\":\"busy %\",\"pid\":" + pid + ",\"ts\":" +
                    microseconds(input.origin_unix_nanoseconds +
                                 static_cast<std::int64_t>(b * input.bucket_nanoseconds)) +
                    ",\"args\":{" + args + "}}");
  }
  return events;
}

void write_trace_file(const std::string& path, const std::vector<std::string>& node_events) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    throw std::runtime_error("cannot write the trace file " + path + ": " + error_text(errno));
  }
  std::string text = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  bool first = true;
  for (const std::string& events : node_events) {
    if (events.empty()) continue;
    if (!first) text += ",\n";
    text += events;
    first = false;
  }
  text += "\n]}\n";
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (std::fclose(file) != 0 || !written) {
    throw std::runtime_error("cannot write the trace file " + path + ": " + error_text(errno));
  }
}

}  // namespace xenon
