// SPDX-License-Identifier: BSD-3-Clause
// kmer_counter end to end, on the real data sets of tests/support/test_data.hpp: the histogram
// and totals must equal Jellyfish's (kept in tests/genomics/expected, and recomputed live when
// jellyfish is installed), for every k, thread count and process count, byte for byte; bad use
// and bad input end with one clear line and no output files (but the log, which says why).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"
#include "tests/support/temporary_directory.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/test_support.hpp"

namespace {

using xenon::testing::data_directory;
using xenon::testing::test_data_present;
using xenon::testing::under_sanitizer;
using xenon::testing::mpi_run;
using xenon::testing::run_binary;
using xenon::testing::run_command;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

struct Dataset {
  std::string name;
  std::vector<std::string> files;  // relative to the data directory
};

// tests/genomics/datasets.sh, the list the expected files were made from.
std::vector<Dataset> datasets() {
  const std::string script = read_file("tests/genomics/datasets.sh");
  std::vector<Dataset> sets;
  std::istringstream lines(script);
  std::string line;
  while (std::getline(lines, line)) {
    const auto open = line.find("  \"");
    if (open != 0) continue;
    std::istringstream fields(line.substr(3, line.rfind('"') - 3));
    Dataset set;
    fields >> set.name;
    for (std::string file; fields >> file;) set.files.push_back(file);
    sets.push_back(set);
  }
  return sets;
}

std::string input_arguments(const Dataset& set) {
  std::string arguments;
  for (const std::string& file : set.files) arguments += " " + data_directory() + "/" + file;
  return arguments;
}

// Where a run writes, read back by file name.
class OutputDirectory : public xenon::testing::TemporaryDirectory {
 public:
  OutputDirectory() : xenon::testing::TemporaryDirectory("xenon-kmer-counter") {}
  std::string file(const std::string& name) const { return read(name); }
};

// Jellyfish's `stats` lines as numbers: Unique, Distinct, Total, Max_count.
std::map<std::string, std::uint64_t> jellyfish_stats(const std::string& text) {
  std::map<std::string, std::uint64_t> stats;
  std::istringstream lines(text);
  std::string name;
  std::uint64_t value;
  while (lines >> name >> value) stats[name.substr(0, name.size() - 1)] = value;
  return stats;
}

std::uint64_t json_number(const std::string& json, const std::string& key) {
  const auto at = json.find("\"" + key + "\": ");
  if (at == std::string::npos) return ~std::uint64_t{0};
  return std::stoull(json.substr(at + key.size() + 4));
}

void expect_jellyfish_answers(const OutputDirectory& out, const std::string& name, int k) {
  const std::string expected = "tests/genomics/expected/" + name + ".k" + std::to_string(k);
  EXPECT_EQ(out.file("histogram.txt"), read_file(expected + ".histo")) << name << " k=" << k;
  auto stats = jellyfish_stats(read_file(expected + ".stats"));
  const std::string summary = out.file("summary.json");
  EXPECT_EQ(json_number(summary, "unique_kmers"), stats["Unique"]) << summary;
  EXPECT_EQ(json_number(summary, "distinct_kmers"), stats["Distinct"]) << summary;
  EXPECT_EQ(json_number(summary, "total_kmers"), stats["Total"]) << summary;
  EXPECT_EQ(json_number(summary, "max_count"), stats["Max_count"]) << summary;
}

TEST(KmerCounter, GivesJellyfishsHistogramAndTotalsOnEveryDataSetKAndThreadCount) {
  ASSERT_TRUE(test_data_present());
  // Counts against Jellyfish's: ThreadSanitizer sees the same threads in WritesTheSameBytes.
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "counts, not threads: ASan and release builds check them";
  const std::vector<Dataset> sets = datasets();
  ASSERT_EQ(sets.size(), 6u);
  for (const Dataset& set : sets) {
    for (const int k : {21, 31, 55, 99}) {  // one, two and four words
      for (const int threads : {1, 3}) {
        // Sanitized builds run 5-20x slower: one k and thread count per set there.
        if (under_sanitizer() && (k != 31 || threads != 3) && !(k == 55 && set.name == "lambda-reads")) continue;
        OutputDirectory out;
        const auto run = run_binary("kmer_counter", "--quiet -threads-per-node " + std::to_string(threads) +
                                                        " -k " + std::to_string(k) + " -o " + out.path() +
                                                        input_arguments(set));
        ASSERT_EQ(run.exit_code, 0) << run.output;
        expect_jellyfish_answers(out, set.name, k);
      }
    }
  }
}

TEST(KmerCounter, WritesTheSameBytesForEveryThreadAndProcessCount) {
  ASSERT_TRUE(test_data_present());
  const Dataset set = datasets()[0];  // lambda reads, two files
  OutputDirectory reference;
  ASSERT_EQ(run_binary("kmer_counter", "--quiet -threads-per-node 1 --dump -o " + reference.path() +
                                           input_arguments(set)).exit_code, 0);
  const std::vector<std::string> names = {"counts.txt", "histogram.txt", "summary.json"};
  EXPECT_EQ(reference.entries(), (std::vector<std::string>{"counts.txt", "histogram.txt", "kmer_counter.log",
                                                           "summary.json"}));
  for (const int threads : {2, 3, 5}) {
    OutputDirectory out;
    const auto run = run_binary("kmer_counter", "--quiet --dump -block-kib 16 -threads-per-node " +
                                                    std::to_string(threads) + " -o " + out.path() +
                                                    input_arguments(set));
    ASSERT_EQ(run.exit_code, 0) << run.output;
    for (const std::string& name : names) EXPECT_EQ(out.file(name), reference.file(name)) << name;
  }
  if (!xenon::testing::built_with_mpi()) return;
  for (const int processes : {2, 4}) {
    OutputDirectory out;
    const auto run = mpi_run(processes, "kmer_counter", "--quiet --dump -block-kib 64 -threads-per-node 2 -o " +
                                                            out.path() + input_arguments(set));
    ASSERT_EQ(run.exit_code, 0) << run.output;
    for (const std::string& name : names) EXPECT_EQ(out.file(name), reference.file(name)) << name;
  }
}

TEST(KmerCounter, AcrossTwoProcessesGivesJellyfishsAnswersOnEveryDataSet) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "the counts, not threads: WritesTheSameBytesForEveryThreadAndProcessCount runs the processes under it";
  SKIP_WITHOUT_MPI();
  ASSERT_TRUE(test_data_present());
  for (const Dataset& set : datasets()) {
    if (under_sanitizer() && set.name != "lambda-art") continue;
    for (const int k : {31, 55}) {
      OutputDirectory out;
      const auto run = mpi_run(2, "kmer_counter", "--quiet -threads-per-node 2 -k " + std::to_string(k) +
                                                      " -o " + out.path() + input_arguments(set));
      ASSERT_EQ(run.exit_code, 0) << run.output;
      EXPECT_NE(run.output.find("(2 node(s) x 1 worker(s))"), std::string::npos) << run.output;
      expect_jellyfish_answers(out, set.name, k);
    }
  }
}

