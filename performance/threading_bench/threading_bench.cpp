// SPDX-License-Identifier: BSD-3-Clause
// How fast reads are threaded through the index of unitig ends (ReadThreads::trace), the
// lookup behind every read-threading round of the assembler, on one core, without the rest of
// the assembler: a random genome cut into unitigs of the lengths a bacterium's cleaned graph
// has, reads sampled from it with substitution errors, every read traced once per pass.
// With -owners P (above 1), the index is cut in P slices and P ReadTracers thread the reads,
// each a P-th of them, asking one another for the k-mers their slice does not hold: all on
// this core, the asks and answers handed over in memory, so the figures are what slicing costs
// in lookups and CPU, not in network time.
// With -bridge-gaps N the genome loses kGapBases bases after every N-th unitig, and the reads
// are searched for the bridges they spell between those dead ends instead (find_bridges
// through the whole index; with -owners, BridgeTracers through the slices): the assembler's
// "read bridges" threading.
//   threading_bench [-genome-bases N] [-reads N] [-read-length N] [-k N] [-passes N] [-seed N] [-owners P]
//                   [-bridge-gaps N]
// Prints one line per pass and a summary, machine-readable:
//   THREADING_BENCH pass=I reads=N seconds=S reads_per_second=R
//   THREADING_BENCH best_reads_per_second=R index_bytes=B unitigs=U crossed_runs=C owners=P asks_per_read=A
// (with -bridge-gaps: bridges=V, the distinct bridges spelled, instead of crossed_runs, and
// replays_per_read=R, the passes over a read run again once answers came)
// Compare builds side by side in one session: the index is memory-bound, so the machine's
// other work moves the figures.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "genomics/assembler/bridge_tracer.hpp"
#include "genomics/assembler/end_index.hpp"
#include "genomics/assembler/read_bridges.hpp"
#include "genomics/assembler/read_threads.hpp"
#include "genomics/assembler/read_tracer.hpp"
#include "genomics/kmer/kmer_ops.hpp"

namespace {

using xenon::genomics::BridgeTracer;
using xenon::genomics::BridgeVotes;
using xenon::genomics::DeadEnds;
using xenon::genomics::EndIndex;
using xenon::genomics::ReadThreads;
using xenon::genomics::ReadTracer;
using xenon::genomics::UnitigEnds;

struct Options {
  std::uint64_t genome_bases = 4'600'000;
  std::uint64_t reads = 500'000;
  std::uint64_t read_length = 150;
  std::uint64_t k = 31;
  std::uint64_t passes = 3;
  std::uint64_t seed = 1;
  std::uint64_t owners = 1;
  std::uint64_t bridge_gaps = 0;  // 0: thread the reads; N: find bridges, a gap after every N-th unitig
};

// The bases the genome loses at each gap: less than a read, so that reads span it.
constexpr std::size_t kGapBases = 20;

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "threading_bench: %s\nusage: threading_bench [-genome-bases N] [-reads N] [-read-length N] [-k N] "
               "[-passes N] [-seed N] [-owners P] [-bridge-gaps N]\n",
               why.c_str());
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; i += 2) {
    const std::string name = argv[i];
    if (name == "--help" || name == "-help" || name == "-h") {
      std::printf("usage: threading_bench [-genome-bases N] [-reads N] [-read-length N] [-k N] [-passes N] [-seed N] [-owners P] [-bridge-gaps N]\n"
                  "Threads reads sampled from a random genome through the index of its unitig ends, on one core,\n"
                  "and prints THREADING_BENCH lines (reads per second of each pass, the best, the index's bytes).\n"
                  "-owners P: the index cut in P slices, P tracers asking one another (on this core).\n"
                  "-bridge-gaps N: a gap of %zu bases after every N-th unitig; the reads' bridges found instead.\n",
                  kGapBases);
      std::exit(0);
    }
    if (i + 1 >= argc) usage(name + " needs a value");
    char* end = nullptr;
    const std::uint64_t value = std::strtoull(argv[i + 1], &end, 10);
    if (*argv[i + 1] == '\0' || *end != '\0' || value == 0) usage(name + ": '" + argv[i + 1] + "' is not a positive integer");
    if (name == "-genome-bases") {
      options.genome_bases = value;
    } else if (name == "-reads") {
      options.reads = value;
    } else if (name == "-read-length") {
      options.read_length = value;
    } else if (name == "-k") {
      options.k = value;
    } else if (name == "-passes") {
      options.passes = value;
    } else if (name == "-seed") {
      options.seed = value;
    } else if (name == "-owners") {
      options.owners = value;
    } else if (name == "-bridge-gaps") {
      options.bridge_gaps = value;
    } else {
      usage("unknown option " + name);
    }
  }
  if (options.k % 2 == 0 || options.k > 63) usage("-k must be odd and at most 63");
  if (options.read_length < options.k) usage("-read-length must be at least -k");
  if (options.genome_bases < 100 * options.k) usage("-genome-bases must be at least 100 k");
  if (options.read_length > options.genome_bases) usage("-read-length must be at most -genome-bases");
  // A read that spans a gap holds a k-mer of the unitig on either side of it, or none is found.
  if (options.bridge_gaps != 0 && options.read_length < kGapBases + 2 * options.k) {
    usage("-bridge-gaps needs reads of at least " + std::to_string(kGapBases) + " + 2 k bases, to span a gap");
  }
  if (options.owners > 1024) usage("-owners must be at most 1024");
  return options;
}

