// SPDX-License-Identifier: BSD-3-Clause
#include "engine/options_agreement.hpp"

#include <stdexcept>
#include <vector>

#include "transport/transport.hpp"
#include "xenon/core/version.hpp"

namespace xenon {

std::string options_fingerprint(const EngineOptions& options) {
  return "-threads-per-node " + std::to_string(options.threads_per_node) +
         " -aggregation-bytes " + std::to_string(options.aggregation_bytes) +
         " -heartbeat-timeout " + std::to_string(options.heartbeat_timeout_seconds) + " (Xenon " +
         XENON_VERSION_STRING + ")";
}

void refuse_mismatched_options(Transport& transport, const EngineOptions& options) {
  if (transport.node_count() == 1) return;
  const std::vector<std::string> fingerprints =
      transport.exchange_at_start(options_fingerprint(options));
  for (std::size_t node = 1; node < fingerprints.size(); ++node) {
    if (fingerprints[node] == fingerprints[0]) continue;
    transport.close([](int, std::span<const std::byte>) { return true; });  // nothing was sent
    throw std::invalid_argument("the ranks were started with different engine options: rank 0 "
                                "with " + fingerprints[0] + ", rank " + std::to_string(node) +
                                " with " + fingerprints[node] + "; start every rank with the same");
  }
}

}  // namespace xenon
