// SPDX-License-Identifier: BSD-3-Clause
// The assembler end to end on the real read sets of tests/support/test_data.hpp, judged against
// the known references by genomics/evaluate_assembly.sh (minimap2, as QUAST counts): the issue's
// quality targets, the same bytes for every thread and process count, every k-mer accounted for,
// and bad use and bad input ending with one clear line and no output files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "tests/genomics/fasta_records.hpp"
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

std::string reads(const std::string& first, const std::string& second) {
  return " " + data_directory() + "/" + first + " " + data_directory() + "/" + second;
}
const std::string kLambdaReads = reads("lambda/reads_1.fq.gz", "lambda/reads_2.fq.gz");
const std::string kLambdaArt = reads("lambda/art_1.fq.gz", "lambda/art_2.fq.gz");
const std::string kShigella = reads("unicycler-sample/short_reads_1.fastq.gz", "unicycler-sample/short_reads_2.fastq.gz");

class OutputDirectory : public xenon::testing::TemporaryDirectory {
 public:
  OutputDirectory() : xenon::testing::TemporaryDirectory("xenon-assembler") {}
  std::string contigs() const { return path() + "/contigs.fasta"; }
};

std::uint64_t json_number(const std::string& json, const std::string& key) {
  const auto at = json.find("\"" + key + "\": ");
  if (at == std::string::npos) return ~std::uint64_t{0};
  return std::stoull(json.substr(at + key.size() + 4));
}

// The contigs of a FASTA file, in order.
std::vector<std::string> contigs_of(const std::string& fasta) { return xenon::testing::fasta_sequences(fasta); }

// genomics/evaluate_assembly.sh's metrics as numbers ("99.91 %" reads 99.91).
std::map<std::string, double> evaluate(const std::string& contigs, const std::string& reference) {
  const auto run = run_command("genomics/evaluate_assembly.sh " + contigs + " " + data_directory() + "/" +
                               reference + " --min-contig 500");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::map<std::string, double> metrics;
  std::istringstream lines(run.output);
  const std::string prefix = "ASSEMBLY_METRIC ";
  for (std::string line; std::getline(lines, line);) {
    const auto equals = line.find(" = ");
    if (line.rfind(prefix, 0) != 0 || equals == std::string::npos) continue;
    metrics[line.substr(prefix.size(), equals - prefix.size())] = std::stod(line.substr(equals + 3));
  }
  return metrics;
}

// Success when genomics/evaluate_assembly.sh has its tools, else what to install.
::testing::AssertionResult can_evaluate() {
  if (run_command("command -v minimap2 && command -v dnadiff && command -v python3").exit_code == 0)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "minimap2, dnadiff or python3 is not installed: run `make deps` "
                                          "(Debian packages minimap2, mummer, python3)";
}

// Runs the assembler into `out`; returns its output (stdout and stderr).
std::string assemble(const OutputDirectory& out, const std::string& options, const std::string& inputs) {
  const auto run = run_binary("assembler", "--quiet " + options + " -o " + out.path() + inputs);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  return run.output;
}

