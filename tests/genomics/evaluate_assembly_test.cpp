// SPDX-License-Identifier: BSD-3-Clause
// genomics/evaluate_assembly.sh on contigs cut from the real references of the test data
// (lambda phage; three Shigella plasmids), whose right answers are known by construction:
// a reference cut into pieces is covered whole without misassembly, and each kind of
// misassembly built into a contig is counted once. Bad use and bad input end with one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/run_binary.hpp"
#include "tests/support/temporary_directory.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/test_support.hpp"

namespace {

using xenon::testing::data_directory;
using xenon::testing::test_data_present;
using xenon::testing::ProcessResult;
using xenon::testing::run_command;

constexpr const char* kScript = "genomics/evaluate_assembly.sh";

std::string lambda_path() { return data_directory() + "/lambda/lambda_virus.fa.gz"; }
std::string plasmids_path() { return data_directory() + "/unicycler-sample/reference.fasta.gz"; }

bool installed(const std::string& tool) { return run_command("command -v " + tool).exit_code == 0; }

struct Record {
  std::string name;
  std::string sequence;
};

// The records of a gzip FASTA file, read through gzip -dc.
std::vector<Record> read_gzip_fasta(const std::string& path) {
  const ProcessResult text = run_command("gzip -dc " + path);
  std::vector<Record> records;
  std::istringstream lines(text.output);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    if (line[0] == '>') {
      records.push_back({line.substr(1, line.find(' ') - 1), ""});
    } else if (!records.empty()) {
      records.back().sequence += line;
    }
  }
  return records;
}

std::string reverse_complement(const std::string& sequence) {
  std::string result(sequence.rbegin(), sequence.rend());
  for (char& base : result) {
    switch (base) {
      case 'A':
        base = 'T';
        break;
      case 'C':
        base = 'G';
        break;
      case 'G':
        base = 'C';
        break;
      case 'T':
        base = 'A';
        break;
      default:
        break;
    }
  }
  return result;
}

class WorkDirectory : public xenon::testing::TemporaryDirectory {
 public:
  WorkDirectory() : xenon::testing::TemporaryDirectory("xenon-evaluate-assembly") {}
  std::string write_fasta(const std::string& name, const std::vector<Record>& records) const {
    std::string text;
    for (const Record& record : records) {
      text += ">" + record.name + " made by the test\n";
      for (std::size_t at = 0; at < record.sequence.size(); at += 70)
        text += record.sequence.substr(at, 70) + "\n";
    }
    return write(name, text);
  }
};

// "ASSEMBLY_METRIC name = value" lines as {name: value}.
std::map<std::string, std::string> metrics_of(const std::string& output) {
  std::map<std::string, std::string> metrics;
  std::istringstream lines(output);
  const std::string prefix = "ASSEMBLY_METRIC ";
  for (std::string line; std::getline(lines, line);) {
    const auto equals = line.find(" = ");
    if (line.rfind(prefix, 0) != 0 || equals == std::string::npos) continue;
    metrics[line.substr(prefix.size(), equals - prefix.size())] = line.substr(equals + 3);
  }
  return metrics;
}

struct Evaluation {
  ProcessResult run;
  std::map<std::string, std::string> metrics;

  // A metric as a number ("97.31 %" reads 97.31); fails the test when it is missing.
  double number(const std::string& name) const {
    const auto found = metrics.find(name);
    if (found == metrics.end()) {
      ADD_FAILURE() << "no metric " << name << " in:\n" << run.output;
      return -1;
    }
    return std::stod(found->second);
  }
};

Evaluation evaluate(const std::string& contigs, const std::string& reference,
                    const std::string& options = "") {
  Evaluation evaluation;
  evaluation.run =
      run_command(std::string(kScript) + " " + contigs + " " + reference + " " + options);
  evaluation.metrics = metrics_of(evaluation.run.output);
  return evaluation;
}

void expect_misassemblies(const Evaluation& evaluation, int relocations, int translocations,
                          int inversions) {
  EXPECT_EQ(evaluation.run.exit_code, 0) << evaluation.run.output;
  EXPECT_EQ(evaluation.number("relocations"), relocations) << evaluation.run.output;
  EXPECT_EQ(evaluation.number("translocations"), translocations) << evaluation.run.output;
  EXPECT_EQ(evaluation.number("inversions"), inversions) << evaluation.run.output;
  EXPECT_EQ(evaluation.number("misassemblies"), relocations + translocations + inversions)
      << evaluation.run.output;
}

