// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/counter/counter_protocol.hpp"
#include "genomics/counter/counter_settings.hpp"
#include "genomics/counter/dump_merger.hpp"
#include "genomics/counter/input_reader.hpp"
#include "genomics/counter/kmer_parser.hpp"
#include "genomics/counter/kmer_shards.hpp"
#include "genomics/counter/kmer_store.hpp"
#include "genomics/io/atomic_output_file.hpp"
#include "genomics/io/checkpoint_file.hpp"
#include "genomics/io/input_error.hpp"
#include "genomics/io/input_file.hpp"
#include "genomics/io/input_plan.hpp"
#include "genomics/io/output_directory.hpp"
#include "genomics/io/run_log.hpp"
#include "genomics/run/freed_memory.hpp"
#include "genomics/run/sudden_exit.hpp"

namespace xenon::genomics {

// Runs one count, on node 0: spawns a store and a parser on every worker of every node and a
// reader on every node (each reads its share of the input: input_plan.hpp), waits for the
// input to be counted, gathers the histogram (and, with a dump, merges the stores' sorted
// k-mers into one file), writes the output files, and stops every actor it spawned before
// stopping itself, so the engine ends exactly when the work is done. Any failure ends the run
// the same way, with the reason in the outcome. Each phase goes into the run's log as it
// begins and ends.
template <int Words>
class CounterCoordinator : public Actor {
 public:
  CounterCoordinator(CounterSettings settings, CounterOutcome& outcome, RunLog& log)
      : settings_(std::move(settings)), outcome_(outcome), log_(log) {}

  void receive(const Message& message) override {
    try {
      dispatch(message);
    } catch (const std::exception& error) {
      fail(error.what());
    }
  }

 protected:
  // Hooks for a coordinator that goes on after counting (the assembler's).
  // Actions this class does not know.
  virtual void receive_other(const Message& message) {
    throw std::runtime_error("counter coordinator: unexpected action " +
                             std::to_string(message.action().code()));
  }
  // The stores: registered type name and local spawn.
  virtual std::string_view store_type() const { return kStoreType<Words>; }
  virtual ActorName spawn_store(int worker) { return this->template spawn_on<KmerStore<Words>>(worker); }
  // How parsers route k-mers to stores: 0 by hash, else by minimizers of this length.
  virtual std::uint32_t minimizer_length() const { return 0; }
  // A filter the parsers leave out the k-mers read once by (ParserArguments): none here.
  virtual void add_parser_filter(ParserArguments& /*arguments*/) {}
  // Whether the parsers read ambiguity codes as bases (ParserArguments): not in a counter.
  virtual bool resolves_ambiguity_codes() const { return false; }
  // Every parser is spawned: the readers start, or a coordinator whose parsers wait for a
  // filter (ParserArguments::filter_words) calls spawn_readers() once each has it.
  virtual void parsers_spawned() { spawn_readers(); }
  // Every k-mer is counted (the histogram is in the outcome and checked): write the counter's
  // output.
  virtual void counted() {
    if (!settings_.dump) {
      finish();
      return;
    }
    log_.begin_phase("dump");
    dump_file_ = std::make_unique<AtomicOutputFile>(output_path(kDumpFile));
    for (const ActorName store : stores_) {
      send_value(store, ACTION_DUMP_PREPARE, settings_.minimum_count);
    }
    merger_ = std::make_unique<DumpMerger<Words>>(
        stores_.size(), settings_.k, *dump_file_,
        [this](std::size_t store) { send(stores_[store], ACTION_DUMP_CHUNK_REQUEST); });
    merger_->start();
  }

