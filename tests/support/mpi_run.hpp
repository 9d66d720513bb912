// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "tests/support/run_binary.hpp"
#include "tests/support/test_support.hpp"

namespace xenon::testing {

// mpiexec as CI runs it: as root if need be, more ranks than cores, no binding (Open MPI
// would otherwise put all of a rank's threads on one core), idle ranks yield, and a timeout
// that ends the whole job (exit 110) rather than leaving ranks behind. Under
// AddressSanitizer, leak checking is off in these processes only: Open MPI 4.1 keeps what
// MPI_Init allocates and unloads its plugins before the check, so the reports cannot even
// be attributed. Our code's leaks are checked by the single-process tests.
inline ProcessResult mpi_run(int processes, const std::string& program,
                             const std::string& arguments, int timeout_seconds = 120) {
  const char* bin = std::getenv("XENON_BIN");
  const std::string command =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1 "
      "ASAN_OPTIONS=detect_leaks=0 "
      "mpiexec --oversubscribe --bind-to none --timeout " + std::to_string(timeout_seconds) +
      " -n " + std::to_string(processes) + " " + (bin != nullptr ? bin : "build/release/bin") +
      "/" + program + " " + arguments;
  return run_command(command);
}

}  // namespace xenon::testing

#define SKIP_WITHOUT_MPI() \
  if (!xenon::testing::built_with_mpi()) GTEST_SKIP() << "built with CONFIG_MPI=n"
