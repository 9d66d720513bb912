// SPDX-License-Identifier: BSD-3-Clause
// Monitors: an actor on node 0 asks node 1 to spawn a worker by its registered type name,
// watches it, and gives it work; the worker stops with a reason of its own, and node 0
// hears of it: `down: NAME reason: REASON`. Exits 1 if the notice does not come exactly
// once, from that actor, with that reason.
//   mpiexec -n 2 build/release/bin/monitor
// (as root on a 2-core machine: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
// mpiexec --oversubscribe --bind-to none -n 2 ...)
// Started alone, the program is one node and spawns the worker there instead, saying so.
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>
#include <xenon/xenon.hpp>

namespace {

inline constexpr xenon::Action ACTION_START{"monitor.start"};
inline constexpr xenon::Action ACTION_WORK{"monitor.work"};
inline constexpr const char* kWorkerType = "monitor.worker";
inline constexpr const char* kWorkersReason = "work done, nothing left to do";

// Spawned by name on the other node; stops, with its own reason, when given work.
class Worker : public xenon::Actor {
 public:
  explicit Worker(std::span<const std::byte>) {}
  void receive(const xenon::Message& message) override {
    if (message.action() == ACTION_WORK) stop(kWorkersReason);
  }
};

// What the watcher saw, read by main() after run().
struct Outcome {
  xenon::ActorName worker;
  int notices = 0;
  std::string reason;
  xenon::ActorName noticed;
};

class Watcher : public xenon::Actor {
 public:
  explicit Watcher(Outcome& outcome) : outcome_(outcome) {}
  void receive(const xenon::Message& message) override {
    const xenon::Action action = message.action();
    if (action == ACTION_START) {
      const int node = node_count() > 1 ? 1 : 0;
      if (node == 0) std::printf("one node only: the worker is spawned on node 0\n");
      request_spawn(node, 0, kWorkerType);
    } else if (action == xenon::ACTION_SPAWNED) {
      outcome_.worker = xenon::SpawnedActor::from(message).name;
      watch(outcome_.worker);  // travels ahead of the work: it is watched before it can stop
      send(outcome_.worker, ACTION_WORK);
    } else if (action == xenon::ACTION_DOWN) {
      const xenon::DownNotice down = xenon::DownNotice::from(message);
      std::ostringstream name;
      name << down.actor;
      std::printf("down: %s reason: %s\n", name.str().c_str(), down.reason.c_str());
      ++outcome_.notices;
      outcome_.noticed = down.actor;
      outcome_.reason = down.reason;
      stop();
    }
    // ACTION_CHILD_STOPPED: as the requester, it is also the worker's supervisor; the
    // notice says more (the reason).
  }

 private:
  Outcome& outcome_;
};

}  // namespace

int main(int argc, char** argv) {
  xenon::EngineOptions options;
  xenon::CommandLine command_line(
      "monitor", "An actor on node 0 watches an actor on node 1 and hears why it stopped.");
  xenon::add_engine_options(command_line, options);
  try {
    if (!command_line.parse(argc, argv)) return 0;
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "monitor: error: %s\n", error.what());
    return 2;
  }
  try {  // the engine throws when it cannot start (threads, memory, MPI)
    xenon::Engine engine(options);
    engine.register_actor_type<Worker>(kWorkerType);  // on every node, before run()
    Outcome outcome;
    if (engine.node_index() == 0) engine.send(engine.spawn<Watcher>(outcome), ACTION_START);
    engine.run();  // every node: until no actor is alive on any node
    if (engine.node_index() != 0) return 0;
    if (outcome.notices != 1 || outcome.noticed != outcome.worker ||
        outcome.reason != kWorkersReason) {
      std::fprintf(stderr,
                   "monitor: error: expected one notice from the worker with reason '%s', got "
                   "%d (last reason '%s')\n",
                   kWorkersReason, outcome.notices, outcome.reason.c_str());
      return 1;
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "monitor: error: %s\n", error.what());
    return 1;
  }
}
