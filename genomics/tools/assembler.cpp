// SPDX-License-Identifier: BSD-3-Clause
// assembler: assembles short reads (FASTA/FASTQ, plain or gzip) into contigs with a de Bruijn
// graph spread over store actors on every worker of every node.
//   assembler -t 2 -o out -1 reads_1.fq.gz -2 reads_2.fq.gz   (several k in turn, from the read length)
//   assembler -o out --12 interleaved.fq -s unpaired.fq --k-list 21,33,55
//   zcat reads.fq.gz | assembler -k 31 -o out -
//   mpiexec -n 4 assembler -k 31 -o out reads.fq.gz
// Writes out/contigs.fasta, out/scaffolds.fasta (the contigs ordered by read pairs),
// out/assembly.json (contigs, total length, largest, N50, scaffolds and their N50, and how
// the graph was built), out/histogram.txt, out/graph.gfa and out/run.json (the run record:
// version, command line, inputs, settings, phase times), all or none, then out/graph.png
// (Bandage's picture of graph.gfa) when it is drawn; out/assembler.log tells how the run went.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/assembler/assembler_coordinator.hpp"
#include "genomics/assembler/assembler_settings.hpp"
#include "genomics/assembler/filter_keeper.hpp"
#include "genomics/assembler/k_choice.hpp"
#include "genomics/assembler/multi_k_assembly.hpp"
#include "genomics/assembler/run_record.hpp"
#include "genomics/io/input_copies.hpp"
#include "genomics/tools/input_options.hpp"
#include "genomics/tools/node_statistics.hpp"
#include "genomics/tools/thread_options.hpp"
#include "genomics/tools/tool_main.hpp"