TEST(KmerCounter, DumpListsEveryKmerOnceSortedAndHonoursMinCount) {
  ASSERT_TRUE(test_data_present());
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "the dump's order, not threads: ASan and release builds check it";
  const Dataset set = datasets()[1];  // lambda ART reads
  for (const int k : {31, 55}) {
    OutputDirectory all;
    ASSERT_EQ(run_binary("kmer_counter", "--quiet --dump -k " + std::to_string(k) + " -o " + all.path() +
                                             input_arguments(set)).exit_code, 0);
    const std::string summary = all.file("summary.json");
    std::istringstream lines(all.file("counts.txt"));
    std::string kmer, previous;
    std::uint64_t count, kmers = 0, total = 0, repeated = 0;
    while (lines >> kmer >> count) {
      ASSERT_EQ(kmer.size(), static_cast<std::size_t>(k));
      ASSERT_EQ(kmer.find_first_not_of("ACGT"), std::string::npos) << kmer;
      ASSERT_LT(previous, kmer) << "not sorted, or listed twice";
      previous = kmer;
      ++kmers;
      total += count;
      if (count >= 2) ++repeated;
    }
    EXPECT_EQ(kmers, json_number(summary, "distinct_kmers"));
    EXPECT_EQ(total, json_number(summary, "total_kmers"));
    OutputDirectory frequent;
    ASSERT_EQ(run_binary("kmer_counter", "--quiet --dump --min-count=2 -k " + std::to_string(k) + " -o " +
                                             frequent.path() + input_arguments(set)).exit_code, 0);
    const std::string text = frequent.file("counts.txt");
    EXPECT_EQ(static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n')), repeated);
  }
}

// Jellyfish itself, when installed (CI installs it): the kept answers are still its answers,
// and its dump equals ours line for line.
TEST(KmerCounter, AgreesWithJellyfishRunLive) {
  if (under_sanitizer()) GTEST_SKIP() << "the comparison does not involve our code's memory or threads";
  ASSERT_EQ(run_command("command -v jellyfish").exit_code, 0)
      << "jellyfish is not installed: run `make deps` (Debian package jellyfish)";
  ASSERT_TRUE(test_data_present());
  OutputDirectory live;
  const auto made = run_command("tests/genomics/jellyfish_expected.sh " + data_directory() + " " + live.path());
  ASSERT_EQ(made.exit_code, 0) << made.output;
  for (const auto& entry : std::filesystem::directory_iterator("tests/genomics/expected")) {
    EXPECT_EQ(live.file(entry.path().filename()), read_file(entry.path())) << entry.path();
  }
  const Dataset set = datasets()[0];
  for (const int k : {31, 55}) {
    OutputDirectory ours;
    ASSERT_EQ(run_binary("kmer_counter", "--quiet --dump -k " + std::to_string(k) + " -o " + ours.path() +
                                             input_arguments(set)).exit_code, 0);
    const auto theirs = run_command(
        "zcat" + input_arguments(set) + " > " + live.path() + "/reads.fq && cd " + live.path() +
        " && jellyfish count -C -m " + std::to_string(k) + " -s 10M -o j.jf reads.fq" +
        " && jellyfish dump -c j.jf | LC_ALL=C sort > dump.txt");
    ASSERT_EQ(theirs.exit_code, 0) << theirs.output;
    EXPECT_TRUE(ours.file("counts.txt") == live.file("dump.txt")) << "dumps differ at k=" << k;
  }
}

TEST(KmerCounter, RejectsBadUseWithOneLineAndExitStatus2) {
  OutputDirectory out;
  const std::string reads = " " + data_directory() + "/lambda/reads_1.fq.gz";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-o " + out.path(), "kmer_counter: error: no input files (FASTA or FASTQ, plain or gzip)\n"},
      {reads, "kmer_counter: error: no output directory: give -o DIR\n"},
      {"-k 0 -o " + out.path() + reads, "kmer_counter: error: option -k must be between 1 and 128, got 0\n"},
      {"-k 129 -o " + out.path() + reads, "kmer_counter: error: option -k must be between 1 and 128, got 129\n"},
      {"--min-count 3 -o " + out.path() + reads, "kmer_counter: error: --min-count applies to --dump only\n"},
      {"--frobnicate -o " + out.path() + reads, "kmer_counter: error: unknown option '--frobnicate' (see --help)\n"},
  };
  for (const auto& [arguments, message] : cases) {
    const auto run = run_binary("kmer_counter", arguments);
    EXPECT_EQ(run.exit_code, 2) << arguments;
    EXPECT_EQ(run.output, message) << arguments;
  }
  EXPECT_TRUE(out.entries().empty());
}