TEST(Assembler, SummaryAgreesWithTheContigsWritten) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "the summary file, not threads: release and ASan builds check it";
  ASSERT_TRUE(test_data_present());
  OutputDirectory out;
  assemble(out, "-threads-per-node 2 -k 31", kLambdaReads);
  const std::vector<std::string> contigs = contigs_of(out.read("contigs.fasta"));
  const std::string summary = out.read("assembly.json");
  ASSERT_FALSE(contigs.empty());
  std::vector<std::size_t> lengths;
  std::size_t total = 0;
  for (const std::string& contig : contigs) {
    EXPECT_EQ(contig.find_first_not_of("ACGT"), std::string::npos);
    EXPECT_GE(contig.size(), 200u);
    lengths.push_back(contig.size());
    total += contig.size();
  }
  EXPECT_TRUE(std::is_sorted(lengths.rbegin(), lengths.rend())) << "longest first";
  EXPECT_EQ(json_number(summary, "contigs"), contigs.size());
  EXPECT_EQ(json_number(summary, "total_length"), total);
  EXPECT_EQ(json_number(summary, "largest_contig"), lengths.front());
  std::size_t running = 0, n50 = 0;
  for (const std::size_t length : lengths) {
    running += length;
    if (2 * running >= total) {
      n50 = length;
      break;
    }
  }
  EXPECT_EQ(json_number(summary, "n50"), n50);
  EXPECT_EQ(json_number(summary, "k"), 31u);
  EXPECT_GE(json_number(summary, "coverage_threshold"), 2u);
  // A sequence and its reverse complement are one contig: none is written twice.
  std::vector<std::string> seen;
  for (const std::string& contig : contigs) {
    std::string reverse(contig.rbegin(), contig.rend());
    for (char& base : reverse) base = base == 'A' ? 'T' : base == 'C' ? 'G' : base == 'G' ? 'C' : 'A';
    EXPECT_EQ(std::count(seen.begin(), seen.end(), contig) + std::count(seen.begin(), seen.end(), reverse), 0);
    seen.push_back(contig);
  }
  // The scaffolds: every contig in exactly one, read one way or the other (each scaffold's
  // header names its contigs, in order), and the summary's figures of them.
  const std::string scaffolds_text = out.read("scaffolds.fasta");
  const std::vector<std::string> scaffolds = contigs_of(scaffolds_text);
  ASSERT_FALSE(scaffolds.empty());
  std::vector<int> times(contigs.size(), 0);
  std::istringstream headers(scaffolds_text);
  std::size_t scaffold = 0;
  for (std::string line; std::getline(headers, line);) {
    if (line.empty() || line[0] != '>') continue;
    const std::string listed = line.substr(line.find(" contigs=") + 9);
    std::istringstream names(listed);
    for (std::string name; std::getline(names, name, ',');) {
      const std::size_t index = std::stoul(name.substr(name.find('_') + 1)) - 1;
      ASSERT_LT(index, contigs.size()) << line;
      ++times[index];
      std::string reverse(contigs[index].rbegin(), contigs[index].rend());
      for (char& base : reverse) base = base == 'A' ? 'T' : base == 'C' ? 'G' : base == 'G' ? 'C' : 'A';
      EXPECT_TRUE(scaffolds[scaffold].find(contigs[index]) != std::string::npos ||
                  scaffolds[scaffold].find(reverse) != std::string::npos)
          << name << " in " << line;
    }
    ++scaffold;
  }
  EXPECT_EQ(times, std::vector<int>(contigs.size(), 1)) << scaffolds_text.substr(0, 2000);
  std::vector<std::size_t> scaffold_lengths;
  std::size_t scaffold_total = 0;
  for (const std::string& bases : scaffolds) {
    EXPECT_EQ(bases.find_first_not_of("ACGTN"), std::string::npos);
    scaffold_lengths.push_back(bases.size());
    scaffold_total += bases.size();
  }
  EXPECT_TRUE(std::is_sorted(scaffold_lengths.rbegin(), scaffold_lengths.rend())) << "longest first";
  EXPECT_EQ(json_number(summary, "scaffolds"), scaffolds.size());
  EXPECT_EQ(json_number(summary, "scaffold_total_length"), scaffold_total);
  running = 0;
  std::size_t scaffold_n50 = 0;
  for (const std::size_t length : scaffold_lengths) {
    running += length;
    if (2 * running >= scaffold_total) {
      scaffold_n50 = length;
      break;
    }
  }
  EXPECT_EQ(json_number(summary, "scaffold_n50"), scaffold_n50);
  // --min-contig keeps the longer ones only.
  OutputDirectory long_only;
  assemble(long_only, "-k 31 --min-contig 20000", kLambdaReads);
  for (const std::string& contig : contigs_of(long_only.read("contigs.fasta"))) EXPECT_GE(contig.size(), 20000u);
}

TEST(Assembler, LambdaArtReadsGiveTheWholeGenomeInOneContig) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "the assembly's quality, not threads: release and ASan builds check it";
  ASSERT_TRUE(test_data_present());
  ASSERT_TRUE(can_evaluate());
  OutputDirectory out;
  assemble(out, "-threads-per-node 3", kLambdaArt);  // the defaults: k 21, 33, 55, 77, 99 for 150 bp reads
  // One contig of 500 bp or more (QUAST's least); at k 77 and 99 a 258-base copy of an error,
  // read once, is written too (genomics/README.md, "Limits").
  const std::vector<std::string> contigs = contigs_of(out.read("contigs.fasta"));
  EXPECT_EQ(std::count_if(contigs.begin(), contigs.end(), [](const std::string& contig) { return contig.size() >= 500; }), 1);
  EXPECT_LE(contigs.size(), 2u);
  EXPECT_EQ(contigs_of(out.read("scaffolds.fasta")), contigs_of(out.read("contigs.fasta"))) << "one contig, one scaffold";
  auto metrics = evaluate(out.contigs(), "lambda/lambda_virus.fa.gz");
  EXPECT_GT(metrics["genome_fraction"], 99.9);
  EXPECT_EQ(metrics["misassemblies"], 0);
}

TEST(Assembler, LambdaReadsGiveTheGenomeInAtMostThreeContigs) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "the assembly's quality, not threads: release and ASan builds check it";
  ASSERT_TRUE(test_data_present());
  ASSERT_TRUE(can_evaluate());
  OutputDirectory out;
  assemble(out, "-threads-per-node 3", kLambdaReads);  // the defaults: k 21, 33, 55 for reads of 89 bp (median)
  const std::size_t contigs = contigs_of(out.read("contigs.fasta")).size();
  EXPECT_GE(contigs, 1u);
  EXPECT_LE(contigs, 3u);
  auto metrics = evaluate(out.contigs(), "lambda/lambda_virus.fa.gz");
  EXPECT_GT(metrics["genome_fraction"], 99.5);
  // The donor differs from the reference by design (small rearrangements): minimap2 and
  // dnadiff both see three inversions, and nothing else.
  EXPECT_EQ(metrics["relocations"], 0);
  EXPECT_EQ(metrics["translocations"], 0);
}

