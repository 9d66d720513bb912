// SPDX-License-Identifier: BSD-3-Clause
// latency_probe: the runtime's headline benchmark. Every actor pings random actors, one
// ping at a time, and waits for each reply. See ../../shared/LATENCY_PROBE.md (mirrored in
// README.md here) for the options, the workload and the exact output.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <xenon/xenon.hpp>

namespace {

using xenon::Action;
using xenon::ActorName;
using xenon::Message;
using xenon::Payload;

inline constexpr Action ACTION_PING{"ACTION_PING"};
inline constexpr Action ACTION_PING_REPLY{"ACTION_PING_REPLY"};
// Control messages between the driver and the pingers; not timed.
inline constexpr Action ACTION_SETUP{"latency_probe.setup"};
inline constexpr Action ACTION_READY{"latency_probe.ready"};
inline constexpr Action ACTION_START{"latency_probe.start"};
inline constexpr Action ACTION_DONE{"latency_probe.done"};
inline constexpr Action ACTION_STOP{"latency_probe.stop"};
inline constexpr Action ACTION_FINAL_COUNTS{"latency_probe.final-counts"};

struct ProbeOptions {
  std::int64_t actors_per_worker = 100;
  std::int64_t pings_per_actor = 40000;
  std::uint64_t seed = 1;
  std::int64_t sample_every = 64;  // round-trip time of every K-th ping; 0: none
  bool quiet = false;              // no progress line on standard error
  std::int64_t progress_interval_ms = 1000;
  std::string counters_json;       // also write the counters there ("": no)
  std::string counters_csv;
};

// Replies received so far on this node, one counter per worker, for the progress line: the
// pingers of a worker add to it every kProgressBatch replies (so counting costs nothing
// measurable), the progress thread only reads. A process-wide table because pingers spawned
// by request are built from bytes alone; every node runs this same program.
inline constexpr std::uint64_t kProgressBatch = 256;
struct alignas(xenon::kCacheLineSize) WorkerProgress {
  std::atomic<std::uint64_t> replies{0};
};
std::unique_ptr<WorkerProgress[]> worker_progress;

// What a pinger is built from, on whichever node it is spawned (sent as raw bytes: every
// node runs this same binary).
struct PingerArguments {
  std::uint64_t position;
  std::uint64_t pings_per_actor;
  std::uint64_t seed;
  std::uint64_t sample_every;
};
inline constexpr const char* kPingerType = "latency_probe.pinger";

// What a pinger reports when told to stop, followed by its round-trip samples (ns).
struct FinalCounts {
  std::uint64_t pings_sent;
  std::uint64_t replies_received;
  std::uint64_t pings_received;
  std::uint64_t sample_count;
};

// Filled in by the driver, read by main() after the engine has returned.
struct ProbeResult {
  double elapsed_seconds = 0;
  double cpu_seconds = 0;
  std::uint64_t pings_sent = 0;
  std::uint64_t replies_received = 0;
  std::uint64_t pings_received = 0;
  std::vector<std::uint64_t> round_trip_ns;
  bool finished = false;
};

class Pinger final : public xenon::Actor {
 public:
  explicit Pinger(const PingerArguments& arguments)
      : random_(arguments.seed * 0x9e3779b97f4a7c15ULL + arguments.position),
        position_(arguments.position),
        pings_to_send_(arguments.pings_per_actor),
        sample_every_(arguments.sample_every) {
    if (sample_every_ > 0) samples_.reserve(pings_to_send_ / sample_every_ + 1);
  }
  explicit Pinger(std::span<const std::byte> bytes) : Pinger(decode(bytes)) {}

  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_PING) {
      ++pings_received_;
      reply(message, ACTION_PING_REPLY);
    } else if (action == ACTION_PING_REPLY) {
      if (++replies_received_ % kProgressBatch == 0) {
        // Relaxed: a statistic for the progress line, ordered with nothing.
        worker_progress[static_cast<std::size_t>(worker_index())].replies.fetch_add(
            kProgressBatch, std::memory_order_relaxed);
      }
      if (sampling_) {
        samples_.push_back(static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(
                xenon::MonotonicClock::now() - sent_at_)
                .count()));
        sampling_ = false;
      }
      if (pings_sent_ < pings_to_send_) {
        send_ping();
      } else {
        send(driver_, ACTION_DONE);
      }
    } else if (action == ACTION_SETUP) {
      driver_ = message.source();
      names_ = message.share_payload();  // shared, not copied: one list for all pingers
      actor_count_ = names_.size() / sizeof(ActorName);
      reply(message, ACTION_READY);
    } else if (action == ACTION_START) {
      send_ping();
    } else if (action == ACTION_STOP) {
      report_and_stop();
    }
  }

 private:
  static PingerArguments decode(std::span<const std::byte> bytes) {
    if (bytes.size() != sizeof(PingerArguments)) {
      throw std::length_error("pinger arguments: " + std::to_string(bytes.size()) + " bytes");
    }
    PingerArguments arguments;
    std::memcpy(&arguments, bytes.data(), sizeof arguments);
    return arguments;
  }

  void send_ping() {
    // Uniform over every actor but this one.
    std::uint64_t target = random_.below(actor_count_ - 1);
    if (target >= position_) ++target;
    ActorName name;
    std::memcpy(&name, names_.bytes().data() + target * sizeof(ActorName), sizeof name);
    ++pings_sent_;
    if (sample_every_ > 0 && pings_sent_ % sample_every_ == 0) {
      sampling_ = true;
      sent_at_ = xenon::MonotonicClock::now();
    }
    send(name, ACTION_PING);
  }

  void report_and_stop() {
    const FinalCounts counts{pings_sent_, replies_received_, pings_received_, samples_.size()};
    Payload report = Payload::with_size(sizeof counts + samples_.size() * sizeof(std::uint64_t));
    std::byte* out = report.writable_bytes().data();
    std::memcpy(out, &counts, sizeof counts);
    if (!samples_.empty()) {
      std::memcpy(out + sizeof counts, samples_.data(), samples_.size() * sizeof(std::uint64_t));
    }
    send(driver_, ACTION_FINAL_COUNTS, std::move(report));
    stop();
  }

  xenon::Random random_;
  const std::uint64_t position_;
  const std::uint64_t pings_to_send_;
  const std::uint64_t sample_every_;
  ActorName driver_;
  Payload names_;
  std::uint64_t actor_count_ = 0;
  std::uint64_t pings_sent_ = 0;
  std::uint64_t replies_received_ = 0;
  std::uint64_t pings_received_ = 0;
  bool sampling_ = false;
  xenon::MonotonicClock::time_point sent_at_;
  std::vector<std::uint64_t> samples_;
};

