// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/engine/engine_options.hpp"

#include "xenon/core/command_line.hpp"
#include "xenon/engine/actor_name.hpp"

namespace xenon {

void add_engine_options(CommandLine& command_line, EngineOptions& options) {
  command_line.add_integer("threads-per-node", &options.threads_per_node, 1,
                           ActorName::kMaxWorkers + 1,
                           "threads per node: 1 = one worker; N >= 2 = N-1 workers + 1 "
                           "communication thread");
  command_line.add_flag("pin", &options.pin, "pin worker threads to distinct cores (hwloc)");
  command_line.add_flag("verbose", &options.verbose, "print topology and thread placement");
  command_line.add_integer("aggregation-bytes", &options.aggregation_bytes, 0, 64 << 20,
                           "gather messages to one node into frames of up to this many bytes "
                           "(0: one message per frame)");
  command_line.add_integer("heartbeat-timeout", &options.heartbeat_timeout_seconds, 0, 86400,
                           "under mpiexec: end the job when a rank has sent nothing for this "
                           "many seconds (stopped, hung, unreachable); 0: never");
  command_line.add_string("trace", &options.trace_path,
                          "write a Chrome trace event file (open it in Perfetto or "
                          "chrome://tracing): workers' busy spans, phases, counters");
  command_line.add_string("report", &options.report_path,
                          "write a self-contained HTML report of the run: timelines, message "
                          "matrix, histograms, mailboxes, phases");
  command_line.add_flag("balance", &options.balance,
                        "on|off: idle workers take ready actors from busy ones (load balancing)");
}

}  // namespace xenon