  // --continue: skips what a whole checkpoint of the same inputs and options holds; false to
  // count from the start. The counter's checkpoint is the histogram and tally, enough for
  // every output but the dump; with --dump also the counted k-mers, one shard per store
  // (kmer_shards.hpp), which the stores load back (then true, and the run goes on in
  // shards_loaded()).
  virtual bool resume() {
    const std::optional<std::vector<std::byte>> saved = load_checkpoint(kCountedCheckpoint, "");
    if (!saved) return false;
    CheckpointReader reader(*saved);
    restore_count(reader);
    const std::uint64_t shards = reader.at_end() ? 0 : reader.u64();
    if (!settings_.dump) {
      log_.line("phases counting and histogram: skipped: the histogram and tally from checkpoints/" + std::string(kCountedCheckpoint));
      counted();
      return true;
    }
    if (shards == 0) {
      log_.line("--continue: checkpoint not used: checkpoints/" + std::string(kCountedCheckpoint) +
                " holds no counted k-mers (a run without --dump saved it): starting from the beginning");
      forget_count();
      return false;
    }
    saved_shards_ = shards;
    log_.begin_phase("loading k-mers");
    stores_.resize(static_cast<std::size_t>(store_count()));
    parsers_.resize(stores_.size());
    spawn_all(Role::kStore);  // all_spawned() then asks them to load
    return true;
  }
  // After counting: saves what resume() takes back (the k-mers are saved already, in
  // `shards` shards, or 0).
  virtual void save_count_checkpoint(std::uint64_t shards) {
    CheckpointWriter writer;
    save_count(writer);
    writer.u64(shards);
    save_checkpoint(kCountedCheckpoint, "", writer);
  }

  // The tally and histogram into a checkpoint, and back.
  void save_count(CheckpointWriter& writer) const {
    writer.bytes(outcome_.tally.encode().bytes());
    writer.bytes(outcome_.histogram.to_bytes());
  }
  void restore_count(CheckpointReader& reader) {
    outcome_.tally = InputTally::decode(reader.bytes());
    outcome_.histogram = KmerHistogram::from_bytes(reader.bytes());
  }
  void forget_count() {
    outcome_.tally = InputTally{};
    outcome_.histogram = KmerHistogram{};
  }

  // What a checkpoint of this run came from: the program and its version, k, `options` (those
  // that change the checkpoint's contents) and the inputs (the build goes in every checkpoint's
  // header: checkpoint_file.hpp). nullopt, with `why_none` said, where no checkpoint is saved or
  // used: an input can be read only once, or this program cannot tell its build from another.
  std::optional<std::string> checkpoint_origin(const std::string& options, std::string* why_none = nullptr) const {
    const std::optional<std::string> inputs = checkpoint::describe_inputs(settings_.files);
    const char* why = !inputs ? "an input can be read only once (standard input, a pipe): nothing tells it is the same"
                      : !checkpoint::describe_program() ? checkpoint::kUnidentifiedProgram
                                                         : nullptr;
    if (why != nullptr) {
      if (why_none != nullptr) *why_none = why;
      return std::nullopt;
    }
    return std::string(store_type()) + " (Xenon " XENON_VERSION_STRING ") k=" + std::to_string(settings_.k) + options +
           " inputs: " + *inputs + describe_roles(settings_.roles);
  }
  void save_checkpoint(const char* name, const std::string& options, const CheckpointWriter& writer) {
    const std::optional<std::string> origin = checkpoint_origin(options);
    if (!origin) return;
    checkpoint::save(checkpoint_directory_of(settings_.output_directory), name, *origin, writer.data());
    log_.line("saved checkpoints/" + std::string(name) + " (" + std::to_string(writer.data().size()) + " bytes)");
  }
  // The same, each field written to the file as `write` makes it (called twice: for the
  // header's size and CRC, then to write), never held whole.
  void save_checkpoint_in_pieces(const char* name, const std::string& options,
                                 const std::function<void(CheckpointWriter&)>& write) {
    const std::optional<std::string> origin = checkpoint_origin(options);
    if (!origin) return;
    std::uint64_t size = 0;
    checkpoint::save_in_pieces(checkpoint_directory_of(settings_.output_directory), name, *origin,
                               [&](const checkpoint::ConsumePiece& consume) {
                                 CheckpointWriter writer(consume);
                                 write(writer);
                                 size = writer.size();
                               });
    log_.line("saved checkpoints/" + std::string(name) + " (" + std::to_string(size) + " bytes)");
  }
  // A checkpoint's bytes, or nullopt (logged with the reason: then the run starts over).
  std::optional<std::vector<std::byte>> load_checkpoint(const char* name, const std::string& options) {
    std::string why;
    const std::optional<std::string> origin = checkpoint_origin(options, &why);
    std::optional<std::vector<std::byte>> saved;
    if (origin) saved = checkpoint::load(checkpoint_directory_of(settings_.output_directory), name, *origin, why);
    if (!saved) log_.line("--continue: checkpoint not used: " + why + ": starting from the beginning");
    return saved;
  }

