// SPDX-License-Identifier: BSD-3-Clause
// A ring of actors spread over the workers passes one token a number of times around,
// then the ring stops itself, member by member. Prints how often the token moved and
// exits 1 unless that is exactly actors x laps.
//   build/release/bin/ring -threads-per-node 3 -actors 100 -laps 1000
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <vector>
#include <xenon/xenon.hpp>

namespace {

inline constexpr xenon::Action ACTION_NEXT{"ring.next"};    // payload: the next member
inline constexpr xenon::Action ACTION_START{"ring.start"};  // to the leader
inline constexpr xenon::Action ACTION_TOKEN{"ring.token"};  // payload: hops so far
inline constexpr xenon::Action ACTION_STOP{"ring.stop"};    // goes around once

// What the leader reports; main() reads it after run() has returned.
struct RingResult {
  std::uint64_t hops = 0;
  bool finished = false;
};

class Member : public xenon::Actor {
 public:
  // The leader (position 0) starts the token and counts laps; result is used by it alone.
  Member(std::uint64_t position, std::uint64_t members, std::uint64_t laps, RingResult& result)
      : position_(position), members_(members), laps_(laps), result_(result) {}

  void receive(const xenon::Message& message) override {
    const xenon::Action action = message.action();
    if (action == ACTION_NEXT) {
      next_ = message.payload_as<xenon::ActorName>();
    } else if (action == ACTION_START) {
      send_value(next_, ACTION_TOKEN, std::uint64_t{1});
    } else if (action == ACTION_TOKEN) {
      const auto hops = message.payload_as<std::uint64_t>();
      if (position_ == 0 && hops == members_ * laps_) {
        result_.hops = hops;
        result_.finished = true;
        send(next_, ACTION_STOP);
        stop();
      } else {
        send_value(next_, ACTION_TOKEN, hops + 1);
      }
    } else if (action == ACTION_STOP) {
      // The last member does not pass it on: the leader has stopped already.
      if (position_ + 1 < members_) send(next_, ACTION_STOP);
      stop();
    }
  }

 private:
  const std::uint64_t position_;
  const std::uint64_t members_;
  const std::uint64_t laps_;
  RingResult& result_;
  xenon::ActorName next_;
};

}  // namespace

int main(int argc, char** argv) {
  xenon::EngineOptions options;
  std::int64_t actors = 100;
  std::int64_t laps = 1000;
  xenon::CommandLine command_line("ring", "A token passes around a ring of actors.");
  xenon::add_engine_options(command_line, options);
  command_line.add_integer("actors", &actors, 2, 1000000, "actors in the ring");
  command_line.add_integer("laps", &laps, 1, 1000000000, "times the token goes around");
  try {
    if (!command_line.parse(argc, argv)) return 0;
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "ring: error: %s\n", error.what());
    return 2;
  }

  try {  // the engine throws when it cannot start (threads, memory, MPI)
    xenon::Engine engine(options);
    const auto members = static_cast<std::uint64_t>(actors);
    const auto rounds = static_cast<std::uint64_t>(laps);
    RingResult result;
    // Under mpiexec the ring lives on node 0; the other nodes have no actor and wait.
    if (engine.node_index() == 0) {
      std::vector<xenon::ActorName> ring;
      for (std::uint64_t position = 0; position < members; ++position) {
        const int worker = static_cast<int>(position % static_cast<std::uint64_t>(engine.worker_count()));
        ring.push_back(engine.spawn_on<Member>(worker, position, members, rounds, result));
      }
      for (std::uint64_t position = 0; position < members; ++position) {
        engine.send(ring[position], ACTION_NEXT, xenon::Payload::of(ring[(position + 1) % members]));
      }
      engine.send(ring[0], ACTION_START);
    }
    const auto started = std::chrono::steady_clock::now();
    engine.run();
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - started;
    if (engine.node_index() != 0) return 0;

    const std::uint64_t expected = members * rounds;
    std::printf("ring: %" PRIu64 " actors on %d worker(s), %" PRIu64 " laps: token passed %" PRIu64
                " times (expected %" PRIu64 ")\n",
                members, engine.worker_count(), rounds, result.hops, expected);
    std::printf("ring: %.1f million hops / s\n",
                static_cast<double>(result.hops) / seconds.count() / 1e6);
    std::printf("messages received: %" PRIu64 "\n", engine.statistics().messages_received);
    if (!result.finished || result.hops != expected) {
      std::fprintf(stderr, "ring: error: the token moved %" PRIu64 " times, expected %" PRIu64 "\n",
                   result.hops, expected);
      return 1;
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "ring: error: %s\n", error.what());
    return 1;
  }
}