// Unitig lengths as a bacterium's cleaned graph at k = 31 has them (40x E. coli: 2,264
// unitigs over 4.6 Mbp): most short, a few long. With `gap_every` (above 0), kGapBases of the
// genome are left out after every gap_every-th unitig, and `dead` flags the ends that meet a
// gap (and the genome's two ends), as DeadEnds::of_unitig does.
std::vector<UnitigEnds> cut_into_unitigs(const std::string& genome, std::size_t k, std::size_t span,
                                         std::size_t gap_every, std::mt19937_64& random,
                                         std::vector<std::uint8_t>& dead) {
  std::exponential_distribution<double> length(1.0 / 2000.0);
  std::vector<UnitigEnds> ends;
  dead.clear();
  std::uint8_t next_dead = DeadEnds::kHead;
  for (std::size_t at = 0; at + k <= genome.size();) {
    std::size_t bases = k + static_cast<std::size_t>(length(random));
    bases = std::min(bases, genome.size() - at);
    ends.push_back(UnitigEnds::of(std::string_view(genome).substr(at, bases), k, span));
    dead.push_back(std::exchange(next_dead, 0));
    const bool gap = gap_every != 0 && ends.size() % gap_every == 0;
    if (gap) {
      dead.back() |= DeadEnds::kTail;
      next_dead = DeadEnds::kHead;
      at += bases + kGapBases;
    } else {
      at += bases - (k - 1);  // neighbours overlap by k - 1 bases, as in a de Bruijn graph
    }
  }
  if (!dead.empty()) dead.back() |= DeadEnds::kTail;  // the genome's end
  return ends;
}

