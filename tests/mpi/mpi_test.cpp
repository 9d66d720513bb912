// SPDX-License-Identifier: BSD-3-Clause
// Multi-process runs under mpiexec, on two cores with --oversubscribe. Skipped when the
// build has no MPI (make test CONFIG_MPI=n).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>

#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"
#include "tests/support/temporary_directory.hpp"

namespace {

using xenon::testing::built_with_mpi;
using xenon::testing::mpi_run;

class MpiScenario : public ::testing::TestWithParam<std::tuple<const char*, int, int>> {};

TEST_P(MpiScenario, EndsCleanlyWithEveryCountExact) {
  SKIP_WITHOUT_MPI();
  const auto [scenario, processes, threads] = GetParam();
  const auto run = mpi_run(processes, "mpi_scenarios",
                           std::string("-scenario ") + scenario + " -threads-per-node " +
                               std::to_string(threads));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output.find("FAILED"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("node 0: " + std::to_string(processes) + " nodes"), std::string::npos)
      << run.output;
}

INSTANTIATE_TEST_SUITE_P(
    Processes, MpiScenario,
    ::testing::Values(std::make_tuple("ordering", 2, 1), std::make_tuple("ordering", 2, 3),
                      std::make_tuple("ordering", 4, 2), std::make_tuple("payloads", 2, 2),
                      std::make_tuple("payloads", 4, 1), std::make_tuple("typed", 2, 1),
                      std::make_tuple("typed", 3, 2), std::make_tuple("spawn", 2, 1), std::make_tuple("spawn", 2, 3),
                      std::make_tuple("spawn", 4, 2), std::make_tuple("idle", 2, 1),
                      std::make_tuple("idle", 4, 2), std::make_tuple("monitors", 2, 1),
                      std::make_tuple("monitors", 3, 3), std::make_tuple("urgent", 2, 1),
                      std::make_tuple("urgent", 2, 3), std::make_tuple("traffic", 2, 1),
                      std::make_tuple("traffic", 3, 2), std::make_tuple("long-turn", 2, 1),
                      std::make_tuple("long-turn", 2, 3), std::make_tuple("hand-on", 2, 1),
                      std::make_tuple("hand-on", 2, 3)),
    [](const auto& info) {
      std::string scenario = std::get<0>(info.param);
      std::replace(scenario.begin(), scenario.end(), '-', '_');  // a test's name takes no '-'
      return scenario + "_" + std::to_string(std::get<1>(info.param)) + "_processes_" +
             std::to_string(std::get<2>(info.param)) + "_threads";
    });

// Frames up to 256 KiB: larger than a posted receive (64 KiB), so they travel as large
// frames, which the transport looks for less often than small ones; none may be lost or
// overtaken. (The payloads scenario makes some with the default aggregation too.)
TEST(Mpi, FramesLargerThanAPostedReceiveKeepEveryMessageInOrder) {
  SKIP_WITHOUT_MPI();
  for (const char* scenario : {"ordering", "payloads"}) {
    const auto run = mpi_run(2, "mpi_scenarios",
                             std::string("-scenario ") + scenario +
                                 " -threads-per-node 2 -aggregation-bytes 262144");
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.output.find("FAILED"), std::string::npos) << run.output;
  }
}

TEST(Mpi, AKilledProcessEndsTheJobWithAClearErrorInsteadOfAHang) {
  SKIP_WITHOUT_MPI();
  const auto started = std::chrono::steady_clock::now();
  const auto run = mpi_run(2, "mpi_scenarios", "-scenario crash -threads-per-node 2", 60);
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started);
  EXPECT_NE(run.exit_code, 0) << run.output;
  EXPECT_NE(run.exit_code, 110) << "ended by the timeout, not by the crash:\n" << run.output;
  EXPECT_NE(run.output.find("exited on signal 9"), std::string::npos) << run.output;
  // Not a timing assertion on speed: only that it ended long before the 60 s timeout.
  EXPECT_LT(seconds.count(), 30.0) << run.output;
}

