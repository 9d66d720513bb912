// SPDX-License-Identifier: BSD-3-Clause
#pragma once

namespace xenon::genomics {

// Makes running out of memory end the tool with one line, "PROGRAM: error: out of memory in
// phase P, reading FILE: ...", exit status 1, from whichever thread it happens in: a
// std::new_handler that calls sudden_exit::exit_now(), so std::bad_alloc is never thrown
// (an actor's exception would otherwise be reported by the engine, its supervisor and the
// tool: three lines naming nothing but std::bad_alloc). Memory that runs out inside a C
// library (zlib) is that library's error, reported where it is called.
void exit_when_out_of_memory();

}  // namespace xenon::genomics