class EvaluateAssembly : public ::testing::Test {
 protected:
  // The references, read once for the suite. Nothing here may throw or fail: GoogleTest
  // would then mark every test skipped without a word. SetUp says what is wrong instead.
  static void SetUpTestSuite() {
    if (!test_data_present()) return;
    const std::vector<Record> lambda = read_gzip_fasta(lambda_path());
    if (!lambda.empty()) lambda_ = lambda.front().sequence;
    plasmids_ = read_gzip_fasta(plasmids_path());
  }

  void SetUp() override {
    if (xenon::testing::in_a_variant_build()) GTEST_SKIP() << "a script's test: the plain build runs it";
    ASSERT_TRUE(test_data_present());
    ASSERT_TRUE(installed("minimap2"))
        << "minimap2 is not installed: run `make deps` (Debian package minimap2)";
    ASSERT_EQ(lambda_.size(), 48502u)
        << lambda_path() << " is not the lambda genome (see tools/test_data.sha256)";
    ASSERT_EQ(plasmids_.size(), 3u)
        << plasmids_path() << " is not the three plasmids (see tools/test_data.sha256)";
  }

  static std::string lambda(std::size_t start, std::size_t end) {
    return lambda_.substr(start, end - start);
  }
  // Plasmid A (215,774 bp), B (5,153 bp) or E (8,953 bp): index 0, 1 or 2.
  static const std::string& plasmid(int index) { return plasmids_.at(index).sequence; }

  WorkDirectory work_;

 private:
  static inline std::string lambda_;
  static inline std::vector<Record> plasmids_;
};

TEST_F(EvaluateAssembly, ReferenceCutIntoPiecesIsCoveredWholeWithoutMisassembly) {
  const auto pieces = evaluate(work_.write_fasta("pieces.fa", {{"a", lambda(0, 15000)},
                                                               {"b", lambda(15000, 32000)},
                                                               {"c", lambda(32000, 48502)}}),
                               lambda_path());
  EXPECT_EQ(pieces.number("contigs"), 3);
  EXPECT_EQ(pieces.number("total_length"), 48502);
  EXPECT_EQ(pieces.number("largest_contig"), 17000);
  EXPECT_EQ(pieces.number("n50"), 16502);  // 17,000 + 16,502 >= half of 48,502
  EXPECT_EQ(pieces.number("ng50"), 16502);  // the same over the reference's length
  EXPECT_EQ(pieces.number("nga50"), 16502);  // every piece aligns whole
  EXPECT_EQ(pieces.number("reference_length"), 48502);
  EXPECT_GE(pieces.number("genome_fraction"), 99.9);
  EXPECT_NEAR(pieces.number("duplication_ratio"), 1.0, 0.001);
  expect_misassemblies(pieces, 0, 0, 0);
  if (installed("dnadiff")) {
    EXPECT_GE(pieces.number("dnadiff_aligned_reference"), 99.9);
    EXPECT_EQ(pieces.number("dnadiff_breakpoints"), 0);
  } else {
    EXPECT_NE(pieces.run.output.find("ASSEMBLY_NOTE dnadiff is not installed"), std::string::npos);
  }

  // Several reference sequences: each plasmid in two pieces, one of them reverse complemented.
  std::vector<Record> plasmid_pieces;
  for (int index = 0; index < 3; ++index) {
    const std::string& whole = plasmid(index);
    const std::size_t middle = whole.size() / 2;
    plasmid_pieces.push_back({"left" + std::to_string(index), whole.substr(0, middle)});
    plasmid_pieces.push_back(
        {"right" + std::to_string(index), reverse_complement(whole.substr(middle))});
  }
  const auto plasmids = evaluate(work_.write_fasta("plasmids.fa", plasmid_pieces), plasmids_path());
  EXPECT_EQ(plasmids.number("contigs"), 6);
  EXPECT_EQ(plasmids.number("total_length"), 229880);
  EXPECT_EQ(plasmids.number("largest_contig"), 107887);
  EXPECT_GE(plasmids.number("genome_fraction"), 99.9);
  expect_misassemblies(plasmids, 0, 0, 0);
}

