// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "core/parker.hpp"
#include "engine/phase_log.hpp"
#include "engine/work_requests.hpp"
#include "xenon/core/cache_line.hpp"
#include "xenon/engine/actor.hpp"
#include "xenon/engine/actor_registry.hpp"

namespace xenon {

class Worker;

// What the threads of one node share, and all that a Worker or the Communicator knows of
// the node they run in: its shape, where an actor lives, how many actors are alive, and
// whether the node is shutting down. The Engine builds it and wires the threads to it, so
// neither Worker nor Communicator knows Engine, and each can be built and tested alone.
//
// Threads: the shape and the wiring are set before any thread runs; the counters and flags
// below are atomics, each with its pairing stated where it is read or written.
class NodeContext {
 public:
  NodeContext(std::uint32_t node_index, std::uint32_t node_count, int worker_count,
              const ActorRegistry& registry);

  std::uint32_t node_index() const noexcept { return node_index_; }
  std::uint32_t node_count() const noexcept { return node_count_; }
  int worker_count() const noexcept { return worker_count_; }
  const ActorRegistry& registry() const noexcept { return registry_; }

  // ---- Wiring, before any thread runs ----
  // Worker `index` hosts actors placed on it; its parker is woken at shutdown.
  void add_worker(int index, Worker& worker, Parker& parker);
  // The thread that runs the communicator (its own, or worker 0 with one thread per node):
  // woken when termination should be checked, and at shutdown.
  void set_communicator_parker(Parker& parker) noexcept { communicator_parker_ = &parker; }

  // ---- Load balancing (engine/worker_balancing.cpp) ----
  // Before any thread runs (EngineOptions::balance); only with two workers or more.
  void set_balancing(bool on) noexcept { balancing_ = on && worker_count_ > 1; }
  bool balancing() const noexcept { return balancing_; }
  // Before any thread runs (EngineOptions::measure_busy_cpu).
  void set_measuring_busy_cpu(bool on) noexcept { measuring_busy_cpu_ = on; }
  bool measuring_busy_cpu() const noexcept { return measuring_busy_cpu_; }
  WorkRequests& work_requests() noexcept { return work_requests_; }
  // A fresh index on `worker` that names no actor: the slot of an actor that moved there
  // (Actor::slot_). Any thread; as place(), std::length_error past 2^31 indices.
  std::uint32_t reserve_index(int worker, std::string_view who);

  // ---- Where an actor lives: the one place that decides ----
  // Checks that `worker` exists (std::out_of_range naming `who` otherwise), names the actor
  // there (this node, that worker, the worker's next free index), makes `supervisor` its
  // supervisor and counts it as alive. The caller then hands it to that worker: adopt() on
  // the worker's own thread (or before the threads run), an ACTION_ADOPT message otherwise.
  // Any thread.
  ActorName place(Actor& actor, int worker, ActorName supervisor, std::string_view who);
  // An actor that migrated here keeps its name (engine/worker_migration.cpp): counted as
  // alive, before its worker can run it. Balancing does not move it.
  void place_migrated(Actor& actor, ActorName name, ActorName supervisor);
  // The highest index placed on `worker` so far, plus one. A worker reads it to tell a
  // message that overtook its actor (index below it) from one to a name never given out.
  std::uint32_t indices_reserved(int worker) const noexcept {
    // Relaxed: see place(); whoever routes a message to an index learned the name through a
    // chain of messages that started after the index was reserved (rings are
    // release/acquire), so this load sees that reservation.
    return next_index_[static_cast<std::size_t>(worker)].value.load(std::memory_order_relaxed);
  }

  // ---- Actors alive, spawn requests, and the end of the run ----
  std::int64_t live_actors() const noexcept {
    // Acquire: pairs with the acq_rel decrement in count_stopped_actor().
    return live_actors_.value.load(std::memory_order_acquire);
  }
  // An actor stopped; the thread that takes the count to zero asks for a termination check.
  void count_stopped_actor() noexcept;
  void count_spawn_request_sent() noexcept {
    // Relaxed: read only after an acquire of the live count that follows the requester's
    // stop, or by a wave answer that follows it the same way (see communicator_termination.cpp).
    spawn_requests_sent_.value.fetch_add(1, std::memory_order_relaxed);
  }
  std::uint64_t spawn_requests_sent() const noexcept {
    // Relaxed: see count_spawn_request_sent().
    return spawn_requests_sent_.value.load(std::memory_order_relaxed);
  }

  // Any thread: the node's live actor count reached zero (or was zero from the start);
  // wakes the communicator's thread, which then checks whether the whole run has ended.
  void request_termination_check() noexcept;
  // The communicator's thread: whether a check was asked for since the last call.
  bool take_termination_check() noexcept {
    // Relaxed first look, so the common case costs no read-modify-write; the exchange's
    // acquire pairs with the release store in request_termination_check().
    return termination_check_requested_.value.load(std::memory_order_relaxed) &&
           termination_check_requested_.value.exchange(false, std::memory_order_acquire);
  }
  bool termination_check_pending() const noexcept {
    // Relaxed: only decides whether to park; the exchange in take_termination_check()
    // synchronises.
    return termination_check_requested_.value.load(std::memory_order_relaxed);
  }

  bool shutting_down() const noexcept {
    // Acquire: pairs with the release store in request_shutdown().
    return shutting_down_.value.load(std::memory_order_acquire);
  }
  // Any thread: ends the run on this node; every thread's loop returns.
  void request_shutdown() noexcept;

  // The phases the program marks (Actor::begin_phase()), from any worker.
  PhaseLog& phases() noexcept { return phases_; }

 private:
  // One atomic per cache line: each is written by several threads.
  template <class T>
  struct alignas(kCacheLineSize) Padded {
    std::atomic<T> value{};
  };

  const std::uint32_t node_index_;
  const std::uint32_t node_count_;
  const int worker_count_;
  const ActorRegistry& registry_;
  std::vector<Worker*> workers_;  // by index
  std::vector<Parker*> worker_parkers_;
  Parker* communicator_parker_ = nullptr;
  bool balancing_ = false;
  bool measuring_busy_cpu_ = false;
  WorkRequests work_requests_;

  std::unique_ptr<Padded<std::uint32_t>[]> next_index_;  // by worker
  Padded<std::int64_t> live_actors_;
  Padded<bool> shutting_down_;
  Padded<std::uint64_t> spawn_requests_sent_;
  Padded<bool> termination_check_requested_;
  PhaseLog phases_;
};

}  // namespace xenon