  const CounterSettings& settings() const { return settings_; }
  const std::vector<ActorName>& stores() const { return stores_; }
  const std::vector<ActorName>& parsers() const { return parsers_; }  // node by node, worker by worker
  bool stopping() const { return stopping_; }  // the run failed or is done: start nothing more
  const KmerHistogram& histogram() const { return outcome_.histogram; }
  const InputTally& tally() const { return outcome_.tally; }
  RunLog& log() const { return log_; }

  // Ends the run: the reason goes into the outcome, every child is stopped.
  void fail(const std::string& reason) {
    if (outcome_.error.empty()) outcome_.error = reason;
    outcome_.succeeded = false;
    dump_file_.reset();  // removes the partial dump
    shut_down();
  }
  // Ends the run after success: files (published already) go into the outcome.
  void succeed(const std::vector<std::string>& files) {
    outcome_.files_written.insert(outcome_.files_written.end(), files.begin(), files.end());
    outcome_.succeeded = true;
    shut_down();
  }

  std::string output_path(const char* name) const {
    return (std::filesystem::path(settings_.output_directory) / name).string();
  }

  // One reader per node, each with its share of the input and its node's parsers.
  void spawn_readers() {
    // Before the input streams through this node's heap: what the setup of the count freed
    // there (a later round's filter and carried sequences handed out) goes back first, or the
    // k-mer batches fault its holes in and keep them until the first trim a second on.
    release_freed_memory();
    std::vector<InputLayout> layouts;
    for (const std::string& file : settings_.files) layouts.push_back(inspect_input(file));
    const std::vector<std::vector<InputPiece>> plan = plan_input(layouts, node_count());
    readers_.assign(plan.size(), ActorName::none());
    reports_.assign(plan.size(), std::nullopt);
    const auto workers = static_cast<std::size_t>(worker_count());
    for (std::size_t node = 0; node < plan.size(); ++node) {
      ReaderArguments arguments;
      arguments.reader_index = static_cast<std::uint32_t>(node);
      arguments.coordinator = self();
      arguments.parsers.assign(parsers_.begin() + static_cast<std::ptrdiff_t>(node * workers),
                               parsers_.begin() + static_cast<std::ptrdiff_t>((node + 1) * workers));
      arguments.files = settings_.files;
      arguments.pieces = plan[node];
      arguments.block_bytes = settings_.block_bytes;
      arguments.overlap_bases = static_cast<std::uint64_t>(settings_.k - 1);
      arguments.blocks_per_parser = static_cast<std::uint32_t>(settings_.blocks_per_parser);
      arguments.show_progress = settings_.show_progress && node == 0;  // one line: node 0's share
      ++children_;
      const Payload payload = arguments.encode();
      if (static_cast<int>(node) == node_index()) {
        readers_[node] = spawn<InputReader>(payload.bytes());
        send(readers_[node], ACTION_COUNTER_START);
      } else {
        spawn_requests_[request_spawn(static_cast<int>(node), 0, kReaderType, payload.share())] = {Role::kReader, node};
      }
    }
  }

 private:
  enum class Role { kStore, kParser, kReader };

  void dispatch(const Message& message) {
    const Action action = message.action();
    if (action == ACTION_COUNTER_START) {
      start();
    } else if (action == ACTION_SPAWNED) {
      spawned(SpawnedActor::from(message));
    } else if (action == ACTION_INPUT_DONE) {
      reader_done(ReaderReport::decode(message.payload()));
    } else if (action == ACTION_HISTOGRAM) {
      histogram_arrived(message);
    } else if (action == ACTION_DUMP_CHUNK) {
      merger_->add_chunk(store_index(message.source()), message.payload());
      if (merger_->finished()) finish();
    } else if (action == ACTION_KMERS_SAVED) {
      shard_saved();
    } else if (action == ACTION_KMERS_LOADED) {
      shard_loaded(message);
    } else if (action == ACTION_KMERS_FORGOTTEN) {
      if (--awaited_ == 0 && !stopping_) begin_counting();
    } else if (action == ACTION_CHILD_STOPPED) {
      child_stopped(message);
    } else if (action == ACTION_COUNTER_GIVE_BACK_MEMORY) {
      release_freed_memory_past(kPayloadsInFlightBytes);
    } else {
      receive_other(message);
    }
  }

