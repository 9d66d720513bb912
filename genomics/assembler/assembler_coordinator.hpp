// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/assembler/assembler_settings.hpp"
#include "genomics/assembler/assembly_checkpoints.hpp"
#include "genomics/assembler/assembly_pipeline.hpp"
#include "genomics/assembler/assembly_progress.hpp"
#include "genomics/assembler/carried_sequences.hpp"
#include "genomics/assembler/cleaning_rounds.hpp"
#include "genomics/assembler/cleaning_step_check.hpp"
#include "genomics/assembler/fasta_output.hpp"
#include "genomics/assembler/filter_keeper.hpp"
#include "genomics/assembler/flat_lists.hpp"
#include "genomics/assembler/graph_protocol.hpp"
#include "genomics/assembler/graph_store.hpp"
#include "genomics/assembler/read_bridges.hpp"
#include "genomics/assembler/read_share.hpp"
#include "genomics/assembler/read_threads.hpp"
#include "genomics/assembler/run_record.hpp"
#include "genomics/assembler/scaffolding.hpp"
#include "genomics/assembler/end_lookups.hpp"
#include "genomics/assembler/thread_protocol.hpp"
#include "genomics/assembler/unitig_walk.hpp"
#include "genomics/assembler/vertex_table.hpp"
#include "genomics/counter/counter_coordinator.hpp"
#include "genomics/io/atomic_output_file.hpp"
#include "genomics/io/input_plan.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "genomics/run/exchanges.hpp"
#include "genomics/run/freed_memory.hpp"
#include "genomics/run/scattered_bytes.hpp"

namespace xenon::genomics {

// Runs one assembly, on node 0. Counting is the k-mer counter's (graph stores count as k-mer
// stores do); then, one step at a time on every store: keep the solid k-mers, find their
// edges, walk the unitigs, join the walks' pieces. The coordinator gathers the vertices no
// walk reached (which lie on cycles) and checks that every solid k-mer is in exactly one
// unitig or cycle; the stores clean the unitigs, taking the cleaning's steps by themselves
// while the coordinator follows them, and send it the cleaned unitigs. Then the steps of
// AssemblyPipeline make the contigs and scaffolds, the coordinator asking
// the stores to thread the reads (each its share of the input: ReadShare) whenever a step
// needs them, and writes the outputs.
template <int Words>
class AssemblerCoordinator : public CounterCoordinator<Words> {
  using Base = CounterCoordinator<Words>;
  using Kmer = PackedKmer<Words>;

 public:
  AssemblerCoordinator(AssemblerSettings settings, CounterOutcome& counted, AssemblyOutcome& outcome, RunLog& log)
      : Base(settings.counting, counted, log), settings_(std::move(settings)), outcome_(outcome),
        progress_(log, settings_.counting.show_progress), shape_(settings_.counting.k),
        graph_checkpoint_options_(graph_checkpoint_options(settings_)),
        contigs_checkpoint_options_(contigs_checkpoint_options(settings_)) {}

 protected:
  std::string_view store_type() const override { return kGraphStoreType<Words>; }
  ActorName spawn_store(int worker) override { return this->template spawn_on<GraphStore<Words>>(worker); }

  // K-mers go to the store of their minimizer, so a walk mostly stays in one store.
  std::uint32_t minimizer_length() const override {
    return static_cast<std::uint32_t>(minimizer_length_for(settings_.counting.k));
  }
  // An ambiguity code that a reference passed on to every read of a place must not cut the
  // genome there; the reads are threaded the same way (ReadShare, ReadThreads).
  bool resolves_ambiguity_codes() const override { return true; }

  void counted() override {
    progress_.report("counted");
    this->log().begin_phase("solid k-mers");
    record_coverage_threshold();
    GraphSetup setup;
    setup.k = static_cast<std::uint32_t>(settings_.counting.k);
    setup.threshold = solid_floor(settings_, outcome_.coverage_threshold);
    setup.stores = this->stores();
    setup.minimizer_length = minimizer_length();
    if (builds_count_filter(settings_)) setup.filter_items = count_filter_items();
    if (setup.filter_items != 0) {
      // Every store sends each keeper its part of the keeper's slice (filter_keeper.hpp).
      if (settings_.filter_keepers.empty()) throw std::logic_error("a filter for the later rounds with no keeper for it");
      setup.filter_keepers = settings_.filter_keepers;
      outcome_.first_round_filter_words = KmerBloomFilter::bytes_for(setup.filter_items) / 8;
    }
    // Each store got its share of the carried sequences before counting
    // (hand_out_carried_sequences) and now sends their k-mers to the stores that own them.
    setup.carried_anywhere = carries_sequences_;
    const std::vector<ActorName>& stores = this->stores();
    awaited_ = stores.size();
    for (const ActorName& store : stores) this->send(store, ACTION_GRAPH_SOLIDIFY, setup.encode());
  }

  // The threshold this round applies and what set it, from the histogram and the rounds before.
  CoverageThreshold chosen_coverage_threshold() const {
    return choose_coverage_threshold(settings_, this->histogram(), outcome_.rounds);
  }
  void record_coverage_threshold() {
    const CoverageThreshold chosen = chosen_coverage_threshold();
    outcome_.coverage_threshold = chosen.count;
    outcome_.coverage_threshold_source = chosen.from;
  }
  // After --continue restored the threshold with the histogram: what set it, chosen again. The
  // earlier rounds were done again, so the rule gives the same count; a checkpoint that holds
  // another (a rule of another version) is said to be what set it.
  void restore_coverage_threshold_source() {
    const CoverageThreshold chosen = chosen_coverage_threshold();
    outcome_.coverage_threshold_source = chosen.count == outcome_.coverage_threshold ? chosen.from : kThresholdFromCheckpoint;
  }

  // The k-mers read twice or more that the first round's filter holds, or 0 for no filter
  // where it would cost more than it saves: every store builds one of the full size and every
  // parser of the later rounds holds a copy, so a node holds one a worker, while the k-mers
  // read once it keeps out of the tables (more at a larger k than this round's, which are the
  // measure) spread over the nodes. Nor over 1 GiB, which a message between nodes can carry.
  std::uint64_t count_filter_items() const {
    const KmerHistogram& histogram = this->histogram();
    const std::uint64_t items = histogram.distinct_kmers() - histogram.unique_kmers();
    const std::uint64_t filter_bytes = KmerBloomFilter::bytes_for(items);
    const std::uint64_t copies_on_a_node = static_cast<std::uint64_t>(this->worker_count());
    constexpr std::uint64_t kTableBytesPerKmer = 16;  // at least a key and a count
    const std::uint64_t saved_on_a_node =
        histogram.unique_kmers() * kTableBytesPerKmer / static_cast<std::uint64_t>(this->node_count());
    constexpr std::uint64_t kLargestFilter = std::uint64_t{1} << 30;
    if (filter_bytes > kLargestFilter || filter_bytes * copies_on_a_node > saved_on_a_node) {
      this->log().line("no filter of k-mers read once for the later rounds: " + std::to_string(copies_on_a_node) +
                       " copies of " + std::to_string(filter_bytes) + " bytes on a node against " +
                       std::to_string(saved_on_a_node) + " bytes of k-mers read once kept out of its tables");
      return 0;
    }
    return items;
  }

