// SPDX-License-Identifier: BSD-3-Clause
// The options kmer_counter and the assembler share with other genomics tools: -t N /
// --threads=N beside -threads-per-node, a default of the cores available, '-' for standard
// input, and the log OUTDIR/TOOL.log. Inputs are small sequences written here (a random
// genome and reads tiled over both of its strands), so that these tests need no data set.
#include <gtest/gtest.h>
#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/mpi_run.hpp"
#include "tests/support/run_binary.hpp"
#include "tests/support/temporary_directory.hpp"
#include "tests/support/test_support.hpp"
#include "tests/support/usage_errors.hpp"
#include "xenon/core/version.hpp"

namespace {

using xenon::testing::binary;

using xenon::testing::mpi_run;
using xenon::testing::ProcessResult;
using xenon::testing::run_binary;
using xenon::testing::run_command;
using xenon::testing::TemporaryDirectory;

std::string random_genome(std::size_t length, unsigned seed) {
  std::mt19937 random(seed);  // the engine's output is fixed by the standard, unlike distributions
  std::string genome;
  for (std::size_t i = 0; i < length; ++i) genome += "ACGT"[random() % 4];
  return genome;
}

std::string reverse_complement(const std::string& bases) {
  std::string reverse(bases.rbegin(), bases.rend());
  for (char& base : reverse) base = base == 'A' ? 'T' : base == 'C' ? 'G' : base == 'G' ? 'C' : 'A';
  return reverse;
}

// Reads of 100 bases every 7 bases, every other one from the reverse strand: about ten
// reads over each 31-mer, and no errors.
std::string tiled_reads(const std::string& genome) {
  std::string fastq;
  int number = 0;
  for (std::size_t at = 0; at + 100 <= genome.size(); at += 7, ++number) {
    const std::string read = genome.substr(at, 100);
    fastq += "@read" + std::to_string(number) + "\n" + (number % 2 == 0 ? read : reverse_complement(read)) +
             "\n+\n" + std::string(100, 'I') + "\n";
  }
  return fastq;
}

// A folder with a small read set, as plain and as gzip FASTQ.
class Inputs : public TemporaryDirectory {
 public:
  Inputs() : TemporaryDirectory("xenon-tool-options-in") {
    genome_ = random_genome(5000, 7);
    reads_ = write("reads.fq", tiled_reads(genome_));
    EXPECT_EQ(run_command("gzip -c " + reads_ + " > " + path() + "/reads.fq.gz").exit_code, 0);
  }
  const std::string& reads() const { return reads_; }
  std::string gzipped() const { return reads_ + ".gz"; }
  const std::string& genome() const { return genome_; }

 private:
  std::string genome_;
  std::string reads_;
};

std::size_t lines_holding(const std::string& text, const std::string& words) {
  std::istringstream lines(text);
  std::size_t found = 0;
  for (std::string line; std::getline(lines, line);) found += line.find(words) != std::string::npos ? 1 : 0;
  return found;
}

// Lines of a log that say exactly `text` after their time stamp.
std::size_t logged(const std::string& log, const std::string& text) {
  std::istringstream lines(log);
  std::size_t found = 0;
  for (std::string line; std::getline(lines, line);) found += line.size() > 26 && line.substr(26) == text ? 1 : 0;
  return found;
}

// The CPUs this test (and so the tools it starts) may run on.
int cpus_allowed() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return 1;
  return std::max(1, CPU_COUNT(&mask));
}

// ---- -t / --threads / -threads-per-node ----

TEST(ToolOptions, TIsTheWorkerCountAndAddsACommunicationThreadFromTwoOn) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "how -t is read and logged, not threads: release and ASan builds check it";
  const Inputs in;
  for (const char* tool : {"kmer_counter", "assembler"}) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"-t 1", "1 worker (which also communicates) per node (-t 1)"},
        {"-t 3", "3 workers + 1 communication thread per node (-t 3)"},
        {"--threads=2", "2 workers + 1 communication thread per node (-t 2)"},
        {"--threads 4", "4 workers + 1 communication thread per node (-t 4)"},
        {"-threads-per-node 3", "2 workers + 1 communication thread per node (-threads-per-node 3)"},
        {"-threads-per-node 1", "1 worker (which also communicates) per node (-threads-per-node 1)"},
    };
    for (const auto& [option, logged] : cases) {
      // Under a sanitizer one spelling of each kind is enough: the parsing is not what it checks.
      if (xenon::testing::under_sanitizer() && option != "-t 3" && option != "-threads-per-node 1") continue;
      TemporaryDirectory out;
      const ProcessResult run = run_binary(tool, "--quiet " + option + " -o " + out.path() + " " + in.reads());
      ASSERT_EQ(run.exit_code, 0) << tool << " " << option << "\n" << run.output;
      const std::string workers = logged.substr(0, logged.find(' '));
      EXPECT_NE(run.output.find("(1 node(s) x " + workers + " worker(s))"), std::string::npos)
          << tool << " " << option << "\n" << run.output;
      EXPECT_EQ(lines_holding(out.read(std::string(tool) + ".log"), "threads: " + logged), 1u)
          << tool << " " << option << "\n" << out.read(std::string(tool) + ".log");
    }
  }
}