// Runs one tracer a slice, each admitting a P-th of the reads (owner, owner + P, ...) while
// fewer than kWindow wait, until every read is admitted and every ask answered: the asks that
// the tracers' AskOwner (asker_for) put in `asked` are answered by the slice they name and
// handed back, a round at a time, `after_round` called after each. Returns the asks made.
template <class Tracer, class AfterRound>
std::uint64_t drive_tracers(std::vector<Tracer>& tracers, const std::vector<EndIndex>& slices,
                            const std::vector<std::string>& reads, std::vector<xenon::genomics::KmerAsk>& asked,
                            AfterRound after_round) {
  constexpr std::size_t kWindow = 16384;  // reads in flight on each tracer
  const std::size_t owners = slices.size();
  std::vector<xenon::genomics::KmerAnswer> answers;
  std::uint64_t asks = 0;
  std::vector<std::size_t> next(owners);
  for (std::size_t owner = 0; owner < owners; ++owner) next[owner] = owner;
  while (true) {
    bool admitted = false;
    for (std::size_t owner = 0; owner < owners; ++owner) {
      for (; next[owner] < reads.size() && tracers[owner].in_flight() < kWindow; next[owner] += owners) {
        tracers[owner].admit(reads[next[owner]]);
        admitted = true;
      }
    }
    if (!admitted && asked.empty()) break;
    for (const xenon::genomics::KmerAsk& ask : asked) answers.push_back(answer_of(slices[ask.to], ask));
    asks += asked.size();
    asked.clear();
    for (const xenon::genomics::KmerAnswer& answer : answers) tracers[answer.to].answered(answer.ticket, answer.place);
    answers.clear();
    after_round();
  }
  for (const Tracer& tracer : tracers) {
    if (tracer.in_flight() != 0) throw std::logic_error("a tracer kept reads it never finished");
  }
  return asks;
}

// What a tracer of `owner` asks goes into `asked`.
xenon::genomics::AskOwner asker_for(std::vector<xenon::genomics::KmerAsk>& asked, std::size_t owner) {
  return [&asked, owner](std::size_t to, std::string_view kmer, std::uint64_t ticket) {
    asked.push_back({owner, to, std::string(kmer), ticket});
  };
}

// The reads threaded by `owners` tracers, each through its slice, each asking the others:
// the runs that crossed two unitigs or more, and the asks made.
std::uint64_t thread_sliced(const std::vector<EndIndex>& slices, const std::vector<std::string>& reads,
                            std::uint64_t& asks) {
  std::vector<xenon::genomics::KmerAsk> asked;
  std::vector<ReadTracer> tracers;
  for (std::size_t owner = 0; owner < slices.size(); ++owner) tracers.emplace_back(slices[owner], asker_for(asked, owner));
  std::uint64_t crossed = 0;
  asks += drive_tracers(tracers, slices, reads, asked, [&] {
    for (ReadTracer& tracer : tracers) {
      while (tracer.oldest_done()) {
        for (const auto& run : tracer.take_oldest().runs) crossed += run.size() >= 2 ? 1 : 0;
      }
    }
  });
  return crossed;
}

// The bridges the reads spell, found by `owners` BridgeTracers, each through its slice, each
// asking the others; the asks made and the passes run again.
BridgeVotes bridges_sliced(const std::vector<EndIndex>& slices, const DeadEnds& dead,
                           const std::vector<std::string>& reads, std::uint64_t& asks, std::uint64_t& replays) {
  std::vector<xenon::genomics::KmerAsk> asked;
  std::vector<BridgeTracer> tracers;
  for (std::size_t owner = 0; owner < slices.size(); ++owner) {
    tracers.emplace_back(slices[owner], dead, asker_for(asked, owner));
  }
  asks += drive_tracers(tracers, slices, reads, asked, [] {});
  BridgeVotes votes;
  for (const BridgeTracer& tracer : tracers) {
    votes.add_all(tracer.votes());
    replays += tracer.replays();
  }
  return votes;
}

}  // namespace

