// SPDX-License-Identifier: BSD-3-Clause
// Two actors play ping-pong on two workers, then stop; the program ends when no actor is
// alive. Build: make; run: build/release/bin/ping_pair -threads-per-node 3
#include <cstdio>
#include <exception>

#include <xenon/xenon.hpp>

inline constexpr xenon::Action ACTION_START{"example.start"};
inline constexpr xenon::Action ACTION_PING{"example.ping"};
inline constexpr xenon::Action ACTION_PONG{"example.pong"};

class Ponger : public xenon::Actor {
 public:
  void receive(const xenon::Message& message) override {
    if (message.action() == ACTION_PING) {
      const auto count = message.payload_as<int>();
      reply(message, ACTION_PONG, xenon::Payload::of(count));
      if (count == 3) stop();  // its supervisor hears of it
    }
  }
};

class Pinger : public xenon::Actor {
 public:
  void receive(const xenon::Message& message) override {
    if (message.action() == ACTION_START) {
      // On the last worker: with -threads-per-node 3 that is the other worker.
      const xenon::ActorName ponger = spawn_on<Ponger>(worker_count() - 1);
      send_value(ponger, ACTION_PING, 1);
    } else if (message.action() == ACTION_PONG) {
      const auto count = message.payload_as<int>();
      std::printf("pong %d from actor on worker %u\n", count, message.source().worker());
      if (count < 3) send_value(message.source(), ACTION_PING, count + 1);
    } else if (message.action() == xenon::ACTION_CHILD_STOPPED) {
      std::printf("ponger stopped; stopping too\n");
      stop();
    }
  }
};

int main(int argc, char** argv) {
  xenon::EngineOptions options;
  xenon::CommandLine command_line("ping_pair", "Two actors play ping-pong.");
  xenon::add_engine_options(command_line, options);
  try {
    if (!command_line.parse(argc, argv)) return 0;
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "ping_pair: error: %s\n", error.what());
    return 2;
  }
  try {  // the engine throws when it cannot start (threads, memory, MPI)
    xenon::Engine engine(options);
    engine.send(engine.spawn<Pinger>(), ACTION_START);
    engine.run();  // returns when no actor is alive
    std::printf("messages received: %llu\n",
                static_cast<unsigned long long>(engine.statistics().messages_received));
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "ping_pair: error: %s\n", error.what());
    return 1;
  }
}
