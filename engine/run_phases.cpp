// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/engine/run_phases.hpp"

#include <atomic>

#include "engine/run_phases_target.hpp"

namespace xenon {
namespace {

// The phase log of the run in progress, or nullptr. The log itself takes a mutex, so the
// pointer only has to be read whole (acquire: the log was built before it was published).
std::atomic<PhaseLog*> running_log{nullptr};

}  // namespace

// The release half of each pairs with the acquire loads in begin_run_phase() and
// end_run_phase() below: a thread that reads the pointer sees the log it points to.
RunningPhases::RunningPhases(PhaseLog& log) noexcept
    : previous_(running_log.exchange(&log, std::memory_order_acq_rel)) {}

RunningPhases::~RunningPhases() {
  running_log.store(previous_, std::memory_order_release);  // pairs with the loads below
}

void begin_run_phase(std::string_view name) {
  if (PhaseLog* log = running_log.load(std::memory_order_acquire)) log->begin(name);
}

void end_run_phase() {
  if (PhaseLog* log = running_log.load(std::memory_order_acquire)) log->end();
}

}  // namespace xenon
