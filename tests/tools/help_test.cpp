// SPDX-License-Identifier: BSD-3-Clause
// Every user-facing program, as the build lists them (make test passes the names in
// XENON_PROGRAMS): --help lists every option with its default, --version names the program
// and Xenon's version, and an unknown option is one line and status 2.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"
#include "xenon/core/version.hpp"

namespace {

// The programs make test names, or none when the variable is missing (ProgramList fails).
std::vector<std::string> programs_from_the_build() {
  const char* list = std::getenv("XENON_PROGRAMS");
  std::vector<std::string> names;
  std::istringstream words(list != nullptr ? list : "");
  for (std::string name; words >> name;) names.push_back(name);
  return names;
}

TEST(ProgramList, MakeTestPassesTheProgramsItBuilt) {
  const auto programs = programs_from_the_build();
  ASSERT_FALSE(programs.empty())
      << "XENON_PROGRAMS is not set: make test passes the names of the programs it built; "
         "by hand: XENON_PROGRAMS=\"$(make -s list-programs)\" build/release/bin/xenon_tests";
}

class EveryProgram : public ::testing::TestWithParam<std::string> {};
// Without the variable there is nothing to instantiate: ProgramList says why.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(EveryProgram);

TEST_P(EveryProgram, HelpListsEveryOptionWithItsDefaultAndHelpAndVersion) {
  const auto run = xenon::testing::run_binary(GetParam(), "--help");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output.rfind("Usage: " + GetParam() + " ", 0), 0u) << run.output;
  std::istringstream lines(run.output);
  int help_lines = 0;
  int version_lines = 0;
  for (std::string line; std::getline(lines, line);) {
    const bool one_letter =
        line.size() > 4 && line.rfind("  -", 0) == 0 && line[3] != '-' && line[4] == ' ';
    if (line.rfind("  --", 0) != 0 && !one_letter) continue;
    if (line.rfind("  --help ", 0) == 0) {
      ++help_lines;
    } else if (line.rfind("  --version ", 0) == 0) {
      ++version_lines;
    } else {
      EXPECT_NE(line.find(" (default: "), std::string::npos) << line;
    }
  }
  EXPECT_EQ(help_lines, 1) << run.output;
  EXPECT_EQ(version_lines, 1) << run.output;
}

TEST_P(EveryProgram, VersionNamesTheProgramAndXenonsVersion) {
  const auto run = xenon::testing::run_binary(GetParam(), "--version");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output, GetParam() + " (Xenon) " XENON_VERSION_STRING "\n");
}

TEST_P(EveryProgram, AnUnknownLongOptionIsOneLineAndStatusTwo) {
  const auto run = xenon::testing::run_binary(GetParam(), "--no-such-option=1");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_EQ(run.output,
            GetParam() + ": error: unknown option '--no-such-option=1' (see --help)\n");
}

INSTANTIATE_TEST_SUITE_P(Built, EveryProgram, ::testing::ValuesIn(programs_from_the_build()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;  // program names are identifiers
                         });

// The plain-MPI baselines have no options of their own, so their help must say how to run
// them; like every program they refuse what they don't know before starting MPI (above).
TEST(MpiBaselines, HelpSaysToRunThemUnderMpiexecWithTwoRanks) {
  SKIP_WITHOUT_MPI();
  for (const char* program : {"raw_mpi_probe", "split_progress_probe"}) {
    const auto help = xenon::testing::run_binary(program, "--help");
    EXPECT_EQ(help.exit_code, 0) << help.output;
    EXPECT_NE(help.output.find("mpiexec -n 2"), std::string::npos) << help.output;
  }
}

}  // namespace