  // A round after the first: the first round's k-mers read twice or more, and this round's
  // carried k-mers, as the parsers' filter, which the keepers put together on every node
  // (parsers_spawned()).
  void add_parser_filter(ParserArguments& arguments) override {
    if (!reads_count_filter(settings_)) return;
    if (settings_.filter_keepers.size() != static_cast<std::size_t>(this->node_count())) {
      throw std::logic_error(std::to_string(settings_.filter_keepers.size()) + " filter keepers for " +
                             std::to_string(this->node_count()) + " nodes");
    }
    const int filter_k = settings_.k_rounds.front();
    filter_words_ = settings_.first_round_filter_words;
    this->log().line("k-mers with a " + std::to_string(filter_k) + "-mer read once are left out of the stores (a filter of " +
                     std::to_string(8 * filter_words_) + " bytes, put together on every node with the words the " +
                     "carried k-mers add)");
    arguments.filter_k = static_cast<std::uint32_t>(filter_k);
    arguments.filter_words = filter_words_;
  }

  // The parsers wait for the filter their arguments name: each node's keeper gets the node's
  // parsers and the node's share of the carried sequences, whose k-mers it adds to the
  // filter, and the readers start once every keeper has handed the filter out
  // (filter_keeper.hpp).
  void parsers_spawned() override {
    if (filter_words_ != 0) hand_out_filter_rounds();
    hand_out_carried_sequences();
    if (filter_words_ == 0) this->spawn_readers();  // else once every keeper has handed the filter out
  }

  void hand_out_filter_rounds() {
    const std::size_t nodes = settings_.filter_keepers.size();
    const auto workers = static_cast<std::size_t>(this->worker_count());
    for (std::size_t node = 0; node < nodes; ++node) {
      FilterRound round;
      round.keepers = settings_.filter_keepers;
      const auto parsers = this->parsers().begin() + static_cast<std::ptrdiff_t>(node * workers);
      round.parsers.assign(parsers, parsers + static_cast<std::ptrdiff_t>(workers));
      round.filter_k = static_cast<std::uint32_t>(settings_.k_rounds.front());
      round.carried = carried_share(settings_.carried_sequences, nodes, node);
      const ActorName keeper = settings_.filter_keepers[node];
      if (keeper.node() != this->self().node()) count_scattered_bytes(round.carried.size());
      this->send(keeper, ACTION_FILTER_ROUND, round.encode());
    }
    deliveries_awaited_ = nodes;
    words_added_ = std::nullopt;
  }

  // Each store its share of the sequences carried from the round before, which it keeps until
  // the solid k-mers are chosen (ACTION_GRAPH_CARRIED_SHARE). Node 0 sends them once, not to
  // every store, and lets them go before the count: it held them all through the counting
  // before (4.6 MB in each later round of 40x E. coli, 8-10 MiB above every other node at the
  // count's peak, with the copies of the messages).
  void hand_out_carried_sequences() {
    carries_sequences_ = !settings_.carried_sequences.empty();
    if (!carries_sequences_) return;
    const std::vector<ActorName>& stores = this->stores();
    for (std::size_t store = 0; store < stores.size(); ++store) {
      const std::string_view share = carried_share(settings_.carried_sequences, stores.size(), store);
      if (stores[store].node() != this->self().node()) count_scattered_bytes(share.size());
      this->send(stores[store], ACTION_GRAPH_CARRIED_SHARE, Payload::copy_of(std::as_bytes(std::span(share))));
    }
    std::string().swap(settings_.carried_sequences);  // assigning an empty string keeps the buffer
  }

  // Every keeper added the same words: each put the same filter together.
  void filter_delivered(std::uint64_t words_added) {
    if (deliveries_awaited_ == 0) throw std::logic_error("a filter delivered that no parser waited for");
    if (words_added_ && *words_added_ != words_added) {
      throw std::logic_error("filter keepers that added " + std::to_string(*words_added_) + " and " +
                             std::to_string(words_added) + " words for the carried k-mers");
    }
    words_added_ = words_added;
    if (--deliveries_awaited_ != 0) return;
    this->log().line("the carried k-mers added " + std::to_string(words_added) + " words to the filter on every node");
    if (!this->stopping()) this->spawn_readers();
  }

  // --continue: from the contigs checkpoint every phase up to the contigs is skipped, and only
  // the files are written; else from the graph checkpoint (the cleaned graph) the phases
  // counting, histogram, solid k-mers, edges, walks, unitigs and cleaning are skipped, and the
  // rest (on node 0 alone, no stores being spawned: the reads too) is done again.
  bool resume() override {
    if (settings_.carry_to_next_round) return false;  // a round before the last keeps no checkpoint: done again
    if (resume_from_contigs()) return true;
    const std::optional<std::vector<std::byte>> saved = this->load_checkpoint(kGraphCheckpoint, graph_checkpoint_options_);
    if (!saved) return false;
    CheckpointReader reader(*saved);
    this->restore_count(reader);
    std::vector<GraphPiece> pieces = read_graph_checkpoint(reader, outcome_);
    restore_coverage_threshold_source();
    this->log().line("phases counting to cleaning: skipped: " + std::to_string(pieces.size()) +
                     " pieces of the cleaned graph from checkpoints/" + kGraphCheckpoint);
    progress_.report("resumed from checkpoints/graph");
    this->log().begin_phase("cleaning");
    assemble_from(std::move(pieces));
    return true;
  }
  // The contigs checkpoint, if there is one of the same options: false (the reason logged
  // unless it is only missing) to try the graph's.
  bool resume_from_contigs() {
    const std::optional<std::string> origin = this->checkpoint_origin(contigs_checkpoint_options_);
    if (!origin) return false;
    std::string why;
    const std::optional<std::vector<std::byte>> saved =
        checkpoint::load(checkpoint_directory_of(settings_.counting.output_directory), kContigsCheckpoint, *origin, why);
    if (!saved) {
      if (why.find(" is missing") == std::string::npos) {
        this->log().line("--continue: checkpoints/" + std::string(kContigsCheckpoint) + " not used: " + why);
      }
      return false;
    }
    CheckpointReader reader(*saved);
    this->restore_count(reader);
    const AssembledOutputs outputs = read_contigs_checkpoint(reader, outcome_);
    restore_coverage_threshold_source();
    record_contigs(outcome_, outputs.contigs);
    record_scaffolds(outcome_, outputs.scaffolds);
    this->log().line("phases counting to contigs: skipped: " + std::to_string(outputs.contigs.size()) +
                     " contigs from checkpoints/" + kContigsCheckpoint);
    progress_.report("resumed from checkpoints/contigs");
    write_outputs(outputs);
    return true;
  }

