// SPDX-License-Identifier: BSD-3-Clause
// Which step of the cleaning a store's report to the coordinator belongs to. The stores take
// the cleaning's steps and joinings by themselves (junction_cleaning.hpp, cleaning_rounds.hpp),
// and the messages of different stores reach the coordinator in no order between them: a
// store's report of a step, or of the joining after it, can come before other stores' reports
// of the step before. So each report says its step's number (the joining of the walks' pieces
// follows step 0), and the coordinator settles the steps in order. A report of a step already
// settled (a store that joined where the sums said none would, or reported a step twice), or
// one after the cleaning ended, ends the run with a line that names it, not a miscount or a
// hang.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace xenon::genomics {

class CleaningStepCheck {
 public:
  // Every store reported step `number` (1, 2, ... in order): the stores join after it, or not.
  void settled(std::uint64_t number, bool joins) {
    if (number != settled_ + 1 || finished_ || (joins_ && !joined_)) {
      throw std::logic_error("cleaning step " + std::to_string(number) + " settled out of order");
    }
    settled_ = number;
    joins_ = joins;
    joined_ = false;
  }
  // The joining after step `number` (0: the walks') is over.
  void joined(std::uint64_t number) {
    if (number != settled_ || !joins_ || joined_ || finished_) {
      throw std::logic_error("the joining after cleaning step " + std::to_string(number) + " ended out of order");
    }
    joined_ = true;
  }
  // The cleaning began: its steps are reported from now on.
  void began_cleaning() { cleaning_ = true; }
  // The cleaning is over: no store reports a step or a joining any more.
  void finished() { finished_ = true; }

  // A store's report that it judged step `number`.
  void step_reported(std::uint64_t number) const {
    if (!cleaning_ || finished_ || number <= settled_) {
      throw std::runtime_error("a store reported cleaning step " + std::to_string(number) + " " + when());
    }
  }
  // A store's report of a joining (`what`: tokens started or finished, unitigs joined) after
  // step `number`.
  void joining_reported(std::uint64_t number, const std::string& what) const {
    if ((!cleaning_ && number != 0) || finished_ || number < settled_ || (number == settled_ && (!joins_ || joined_))) {
      throw std::runtime_error("a store reported " + what + " of a joining after cleaning step " +
                               std::to_string(number) + " " + when());
    }
  }

 private:
  std::string when() const {
    if (finished_) return "after the cleaning ended";
    if (!cleaning_) return "before the cleaning began";
    if (settled_ == 0) return joined_ ? "after the walks' pieces were joined" : "while the walks' pieces were joined";
    return "when step " + std::to_string(settled_) + " was settled" +
           (!joins_ ? " with nothing removed" : joined_ ? " and joined" : " and being joined");
  }

  std::uint64_t settled_ = 0;  // the walks' joining follows step 0,
  bool joins_ = true;          // which always joins
  bool joined_ = false;
  bool cleaning_ = false;  // began
  bool finished_ = false;
};

}  // namespace xenon::genomics