// At the defaults (k 21, 33, 55 for 125 bp reads): 88.81% measured (86.68% while every
// bubble's weaker branch was popped, whatever its coverage; 88.98% before walks took the way
// read about as often as their start, which inside an insertion sequence leaves 824 unique
// bases to contigs under 500), each copy of a repeat written once (duplication 1.007; 93.87%
// and 1.082 when both contigs beside a copy wrote it); MEGAHIT 85.78%, SPAdes 78.41%.
TEST(Assembler, ShigellaPlasmidsAreCoveredOnceWithoutMisassembly) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "the assembly's quality, not threads: release and ASan builds check it";
  ASSERT_TRUE(test_data_present());
  ASSERT_TRUE(can_evaluate());
  OutputDirectory out;
  assemble(out, "-threads-per-node 3", kShigella);
  auto metrics = evaluate(out.contigs(), "unicycler-sample/reference.fasta.gz");
  EXPECT_GE(metrics["genome_fraction"], 87.5);
  EXPECT_LE(metrics["duplication_ratio"], 1.02);
  EXPECT_EQ(metrics["misassemblies"], 0);
  // No scaffold joins what the reference keeps apart, at k 63 and at the default k.
  auto scaffolds = evaluate(out.path() + "/scaffolds.fasta", "unicycler-sample/reference.fasta.gz");
  EXPECT_GE(scaffolds["genome_fraction"], 87.5);
  EXPECT_EQ(scaffolds["misassemblies"], 0);
  EXPECT_GE(scaffolds["n50"], metrics["n50"]);
  OutputDirectory default_k;
  assemble(default_k, "-threads-per-node 3", kShigella);
  EXPECT_EQ(evaluate(default_k.path() + "/scaffolds.fasta", "unicycler-sample/reference.fasta.gz")["misassemblies"], 0);
}

TEST(Assembler, WritesTheSameBytesForEveryThreadAndProcessCountAndAccountsForEveryKmer) {
  ASSERT_TRUE(test_data_present());
  // One k of one word, then three rounds (k of one word, then of two, then of four), each
  // after the first counting the one before's unitigs on every node.
  for (const std::string k : {"-k 31", "--k-list 31,63,99"}) {
    const bool rounds = k != "-k 31";
    if (under_sanitizer() && rounds) continue;
    // The picture is AssemblerGraph.*'s to check (Bandage's layout is its own).
    const std::string options = k + " -block-kib 64 --graph-image no";
    OutputDirectory reference;
    assemble(reference, options + " -threads-per-node 1", kShigella);
    const std::string contigs = reference.read("contigs.fasta");
    const std::string summary = reference.read("assembly.json");
    const std::string graph = reference.read("graph.gfa");
    ASSERT_GT(contigs.size(), 100000u);
    const std::string scaffolds = reference.read("scaffolds.fasta");
    EXPECT_EQ(reference.entries(), (std::vector<std::string>{"assembler.log", "assembly.json", "contigs.fasta",
                                                             "graph.gfa", "histogram.txt", "run.json",
                                                             "scaffolds.fasta"}));
    for (const int threads : {2, 3, 5}) {
      if (rounds && threads == 5) continue;  // the rounds' own code is one actor's; their stores are as at one k
      if (under_sanitizer() && threads != 3) continue;  // the sanitizers' time goes where threads meet
      OutputDirectory out;
      assemble(out, options + " -threads-per-node " + std::to_string(threads), kShigella);
      EXPECT_EQ(out.read("contigs.fasta"), contigs) << k << ", " << threads << " threads";
      EXPECT_EQ(out.read("assembly.json"), summary) << k << ", " << threads << " threads";
      EXPECT_EQ(out.read("graph.gfa"), graph) << k << ", " << threads << " threads";
      EXPECT_EQ(out.read("scaffolds.fasta"), scaffolds) << k << ", " << threads << " threads";
    }
    if (!xenon::testing::built_with_mpi()) continue;
    for (const int processes : {2, rounds ? 3 : 4}) {
      if (under_sanitizer() && processes != 2) continue;
      OutputDirectory out;
      const auto run = mpi_run(processes, "assembler", "--quiet -threads-per-node 2 " + options + " -o " +
                                                          out.path() + kShigella);
      ASSERT_EQ(run.exit_code, 0) << run.output;
      EXPECT_NE(run.output.find("(" + std::to_string(processes) + " node(s) x 1 worker(s))"), std::string::npos)
          << run.output;
      EXPECT_EQ(out.read("contigs.fasta"), contigs) << k << ", " << processes << " processes";
      EXPECT_EQ(out.read("assembly.json"), summary) << k << ", " << processes << " processes";
      EXPECT_EQ(out.read("graph.gfa"), graph) << k << ", " << processes << " processes";
      EXPECT_EQ(out.read("scaffolds.fasta"), scaffolds) << k << ", " << processes << " processes";
    }
  }
}