  // The graph checkpoint replaces the counter's.
  void save_count_checkpoint(std::uint64_t /*shards*/) override {}

  void receive_other(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_GRAPH_SOLID) {
      outcome_.solid_kmers += message.payload_as<std::uint64_t>();
      if (--awaited_ != 0) return;
      progress_.phase_done("%llu solid k-mers (counted %llu times or more; threshold %llu beside well-read branches)",
                           outcome_.solid_kmers, solid_floor(settings_, outcome_.coverage_threshold),
                           outcome_.coverage_threshold);
      this->log().begin_phase("edges");
      // Node 0's heap is full of holes its earlier rounds' steps left; the stores' messages
      // of each phase touch them one after another, and what they touched stays resident
      // (on 40x E. coli at 8 processes, node 0's peak in the edges 83-85 -> 76-77 MiB).
      release_freed_memory();
      to_every_store(ACTION_GRAPH_EDGES, Payload{});
    } else if (action == ACTION_GRAPH_EDGES_DONE) {
      outcome_.edges += message.payload_as<std::uint64_t>();
      if (--awaited_ != 0) return;
      progress_.phase_done("%llu edges", outcome_.edges);
      this->log().begin_phase("walks");
      release_freed_memory();  // as before the edges
      to_every_store(ACTION_GRAPH_WALK, Payload{});
    } else if (action == ACTION_UNITIGS) {  // pieces of cycles of pieces, from a joining
      for (UnitigRecord& record : decode_unitigs(message.payload())) {
        if (record.bases.size() < static_cast<std::size_t>(settings_.counting.k)) {
          throw std::invalid_argument("a unitig shorter than k");
        }
        unitig_kmers_ += record.bases.size() - static_cast<std::size_t>(settings_.counting.k) + 1;
        unitigs_.push_back(std::move(record));
      }
      joined_maybe_done();
    } else if (action == ACTION_CLEANED_UNITIGS) {
      if (!cleaning_.rounds) throw std::invalid_argument("cleaned unitigs before the cleaning");
      for (UnitigRecord& record : decode_unitigs(message.payload())) {
        if (record.bases.size() < static_cast<std::size_t>(settings_.counting.k)) {
          throw std::invalid_argument("a unitig shorter than k");
        }
        cleaning_.cleaned_kmers_arrived += record.bases.size() - static_cast<std::size_t>(settings_.counting.k) + 1;
        cleaned_.push_back(std::move(record));
      }
      follow_cleaning();
    } else if (action == ACTION_GRAPH_WALK_DONE) {
      const auto [pieces, kmers] = pair_of(message.payload(), "walk report");
      Joining& walks = joinings_[0];
      walks.pieces_walked += pieces;
      walks.kmers_walked += kmers;
      if (++walks.walks_reported == this->stores().size()) {
        progress_.phase_done("%llu pieces of unitigs walked", walks.pieces_walked);
        this->log().begin_phase("unitigs");
      }
      joined_maybe_done();
    } else if (action == ACTION_JOIN_STARTED) {
      const auto [step, tokens] = pair_of(message.payload(), "tokens started");
      step_check_.joining_reported(step, "the tokens started");
      Joining& joining = joinings_[step];
      joining.tokens_started += tokens;
      ++joining.starts_reported;
      gather_when_tokens_finished(step);
    } else if (action == ACTION_JOIN_FINISHED) {
      const auto [step, tokens] = pair_of(message.payload(), "tokens finished");
      step_check_.joining_reported(step, "tokens finished");
      joinings_[step].tokens_finished += tokens;
      gather_when_tokens_finished(step);
    } else if (action == ACTION_GRAPH_JOINED) {
      const std::span<const std::byte> report = message.payload();
      if (report.size() != 40) throw std::invalid_argument("joining report of the wrong size");
      const std::uint64_t step = load_le64(report.data());
      step_check_.joining_reported(step, "the unitigs joined");
      Joining& joining = joinings_[step];
      joining.unitigs_sent += load_le64(report.data() + 8);
      joining.kmers_sent += load_le64(report.data() + 16);
      unitigs_promised_ += load_le64(report.data() + 8);
      kmers_promised_ += load_le64(report.data() + 16);
      joining.unitigs_kept += load_le64(report.data() + 24);
      joining.kmers_kept += load_le64(report.data() + 32);
      ++joining.joins_reported;
      joined_maybe_done();
    } else if (action == ACTION_UNVISITED) {
      add_unvisited(message.payload());
      if (--awaited_ == 0) start_cleaning();
    } else if (action == ACTION_CLEAN_STEP_DONE) {
      const std::span<const std::byte> report = message.payload();
      if (report.size() != 8 + 16 * JunctionCleaning::kKinds) {
        throw std::invalid_argument("cleaning step report of the wrong size");
      }
      const std::uint64_t step = load_le64(report.data());
      step_check_.step_reported(step);
      StepReports& reports = cleaning_.reports[step];
      if (++reports.stores > this->stores().size()) throw std::runtime_error("cleaning step " + std::to_string(step) + " reported by more stores than there are");
      const std::byte* counts = report.data() + 8;
      for (std::size_t kind = 0; kind < JunctionCleaning::kKinds; ++kind) {
        reports.removed[kind] += load_le64(counts + 8 * kind);
        reports.kmers_removed[kind] += load_le64(counts + 8 * (JunctionCleaning::kKinds + kind));
      }
      follow_cleaning();
    } else if (action == ACTION_GRAPH_CLEANED) {
      if (!cleaning_.rounds) throw std::invalid_argument("a cleaning report before the cleaning");
      const auto [unitigs, kmers] = pair_of(message.payload(), "cleaning report");
      cleaning_.cleaned_promised += unitigs;
      cleaning_.cleaned_kmers_promised += kmers;
      ++cleaning_.finishes_reported;
      follow_cleaning();
    } else if (action == ACTION_THREADED_READS) {
      threaded_reads(message.payload());
    } else if (action == ACTION_THREADING_DONE) {
      threading_done(message.payload());
    } else if (action == ACTION_PAIRS_COUNTED) {
      pairs_counted(message.payload());
    } else if (action == ACTION_PAIRING_DONE) {
      if (pairing_.stores_awaited == 0) throw std::logic_error("pairing: a report from no store asked");
      --pairing_.stores_awaited;
      pairing_.messages_promised += message.payload_as<std::uint64_t>();
      pairing_maybe_done();
    } else if (action == ACTION_FILTER_DELIVERED) {
      filter_delivered(message.payload_as<std::uint64_t>());
    } else if (action == ACTION_FILTER_KEEPER_FAILED) {
      throw std::runtime_error(std::string(reinterpret_cast<const char*>(message.payload().data()), message.payload_size()));
    } else {
      Base::receive_other(message);
    }
  }