// Spawns the pingers, starts the clock once all are ready, stops it when all are done,
// then collects their counts and stops them.
class Driver final : public xenon::Actor {
 public:
  Driver(const ProbeOptions& options, ProbeResult& result) : options_(options), result_(result) {}

  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_START) {
      spawn_pingers();
    } else if (action == xenon::ACTION_SPAWNED) {
      const xenon::SpawnedActor spawned = xenon::SpawnedActor::from(message);
      const auto found = request_to_position_.find(spawned.request);
      if (found == request_to_position_.end()) throw std::runtime_error("unexpected spawn reply");
      pingers_[found->second] = spawned.name;
      if (--awaited_spawns_ == 0) set_up_pingers();
    } else if (action == ACTION_READY) {
      if (++ready_ == pingers_.size()) {
        result_.cpu_seconds = xenon::process_cpu_seconds();
        started_at_ = xenon::MonotonicClock::now();
        for (ActorName pinger : pingers_) send(pinger, ACTION_START);
      }
    } else if (action == ACTION_DONE) {
      if (++done_ == pingers_.size()) {
        result_.elapsed_seconds =
            xenon::seconds_between(started_at_, xenon::MonotonicClock::now());
        result_.cpu_seconds = xenon::process_cpu_seconds() - result_.cpu_seconds;
        for (ActorName pinger : pingers_) send(pinger, ACTION_STOP);
      }
    } else if (action == ACTION_FINAL_COUNTS) {
      collect(message);
    } else if (action == xenon::ACTION_CHILD_STOPPED) {
      if (++stopped_ == pingers_.size()) {
        result_.finished = true;
        stop();
      }
    }
  }

 private:
  // Pingers on this node are spawned directly; those on other nodes by request, answered
  // with ACTION_SPAWNED. Positions run over nodes, then workers, then actors.
  void spawn_pingers() {
    const auto workers = static_cast<std::uint64_t>(worker_count());
    const auto per_worker = static_cast<std::uint64_t>(options_.actors_per_worker);
    const auto nodes = static_cast<std::uint64_t>(node_count());
    pingers_.resize(nodes * workers * per_worker);
    for (std::uint64_t position = 0; position < pingers_.size(); ++position) {
      const auto node = static_cast<int>(position / (workers * per_worker));
      const auto worker = static_cast<int>(position / per_worker % workers);
      const PingerArguments arguments{position,
                                      static_cast<std::uint64_t>(options_.pings_per_actor),
                                      options_.seed,
                                      static_cast<std::uint64_t>(options_.sample_every)};
      if (node == node_index()) {
        pingers_[position] = spawn_on<Pinger>(worker, arguments);
      } else {
        ++awaited_spawns_;
        const std::uint64_t request =
            request_spawn(node, worker, kPingerType, Payload::of(arguments));
        request_to_position_.emplace(request, position);
      }
    }
    if (awaited_spawns_ == 0) set_up_pingers();
  }

  // One list of names, shared by reference among the pingers of this node.
  void set_up_pingers() {
    Payload names = Payload::copy_of(std::as_bytes(std::span(pingers_)));
    for (ActorName pinger : pingers_) send(pinger, ACTION_SETUP, names.share());
  }

  void collect(const Message& message) {
    FinalCounts counts;
    std::span<const std::byte> bytes = message.payload();
    if (bytes.size() < sizeof counts) throw std::length_error("final counts: short payload");
    std::memcpy(&counts, bytes.data(), sizeof counts);
    if (bytes.size() != sizeof counts + counts.sample_count * sizeof(std::uint64_t)) {
      throw std::length_error("final counts: payload size does not match its sample count");
    }
    result_.pings_sent += counts.pings_sent;
    result_.replies_received += counts.replies_received;
    result_.pings_received += counts.pings_received;
    const std::size_t old_size = result_.round_trip_ns.size();
    result_.round_trip_ns.resize(old_size + counts.sample_count);
    std::memcpy(result_.round_trip_ns.data() + old_size, bytes.data() + sizeof counts,
                counts.sample_count * sizeof(std::uint64_t));
  }

  const ProbeOptions& options_;
  ProbeResult& result_;
  std::vector<ActorName> pingers_;  // by position
  std::unordered_map<std::uint64_t, std::uint64_t> request_to_position_;
  std::size_t awaited_spawns_ = 0;
  std::size_t ready_ = 0;
  std::size_t done_ = 0;
  std::size_t stopped_ = 0;
  xenon::MonotonicClock::time_point started_at_;
};

}  // namespace

