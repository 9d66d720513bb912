// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/bridge_tracer.hpp"

#include <stdexcept>
#include <string_view>

namespace xenon::genomics {

BridgeTracer::BridgeTracer(const EndIndex& slice, const DeadEnds& dead, AskOwner ask)
    : slice_(slice), dead_(dead), ask_(std::move(ask)), next_ticket_(first_ticket_of(slice.owner())) {}

void BridgeTracer::admit(std::string_view read) {
  MemoPlacer first(slice_, read);
  if (finish(read, first)) return;
  // Parked with its placer, which notes starts in the read: the same wherever its bases lie.
  const std::uint64_t id = next_read_++;
  Waiting& waiting = reads_[id];
  waiting.read.assign(read);
  waiting.placer = std::make_unique<MemoPlacer>(std::move(first));
  waiting.placer->rebase(waiting.read);
  ask_needed(id, waiting);
}

void BridgeTracer::answered(std::uint64_t ticket, std::optional<Place> place) {
  const auto found = ask_answered(asked_, ticket, place, slice_, "bridge tracer");
  const auto [id, start] = found->second;
  asked_.erase(found);
  Waiting& waiting = reads_.at(id);
  waiting.placer->answered(start, place);
  ++replays_;
  waiting.placer->begin_pass();
  if (finish(waiting.read, *waiting.placer)) {
    reads_.erase(id);
    return;
  }
  ask_needed(id, waiting);
}

bool BridgeTracer::finish(std::string_view read, const MemoPlacer& placer) {
  BridgeVotes found;
  find_bridges(placer, dead_, slice_.k(), read, found);
  if (placer.stalled()) return false;
  votes_.add_all(found);
  return true;
}

void BridgeTracer::ask_needed(std::uint64_t id, Waiting& waiting) {
  const std::size_t start = waiting.placer->take_needed();
  const std::uint64_t ticket = next_ticket_++;
  asked_.emplace(ticket, Asked{id, start});
  ask_(slice_.owner_of(waiting.read, start), std::string_view(waiting.read).substr(start, static_cast<std::size_t>(slice_.k())), ticket);
}

}  // namespace xenon::genomics