 private:
  // What the reads are threaded for: the step of the pipeline that asked.
  enum class ThreadingFor { bridges, repeats, mates };
  // One threading of every read across the stores, as their answers come.
  using PieceKey = std::pair<std::uint32_t, std::uint32_t>;  // (file, piece)
  struct Threading {
    std::vector<ActorName> stores;  // asked
    std::size_t stores_awaited = 0;
    std::uint64_t messages_promised = 0;
    std::uint64_t messages_received = 0;
    std::map<PieceKey, std::uint64_t> piece_records;
    std::string failure;
  };
  // The pairing of mates by the stores, as their counts come.
  struct Pairing {
    std::size_t stores_awaited = 0;
    std::uint64_t messages_promised = 0;
    std::uint64_t messages_received = 0;
  };

  // One payload, shared by every store's message: the setup of a later round holds the carried
  // sequences (megabytes), and a copy a store held node 0's memory at as many times that.
  void to_every_store(Action action, const Payload& payload) {
    awaited_ = this->stores().size();
    for (const ActorName store : this->stores()) this->send(store, action, payload.share());
    count_exchange_with_every_peer();  // each answered by every store (the cleaning's start: once the rounds are over)
  }

  static std::pair<std::uint64_t, std::uint64_t> pair_of(std::span<const std::byte> bytes, const char* what) {
    if (bytes.size() != 16) throw std::invalid_argument(std::string(what) + " of the wrong size");
    return {load_le64(bytes.data()), load_le64(bytes.data() + 8)};
  }

  struct Joining;      // what the stores reported of one joining
  struct StepReports;  // of one cleaning step

  // Every token along the chains of pieces has reached the other end of its chain (none is
  // lost: the sums meet only once every store has said how many it started).
  void gather_when_tokens_finished(std::uint64_t step) {
    Joining& joining = joinings_[step];
    if (joining.tokens_finished > joining.tokens_started && joining.starts_reported == this->stores().size()) {
      throw std::logic_error("more tokens finished than the stores started");
    }
    if (joining.gather_sent || joining.starts_reported != this->stores().size() ||
        joining.tokens_finished != joining.tokens_started) {
      return;
    }
    joining.gather_sent = true;
    to_every_store(ACTION_JOIN_GATHER, Payload{});
  }

  // Unitig messages and the stores' reports travel separately (and in no order between
  // stores): a joining is over when every store has reported its joined unitigs (the first
  // one, its walks too), and every unitig it sent (pieces of cycles of pieces) has arrived.
  // Each store's pieces come before its report of them, so as many have come as were
  // reported, or more; as many, and none is in flight unreported, so the sums can be checked.
  // (A store a joining ahead may send its next pieces first: then this joining is settled once
  // they are reported too, which no store waits for.)
  bool joining_over(const Joining& joining, bool walks) const {
    const std::size_t stores = this->stores().size();
    return (!walks || joining.walks_reported == stores) && joining.joins_reported == stores &&
           unitigs_.size() == unitigs_promised_;
  }

  // Every k-mer walked, or left after the last cleaning step, is in a unitig kept or sent.
  void check_joined_kmers(const Joining& joining, std::uint64_t kmers_before) const {
    if (unitig_kmers_ != kmers_promised_ || joining.kmers_sent + joining.kmers_kept != kmers_before) {
      throw std::runtime_error("unitig k-mers differ from the stores' reports: " + std::to_string(kmers_before) +
                               " before joining, " + std::to_string(joining.kmers_kept) + " kept and " +
                               std::to_string(joining.kmers_sent) + " reported sent, " + std::to_string(unitig_kmers_) +
                               " arrived in all");
    }
  }

  void joined_maybe_done() {
    if (cleaning_.rounds) {
      follow_cleaning();
      return;
    }
    const Joining& walks = joinings_[0];
    if (!joining_over(walks, true)) return;
    check_joined_kmers(walks, walks.kmers_walked);
    step_check_.joined(0);
    cleaning_.unitigs_in_stores = walks.unitigs_kept;
    cleaning_.kmers_in_stores = walks.kmers_kept;
    this->log().line(progress_.report("the stores joined the %llu pieces into %llu (%llu tokens along the chains)",
                                      walks.pieces_walked,
                                      walks.unitigs_kept + static_cast<std::uint64_t>(unitigs_.size()),
                                      walks.tokens_started));
    kmers_walked_ = walks.kmers_walked;
    joinings_.clear();
    to_every_store(ACTION_UNVISITED_REQUEST, Payload{});
  }

  // The cycles node 0 holds (pieces of cycles of pieces, and cycles no walk reached) meet
  // nothing else: the stores clean the rest (junction_cleaning.hpp), in the steps and rounds
  // of UnitigGraph::clean() (cleaning_rounds.hpp), which they take by themselves once told
  // the rules. This node follows the rounds from their reports.
  void start_cleaning() {
    for (UnitigRecord& record : unitigs_) cycles_.push_back({std::move(record.bases), record.coverage_sum, false});
    unitigs_.clear();
    unitigs_promised_ = 0;
    unitig_kmers_ = 0;
    kmers_promised_ = 0;
    walk_cycles(cycles_);
    // Every solid k-mer is in exactly one unitig or cycle.
    if (kmers_walked_ + cycle_kmers_ != outcome_.solid_kmers) {
      throw std::runtime_error("k-mers lost or repeated in the graph: " + std::to_string(outcome_.solid_kmers) +
                               " solid, " + std::to_string(kmers_walked_) + " in unitigs, " +
                               std::to_string(cycle_kmers_) + " in cycles");
    }
    UnitigGraph cycles(settings_.counting.k);
    for (const GraphPiece& piece : cycles_) cycles.add(piece.bases, piece.coverage, piece.closed);
    cycles.compact();
    outcome_.unitigs = cleaning_.unitigs_in_stores + cycles.unitigs().size();
    progress_.phase_done("%llu unitigs", outcome_.unitigs);
    this->log().begin_phase("cleaning");
    const int k = settings_.counting.k;
    Payload start = Payload::for_overwrite(32);
    std::byte* at = start.writable_bytes().data();
    store_le64(at, static_cast<std::uint64_t>(std::max(settings_.cleaning.rounds, 0)));
    store_le64(at + 8, outcome_.coverage_threshold);
    store_le64(at + 16, settings_.cleaning.tip_length_for(k));
    store_le64(at + 24, settings_.cleaning.bubble_length_for(k));
    cleaning_.rounds.emplace(settings_.cleaning.rounds);
    step_check_.began_cleaning();
    go_on_cleaning(cleaning_.rounds->start());
    to_every_store(ACTION_CLEAN_START, start);
    follow_cleaning();
  }

