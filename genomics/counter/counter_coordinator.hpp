// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
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
#include "genomics/counter/kmer_store.hpp"
#include "genomics/io/atomic_output_file.hpp"
#include "genomics/io/input_error.hpp"
#include "genomics/io/input_file.hpp"
#include "genomics/io/run_log.hpp"

namespace xenon::genomics {

// Runs one count, on node 0: spawns a store and a parser on every worker of every node and
// the reader beside itself, waits for the input to be counted, gathers the histogram (and,
// with a dump, merges the stores' sorted k-mers into one file), writes the output files, and
// stops every actor it spawned before stopping itself, so the engine ends exactly when the
// work is done. Any failure ends the run the same way, with the reason in the outcome. Each
// phase goes into the run's log as it begins and ends.
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
  virtual std::string_view store_type() const { return Words == 1 ? kStoreType1 : kStoreType2; }
  virtual ActorName spawn_store(int worker) { return this->template spawn_on<KmerStore<Words>>(worker); }
  // How parsers route k-mers to stores: 0 by hash, else by minimizers of this length.
  virtual std::uint32_t minimizer_length() const { return 0; }
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

  const CounterSettings& settings() const { return settings_; }
  const std::vector<ActorName>& stores() const { return stores_; }
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

 private:
  enum class Role { kStore, kParser };

  void dispatch(const Message& message) {
    const Action action = message.action();
    if (action == ACTION_COUNTER_START) {
      start();
    } else if (action == ACTION_SPAWNED) {
      spawned(SpawnedActor::from(message));
    } else if (action == ACTION_INPUT_DONE) {
      input_done(InputTally::decode(message.payload()));
    } else if (action == ACTION_INPUT_FAILED) {
      reader_ = ActorName::none();  // it stops itself after reporting
      fail(InputFailure::decode(message.payload()).text);
    } else if (action == ACTION_HISTOGRAM) {
      histogram_arrived(message);
    } else if (action == ACTION_DUMP_CHUNK) {
      merger_->add_chunk(store_index(message.source()), message.payload());
      if (merger_->finished()) finish();
    } else if (action == ACTION_CHILD_STOPPED) {
      child_stopped(message);
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
    log_.begin_phase("counting");
    stores_.resize(static_cast<std::size_t>(store_count()));
    parsers_.resize(stores_.size());
    spawn_all(Role::kStore);
  }

  // One actor per worker of every node, in the order node by node, worker by worker.
  void spawn_all(Role role) {
    const Payload arguments =
        role == Role::kStore ? Payload{} : ParserArguments{static_cast<std::uint32_t>(settings_.k), stores_, minimizer_length()}.encode();
    std::vector<ActorName>& names = role == Role::kStore ? stores_ : parsers_;
    const std::string_view type = role == Role::kStore ? store_type()
                                                       : (Words == 1 ? kParserType1 : kParserType2);
    awaited_ = names.size();
    for (int node = 0; node < node_count(); ++node) {
      for (int worker = 0; worker < worker_count(); ++worker) {
        const auto index = static_cast<std::size_t>(node * worker_count() + worker);
        ++children_;
        if (node == node_index()) {
          names[index] = role == Role::kStore ? spawn_store(worker)
                                              : spawn_on<KmerParser<Words>>(worker, arguments.bytes());
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
    (role == Role::kStore ? stores_ : parsers_)[index] = spawned.name;
    // Spawned after the run failed: stop it too, or this actor would wait for it forever.
    if (stopping_) send(spawned.name, ACTION_COUNTER_STOP);
    if (--awaited_ == 0) all_spawned(role);
  }

  void all_spawned(Role role) {
    if (stopping_) return;
    if (role == Role::kStore) {
      for (std::size_t i = 0; i < stores_.size(); ++i) store_indexes_[stores_[i]] = i;
      spawn_all(Role::kParser);
      return;
    }
    ReaderSettings reader_settings;
    reader_settings.files = settings_.files;
    reader_settings.block_bytes = settings_.block_bytes;
    reader_settings.overlap_bases = static_cast<std::size_t>(settings_.k - 1);
    reader_settings.blocks_per_parser = settings_.blocks_per_parser;
    reader_settings.show_progress = settings_.show_progress;
    ++children_;
    reader_ = spawn<InputReader>(reader_settings, parsers_, self());
    send(reader_, ACTION_COUNTER_START);
  }

  void input_done(const InputTally& tally) {
    reader_ = ActorName::none();  // it stops itself after reporting
    outcome_.tally = tally;
    log_.end_phase(std::to_string(tally.records) + " records, " + std::to_string(tally.bases) + " bases, " +
                   std::to_string(tally.kmers) + " k-mers");
    log_.begin_phase("histogram");
    histograms_awaited_ = stores_.size();
    for (const ActorName store : stores_) send(store, ACTION_HISTOGRAM_REQUEST);
  }

  // Payload: u64 k-mers the store received, then its histogram.
  void histogram_arrived(const Message& message) {
    const std::span<const std::byte> bytes = message.payload();
    if (bytes.size() < 8) throw std::invalid_argument("histogram message too short");
    kmers_stored_ += load_le64(bytes.data());
    outcome_.histogram.merge(KmerHistogram::from_bytes(bytes.subspan(8)));
    if (--histograms_awaited_ != 0) return;
    // Every k-mer parsed must be in exactly one store, and counted once.
    const std::uint64_t parsed = outcome_.tally.kmers;
    if (kmers_stored_ != parsed || outcome_.histogram.total_kmers() != parsed) {
      throw std::runtime_error("k-mers lost or duplicated: " + std::to_string(parsed) +
                               " parsed, " + std::to_string(kmers_stored_) + " received by stores, " +
                               std::to_string(outcome_.histogram.total_kmers()) + " counted");
    }
    log_.end_phase(std::to_string(outcome_.histogram.distinct_kmers()) + " distinct k-mers, " +
                   std::to_string(outcome_.histogram.unique_kmers()) + " unique, the largest count " +
                   std::to_string(outcome_.histogram.max_count()));
    counted();
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
      for (const ActorName store : stores_) {
        if (!store.is_none()) send(store, ACTION_COUNTER_STOP);
      }
      for (const ActorName parser : parsers_) {
        if (!parser.is_none()) send(parser, ACTION_COUNTER_STOP);
      }
      if (!reader_.is_none()) send(reader_, ACTION_COUNTER_STOP);
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
    if (message.source() == reader_) reader_ = ActorName::none();
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
  ActorName reader_;
  std::map<ActorName, std::size_t> store_indexes_;
  std::map<std::uint64_t, SpawnRequestInfo> spawn_requests_;
  std::size_t awaited_ = 0;
  std::size_t children_ = 0;
  std::size_t histograms_awaited_ = 0;
  std::uint64_t kmers_stored_ = 0;
  std::unique_ptr<AtomicOutputFile> dump_file_;
  std::unique_ptr<DumpMerger<Words>> merger_;
  bool stopping_ = false;
};

}  // namespace xenon::genomics