// A rank whose engine fails mid-run (here: asked to spawn a type it never registered)
// prints one line naming itself, its host and the failure, and ends the whole job.
TEST(Mpi, ARankWhoseEngineFailsEndsTheJobWithItsReason) {
  SKIP_WITHOUT_MPI();
  for (int threads : {1, 3}) {
    const auto started = std::chrono::steady_clock::now();
    const auto run = mpi_run(2, "mpi_scenarios",
                             "-scenario unknown-type -threads-per-node " + std::to_string(threads),
                             60);
    const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started);
    EXPECT_NE(run.exit_code, 0) << run.output;
    EXPECT_NE(run.exit_code, 110) << "ended by the timeout, not by the failure:\n" << run.output;
    EXPECT_NE(run.output.find("xenon: rank 1 of 2 on "), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("failed: no actor type 'scenario.never-registered'"),
              std::string::npos)
        << run.output;
    EXPECT_LT(seconds.count(), 30.0) << run.output;
  }
}

// MigratableActor::migrate refuses, each with its one line: a node that does not exist, its
// own node, a worker with a timer pending, a type not registered; stop() after migrate()
// stops it in place; an allowed move lands on node 1 with the message sent after it, and no
// message is lost.
TEST(Mpi, MigrateRefusesWhatCannotMoveAndMovesTheRest) {
  SKIP_WITHOUT_MPI();
  const auto run = mpi_run(2, "mpi_scenarios", "-scenario migrate-refused -threads-per-node 1", 60);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  for (const char* reason :
       {"migrate: node 2 does not exist (2 nodes)", "migrate: the actor is on node 0 already",
        "migrate: timers, asks or monitors are pending on this worker", "is not registered (Engine::register_actor_type)",
        "stopped: normally"}) {
    EXPECT_NE(run.output.find(reason), std::string::npos) << reason << "\n" << run.output;
  }
  // Only the allowed move happened: stop() after migrate() stopped the actor where it was.
  // migrate(name, node) moved one more; the actor that is no MigratableActor stayed.
  EXPECT_NE(run.output.find("node 0: actors migrated out 2, in 0"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("node 1: actors migrated out 0, in 2"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("to node 1 was refused: migrate: actor type"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("is not a MigratableActor"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("FAILED"), std::string::npos) << run.output;
}

// An exception that leaves a rank's engine before run() (a spawn on a worker it does not
// have) must not leave the rank in MPI_Finalize: the program prints its error and exits,
// and mpiexec ends the others.
TEST(Mpi, ARankThatFailsBeforeRunEndsTheJobWithItsError) {
  SKIP_WITHOUT_MPI();
  const auto started = std::chrono::steady_clock::now();
  const auto run = mpi_run(2, "mpi_scenarios", "-scenario early-error -threads-per-node 2", 60);
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started);
  EXPECT_NE(run.exit_code, 0) << run.output;
  EXPECT_NE(run.exit_code, 110) << "ended by the timeout, not by the failure:\n" << run.output;
  EXPECT_NE(run.output.find("mpi_scenarios: error: spawn_on: worker 1"), std::string::npos)
      << run.output;
  EXPECT_LT(seconds.count(), 30.0) << run.output;
}

// A rank that stops answering (SIGSTOP: it neither fails nor exits) is noticed by the
// heartbeats, watchers of its actors get their notices, and the rank that notices ends the
// job naming it.
TEST(Mpi, ARankThatStopsAnsweringIsNamedAndTheJobEnds) {
  SKIP_WITHOUT_MPI();
  for (int threads : {1, 2}) {
    const auto started = std::chrono::steady_clock::now();
    const auto run = mpi_run(2, "mpi_scenarios",
                             "-scenario stopped -heartbeat-timeout 3 -threads-per-node " +
                                 std::to_string(threads),
                             60);
    const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started);
    EXPECT_NE(run.exit_code, 0) << run.output;
    EXPECT_NE(run.exit_code, 110) << "ended by the timeout, not by the heartbeat:\n" << run.output;
    EXPECT_NE(run.output.find("xenon: rank 0 of 2 on "), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("failed: rank 1 has sent nothing for 3 s"), std::string::npos)
        << run.output;
    // Before the end, the watcher of an actor on the silent node heard why (Monitors).
    const auto notice = run.output.find(
        "mpi_scenarios: down: 1.0.0 reason: node 1 left the job: rank 1 has sent nothing for 3 s");
    EXPECT_NE(notice, std::string::npos) << run.output;
    EXPECT_LT(notice, run.output.find("xenon: rank 0 of 2 on ")) << run.output;
    EXPECT_LT(seconds.count(), 30.0) << run.output;
  }
}

// Ranks started with different engine options are refused at start-up, naming both.
TEST(Mpi, RanksStartedWithDifferentOptionsAreRefusedNamingBoth) {
  SKIP_WITHOUT_MPI();
  const char* bin = std::getenv("XENON_BIN");
  const std::string program = std::string(bin != nullptr ? bin : "build/release/bin") + "/mpi_scenarios";
  const auto started = std::chrono::steady_clock::now();
  const auto run = xenon::testing::run_command(
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1 "
      "ASAN_OPTIONS=detect_leaks=0 mpiexec --oversubscribe --bind-to none --timeout 60 -n 1 " +
      program + " -scenario idle -threads-per-node 4 : -n 1 " + program +
      " -scenario idle -threads-per-node 2");
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started);
  EXPECT_NE(run.exit_code, 0) << run.output;
  EXPECT_NE(run.exit_code, 110) << "ended by the timeout:\n" << run.output;
  EXPECT_NE(run.output.find("the ranks were started with different engine options: rank 0 with "
                            "-threads-per-node 4 -aggregation-bytes 61440"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("rank 1 with -threads-per-node 2 -aggregation-bytes 61440"),
            std::string::npos)
      << run.output;
  EXPECT_LT(seconds.count(), 30.0) << run.output;
}

TEST(Mpi, LatencyProbeAcrossProcessesCountsEveryNodeAndEveryReply) {
  SKIP_WITHOUT_MPI();
  const auto run = mpi_run(
      2, "latency_probe",
      "-threads-per-node 2 -actor-count-per-worker 20 -ping-message-count-per-actor 2000");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("PERFORMANCE_COUNTER node-count = 2\n"), std::string::npos);
  EXPECT_NE(run.output.find("PERFORMANCE_COUNTER worker-count = 2\n"), std::string::npos);
  EXPECT_NE(run.output.find("PERFORMANCE_COUNTER actor-count = 40\n"), std::string::npos);
  EXPECT_NE(run.output.find("PERFORMANCE_COUNTER message-count = 160000\n"), std::string::npos);
  EXPECT_NE(run.output.find("PERFORMANCE_COUNTER dead-letter-count = 0\n"), std::string::npos);
  // Printed once, by node 0.
  EXPECT_EQ(run.output.find("type = ping-pong"), run.output.rfind("type = ping-pong"));
}

// --trace and --report under mpiexec: node 0 writes one file of each, with every node in it
// (the trace's processes are the nodes).
TEST(Mpi, NodeZeroWritesOneTraceAndOneReportForEveryNode) {
  SKIP_WITHOUT_MPI();
  const xenon::testing::TemporaryDirectory directory;
  const std::string trace = directory.path() + "/run.json";
  const std::string report = directory.path() + "/run.html";
  const auto run = mpi_run(3, "mpi_scenarios",
                           "-scenario traffic -threads-per-node 2 --trace " + trace + " --report " + report);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  // Node 1 has no actor: busy spans on nodes 0 and 2; the phases are node 0's root's.
  const auto checked = xenon::testing::run_command("python3 tests/support/check_trace.py " + trace +
                                                   " 3 0,2 spawning echoes");
  EXPECT_EQ(checked.exit_code, 0) << checked.output;
  const std::string page = directory.read("run.html");
  for (const char* node : {"{\"node\":0,", "{\"node\":1,", "{\"node\":2,"}) {
    EXPECT_NE(page.find(node), std::string::npos) << node;
  }
}

TEST(Mpi, ABuildWithoutMpiRefusesToRunUnderMpiexec) {
  if (built_with_mpi()) GTEST_SKIP() << "only for CONFIG_MPI=n builds";
  const auto run = mpi_run(2, "latency_probe", "-ping-message-count-per-actor 10");
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.output.find("this build has no MPI"), std::string::npos) << run.output;
}

}  // namespace
