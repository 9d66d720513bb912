// SPDX-License-Identifier: BSD-3-Clause
// What a node does when the machine cannot give it the threads it was asked for.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "tests/support/run_binary.hpp"
#include "tests/support/temporary_directory.hpp"

namespace {

using xenon::testing::binary;
using xenon::testing::run_command;

// Under a limit of 20 processes per user (as `ulimit -u 20`), 32 threads cannot all start:
// the run ends with one line naming the cause and exit 1, never `terminate called`. The
// limit binds only an unprivileged user, so the test drops to `nobody` (it needs root, and
// util-linux's setpriv and prlimit).
TEST(ThreadLimits, ThreadCreationFailureEndsWithOneLineAndExitOne) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to run as nobody";
  if (run_command("command -v setpriv && command -v prlimit").exit_code != 0) {
    GTEST_SKIP() << "needs setpriv and prlimit (util-linux)";
  }
  const xenon::testing::TemporaryDirectory directory;
  chmod(directory.path().c_str(), 0777);  // nobody writes the tool's output there
  const std::string input = directory.write("in.fa", ">r\nACGTACGTACGTACGTACGTACGTACGTACGTAAA\n");
  chmod(input.c_str(), 0644);
  const std::string limited = "setpriv --reuid=nobody --regid=nogroup --clear-groups "
                              "prlimit --nproc=20 ";
  const std::string commands[] = {
      limited + binary("mpi_scenarios") + " -scenario idle -threads-per-node 32",
      limited + binary("kmer_counter") + " -threads-per-node 32 -o " + directory.path() +
          "/out " + input,
  };
  for (const std::string& command : commands) {
    SCOPED_TRACE(command);
    const auto run = run_command(command);
    EXPECT_EQ(run.output.find("terminate called"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("error: cannot start thread "), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("(ulimit -u) may be too low"), std::string::npos) << run.output;
    EXPECT_EQ(run.exit_code, 1) << run.output;
  }
}

}  // namespace
