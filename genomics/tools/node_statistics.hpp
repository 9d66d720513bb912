// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/io/atomic_output_file.hpp"
#include "genomics/io/input_bytes.hpp"
#include "genomics/io/run_log.hpp"
#include "genomics/run/exchanges.hpp"
#include "genomics/run/graph_copies.hpp"
#include "genomics/run/resident_memory_timeline.hpp"
#include "genomics/run/scattered_bytes.hpp"

namespace xenon::genomics {

// --stats DIR: after the run, each node writes DIR/TOOL-node-N.json with what it cost that
// node, for performance/scaling/scaling_report.py to lay the nodes side by side: its peak
// memory, the time its workers spent in receive() (in total and per 50 ms of wall-clock
// time), its resident memory (the most in each of the same 50 ms), what it sent to other
// nodes, and how much input it read. Node 0 adds the tool's phases (from its log) with their
// Unix times, which the report maps onto every node's timelines; so the per-phase figures of
// a node come from its own timelines.
class NodeStatistics {
 public:
  // Before the run: creates `directory` (empty: no statistics), so that a directory that
  // cannot be made fails the run before it starts; throws std::runtime_error naming it.
  NodeStatistics(std::string tool, std::string directory)
      : tool_(std::move(tool)), directory_(std::move(directory)), started_unix_(unix_nanoseconds()) {
    if (directory_.empty()) return;
    std::error_code error;
    std::filesystem::create_directories(directory_, error);
    if (error || !std::filesystem::is_directory(directory_)) {
      throw std::runtime_error(directory_ + ": cannot create the statistics directory" +
                               (error ? ": " + error.message() : std::string()));
    }
    memory_ = std::make_unique<ResidentMemoryTimeline>();
  }

  // Before the Engine is built: with statistics asked for, its workers measure their busy CPU
  // time too (EngineOptions::measure_busy_cpu: two system calls a round).
  void ask_for_busy_cpu(EngineOptions& options) const noexcept { options.measure_busy_cpu = !directory_.empty(); }

