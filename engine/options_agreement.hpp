// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <string>

#include "xenon/engine/engine_options.hpp"

namespace xenon {

class Transport;

// What every node of one runtime must agree on: the version and the options that shape
// the wire and the names (threads per node fixes the workers an ActorName can reach;
// aggregation the frames). -pin and -verbose are the node's own business.
std::string options_fingerprint(const EngineOptions& options);

// Collective, before anything else travels: exchanges the fingerprints and, if any node
// differs from node 0, closes the transport (collectively, so that every process ends
// cleanly) and throws std::invalid_argument naming both values. Every node throws the same
// line.
void refuse_mismatched_options(Transport& transport, const EngineOptions& options);

}  // namespace xenon
