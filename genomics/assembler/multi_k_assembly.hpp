// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/assembler/assembler_coordinator.hpp"
#include "genomics/assembler/assembler_settings.hpp"
#include "genomics/assembler/carried_sequences.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "genomics/run/freed_memory.hpp"

namespace xenon::genomics {

// Runs an assembly as several k in turn (settings.k_rounds, smallest first), on node 0: one
// AssemblerCoordinator a round, each with stores of its own on every worker of every node,
// the next spawned when the last has stopped. A round before the last stops after cleaning
// and hands the next its unitigs (carried_sequences.hpp), which the next sends every store
// with the threshold: each keeps the k-mers of them it owns whatever their count, so what a smaller k
// joined through thin coverage stays joined at the larger k (as MEGAHIT and SPAdes carry a
// smaller k's contigs); their counts stay the reads' own, so coverage still means depth. The
// last round writes the output files; every round's k and threshold go into assembly.json and
// run.json. The sequences are about a genome: small enough for every store to hold a copy.
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
        start_round();
      } else if (action == ACTION_CHILD_STOPPED) {
        round_stopped(message);
      }
    } catch (const std::exception& error) {  // no coordinator is running: the run ends here
      counted_.error = error.what();
      counted_.succeeded = false;
      stop();
    }
  }

 private:
  bool last_round() const { return round_ + 1 == settings_.k_rounds.size(); }

  void start_round() {
    release_freed_memory();  // the last round's graph and tables
    AssemblerSettings round = settings_;
    round.counting.k = settings_.k_rounds[round_];
    round.carried_sequences = std::move(carried_);
    round.carry_to_next_round = !last_round();
    round.first_round = round_ == 0;
    round.first_round_filter = first_round_filter_;
    if (settings_.k_rounds.size() > 1) {
      log_.line("round " + std::to_string(round_ + 1) + " of " + std::to_string(settings_.k_rounds.size()) +
                ": k=" + std::to_string(round.counting.k) +
                (round_ == 0 ? std::string()
                             : ", keeping the k-mers of the " + std::to_string(carried_count(round.carried_sequences)) +
                                   " cleaned unitigs of k=" + std::to_string(settings_.k_rounds[round_ - 1])));
    }
    const int words = kmer_words(round.counting.k);
    ActorName coordinator;
    if (words == 1) {
      coordinator = spawn<AssemblerCoordinator<1>>(std::move(round), counted_, outcome_, log_);
    } else if (words == 2) {
      coordinator = spawn<AssemblerCoordinator<2>>(std::move(round), counted_, outcome_, log_);
    } else {
      coordinator = spawn<AssemblerCoordinator<4>>(std::move(round), counted_, outcome_, log_);
    }
    send(coordinator, ACTION_COUNTER_START);
  }

  // A round's coordinator has stopped: the run ends with its failure or the last round, else
  // the next round starts afresh (the counts and outcome of one k say nothing of another).
  void round_stopped(const Message& message) {
    if (message.payload_size() != 0 && counted_.error.empty()) {
      counted_.error = "the assembly's coordinator failed: " +
                       std::string(reinterpret_cast<const char*>(message.payload().data()), message.payload_size());
      counted_.succeeded = false;
    }
    if (!counted_.succeeded || last_round()) {
      stop();
      return;
    }
    std::vector<KRound> rounds = std::move(outcome_.rounds);
    carried_ = std::move(outcome_.carried_sequences);
    if (round_ == 0) {
      first_round_filter_ = std::make_shared<const KmerBloomFilter>(std::move(outcome_.first_round_filter));
    }
    outcome_ = AssemblyOutcome{};
    outcome_.rounds = std::move(rounds);
    counted_ = CounterOutcome{};
    ++round_;
    start_round();
  }

  AssemblerSettings settings_;
  CounterOutcome& counted_;
  AssemblyOutcome& outcome_;
  RunLog& log_;
  std::size_t round_ = 0;
  std::string carried_;  // from the round before, for the next
  std::shared_ptr<const KmerBloomFilter> first_round_filter_;  // its k-mers read twice or more, for the later rounds
};

}  // namespace xenon::genomics
