// SPDX-License-Identifier: BSD-3-Clause
// Request and response: an actor on node 0 asks an oracle on the last node two things. The
// question is answered (handled in a continuation); the riddle is answered only after 300
// ms, so its 100 ms timeout comes first, to receive(), as ACTION_ASK_TIMEOUT naming the
// request, and the late answer is dropped and counted. Then the oracle stops, and the
// asker with it.
//   mpiexec -n 2 build/release/bin/ask      (or alone: one node, the oracle on its last
//                                            worker)
// Exits 1 if the answer is wrong, or the timeout or the late answer did not come once.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <xenon/xenon.hpp>

namespace {

using namespace std::chrono_literals;

inline constexpr xenon::Action ACTION_START{"ask.start"};
inline constexpr xenon::Action ACTION_QUESTION{"ask.question"};
inline constexpr xenon::Action ACTION_ANSWER{"ask.answer"};
inline constexpr xenon::Action ACTION_RIDDLE{"ask.riddle"};
inline constexpr xenon::Action ACTION_THOUGHT{"ask.thought"};
inline constexpr const char* kOracleType = "ask.oracle";

struct Outcome {  // node 0's, read after run()
  int answer = 0;
  int timeouts = 0;
} g_outcome;

// Doubles the number in a question, with reply(); thinks 300 ms about a riddle, answers
// it then (to the request's reply address, its source), and stops.
class Oracle : public xenon::Actor {
 public:
  explicit Oracle(std::span<const std::byte>) {}
  void receive(const xenon::Message& message) override {
    if (message.action() == ACTION_QUESTION) {
      reply(message, ACTION_ANSWER, xenon::Payload::of(2 * message.payload_as<int>()));
    } else if (message.action() == ACTION_RIDDLE) {
      riddler_ = message.source();
      send_after(300ms, self(), ACTION_THOUGHT);
    } else if (message.action() == ACTION_THOUGHT) {
      send(riddler_, ACTION_ANSWER, xenon::Payload::of(0));
      stop();  // its supervisor, the asker, hears of it after the late answer
    }
  }

 private:
  xenon::ActorName riddler_;
};

class Asker : public xenon::Actor {
 public:
  void receive(const xenon::Message& message) override {
    const xenon::Action action = message.action();
    if (action == ACTION_START) {
      request_spawn(node_count() - 1, worker_count() - 1, kOracleType);
    } else if (action == xenon::ACTION_SPAWNED) {
      oracle_ = xenon::SpawnedActor::from(message).name;
      ask(oracle_, ACTION_QUESTION, xenon::Payload::of(21), 10s,
          [this](const xenon::Message& answer) {
            if (answer.action() == xenon::ACTION_ASK_TIMEOUT) {
              std::printf("node 0: question: no answer within 10 s\n");
            } else {
              g_outcome.answer = answer.payload_as<int>();
              std::printf("node 0: question: answer %d from node %u\n", g_outcome.answer,
                          answer.source().node());
            }
          });
      riddle_ = ask(oracle_, ACTION_RIDDLE, {}, 100ms);  // the answer comes to receive()
    } else if (action == xenon::ACTION_ASK_TIMEOUT) {
      ++g_outcome.timeouts;
      std::printf("node 0: riddle: no answer within 100 ms (request %s)\n",
                  xenon::ask_request(message) == riddle_ ? "named" : "WRONG");
    } else if (action == xenon::ACTION_CHILD_STOPPED) {
      stop();
    }
  }

 private:
  xenon::ActorName oracle_;
  std::uint64_t riddle_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  xenon::EngineOptions options;
  xenon::CommandLine command_line(
      "ask", "An actor on node 0 asks an oracle on the last node, with timeouts.");
  xenon::add_engine_options(command_line, options);
  try {
    if (!command_line.parse(argc, argv)) return 0;
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "ask: error: %s\n", error.what());
    return 2;
  }
  try {  // the engine throws when it cannot start (threads, memory, MPI)
    xenon::Engine engine(options);
    engine.register_actor_type<Oracle>(kOracleType);  // on every node, before run()
    if (engine.node_index() == 0) engine.send(engine.spawn<Asker>(), ACTION_START);
    engine.run();
    if (engine.node_index() != 0) return 0;
    const auto late = engine.statistics().late_responses;
    std::printf("node 0: late responses dropped: %llu\n", static_cast<unsigned long long>(late));
    if (g_outcome.answer != 42 || g_outcome.timeouts != 1 || late != 1) {
      std::fprintf(
          stderr,
          "ask: error: wrong answer, or the timeout or the late answer did not come once\n");
      return 1;
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "ask: error: %s\n", error.what());
    return 1;
  }
}
