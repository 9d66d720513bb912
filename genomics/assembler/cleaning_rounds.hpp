// SPDX-License-Identifier: BSD-3-Clause
// The order of the cleaning's steps when the stores clean (junction_cleaning.hpp), to the
// same effect as UnitigGraph::clean(): in each round weak branches, then tips, then bubbles,
// the unitigs joined again after each kind that removed any, until a round removes nothing or
// the rounds run out. A step judges every kind the round has left at once; the first of them
// that removed anything is the one applied, and the next step judges those after it, on the
// joined unitigs. Every store follows the rounds, and the coordinator too: each asks what
// comes next and says how each step went.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "genomics/assembler/junction_cleaning.hpp"
#include "genomics/assembler/unitig_graph.hpp"

namespace xenon::genomics {

class CleaningRounds {
 public:
  enum class Next { step, join, finished };
  using Step = JunctionCleaning::Step;
  // For each kind of removal, the unitigs it would remove over all the stores (the
  // coordinator's sums, which report() adds up), or any count that is 0 exactly where those
  // are (the owners' verdicts a store hears of): what comes next depends only on which are 0.
  using Removals = std::array<std::uint64_t, JunctionCleaning::kKinds>;

  explicit CleaningRounds(int rounds) : rounds_(rounds) {}

  Next start() {
    if (rounds_ <= 0) return Next::finished;
    report_.rounds = 1;
    step_ = Step::weak_branches;
    return Next::step;
  }
  // The first kind the step judges, when the answer was Next::step.
  Step step() const { return step_; }
  // The kind the stores remove before they join, when the answer was Next::join.
  Step applied() const { return applied_; }

  // The step judged every kind from step() on: what each would remove.
  Next step_done(const Removals& removed) {
    for (auto kind = static_cast<std::size_t>(step_); kind < removed.size(); ++kind) {
      if (removed[kind] == 0) continue;
      applied_ = static_cast<Step>(kind);
      switch (applied_) {
        case Step::weak_branches:
          report_.weak_branches_removed += removed[kind];
          break;
        case Step::tips:
          report_.tips_removed += removed[kind];
          break;
        case Step::bubbles:
          report_.bubbles_popped += removed[kind];
          break;
      }
      removed_in_round_ += removed[kind];
      return Next::join;
    }
    return round_over();  // nothing left in the round removes anything
  }
  // The stores removed applied() and joined what was left.
  Next joined() {
    if (applied_ == Step::bubbles) return round_over();
    step_ = static_cast<Step>(static_cast<int>(applied_) + 1);
    return Next::step;
  }

  const CleaningReport& report() const { return report_; }

 private:
  Next round_over() {
    if (removed_in_round_ == 0 || report_.rounds == rounds_) return Next::finished;
    ++report_.rounds;
    removed_in_round_ = 0;
    step_ = Step::weak_branches;
    return Next::step;
  }

  int rounds_;
  Step step_ = Step::weak_branches;
  Step applied_ = Step::weak_branches;
  std::uint64_t removed_in_round_ = 0;
  CleaningReport report_;
};

}  // namespace xenon::genomics
