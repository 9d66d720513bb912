// SPDX-License-Identifier: BSD-3-Clause
// The assembler's graph outputs end to end: graph.gfa checked line by line against
// contigs.fasta (tests/support/check_gfa.py: segments, links, and paths that spell the
// contigs), and graph.png as --graph-image asks: drawn by Bandage for a small graph, skipped
// with a line in the log for a large one or without Bandage, a failed Bandage reported with
// its exit status and no partial picture left. (The same graph.gfa bytes for every thread and
// process count, and after --continue: assembler_test.cpp and tests/faults/fault_cases.sh.)
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "tests/support/run_binary.hpp"
#include "tests/support/temporary_directory.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/test_support.hpp"

namespace {

using xenon::testing::data_directory;
using xenon::testing::run_binary;
using xenon::testing::run_command;
using xenon::testing::test_data_present;
using xenon::testing::TemporaryDirectory;

std::string reads(const std::string& first, const std::string& second) {
  return " " + data_directory() + "/" + first + " " + data_directory() + "/" + second;
}
const std::string kLambdaReads = reads("lambda/reads_1.fq.gz", "lambda/reads_2.fq.gz");
const std::string kShigella =
    reads("unicycler-sample/short_reads_1.fastq.gz", "unicycler-sample/short_reads_2.fastq.gz");

class OutputDirectory : public TemporaryDirectory {
 public:
  OutputDirectory() : TemporaryDirectory("xenon-assembler-graph") {}
  bool has(const std::string& name) const { return std::filesystem::exists(path() + "/" + name); }
  bool has_partial_files() const {
    const auto names = entries();
    return std::any_of(names.begin(), names.end(),
                       [](const std::string& name) { return name.find(".partial-") != std::string::npos; });
  }
};

// Runs the assembler into `out`, with `environment` ("NAME=VALUE ...", or empty) before it.
xenon::testing::ProcessResult assemble(const OutputDirectory& out, const std::string& options,
                                       const std::string& inputs, const std::string& environment = "") {
  return run_command(environment + " " + xenon::testing::binary("assembler") + " --quiet " + options + " -o " +
                     out.path() + inputs);
}

// Success when Bandage is installed, else what to install.
::testing::AssertionResult bandage_installed() {
  if (run_command("command -v Bandage").exit_code == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "Bandage is not installed: run `make deps` (Debian package bandage)";
}

// A PATH that keeps what the assembler may need but has no Bandage: an empty folder.
std::string path_without_bandage(const TemporaryDirectory& folder) { return "PATH=" + folder.path(); }

TEST(AssemblerGraph, GfaHoldsTheGraphWithPathsThatSpellTheContigs) {
  // Files written after the run, on one thread: nothing for ThreadSanitizer to see.
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "output files only: their threads are tested by the others";
  ASSERT_TRUE(test_data_present());
  for (const int k : {31, 63}) {
    OutputDirectory out;
    const auto run = assemble(out, "-threads-per-node 2 --graph-image no -k " + std::to_string(k), kShigella);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_NE(run.output.find("wrote " + out.path() + "/graph.gfa"), std::string::npos) << run.output;
    EXPECT_FALSE(out.has("graph.png")) << "--graph-image no";
    const std::string check = "python3 tests/support/check_gfa.py " + out.path() + "/graph.gfa " + out.path() +
                              "/contigs.fasta " + std::to_string(k);
    const auto checked = run_command(check);
    EXPECT_EQ(checked.exit_code, 0) << checked.output;
    // The plasmid of Shigella's set is one cycle: a segment linked to itself, spelled by one path.
    const std::string gfa = out.read("graph.gfa");
    EXPECT_NE(gfa.find("\t+\t" + std::to_string(k - 1) + "M\n"), std::string::npos);
    EXPECT_NE(out.read("contigs.fasta").find(" circular\n"), std::string::npos);
    if (k != 31) continue;
    // The check can fail: a base changed in the first segment of contig_1's path, and a link
    // left out.
    const std::size_t path = gfa.find("\nP\tcontig_1\t") + 12;
    const std::string first_step = gfa.substr(path, gfa.find_first_of(",\t", path) - path);
    const std::string segment_line = "\nS\t" + first_step.substr(0, first_step.size() - 1) + "\t";
    const std::size_t sequence = gfa.find(segment_line) + segment_line.size();
    ASSERT_NE(gfa.find(segment_line), std::string::npos) << first_step;
    std::string changed = gfa;
    changed[sequence + 20] = changed[sequence + 20] == 'A' ? 'C' : 'A';
    out.write("changed.gfa", changed);
    EXPECT_NE(run_command("python3 tests/support/check_gfa.py " + out.path() + "/changed.gfa " + out.path() +
                          "/contigs.fasta 31")
                  .exit_code,
              0);
    const std::size_t link = gfa.find("\nL\t");
    ASSERT_NE(link, std::string::npos);
    std::string unlinked = gfa;
    unlinked.erase(link, gfa.find('\n', link + 1) - link);
    out.write("unlinked.gfa", unlinked);
    const auto broken = run_command("python3 tests/support/check_gfa.py " + out.path() + "/unlinked.gfa " + out.path() +
                                    "/contigs.fasta 31");
    EXPECT_NE(broken.exit_code, 0) << broken.output;
  }
}

TEST(AssemblerGraph, DrawsASmallGraphWithBandage) {
  // Files written after the run, on one thread: nothing for ThreadSanitizer to see.
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "output files only: their threads are tested by the others";
  ASSERT_TRUE(test_data_present());
  ASSERT_TRUE(bandage_installed());
  OutputDirectory out;
  const auto run = assemble(out, "-k 31", kShigella);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("wrote " + out.path() + "/graph.png"), std::string::npos) << run.output;
  const auto pixels = run_command("python3 tests/support/check_screenshot.py " + out.path() + "/graph.png 100");
  EXPECT_EQ(pixels.exit_code, 0) << pixels.output;
  const std::string log = out.read("assembler.log");
  EXPECT_NE(log.find("phase graph image: done"), std::string::npos) << log;
  EXPECT_FALSE(out.has_partial_files());
}

TEST(AssemblerGraph, SkipsALargeGraphUnlessAsked) {
  // Files written after the run, on one thread: nothing for ThreadSanitizer to see.
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "output files only: their threads are tested by the others";
  ASSERT_TRUE(test_data_present());
  // Every k-mer kept and nothing cleaned: every read error in the graph (over 10000 segments).
  OutputDirectory out;
  const auto run = assemble(out, "-k 31 --min-coverage 1 --tip-length 1 --bubble-length 1", kLambdaReads);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(out.has("graph.gfa"));
  EXPECT_FALSE(out.has("graph.png"));
  const std::string log = out.read("assembler.log");
  EXPECT_NE(log.find("graph.png: skipped: the graph ("), std::string::npos) << log;
  EXPECT_NE(log.find("is larger than --graph-image auto draws"), std::string::npos) << log;
}

TEST(AssemblerGraph, WithoutBandageSkipsThePictureOrRefusesYes) {
  ASSERT_TRUE(test_data_present());
  TemporaryDirectory empty;
  OutputDirectory automatic;
  const auto run = assemble(automatic, "-k 31", kLambdaReads, path_without_bandage(empty));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(automatic.has("graph.gfa"));
  EXPECT_FALSE(automatic.has("graph.png"));
  const std::string log = automatic.read("assembler.log");
  EXPECT_NE(log.find("graph.png: skipped: Bandage is not installed"), std::string::npos) << log;

  OutputDirectory asked;
  const auto refused = assemble(asked, "-k 31 --graph-image yes", kLambdaReads, path_without_bandage(empty));
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_EQ(std::count(refused.output.begin(), refused.output.end(), '\n'), 1) << refused.output;
  EXPECT_NE(refused.output.find("assembler: error: --graph-image yes: Bandage is not installed"), std::string::npos)
      << refused.output;
  EXPECT_FALSE(asked.has("contigs.fasta"));

  OutputDirectory misspelt;
  const auto bad = assemble(misspelt, "-k 31 --graph-image maybe", kLambdaReads);
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--graph-image must be yes, no or auto, not 'maybe'"), std::string::npos) << bad.output;
}

// A Bandage that fails after writing half a picture (and checks that it runs headless).
std::string failing_bandage(const TemporaryDirectory& folder) {
  const std::string script = folder.write("Bandage",
                                          "#!/bin/sh\n"
                                          "[ \"$QT_QPA_PLATFORM\" = offscreen ] || exit 4\n"
                                          "[ \"$1\" = image ] || exit 5\n"
                                          "echo 'half a picture' > \"$3\"\n"
                                          "echo 'Bandage: the layout failed' >&2\n"
                                          "exit 3\n");
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  return "PATH=" + folder.path() + ":$PATH";
}

TEST(AssemblerGraph, AFailedBandageIsReportedWithItsExitStatusAndLeavesNoPicture) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "output files only: their threads are tested by the others";
  ASSERT_TRUE(test_data_present());
  TemporaryDirectory fake;
  OutputDirectory asked;
  const auto failed = assemble(asked, "-k 31 --graph-image yes", kLambdaReads, failing_bandage(fake));
  EXPECT_EQ(failed.exit_code, 1) << failed.output;
  const std::string reported = "graph.png: Bandage exited with status 3: Bandage: the layout failed";
  EXPECT_NE(failed.output.find(reported), std::string::npos) << failed.output;
  EXPECT_TRUE(asked.has("graph.gfa")) << "published before Bandage ran";
  EXPECT_FALSE(asked.has("graph.png"));
  EXPECT_FALSE(asked.has_partial_files());

  OutputDirectory automatic;
  const auto run = assemble(automatic, "-k 31", kLambdaReads, failing_bandage(fake));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_FALSE(automatic.has("graph.png"));
  EXPECT_FALSE(automatic.has_partial_files());
  const std::string log = automatic.read("assembler.log");
  EXPECT_NE(log.find("no picture: " + automatic.path() + "/graph.png: Bandage exited with status 3"), std::string::npos)
      << log;
}

}  // namespace