TEST(ToolOptions, OutputsAreTheSameBytesForEveryThreadCount) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "the spellings of -t: the threads are raced by KmerCounter's and Assembler's WritesTheSameBytes tests";
  const Inputs in;
  TemporaryDirectory one;
  ASSERT_EQ(run_binary("kmer_counter", "--quiet --dump -t 1 -o " + one.path() + " " + in.reads()).exit_code, 0);
  TemporaryDirectory one_assembled;
  ASSERT_EQ(run_binary("assembler", "--quiet -t 1 -o " + one_assembled.path() + " " + in.reads()).exit_code, 0);
  ASSERT_NE(one_assembled.read("contigs.fasta"), "");
  for (const std::string option : {"-t 2", "-t 3", "--threads=5", ""}) {  // "": the default
    TemporaryDirectory out;
    ASSERT_EQ(run_binary("kmer_counter", "--quiet --dump -block-kib 4 " + option + " -o " + out.path() + " " +
                                             in.reads()).exit_code, 0);
    for (const char* name : {"counts.txt", "histogram.txt", "summary.json"}) {
      EXPECT_EQ(out.read(name), one.read(name)) << name << " with '" << option << "'";
    }
    TemporaryDirectory assembled;
    ASSERT_EQ(run_binary("assembler", "--quiet " + option + " -o " + assembled.path() + " " + in.reads()).exit_code, 0);
    for (const char* name : {"contigs.fasta", "assembly.json", "histogram.txt", "graph.gfa"}) {
      EXPECT_EQ(assembled.read(name), one_assembled.read(name)) << name << " with '" << option << "'";
    }
  }
}

TEST(ToolOptions, ThreadsGivenTwiceOrOutOfRangeAreUsageErrors) {
  const Inputs in;
  TemporaryDirectory out;
  const std::string rest = " -o " + out.path() + "/result " + in.reads();
  for (const char* tool : {"kmer_counter", "assembler"}) {
    xenon::testing::expect_usage_errors(
        tool, {
                  {"-t 2 -threads-per-node 3" + rest, "-t/--threads and -threads-per-node both given"},
                  {"--threads=4 --threads-per-node=2" + rest, "-t/--threads and -threads-per-node both given"},
                  {"-t 2 --threads=2" + rest, "-t and --threads both given"},
                  {"-t 2 --threads=3" + rest, "-t and --threads both given"},
                  {"-t 0" + rest, "option -t must be between 1 and"},
                  {"--threads=x" + rest, "option -threads expects an integer, got 'x'"},
              });
  }
  EXPECT_TRUE(out.entries().empty()) << "a usage error writes nothing, not even a log";
}

// ---- the default: the cores available ----

// The default -t as --help shows it.
std::string default_t(const std::string& tool, const std::string& environment = "") {
  const ProcessResult help = run_command(environment + " " + binary(tool) + " --help");
  EXPECT_EQ(help.exit_code, 0) << help.output;
  std::istringstream lines(help.output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  -t VALUE ", 0) != 0) continue;
    EXPECT_NE(line.find("-t N is -threads-per-node N+1"), std::string::npos) << line;
    EXPECT_NE(line.find("by default the cores available"), std::string::npos) << line;
    const auto at = line.find("(default: ");
    return at == std::string::npos ? "" : line.substr(at + 10, line.find(')', at) - at - 10);
  }
  ADD_FAILURE() << "no -t in the help of " << tool << ":\n" << help.output;
  return "";
}