TEST_F(EvaluateAssembly, CountsEachReferenceBaseOnceAndOnlyUnderPrimaryAlignments) {
  // Two contigs overlapping by 10 kbp: the overlap is covered once.
  const auto overlapping =
      evaluate(work_.write_fasta("overlapping.fa",
                                 {{"left", lambda(0, 30000)}, {"right", lambda(20000, 48502)}}),
               lambda_path());
  EXPECT_GE(overlapping.number("genome_fraction"), 99.9);
  EXPECT_LE(overlapping.number("genome_fraction"), 100.0);
  expect_misassemblies(overlapping, 0, 0, 0);

  // Plasmid A holds this 2 kbp twice more (123,848 and 147,651): minimap2 reports those copies
  // as secondary alignments, which cover nothing.
  const auto repeat = evaluate(
      work_.write_fasta("repeat.fa", {{"x", plasmid(0).substr(30000, 2000)}}), plasmids_path());
  EXPECT_NEAR(repeat.number("genome_fraction"), 100.0 * 2000 / 229880, 0.05);
  expect_misassemblies(repeat, 0, 0, 0);
}

TEST_F(EvaluateAssembly, ARepeatWrittenInTwoContigsCountsTwiceInTheDuplicationRatio) {
  // The first 20 kbp written twice, and again inside a third contig: 3 x 20,000 + 8,502 aligned
  // bases over the 28,502 of the reference they cover.
  const auto duplicated = evaluate(work_.write_fasta("duplicated.fa", {{"a", lambda(0, 20000)},
                                                                       {"b", lambda(0, 20000)},
                                                                       {"c", lambda(0, 28502)}}),
                                   lambda_path());
  EXPECT_NEAR(duplicated.number("genome_fraction"), 100.0 * 28502 / 48502, 0.05);
  EXPECT_NEAR(duplicated.number("duplication_ratio"), (20000.0 + 20000 + 28502) / 28502, 0.002);
  expect_misassemblies(duplicated, 0, 0, 0);
}

TEST_F(EvaluateAssembly, NGA50CutsContigsAtTheirMisassemblies) {
  // One contig of 38,502 bp joining 0-20,000 to 30,000-48,502: NG50 is the contig, NGA50 the
  // second of its two pieces (20,000 < half of 48,502 <= 20,000 + 18,502).
  const auto chimera = evaluate(
      work_.write_fasta("chimera.fa", {{"x", lambda(0, 20000) + lambda(30000, 48502)}}), lambda_path());
  expect_misassemblies(chimera, 1, 0, 0);
  EXPECT_EQ(chimera.number("ng50"), 38502);
  EXPECT_EQ(chimera.number("nga50"), 18502);
  // Contigs holding less than half of the reference: no NG50 or NGA50 (0).
  const auto small = evaluate(work_.write_fasta("small.fa", {{"x", lambda(0, 20000)}}), lambda_path());
  EXPECT_EQ(small.number("ng50"), 0);
  EXPECT_EQ(small.number("nga50"), 0);
}

TEST_F(EvaluateAssembly, SeveralReferencesAreACommunityJudgedWholeAndGenomeByGenome) {
  // Lambda in two pieces, plasmid B whole, a contig joining lambda to plasmid A, and one
  // joining two distant parts of lambda.
  const std::string contigs =
      work_.write_fasta("community.fa", {{"l1", lambda(0, 25000)},
                                         {"l2", lambda(25000, 48502)},
                                         {"b", plasmid(1)},
                                         {"joined", lambda(40000, 45000) + plasmid(0).substr(1000, 5000)},
                                         {"chimera", lambda(5000, 10000) + lambda(30000, 35000)}});
  const auto community = evaluate(contigs, lambda_path() + " " + plasmids_path());
  EXPECT_EQ(community.number("reference_files"), 2);
  EXPECT_EQ(community.number("reference_sequences"), 4);
  EXPECT_EQ(community.number("reference_length"), 48502 + 229880);
  expect_misassemblies(community, 1, 1, 0);
  // The translocation joins the two genomes; the relocation is lambda's own.
  EXPECT_EQ(community.number("misassemblies_between_genomes"), 1);
  EXPECT_EQ(community.number("misassemblies:lambda_virus.fa.gz"), 1);
  EXPECT_EQ(community.number("misassemblies:reference.fasta.gz"), 0);
  EXPECT_GE(community.number("genome_fraction:lambda_virus.fa.gz"), 99.9);
  EXPECT_NEAR(community.number("duplication_ratio:lambda_virus.fa.gz"), (48502.0 + 5000 + 10000) / 48502, 0.002);
  EXPECT_EQ(community.number("nga50:lambda_virus.fa.gz"), 25000);
  EXPECT_NEAR(community.number("genome_fraction:reference.fasta.gz"), 100.0 * (5153 + 5000) / 229880, 0.05);
  EXPECT_EQ(community.number("nga50:reference.fasta.gz"), 0);  // 10 kbp of 230 kbp
  // One reference: no per-file lines.
  const auto lambda_only = evaluate(contigs, lambda_path());
  EXPECT_EQ(lambda_only.metrics.count("genome_fraction:lambda_virus.fa.gz"), 0u) << lambda_only.run.output;
  EXPECT_EQ(lambda_only.metrics.count("misassemblies_between_genomes"), 0u) << lambda_only.run.output;
}