// Every store threads its share of the reads (the pieces plan_input gives it): plain files
// in byte ranges and gzip files whole, so a pair's mates are read by different stores of
// different processes, and are paired on node 0 by their record numbers in their files.
TEST(Assembler, ReadsThreadedByEveryStoreGiveTheSameContigs) {
  ASSERT_TRUE(test_data_present());
  if (!xenon::testing::built_with_mpi()) GTEST_SKIP() << "built without MPI";
  OutputDirectory reference;
  assemble(reference, "-k 31 -threads-per-node 1", kShigella);
  OutputDirectory plain;
  const std::string first = plain.path() + "/reads_1.fq";
  const std::string second = plain.path() + "/reads_2.fq";
  ASSERT_EQ(run_command("zcat " + data_directory() + "/unicycler-sample/short_reads_1.fastq.gz > " + first).exit_code, 0);
  ASSERT_EQ(run_command("zcat " + data_directory() + "/unicycler-sample/short_reads_2.fastq.gz > " + second).exit_code, 0);
  const std::string gzip_second = data_directory() + "/unicycler-sample/short_reads_2.fastq.gz";
  for (const auto& [processes, threads, inputs] :
       {std::tuple{3, 3, first + " " + second}, std::tuple{2, 2, first + " " + gzip_second}}) {
    if (under_sanitizer() && processes == 3) continue;  // the sanitizers' time: one of the two is enough
    OutputDirectory out;
    const auto run = mpi_run(processes, "assembler", "--quiet -k 31 -threads-per-node " + std::to_string(threads) +
                                                         " -o " + out.path() + " " + inputs);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(out.read("contigs.fasta"), reference.read("contigs.fasta")) << processes << " processes, " << inputs;
    EXPECT_EQ(out.read("assembly.json"), reference.read("assembly.json")) << processes << " processes, " << inputs;
    EXPECT_EQ(out.read("graph.gfa"), reference.read("graph.gfa")) << processes << " processes, " << inputs;
    EXPECT_EQ(out.read("scaffolds.fasta"), reference.read("scaffolds.fasta")) << processes << " processes, " << inputs;
    const std::string log = out.read("assembler.log");
    EXPECT_NE(log.find("reads threaded by " + std::to_string(processes * (threads - 1)) + " stores"), std::string::npos)
        << log;
    // The later repeat rounds too, each store threading again the reads it kept.
    ASSERT_NE(log.find("phase repeats, round 2: started"), std::string::npos) << log;
    EXPECT_NE(log.find("stores, each the reads it kept"), std::string::npos) << log;
  }
}

// The same read pairs as SPAdes and MEGAHIT take them: two positional files, -1/-2, and one
// interleaved file (--12); all give the same bytes, also when the interleaved file is read in
// pieces by the stores of 2 and 3 processes (a piece may begin with a second mate: mates are
// paired by their record number in the file). -s gives the unpaired run: one file of every
// read, whose contigs differ from the paired ones (so pairing is seen to matter here).
TEST(Assembler, PairsGivenPositionallyAsMinusOneMinusTwoOrInterleavedGiveTheSameContigs) {
  ASSERT_TRUE(test_data_present());
  // Six assemblies that differ in their input options only (72 s under ThreadSanitizer).
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "input options only: its threads are tested by the others";
  OutputDirectory reference;
  assemble(reference, "-k 31 -threads-per-node 1", kShigella);
  const std::string first = data_directory() + "/unicycler-sample/short_reads_1.fastq.gz";
  const std::string second = data_directory() + "/unicycler-sample/short_reads_2.fastq.gz";
  OutputDirectory inputs;
  // Each FASTQ record on one line, then the two files' lines side by side, back to records.
  const std::string in = inputs.path() + "/";
  ASSERT_EQ(run_command("zcat " + first + " | paste - - - - > " + in + "1.tsv && zcat " + second + " | paste - - - - > " +
                        in + "2.tsv && paste " + in + "1.tsv " + in + "2.tsv | tr '\\t' '\\n' > " + in +
                        "interleaved.fq && zcat " + first + " " + second + " > " + in + "every_read.fq")
                .exit_code,
            0);
  const std::string interleaved = in + "interleaved.fq";
  for (const std::string& form : {" -1 " + first + " -2 " + second, " --12 " + interleaved}) {
    OutputDirectory out;
    assemble(out, "-k 31 -threads-per-node 2", form);
    EXPECT_EQ(out.read("contigs.fasta"), reference.read("contigs.fasta")) << form;
    EXPECT_EQ(out.read("assembly.json"), reference.read("assembly.json")) << form;
  }
  if (xenon::testing::built_with_mpi()) {
    for (const auto& [processes, threads] : {std::pair{2, 2}, std::pair{3, 3}}) {
      if (under_sanitizer() && processes == 3) continue;
      OutputDirectory out;
      const auto run = mpi_run(processes, "assembler", "--quiet -k 31 -threads-per-node " + std::to_string(threads) +
                                                           " -o " + out.path() + " --12 " + interleaved);
      ASSERT_EQ(run.exit_code, 0) << run.output;
      EXPECT_EQ(out.read("contigs.fasta"), reference.read("contigs.fasta")) << processes << " processes";
    }
  }
  OutputDirectory single, unpaired;
  assemble(single, "-k 31", " -s " + first + " -s " + second);
  assemble(unpaired, "-k 31", " " + in + "every_read.fq");
  EXPECT_EQ(single.read("contigs.fasta"), unpaired.read("contigs.fasta"));
  EXPECT_NE(single.read("contigs.fasta"), reference.read("contigs.fasta")) << "pairs change nothing on this set";
  EXPECT_NE(single.read("assembler.log").find("short_reads_1.fastq.gz (single)"), std::string::npos);
}

