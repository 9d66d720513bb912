// SPDX-License-Identifier: BSD-3-Clause
// What a node does when the machine cannot give it the threads it was asked for.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "engine/thread_budget.hpp"
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

// Rings grow with the square of the workers: 255 workers take 1.1 GB of them (measured:
// 65 threads, 64 workers, 76 MB resident of which 68 MB are rings).
TEST(ThreadLimits, RingMemoryIsComputedFromTheWorkerCount) {
  EXPECT_EQ(xenon::ring_bytes(16), (16u * 15 + 32) * 1024 * 64);
  EXPECT_EQ(xenon::ring_bytes(255), (255ull * 254 + 510) * 256 * 64);
}

TEST(ThreadLimits, MoreWorkersThanTheCoresAllowAreRefusedNamingTheBound) {
  try {
    xenon::check_thread_budget(100, 99, 2, 64'000'000'000);
    FAIL() << "99 workers on 2 cores were accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "-threads-per-node 100: 99 workers on 2 core(s); at most 64 workers "
                               "are allowed (8 per core, at least 64)");
  }
  EXPECT_NO_THROW(xenon::check_thread_budget(100, 99, 16, 64'000'000'000));  // 128 allowed
  EXPECT_NO_THROW(xenon::check_thread_budget(65, 64, 1, 64'000'000'000));    // the floor
}

TEST(ThreadLimits, RingsLargerThanAQuarterOfTheMemoryAreRefused) {
  try {
    xenon::check_thread_budget(256, 255, 64, 4'000'000'000);
    FAIL() << "1.1 GB of rings were accepted on a 4 GB machine";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "-threads-per-node 256: the rings between 255 workers would take "
                               "1.1 GB, more than a quarter of this machine's 4.0 GB of memory");
  }
  EXPECT_NO_THROW(xenon::check_thread_budget(256, 255, 64, 8'000'000'000));
}

// A thread count this machine cannot hold fails at once with one line, before any ring
// is allocated (4096 threads used to allocate until the kernel killed the process).
TEST(ThreadLimits, AThreadCountTheMachineCannotHoldFailsFastWithOneLine) {
  const auto started = std::chrono::steady_clock::now();
  const auto run = xenon::testing::run_binary("mpi_scenarios", "-scenario idle -threads-per-node 4096");
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started);
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_EQ(run.output.rfind("mpi_scenarios: error: -threads-per-node 4096: 4095 workers on ", 0), 0u)
      << run.output;
  EXPECT_EQ(run.output.find('\n'), run.output.size() - 1) << "one line:\n" << run.output;
  EXPECT_LT(seconds.count(), 5.0);
}

}  // namespace