  int store_count() const { return node_count() * worker_count(); }

  void start() {
    std::error_code error;
    std::filesystem::create_directories(settings_.output_directory, error);
    if (error || !std::filesystem::is_directory(settings_.output_directory)) {
      throw std::runtime_error(settings_.output_directory + ": cannot create the output directory" +
                               (error ? ": " + error.message() : std::string()));
    }
    for (const std::string& file : settings_.files) InputFile::check_readable(file);  // fail early
    if (settings_.resume && resume()) return;
    begin_counting();
  }

  // Spawns the stores, or with stores spawned already (a load of saved k-mers that failed),
  // the parsers.
  void begin_counting() {
    log_.begin_phase("counting");
    cancel_timer(give_back_memory_timer_);  // none is pending today; a second count must not leave one
    give_back_memory_timer_ = send_every(kGiveBackMemoryEvery, self(), ACTION_COUNTER_GIVE_BACK_MEMORY);
    std::string inputs;
    for (const std::string& file : settings_.files) inputs += (inputs.empty() ? "" : ", ") + input_display_name(file);
    sudden_exit::note_activity("phase counting, reading " + inputs);
    if (!stores_.empty()) {
      spawn_all(Role::kParser);
      return;
    }
    stores_.resize(static_cast<std::size_t>(store_count()));
    parsers_.resize(stores_.size());
    spawn_all(Role::kStore);
  }

  // --- The counted k-mers, saved (with --dump) and loaded back (kmer_shards.hpp) ---------

  // After the histogram: every store saves its k-mers, then the histogram and tally are
  // saved naming the shards, so a `counted` checkpoint exists only with all its shards.
  void save_checkpoints() {
    const std::optional<std::string> origin = checkpoint_origin("");
    if (!settings_.dump || !origin) {
      save_count_checkpoint(0);
      counted();
      return;
    }
    log_.begin_phase("saving k-mers");
    awaited_ = stores_.size();
    for (std::size_t store = 0; store < stores_.size(); ++store) {
      CheckpointWriter arguments;
      arguments.text(checkpoint_directory_of(settings_.output_directory));
      arguments.text(*origin);
      arguments.u64(store);
      arguments.u64(stores_.size());
      send(stores_[store], ACTION_KMERS_SAVE, Payload::copy_of(arguments.data()));
    }
  }

  void shard_saved() {
    if (--awaited_ != 0 || stopping_) return;
    log_.end_phase(std::to_string(stores_.size()) + " shards in checkpoints/" + kmer_shards::name(0, stores_.size()) + "...");
    save_count_checkpoint(stores_.size());
    counted();
  }

  // --continue --dump, the stores spawned: each loads its share of the shards.
  void load_shards() {
    const std::optional<std::string> origin = checkpoint_origin("");
    if (!origin) throw std::logic_error("loading k-mers of a run without a checkpoint origin");
    awaited_ = stores_.size();
    loaded_histogram_ = KmerHistogram{};
    load_failure_.clear();
    for (std::size_t store = 0; store < stores_.size(); ++store) {
      CheckpointWriter arguments;
      arguments.text(checkpoint_directory_of(settings_.output_directory));
      arguments.text(*origin);
      arguments.u64(saved_shards_);
      arguments.u64(store);
      arguments.u64(stores_.size());
      send(stores_[store], ACTION_KMERS_LOAD, Payload::copy_of(arguments.data()));
    }
  }