TEST(ToolOptions, TheDefaultIsTheCoresThisProcessMayUse) {
  const int cpus = cpus_allowed();
  for (const char* tool : {"kmer_counter", "assembler"}) {
    EXPECT_EQ(default_t(tool), std::to_string(cpus)) << tool;
    if (run_command("command -v taskset").exit_code == 0) {
      EXPECT_EQ(default_t(tool, "taskset -c 0"), "1") << tool << " on one CPU";
    }
    // Under mpiexec the ranks of a host share its cores, unless Open MPI bound each rank to
    // cores of its own (the environment alone is read: --help starts no MPI).
    EXPECT_EQ(default_t(tool, "OMPI_COMM_WORLD_LOCAL_SIZE=2"), std::to_string(std::max(1, cpus / 2))) << tool;
    EXPECT_EQ(default_t(tool, "OMPI_COMM_WORLD_LOCAL_SIZE=64"), "1") << tool;
    EXPECT_EQ(default_t(tool, "OMPI_COMM_WORLD_LOCAL_SIZE=2 OMPI_MCA_orte_bound_at_launch=1"), std::to_string(cpus))
        << tool;
  }
  const Inputs in;
  TemporaryDirectory out;
  const ProcessResult run = run_binary("kmer_counter", "--quiet -o " + out.path() + " " + in.reads());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("x " + std::to_string(cpus) + " worker(s))"), std::string::npos) << run.output;
  EXPECT_EQ(lines_holding(out.read("kmer_counter.log"),
                          "(default: the cores available, " + std::to_string(cpus) + " here)"), 1u)
      << out.read("kmer_counter.log");
}

TEST(ToolOptions, UnderMpiexecTheRanksOfAHostShareItsCores) {
  SKIP_WITHOUT_MPI();
  const Inputs in;
  TemporaryDirectory out;
  // mpi_run binds no rank (--bind-to none): each sees every CPU, and takes its share.
  const ProcessResult run = mpi_run(2, "kmer_counter", "--quiet -o " + out.path() + " " + in.reads());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const int share = std::max(1, cpus_allowed() / 2);
  EXPECT_NE(run.output.find("(2 node(s) x " + std::to_string(share) + " worker(s))"), std::string::npos)
      << run.output;
  const std::string log = out.read("kmer_counter.log");
  EXPECT_EQ(lines_holding(log, "(default: the cores available, " + std::to_string(share) + " here)"), 1u) << log;
  EXPECT_EQ(lines_holding(log, "nodes: 2 "), 1u) << log;
}

// ---- '-': standard input ----

TEST(ToolOptions, DashReadsStandardInputPlainOrGzip) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "the forms of standard input, not threads: the other standard input tests run the copy under it";
  const Inputs in;
  TemporaryDirectory from_file;
  ASSERT_EQ(run_binary("kmer_counter", "--quiet --dump -o " + from_file.path() + " " + in.reads()).exit_code, 0);
  const std::vector<std::string> feeds = {
      "cat " + in.reads() + " | ",       // a pipe, plain
      "cat " + in.gzipped() + " | ",     // a pipe, gzip: found from the content, as for files
      "< " + in.gzipped() + " ",         // a regular file as standard input
  };
  for (const std::string& feed : feeds) {
    TemporaryDirectory out;
    const ProcessResult run =
        run_command(feed + binary("kmer_counter") + " --quiet --dump -t 2 -o " + out.path() + " -");
    ASSERT_EQ(run.exit_code, 0) << feed << "\n" << run.output;
    EXPECT_EQ(out.read("counts.txt"), from_file.read("counts.txt")) << feed;
    EXPECT_EQ(out.read("histogram.txt"), from_file.read("histogram.txt")) << feed;
    EXPECT_NE(out.read("summary.json").find("\"files\": [\"-\"]"), std::string::npos) << out.read("summary.json");
    EXPECT_EQ(lines_holding(out.read("kmer_counter.log"), "inputs: standard input"), 1u);
  }
  // Beside files, in its place in the order.
  TemporaryDirectory mixed;
  const ProcessResult run = run_command("cat " + in.reads() + " | " + binary("kmer_counter") + " --quiet -o " +
                                        mixed.path() + " " + in.gzipped() + " -");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(mixed.read("summary.json").find("\"files\": [\"" + in.gzipped() + "\", \"-\"]"), std::string::npos);
}