namespace {

// Once an interval, from a thread of its own that sleeps in between, shows how many of this
// node's pings have been answered (counted in batches: approximate until the end). Runs
// shorter than the interval show nothing; -quiet shows nothing at all.
class ProgressReporter {
 public:
  ProgressReporter(bool enabled, std::chrono::milliseconds interval, int workers,
                   std::uint64_t pings_on_node)
      : line_(stderr, enabled),
        interval_(interval),
        workers_(workers),
        pings_on_node_(pings_on_node) {
    if (enabled) thread_ = std::thread([this] { run(); });
  }
  ~ProgressReporter() { stop(); }
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  void stop() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
    line_.finish();
  }

 private:
  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    std::uint64_t last_done = 0;
    auto last_time = xenon::MonotonicClock::now();
    while (!wake_.wait_for(lock, interval_, [this] { return stopping_; })) {
      std::uint64_t done = 0;
      for (int w = 0; w < workers_; ++w) {
        // Relaxed: a statistic; see WorkerProgress.
        done += worker_progress[static_cast<std::size_t>(w)].replies.load(std::memory_order_relaxed);
      }
      const auto now = xenon::MonotonicClock::now();
      const double rate =
          static_cast<double>(done - last_done) / xenon::seconds_between(last_time, now);
      last_done = done;
      last_time = now;
      char text[160];
      std::snprintf(text, sizeof text,
                    "latency_probe: %" PRIu64 " of %" PRIu64
                    " pings answered on node 0 (%.0f%%), %.2f M pings / s",
                    done, pings_on_node_,
                    100.0 * static_cast<double>(done) / static_cast<double>(pings_on_node_),
                    rate / 1e6);
      line_.show(text);
    }
  }

  xenon::ProgressLine line_;  // used by the thread alone, then by stop() after the join
  const std::chrono::milliseconds interval_;
  const int workers_;
  const std::uint64_t pings_on_node_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

std::uint64_t percentile(const std::vector<std::uint64_t>& sorted, double fraction) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<std::size_t>(fraction * static_cast<double>(sorted.size() - 1));
  return sorted[rank];
}