TEST_F(EvaluateAssembly, ChimeraOfTwoDistantPartsIsOneRelocation) {
  const auto chimera =
      evaluate(work_.write_fasta("chimera.fa", {{"x", lambda(5000, 10000) + lambda(30000, 35000)}}),
               lambda_path());
  expect_misassemblies(chimera, 1, 0, 0);
  // minimap2 aligns it as one alignment with a 20 kbp deletion: the skipped part is not covered.
  EXPECT_NEAR(chimera.number("genome_fraction"), 100.0 * 10000 / 48502, 0.05);

  // The same, reverse complemented: the blocks come in the other order along the contig.
  const auto reversed = evaluate(
      work_.write_fasta("reversed.fa",
                        {{"x", reverse_complement(lambda(5000, 10000) + lambda(30000, 35000))}}),
      lambda_path());
  expect_misassemblies(reversed, 1, 0, 0);
}

TEST_F(EvaluateAssembly, OnlyPlacementsDifferingByMoreThanOneKbpAreRelocations) {
  const auto near = evaluate(
      work_.write_fasta("near.fa", {{"skips_500", lambda(5000, 10000) + lambda(10500, 15000)},
                                    {"skips_1500", lambda(20000, 25000) + lambda(26500, 31000)},
                                    {"repeats_1500", lambda(35000, 40000) + lambda(38500, 43000)}}),
      lambda_path());
  expect_misassemblies(near, 2, 0, 0);
  EXPECT_EQ(near.number("contigs"), 3);
}

TEST_F(EvaluateAssembly, PieceJoinedToADistantReverseComplementIsOneInversion) {
  const auto inverted = evaluate(
      work_.write_fasta("inverted.fa",
                        {{"x", lambda(5000, 10000) + reverse_complement(lambda(30000, 35000))}}),
      lambda_path());
  expect_misassemblies(inverted, 0, 0, 1);
  if (installed("dnadiff")) {
    EXPECT_EQ(inverted.number("dnadiff_inversions"), 1);
  }
}

// Scaffolds, as QUAST judges them: misassemblies on the whole scaffold (its parts across a gap
// of N in the wrong order, orientation or distance), and the broken figures of the parts.
TEST_F(EvaluateAssembly, ScaffoldPartsOutOfOrderTurnedOrFarApartAcrossAGapAreMisassemblies) {
  const std::string gap(10, 'N');
  const auto right = evaluate(
      work_.write_fasta("right.fa", {{"x", lambda(5000, 10000) + gap + lambda(10300, 15000)}}), lambda_path());
  expect_misassemblies(right, 0, 0, 0);
  EXPECT_EQ(right.number("n50"), 5000 + 10 + 4700) << "the scaffold's N50";
  EXPECT_EQ(right.number("scaffold_gaps"), 1);
  EXPECT_EQ(right.number("broken_contigs"), 2);
  EXPECT_EQ(right.number("broken_n50"), 5000);
  // How well the gap is sized: 10 N where the reference has 300 bases, read either way.
  EXPECT_EQ(right.number("scaffold_gaps_placed"), 1);
  EXPECT_EQ(right.number("scaffold_gap_error_median"), 290);
  const auto sized = evaluate(
      work_.write_fasta("sized.fa", {{"x", reverse_complement(lambda(5000, 10000) + std::string(305, 'N') +
                                                              lambda(10300, 15000))}}),
      lambda_path());
  expect_misassemblies(sized, 0, 0, 0);
  EXPECT_EQ(sized.number("scaffold_gaps_placed"), 1);
  EXPECT_EQ(sized.number("scaffold_gap_error_median"), 5);
  EXPECT_EQ(sized.number("scaffold_gap_error_max"), 5);
  const auto order = evaluate(
      work_.write_fasta("order.fa", {{"x", lambda(10300, 15000) + gap + lambda(5000, 10000)}}), lambda_path());
  expect_misassemblies(order, 1, 0, 0);
  const auto turned = evaluate(
      work_.write_fasta("turned.fa", {{"x", lambda(5000, 10000) + gap + reverse_complement(lambda(10300, 15000))}}),
      lambda_path());
  expect_misassemblies(turned, 0, 0, 1);
  const auto far = evaluate(
      work_.write_fasta("far.fa", {{"x", lambda(5000, 10000) + gap + lambda(12000, 17000)}}), lambda_path());
  expect_misassemblies(far, 1, 0, 0);
  EXPECT_EQ(far.number("scaffold_gaps_placed"), 0) << "sides 2 kbp further apart: a misassembly, not a size";
  // Fewer than 10 N is no gap (QUAST's threshold).
  const auto short_run = evaluate(
      work_.write_fasta("short.fa", {{"x", lambda(5000, 10000) + std::string(9, 'N') + lambda(10300, 15000)}}),
      lambda_path());
  EXPECT_EQ(short_run.number("scaffold_gaps"), 0);
  EXPECT_EQ(short_run.number("broken_contigs"), 1);
}