// -1/-2, --12 and -s are accepted as the assembler takes them; every read counts alike, but
// -1/-2 files must hold as many records.
TEST(KmerCounter, CountsPairsGivenAsTheAssemblerTakesThemAndRefusesPairsThatCannotPair) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "input options only: its threads are tested by the others";
  ASSERT_TRUE(test_data_present());
  const std::string first = data_directory() + "/lambda/reads_1.fq.gz";
  const std::string second = data_directory() + "/lambda/reads_2.fq.gz";
  OutputDirectory positional, pairs, single;
  ASSERT_EQ(run_binary("kmer_counter", "--quiet -o " + positional.path() + " " + first + " " + second).exit_code, 0);
  ASSERT_EQ(run_binary("kmer_counter", "--quiet -o " + pairs.path() + " -1 " + first + " -2 " + second).exit_code, 0);
  ASSERT_EQ(run_binary("kmer_counter", "--quiet -o " + single.path() + " -s " + second + " -s " + first).exit_code, 0);
  EXPECT_EQ(pairs.read("summary.json"), positional.read("summary.json"));
  EXPECT_EQ(single.read("histogram.txt"), positional.read("histogram.txt"));
  OutputDirectory in, out;
  const std::string record = "\nGATTACACCGTTAGCATGCAAGTCC\n+\nIIIIIIIIIIIIIIIIIIIIIIIII\n";
  std::ofstream(in.path() + "/two.fq") << "@a" + record + "@b" + record;
  std::ofstream(in.path() + "/one.fq") << "@a" + record;
  const auto run = run_binary("kmer_counter", "--quiet -o " + out.path() + " -1 " + in.path() + "/two.fq -2 " +
                                                  in.path() + "/one.fq");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.output, "kmer_counter: error: " + in.path() + "/two.fq (-1) holds 2 records and " + in.path() +
                            "/one.fq (-2) holds 1: mates are the records at the same place in both\n");
  EXPECT_FALSE(std::filesystem::exists(out.path() + "/summary.json"));
}

