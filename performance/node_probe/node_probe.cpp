// SPDX-License-Identifier: BSD-3-Clause
// node_probe: node-to-node latency, bandwidth and message rate through Xenon actors.
// Run under `mpiexec -n 2`: an actor on node 0 talks to an actor on node 1, and every hop
// to and from the communicators is included. transport/mpi/raw_mpi_probe.cpp measures the
// same with plain MPI calls; compare.sh runs both side by side and prints the ratios.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

#include <xenon/xenon.hpp>

namespace {

using xenon::Action;
using xenon::ActorName;
using xenon::Message;
using xenon::Payload;

inline constexpr Action ACTION_START{"node_probe.start"};
inline constexpr Action ACTION_PING{"node_probe.ping"};
inline constexpr Action ACTION_PONG{"node_probe.pong"};
inline constexpr Action ACTION_STREAM{"node_probe.stream"};
inline constexpr Action ACTION_EXPECT{"node_probe.expect"};
inline constexpr Action ACTION_STREAM_DONE{"node_probe.stream-done"};
inline constexpr Action ACTION_STOP{"node_probe.stop"};

constexpr std::size_t kSizes[] = {0, 8, 64, 512, 4096, 32768, 262144, 1048576, 4194304};
constexpr std::uint64_t kRateMessages = 1'000'000;

std::uint64_t round_trips_for(std::size_t size) {
  return std::clamp<std::uint64_t>((64u << 20) / std::max<std::size_t>(size, 1), 50, 5000);
}
std::uint64_t stream_messages_for(std::size_t size) {
  return std::clamp<std::uint64_t>((128u << 20) / std::max<std::size_t>(size, 1), 32, 20000);
}

// On node 1: answers pings, counts streams and says when one is complete.
class Peer final : public xenon::Actor {
 public:
  explicit Peer(std::span<const std::byte>) {}
  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_PING) {
      reply(message, ACTION_PONG, message.share_payload());
    } else if (action == ACTION_EXPECT) {
      expected_ = message.payload_as<std::uint64_t>();
      received_ = 0;
    } else if (action == ACTION_STREAM) {
      if (++received_ == expected_) reply(message, ACTION_STREAM_DONE);
    } else if (action == ACTION_STOP) {
      stop();
    }
  }

 private:
  std::uint64_t expected_ = 0;
  std::uint64_t received_ = 0;
};

struct Figures {
  double one_way_ns[std::size(kSizes)] = {};
  double stream_bytes_per_second[std::size(kSizes)] = {};
  double message_rate = 0;
};

// On node 0: for each size, ping-pong, then a stream; then a stream of 8-byte messages.
class Driver final : public xenon::Actor {
 public:
  explicit Driver(Figures& figures) : figures_(figures) {}
  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_START) {
      request_spawn(1, 0, "node_probe.peer");
    } else if (action == xenon::ACTION_SPAWNED) {
      peer_ = xenon::SpawnedActor::from(message).name;
      start_ping_pong();
    } else if (action == ACTION_PONG) {
      if (message.payload_size() != kSizes[size_index_]) throw std::runtime_error("pong size");
      if (++round_trips_ < round_trips_for(kSizes[size_index_])) {
        send(peer_, ACTION_PING, payload_.share());
        return;
      }
      const double seconds = xenon::seconds_between(started_, xenon::MonotonicClock::now());
      figures_.one_way_ns[size_index_] = seconds * 1e9 / (2.0 * static_cast<double>(round_trips_));
      start_stream(kSizes[size_index_], stream_messages_for(kSizes[size_index_]));
    } else if (action == ACTION_STREAM_DONE) {
      const double seconds = xenon::seconds_between(started_, xenon::MonotonicClock::now());
      if (measuring_rate_) {
        figures_.message_rate = static_cast<double>(kRateMessages) / seconds;
        send(peer_, ACTION_STOP);
        return;
      }
      figures_.stream_bytes_per_second[size_index_] =
          static_cast<double>(stream_messages_ * kSizes[size_index_]) / seconds;
      if (++size_index_ < std::size(kSizes)) {
        start_ping_pong();
      } else {
        measuring_rate_ = true;
        start_stream(8, kRateMessages);
      }
    } else if (action == xenon::ACTION_CHILD_STOPPED) {
      stop();
    }
  }

 private:
  void start_ping_pong() {
    payload_ = Payload::with_size(kSizes[size_index_]);
    round_trips_ = 0;
    started_ = xenon::MonotonicClock::now();
    send(peer_, ACTION_PING, payload_.share());
  }
  void start_stream(std::size_t size, std::uint64_t messages) {
    stream_messages_ = messages;
    send_value(peer_, ACTION_EXPECT, messages);  // arrives first: same pair, in order
    payload_ = Payload::with_size(size);
    started_ = xenon::MonotonicClock::now();
    for (std::uint64_t i = 0; i < messages; ++i) send(peer_, ACTION_STREAM, payload_.share());
  }

  Figures& figures_;
  ActorName peer_;
  Payload payload_;
  std::size_t size_index_ = 0;
  std::uint64_t round_trips_ = 0;
  std::uint64_t stream_messages_ = 0;
  bool measuring_rate_ = false;
  xenon::MonotonicClock::time_point started_;
};

}  // namespace

int main(int argc, char** argv) {
  xenon::EngineOptions options;
  xenon::CommandLine command_line(
      "node_probe", "Node-to-node latency, bandwidth and message rate through Xenon actors; "
                    "run under mpiexec -n 2.");
  xenon::add_engine_options(command_line, options);
  try {
    if (!command_line.parse(argc, argv)) return 0;
    xenon::Engine engine(options);
    if (engine.node_count() != 2) {
      throw xenon::CommandLineError("run under mpiexec -n 2 (this job has " +
                                    std::to_string(engine.node_count()) + " node(s))");
    }
    engine.register_actor_type<Peer>("node_probe.peer");
    Figures figures;
    if (engine.node_index() == 0) engine.send(engine.spawn<Driver>(figures), ACTION_START);
    engine.run();
    if (engine.node_index() != 0) return 0;
    for (std::size_t i = 0; i < std::size(kSizes); ++i) {
      std::printf("PERFORMANCE_COUNTER xenon-one-way-latency-%zu-bytes = %.3f ns\n", kSizes[i],
                  figures.one_way_ns[i]);
    }
    for (std::size_t i = 0; i < std::size(kSizes); ++i) {
      if (kSizes[i] == 0) continue;
      std::printf("PERFORMANCE_COUNTER xenon-stream-bandwidth-%zu-bytes = %.1f MB / s\n", kSizes[i],
                  figures.stream_bytes_per_second[i] / 1e6);
    }
    std::printf("PERFORMANCE_COUNTER xenon-8-byte-message-rate = %.1f messages / s\n",
                figures.message_rate);
    std::printf("PERFORMANCE_COUNTER xenon-aggregation-bytes = %" PRId64 "\n",
                options.aggregation_bytes);
    const auto statistics = engine.statistics();
    std::printf("PERFORMANCE_COUNTER xenon-frames-sent-by-node-0 = %" PRIu64 "\n",
                statistics.frames_sent);
    if (statistics.dead_letters != 0) {
      std::fprintf(stderr, "node_probe: error: %" PRIu64 " dead letters\n", statistics.dead_letters);
      return 1;
    }
    return 0;
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "node_probe: error: %s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "node_probe: error: %s\n", error.what());
    return 1;
  }
}