// DIR/run.json read by Python's json module, one "key=value" line per field ("input=FILE ROLE
// BYTES", "phase=NAME SECONDS" for each of the lists), so a file that is not JSON fails here.
std::multimap<std::string, std::string> run_record(const OutputDirectory& out) {
  const std::string script =
      "import json, sys\n"
      "r = json.load(open(sys.argv[1]))\n"
      "for key, value in r.items():\n"
      "    if key == 'inputs':\n"
      "        for i in value: print('input=%s %s %d' % (i['file'], i['role'], i['bytes']))\n"
      "    elif key == 'phases':\n"
      "        for p in value: print('phase=%s %.3f' % (p['name'], p['seconds']))\n"
      "    elif key == 'command_line':\n"
      "        print('command_line=' + ' '.join(value))\n"
      "    else:\n"
      "        print('%s=%s' % (key, value))\n";
  const xenon::testing::TemporaryDirectory scripts("xenon-run-record");
  const auto run = run_command("python3 " + scripts.write("read_run_record.py", script) + " " + out.path() + "/run.json");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::multimap<std::string, std::string> fields;
  std::istringstream lines(run.output);
  for (std::string line; std::getline(lines, line);) {
    const auto equals = line.find('=');
    if (equals != std::string::npos) fields.emplace(line.substr(0, equals), line.substr(equals + 1));
  }
  return fields;
}

std::string field(const std::multimap<std::string, std::string>& fields, const std::string& key) {
  const auto found = fields.find(key);
  return found == fields.end() ? "(missing)" : found->second;
}

// The run record: the version, the command line, every input with its role and size, k, the
// threshold and where it came from, the cleaning and repeat settings applied, and each phase
// of the log with its seconds.
TEST(Assembler, RunRecordTellsWhatRanOnWhatWithWhichSettingsAndHowLongEachPhaseTook) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "the run record, not threads: release and ASan builds check it";
  ASSERT_TRUE(test_data_present());
  const std::string first = data_directory() + "/lambda/reads_1.fq.gz";
  const std::string second = data_directory() + "/lambda/reads_2.fq.gz";
  const std::string single = data_directory() + "/lambda/art_1.fq.gz";
  OutputDirectory forced, chosen;
  const std::string arguments = "--quiet -k 31 --min-coverage 3 --tip-length 40 -o " + forced.path() + " -s " +
                                single + " -1 " + first + " -2 " + second;
  const auto run = run_binary("assembler", arguments);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("wrote " + forced.path() + "/run.json"), std::string::npos) << run.output;
  const std::multimap<std::string, std::string> record = run_record(forced);
  const std::string version = run_binary("assembler", "--version").output;  // "assembler (Xenon) 0.1.0\n"
  EXPECT_EQ(field(record, "program"), "assembler");
  EXPECT_EQ("assembler (Xenon) " + field(record, "version") + "\n", version);
  const std::string command_line = field(record, "command_line");
  EXPECT_NE(command_line.find("assembler " + arguments), std::string::npos) << command_line;
  const auto inputs = record.equal_range("input");
  std::vector<std::string> listed;
  for (auto input = inputs.first; input != inputs.second; ++input) listed.push_back(input->second);
  const auto size = [](const std::string& file) { return std::to_string(std::filesystem::file_size(file)); };
  EXPECT_EQ(listed, (std::vector<std::string>{first + " pair 1 " + size(first), second + " pair 2 " + size(second),
                                              single + " single " + size(single)}));
  EXPECT_EQ(field(record, "k"), "31");
  EXPECT_EQ(field(record, "k_rounds_from"), "-k");
  EXPECT_EQ(field(record, "coverage_threshold"), "3");
  EXPECT_EQ(field(record, "coverage_threshold_from"), "--min-coverage");
  EXPECT_EQ(field(record, "tip_length"), "40");
  EXPECT_EQ(field(record, "bubble_length"), "155") << "5 k by default";
  EXPECT_EQ(field(record, "cleaning_rounds"), "10");
  EXPECT_EQ(field(record, "repeat_rounds"), "3");
  EXPECT_EQ(field(record, "minimum_passages"), "2");
  EXPECT_EQ(field(record, "minimum_contig_length"), "200");
  EXPECT_EQ(field(record, "count_filter"), "True");  // as Python prints a JSON true
  EXPECT_EQ(field(record, "nodes"), "1");
  // Each phase the log ended before the files were written, in order, with its seconds.
  std::vector<std::string> phases, logged;
  double seconds = 0;
  const auto listed_phases = record.equal_range("phase");
  for (auto phase = listed_phases.first; phase != listed_phases.second; ++phase) {
    const auto space = phase->second.rfind(' ');
    phases.push_back(phase->second.substr(0, space));
    const double phase_seconds = std::stod(phase->second.substr(space + 1));
    EXPECT_GE(phase_seconds, 0.0) << phase->second;
    seconds += phase_seconds;
  }
  std::istringstream log(forced.read("assembler.log"));
  for (std::string line; std::getline(log, line);) {
    const auto at = line.find("  phase ");
    const auto done = line.find(": done in ");
    if (at != std::string::npos && done != std::string::npos) logged.push_back(line.substr(at + 8, done - at - 8));
  }
  // The picture of the graph is drawn after the files are published, the run record among them.
  if (!logged.empty() && logged.back() == "graph image") logged.pop_back();
  ASSERT_FALSE(logged.empty());
  EXPECT_EQ(logged.back(), "writing");
  logged.pop_back();
  EXPECT_EQ(phases, logged);
  EXPECT_EQ(phases.front(), "counting");
  EXPECT_EQ(phases.back(), "scaffolds");
  const auto finished = forced.read("assembler.log").find("finished in ");
  ASSERT_NE(finished, std::string::npos);
  EXPECT_LE(seconds, std::stod(forced.read("assembler.log").substr(finished + 12)) + 0.01);
  // The threshold from the histogram, said so, the same as assembly.json's.
  assemble(chosen, "-k 31", " -1 " + first + " -2 " + second);
  const std::multimap<std::string, std::string> chosen_record = run_record(chosen);
  EXPECT_EQ(field(chosen_record, "coverage_threshold_from"), "histogram");
  EXPECT_EQ(field(chosen_record, "coverage_threshold"),
            std::to_string(json_number(chosen.read("assembly.json"), "coverage_threshold")));
  EXPECT_EQ(field(chosen_record, "tip_length"), "77") << "2.5 k by default";
}