  void shard_loaded(const Message& message) {
    CheckpointReader answer(message.payload());
    if (answer.u64() == 1) {
      loaded_histogram_.merge(KmerHistogram::from_bytes(answer.bytes()));
    } else if (load_failure_.empty()) {
      load_failure_ = answer.text();
    }
    if (--awaited_ != 0 || stopping_) return;
    const std::uint64_t shards = saved_shards_;
    saved_shards_ = 0;
    // The k-mers must be those counted: the same histogram (a shard missing, left over from
    // another run or loaded twice changes it).
    if (load_failure_.empty() && !(loaded_histogram_ == outcome_.histogram)) {
      load_failure_ = "the k-mers of the " + std::to_string(shards) + " shards do not give the histogram saved with them";
    }
    if (load_failure_.empty()) {
      log_.end_phase(std::to_string(loaded_histogram_.distinct_kmers()) + " distinct k-mers from " +
                     std::to_string(shards) + " shards");
      log_.line("phases counting and histogram: skipped: the counted k-mers from checkpoints/kmers-*");
      counted();
      return;
    }
    log_.end_phase("not used");
    log_.line("--continue: checkpoint not used: " + load_failure_ + ": starting from the beginning");
    forget_count();
    awaited_ = stores_.size();
    for (const ActorName store : stores_) send(store, ACTION_KMERS_FORGET);  // then begin_counting()
  }

  ParserArguments parser_arguments() {
    ParserArguments arguments;
    arguments.k = static_cast<std::uint32_t>(settings_.k);
    arguments.stores = stores_;
    arguments.minimizer_length = minimizer_length();
    arguments.resolve_ambiguity_codes = resolves_ambiguity_codes();
    add_parser_filter(arguments);
    return arguments;
  }

  // One actor per worker of every node, in the order node by node, worker by worker.
  void spawn_all(Role role) {
    // The parsers' arguments: as they are for this node's, encoded for the other nodes' (one
    // payload their requests share).
    const ParserArguments parsers = role == Role::kStore ? ParserArguments{} : parser_arguments();
    const Payload arguments = role == Role::kStore || node_count() == 1 ? Payload{} : parsers.encode();
    std::vector<ActorName>& names = role == Role::kStore ? stores_ : parsers_;
    const std::string_view type = role == Role::kStore ? store_type()
                                                       : kParserType<Words>;
    awaited_ = names.size();
    for (int node = 0; node < node_count(); ++node) {
      for (int worker = 0; worker < worker_count(); ++worker) {
        const auto index = static_cast<std::size_t>(node * worker_count() + worker);
        ++children_;
        if (node == node_index()) {
          names[index] = role == Role::kStore ? spawn_store(worker)
                                              : spawn_on<KmerParser<Words>>(worker, parsers);
          --awaited_;
        } else {
          spawn_requests_[request_spawn(node, worker, type, arguments.share())] = {role, index};
        }
      }
    }
    if (awaited_ == 0) all_spawned(role);
  }

  void spawned(const SpawnedActor& spawned) {
    const auto found = spawn_requests_.find(spawned.request);
    if (found == spawn_requests_.end()) {
      throw std::logic_error("answer to unknown spawn request " + std::to_string(spawned.request));
    }
    const auto [role, index] = found->second;
    spawn_requests_.erase(found);
    // Spawned after the run failed: stop it too, or this actor would wait for it forever.
    if (role == Role::kReader) {
      readers_[index] = spawned.name;
      send(spawned.name, stopping_ ? ACTION_COUNTER_STOP : ACTION_COUNTER_START);
      return;
    }
    (role == Role::kStore ? stores_ : parsers_)[index] = spawned.name;
    if (stopping_) send(spawned.name, ACTION_COUNTER_STOP);
    if (--awaited_ == 0) all_spawned(role);
  }

  void all_spawned(Role role) {
    if (stopping_) return;
    if (role == Role::kStore) {
      for (std::size_t i = 0; i < stores_.size(); ++i) store_indexes_[stores_[i]] = i;
      if (saved_shards_ != 0) {
        load_shards();
        return;
      }
      spawn_all(Role::kParser);
      return;
    }
    parsers_spawned();
  }

