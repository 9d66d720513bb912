// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/run/out_of_memory.hpp"

#include <new>

#include "genomics/run/sudden_exit.hpp"

namespace xenon::genomics {

void exit_when_out_of_memory() {
  std::set_new_handler(
      [] { sudden_exit::exit_now("out of memory", "give it more memory (or fewer threads), partial files removed", 1); });
}

}  // namespace xenon::genomics
