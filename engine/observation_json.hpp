// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/phase_log.hpp"
#include "xenon/engine/engine.hpp"

namespace xenon {

// One node's part of the report (--report): its statistics as a JSON object, with each
// worker's busy timeline and the phases marked on it. Node 0 gathers every node's.
struct NodeObservationInput {
  int node = 0;
  const EngineStatistics* statistics = nullptr;
  std::vector<std::vector<std::uint64_t>> worker_busy_buckets;  // by worker, 50 ms buckets
  std::vector<PhaseLog::Phase> phases;
  std::int64_t end_unix_nanoseconds = 0;  // when run() ended here
};
std::string node_observation_json(const NodeObservationInput& input);

// What one node sent each node, as bytes for Transport::gather_at_end, and back (throws
// std::runtime_error on a length that is not a whole number of entries).
std::string encode_traffic(const std::vector<NodePairTraffic>& traffic);
std::vector<NodePairTraffic> decode_traffic(const std::string& bytes);

}  // namespace xenon
