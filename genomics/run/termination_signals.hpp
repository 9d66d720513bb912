// SPDX-License-Identifier: BSD-3-Clause
#pragma once

namespace xenon::genomics {

// Ends the tool on SIGINT or SIGTERM: one line naming the signal and what the run was doing,
// the files it had half-written removed, exit status 128 + the signal (130, 143).
//
// How: SIGINT and SIGTERM are blocked in the calling thread, and so in every thread it
// starts afterwards (the engine's workers, its communication thread, MPI's own threads),
// and one thread of its own waits for them with sigwait(). Nothing runs in a signal handler:
// that thread may lock, write and unlink as any other (sudden_exit::exit_now). It does not
// stop the engine's threads one by one: it removes the partial files (which no other thread
// can publish once it holds their registry) and ends the process with _exit(). Under
// mpiexec, Open MPI (4.1) sends every rank SIGTERM when it gets SIGINT or SIGTERM itself, so
// each rank ends this way, exit status 143 (mpiexec's own status is then 1). As mpiexec kills
// the job (SIGKILL) once one rank has exited with an error, the ranks other than 0 wait
// 0.3 s first, so that node 0, the one that writes files, removes its partial files. SIGKILL cannot be caught: its
// partial files are removed by the next run in the same folder
// (remove_stale_temporary_files).
//
// Call it first thing in main, before any thread exists.
void exit_on_termination_signals();

}  // namespace xenon::genomics
