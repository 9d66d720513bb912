// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <string_view>

namespace xenon {

/// Marks the start of a phase of the program (such as "counting") on this node, for the
/// trace (--trace) and the report (--report); one still open ends first. For code that is
/// not an actor (a log, a library); actors may call Actor::begin_phase() instead.
/// \threads Any thread, while Engine::run() runs in this process; at any other time it
/// does nothing (there is no run to mark).
void begin_run_phase(std::string_view name);
/// Ends the open phase (none: nothing happens); otherwise a phase lasts until the next
/// begins or the run ends. \threads As begin_run_phase().
void end_run_phase();

}  // namespace xenon