// Without -k, the rounds come from the median read length (shorter reads, smaller k), each
// round's k and threshold recorded; -k K is one round at K, --k-list the rounds given.
TEST(Assembler, KIsChosenFromTheReadLengthUnlessForced) {
  ASSERT_TRUE(test_data_present());
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "options only: its threads are tested by the others";
  OutputDirectory chosen, short_reads, forced, listed;
  assemble(chosen, "", kLambdaReads);  // median read length 89
  EXPECT_NE(chosen.read("assembly.json").find("\"k\": 55,"), std::string::npos) << chosen.read("assembly.json");
  const std::string rounds = chosen.read("assembly.json");
  EXPECT_NE(rounds.find("\"k_rounds\": [{\"k\": 21, \"coverage_threshold\": "), std::string::npos) << rounds;
  EXPECT_NE(rounds.find("}, {\"k\": 33, \"coverage_threshold\": "), std::string::npos) << rounds;
  EXPECT_NE(rounds.find("}, {\"k\": 55, \"coverage_threshold\": "), std::string::npos) << rounds;
  // Each round says what set its threshold: the first its histogram, a later one its histogram
  // or the round before's, if that was lower.
  std::vector<std::string> sources;
  const std::string source_field = "\"coverage_threshold_from\": \"";
  for (auto at = rounds.find(source_field); at != std::string::npos; at = rounds.find(source_field, at + 1)) {
    const std::size_t begin = at + source_field.size();
    sources.push_back(rounds.substr(begin, rounds.find('"', begin) - begin));
  }
  ASSERT_EQ(sources.size(), 3u) << rounds;
  EXPECT_EQ(sources[0], "histogram");
  for (const std::string& source : sources) EXPECT_TRUE(source == "histogram" || source == "the round before") << source;
  EXPECT_EQ(field(run_record(chosen), "k_rounds_from"), "median read length 89");
  EXPECT_NE(chosen.read("assembler.log").find("round 3 of 3: k=55, keeping the k-mers of the "), std::string::npos);
  const std::vector<std::string> entries = chosen.entries();
  EXPECT_EQ(std::count(entries.begin(), entries.end(), "checkpoints"), 0) << "no carried contigs are left";
  // The same reads cut to 40 bases: one round, at k = 21.
  const std::string cut = short_reads.path() + "/cut_";
  for (const std::string mate : {"1", "2"}) {
    const auto run = run_command("zcat " + data_directory() + "/lambda/reads_" + mate +
                                 ".fq.gz | awk 'NR % 2 == 0 { $0 = substr($0, 1, 40) } { print }' > " + cut + mate + ".fq");
    ASSERT_EQ(run.exit_code, 0) << run.output;
  }
  OutputDirectory short_out;
  assemble(short_out, "--min-contig 100", " -1 " + cut + "1.fq -2 " + cut + "2.fq");
  EXPECT_EQ(json_number(short_out.read("assembly.json"), "k"), 21u);
  EXPECT_NE(short_out.read("assembly.json").find("\"k_rounds\": [{\"k\": 21, "), std::string::npos);
  EXPECT_EQ(field(run_record(short_out), "k_rounds_from"), "median read length 40");
  assemble(forced, "-k 31", kLambdaReads);
  EXPECT_NE(forced.read("assembly.json").find("\"k_rounds\": [{\"k\": 31, \"coverage_threshold\": "), std::string::npos);
  EXPECT_EQ(forced.read("assembly.json").find("}, {"), std::string::npos) << "one round";
  EXPECT_EQ(field(run_record(forced), "k_rounds_from"), "-k");
  assemble(listed, "--k-list 25,45", kLambdaReads);
  EXPECT_EQ(json_number(listed.read("assembly.json"), "k"), 45u);
  EXPECT_NE(listed.read("assembly.json").find("[{\"k\": 25, "), std::string::npos);
  EXPECT_EQ(field(run_record(listed), "k_rounds_from"), "--k-list");
}

