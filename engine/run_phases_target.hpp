// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "engine/phase_log.hpp"

namespace xenon {

// While it lives (Engine::run()), begin_run_phase() and end_run_phase() mark phases in
// `log`: code that is not an actor (a tool's log) has no engine to name. One run at a time
// per process; a second engine running meanwhile takes the marks until it ends.
class RunningPhases {
 public:
  explicit RunningPhases(PhaseLog& log) noexcept;
  ~RunningPhases();
  RunningPhases(const RunningPhases&) = delete;
  RunningPhases& operator=(const RunningPhases&) = delete;

 private:
  PhaseLog* previous_;
};

}  // namespace xenon