  // The rounds as the stores take them: the next step, or the end.
  void go_on_cleaning(CleaningRounds::Next next) {
    if (next == CleaningRounds::Next::step) {
      ++cleaning_.settling;
      return;
    }
    if (next != CleaningRounds::Next::finished) throw std::logic_error("cleaning: a joining where a step or the end comes");
    cleaning_.finished = true;
    step_check_.finished();
    // The stores took no step beyond the last, nor joined after it.
    if (!cleaning_.reports.empty() || !joinings_.empty()) {
      throw std::runtime_error("a store reported a cleaning step or joining after the last, step " +
                               std::to_string(cleaning_.settling));
    }
    outcome_.cleaning = cleaning_.rounds->report();
    this->log().line(progress_.report(
        "the stores cleaned the unitigs in %llu round(s): %llu steps at the junctions, %llu joinings, %llu unitigs left",
        outcome_.cleaning.rounds, cleaning_.settling, cleaning_.joinings, cleaning_.unitigs_in_stores));
  }

  // The steps settled in order, as far as the reports in allow: a step once every store
  // reported it, the joining after it once every store joined and its pieces came; then the
  // cleaned unitigs.
  void follow_cleaning() {
    while (!cleaning_.finished) {
      const std::uint64_t step = cleaning_.settling;
      if (!cleaning_.joining) {
        const auto found = cleaning_.reports.find(step);
        if (found == cleaning_.reports.end() || found->second.stores != this->stores().size()) return;
        const StepReports reports = found->second;
        cleaning_.reports.erase(found);
        settle_step(step, reports);
        continue;
      }
      const auto found = joinings_.find(step);
      if (found == joinings_.end() || !joining_over(found->second, false)) return;
      check_joined_kmers(found->second, cleaning_.kmers_in_stores);
      cleaning_.kmers_sent_in_joinings += found->second.kmers_sent;
      cleaning_.unitigs_in_stores = found->second.unitigs_kept;
      cleaning_.kmers_in_stores = found->second.kmers_kept;
      joinings_.erase(found);
      step_check_.joined(step);
      cleaning_.joining = false;
      go_on_cleaning(cleaning_.rounds->joined());
    }
    cleaned_maybe_done();
  }

  // Every store reported `step`: the stores remove what the first kind that removed anything
  // judged and join, or go on.
  void settle_step(std::uint64_t step, const StepReports& reports) {
    const CleaningRounds::Next next = cleaning_.rounds->step_done(reports.removed);
    step_check_.settled(step, next == CleaningRounds::Next::join);
    if (next != CleaningRounds::Next::join) {
      if (joinings_.count(step) != 0) {
        throw std::runtime_error("the stores joined after cleaning step " + std::to_string(step) + ", which removed nothing");
      }
      go_on_cleaning(next);
      return;
    }
    const auto kind = static_cast<std::size_t>(cleaning_.rounds->applied());
    if (reports.removed[kind] > cleaning_.unitigs_in_stores || reports.kmers_removed[kind] > cleaning_.kmers_in_stores) {
      throw std::logic_error("the stores removed more unitigs than they held");
    }
    cleaning_.unitigs_in_stores -= reports.removed[kind];
    cleaning_.kmers_in_stores -= reports.kmers_removed[kind];
    ++cleaning_.joinings;
    cleaning_.joining = true;
  }

  // Every store sent its cleaned unitigs, and they all came: with the cycles, the graph.
  void cleaned_maybe_done() {
    if (!cleaning_.finished || cleaning_.finishes_reported != this->stores().size() ||
        cleaned_.size() != cleaning_.cleaned_promised || unitigs_.size() != unitigs_promised_) {
      return;
    }
    if (cleaning_.cleaned_promised != cleaning_.unitigs_in_stores ||
        cleaning_.cleaned_kmers_arrived != cleaning_.cleaned_kmers_promised ||
        cleaning_.cleaned_kmers_arrived != cleaning_.kmers_in_stores) {
      throw std::runtime_error("cleaned unitigs' k-mers differ from the stores' reports: " +
                               std::to_string(cleaning_.cleaned_kmers_promised) + " reported, " +
                               std::to_string(cleaning_.cleaned_kmers_arrived) + " arrived, " +
                               std::to_string(cleaning_.kmers_in_stores) + " left after the last step (" +
                               std::to_string(cleaning_.cleaned_promised) + " unitigs reported, " +
                               std::to_string(cleaning_.unitigs_in_stores) + " left)");
    }
    if (unitig_kmers_ != cleaning_.kmers_sent_in_joinings) {
      throw std::runtime_error("the stores sent " + std::to_string(unitig_kmers_) + " k-mers in pieces of cycles where " +
                               std::to_string(cleaning_.kmers_sent_in_joinings) + " were reported");
    }
    std::vector<GraphPiece> pieces = std::move(cycles_);
    cycles_ = {};
    pieces.reserve(pieces.size() + unitigs_.size() + cleaned_.size());
    for (UnitigRecord& record : unitigs_) pieces.push_back({std::move(record.bases), record.coverage_sum, false});
    for (UnitigRecord& record : cleaned_) pieces.push_back({std::move(record.bases), record.coverage_sum, false});
    unitigs_ = {};
    cleaned_ = {};
    cleaning_ = {};  // step_check_ stays finished: a stray report after the cleaning is refused
    unitigs_promised_ = ~std::uint64_t{0};  // no second time
    save_graph_checkpoint(pieces);
    assemble_from(std::move(pieces));
  }

  void add_unvisited(std::span<const std::byte> records) {
    constexpr std::size_t kRecord = 8 * Words + 8;
    if (records.size() % kRecord != 0) throw std::invalid_argument("unvisited vertices: not whole records");
    for (std::size_t at = 0; at < records.size(); at += kRecord) {
      Kmer kmer;
      for (int word = 0; word < Words; ++word) kmer[static_cast<std::size_t>(word)] = load_le64(records.data() + at + 8 * word);
      unvisited_[kmer] = {load_le32(records.data() + at + 8 * Words),
                          static_cast<std::uint8_t>(load_le32(records.data() + at + 8 * Words + 4)), false};
    }
  }

