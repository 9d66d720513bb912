// SPDX-License-Identifier: BSD-3-Clause
// kmer_counter: counts canonical k-mers of FASTA/FASTQ files (plain or gzip) on actors spread
// over every worker of every node, with Jellyfish's answers (jellyfish count -C, then histo).
//   kmer_counter -t 2 -k 31 -o out reads_1.fq.gz reads_2.fq.gz
//   zcat reads.fq.gz | kmer_counter -k 31 -o out -
//   mpiexec -n 4 kmer_counter -k 31 -o out reads.fq.gz
// Writes out/histogram.txt (Jellyfish's histo format), out/summary.json and, with --dump,
// out/counts.txt ("kmer count" per line, sorted); out/kmer_counter.log tells how the run went.
#include <cstdio>
#include <string>

#include <xenon/xenon.hpp>
#include "genomics/counter/counter_coordinator.hpp"
#include "genomics/counter/counter_settings.hpp"
#include "genomics/tools/input_options.hpp"
#include "genomics/tools/node_statistics.hpp"
#include "genomics/tools/thread_options.hpp"
#include "genomics/tools/tool_main.hpp"

namespace {

using namespace xenon;
using namespace xenon::genomics;

constexpr const char* kProgram = "kmer_counter";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses the command line into engine options and counter settings; false after --help.
bool parse_command_line(int argc, char** argv, EngineOptions& options, ThreadOptions& threads,
                        CounterSettings& settings, OutputRules& output, std::string& statistics_directory) {
  CommandLine command_line(kProgram,
                           "Counts canonical k-mers (a k-mer and its reverse complement are one) "
                           "in FASTA/FASTQ files, plain, gzip or BGZF, across workers and MPI nodes; "
                           "'-' reads standard input. Inputs may be given as the assembler takes them (-1/-2, --12, "
                           "-s, or positional FILES): every read is counted the same way, but pairs given with -1/-2 "
                           "must hold as many records, and a --12 file an even number. "
                           "Writes DIR/histogram.txt (as jellyfish histo), DIR/summary.json and, with --dump, DIR/counts.txt, and logs the run in "
                           "DIR/kmer_counter.log. DIR must be new, empty or kmer_counter's own (see --force); "
                           "a run replaces the results of the one before.");
  threads.add_to(command_line, options);
  std::int64_t k = settings.k;
  command_line.add_integer("k", &k, 1, kMaxKmerLength, "k-mer length (odd k avoids k-mers equal to their reverse complement)");
  command_line.add_string("o", &settings.output_directory, "output directory (created if missing): new, empty or this tool's own");
  command_line.add_flag("dump", &settings.dump, "also write every k-mer and its count, sorted, to DIR/counts.txt");
  add_output_options(command_line, output,
                     "counting and histogram (from checkpoints/counted; with --dump also the counted k-mers, checkpoints/kmers-*)");
  command_line.add_unsigned("min-count", &settings.minimum_count, "dump only k-mers counted at least this often");
  std::int64_t block_kib = static_cast<std::int64_t>(settings.block_bytes >> 10);
  command_line.add_integer("block-kib", &block_kib, 4, 1 << 20, "input block size handed to a parser, in KiB");
  command_line.add_string("stats", &statistics_directory,
                          "write what the run cost each node (memory, busy time, bytes sent, input read) to "
                          "DIR/kmer_counter-node-N.json");
  bool quiet = false;
  command_line.add_flag("quiet", &quiet, "no progress line on standard error");
  InputOptions inputs;
  add_input_options(command_line, inputs, " (each read is counted alone; -1/-2 files must hold as many records)");
  if (!command_line.parse(argc, argv)) return false;
  threads.resolve(command_line, options);
  resolve_inputs(inputs, settings.files, settings.roles);
  settings.k = static_cast<int>(k);
  settings.block_bytes = static_cast<std::size_t>(block_kib) << 10;
  settings.show_progress = !quiet;
  settings.resume = output.resume;
  check_standard_input_once(settings.files);
  if (settings.output_directory.empty()) throw UsageError("no output directory: give -o DIR");
  if (settings.minimum_count == 0) throw UsageError("--min-count must be at least 1");
  if (settings.minimum_count != 1 && !settings.dump) throw UsageError("--min-count applies to --dump only");
  return true;
}

template <int Words>
ActorName start_count(Engine& engine, const CounterSettings& settings, CounterOutcome& outcome, RunLog& log) {
  const ActorName coordinator = engine.spawn<CounterCoordinator<Words>>(settings, outcome, log);
  engine.send(coordinator, ACTION_COUNTER_START);
  return coordinator;
}

std::string thousands(std::uint64_t value) {
  const std::string digits = std::to_string(value);
  std::string grouped;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return grouped;
}

}  // namespace

int main(int argc, char** argv) {
  EngineOptions options;
  ThreadOptions threads;
  CounterSettings settings;
  OutputRules output{kProgram, {kHistogramFile, kSummaryFile, kDumpFile}, {kCountedCheckpoint, kKmerShardCheckpoints}};
  std::string statistics_directory;
  return tool_main(
      kProgram, argc, argv,
      [&] { return parse_command_line(argc, argv, options, threads, settings, output, statistics_directory); },
      [&](ToolRun& run) {
        const NodeStatistics statistics(kProgram, statistics_directory);
        statistics.ask_for_busy_cpu(options);
        Engine engine(options);
        engine.register_actor_type<KmerStore<1>>(std::string(kStoreType<1>));
        engine.register_actor_type<KmerStore<2>>(std::string(kStoreType<2>));
        engine.register_actor_type<KmerStore<4>>(std::string(kStoreType<4>));
        register_parsers(engine);
        CounterOutcome outcome;
        if (engine.node_index() == 0) {
          run.open_log(output, settings.output_directory, settings.files, settings.roles, threads.describe(options),
                       engine.node_count());
          if (kmer_words(settings.k) == 1) {
            start_count<1>(engine, settings, outcome, run.log);
          } else if (kmer_words(settings.k) == 2) {
            start_count<2>(engine, settings, outcome, run.log);
          } else {
            start_count<4>(engine, settings, outcome, run.log);
          }
        }
        engine.run();
        statistics.write(engine, run.log);
        if (engine.node_index() != 0) return 0;
        return report_outcome(run, outcome, [&] {
          char line[400];
          std::snprintf(line, sizeof line,
                        "%s: k=%d, %s records, %s bases, %s k-mers, %s distinct, %s unique, in %.2f s "
                        "(%d node(s) x %d worker(s))",
                        kProgram, settings.k, thousands(outcome.tally.records).c_str(),
                        thousands(outcome.tally.bases).c_str(), thousands(outcome.histogram.total_kmers()).c_str(),
                        thousands(outcome.histogram.distinct_kmers()).c_str(),
                        thousands(outcome.histogram.unique_kmers()).c_str(), run.seconds(), engine.node_count(),
                        engine.worker_count());
          return std::string(line);
        });
      });
}
