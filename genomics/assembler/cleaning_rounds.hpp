// SPDX-License-Identifier: BSD-3-Clause
// The order of the cleaning's steps when the stores clean (junction_cleaning.hpp), as
// UnitigGraph::clean() takes them: in each round weak branches, then tips, then bubbles, the
// unitigs joined again after each step that removed any, until a round removes nothing or the
// rounds run out. The coordinator asks what comes next and says how
// each step went.
#pragma once

#include <cstdint>

#include "genomics/assembler/junction_cleaning.hpp"
#include "genomics/assembler/unitig_graph.hpp"

namespace xenon::genomics {

class CleaningRounds {
 public:
  enum class Next { step, join, finished };
  using Step = JunctionCleaning::Step;

  explicit CleaningRounds(int rounds) : rounds_(rounds) {}

  Next start() {
    if (rounds_ <= 0) return Next::finished;
    report_.rounds = 1;
    step_ = Step::weak_branches;
    return Next::step;
  }
  // The step to take when the answer was Next::step.
  Step step() const { return step_; }

  // The step just taken removed `removed` unitigs over all the stores.
  Next step_done(std::uint64_t removed) {
    switch (step_) {
      case Step::weak_branches:
        report_.weak_branches_removed += removed;
        break;
      case Step::tips:
        report_.tips_removed += removed;
        break;
      case Step::bubbles:
        report_.bubbles_popped += removed;
        break;
    }
    removed_in_round_ += removed;
    return removed != 0 ? Next::join : following();
  }
  // The stores joined what the last step left.
  Next joined() { return following(); }

  const CleaningReport& report() const { return report_; }

 private:
  Next following() {
    switch (step_) {
      case Step::weak_branches:
        step_ = Step::tips;
        return Next::step;
      case Step::tips:
        step_ = Step::bubbles;
        return Next::step;
      case Step::bubbles:
        break;
    }
    if (removed_in_round_ == 0 || report_.rounds == rounds_) return Next::finished;
    ++report_.rounds;
    removed_in_round_ = 0;
    step_ = Step::weak_branches;
    return Next::step;
  }

  int rounds_;
  Step step_ = Step::weak_branches;
  std::uint64_t removed_in_round_ = 0;
  CleaningReport report_;
};

}  // namespace xenon::genomics