  // A reader is done. Once all are, the first problem in input order ends the run, its record
  // numbered over its file: the records of the file's pieces before its own, and its place
  // in its piece. (A reader stops at its first problem, so a piece it did not finish comes
  // after a problem it reported, and cannot be needed for the number of the first.)
  void reader_done(ReaderReport report) {
    if (report.reader_index >= reports_.size() || reports_[report.reader_index]) {
      throw std::invalid_argument("a report from no reader, or twice from one");
    }
    readers_[report.reader_index] = ActorName::none();  // it stops itself after reporting
    reports_[report.reader_index] = std::move(report);
    if (stopping_) return;  // the run failed elsewhere: nothing more to count
    for (const std::optional<ReaderReport>& each : reports_) {
      if (!each) return;
    }
    InputTally tally;
    std::optional<InputFailure> first;
    std::string bytes_read;
    for (const std::optional<ReaderReport>& each : reports_) {
      tally += each->tally;
      bytes_read += (bytes_read.empty() ? "" : " ") + std::to_string(each->file_bytes_read);
      if (each->failure && (!first || each->failure->comes_before(*first))) first = each->failure;
    }
    log_.line("input bytes read by each node: " + bytes_read);
    if (first) {
      if (first->file_index >= settings_.files.size()) {
        throw std::invalid_argument("a reader's failure names file " + std::to_string(first->file_index));
      }
      if (!first->names_record) {
        fail(first->text);
        return;
      }
      std::uint64_t record = first->record;
      for (const std::optional<ReaderReport>& each : reports_) {
        for (const PieceRecords& piece : each->pieces) {
          if (piece.file_index == first->file_index && piece.piece < first->piece) record += piece.records;
        }
      }
      fail(InputError(settings_.files[first->file_index], record, first->text).what());
      return;
    }
    // Pairs said to be pairs that cannot be (-1/-2 of other record counts, a --12 file of an
    // odd count) end the run now, before the assembler builds anything on them.
    check_mate_records(settings_.files, settings_.roles, records_per_file());
    input_done(tally);
  }

  // Each input's records, from the readers' pieces.
  std::vector<std::uint64_t> records_per_file() const {
    std::vector<std::uint64_t> records(settings_.files.size(), 0);
    for (const std::optional<ReaderReport>& each : reports_) {
      for (const PieceRecords& piece : each->pieces) {
        if (piece.file_index >= records.size()) throw std::invalid_argument("a reader's piece names no input");
        records[piece.file_index] += piece.records;
      }
    }
    return records;
  }

  void input_done(const InputTally& tally) {
    outcome_.tally = tally;
    cancel_timer(give_back_memory_timer_);
    // Every block was parsed and its batches stored (a parser reports a block only then):
    // the parsers have nothing left to do, and each holds the filter (megabytes) until it stops.
    for (ActorName& parser : parsers_) {
      if (parser.is_none()) continue;
      send(parser, ACTION_COUNTER_STOP);
      parser = ActorName::none();
    }
    log_.end_phase(std::to_string(tally.records) + " records, " + std::to_string(tally.bases) + " bases, " +
                   std::to_string(tally.kmers) + " k-mers");
    log_.begin_phase("histogram");
    histograms_awaited_ = stores_.size();
    for (const ActorName store : stores_) send(store, ACTION_HISTOGRAM_REQUEST);
  }

  void histogram_arrived(const Message& message) {
    const StoreHistogram store = StoreHistogram::decode(message.payload());
    kmers_stored_ += store.kmers_received;
    outcome_.histogram.merge(store.histogram);
    if (--histograms_awaited_ != 0) return;
    // Every k-mer parsed must be in exactly one store, and counted once; those a filter left
    // out were each read once (kmer_filter_window.hpp), so each is one more k-mer of count 1.
    const std::uint64_t parsed = outcome_.tally.kmers;
    const std::uint64_t left_out = outcome_.tally.kmers_left_out;
    if (kmers_stored_ + left_out != parsed || outcome_.histogram.total_kmers() + left_out != parsed) {
      throw std::runtime_error("k-mers lost or duplicated: " + std::to_string(parsed) +
                               " parsed, " + std::to_string(left_out) + " left out as read once, " +
                               std::to_string(kmers_stored_) + " received by stores, " +
                               std::to_string(outcome_.histogram.total_kmers()) + " counted");
    }
    if (left_out != 0) {
      outcome_.histogram.add(1, left_out);
      log_.line(std::to_string(left_out) + " k-mers read once left out of the stores by the filter of " +
                "shorter k-mers read twice or more, and counted as read once");
    }
    log_.end_phase(std::to_string(outcome_.histogram.distinct_kmers()) + " distinct k-mers, " +
                   std::to_string(outcome_.histogram.unique_kmers()) + " unique, the largest count " +
                   std::to_string(outcome_.histogram.max_count()));
    save_checkpoints();
  }