TEST(ToolOptions, BadInputOnStandardInputIsNamedSo) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "an error's wording, not threads: release and ASan builds check it";
  TemporaryDirectory in;
  const std::string bad = in.write("bad.fq", "@r1\nACGTACGTAC\n+\nIIII\n");
  for (const char* tool : {"kmer_counter", "assembler"}) {
    TemporaryDirectory out;
    const ProcessResult run = run_command("cat " + bad + " | " + binary(tool) + " --quiet -o " + out.path() + " -");
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_EQ(run.output, std::string(tool) +
                              ": error: standard input: record 1: quality length 4 differs from sequence length 10\n");
    const ProcessResult empty_gzip =
        run_command("printf '\\037\\213garbage' | " + binary(tool) + " --quiet -o " + out.path() + " -");
    EXPECT_EQ(empty_gzip.exit_code, 1) << empty_gzip.output;
    EXPECT_EQ(empty_gzip.output.rfind(std::string(tool) + ": error: standard input: ", 0), 0u) << empty_gzip.output;
  }
}

TEST(ToolOptions, DashGivenTwiceIsAUsageError) {
  TemporaryDirectory out;
  for (const char* tool : {"kmer_counter", "assembler"}) {
    xenon::testing::expect_usage_errors(tool, {{"-o " + out.path() + " - -", "standard input ('-') given more than once"}});
  }
  EXPECT_TRUE(out.entries().empty());
}

// The assembler reads its inputs again after counting (to thread the reads through the
// graph): standard input and pipes are copied first, and the copy is gone afterwards.
TEST(ToolOptions, TheAssemblerReadsStandardInputAndPipesAsOftenAsItNeeds) {
  const Inputs in;
  TemporaryDirectory from_file;
  ASSERT_EQ(run_binary("assembler", "--quiet -o " + from_file.path() + " " + in.reads()).exit_code, 0);
  const std::string contigs = from_file.read("contigs.fasta");
  ASSERT_EQ(contigs.rfind(">contig_1 length=49", 0), 0u) << "the genome in one contig, but its ends\n" << contigs;
  ASSERT_EQ(contigs.find(">contig_2"), std::string::npos) << contigs;
  const std::size_t reads = static_cast<std::size_t>((5000 - 100) / 7 + 1);
  const std::string threaded = "repeats: " + std::to_string(reads) + " reads threaded";
  EXPECT_EQ(lines_holding(from_file.read("assembler.log"), threaded), 1u) << from_file.read("assembler.log");
  const std::vector<std::string> commands = {
      // The picture is not what these runs are about (AssemblerGraph.* checks it).
      "cat " + in.gzipped() + " | " + binary("assembler") + " --quiet --graph-image no -o OUT -",
      "bash -c '" + binary("assembler") + " --quiet --graph-image no -o OUT <(cat " + in.reads() + ")'",
  };
  for (std::string command : commands) {
    TemporaryDirectory out;
    command.replace(command.find("OUT"), 3, out.path());
    const ProcessResult run = run_command(command);
    ASSERT_EQ(run.exit_code, 0) << command << "\n" << run.output;
    EXPECT_EQ(out.read("contigs.fasta"), contigs) << command;
    EXPECT_EQ(out.read("assembly.json"), from_file.read("assembly.json")) << command;
    const std::string log = out.read("assembler.log");
    EXPECT_EQ(lines_holding(log, threaded), 1u) << "read again from the copy\n" << log;
    EXPECT_EQ(lines_holding(log, "phase copying inputs read once: done in "), 1u) << log;
    EXPECT_EQ(out.entries(), (std::vector<std::string>{"assembler.log", "assembly.json", "contigs.fasta",
                                                       "graph.gfa", "histogram.txt", "run.json", "scaffolds.fasta"}))
        << "the copy is removed";
  }
  // A failed run removes the copy too.
  TemporaryDirectory failed;
  TemporaryDirectory bad;
  const std::string bad_reads = bad.write("bad.fq", "@r1\nACGTACGT\n+\nII\n");
  const ProcessResult run = run_command("cat " + in.reads() + " | " + binary("assembler") + " --quiet -o " +
                                        failed.path() + " - " + bad_reads);
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_EQ(failed.entries(), std::vector<std::string>{"assembler.log"});
}