TEST(KmerCounter, StopsAtTheFirstBadRecordNamingItAndWritesNothing) {
  ASSERT_TRUE(test_data_present());
  OutputDirectory in;
  std::string reads;
  for (int i = 1; i <= 3000; ++i) {
    reads += "@r" + std::to_string(i) + "\nACGTTGCAACGGTACCAGTAGGATTACAGATTACAGGCCA\n+\n";
    reads += std::string(i == 2500 ? 12 : 40, 'I') + "\n";
  }
  std::ofstream(in.path() + "/bad.fq") << reads;
  OutputDirectory out;
  const std::string good = data_directory() + "/lambda/reads_1.fq.gz";
  for (const int threads : {1, 3}) {
    const auto run = run_binary("kmer_counter", "--quiet -block-kib 4 -threads-per-node " + std::to_string(threads) +
                                                    " -o " + out.path() + " " + good + " " + in.path() + "/bad.fq");
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_EQ(run.output, "kmer_counter: error: " + in.path() +
                              "/bad.fq: record 2500: quality length 12 differs from sequence length 40\n");
    EXPECT_EQ(out.entries(), std::vector<std::string>{"kmer_counter.log"}) << "no output after a failure, but the log";
  }
  const auto missing = run_binary("kmer_counter", "--quiet -o " + out.path() + " " + good + " /nonexistent/reads.fq");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.output, "kmer_counter: error: /nonexistent/reads.fq: cannot open: No such file or directory\n");
  if (xenon::testing::built_with_mpi()) {
    // One thread per node, as before the default became the cores available.
    const auto run = mpi_run(2, "kmer_counter", "--quiet -t 1 -block-kib 4 -o " + out.path() + " " + in.path() + "/bad.fq");
    EXPECT_NE(run.exit_code, 0);
    EXPECT_NE(run.output.find("bad.fq: record 2500: quality length 12"), std::string::npos) << run.output;
  }
  EXPECT_EQ(out.entries(), std::vector<std::string>{"kmer_counter.log"});
}

// Blocks of 4 KiB cut the genomes' records into dozens of pieces; k-mers across each cut
// must be counted once, as Jellyfish counts the whole record.
TEST(KmerCounter, CountsFastaRecordsLongerThanABlockExactly) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "the counts, not threads: release and ASan builds check them";
  ASSERT_TRUE(test_data_present());
  for (const Dataset& set : datasets()) {
    if (set.name.find("reference") == std::string::npos) continue;
    for (const int k : {21, 55}) {
      OutputDirectory out;
      const auto run = run_binary("kmer_counter", "--quiet -block-kib 4 -threads-per-node 3 -k " +
                                                      std::to_string(k) + " -o " + out.path() + input_arguments(set));
      ASSERT_EQ(run.exit_code, 0) << run.output;
      expect_jellyfish_answers(out, set.name, k);
    }
  }
}