  // The contigs and the graph, before they are written: with the counts and the outcome, all
  // the outputs (the graph the contigs were read from is not rebuilt on --continue).
  void save_contigs_checkpoint(const AssembledOutputs& outputs) {
    this->save_checkpoint_in_pieces(kContigsCheckpoint, contigs_checkpoint_options_, [&](CheckpointWriter& writer) {
      this->save_count(writer);
      write_contigs_checkpoint(writer, outcome_, outputs);
    });
  }

  void save_graph_checkpoint(const std::vector<GraphPiece>& pieces) {
    if (settings_.carry_to_next_round) return;  // the last round's stays (it names what the others carried)
    this->save_checkpoint_in_pieces(kGraphCheckpoint, graph_checkpoint_options_, [&](CheckpointWriter& writer) {
      this->save_count(writer);
      write_graph_checkpoint(writer, outcome_, pieces);
    });
  }

  // Vertices no walk reached: every one has a single vertex before and after it, so they form
  // cycles. Each cycle is read from its smallest k-mer, forward.
  void walk_cycles(std::vector<GraphPiece>& pieces) {
    for (auto& [first, vertex] : unvisited_) {
      if (vertex.taken) continue;
      vertex.taken = true;
      UnitigWalk<Words> walk;
      walk.begin(first, settings_.counting.k, vertex.count, vertex.edges, false);
      bool closed = false;
      for (int base = walk.only_base_after(); base >= 0; base = walk.only_base_after()) {
        const Kmer next = shape_.successor(walk.current, base);
        const Kmer canonical = shape_.canonical(next);
        if (same_words<Words>(canonical, first)) {
          closed = same_words<Words>(next, first);  // back where it began, read the same way
          break;
        }
        const auto found = unvisited_.find(canonical);
        if (found == unvisited_.end() || found->second.taken) break;
        found->second.taken = true;
        walk.take(next, found->second.count, found->second.edges, !same_words<Words>(canonical, next));
      }
      cycle_kmers_ += walk.bases.size() - static_cast<std::size_t>(settings_.counting.k) + 1;
      ++outcome_.cycles;
      pieces.push_back({std::move(walk.bases), walk.coverage, closed});
    }
  }

  // The cleaned graph's unitigs and cycles (the cycles of pieces joined here), then the rest.
  void assemble_from(std::vector<GraphPiece> pieces) {
    pipeline_.emplace(settings_, outcome_, progress_);
    pipeline_->take_cleaned(std::move(pieces));
    go_on();
  }

  // The pipeline's next step: reads threaded for it, or the outputs made and written.
  void go_on() {
    switch (pipeline_->next()) {
      case NextStep::thread_for_bridges:
        thread_everywhere(ThreadingFor::bridges);  // goes on in threaded()
        return;
      case NextStep::carry:  // a round of several k before the last: its graph is all it gives
        outcome_.rounds.push_back(round_record(settings_, outcome_));
        outcome_.carried_sequences = carried_sequences(pipeline_->graph());
        pipeline_.reset();
        this->succeed({});
        return;
      case NextStep::thread_for_repeats:
        thread_everywhere(ThreadingFor::repeats);
        return;
      case NextStep::thread_with_mates:
        crossing_reads_ = {};  // no repeat round follows
        thread_everywhere(ThreadingFor::mates);
        return;
      case NextStep::write:
        break;
    }
    const AssembledOutputs outputs = pipeline_->outputs();
    pipeline_.reset();
    save_contigs_checkpoint(outputs);
    write_outputs(outputs);
  }

  // Once a threading's counts are all in threads_: handed to the pipeline, which goes on.
  void threaded() {
    if (threading_for_ == ThreadingFor::mates) {
      pipeline_->mates_threaded(std::move(*threads_));
    } else if (threading_for_ == ThreadingFor::bridges) {
      pipeline_->bridges_threaded(bridge_votes_, threads_->reads_threaded());
      bridge_votes_ = {};
    } else {
      crossing_reads_ = std::move(threads_->kept_reads());  // only when threaded here: the stores keep their own
      pipeline_->repeats_threaded(*threads_);
    }
    threads_.reset();
    go_on();
  }

  // The reads through the pipeline's current graph: each store threads the pieces plan_input
  // gives it (one reader per store), and this node adds up what they send. A repeat round
  // after the first threads only the reads that crossed two unitigs in the round before (no
  // other can matter), which each store kept. With no stores (resumed from the graph
  // checkpoint), this node reads the input alone, and keeps the crossing reads itself.
  void thread_everywhere(ThreadingFor purpose) {
    threading_for_ = purpose;
    const bool pairs = purpose == ThreadingFor::mates;
    const UnitigGraph& graph = pipeline_->graph();
    if (this->stores().empty() && purpose == ThreadingFor::bridges) {
      bridges_on_this_node();
      threaded();
      return;
    }
    if (this->stores().empty()) {
      threads_.emplace(graph, settings_.counting.k, end_span(purpose));
      if (!pairs && pipeline_->repeat_round() > 0) {
        threads_->thread_reads(crossing_reads_);
      } else {
        log_threading_alone();
        threads_->thread_files(settings_.counting.files, pairs, settings_.counting.roles);
      }
      threaded();
      return;
    }
    const std::vector<std::vector<InputPiece>> plan = plan_input(input_layouts(), static_cast<int>(this->stores().size()));
    ThreadingRequest request = threading_request(purpose);
    // This node only counts what the stores traced: no index of the unitigs' k-mers of its own.
    threads_.emplace(settings_.counting.k);
    threading_ = {};
    for (std::size_t store = 0; store < plan.size(); ++store) {
      if (plan[store].empty()) continue;  // no reads read, none kept
      request.shares.push_back({this->stores()[store], plan[store]});
      threading_.stores.push_back(this->stores()[store]);
      ++threading_.stores_awaited;
    }
    request.coordinator = this->self();
    // Numbered only when sent: the same stores take part in every threading of a round (the
    // plan does not change), and each takes every number, which its early asks rely on.
    request.threading = threadings_ + 1;
    // To the first store, which passes it on down the tree (thread_protocol.hpp).
    if (!threading_.stores.empty()) {
      ++threadings_;
      this->send(threading_.stores.front(), ACTION_THREAD_READS, request.encode());
    }
    this->log().line("reads threaded by " + std::to_string(threading_.stores_awaited) + " stores, each " +
                     (request.rethread_kept ? "the reads it kept" : "its share of the input"));
    if (threading_.stores_awaited == 0) threading_maybe_done();
  }

