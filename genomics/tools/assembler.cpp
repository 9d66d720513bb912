// assembler: assembles short reads (FASTA/FASTQ, plain or gzip) into contigs with a de Bruijn
// graph spread over store actors on every worker of every node.
//   assembler -threads-per-node 2 -k 31 -o out reads_1.fq.gz reads_2.fq.gz
//   mpiexec -n 4 assembler -k 31 -o out reads.fq.gz
// Writes out/contigs.fasta, out/assembly.json (contigs, total length, largest, N50, and how
// the graph was built) and out/histogram.txt, all or none.
#include <cstdio>
#include <string>

#include "core/clock.hpp"
#include "engine/xenon.hpp"
#include "genomics/assembler/assembler_coordinator.hpp"
#include "genomics/assembler/assembler_settings.hpp"
#include "genomics/tools/tool_main.hpp"

namespace {

using namespace xenon;
using namespace xenon::genomics;

constexpr const char* kProgram = "assembler";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses the command line into engine options and assembler settings; false after --help.
bool parse_command_line(int argc, char** argv, EngineOptions& options, AssemblerSettings& settings) {
  CommandLine command_line(kProgram,
                           "Assembles short reads in FASTA/FASTQ files, plain or gzip, into contigs "
                           "with a de Bruijn graph over workers and MPI nodes: counts k-mers, keeps "
                           "those counted often enough, walks unitigs, removes tips and pops bubbles. "
                           "Writes DIR/contigs.fasta, DIR/assembly.json and DIR/histogram.txt.");
  add_engine_options(command_line, options);
  std::int64_t k = settings.counting.k;
  command_line.add_integer("k", &k, 5, kMaxKmerLength - 1, "k-mer length, odd");
  command_line.add_string("o", &settings.counting.output_directory, "output directory (created if missing)");
  command_line.add_unsigned("min-coverage", &settings.coverage_threshold,
                            "keep k-mers counted at least this often (0: the k-mer histogram's first minimum)");
  std::uint64_t minimum_contig = settings.minimum_contig;
  command_line.add_unsigned("min-contig", &minimum_contig, "write contigs of at least this many bases");
  std::uint64_t tip_length = 0;
  command_line.add_unsigned("tip-length", &tip_length, "remove dead ends shorter than this many bases (0: 2.5 k)");
  std::uint64_t bubble_length = 0;
  command_line.add_unsigned("bubble-length", &bubble_length, "pop bubbles with branches up to this many bases (0: 5 k)");
  std::int64_t block_kib = static_cast<std::int64_t>(settings.counting.block_bytes >> 10);
  command_line.add_integer("block-kib", &block_kib, 4, 1 << 20, "input block size handed to a parser, in KiB");
  bool quiet = false;
  command_line.add_flag("quiet", &quiet, "no progress on standard error");
  command_line.allow_positional("FILES", &settings.counting.files);
  if (!command_line.parse(argc, argv)) return false;
  settings.counting.k = static_cast<int>(k);
  settings.counting.block_bytes = static_cast<std::size_t>(block_kib) << 10;
  settings.counting.show_progress = !quiet;
  settings.minimum_contig = static_cast<std::size_t>(minimum_contig);
  settings.cleaning.tip_length = static_cast<std::size_t>(tip_length);
  settings.cleaning.bubble_length = static_cast<std::size_t>(bubble_length);
  if (settings.counting.k % 2 == 0) {
    throw UsageError("-k must be odd: an even k-mer can be its own reverse complement");
  }
  if (settings.counting.files.empty()) throw UsageError("no input files (FASTA or FASTQ, plain or gzip)");
  if (settings.counting.output_directory.empty()) throw UsageError("no output directory: give -o DIR");
  if (settings.minimum_contig == 0) throw UsageError("--min-contig must be at least 1");
  return true;
}

template <int Words>
void start_assembly(Engine& engine, const AssemblerSettings& settings, CounterOutcome& counted,
                    AssemblyOutcome& outcome) {
  const ActorName coordinator = engine.spawn<AssemblerCoordinator<Words>>(settings, counted, outcome);
  engine.send(coordinator, ACTION_COUNTER_START);
}

}  // namespace

int main(int argc, char** argv) {
  EngineOptions options;
  AssemblerSettings settings;
  return tool_main(
      kProgram, [&] { return parse_command_line(argc, argv, options, settings); },
      [&] {
        const MonotonicClock::time_point started = MonotonicClock::now();
        Engine engine(options);
        engine.register_actor_type<GraphStore<1>>(std::string(kGraphStoreType1));
        engine.register_actor_type<GraphStore<2>>(std::string(kGraphStoreType2));
        register_parsers(engine);
        CounterOutcome counted;
        AssemblyOutcome outcome;
        if (engine.node_index() == 0) {
          if (kmer_words(settings.counting.k) == 1) {
            start_assembly<1>(engine, settings, counted, outcome);
          } else {
            start_assembly<2>(engine, settings, counted, outcome);
          }
        }
        engine.run();
        if (engine.node_index() != 0) return 0;
        return report_outcome(kProgram, counted, [&] {
          std::printf("%s: k=%d, %llu contigs of %zu bases or more, total %llu bases, largest %llu, N50 %llu, "
                      "in %.2f s (%d node(s) x %d worker(s))\n",
                      kProgram, settings.counting.k, static_cast<unsigned long long>(outcome.contigs),
                      settings.minimum_contig, static_cast<unsigned long long>(outcome.total_length),
                      static_cast<unsigned long long>(outcome.largest_contig),
                      static_cast<unsigned long long>(outcome.n50), seconds_between(started, MonotonicClock::now()),
                      engine.node_count(), engine.worker_count());
        });
      });
}
