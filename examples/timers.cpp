// SPDX-License-Identifier: BSD-3-Clause
// Timers: a metronome on node 0 ticks every 10 ms to a listener on the last node, is
// cancelled once the listener has heard five ticks, and a one-shot timer stops the listener
// 50 ms later. The listener answers the stop with how many ticks it heard, which must be
// every tick that fired (a timer's message is an ordinary send: none lost, in order).
//   mpiexec -n 2 build/release/bin/timers      (or alone: one node, the listener on its
//                                               last worker)
// Exits 1 if a tick was lost or the stop came early.
#include <chrono>
#include <cstdio>
#include <exception>
#include <xenon/xenon.hpp>

namespace {

using namespace std::chrono_literals;

inline constexpr xenon::Action ACTION_START{"timers.start"};
inline constexpr xenon::Action ACTION_TICK{"timers.tick"};
inline constexpr xenon::Action ACTION_HEARD_FIVE{"timers.heard-five"};
inline constexpr xenon::Action ACTION_STOP{"timers.stop"};
inline constexpr xenon::Action ACTION_TICKS_HEARD{"timers.ticks-heard"};
inline constexpr const char* kListenerType = "timers.listener";

struct Outcome {  // node 0's, read after run()
  int ticks_heard = -1;
  double stop_after_ms = 0;
} g_outcome;

class Listener : public xenon::Actor {
 public:
  explicit Listener(std::span<const std::byte>) {}
  void receive(const xenon::Message& message) override {
    if (message.action() == ACTION_TICK) {
      if (++ticks_ == 5) reply(message, ACTION_HEARD_FIVE);
    } else if (message.action() == ACTION_STOP) {
      reply(message, ACTION_TICKS_HEARD, xenon::Payload::of(ticks_));
      stop();
    }
  }

 private:
  int ticks_ = 0;
};

class Conductor : public xenon::Actor {
 public:
  void receive(const xenon::Message& message) override {
    const xenon::Action action = message.action();
    if (action == ACTION_START) {
      request_spawn(node_count() - 1, worker_count() - 1, kListenerType);
    } else if (action == xenon::ACTION_SPAWNED) {
      listener_ = xenon::SpawnedActor::from(message).name;
      metronome_ = send_every(10ms, listener_, ACTION_TICK);
    } else if (action == ACTION_HEARD_FIVE) {
      const bool cancelled = cancel_timer(metronome_);
      std::printf("node 0: listener on node %u heard 5 ticks; metronome %s\n", listener_.node(),
                  cancelled ? "cancelled" : "NOT CANCELLED");
      stop_set_ = xenon::MonotonicClock::now();
      send_after(50ms, listener_, ACTION_STOP);
    } else if (action == ACTION_TICKS_HEARD) {
      g_outcome.ticks_heard = message.payload_as<int>();
      g_outcome.stop_after_ms =
          std::chrono::duration<double, std::milli>(xenon::MonotonicClock::now() - stop_set_)
              .count();
      stop();
    }
  }

 private:
  xenon::ActorName listener_;
  xenon::TimerId metronome_;
  xenon::MonotonicClock::time_point stop_set_;
};

}  // namespace

int main(int argc, char** argv) {
  xenon::EngineOptions options;
  xenon::CommandLine command_line(
      "timers", "A metronome on node 0 ticks to a listener on the last node until cancelled.");
  xenon::add_engine_options(command_line, options);
  try {
    if (!command_line.parse(argc, argv)) return 0;
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "timers: error: %s\n", error.what());
    return 2;
  }
  try {  // the engine throws when it cannot start (threads, memory, MPI)
    xenon::Engine engine(options);
    engine.register_actor_type<Listener>(kListenerType);  // on every node, before run()
    if (engine.node_index() == 0) engine.send(engine.spawn<Conductor>(), ACTION_START);
    engine.run();
    if (engine.node_index() != 0) return 0;
    // Node 0's timers: the metronome's ticks and the one-shot stop.
    const auto ticks_sent = static_cast<long long>(engine.statistics().timers_fired) - 1;
    std::printf("node 0: %lld ticks sent, %d heard; the stop arrived %.1f ms after it was set\n",
                ticks_sent, g_outcome.ticks_heard, g_outcome.stop_after_ms);
    if (g_outcome.ticks_heard != ticks_sent || ticks_sent < 5 || g_outcome.stop_after_ms < 50) {
      std::fprintf(stderr, "timers: error: ticks lost or the stop came too early\n");
      return 1;
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "timers: error: %s\n", error.what());
    return 1;
  }
}
