// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/run/termination_signals.hpp"

#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <stdexcept>
#include <thread>

#include "genomics/run/sudden_exit.hpp"

namespace xenon::genomics {

void exit_on_termination_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  if (pthread_sigmask(SIG_BLOCK, &signals, nullptr) != 0) throw std::runtime_error("cannot block SIGINT and SIGTERM");
  // It lives as long as the process: an exit ends it, and so does the signal it waits for.
  std::thread([signals] {
    int signal = 0;
    while (sigwait(&signals, &signal) != 0) {
    }
    sudden_exit::exit_now(signal == SIGINT ? "interrupted by SIGINT" : "terminated by SIGTERM", "partial files removed",
                          128 + signal);
  }).detach();
}

}  // namespace xenon::genomics
