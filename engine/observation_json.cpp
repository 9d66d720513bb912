// SPDX-License-Identifier: BSD-3-Clause
#include "engine/observation_json.hpp"

#include <cstring>
#include <stdexcept>

#include "xenon/core/json_text.hpp"

namespace xenon {
namespace {

std::string number_list(const std::vector<std::uint64_t>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(values[i]);
  }
  return text + ']';
}

std::string histogram_json(const DurationHistogram& histogram) {
  // Buckets up to the last non-empty one: the page draws them as they are.
  std::size_t used = 0;
  for (std::size_t b = 0; b < DurationHistogram::kBuckets; ++b) {
    if (histogram.buckets[b] != 0) used = b + 1;
  }
  return "{\"count\":" + std::to_string(histogram.count) +
         ",\"p50_ns\":" + std::to_string(histogram.quantile_nanoseconds(0.5)) +
         ",\"p99_ns\":" + std::to_string(histogram.quantile_nanoseconds(0.99)) +
         ",\"max_ns\":" + std::to_string(histogram.max_nanoseconds) + ",\"log2_buckets\":" +
         number_list(std::vector<std::uint64_t>(histogram.buckets.begin(),
                                                histogram.buckets.begin() + static_cast<long>(used))) +
         '}';
}

}  // namespace

std::string node_observation_json(const NodeObservationInput& input) {
  const EngineStatistics& s = *input.statistics;
  std::string json = "{\"node\":" + std::to_string(input.node);
  json += ",\"timeline_start_unix_ns\":" + std::to_string(s.busy_timeline_start_unix_nanoseconds);
  json += ",\"bucket_ns\":" + std::to_string(s.busy_timeline_bucket_nanoseconds);
  json += ",\"end_unix_ns\":" + std::to_string(input.end_unix_nanoseconds);
  json += ",\"workers\":[";
  for (std::size_t w = 0; w < s.workers.size(); ++w) {
    const WorkerObservation& worker = s.workers[w];
    if (w > 0) json += ',';
    json += "{\"busy_ns\":" + std::to_string(worker.busy_nanoseconds) +
            ",\"idle_ns\":" + std::to_string(worker.idle_nanoseconds) +
            ",\"parked_ns\":" + std::to_string(worker.parked_nanoseconds) +
            ",\"received\":" + std::to_string(worker.messages_received) +
            ",\"sent_same_worker\":" + std::to_string(worker.sent_to_same_worker) +
            ",\"sent_other_workers\":" + std::to_string(worker.sent_to_other_workers) +
            ",\"sent_other_nodes\":" + std::to_string(worker.sent_to_other_nodes) +
            ",\"ring_full_waits\":" + std::to_string(worker.ring_full_waits) +
            ",\"sent_to_worker\":" + number_list(worker.sent_to_worker) +
            ",\"busy_buckets_ns\":" +
            number_list(w < input.worker_busy_buckets.size() ? input.worker_busy_buckets[w]
                                                              : std::vector<std::uint64_t>{}) +
            '}';
  }
  json += "],\"receive_time\":" + histogram_json(s.receive_time);
  json += ",\"queue_time\":" + histogram_json(s.queue_time);
  json += ",\"actor_types\":[";
  for (std::size_t t = 0; t < s.actor_types.size(); ++t) {
    const ActorTypeObservation& type = s.actor_types[t];
    if (t > 0) json += ',';
    json += "{\"type\":" + json_quoted(type.type) + ",\"actors\":" + std::to_string(type.actors) +
            ",\"handled\":" + std::to_string(type.messages_handled) +
            ",\"mailbox_high_water\":" + std::to_string(type.mailbox_high_water) + '}';
  }
  json += "],\"to_nodes\":[";
  for (std::size_t n = 0; n < s.to_nodes.size(); ++n) {
    const NodePairTraffic& traffic = s.to_nodes[n];
    if (n > 0) json += ',';
    json += "{\"frames\":" + std::to_string(traffic.frames) +
            ",\"messages\":" + std::to_string(traffic.messages) +
            ",\"bytes\":" + std::to_string(traffic.bytes) + '}';
  }
  json += "],\"phases\":[";
  for (std::size_t p = 0; p < input.phases.size(); ++p) {
    if (p > 0) json += ',';
    json += "{\"name\":" + json_quoted(input.phases[p].name) +
            ",\"start_unix_ns\":" + std::to_string(input.phases[p].start_unix_nanoseconds) +
            ",\"end_unix_ns\":" + std::to_string(input.phases[p].end_unix_nanoseconds) + '}';
  }
  return json + "]}";
}

std::string encode_traffic(const std::vector<NodePairTraffic>& traffic) {
  std::string bytes(traffic.size() * 3 * sizeof(std::uint64_t), '\0');
  char* out = bytes.data();
  for (const NodePairTraffic& pair : traffic) {
    for (const std::uint64_t value : {pair.frames, pair.messages, pair.bytes}) {
      std::memcpy(out, &value, sizeof value);  // read back by this same build (node 0)
      out += sizeof value;
    }
  }
  return bytes;
}

std::vector<NodePairTraffic> decode_traffic(const std::string& bytes) {
  constexpr std::size_t kEntry = 3 * sizeof(std::uint64_t);
  if (bytes.size() % kEntry != 0) {
    throw std::runtime_error("node traffic of " + std::to_string(bytes.size()) +
                             " bytes is not a whole number of entries");
  }
  std::vector<NodePairTraffic> traffic(bytes.size() / kEntry);
  const char* in = bytes.data();
  for (NodePairTraffic& pair : traffic) {
    for (std::uint64_t* value : {&pair.frames, &pair.messages, &pair.bytes}) {
      std::memcpy(value, in, sizeof *value);
      in += sizeof *value;
    }
  }
  return traffic;
}

}  // namespace xenon