TEST(ToolOptions, UnderMpiexecNodeZeroReadsStandardInput) {
  SKIP_WITHOUT_MPI();
  const Inputs in;
  TemporaryDirectory from_file;
  ASSERT_EQ(run_binary("kmer_counter", "--quiet -o " + from_file.path() + " " + in.reads()).exit_code, 0);
  TemporaryDirectory assembled;
  // -k 31, the counter's default: the assembler's histogram is compared with the counter's.
  ASSERT_EQ(run_binary("assembler", "--quiet -k 31 -o " + assembled.path() + " " + in.reads()).exit_code, 0);
  for (const char* tool : {"kmer_counter", "assembler"}) {
    TemporaryDirectory out;
    const std::string k = std::string(tool) == "assembler" ? "-k 31 " : "";
    // mpiexec hands its standard input to rank 0, which is node 0, the one that reads.
    const ProcessResult run = mpi_run(2, tool, "--quiet -t 1 " + k + "-o " + out.path() + " - < " + in.gzipped());
    ASSERT_EQ(run.exit_code, 0) << tool << "\n" << run.output;
    EXPECT_EQ(out.read("histogram.txt"), from_file.read("histogram.txt")) << tool;
    if (std::string(tool) == "assembler") {
      EXPECT_EQ(out.read("contigs.fasta"), assembled.read("contigs.fasta"));
    }
  }
}

// ---- the log ----

// Every phase of `phases` starts and ends in the log, in this order.
void expect_phases(const std::string& log, const std::vector<std::string>& phases) {
  std::size_t after = 0;
  for (const std::string& phase : phases) {
    const auto started = log.find("  phase " + phase + ": started\n", after);
    ASSERT_NE(started, std::string::npos) << "phase " << phase << " not started (in order)\n" << log;
    const auto done = log.find("  phase " + phase + ": done in ", started);
    ASSERT_NE(done, std::string::npos) << "phase " << phase << " not done\n" << log;
    after = done;
  }
}

// "2026-11-30T17:07:34.123Z  ": every line starts with its time in UTC.
bool every_line_is_timestamped(const std::string& log) {
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    if (line.size() < 26 || line[4] != '-' || line[10] != 'T' || line[23] != 'Z' || line.substr(24, 2) != "  ") {
      return false;
    }
  }
  return !log.empty();
}

TEST(ToolOptions, TheLogTellsWhatWasAskedEachPhaseAndTheFilesWritten) {
  const Inputs in;
  TemporaryDirectory out;
  const std::string arguments = "-t 2 --dump -k 25 -o " + out.path() + " " + in.reads();
  const ProcessResult run = run_binary("kmer_counter", arguments);  // not quiet: the progress line stays
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("M k-mers/s)"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("  log in " + out.path() + "/kmer_counter.log\n"), std::string::npos) << run.output;
  const std::string log = out.read("kmer_counter.log");
  EXPECT_TRUE(every_line_is_timestamped(log)) << log;
  EXPECT_EQ(lines_holding(log, std::string("  kmer_counter (Xenon) ") + XENON_VERSION_STRING), 1u) << log;
  EXPECT_EQ(logged(log, "command line: " + binary("kmer_counter") + " " + arguments), 1u) << log;
  EXPECT_EQ(lines_holding(log, "  started: 20"), 1u) << log;
  EXPECT_EQ(lines_holding(log, "  threads: 2 workers + 1 communication thread per node (-t 2)"), 1u) << log;
  EXPECT_EQ(lines_holding(log, "  nodes: 1 (one process)"), 1u) << log;
  EXPECT_EQ(lines_holding(log, "  inputs: " + in.reads()), 1u) << log;
  expect_phases(log, {"counting", "histogram", "dump", "writing"});
  const std::size_t records = (5000 - 100) / 7 + 1;
  EXPECT_EQ(lines_holding(log, "phase counting: done in "), 1u);
  EXPECT_EQ(lines_holding(log, ": " + std::to_string(records) + " records, "), 1u) << log;
  for (const char* name : {"histogram.txt", "summary.json", "counts.txt"}) {
    EXPECT_EQ(lines_holding(log, "  wrote " + out.path() + "/" + name), 1u) << name << "\n" << log;
  }
  EXPECT_EQ(lines_holding(log, "  finished in "), 1u) << log;
  EXPECT_EQ(log.substr(log.rfind(": exit status ")), ": exit status 0\n") << log;

  // A second run in the same folder replaces the log (the outputs are replaced too).
  ASSERT_EQ(run_binary("kmer_counter", "--quiet -o " + out.path() + " " + in.reads()).exit_code, 0);
  EXPECT_EQ(lines_holding(out.read("kmer_counter.log"), "command line: "), 1u) << out.read("kmer_counter.log");
}