TEST(Assembler, ThresholdAndCleaningCanBeChosen) {
  ASSERT_TRUE(test_data_present());
  // Options, not threads: the other assembler tests give ThreadSanitizer the same threads.
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "options only: its threads are tested by the others";
  OutputDirectory automatic, all_kmers, uncleaned;
  assemble(automatic, "-k 31", kLambdaReads);
  assemble(all_kmers, "-k 31 --min-coverage 1", kLambdaReads);
  assemble(uncleaned, "-k 31 --min-coverage 1 --tip-length 1 --bubble-length 1", kLambdaReads);
  EXPECT_EQ(json_number(all_kmers.read("assembly.json"), "coverage_threshold"), 1u);
  EXPECT_GT(json_number(all_kmers.read("assembly.json"), "solid_kmers"),
            json_number(automatic.read("assembly.json"), "solid_kmers"));
  // Every read error makes tips and bubbles when every k-mer is kept.
  EXPECT_GT(json_number(all_kmers.read("assembly.json"), "tips_removed"), 100u);
  EXPECT_EQ(json_number(uncleaned.read("assembly.json"), "tips_removed"), 0u);
  EXPECT_GT(json_number(uncleaned.read("assembly.json"), "unitigs"), 1000u);
}

// The rounds after the first leave out of their stores the k-mers with a shorter k-mer the
// first round read once (kmer_filter_window.hpp): every file is the same bytes as when every
// k-mer is counted (--no-count-filter), the histogram's k-mers read once included. With
// --min-coverage 1 a k-mer read once can be solid, so nothing is left out.
TEST(Assembler, LeavingOutTheKmersReadOnceChangesNoByte) {
  ASSERT_TRUE(test_data_present());
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "an option only: its threads are the other tests'";
  // Under AddressSanitizer only the runs that build and use the filter (their memory is what
  // it checks); the release build also runs each beside one that counts every k-mer, and
  // compares their bytes (101 s of the AddressSanitizer stage when it ran them all).
  const bool side_by_side = !under_sanitizer();
  const std::string options = "--k-list 21,33,63 --graph-image no -threads-per-node 2";
  OutputDirectory filtered;
  assemble(filtered, options, kShigella);
  if (side_by_side) {
    OutputDirectory counted;
    assemble(counted, options + " --no-count-filter", kShigella);
    for (const char* file : {"contigs.fasta", "scaffolds.fasta", "assembly.json", "graph.gfa", "histogram.txt"}) {
      EXPECT_EQ(filtered.read(file), counted.read(file)) << file;
    }
    EXPECT_EQ(counted.read("assembler.log").find(" k-mers read once left out"), std::string::npos);
    EXPECT_NE(counted.read("run.json").find("\"count_filter\": false"), std::string::npos);
  }
  const std::string log = filtered.read("assembler.log");
  const std::string left_out = " k-mers read once left out of the stores";
  const std::size_t first = log.find(left_out);
  ASSERT_NE(first, std::string::npos) << log;
  EXPECT_NE(log.find(left_out, first + 1), std::string::npos) << "both later rounds: " << log;
  // The count left out is most of the last round's k-mers read once.
  const std::size_t line_start = log.rfind('\n', log.rfind(left_out)) + 1;
  const std::uint64_t last = std::stoull(log.substr(log.find("  ", line_start) + 2));
  EXPECT_GT(last, json_number(filtered.read("assembly.json"), "solid_kmers") / 10) << log;

  // Over processes the filter waits for the later rounds in slices, one on each node
  // (filter_keeper.hpp), and is put together for each: the same bytes again.
  if (xenon::testing::built_with_mpi()) {
    OutputDirectory spread;
    const auto run = mpi_run(3, "assembler", "--quiet " + options + " -o " + spread.path() + kShigella);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    for (const char* file : {"contigs.fasta", "scaffolds.fasta", "assembly.json", "graph.gfa", "histogram.txt"}) {
      EXPECT_EQ(spread.read(file), filtered.read(file)) << file << ", 3 processes";
    }
    const std::string spread_log = spread.read("assembler.log");
    EXPECT_NE(spread_log.find(left_out, spread_log.find(left_out) + 1), std::string::npos) << spread_log;
  }

  if (side_by_side) {  // which runs build no filter: the options' logic, not memory
    OutputDirectory every_kmer_solid;
    assemble(every_kmer_solid, "--k-list 21,33 --min-coverage 1 --graph-image no", kShigella);
    EXPECT_EQ(every_kmer_solid.read("assembler.log").find(left_out), std::string::npos);
  }

  // A record cut across blocks (the lambda genome, 48 kbp, beside its reads, in blocks of
  // 4 KiB): the bases before each cut prime the filter's window as they prime the scanner.
  const std::string cut_input = " -block-kib 4 --k-list 21,33 --graph-image no -1 " + data_directory() +
                                "/lambda/reads_1.fq.gz -2 " + data_directory() + "/lambda/reads_2.fq.gz -s " +
                                data_directory() + "/lambda/lambda_virus.fa.gz";
  OutputDirectory cut_filtered;
  assemble(cut_filtered, "", cut_input);
  EXPECT_NE(cut_filtered.read("assembler.log").find(left_out), std::string::npos) << cut_filtered.read("assembler.log");
  if (side_by_side) {
    OutputDirectory cut_counted;
    assemble(cut_counted, "--no-count-filter", cut_input);
    for (const char* file : {"contigs.fasta", "assembly.json", "graph.gfa", "histogram.txt"}) {
      EXPECT_EQ(cut_filtered.read(file), cut_counted.read(file)) << file;
    }
  }

  // One copy of the filter a worker: on the lambda reads (a filter of about 100 KB against
  // 126 K 21-mers read once, 2 MB of table) 4 workers build it and 24 do not, as it would
  // cost more than it saves; the bytes are the same.
  const std::string lambda_pairs = " --k-list 21,33 --graph-image no -1 " + data_directory() + "/lambda/reads_1.fq.gz -2 " +
                                   data_directory() + "/lambda/reads_2.fq.gz";
  OutputDirectory few_workers, many_workers;
  assemble(few_workers, "-threads-per-node 5", lambda_pairs);
  const std::string declined = "no filter of k-mers read once for the later rounds";
  EXPECT_NE(few_workers.read("assembler.log").find(left_out), std::string::npos) << few_workers.read("assembler.log");
  EXPECT_EQ(few_workers.read("assembler.log").find(declined), std::string::npos);
  if (!side_by_side) return;  // 25 workers decline the filter: a rule, not memory
  assemble(many_workers, "-threads-per-node 25", lambda_pairs);
  EXPECT_NE(many_workers.read("assembler.log").find(declined), std::string::npos) << many_workers.read("assembler.log");
  EXPECT_EQ(many_workers.read("assembler.log").find(left_out), std::string::npos);
  EXPECT_EQ(few_workers.read("contigs.fasta"), many_workers.read("contigs.fasta"));
  EXPECT_EQ(few_workers.read("histogram.txt"), many_workers.read("histogram.txt"));
}