  // After the run, on every node: writes this node's file (nothing without a directory).
  void write(const Engine& engine, const RunLog& log) const {
    if (directory_.empty()) return;
    const EngineStatistics statistics = engine.statistics();
    std::string json = "{\n";
    field(json, "tool", quoted(tool_));
    field(json, "node", std::to_string(engine.node_index()));
    field(json, "nodes", std::to_string(engine.node_count()));
    field(json, "workers", std::to_string(engine.worker_count()));
    field(json, "started_unix_nanoseconds", std::to_string(started_unix_));
    field(json, "ended_unix_nanoseconds", std::to_string(unix_nanoseconds()));
    const ResidentMemoryTimeline::Timeline memory = memory_->timeline();
    field(json, "peak_rss_bytes", std::to_string(peak_rss_bytes()));
    if (!memory.peak_bytes.empty()) {  // none where /proc/self/status cannot be read
      field(json, "rss_timeline_start_unix_nanoseconds", std::to_string(memory.start_unix_nanoseconds));
      field(json, "rss_timeline_bucket_nanoseconds",
            std::to_string(std::chrono::nanoseconds(ResidentMemoryTimeline::kBucket).count()));
      field(json, "rss_timeline_peak_bytes", list(memory.peak_bytes));
    }
    field(json, "input_bytes_read", std::to_string(input_bytes_read_by_this_process().load(std::memory_order_relaxed)));
    field(json, "messages_received", std::to_string(statistics.messages_received));
    field(json, "messages_to_other_nodes", std::to_string(statistics.messages_to_other_nodes));
    field(json, "actors_moved", std::to_string(statistics.actors_moved));  // load balancing (-balance)
    field(json, "bytes_to_other_nodes", std::to_string(statistics.bytes_to_other_nodes));
    // Of those, shares of data this node alone held (genomics/run/scattered_bytes.hpp).
    field(json, "bytes_scattered_to_other_nodes",
          std::to_string(bytes_scattered_by_this_process().load(std::memory_order_relaxed)));
    // Exchanges with every peer its actors took part in (genomics/run/exchanges.hpp).
    field(json, "exchanges_with_every_peer", std::to_string(exchanges_by_this_process().load(std::memory_order_relaxed)));
    // The most this node held at once in copies of the whole graph (genomics/run/graph_copies.hpp).
    field(json, "graph_copy_peak_bytes", std::to_string(GraphCopies::peak_bytes()));
    field(json, "frames_sent", std::to_string(statistics.frames_sent));
    field(json, "frames_received", std::to_string(statistics.frames_received));
    field(json, "busy_nanoseconds", std::to_string(statistics.busy_nanoseconds));
    field(json, "worker_busy_nanoseconds", list(statistics.worker_busy_nanoseconds));
    // The same rounds' CPU time: what the workers computed, whoever else had the cores.
    field(json, "busy_cpu_nanoseconds", std::to_string(statistics.busy_cpu_nanoseconds));
    field(json, "worker_busy_cpu_nanoseconds", list(statistics.worker_busy_cpu_nanoseconds));
    field(json, "busy_cpu_timeline_nanoseconds", list(statistics.busy_cpu_timeline_nanoseconds));
    field(json, "busy_timeline_start_unix_nanoseconds",
          std::to_string(statistics.busy_timeline_start_unix_nanoseconds));
    field(json, "busy_timeline_bucket_nanoseconds", std::to_string(statistics.busy_timeline_bucket_nanoseconds));
    field(json, "busy_timeline_nanoseconds", list(statistics.busy_timeline_nanoseconds));
    // Where each worker's time and messages went, and what went to each node
    // (EngineStatistics::workers and to_nodes: the counters of --report).
    std::vector<std::uint64_t> idle, parked, same, other_workers, other_nodes, ring_full, to_nodes_messages,
        to_nodes_frames, to_nodes_bytes;
    for (const WorkerObservation& worker : statistics.workers) {
      idle.push_back(worker.idle_nanoseconds);
      parked.push_back(worker.parked_nanoseconds);
      same.push_back(worker.sent_to_same_worker);
      other_workers.push_back(worker.sent_to_other_workers);
      other_nodes.push_back(worker.sent_to_other_nodes);
      ring_full.push_back(worker.ring_full_waits);
    }
    for (const NodePairTraffic& traffic : statistics.to_nodes) {
      to_nodes_messages.push_back(traffic.messages);
      to_nodes_frames.push_back(traffic.frames);
      to_nodes_bytes.push_back(traffic.bytes);
    }
    field(json, "worker_idle_nanoseconds", list(idle));
    field(json, "worker_parked_nanoseconds", list(parked));
    field(json, "worker_sent_to_same_worker", list(same));
    field(json, "worker_sent_to_other_workers", list(other_workers));
    field(json, "worker_sent_to_other_nodes", list(other_nodes));
    field(json, "worker_ring_full_waits", list(ring_full));
    field(json, "receive_sampled", std::to_string(statistics.receive_time.count));
    field(json, "receive_p50_nanoseconds", std::to_string(statistics.receive_time.quantile_nanoseconds(0.5)));
    field(json, "receive_p99_nanoseconds", std::to_string(statistics.receive_time.quantile_nanoseconds(0.99)));
    field(json, "receive_max_nanoseconds", std::to_string(statistics.receive_time.max_nanoseconds));
    field(json, "to_nodes_messages", list(to_nodes_messages));
    field(json, "to_nodes_frames", list(to_nodes_frames));
    field(json, "to_nodes_bytes", list(to_nodes_bytes));
    std::string phases = "[";
    for (const RunLog::Phase& phase : log.phases()) {
      phases += (phases.size() > 1 ? ",\n    " : "\n    ");
      phases += "{\"name\": " + quoted(phase.name) +
                ", \"began_unix_nanoseconds\": " + std::to_string(phase.began_unix_nanoseconds) +
                ", \"ended_unix_nanoseconds\": " + std::to_string(phase.ended_unix_nanoseconds) + "}";
    }
    phases += phases.size() > 1 ? "\n  ]" : "]";
    field(json, "phases", phases, true);
    json += "}\n";
    AtomicOutputFile file(
        (std::filesystem::path(directory_) / (tool_ + "-node-" + std::to_string(engine.node_index()) + ".json"))
            .string());
    file.write(json);
    file.commit();
  }

 private:
  static std::uint64_t peak_rss_bytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux counts KiB
  }

  static void field(std::string& json, std::string_view name, std::string_view value, bool last = false) {
    json += "  \"";
    json += name;
    json += "\": ";
    json += value;
    json += last ? "\n" : ",\n";
  }

  static std::string list(const std::vector<std::uint64_t>& values) {
    std::string text = "[";
    for (std::size_t i = 0; i < values.size(); ++i) text += (i == 0 ? "" : ", ") + std::to_string(values[i]);
    return text + "]";
  }

  static std::string quoted(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
      if (c == '"' || c == '\\') out += '\\';
      if (static_cast<unsigned char>(c) < 0x20) continue;  // phase names are one line
      out += c;
    }
    return out + "\"";
  }

  std::string tool_;
  std::string directory_;
  std::int64_t started_unix_;
  std::unique_ptr<ResidentMemoryTimeline> memory_;  // with a directory
};

}  // namespace xenon::genomics