TEST(ToolOptions, TheAssemblersLogNamesEveryStep) {
  const Inputs in;
  TemporaryDirectory out;
  const ProcessResult run = run_binary("assembler", "--quiet -t 2 -o " + out.path() + " " + in.reads());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string log = out.read("assembler.log");
  EXPECT_TRUE(every_line_is_timestamped(log)) << log;
  EXPECT_EQ(logged(log, "command line: " + binary("assembler") + " --quiet -t 2 -o " + out.path() + " " + in.reads()),
            1u) << log;
  expect_phases(log, {"counting", "histogram", "solid k-mers", "edges", "walks", "unitigs", "cleaning",
                      "repeats, round 1", "reads and pairs", "contigs", "scaffolds"});
  EXPECT_EQ(lines_holding(log, "phase contigs: done in "), 1u) << log;
  EXPECT_EQ(lines_holding(log, "phase contigs: done in "), lines_holding(log, ": 1 contigs, 49")) << log;
  EXPECT_EQ(lines_holding(log, "phase scaffolds: done in "), 1u) << log;
  for (const char* name : {"contigs.fasta", "scaffolds.fasta", "assembly.json", "histogram.txt", "graph.gfa"}) {
    EXPECT_EQ(lines_holding(log, "  wrote " + out.path() + "/" + name), 1u) << name << "\n" << log;
  }
  EXPECT_EQ(log.substr(log.rfind(": exit status ")), ": exit status 0\n") << log;
}

// A failed run leaves no output but the log, which ends with the error: the line the tool
// printed, and the phase it stopped.
TEST(ToolOptions, AFailedRunKeepsTheLogWithTheError) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "the log's lines, not threads: KmerCounter.StopsAtTheFirstBadRecord... stops a run under it";
  const Inputs in;
  std::string reads = tiled_reads(in.genome());
  reads += "@broken\nACGTACGTAC\n+\nIII\n";
  TemporaryDirectory bad;
  const std::string bad_reads = bad.write("bad.fq", reads);
  const std::size_t record = (5000 - 100) / 7 + 2;
  for (const char* tool : {"kmer_counter", "assembler"}) {
    TemporaryDirectory out;
    const ProcessResult run = run_binary(tool, "--quiet -t 2 -o " + out.path() + " " + bad_reads);
    EXPECT_EQ(run.exit_code, 1) << run.output;
    const std::string error = bad_reads + ": record " + std::to_string(record) +
                              ": quality length 3 differs from sequence length 10";
    EXPECT_EQ(run.output, std::string(tool) + ": error: " + error + "\n");
    EXPECT_EQ(out.entries(), std::vector<std::string>{std::string(tool) + ".log"});
    const std::string log = out.read(std::string(tool) + ".log");
    EXPECT_TRUE(every_line_is_timestamped(log)) << log;
    EXPECT_EQ(lines_holding(log, "  command line: "), 1u) << log;
    EXPECT_EQ(lines_holding(log, "  phase counting: stopped by an error after "), 1u) << log;
    EXPECT_EQ(logged(log, "error: " + error), 1u) << log;
    EXPECT_EQ(log.substr(log.rfind(": exit status ")), ": exit status 1\n") << log;
    EXPECT_EQ(lines_holding(log, "  wrote "), 0u) << log;
  }
  // An output that cannot be replaced (a directory in its way): the error before any phase.
  TemporaryDirectory blocked;
  ASSERT_EQ(run_binary("kmer_counter", "--quiet -o " + blocked.path() + " " + in.reads()).exit_code, 0);
  std::filesystem::remove(blocked.path() + "/summary.json");
  std::filesystem::create_directories(blocked.path() + "/summary.json/x");
  const ProcessResult run = run_binary("kmer_counter", "--quiet -o " + blocked.path() + " " + in.reads());
  EXPECT_EQ(run.exit_code, 1) << run.output;
  const std::string log = blocked.read("kmer_counter.log");
  EXPECT_EQ(lines_holding(log, "  phase "), 0u) << log;
  EXPECT_EQ(lines_holding(log, "  error: " + blocked.path() + "/summary.json: in the way: a directory"), 1u) << log;
  // A missing input: found before the output directory is touched (an older run's results
  // stay), with one line and no log.
  TemporaryDirectory missing;
  const ProcessResult missing_run = run_binary("assembler", "--quiet -o " + missing.path() + " /nonexistent/reads.fq");
  EXPECT_EQ(missing_run.exit_code, 1);
  EXPECT_EQ(missing_run.output, "assembler: error: /nonexistent/reads.fq: cannot open: No such file or directory\n");
  EXPECT_TRUE(missing.entries().empty());
}

}  // namespace
