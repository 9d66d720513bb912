// latency_probe: the runtime's headline benchmark. Every actor pings random actors, one
// ping at a time, and waits for each reply. See ../../shared/LATENCY_PROBE.md (mirrored in
// README.md here) for the options, the workload and the exact output.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/clock.hpp"
#include "core/random.hpp"
#include "engine/xenon.hpp"

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
};

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
      ++replies_received_;
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

void print_counter(const char* name, const char* value) {
  std::printf("PERFORMANCE_COUNTER %s = %s\n", name, value);
}
void print_counter(const char* name, std::uint64_t value) {
  std::printf("PERFORMANCE_COUNTER %s = %" PRIu64 "\n", name, value);
}
void print_rate(const char* name, double value, const char* unit) {
  std::printf("PERFORMANCE_COUNTER %s = %f %s\n", name, value, unit);
}

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
  if (!command_line.parse(argc, argv)) return 0;

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
  engine.run();  // every node: until no actor is alive on any node
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

  print_counter("type", "ping-pong");
  print_counter("ping-action", "ACTION_PING");
  print_counter("pong-action", "ACTION_PING_REPLY");
  print_counter("node-count", nodes);
  print_counter("worker-count-per-node", workers);
  print_counter("actor-count-per-worker", actors_per_worker);
  print_counter("worker-count", nodes * workers);
  print_counter("actor-count", actors);
  print_counter("ping-message-count-per-actor", per_actor);
  print_counter("ping-message-count", pings);
  print_counter("pong-message-count", pings);
  print_counter("message-count", messages);
  std::printf("PERFORMANCE_COUNTER elapsed-time = %f s\n", seconds);
  print_rate("computation-throughput", throughput, "messages / s");
  print_rate("node-throughput", node_throughput, "messages / s");
  print_rate("worker-throughput", worker_throughput, "messages / s");
  std::printf("PERFORMANCE_COUNTER worker-latency = %" PRIu64 " ns\n",
              static_cast<std::uint64_t>(1e9 / worker_throughput));
  print_rate("actor-throughput", actor_throughput, "messages / s");
  std::printf("PERFORMANCE_COUNTER actor-latency = %" PRIu64 " ns\n",
              static_cast<std::uint64_t>(1e9 / actor_throughput));

  // Extras, after the fixed lines.
  const xenon::EngineStatistics statistics = engine.statistics();
  std::sort(result.round_trip_ns.begin(), result.round_trip_ns.end());
  print_counter("round-trip-sample-count", result.round_trip_ns.size());
  print_counter("round-trip-p50-ns", percentile(result.round_trip_ns, 0.50));
  print_counter("round-trip-p90-ns", percentile(result.round_trip_ns, 0.90));
  print_counter("round-trip-p99-ns", percentile(result.round_trip_ns, 0.99));
  print_counter("round-trip-max-ns",
                result.round_trip_ns.empty() ? 0 : result.round_trip_ns.back());
  print_counter("messages-received-by-actors", statistics.messages_received);
  print_counter("messages-to-other-workers", statistics.messages_to_other_workers);
  print_counter("dead-letter-count", statistics.dead_letters);
  std::printf("PERFORMANCE_COUNTER cpu-time = %f s\n", result.cpu_seconds);
  std::printf("PERFORMANCE_COUNTER cpu-per-message = %f ns\n",
              result.cpu_seconds * 1e9 / static_cast<double>(messages));
  std::fflush(stdout);

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
