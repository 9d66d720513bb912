// Every user-facing program: --help lists every option with its default and exits 0, and a
// GNU long option with '=' is understood like the predecessor's '-name value'.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"

namespace {

class EveryProgram : public ::testing::TestWithParam<const char*> {};

TEST_P(EveryProgram, HelpListsEveryOptionWithItsDefault) {
  const auto run = xenon::testing::run_binary(GetParam(), "--help");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output.rfind(std::string("Usage: ") + GetParam() + " ", 0), 0u) << run.output;
  std::istringstream lines(run.output);
  std::string line;
  int options = 0;
  while (std::getline(lines, line)) {
    const bool one_letter = line.size() > 4 && line.rfind("  -", 0) == 0 && line[3] != '-' && line[4] == ' ';
    if ((line.rfind("  --", 0) != 0 && !one_letter) || line.rfind("  --help ", 0) == 0) continue;
    ++options;
    EXPECT_NE(line.find(" (default: "), std::string::npos) << line;
  }
  EXPECT_GE(options, 1) << run.output;
}

TEST_P(EveryProgram, AnUnknownLongOptionIsOneLineAndStatusTwo) {
  const auto run = xenon::testing::run_binary(GetParam(), "--no-such-option=1");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_EQ(run.output, std::string(GetParam()) +
                            ": error: unknown option '--no-such-option=1' (see --help)\n");
}

INSTANTIATE_TEST_SUITE_P(Tools, EveryProgram,
                         ::testing::Values("latency_probe", "ring_probe", "idle_probe",
                                           "node_probe", "cacheline_probe", "savina",
                                           "ping_pair", "hello", "ring", "two_nodes",
                                           "kmer_counter", "assembler"));

// The plain-MPI baselines have no options, but say what they are and refuse what they don't
// know before starting MPI.
class OptionlessMpiProgram : public ::testing::TestWithParam<const char*> {};

TEST_P(OptionlessMpiProgram, HelpSaysWhatItIsAndUnknownOptionsAreRefused) {
  if (!xenon::testing::built_with_mpi()) GTEST_SKIP() << "built with CONFIG_MPI=n";
  const auto help = xenon::testing::run_binary(GetParam(), "--help");
  EXPECT_EQ(help.exit_code, 0) << help.output;
  EXPECT_EQ(help.output.rfind(std::string("Usage: ") + GetParam(), 0), 0u) << help.output;
  EXPECT_NE(help.output.find("mpiexec -n 2"), std::string::npos) << help.output;
  const auto bad = xenon::testing::run_binary(GetParam(), "--sizes=8");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_EQ(bad.output, std::string(GetParam()) + ": error: unknown option '--sizes=8' (see --help)\n");
}

INSTANTIATE_TEST_SUITE_P(Baselines, OptionlessMpiProgram,
                         ::testing::Values("raw_mpi_probe", "split_progress_probe"));

}  // namespace
