// SPDX-License-Identifier: BSD-3-Clause
// Typed messages: node 0 sends a library catalogue (a struct of strings, a map of vectors and
// an optional) to a counter on the last node, which answers with a summary struct; node 0
// checks the summary against its own count and exits 1 if they differ.
//   build/release/bin/typed_messages
//   mpiexec -n 2 build/release/bin/typed_messages
// (as root on a 2-core machine: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
// mpiexec --oversubscribe --bind-to none -n 2 ...)
#include <cstdint>
#include <cstdio>
#include <exception>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>
#include <xenon/xenon.hpp>

namespace {

inline constexpr xenon::Action ACTION_START{"typed_messages.start"};
inline constexpr xenon::Action ACTION_CATALOGUE{"typed_messages.catalogue"};
inline constexpr xenon::Action ACTION_SUMMARY{"typed_messages.summary"};
inline constexpr const char* kCounterType = "typed_messages.counter";

// The structs the actors exchange: their fields are declared, so they travel in the typed
// encoding, the same bytes on every host.
struct Catalogue {
  std::string owner;
  std::map<std::string, std::vector<std::string>> shelves;  // shelf -> titles
  std::optional<std::string> note;
  static constexpr auto fields =
      xenon::fields(&Catalogue::owner, &Catalogue::shelves, &Catalogue::note);
};

struct Summary {
  std::string counted_on;
  std::map<std::string, std::uint64_t> titles_per_shelf;
  std::uint64_t title_characters = 0;
  bool had_note = false;
  static constexpr auto fields = xenon::fields(&Summary::counted_on, &Summary::titles_per_shelf,
                                               &Summary::title_characters, &Summary::had_note);
  bool operator==(const Summary&) const = default;
};

// What a summary of `catalogue` holds; `where` names the node that counted.
Summary summarise(const Catalogue& catalogue, const std::string& where) {
  Summary summary{where, {}, 0, catalogue.note.has_value()};
  for (const auto& [shelf, titles] : catalogue.shelves) {
    summary.titles_per_shelf[shelf] = titles.size();
    for (const std::string& title : titles) summary.title_characters += title.size();
  }
  return summary;
}

// Spawned by name on the last node; answers a catalogue with its summary and stops.
class Counter : public xenon::Actor {
 public:
  explicit Counter(std::span<const std::byte>) {}
  void receive(const xenon::Message& message) override {
    if (message.action() == ACTION_CATALOGUE) {
      const auto catalogue = message.decode<Catalogue>();
      reply_typed(message, ACTION_SUMMARY,
                  summarise(catalogue, "node " + std::to_string(node_index())));
      stop();
    }
  }
};

// Written by the librarian, read after run(): the run succeeds with exactly one summary that
// matches (none if a decode failed and stopped an actor).
int g_matching_summaries = 0;

class Librarian : public xenon::Actor {
 public:
  void receive(const xenon::Message& message) override {
    if (message.action() == ACTION_START) {
      if (node_count() == 1) std::printf("one node only: the counter is spawned on node 0\n");
      request_spawn(node_count() - 1, 0, kCounterType);
    } else if (message.action() == xenon::ACTION_SPAWNED) {
      catalogue_.owner = "Ada";
      catalogue_.shelves["poetry"] = {"Odes", "Sonnets from the Portuguese"};
      catalogue_.shelves["science"] = {"Principia", "On the Origin of Species", "Opticks"};
      catalogue_.shelves["empty"] = {};
      catalogue_.note = "returned late: Opticks";
      const xenon::Payload payload = xenon::typed_payload(catalogue_);
      std::printf("node %d: catalogue of %zu shelves sent as %zu encoded bytes\n", node_index(),
                  catalogue_.shelves.size(), payload.size());
      send_typed(xenon::SpawnedActor::from(message).name, ACTION_CATALOGUE, catalogue_);
    } else if (message.action() == ACTION_SUMMARY) {
      const auto summary = message.decode<Summary>();
      const Summary expected = summarise(catalogue_, summary.counted_on);
      for (const auto& [shelf, count] : summary.titles_per_shelf) {
        std::printf("node %d: %s: %llu titles\n", node_index(), shelf.c_str(),
                    static_cast<unsigned long long>(count));
      }
      std::printf("node %d: counted on %s: %llu title characters, note %s\n", node_index(),
                  summary.counted_on.c_str(),
                  static_cast<unsigned long long>(summary.title_characters),
                  summary.had_note ? "kept" : "lost");
      if (summary == expected) {
        ++g_matching_summaries;
      } else {
        std::fprintf(stderr, "typed_messages: error: the summary differs from node 0's count\n");
      }
    } else if (message.action() == xenon::ACTION_CHILD_STOPPED) {
      stop();
    }
  }

 private:
  Catalogue catalogue_;
};

}  // namespace

int main(int argc, char** argv) {
  xenon::EngineOptions options;
  xenon::CommandLine command_line(
      "typed_messages",
      "Node 0 sends a catalogue struct to the last node and checks the summary struct it gets back.");
  xenon::add_engine_options(command_line, options);
  try {
    if (!command_line.parse(argc, argv)) return 0;
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "typed_messages: error: %s\n", error.what());
    return 2;
  }
  try {  // the engine throws when it cannot start (threads, memory, MPI)
    xenon::Engine engine(options);
    engine.register_actor_type<Counter>(kCounterType);  // on every node, before run()
    if (engine.node_index() == 0) engine.send(engine.spawn<Librarian>(), ACTION_START);
    engine.run();
    if (engine.node_index() != 0) return 0;
    if (g_matching_summaries != 1) {
      std::fprintf(stderr, "typed_messages: error: no matching summary came back\n");
      return 1;
    }
    std::printf("%d node(s): the summary matches\n", engine.node_count());
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "typed_messages: error: %s\n", error.what());
    return 1;
  }
}