int run_probe(int argc, char** argv) {
  xenon::EngineOptions engine_options;
  ProbeOptions options;
  xenon::CommandLine command_line(
      "latency_probe",
      "Every actor sends pings, one at a time, to actors chosen at random and waits for each "
      "reply;\nprints PERFORMANCE_COUNTER lines (see performance/latency_probe/README.md).");
  xenon::add_engine_options(command_line, engine_options);
  command_line.add_integer("actor-count-per-worker", &options.actors_per_worker, 1, 1000000,
                           "actors spawned on every worker");
  command_line.add_integer("ping-message-count-per-actor", &options.pings_per_actor, 1,
                           1000000000000, "pings each actor sends");
  command_line.add_unsigned("seed", &options.seed, "seed of the random target sequence");
  command_line.add_integer("sample-every", &options.sample_every, 0, 1000000000,
                           "time the round trip of every K-th ping (0: none)");
  command_line.add_flag("quiet", &options.quiet, "no progress line on standard error");
  command_line.add_integer("progress-interval-ms", &options.progress_interval_ms, 10, 3600000,
                           "milliseconds between progress lines");
  command_line.add_string("counters-json", &options.counters_json,
                          "also write the counters to this file, as JSON");
  command_line.add_string("counters-csv", &options.counters_csv,
                          "also write the counters to this file, as CSV (name,value,unit)");
  if (!command_line.parse(argc, argv)) return 0;
  for (const auto& [option, path] : {std::pair{"counters-json", &options.counters_json},
                                     std::pair{"counters-csv", &options.counters_csv}}) {
    if (path->empty()) continue;
    const std::string problem = xenon::CounterReport::destination_problem(*path);
    if (!problem.empty()) throw xenon::CommandLineError("option -" + std::string(option) + ": " + problem);
  }

  xenon::Engine engine(engine_options);
  const std::uint64_t nodes = static_cast<std::uint64_t>(engine.node_count());
  const std::uint64_t workers = static_cast<std::uint64_t>(engine.worker_count());
  const std::uint64_t actors_per_worker = static_cast<std::uint64_t>(options.actors_per_worker);
  const std::uint64_t actors = nodes * workers * actors_per_worker;
  if (actors < 2) {
    throw xenon::CommandLineError("need at least 2 actors to ping each other, have " +
                                  std::to_string(actors) +
                                  " (raise -actor-count-per-worker or -threads-per-node)");
  }

  ProbeResult result;
  engine.register_actor_type<Pinger>(kPingerType);
  if (engine.node_index() == 0) {
    engine.send(engine.spawn<Driver>(options, result), ACTION_START);
  }
  worker_progress = std::make_unique<WorkerProgress[]>(workers);
  ProgressReporter progress(!options.quiet && engine.node_index() == 0,
                            std::chrono::milliseconds(options.progress_interval_ms),
                            engine.worker_count(),
                            workers * actors_per_worker *
                                static_cast<std::uint64_t>(options.pings_per_actor));
  engine.run();  // every node: until no actor is alive on any node
  progress.stop();  // its last line ends before the counters start
  if (engine.node_index() != 0) {
    // Node 0 reports the totals; every node vouches for its own deliveries.
    const std::uint64_t dead_letters = engine.statistics().dead_letters;
    if (dead_letters == 0) return 0;
    std::fprintf(stderr, "latency_probe: error: node %d: %" PRIu64 " message(s) were not delivered\n",
                 engine.node_index(), dead_letters);
    return 1;
  }
  if (!result.finished) {
    std::fprintf(stderr, "latency_probe: error: the run ended before every pinger stopped\n");
    return 1;
  }

  const std::uint64_t per_actor = static_cast<std::uint64_t>(options.pings_per_actor);
  const std::uint64_t pings = actors * per_actor;
  const std::uint64_t messages = 2 * pings;
  const double seconds = result.elapsed_seconds;
  const double throughput = static_cast<double>(messages) / seconds;
  const double node_throughput = throughput / static_cast<double>(nodes);
  const double worker_throughput = throughput / static_cast<double>(nodes * workers);
  const double actor_throughput = throughput / static_cast<double>(actors);

  xenon::CounterReport report("latency_probe");
  report.add_text("type", "ping-pong");
  report.add_text("ping-action", "ACTION_PING");
  report.add_text("pong-action", "ACTION_PING_REPLY");
  report.add_integer("node-count", nodes);
  report.add_integer("worker-count-per-node", workers);
  report.add_integer("actor-count-per-worker", actors_per_worker);
  report.add_integer("worker-count", nodes * workers);
  report.add_integer("actor-count", actors);
  report.add_integer("ping-message-count-per-actor", per_actor);
  report.add_integer("ping-message-count", pings);
  report.add_integer("pong-message-count", pings);
  report.add_integer("message-count", messages);
  report.add_real("elapsed-time", seconds, "s");
  report.add_real("computation-throughput", throughput, "messages / s");
  report.add_real("node-throughput", node_throughput, "messages / s");
  report.add_real("worker-throughput", worker_throughput, "messages / s");
  report.add_integer("worker-latency", static_cast<std::uint64_t>(1e9 / worker_throughput), "ns");
  report.add_real("actor-throughput", actor_throughput, "messages / s");
  report.add_integer("actor-latency", static_cast<std::uint64_t>(1e9 / actor_throughput), "ns");

  // Extras, after the fixed lines.
  const xenon::EngineStatistics statistics = engine.statistics();
  std::sort(result.round_trip_ns.begin(), result.round_trip_ns.end());
  report.add_integer("round-trip-sample-count", result.round_trip_ns.size());
  report.add_integer("round-trip-p50-ns", percentile(result.round_trip_ns, 0.50));
  report.add_integer("round-trip-p90-ns", percentile(result.round_trip_ns, 0.90));
  report.add_integer("round-trip-p99-ns", percentile(result.round_trip_ns, 0.99));
  report.add_integer("round-trip-max-ns",
                     result.round_trip_ns.empty() ? 0 : result.round_trip_ns.back());
  report.add_integer("messages-received-by-actors", statistics.messages_received);
  report.add_integer("messages-to-other-workers", statistics.messages_to_other_workers);
  report.add_integer("dead-letter-count", statistics.dead_letters);
  // Where the workers' time and messages went: the engine's counters (run_observation.hpp),
  // the same figures as --report's, summed over this node's workers.
  xenon::WorkerObservation sum;
  for (const xenon::WorkerObservation& worker : statistics.workers) {
    sum.sent_to_same_worker += worker.sent_to_same_worker;
    sum.sent_to_other_nodes += worker.sent_to_other_nodes;
    sum.ring_full_waits += worker.ring_full_waits;
    sum.busy_nanoseconds += worker.busy_nanoseconds;
    sum.idle_nanoseconds += worker.idle_nanoseconds;
    sum.parked_nanoseconds += worker.parked_nanoseconds;
  }
  report.add_integer("messages-to-same-worker", sum.sent_to_same_worker);
  report.add_integer("messages-to-other-nodes", sum.sent_to_other_nodes);
  report.add_integer("ring-full-waits", sum.ring_full_waits);
  report.add_integer("worker-busy-time", sum.busy_nanoseconds, "ns");
  report.add_integer("worker-idle-time", sum.idle_nanoseconds, "ns");
  report.add_integer("worker-parked-time", sum.parked_nanoseconds, "ns");
  report.add_integer("receive-time-sample-count", statistics.receive_time.count);
  report.add_integer("receive-time-p50-ns", statistics.receive_time.quantile_nanoseconds(0.5));
  report.add_integer("receive-time-p99-ns", statistics.receive_time.quantile_nanoseconds(0.99));
  report.add_integer("receive-time-max-ns", statistics.receive_time.max_nanoseconds);
  report.add_integer("queue-time-sample-count", statistics.queue_time.count);
  report.add_integer("queue-time-p50-ns", statistics.queue_time.quantile_nanoseconds(0.5));
  report.add_integer("queue-time-p99-ns", statistics.queue_time.quantile_nanoseconds(0.99));
  report.add_integer("queue-time-max-ns", statistics.queue_time.max_nanoseconds);
  report.add_real("cpu-time", result.cpu_seconds, "s");
  report.add_real("cpu-per-message", result.cpu_seconds * 1e9 / static_cast<double>(messages),
                  "ns");
  report.print(stdout);
  std::fflush(stdout);
  if (!options.counters_json.empty()) report.write_json(options.counters_json);
  if (!options.counters_csv.empty()) report.write_csv(options.counters_csv);

  bool exact = true;
  const auto check = [&exact, pings](const char* what, std::uint64_t count) {
    if (count != pings) {
      std::fprintf(stderr, "latency_probe: error: %s = %" PRIu64 ", expected %" PRIu64 "\n", what,
                   count, pings);
      exact = false;
    }
  };
  check("pings sent", result.pings_sent);
  check("pings received", result.pings_received);
  check("replies received", result.replies_received);
  if (statistics.dead_letters != 0) {
    std::fprintf(stderr, "latency_probe: error: %" PRIu64 " message(s) were not delivered\n",
                 statistics.dead_letters);
    exact = false;
  }
  return exact ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run_probe(argc, argv);
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "latency_probe: error: %s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "latency_probe: error: %s\n", error.what());
    return 1;
  }
}