  // Writes the histogram and the summary, and publishes them with the dump as one: every
  // file appears, or none.
  void finish() {
    if (dump_file_ != nullptr) log_.end_phase(std::to_string(merger_->written()) + " k-mers dumped");
    log_.begin_phase("writing");
    AtomicOutputFile histogram(output_path(kHistogramFile));
    histogram.write(outcome_.histogram.jellyfish_text());
    AtomicOutputFile summary(output_path(kSummaryFile));
    summary.write(summary_json(settings_, outcome_.tally, outcome_.histogram));
    if (dump_file_ != nullptr) {
      publish_together({dump_file_.get(), &histogram, &summary});
      outcome_.kmers_dumped = merger_->written();
      outcome_.files_written.push_back(dump_file_->path());
    } else {
      publish_together({&histogram, &summary});
    }
    log_.end_phase();
    succeed({histogram.path(), summary.path()});
  }

  // Stops every child; this actor stops when the last one has.
  void shut_down() {
    if (!stopping_) {
      stopping_ = true;
      cancel_timer(give_back_memory_timer_);
      for (const ActorName store : stores_) {
        if (!store.is_none()) send(store, ACTION_COUNTER_STOP);
      }
      for (const ActorName parser : parsers_) {
        if (!parser.is_none()) send(parser, ACTION_COUNTER_STOP);
      }
      for (const ActorName reader : readers_) {
        if (!reader.is_none()) send(reader, ACTION_COUNTER_STOP);
      }
    }
    if (children_ == 0) stop();
  }

  void child_stopped(const Message& message) {
    --children_;
    if (message.payload_size() != 0) {
      const std::string reason(reinterpret_cast<const char*>(message.payload().data()),
                               message.payload_size());
      fail("an actor failed: " + reason);
      return;
    }
    for (ActorName& reader : readers_) {
      if (message.source() == reader) reader = ActorName::none();
    }
    if (stopping_ && children_ == 0) stop();
  }

  std::size_t store_index(ActorName store) const {
    const auto found = store_indexes_.find(store);
    if (found == store_indexes_.end()) throw std::logic_error("message from an unknown store");
    return found->second;
  }

  struct SpawnRequestInfo {
    Role role;
    std::size_t index;
  };

  CounterSettings settings_;
  CounterOutcome& outcome_;
  RunLog& log_;
  std::vector<ActorName> stores_;
  std::vector<ActorName> parsers_;
  std::vector<ActorName> readers_;  // one per node; none once it has reported or stopped
  std::vector<std::optional<ReaderReport>> reports_;
  std::map<ActorName, std::size_t> store_indexes_;
  std::map<std::uint64_t, SpawnRequestInfo> spawn_requests_;
  std::size_t awaited_ = 0;
  std::size_t children_ = 0;
  std::size_t histograms_awaited_ = 0;
  std::uint64_t kmers_stored_ = 0;
  std::unique_ptr<AtomicOutputFile> dump_file_;
  std::unique_ptr<DumpMerger<Words>> merger_;
  std::uint64_t saved_shards_ = 0;  // --continue --dump: the shards being loaded, else 0
  KmerHistogram loaded_histogram_;
  std::string load_failure_;        // why the shards cannot be used: the first store's reason
  bool stopping_ = false;
  static constexpr std::chrono::milliseconds kGiveBackMemoryEvery{1000};  // why not more often: freed_memory.hpp
  // What the payloads streaming through node 0's heap leave in its free lists while the
  // stores count (release_freed_memory_past; 8 processes, 40x E. coli: 0.2-4 MiB in the first
  // round of k, 7-12 MiB in later rounds, with the holes the serial steps before left). Giving back less only makes the
  // next payloads fault their pages in again: at k = 31, node 0 computed 0.10-0.17 s more than
  // the other ranks while counting with those trims, and 0.00-0.03 s more without them.
  static constexpr std::size_t kPayloadsInFlightBytes = 6 << 20;
  TimerId give_back_memory_timer_;  // while counting (ACTION_COUNTER_GIVE_BACK_MEMORY)
};

}  // namespace xenon::genomics
