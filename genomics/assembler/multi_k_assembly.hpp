// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/assembler/assembler_coordinator.hpp"
#include "genomics/assembler/assembler_settings.hpp"
#include "genomics/assembler/carried_sequences.hpp"
#include "genomics/assembler/filter_keeper.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "genomics/run/freed_memory.hpp"

namespace xenon::genomics {

// Runs an assembly as several k in turn (settings.k_rounds, smallest first), on node 0: one
// AssemblerCoordinator a round, each with stores of its own on every worker of every node,
// the next spawned when the last has stopped. A round before the last stops after cleaning
// and hands the next its unitigs (carried_sequences.hpp), a share of which the next sends
// each store with the threshold; the stores route their k-mers to their owners
// (carried_kmer_exchange.hpp), and each keeps those it owns whatever their count, so what a
// smaller k joined through thin coverage stays joined at the larger k (as MEGAHIT and SPAdes
// carry a smaller k's contigs); their counts stay the reads' own, so coverage still means
// depth. The last round writes the output files; every round's k and threshold go into
// assembly.json and run.json.
// The first round's filter of k-mers read twice or more waits for the later rounds in slices,
// one on every node (filter_keeper.hpp); before each later round the keepers put it together
// on every node, with what the round's carried k-mers add.
class MultiKAssembly : public Actor {
 public:
  MultiKAssembly(AssemblerSettings settings, CounterOutcome& counted, AssemblyOutcome& outcome, RunLog& log)
      : settings_(std::move(settings)), counted_(counted), outcome_(outcome), log_(log) {
    if (settings_.k_rounds.empty()) throw std::invalid_argument("an assembly of no k");
  }

  void receive(const Message& message) override {
    const Action action = message.action();
    try {
      if (action == ACTION_COUNTER_START) {
        begin();
      } else if (action == ACTION_SPAWNED) {
        keeper_spawned(SpawnedActor::from(message));
      } else if (action == ACTION_CHILD_STOPPED && message.source() == coordinator_) {
        round_stopped(message);
      } else if (action == ACTION_CHILD_STOPPED) {
        keeper_stopped(message);
      }
    } catch (const std::exception& error) {
      fail(error.what());
    }
  }

 private:
  bool last_round() const { return round_ + 1 == settings_.k_rounds.size(); }

  AssemblerSettings round_settings() const {
    AssemblerSettings round = settings_;
    round.counting.k = settings_.k_rounds[round_];
    round.carry_to_next_round = !last_round();
    round.first_round = round_ == 0;
    return round;
  }

  // A first round that builds the filter for the later ones starts once a keeper for its
  // slices is on every node.
  void begin() {
    if (!builds_count_filter(round_settings())) {
      start_round();
      return;
    }
    keepers_.assign(static_cast<std::size_t>(node_count()), ActorName::none());
    for (int node = 0; node < node_count(); ++node) {
      if (node == node_index()) {
        keepers_[static_cast<std::size_t>(node)] = spawn_on<FilterKeeper>(0);
      } else {
        keeper_requests_[request_spawn(node, 0, kFilterKeeperType)] = static_cast<std::size_t>(node);
      }
      ++keepers_alive_;  // once asked for: a spawn that threw leaves none to wait for
    }
    if (keeper_requests_.empty()) start_round();
  }

  void keeper_spawned(const SpawnedActor& spawned) {
    const auto found = keeper_requests_.find(spawned.request);
    if (found == keeper_requests_.end()) throw std::logic_error("answer to unknown spawn request " + std::to_string(spawned.request));
    const std::size_t node = found->second;
    keeper_requests_.erase(found);
    if (finishing_) {  // the run failed meanwhile: this one stops too, or the run would not end
      send(spawned.name, ACTION_COUNTER_STOP);
      return;
    }
    keepers_[node] = spawned.name;
    if (keeper_requests_.empty()) start_round();
  }

