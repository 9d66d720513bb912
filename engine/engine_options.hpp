#pragma once

#include <cstdint>

namespace xenon {

class CommandLine;

// How one node (process) of the runtime is laid out.
struct EngineOptions {
  // 1: one worker runs actors and drives the transport. N >= 2: N-1 workers plus one
  // communication thread.
  std::int64_t threads_per_node = 1;
  bool pin = false;      // pin workers to distinct cores with hwloc
  bool verbose = false;  // print topology and placement at start
  // Small messages to one node are gathered into frames of up to this many bytes before
  // they are sent; 0 sends every message in a frame of its own (to measure what
  // aggregation buys).
  std::int64_t aggregation_bytes = 60 * 1024;

  int worker_count() const { return threads_per_node == 1 ? 1 : static_cast<int>(threads_per_node - 1); }
  bool has_communication_thread() const { return threads_per_node > 1; }
};

// Registers -threads-per-node, -pin and -verbose.
void add_engine_options(CommandLine& command_line, EngineOptions& options);

}  // namespace xenon
