// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <string_view>

namespace xenon::genomics {

// How a tool ends at once, when it cannot unwind: a termination signal, or memory that has
// run out. It prints one line naming the reason and what the run was doing, adds it to the
// run's log, removes the files it had half-written (TemporaryFiles) and calls _exit(). None
// of it allocates, so it works when allocation is what failed; what it reads is set in
// advance by the functions below.
namespace sudden_exit {

// The program's name, for the line (a string that lives as long as the process).
void set_program(const char* program) noexcept;
// The run log's file descriptor (-1: none); the line is appended to it too.
void set_log(int descriptor) noexcept;
// What the run is doing now ("phase counting, reading reads.fq"); cut at 300 bytes.
void note_activity(std::string_view activity) noexcept;

// "PROGRAM: error: REASON in ACTIVITY" on standard error and in the log (with `consequence`
// after it, e.g. "partial files removed"), then the half-written files go and the process
// exits with `status`.
[[noreturn]] void exit_now(const char* reason, const char* consequence, int status) noexcept;

}  // namespace sudden_exit
}  // namespace xenon::genomics