  void log_threading_alone() {
    this->log().line("reads threaded by node 0 alone: no stores (resumed from checkpoints/" +
                     std::string(kGraphCheckpoint) + ")");
  }

  std::vector<InputLayout> input_layouts() const {
    std::vector<InputLayout> layouts;
    for (const std::string& file : settings_.counting.files) layouts.push_back(inspect_input(file));
    return layouts;
  }

  // The k-mers indexed at each end of a long unitig to thread reads for `purpose`, the same
  // whether the stores thread or this node alone (resumed from the graph checkpoint): the
  // span decides which repeated k-mers are ambiguous, so it must not change with how the run
  // started. Pairing mates places reads anywhere within an insert of a unitig's end; the other
  // purposes only the reads that cross from one unitig into another.
  std::size_t end_span(ThreadingFor purpose) const {
    if (purpose == ThreadingFor::mates) return ReadThreads::kEndSpan;
    return ReadThreads::end_span_for(this->tally().longest_record, settings_.counting.k);
  }

  // What each store is asked to do with its share of the reads (its pieces still to add).
  ThreadingRequest threading_request(ThreadingFor purpose) const {
    const bool repeats = purpose == ThreadingFor::repeats;
    ThreadingRequest request;
    request.k = static_cast<std::uint32_t>(settings_.counting.k);
    // Each store keeps the reads that crossed while another round may follow, and in that
    // round threads only them again.
    request.keep_crossing_reads = repeats && pipeline_->another_round_may_follow();
    request.rethread_kept = repeats && pipeline_->repeat_round() > 0;
    request.paths = purpose == ThreadingFor::mates;
    request.passages = repeats;  // all that resolve_repeats reads
    request.bridges = purpose == ThreadingFor::bridges;
    request.end_span = end_span(purpose);
    request.ends = ReadThreads::ends_of(pipeline_->graph(), settings_.counting.k, request.end_span);
    if (request.bridges) request.dead_ends = DeadEnds::of(pipeline_->graph()).of_unitig;
    request.files = settings_.counting.files;
    return request;
  }

  // With no stores (resumed from the graph checkpoint): the bridges of every read, found here.
  void bridges_on_this_node() {
    log_threading_alone();
    ThreadingRequest request = threading_request(ThreadingFor::bridges);
    request.pieces = plan_input(input_layouts(), 1).front();
    ReadShare share(std::move(request));
    while (share.step([](std::vector<std::byte>&&) {})) {
    }
    if (!share.done().failure.empty()) throw std::runtime_error(share.done().failure);
    bridge_votes_.add_encoded(share.done().bridges);
    threads_.emplace(settings_.counting.k);
    threads_->add_reads_threaded(share.done().reads);
  }

  // What the stores' reads crossed, each distinct run once with its count; in a repeat round,
  // each distinct passage (the stores counted them: a round reads nothing else).
  void threaded_reads(std::span<const std::byte> bytes) {
    ++threading_.messages_received;
    const bool passages = threading_for_ == ThreadingFor::repeats;
    for (const CrossedRun& run : CrossedRuns::decode(bytes)) {
      const std::uint32_t reads = count32(run.reads, "reads crossing alike");
      if (!passages) {
        threads_->add_traced({run.unitigs}, {}, reads);
        continue;
      }
      if (run.unitigs.size() != 3) {
        throw std::invalid_argument("threaded reads: a passage of " + std::to_string(run.unitigs.size()) +
                                    " unitigs, not 3");
      }
      threads_->add_passages(run.unitigs[0], run.unitigs[1], run.unitigs[2], reads);
    }
    threading_maybe_done();
  }

  void threading_done(std::span<const std::byte> bytes) {
    ThreadingDone done = ThreadingDone::decode(bytes);
    if (threading_.stores_awaited == 0) throw std::logic_error("threading: a report from no store asked");
    --threading_.stores_awaited;
    threading_.messages_promised += done.messages;
    threads_->add_reads_threaded(done.reads);
    if (threading_for_ == ThreadingFor::bridges) bridge_votes_.add_encoded(done.bridges);
    for (const ThreadedPiece& piece : done.pieces) threading_.piece_records[{piece.file_index, piece.piece}] = piece.records;
    if (!done.failure.empty() && threading_.failure.empty()) threading_.failure = done.failure;
    threading_maybe_done();
  }

  // Once every store has reported and every message it sent has arrived: mates paired (as
  // mate_files() says: -1/-2, --12, positional files by position), then the step goes on.
  void threading_maybe_done() {
    if (threading_.stores_awaited != 0 || threading_.messages_received != threading_.messages_promised) return;
    if (!threading_.failure.empty()) throw std::runtime_error(threading_.failure);
    // Every store has threaded its reads: none asks another's slice of the end index again.
    for (const ActorName store : threading_.stores) this->send_value(store, ACTION_THREAD_RELEASE, threadings_);
    if (threading_for_ != ThreadingFor::mates) {
      threading_ = {};
      threaded();
      return;
    }
    const Threading threading = std::move(threading_);
    threading_ = {};
    pair_mates(threading);
  }

  // The stores pair the mates they threaded among themselves (mate_pairing.hpp): each is told
  // where every piece begins in its file (the records of the pieces before it) and which
  // files pair, so that mates pair by global record number and a piece boundary between two
  // mates (of two files, or of one interleaved file) changes nothing.
  void pair_mates(const Threading& threading) {
    const std::vector<std::string>& files = settings_.counting.files;
    std::vector<std::uint64_t> records(files.size(), 0);
    PairingRequest request;
    for (const auto& [piece, count] : threading.piece_records) {  // in file, then piece order
      request.pieces.push_back({piece.first, piece.second, records[piece.first]});
      records[piece.first] += count;
    }
    check_mate_records(files, settings_.counting.roles, records);  // found when counting, unless resumed
    for (const MateFiles& mates : mate_files(settings_.counting.roles, files.size())) {
      if (!mates.interleaved() && records[mates.first] != records[mates.second]) {
        threads_->add_unpaired_files(1);  // positional files: mates are records at the same place in both, not these
        continue;
      }
      request.mates.push_back(mates);
    }
    request.owners = threading.stores;
    pairing_ = {};
    pairing_.stores_awaited = request.owners.size();
    for (const ActorName store : request.owners) this->send(store, ACTION_PAIR_MATES, request.encode());
    this->log().line("mates paired by " + std::to_string(request.owners.size()) + " stores, each the pairs it owns");
    pairing_maybe_done();
  }

  void pairs_counted(std::span<const std::byte> bytes) {
    ++pairing_.messages_received;
    for (const PairCount& count : PairCounts::decode(bytes)) {
      threads_->add_pair(count.first, count.second, count32(count.pairs, "pairs alike"), count.leads);
    }
    pairing_maybe_done();
  }