int main(int argc, char** argv) try {
  const Options options = parse(argc, argv);
  const auto k = static_cast<std::size_t>(options.k);
  std::mt19937_64 random(options.seed);
  std::string genome(options.genome_bases, 'A');
  for (char& base : genome) base = "ACGT"[random() % 4];
  const std::size_t span = ReadThreads::end_span_for(options.read_length, static_cast<int>(k));
  std::vector<std::uint8_t> dead_flags;
  const std::vector<UnitigEnds> ends = cut_into_unitigs(genome, k, span, options.bridge_gaps, random, dead_flags);
  const ReadThreads threads(ends, static_cast<int>(k), span);
  const bool bridges = options.bridge_gaps != 0;
  const DeadEnds dead = DeadEnds::of(dead_flags, ends, k);

  // Reads from either strand, one substitution in a hundred bases.
  std::vector<std::string> reads;
  reads.reserve(options.reads);
  std::uniform_int_distribution<std::size_t> start(0, genome.size() - options.read_length);
  for (std::uint64_t i = 0; i < options.reads; ++i) {
    std::string read = genome.substr(start(random), options.read_length);
    if (random() % 2 != 0) read = xenon::genomics::reverse_complement(read);
    for (char& base : read) {
      if (random() % 100 == 0) base = "ACGT"[(std::string_view("ACGT").find(base) + 1 + random() % 3) % 4];
    }
    reads.push_back(std::move(read));
  }

  // Sliced: the slices, and what the whole index finds, which they must find alike.
  std::vector<EndIndex> slices;
  std::uint64_t whole_crossed = 0;
  std::vector<std::byte> whole_votes;
  std::uint64_t index_bytes = threads.index_bytes();
  if (options.owners > 1) {
    index_bytes = 0;
    for (std::size_t owner = 0; owner < options.owners; ++owner) {
      slices.emplace_back(ends, static_cast<int>(k), span, owner, options.owners);
      index_bytes = std::max<std::uint64_t>(index_bytes, slices.back().bytes());
    }
    if (bridges) {
      BridgeVotes votes;
      for (const std::string& read : reads) find_bridges(threads, dead, static_cast<int>(k), read, votes);
      whole_votes = votes.encode();
    } else {
      for (const std::string& read : reads) {
        for (const std::vector<ReadThreads::Oriented>& run : threads.trace(read).runs) whole_crossed += run.size() >= 2 ? 1 : 0;
      }
    }
  }

  double best = 0;
  std::uint64_t found = 0;  // runs crossed, or bridges spelled
  std::uint64_t asks = 0;
  std::uint64_t replays = 0;
  for (std::uint64_t pass = 1; pass <= options.passes; ++pass) {
    std::uint64_t runs = 0;
    asks = 0;
    replays = 0;
    const auto began = std::chrono::steady_clock::now();
    BridgeVotes votes;
    if (bridges) {
      if (slices.empty()) {
        for (const std::string& read : reads) find_bridges(threads, dead, static_cast<int>(k), read, votes);
      } else {
        votes = bridges_sliced(slices, dead, reads, asks, replays);
      }
      runs = votes.size();
    } else if (slices.empty()) {
      for (const std::string& read : reads) {
        for (const std::vector<ReadThreads::Oriented>& run : threads.trace(read).runs) runs += run.size() >= 2 ? 1 : 0;
      }
    } else {
      runs = thread_sliced(slices, reads, asks);
      if (runs != whole_crossed) throw std::logic_error("the slices threaded the reads otherwise than the whole index");
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    if (bridges && !slices.empty() && votes.encode() != whole_votes) {
      throw std::logic_error("the slices found other bridges than the whole index");
    }
    if (pass > 1 && runs != found) throw std::logic_error("a pass found otherwise than the first");
    found = runs;
    const double rate = static_cast<double>(reads.size()) / seconds;
    best = std::max(best, rate);
    std::printf("THREADING_BENCH pass=%llu reads=%zu seconds=%.4f reads_per_second=%.0f\n",
                static_cast<unsigned long long>(pass), reads.size(), seconds, rate);
  }
  // index_bytes: the whole index's, or with slices, the largest slice's.
  const double per_read = 1.0 / static_cast<double>(reads.size());
  std::printf("THREADING_BENCH best_reads_per_second=%.0f index_bytes=%llu unitigs=%zu %s=%llu owners=%llu "
              "asks_per_read=%.3f",
              best, static_cast<unsigned long long>(index_bytes), ends.size(), bridges ? "bridges" : "crossed_runs",
              static_cast<unsigned long long>(found), static_cast<unsigned long long>(options.owners),
              static_cast<double>(asks) * per_read);
  if (bridges) std::printf(" replays_per_read=%.3f", static_cast<double>(replays) * per_read);
  std::printf("\n");
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "threading_bench: %s\n", error.what());
  return 1;
}