TEST_F(EvaluateAssembly, PiecesOfTwoPlasmidsJoinedAreOneTranslocation) {
  const auto joined = evaluate(
      work_.write_fasta("joined.fa",
                        {{"x", plasmid(0).substr(1000, 5000) + plasmid(1).substr(1000, 3000)}}),
      plasmids_path());
  expect_misassemblies(joined, 0, 1, 0);
  if (installed("dnadiff")) {
    EXPECT_EQ(joined.number("dnadiff_translocations"), 1);
  }
}

TEST_F(EvaluateAssembly, ContigCrossingTheOriginOfACircularPlasmidIsNoRelocation) {
  const std::string& a = plasmid(0);
  const std::string& e = plasmid(2);
  const auto crossing = evaluate(
      work_.write_fasta("crossing.fa", {{"forward", a.substr(a.size() - 5000) + a.substr(0, 5000)},
                                        {"backward", reverse_complement(e.substr(e.size() - 3000) +
                                                                        e.substr(0, 4000))}}),
      plasmids_path());
  expect_misassemblies(crossing, 0, 0, 0);
  EXPECT_NEAR(crossing.number("genome_fraction"), 100.0 * 17000 / 229880, 0.05);

  // Off the end, but back on 3 kbp after the start: a relocation all the same.
  const auto skipping = evaluate(
      work_.write_fasta("skipping.fa", {{"x", a.substr(a.size() - 5000) + a.substr(3000, 5000)}}),
      plasmids_path());
  expect_misassemblies(skipping, 1, 0, 0);
}

TEST_F(EvaluateAssembly, IgnoresContigsShorterThanMinContig) {
  const std::string contigs =
      work_.write_fasta("short.fa", {{"c400", lambda(1000, 1400)},
                                     {"c499", lambda(3000, 3499)},
                                     {"c500", lambda(6000, 6500)},
                                     {"c2000", lambda(10000, 12000)},
                                     {"chimera400", lambda(20000, 20200) + lambda(40000, 40200)}});
  const auto by_default = evaluate(contigs, lambda_path());
  ASSERT_EQ(by_default.run.exit_code, 0) << by_default.run.output;
  EXPECT_EQ(by_default.number("min_contig"), 500);
  EXPECT_EQ(by_default.number("contigs"), 2);
  EXPECT_EQ(by_default.number("total_length"), 2500);
  EXPECT_EQ(by_default.number("largest_contig"), 2000);
  EXPECT_EQ(by_default.number("n50"), 2000);
  EXPECT_NEAR(by_default.number("genome_fraction"), 100.0 * 2500 / 48502, 0.05);
  EXPECT_EQ(by_default.number("misassemblies"), 0);

  const auto all = evaluate(contigs, lambda_path(), "--min-contig 0");
  EXPECT_EQ(all.number("contigs"), 5);
  EXPECT_EQ(all.number("total_length"), 3799);
  EXPECT_EQ(all.number("largest_contig"), 2000);
  EXPECT_NEAR(all.number("genome_fraction"), 100.0 * 3799 / 48502, 0.05);
  EXPECT_EQ(all.number("relocations"), 1) << "the 400 bp chimera counts now";

  const auto long_only = evaluate(contigs, lambda_path(), "--min-contig=1000");
  EXPECT_EQ(long_only.number("contigs"), 1);
  EXPECT_NEAR(long_only.number("genome_fraction"), 100.0 * 2000 / 48502, 0.05);

  const auto none = evaluate(contigs, lambda_path(), "--min-contig 5000");
  EXPECT_EQ(none.run.exit_code, 0) << none.run.output;
  EXPECT_EQ(none.number("contigs"), 0);
  EXPECT_EQ(none.number("genome_fraction"), 0);
  EXPECT_EQ(none.number("misassemblies"), 0);
}

