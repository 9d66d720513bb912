// SPDX-License-Identifier: BSD-3-Clause
// Xenon across simulated hosts: tests/netns/netns_mpi_test.sh creates Linux network
// namespaces joined by veth pairs to a bridge, launches mpiexec into them through an rsh
// agent (ip netns exec), runs mpi_scenarios (ordering, payloads) and latency_probe with
// ranks on different "hosts" over Open MPI's TCP transport, checks that their traffic
// crossed the veth pairs, and removes the namespaces. This test runs it and fails on a
// non-zero exit. It is skipped only where that is impossible: a build without MPI, not
// root, no `ip` command, or a kernel or sandbox that refuses `ip netns add`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/support/run_binary.hpp"

namespace {

std::string environment(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

// The script, from the repository root (where make test runs), or found from XENON_BIN
// (build/NAME/bin, three levels below the root).
std::string script_path() {
  const std::string relative = "tests/netns/netns_mpi_test.sh";
  if (std::filesystem::exists(relative)) return relative;
  const std::filesystem::path from_bin =
      std::filesystem::path(environment("XENON_BIN", "build/release/bin")) / "../../.." / relative;
  return from_bin.lexically_normal().string();
}

// Why the test cannot run here, or "" if it can. Namespace creation is tried, not guessed.
std::string reason_to_skip() {
  if (environment("XENON_MPI", "y") == "n") return "built with CONFIG_MPI=n";
  if (geteuid() != 0) return "needs root to create network namespaces";
  if (xenon::testing::run_command("command -v ip").exit_code != 0) {
    return "no 'ip' command (Debian package iproute2)";
  }
  const std::string probe = "xenon-netns-probe-" + std::to_string(getpid());
  const auto added = xenon::testing::run_command("ip netns add " + probe);
  xenon::testing::run_command("ip netns del " + probe);
  if (added.exit_code != 0) return "'ip netns add' is not permitted here: " + added.output;
  return "";
}

TEST(NetnsMpi, RanksOnSimulatedHostsTalkOverTcpAndEveryScenarioPasses) {
  const std::string reason = reason_to_skip();
  if (!reason.empty()) GTEST_SKIP() << reason;
  const std::string script = script_path();
  ASSERT_TRUE(std::filesystem::exists(script)) << "missing " << script;

  // Sanitizer builds run several times slower: give each mpiexec and the whole script longer.
  const bool sanitized = !environment("XENON_SANITIZE", "").empty();
  const std::string limits = sanitized ? "XENON_NETNS_LIMIT=400 XENON_NETNS_MPI_TIMEOUT=120 "
                                       : "XENON_NETNS_LIMIT=90 XENON_NETNS_MPI_TIMEOUT=30 ";
  const auto started = std::chrono::steady_clock::now();
  const auto run = xenon::testing::run_command(
      limits + "XENON_BIN=" + environment("XENON_BIN", "build/release/bin") + " bash " + script);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("PASS: netns_mpi_test"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("FAIL:"), std::string::npos) << run.output;
  // Its namespaces are gone, whatever happened.
  EXPECT_NE(run.output.find("netns: cleaned up"), std::string::npos) << run.output;
  std::printf("netns_mpi_test.sh took %.1f s\n", seconds);
}

}  // namespace