// One line naming the problem, the exit status, and no output files.
void expect_refused(const std::string& arguments, int exit_code, const std::string& words) {
  OutputDirectory out;
  const auto run = run_binary("assembler", "--quiet -o " + out.path() + "/result " + arguments);
  EXPECT_EQ(run.exit_code, exit_code) << arguments << "\n" << run.output;
  EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << run.output;
  EXPECT_EQ(run.output.rfind("assembler: error: ", 0), 0u) << run.output;
  EXPECT_NE(run.output.find(words), std::string::npos) << "missing '" << words << "' in " << run.output;
  EXPECT_FALSE(std::filesystem::exists(out.path() + "/result/contigs.fasta")) << arguments;
  EXPECT_FALSE(std::filesystem::exists(out.path() + "/result/assembly.json")) << arguments;
}

TEST(Assembler, RefusesBadUseAndBadInputWithOneLine) {
  expect_refused("-k 32" + kLambdaArt, 2, "-k must be odd");
  expect_refused("-k 129" + kLambdaArt, 2, "-k");
  expect_refused("-k 31 --k-list 21,33" + kLambdaArt, 2, "-k and --k-list");
  expect_refused("--k-list 21,20" + kLambdaArt, 2, "--k-list: 20 is not an odd k-mer length");
  expect_refused("--k-list 33,21" + kLambdaArt, 2, "--k-list: the lengths must increase");
  expect_refused("", 2, "no input files");
  expect_refused("--min-contig 0" + kLambdaArt, 2, "--min-contig");
  expect_refused(data_directory() + "/lambda/no_such_file.fq", 1, "no_such_file.fq");
  OutputDirectory bad;
  const std::string truncated = bad.write("truncated.fq", "@r1\nACGTACGTACGTACGTACGTACGTACGTACGTACGT\n+\nIIII\n");
  expect_refused(truncated, 1, "truncated.fq");
}

// Each form of pairs refused as it must be: one line, no outputs.
TEST(Assembler, RefusesPairsThatCannotPairWithOneLine) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "input options only: its threads are tested by the others";
  OutputDirectory inputs;
  const std::string bases = "GATTACACCGTTAGCATGCAAGTCCTAGGCTTAACGGATCCATGACTGATCGTAGCATCG";
  const std::string record = bases + "\n+\n" + std::string(bases.size(), 'I') + "\n";
  const auto records = [&](int count) {
    std::string text;
    for (int i = 1; i <= count; ++i) text += "@r" + std::to_string(i) + "\n" + record;
    return text;
  };
  const std::string three = inputs.write("three.fq", records(3));
  const std::string two = inputs.write("two.fq", records(2));
  const std::string missing = inputs.path() + "/missing.fq";
  expect_refused("-1 " + three, 2, "-1 given 1 time(s) and -2 0 time(s)");
  expect_refused("-1 " + three + " -2 " + three + " -2 " + two, 2, "-1 given 1 time(s) and -2 2 time(s)");
  expect_refused("-1 " + three + " -2 " + two, 1, three + " (-1) holds 3 records and " + two + " (-2) holds 2");
  expect_refused("--12 " + three, 1, three + ": 3 records, an odd number");
  for (const std::string option : {"-1 ", "-2 ", "--12 ", "-s "}) {
    const std::string other = option == "-1 " ? " -2 " + two : option == "-2 " ? " -1 " + two : "";
    expect_refused(option + missing + other, 1, "missing.fq: cannot open");
  }
  // Positional files keep their rule: different counts leave them unpaired, with a warning.
  OutputDirectory out;
  assemble(out, "-k 21 --min-contig 1", " " + three + " " + two);
  EXPECT_NE(out.read("assembler.log").find("hold different numbers of records: their reads are not paired"),
            std::string::npos);
}

}  // namespace