// One line, "evaluate_assembly: error: ..." with the expected words, and the exit status.
void expect_one_error_line(const ProcessResult& run, int exit_code, const std::string& message) {
  EXPECT_EQ(run.exit_code, exit_code) << run.output;
  EXPECT_EQ(run.output.rfind("evaluate_assembly: error: ", 0), 0u) << run.output;
  EXPECT_NE(run.output.find(message), std::string::npos) << "expected '" << message << "' in:\n"
                                                         << run.output;
  EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << "one line:\n"
                                                                       << run.output;
}

TEST_F(EvaluateAssembly, RejectsBadInputWithOneLineAndExitStatus1) {
  const std::string good = work_.write_fasta("good.fa", {{"x", lambda(0, 5000)}});
  const std::string empty = work_.write("empty.fa", "");
  const std::string text = work_.write("notes.txt", "These are not contigs.\nACGT\n");
  const std::string reads = data_directory() + "/lambda/reads_1.fq.gz";
  const std::string no_sequence = work_.write("no_sequence.fa", ">first\n>second\nACGT\n");
  const std::string twice = work_.write("twice.fa", ">same\nACGT\n>same\nTTTT\n");
  std::string compressed = run_command("gzip -c " + good).output;
  const std::string truncated =
      work_.write("truncated.fa.gz", compressed.substr(0, compressed.size() / 2));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/nonexistent/contigs.fa " + lambda_path(), "/nonexistent/contigs.fa: no such file"},
      {good + " /nonexistent/reference.fa", "/nonexistent/reference.fa: no such file"},
      {empty + " " + lambda_path(), empty + ": empty (no FASTA record)"},
      {text + " " + lambda_path(), text + ": not FASTA (line 1 is not a '>' header)"},
      {good + " " + reads, reads + ": not FASTA (line 1 is not a '>' header)"},
      {no_sequence + " " + lambda_path(), no_sequence + ": record 'first' has no sequence"},
      {twice + " " + lambda_path(), twice + ": two records are named 'same'"},
      {good + " " + truncated, truncated + ": corrupt or truncated gzip"},
      {good + " " + work_.write("first.fa", ">x\nACGT\n") + " " + work_.write("second.fa", ">x\nACGT\n"),
       "second.fa: a record is named 'x' as one of " + work_.path() + "/first.fa"},
  };
  for (const auto& [arguments, message] : cases) {
    expect_one_error_line(run_command(std::string(kScript) + " " + arguments), 1, message);
  }
}

TEST_F(EvaluateAssembly, RejectsBadUseWithOneLineAndExitStatus2) {
  const std::string good = work_.write_fasta("good.fa", {{"x", lambda(0, 5000)}});
  const std::vector<std::pair<std::string, std::string>> cases = {
      {good, "expected CONTIGS.fasta and at least one REFERENCE.fasta[.gz], got 1 file(s)"},
      {good + " " + lambda_path() + " --min-contig many",
       "--min-contig must be a whole number of bp, got 'many'"},
      {good + " " + lambda_path() + " --min-contig", "--min-contig needs a length in bp"},
      {good + " " + lambda_path() + " --frobnicate", "unknown option '--frobnicate'"},
  };
  for (const auto& [arguments, message] : cases) {
    expect_one_error_line(run_command(std::string(kScript) + " " + arguments), 2, message);
  }
  const ProcessResult help = run_command(std::string(kScript) + " --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("usage:"), std::string::npos) << help.output;
}

}  // namespace
