// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/core/clock.hpp"

#include <ctime>

namespace xenon {

double process_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

}  // namespace xenon
