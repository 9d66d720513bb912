// SPDX-License-Identifier: BSD-3-Clause
// Which step of the cleaning a store's report to the coordinator belongs to. The stores join
// by themselves after a step that removed anything (junction_cleaning.hpp), so their
// joining's reports can reach the coordinator before other stores' reports of the step, and
// the messages of different stores come in no order between them. Each report says its
// step's number (the joining of the walks' pieces is step 0); one that belongs to no step
// the coordinator is waiting on (a store that joined where the sums said none would, or
// reported a step twice) ends the run with a line that names it, not a miscount or a hang.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace xenon::genomics {

class CleaningStepCheck {
 public:
  // The coordinator began step `number` (1, 2, ... in the order it sent them).
  void began(std::uint64_t number) {
    if (number != step_ + 1 || finished_) throw std::logic_error("cleaning step " + std::to_string(number) + " out of order");
    step_ = number;
    judged_ = false;
    joining_expected_ = false;
  }
  // Every store reported the step under way: the stores join, or not.
  void judged(bool joining) {
    judged_ = true;
    joining_expected_ = joining;
  }
  // The cleaning is over: no store reports a step or a joining any more.
  void finished() { finished_ = true; }

  // A store's report that it judged step `number`.
  void step_reported(std::uint64_t number) const {
    if (finished_ || step_ == 0 || number != step_ || judged_) {
      throw std::runtime_error("a store reported cleaning step " + std::to_string(number) + " " + where());
    }
  }
  // A store's report of a joining (`what`: tokens started or finished, unitigs joined) after
  // step `number`.
  void joining_reported(std::uint64_t number, const std::string& what) const {
    if (finished_ || number != step_ || (judged_ && !joining_expected_)) {
      throw std::runtime_error("a store reported " + what + " of a joining after cleaning step " +
                               std::to_string(number) + " " + where());
    }
  }

  std::uint64_t step() const { return step_; }

 private:
  std::string where() const {
    if (finished_) return "after the cleaning ended";
    if (step_ == 0) return "while the walks' pieces were joined";
    return "while step " + std::to_string(step_) +
           (!judged_ ? " was judged" : joining_expected_ ? " was joined" : " removed nothing and none was joined");
  }

  std::uint64_t step_ = 0;  // the walks' joining
  bool judged_ = true;      // step 0 has nothing to judge,
  bool joining_expected_ = true;  // and joins
  bool finished_ = false;
};

}  // namespace xenon::genomics