  void pairing_maybe_done() {
    if (pairing_.stores_awaited != 0 || pairing_.messages_received != pairing_.messages_promised) return;
    pairing_ = {};
    threaded();
  }

  static std::uint32_t count32(std::uint64_t count, const char* what) {
    if (count > 0xffffffffu) throw std::overflow_error(std::string("more than 2^32 ") + what);
    return static_cast<std::uint32_t>(count);
  }

  // The output files, published together (the run record holds the phases up to this one);
  // then the picture of the graph, if it is drawn.
  void write_outputs(const AssembledOutputs& outputs) {
    outcome_.rounds.push_back(round_record(settings_, outcome_));
    this->log().begin_phase("writing");
    AtomicOutputFile contigs_file(this->output_path(kContigsFile));
    write_contigs_fasta(outputs.contigs, outputs.graph,
                        [&contigs_file](std::string_view record) { contigs_file.write(record); });
    AtomicOutputFile scaffolds_file(this->output_path(kScaffoldsFile));
    write_scaffolds_fasta(outputs.scaffolds, outputs.contigs, outputs.graph,
                          [&scaffolds_file](std::string_view record) { scaffolds_file.write(record); });
    AtomicOutputFile summary(this->output_path(kAssemblySummaryFile));
    summary.write(assembly_json(settings_, outcome_));
    AtomicOutputFile histogram(this->output_path(kHistogramFile));
    histogram.write(this->histogram().jellyfish_text());
    AtomicOutputFile graph_file(this->output_path(kGraphFile));
    write_graph_gfa(outputs.graph, outputs.contigs, [&graph_file](std::string_view lines) { graph_file.write(lines); });
    AtomicOutputFile run_record(this->output_path(kRunRecordFile));
    run_record.write(run_json(settings_, outcome_, this->log().phases(), this->node_count(), this->worker_count()));
    publish_together({&contigs_file, &scaffolds_file, &summary, &histogram, &graph_file, &run_record});
    this->log().end_phase();
    std::vector<std::string> written{contigs_file.path(), scaffolds_file.path(), summary.path(), histogram.path(),
                                     graph_file.path(), run_record.path()};
    const std::optional<std::string> image = draw_graph_image(
        settings_.graph_image, outputs.graph, graph_file.path(), this->output_path(kGraphImageFile), this->log());
    if (image) written.push_back(*image);
    this->succeed(written);
  }

  struct UnvisitedVertex {
    std::uint32_t count;
    std::uint8_t edges;
    bool taken;
  };
  struct KmerLess {
    bool operator()(const Kmer& a, const Kmer& b) const { return words_less<Words>(a, b); }
  };

  AssemblerSettings settings_;  // its carried sequences only until every store has them
  AssemblyOutcome& outcome_;
  AssemblyProgress progress_;
  KmerShape<Words> shape_;
  // Made before the carried sequences (part of both) are let go.
  const std::string graph_checkpoint_options_;
  const std::string contigs_checkpoint_options_;
  std::size_t awaited_ = 0;
  bool carries_sequences_ = false;  // this round: each store got a share (hand_out_carried_sequences)
  // A later round's filter for its parsers, while the keepers put it together.
  std::uint64_t filter_words_ = 0;
  std::optional<std::uint64_t> words_added_;  // by the keepers that delivered, all alike
  std::size_t deliveries_awaited_ = 0;
  // The stores' pieces joined into unitigs (piece_joining.hpp): what they reported.
  struct Joining {
    std::size_t walks_reported = 0;
    std::uint64_t pieces_walked = 0;
    std::uint64_t kmers_walked = 0;
    std::size_t starts_reported = 0;
    std::uint64_t tokens_started = 0;
    std::uint64_t tokens_finished = 0;
    bool gather_sent = false;
    std::size_t joins_reported = 0;
    std::uint64_t unitigs_sent = 0;  // to this node: pieces of cycles of pieces
    std::uint64_t kmers_sent = 0;
    std::uint64_t unitigs_kept = 0;  // by the stores, to be cleaned
    std::uint64_t kmers_kept = 0;
  };
  // By the cleaning step each follows (0: the walks'): a store can report the next step's
  // joining before another store's report of this one comes (cleaning_step_check.hpp).
  std::map<std::uint64_t, Joining> joinings_;
  std::uint64_t kmers_walked_ = 0;
  // What the stores reported of one cleaning step.
  struct StepReports {
    std::size_t stores = 0;
    CleaningRounds::Removals removed{};  // unitigs each kind would remove
    CleaningRounds::Removals kmers_removed{};
  };
  // The stores cleaning the joined unitigs, followed from here.
  struct Cleaning {
    std::optional<CleaningRounds> rounds;  // once the cleaning began
    std::uint64_t unitigs_in_stores = 0;
    std::uint64_t kmers_in_stores = 0;
    std::map<std::uint64_t, StepReports> reports;  // by step, until settled
    std::uint64_t settling = 0;  // the step whose reports, or joining, the rounds wait for: the steps taken
    bool joining = false;        // its joining
    bool finished = false;       // the rounds are over: the stores send their cleaned unitigs
    std::uint64_t kmers_sent_in_joinings = 0;  // pieces of cycles, from the joinings between steps
    std::uint64_t joinings = 0;
    std::size_t finishes_reported = 0;
    std::uint64_t cleaned_promised = 0;
    std::uint64_t cleaned_kmers_promised = 0;
    std::uint64_t cleaned_kmers_arrived = 0;
  };
  Cleaning cleaning_;
  CleaningStepCheck step_check_;  // that each report is of a step not yet settled
  std::vector<UnitigRecord> cleaned_;  // the stores' cleaned unitigs
  std::vector<GraphPiece> cycles_;  // the cycles node 0 holds while the stores clean
  std::vector<UnitigRecord> unitigs_;
  std::uint64_t unitig_kmers_ = 0;
  std::uint64_t unitigs_promised_ = 0;
  std::uint64_t kmers_promised_ = 0;
  std::map<Kmer, UnvisitedVertex, KmerLess> unvisited_;
  std::uint64_t cycle_kmers_ = 0;
  // After the walks: the steps on the graph, and the reads being threaded for one of them.
  std::optional<AssemblyPipeline> pipeline_;
  std::optional<ReadThreads> threads_;
  std::vector<std::string> crossing_reads_;  // of the last repeat round, for the next (no stores only)
  ThreadingFor threading_for_ = ThreadingFor::repeats;
  BridgeVotes bridge_votes_;  // while threading for bridges
  Threading threading_;
  std::uint64_t threadings_ = 0;  // the stores' threadings asked so far, which number them
  Pairing pairing_;
};

}  // namespace xenon::genomics