  void start_round() {
    release_freed_memory();  // the last round's graph and tables
    AssemblerSettings round = round_settings();
    round.carried_sequences = std::move(carried_);
    if (round_ != 0) round.first_round_filter_words = filter_words_;  // kept in slices: filter_keeper.hpp
    round.filter_keepers = keepers_;
    if (settings_.k_rounds.size() > 1) {
      log_.line("round " + std::to_string(round_ + 1) + " of " + std::to_string(settings_.k_rounds.size()) +
                ": k=" + std::to_string(round.counting.k) +
                (round_ == 0 ? std::string()
                             : ", keeping the k-mers of the " + std::to_string(carried_count(round.carried_sequences)) +
                                   " cleaned unitigs of k=" + std::to_string(settings_.k_rounds[round_ - 1])));
    }
    const int words = kmer_words(round.counting.k);
    if (words == 1) {
      coordinator_ = spawn<AssemblerCoordinator<1>>(std::move(round), counted_, outcome_, log_);
    } else if (words == 2) {
      coordinator_ = spawn<AssemblerCoordinator<2>>(std::move(round), counted_, outcome_, log_);
    } else {
      coordinator_ = spawn<AssemblerCoordinator<4>>(std::move(round), counted_, outcome_, log_);
    }
    send(coordinator_, ACTION_COUNTER_START);
  }

  // A round's coordinator has stopped: the run ends with its failure or the last round, else
  // the next round starts afresh (the counts and outcome of one k say nothing of another),
  // but for the record of each round and the ways between dead ends that the last round's
  // read pairs may confirm (paired_gaps.hpp).
  void round_stopped(const Message& message) {
    coordinator_ = ActorName::none();
    if (message.payload_size() != 0 && counted_.error.empty()) {
      counted_.error = "the assembly's coordinator failed: " +
                       std::string(reinterpret_cast<const char*>(message.payload().data()), message.payload_size());
      counted_.succeeded = false;
    }
    if (!failure_while_a_round_ran_.empty() && counted_.error.empty()) {
      counted_.error = failure_while_a_round_ran_;
      counted_.succeeded = false;
    }
    if (!counted_.succeeded || last_round() || finishing_) {
      finish();
      return;
    }
    std::vector<KRound> rounds = std::move(outcome_.rounds);
    std::vector<ShortOverlap> short_overlaps = std::move(outcome_.short_overlaps);
    carried_ = std::move(outcome_.carried_sequences);
    if (round_ == 0) filter_words_ = outcome_.first_round_filter_words;
    outcome_ = AssemblyOutcome{};
    outcome_.rounds = std::move(rounds);
    outcome_.short_overlaps = std::move(short_overlaps);
    counted_ = CounterOutcome{};
    ++round_;
    if (filter_words_ == 0) stop_keepers();  // the first round made no filter (or there is none to keep)
    start_round();
  }

  void keeper_stopped(const Message& message) {
    --keepers_alive_;
    for (ActorName& keeper : keepers_) {
      if (keeper == message.source()) keeper = ActorName::none();
    }
    if (message.payload_size() != 0) {
      fail("a filter keeper failed: " +
           std::string(reinterpret_cast<const char*>(message.payload().data()), message.payload_size()));
    }
    if (finishing_ && keepers_alive_ == 0) stop();
  }

  void stop_keepers() {
    for (ActorName& keeper : keepers_) {
      if (keeper.is_none()) continue;
      send(keeper, ACTION_COUNTER_STOP);
      keeper = ActorName::none();
    }
  }

  // A round that is running shares the outcome with this actor (on another worker, perhaps):
  // it is told (its parsers may be waiting for the keepers' filter) and ends on its own, and
  // the failure is reported when it has stopped.
  void fail(const std::string& why) {
    if (!coordinator_.is_none()) {
      if (failure_while_a_round_ran_.empty()) {
        failure_while_a_round_ran_ = why;
        send(coordinator_, ACTION_FILTER_KEEPER_FAILED, Payload::copy_of(std::as_bytes(std::span(why))));
      }
      return;
    }
    if (counted_.error.empty()) counted_.error = why;
    counted_.succeeded = false;
    finish();
  }

  // The run is over: this actor stops once its keepers have (a keeper still being spawned
  // is stopped when its name arrives).
  void finish() {
    finishing_ = true;
    stop_keepers();
    if (keepers_alive_ == 0) stop();
  }

  AssemblerSettings settings_;
  CounterOutcome& counted_;
  AssemblyOutcome& outcome_;
  RunLog& log_;
  std::size_t round_ = 0;
  ActorName coordinator_ = ActorName::none();  // the round's, while it runs
  std::string carried_;                        // from the round before, for the next
  std::vector<ActorName> keepers_;             // of the first round's filter, one a node (filter_keeper.hpp)
  std::map<std::uint64_t, std::size_t> keeper_requests_;  // spawn request -> node
  std::size_t keepers_alive_ = 0;                         // spawned or on their way, not stopped
  std::uint64_t filter_words_ = 0;                        // the first round's filter, 0 for none
  std::string failure_while_a_round_ran_;
  bool finishing_ = false;
};

}  // namespace xenon::genomics
