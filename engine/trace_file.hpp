// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/phase_log.hpp"
#include "engine/span_ring.hpp"

namespace xenon {

// One node's events in the Chrome trace event format (--trace): process `node`, a thread
// per worker with its busy spans ("X"), a thread of the program's phases, and each
// worker's busy share per 50 ms bucket as a counter ("C"). Times are Unix microseconds, so
// the nodes' events line up. Returned as events separated by commas (node 0 joins them).
struct NodeTraceInput {
  int node = 0;
  std::int64_t origin_unix_nanoseconds = 0;  // where the spans' and buckets' times begin
  std::uint64_t bucket_nanoseconds = 0;
  std::vector<const SpanRing*> worker_spans;                    // by worker
  std::vector<std::vector<std::uint64_t>> worker_busy_buckets;  // by worker
  std::vector<PhaseLog::Phase> phases;  // every one ended
};
std::string node_trace_events(const NodeTraceInput& input);

// Writes {"traceEvents":[...]} with every node's events to `path`; throws
// std::runtime_error naming the file if it cannot be written.
void write_trace_file(const std::string& path, const std::vector<std::string>& node_events);

}  // namespace xenon
