// SPDX-License-Identifier: BSD-3-Clause
// Two nodes: an actor on node 0 asks node 1 to spawn an actor by its registered type name,
// sends it a question, prints the answer, and both stop. Every node runs this same program
// and registers the type before run().
//   mpiexec -n 2 build/release/bin/two_nodes
// (as root on a 2-core machine: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
// mpiexec --oversubscribe --bind-to none -n 2 ...)
// Started alone, the program is one node and spawns the actor there instead, saying so.
#include <cstdio>
#include <exception>
#include <span>
#include <string>
#include <xenon/xenon.hpp>

namespace {

inline constexpr xenon::Action ACTION_START{"two_nodes.start"};
inline constexpr xenon::Action ACTION_QUESTION{"two_nodes.question"};
inline constexpr xenon::Action ACTION_ANSWER{"two_nodes.answer"};
inline constexpr const char* kAnswererType = "two_nodes.answerer";

xenon::Payload text_payload(const std::string& text) {
  return xenon::Payload::copy_of(std::as_bytes(std::span(text)));
}
std::string payload_text(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// Spawned by name on the other node; built from its argument bytes (a signature).
class Answerer : public xenon::Actor {
 public:
  explicit Answerer(std::span<const std::byte> arguments) : signature_(payload_text(arguments)) {}

  void receive(const xenon::Message& message) override {
    if (message.action() == ACTION_QUESTION) {
      reply(message, ACTION_ANSWER,
            text_payload("'" + payload_text(message.payload()) + "' answered on node " +
                         std::to_string(node_index()) + " by " + signature_));
      stop();  // its supervisor, the asker on node 0, hears of it
    }
  }

 private:
  std::string signature_;
};

class Asker : public xenon::Actor {
 public:
  void receive(const xenon::Message& message) override {
    const xenon::Action action = message.action();
    if (action == ACTION_START) {
      const int node = node_count() > 1 ? 1 : 0;
      if (node == 0) std::printf("one node only: the answerer is spawned on node 0\n");
      request_spawn(node, 0, kAnswererType, text_payload("the answerer"));
    } else if (action == xenon::ACTION_SPAWNED) {
      const xenon::SpawnedActor spawned = xenon::SpawnedActor::from(message);
      std::printf("node %d: spawned %s on node %u\n", node_index(), kAnswererType,
                  spawned.name.node());
      send(spawned.name, ACTION_QUESTION, text_payload("hello from node 0"));
    } else if (action == ACTION_ANSWER) {
      std::printf("node %d: answer: %s\n", node_index(), payload_text(message.payload()).c_str());
    } else if (action == xenon::ACTION_CHILD_STOPPED) {
      std::printf("node %d: answerer stopped; stopping too\n", node_index());
      stop();
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  xenon::EngineOptions options;
  xenon::CommandLine command_line(
      "two_nodes", "An actor on node 0 spawns an actor on node 1 by name and asks it a question.");
  xenon::add_engine_options(command_line, options);
  try {
    if (!command_line.parse(argc, argv)) return 0;
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "two_nodes: error: %s\n", error.what());
    return 2;
  }
  try {  // the engine throws when it cannot start (threads, memory, MPI)
    xenon::Engine engine(options);
    engine.register_actor_type<Answerer>(kAnswererType);  // on every node, before run()
    if (engine.node_index() == 0) engine.send(engine.spawn<Asker>(), ACTION_START);
    engine.run();  // every node: until no actor is alive on any node
    if (engine.node_index() == 0) {
      std::printf("%d node(s), run ended\n", engine.node_count());
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "two_nodes: error: %s\n", error.what());
    return 1;
  }
}