namespace {

using namespace xenon;
using namespace xenon::genomics;

constexpr const char* kProgram = "assembler";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses the command line into engine options and assembler settings; false after --help.
bool parse_command_line(int argc, char** argv, EngineOptions& options, ThreadOptions& threads,
                        AssemblerSettings& settings, OutputRules& output, std::string& statistics_directory) {
  CommandLine command_line(kProgram,
                           "Assembles short reads into contigs "
                           "with a de Bruijn graph over workers and MPI nodes, at several k in turn (see -k, --k-list): counts k-mers, keeps "
                           "those counted often enough, walks unitigs, removes tips and pops bubbles, joins the dead ends of coverage gaps that a read spans. "
                           "Inputs are FASTA or FASTQ, plain, gzip or BGZF. Which reads are mates: "
                           "-1 A -2 B pairs record N of A with record N of B (an error if A and B hold different "
                           "numbers of records); --12 F pairs records 1 and 2, 3 and 4, ... of F; -s F holds "
                           "unpaired reads; the FILES given without an option are paired among themselves by position "
                           "(the first with the second, the third with the fourth, ...) when there is an even number "
                           "of them, and left unpaired (a warning in the log) if two such files hold different "
                           "numbers of records. "
                           "'-' reads standard input (copied into DIR while the assembler runs, as it "
                           "reads its inputs more than once). Writes DIR/contigs.fasta, DIR/scaffolds.fasta "
                           "(the contigs ordered and oriented by read pairs), DIR/assembly.json, "
                           "DIR/histogram.txt, DIR/graph.gfa (the graph the contigs were read from, GFA 1) and "
                           "DIR/run.json (the run record), then DIR/graph.png (see --graph-image), and logs the "
                           "run in DIR/assembler.log. DIR must be new, "
                           "empty or the assembler's own (see --force); a run replaces the results of the one "
                           "before.");
  threads.add_to(command_line, options);
  std::int64_t k = 0;
  command_line.add_integer("k", &k, 5, kMaxKmerLength - 1,
                           "k-mer length, odd: one round at this k; without it (0), several k in turn, as --k-list says");
  std::string k_list;
  command_line.add_string("k-list", &k_list,
                          "k-mer lengths of the rounds, odd and increasing, e.g. 21,33,55: each round keeps the k-mers "
                          "of the cleaned unitigs of the one before (none: those of 21, 33, 55, 77 and 99 up to two thirds of the median length "
                          "of the first 2000 reads, or one round of that length made odd below 21; given, k goes up to 127)");
  command_line.add_string("o", &settings.counting.output_directory, "output directory (created if missing): new, empty or this tool's own");
  add_output_options(command_line, output,
                     "every phase up to the contigs (from checkpoints/contigs, of the same options), or counting to "
                     "the cleaning (from checkpoints/graph, the cleaned graph, of the same --tip-length and "
                     "--bubble-length; the phases from the read bridges on are done again, so --min-contig may change)");
  command_line.add_unsigned("min-coverage", &settings.coverage_threshold,
                            "keep k-mers counted at least this often, everywhere (0: k-mers counted twice or more; those "
                            "under the k-mer histogram's first minimum go only where a branch read that often runs beside them)");
  std::uint64_t minimum_contig = settings.minimum_contig;
  command_line.add_unsigned("min-contig", &minimum_contig, "write contigs of at least this many bases");
  std::uint64_t tip_length = 0;
  command_line.add_unsigned("tip-length", &tip_length, "remove dead ends shorter than this many bases (0: 2.5 k)");
  std::uint64_t bubble_length = 0;
  command_line.add_unsigned("bubble-length", &bubble_length, "pop bubbles with branches up to this many bases (0: 5 k)");
  bool no_read_bridges = false;
  command_line.add_flag("no-read-bridges", &no_read_bridges,
                        "leave the dead ends of coverage gaps apart (by default, in every round, two dead ends are "
                        "joined where a read spans the gap between them and neither is bridged elsewhere)");
  bool no_count_filter = false;
  command_line.add_flag("no-count-filter", &no_count_filter,
                        "count every k-mer of the rounds after the first in the stores' tables (by default those "
                        "with a shorter k-mer the first round read only once are counted as read once and left "
                        "out: the same output in less memory)");
  std::string graph_image = "auto";
  command_line.add_string("graph-image", &graph_image,
                          "draw DIR/graph.png from graph.gfa with Bandage: yes, no, or auto (when Bandage is "
                          "installed and the graph has at most " + std::to_string(kAutomaticImageSegments) +
                              " segments and " + std::to_string(kAutomaticImageBases) + " bases)");
  std::int64_t block_kib = static_cast<std::int64_t>(settings.counting.block_bytes >> 10);
  command_line.add_integer("block-kib", &block_kib, 4, 1 << 20, "input block size handed to a parser, in KiB");
  command_line.add_string("stats", &statistics_directory,
                          "write what the run cost each node (memory, busy time, bytes sent, input read) to "
                          "DIR/assembler-node-N.json");
  bool quiet = false;
  command_line.add_flag("quiet", &quiet, "no progress on standard error");
  InputOptions inputs;
  add_input_options(command_line, inputs, " (mates guide the contigs through repeats)");
  if (!command_line.parse(argc, argv)) return false;
  threads.resolve(command_line, options);
  resolve_inputs(inputs, settings.counting.files, settings.counting.roles);
  settings.command_line.assign(argv, argv + argc);
  if (k != 0 && !k_list.empty()) throw UsageError("-k and --k-list both given: -k K is --k-list K");
  try {
    if (k != 0) settings.k_rounds = parse_k_list(std::to_string(k));
    if (!k_list.empty()) settings.k_rounds = parse_k_list(k_list);
  } catch (const std::invalid_argument& error) {
    throw UsageError(k != 0 ? "-k must be odd: an even k-mer can be its own reverse complement" : error.what());
  }
  settings.k_rounds_from = k != 0 ? "-k" : "--k-list";
  settings.counting.block_bytes = static_cast<std::size_t>(block_kib) << 10;
  settings.counting.show_progress = !quiet;
  settings.counting.resume = output.resume;
  settings.minimum_contig = static_cast<std::size_t>(minimum_contig);
  settings.cleaning.tip_length = static_cast<std::size_t>(tip_length);
  settings.cleaning.bubble_length = static_cast<std::size_t>(bubble_length);
  settings.read_bridges = !no_read_bridges;
  settings.count_filter = !no_count_filter;
  check_standard_input_once(settings.counting.files);
  if (settings.counting.output_directory.empty()) throw UsageError("no output directory: give -o DIR");
  if (settings.minimum_contig == 0) throw UsageError("--min-contig must be at least 1");
  try {
    settings.graph_image = graph_image_from(graph_image);
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
  // Found now rather than after the assembly it would have waited for.
  if (settings.graph_image == GraphImage::yes && !find_bandage()) {
    throw UsageError("--graph-image yes: Bandage is not installed (no Bandage on PATH; Debian package bandage)");
  }
  return true;
}

// Without -k or --k-list, on node 0 once the inputs can be read: the rounds for the median
// length of the first reads of the first input.
void choose_k_rounds(AssemblerSettings& settings, RunLog& log) {
  if (settings.k_rounds.empty()) {
    const std::size_t read_length = median_read_length(settings.counting.files.front());
    settings.k_rounds = read_length == 0 ? std::vector<int>{31} : k_rounds_for_read_length(read_length);
    settings.k_rounds_from = "median read length " + std::to_string(read_length);
  }
  settings.counting.k = settings.k_rounds.back();
  log.line("k: " + k_list_text(settings.k_rounds) + " (from " + settings.k_rounds_from + ")");
}

// On node 0, before the run: inputs that cannot be read again (standard input, pipes) are
// copied into the output directory, as the reads are threaded through the graph after
// counting; the copy is logged as a phase of its own.
std::unique_ptr<InputCopies> copy_inputs_read_once(const std::vector<std::string>& files, const std::string& directory,
                                                   RunLog& log) {
  if (std::none_of(files.begin(), files.end(), [](const std::string& file) { return is_read_once(file); })) {
    return nullptr;
  }
  log.begin_phase("copying inputs read once");
  auto copies = std::make_unique<InputCopies>(files, directory);
  std::string copied;
  for (const InputCopies::Copy& copy : copies->copies()) {
    copied += (copied.empty() ? "" : ", ") + input_display_name(copy.input) + " (" + std::to_string(copy.bytes) +
              " bytes) to " + copy.path;
  }
  log.end_phase(copied);
  return copies;
}

}  // namespace

int main(int argc, char** argv) {
  EngineOptions options;
  ThreadOptions threads;
  AssemblerSettings settings;
  OutputRules output{kProgram,
                     {kContigsFile, kScaffoldsFile, kAssemblySummaryFile, kHistogramFile, kGraphFile, kGraphImageFile, kRunRecordFile},
                     {kGraphCheckpoint, kContigsCheckpoint}};
  std::string statistics_directory;
  return tool_main(
      kProgram, argc, argv,
      [&] { return parse_command_line(argc, argv, options, threads, settings, output, statistics_directory); },
      [&](ToolRun& run) {
        const NodeStatistics statistics(kProgram, statistics_directory);
        statistics.ask_for_busy_cpu(options);
        Engine engine(options);
        engine.register_actor_type<GraphStore<1>>(std::string(kGraphStoreType<1>));
        engine.register_actor_type<GraphStore<2>>(std::string(kGraphStoreType<2>));
        engine.register_actor_type<GraphStore<4>>(std::string(kGraphStoreType<4>));
        engine.register_actor_type<FilterKeeper>(std::string(kFilterKeeperType));
        register_parsers(engine);
        CounterOutcome counted;
        AssemblyOutcome outcome;
        std::unique_ptr<InputCopies> copies;  // removed when the run ends, whichever way
        if (engine.node_index() == 0) {
          const std::string& directory = settings.counting.output_directory;
          run.open_log(output, directory, settings.counting.files, settings.counting.roles, threads.describe(options),
                       engine.node_count());
          copies = copy_inputs_read_once(settings.counting.files, directory, run.log);
          choose_k_rounds(settings, run.log);
          const ActorName assembly = engine.spawn<MultiKAssembly>(settings, counted, outcome, run.log);
          engine.send(assembly, ACTION_COUNTER_START);
        }
        engine.run();
        statistics.write(engine, run.log);
        if (engine.node_index() != 0) return 0;
        return report_outcome(run, counted, [&] {
          char line[400];
          std::snprintf(line, sizeof line,
                        "%s: k=%s, %llu contigs of %zu bases or more, total %llu bases, largest %llu, N50 %llu, "
                        "in %.2f s (%d node(s) x %d worker(s))",
                        kProgram, k_list_text(settings.k_rounds).c_str(), static_cast<unsigned long long>(outcome.contigs),
                        settings.minimum_contig, static_cast<unsigned long long>(outcome.total_length),
                        static_cast<unsigned long long>(outcome.largest_contig),
                        static_cast<unsigned long long>(outcome.n50), run.seconds(), engine.node_count(),
                        engine.worker_count());
          return std::string(line);
        });
      });
}
