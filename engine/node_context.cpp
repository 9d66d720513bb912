// SPDX-License-Identifier: BSD-3-Clause
#include "engine/node_context.hpp"

#include <stdexcept>
#include <string>

#include "xenon/engine/ask.hpp"

namespace xenon {

NodeContext::NodeContext(std::uint32_t node_index, std::uint32_t node_count, int worker_count,
                         const ActorRegistry& registry)
    : node_index_(node_index),
      node_count_(node_count),
      worker_count_(worker_count),
      registry_(registry),
      workers_(static_cast<std::size_t>(worker_count), nullptr),
      worker_parkers_(static_cast<std::size_t>(worker_count), nullptr),
      work_requests_(worker_count),
      next_index_(
          std::make_unique<Padded<std::uint32_t>[]>(static_cast<std::size_t>(worker_count))) {}

void NodeContext::add_worker(int index, Worker& worker, Parker& parker) {
  workers_[static_cast<std::size_t>(index)] = &worker;
  worker_parkers_[static_cast<std::size_t>(index)] = &parker;
}

ActorName NodeContext::place(Actor& actor, int worker, ActorName supervisor, std::string_view who) {
  if (worker < 0 || worker >= worker_count_) {
    throw std::out_of_range(std::string(who) + ": worker " + std::to_string(worker) +
                            " does not exist (worker count " + std::to_string(worker_count_) + ")");
  }
  const std::uint32_t index = reserve_index(worker, who);
  actor.worker_ = workers_[static_cast<std::size_t>(worker)];
  actor.name_ = ActorName::make(node_index_, static_cast<std::uint32_t>(worker), index);
  actor.slot_ = index;
  actor.node_ = node_index_;
  actor.supervisor_ = supervisor;
  // Relaxed: the placing thread runs the supervisor (or is the thread that will call run()),
  // which is alive, so the count cannot reach zero concurrently; the decrement's acq_rel in
  // count_stopped_actor() orders everything that matters. A spawn request has no live
  // supervisor here, but it is counted before the actor can run, and the termination waves
  // account for the request itself (communicator_termination.cpp).
  live_actors_.value.fetch_add(1, std::memory_order_relaxed);
  return actor.name_;
}

void NodeContext::place_migrated(Actor& actor, ActorName name, ActorName supervisor) {
  actor.name_ = name;
  actor.node_ = node_index_;
  actor.supervisor_ = supervisor;
  actor.may_move_ = false;
  // Relaxed: as a spawn request in place(); the move was counted as one.
  live_actors_.value.fetch_add(1, std::memory_order_relaxed);
}

std::uint32_t NodeContext::reserve_index(int worker, std::string_view who) {
  // Relaxed: an index only has to be unique; see indices_reserved() for its readers.
  const std::uint32_t index =
      next_index_[static_cast<std::size_t>(worker)].value.fetch_add(1, std::memory_order_relaxed);
  if (index >= kReplyAddressBit) {  // the indices above are asks' reply addresses
    throw std::length_error(std::string(who) + ": worker " + std::to_string(worker) +
                            " has had 2^31 actors, the most a worker can name");
  }
  return index;
}

void NodeContext::count_stopped_actor() noexcept {
  // acq_rel: the release half publishes this worker's last actions; the acquire half, in
  // the worker that takes the count to zero, sees every other stop before shutting down.
  if (live_actors_.value.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    // No actor left on this node: the communicator decides whether the run has ended
    // (a spawn request may still be on its way, here or on another node).
    request_termination_check();
  }
}

void NodeContext::request_termination_check() noexcept {
  // Release: pairs with the acquire exchange in take_termination_check(); the caller's
  // decrement of the live count happens before the check that reads it.
  termination_check_requested_.value.store(true, std::memory_order_release);
  communicator_parker_->wake();
}

void NodeContext::request_shutdown() noexcept {
  // Release: pairs with the acquire load in shutting_down().
  shutting_down_.value.store(true, std::memory_order_release);
  for (Parker* parker : worker_parkers_) {
    if (parker != nullptr) parker->wake();  // null: a worker not wired (a test of one part)
  }
  communicator_parker_->wake();
}

}  // namespace xenon
