// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/run/termination_signals.hpp"

#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#include "genomics/run/sudden_exit.hpp"

namespace xenon::genomics {
namespace {

// Whether mpiexec started this process as a rank other than 0 (Open MPI, or MPICH's Hydra).
bool is_mpi_rank_other_than_0() {
  for (const char* variable : {"OMPI_COMM_WORLD_RANK", "PMI_RANK"}) {
    if (const char* value = std::getenv(variable)) return std::string(value) != "0";  // NOLINT(concurrency-mt-unsafe): before any thread
  }
  return false;
}

}  // namespace

void exit_on_termination_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  if (pthread_sigmask(SIG_BLOCK, &signals, nullptr) != 0) throw std::runtime_error("cannot block SIGINT and SIGTERM");
  // mpiexec kills the whole job as soon as one rank exits with an error: the ranks other than
  // 0, which write no files, let node 0 remove its partial files first.
  const bool let_node_0_go_first = is_mpi_rank_other_than_0();
  // It lives as long as the process: an exit ends it, and so does the signal it waits for.
  std::thread([signals, let_node_0_go_first] {
    int signal = 0;
    while (sigwait(&signals, &signal) != 0) {
    }
    if (let_node_0_go_first) std::this_thread::sleep_for(std::chrono::milliseconds(300));
    sudden_exit::exit_now(signal == SIGINT ? "interrupted by SIGINT" : "terminated by SIGTERM", "partial files removed",
                          128 + signal);
  }).detach();
}

}  // namespace xenon::genomics