// Jellyfish users feed it through pipes: <(zcat ...) must keep every byte.
TEST(KmerCounter, ReadsFromPipes) {
  ASSERT_TRUE(test_data_present());
  const Dataset set = datasets()[0];
  OutputDirectory out;
  std::string pipes;
  for (const std::string& file : set.files) pipes += " <(zcat " + data_directory() + "/" + file + ")";
  const char* bin = std::getenv("XENON_BIN");
  const auto run = run_command("bash -c '" + std::string(bin != nullptr ? bin : "build/release/bin") +
                               "/kmer_counter --quiet -o " + out.path() + pipes + "'");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  expect_jellyfish_answers(out, set.name, 31);
}

TEST(KmerCounter, AnEmptyFileIsWarnedAboutAndCountsNothing) {
  ASSERT_TRUE(test_data_present());
  OutputDirectory in;
  std::ofstream(in.path() + "/empty.fq").flush();
  OutputDirectory out;
  const auto run = run_binary("kmer_counter", "--quiet -o " + out.path() + " " + in.path() + "/empty.fq " +
                                                  data_directory() + "/lambda/lambda_virus.fa.gz");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("kmer_counter: warning: " + in.path() + "/empty.fq is empty (no records)\n"),
            std::string::npos) << run.output;
  expect_jellyfish_answers(out, "lambda-reference", 31);
}

// Whichever parser finds its problem first, the one reported is the first in the input.
TEST(KmerCounter, ReportsTheFirstOfSeveralBadRecordsInInputOrder) {
  OutputDirectory in;
  std::string reads;
  for (int i = 1; i <= 4000; ++i) {
    reads += "@r" + std::to_string(i) + "\nACGTTGCAACGGTACCAGTAGGATTACAGATTACAGGCCA\n";
    // Two problems about a block apart: both blocks are out at once, either may be found first.
    reads += (i == 1800 ? "-\n" : "+\n");
    reads += std::string(i == 1700 ? 39 : 40, 'I') + "\n";
  }
  std::ofstream(in.path() + "/two_bad.fq") << reads;
  for (const int threads : {1, 2, 3, 5}) {
    OutputDirectory out;
    const auto run = run_binary("kmer_counter", "--quiet -block-kib 8 -threads-per-node " + std::to_string(threads) +
                                                    " -o " + out.path() + " " + in.path() + "/two_bad.fq");
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_EQ(run.output, "kmer_counter: error: " + in.path() +
                              "/two_bad.fq: record 1700: quality length 39 differs from sequence length 40\n")
        << threads << " threads";
  }
}

// A directory in the way of an output is found before any work, and nothing is written.
TEST(KmerCounter, WritesNoFileWhenOneOfThemCannotBeWritten) {
  ASSERT_TRUE(test_data_present());
  OutputDirectory out;
  std::filesystem::create_directories(out.path() + "/summary.json/x");  // in the way, and not ours to remove
  const auto run = run_binary("kmer_counter", "--quiet --dump --force -o " + out.path() + " " + data_directory() +
                                                  "/lambda/lambda_virus.fa.gz");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.output.find("summary.json: in the way: a directory where kmer_counter writes a file"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(out.entries(), (std::vector<std::string>{"kmer_counter.log", "summary.json"}))
      << "only what was there before, and the log";
}

TEST(KmerCounter, ShowsProgressOnStandardErrorUnlessQuiet) {
  ASSERT_TRUE(test_data_present());
  OutputDirectory out;
  const std::string reads = " " + data_directory() + "/unicycler-sample/short_reads_1.fastq.gz";
  const auto chatty = run_binary("kmer_counter", "-o " + out.path() + reads);
  ASSERT_EQ(chatty.exit_code, 0) << chatty.output;
  EXPECT_NE(chatty.output.find("M k-mers/s)"), std::string::npos) << chatty.output;
  const auto quiet = run_binary("kmer_counter", "--quiet -o " + out.path() + reads);
  EXPECT_EQ(quiet.output.find("M k-mers/s)"), std::string::npos) << quiet.output;
}

}  // namespace
