// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <string>

namespace xenon {

class CommandLine;

/// How one node (process) of the runtime is laid out: the Engine constructor reads it.
/// \threads A plain value: set it before building the Engine.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
struct EngineOptions {
  /// 1: one worker runs actors and drives the transport. N >= 2: N-1 workers plus one
  /// communication thread. At most 4096.
  std::int64_t threads_per_node = 1;
  bool pin = false;      ///< pin workers to distinct cores with hwloc
  bool verbose = false;  ///< print topology and placement at start
  /// Small messages to one node are gathered into frames of up to this many bytes before
  /// they are sent; 0 sends every message in a frame of its own (to measure what
  /// aggregation buys).
  std::int64_t aggregation_bytes = 60 * 1024;
  /// Across processes: a node from which nothing arrived for this many seconds (stopped,
  /// hung, unreachable) ends the job, naming it; heartbeats go every quarter of it. 0: never.
  /// The default suits a batch job: an actor may compute for minutes in one receive() on a
  /// node of one thread (which then sends no heartbeat).
  std::int64_t heartbeat_timeout_seconds = 600;
  /// Node 0 writes a Chrome trace event file (Perfetto, chrome://tracing) here at the end
  /// of a run() that did not fail: every node's workers' busy spans, the program's phases,
  /// counters over time. Empty: no trace, and no span recorded for it.
  std::string trace_path;
  /// Node 0 writes one self-contained HTML page here at the end of a run() that did not
  /// fail: timelines, message matrices, histogram, mailboxes, phases of every node. Empty:
  /// no report.
  std::string report_path;
  /// Load balancing within a node (two workers or more): a worker that has been idle takes
  /// ready actors from a busy one (children of Actor::spawn(), and actors that called
  /// Actor::allow_moving()). Off: every actor stays where it was placed (to compare, or
  /// for programs that place their actors themselves).
  bool balance = true;
  /// Also read each worker's CPU clock when a round of receive() calls begins and ends
  /// (EngineStatistics::busy_cpu_nanoseconds): busy time that the OS's running of other
  /// processes does not inflate, as wall-clock busy time is when processes outnumber cores.
  /// Two system calls per round: for measuring runs (the genomics tools' --stats), not for
  /// speed.
  bool measure_busy_cpu = false;

  /// How many workers (threads that run actors) threads_per_node gives.
  int worker_count() const { return threads_per_node == 1 ? 1 : static_cast<int>(threads_per_node - 1); }
  /// Whether a thread of its own drives the transport (threads_per_node >= 2).
  bool has_communication_thread() const { return threads_per_node > 1; }
};

/// Registers -threads-per-node, -pin, -verbose, -aggregation-bytes, -heartbeat-timeout,
/// -balance (on|off), --trace and --report, which write into
/// `options`; both must outlive command_line.parse(). \threads As CommandLine.
void add_engine_options(CommandLine& command_line, EngineOptions& options);

}  // namespace xenon
