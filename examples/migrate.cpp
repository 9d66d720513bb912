// SPDX-License-Identifier: BSD-3-Clause
// Moving an actor to another node: a tally on node 0 counts numbered messages from a sender
// on every node; a third of the way through it migrates to node 1, two thirds of the way to
// node 2 (with 3 processes or more), carrying its counts, while the senders keep sending to
// its unchanged name. It checks that every message came exactly once and in each sender's
// order; node 0 exits 1 if not, and every node if a message was lost (a dead letter).
//   mpiexec -n 2 build/release/bin/migrate
//   mpiexec -n 3 build/release/bin/migrate -messages 50000
// (as root on a 2-core machine: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
// mpiexec --oversubscribe --bind-to none -n 2 ...)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <span>
#include <string>
#include <vector>
#include <xenon/xenon.hpp>

namespace {

inline constexpr xenon::Action ACTION_START{"migrate.start"};
inline constexpr xenon::Action ACTION_NUMBER{"migrate.number"};
inline constexpr xenon::Action ACTION_SEND_MORE{"migrate.send-more"};
inline constexpr xenon::Action ACTION_DONE{"migrate.done"};
inline constexpr xenon::Action ACTION_RESULT{"migrate.result"};
inline constexpr const char* kTallyType = "migrate.tally";
inline constexpr const char* kSenderType = "migrate.sender";
constexpr std::uint64_t kNumbersPerTurn = 100;

// Everything the tally carries from node to node.
struct TallyState {
  xenon::ActorName report_to;  // where the result goes
  std::uint64_t numbers_per_sender = 0;
  std::vector<std::uint64_t> next_expected;  // by sender (= its node)
  std::uint64_t received = 0;
  std::uint64_t out_of_order = 0;
  std::uint32_t senders_done = 0;
  std::vector<std::uint32_t> nodes_visited;
  static constexpr auto fields =
      xenon::fields(&TallyState::report_to, &TallyState::numbers_per_sender,
                    &TallyState::next_expected, &TallyState::received, &TallyState::out_of_order,
                    &TallyState::senders_done, &TallyState::nodes_visited);
};

struct Number {
  std::uint32_t sender;
  std::uint64_t sequence;
};

struct SenderArguments {
  xenon::ActorName tally;
  std::uint64_t numbers = 0;
  static constexpr auto fields = xenon::fields(&SenderArguments::tally, &SenderArguments::numbers);
};

struct Result {
  bool every_number_once_in_order = false;
  std::uint64_t received = 0;
  std::vector<std::uint32_t> nodes_visited;
  static constexpr auto fields =
      xenon::fields(&Result::every_number_once_in_order, &Result::received, &Result::nodes_visited);
};

class Tally : public xenon::MigratableActor<TallyState> {
 public:
  explicit Tally(TallyState state) : MigratableActor(std::move(state)) {}
  explicit Tally(std::span<const std::byte> encoded) : MigratableActor(encoded) {}

  void receive(const xenon::Message& message) override {
    TallyState& tally = state();
    if (tally.nodes_visited.empty() ||
        tally.nodes_visited.back() != static_cast<std::uint32_t>(node_index())) {
      tally.nodes_visited.push_back(static_cast<std::uint32_t>(node_index()));
    }
    if (message.action() == ACTION_NUMBER) {
      const auto number = message.decode<Number>();
      if (number.sequence != tally.next_expected.at(number.sender)) ++tally.out_of_order;
      tally.next_expected[number.sender] = number.sequence + 1;
      ++tally.received;
      move_on_when_due();
    } else if (message.action() == ACTION_DONE) {
      if (++tally.senders_done < tally.next_expected.size()) return;
      bool complete = tally.out_of_order == 0;
      for (std::uint64_t next : tally.next_expected) complete &= next == tally.numbers_per_sender;
      send_typed(tally.report_to, ACTION_RESULT,
                 Result{complete, tally.received, tally.nodes_visited});
      stop();
    }
  }

 private:
  // A third of the way: to node 1; two thirds: to node 2, if there is one.
  void move_on_when_due() {
    const TallyState& tally = state();
    const std::uint64_t all = tally.numbers_per_sender * tally.next_expected.size();
    const auto next = static_cast<int>(tally.nodes_visited.size());  // nodes 0, 1, 2 in turn
    if (next < node_count() && next <= 2 &&
        tally.received * 3 >= all * static_cast<std::uint64_t>(next)) {
      std::printf("tally: %llu of %llu numbers counted on node %d; migrating to node %d\n",
                  static_cast<unsigned long long>(tally.received),
                  static_cast<unsigned long long>(all), node_index(), next);
      migrate(next);
    }
  }
};

// Sends its numbers to the tally, kNumbersPerTurn per turn, then a done.
class Sender : public xenon::Actor {
 public:
  explicit Sender(std::span<const std::byte> arguments)
      : arguments_(xenon::typed_payload_value<SenderArguments>(arguments)) {}

  void receive(const xenon::Message& message) override {
    if (!(message.action() == ACTION_SEND_MORE)) return;
    for (std::uint64_t n = 0; n < kNumbersPerTurn && next_ < arguments_.numbers; ++n) {
      send_typed(arguments_.tally, ACTION_NUMBER,
                 Number{static_cast<std::uint32_t>(node_index()), next_++});
    }
    if (next_ < arguments_.numbers) {
      send(self(), ACTION_SEND_MORE);
      return;
    }
    send(arguments_.tally, ACTION_DONE);
    stop();
  }

 private:
  SenderArguments arguments_;
  std::uint64_t next_ = 0;
};

bool g_success = false;

// On node 0: spawns the tally here and a sender on every node, and checks the result.
class Coordinator : public xenon::Actor {
 public:
  explicit Coordinator(std::uint64_t numbers) : numbers_(numbers) {}

  void receive(const xenon::Message& message) override {
    if (message.action() == ACTION_START) {
      TallyState state;
      state.report_to = self();
      state.numbers_per_sender = numbers_;
      state.next_expected.assign(static_cast<std::size_t>(node_count()), 0);
      tally_ = spawn<Tally>(std::move(state));
      for (int node = 0; node < node_count(); ++node) {
        request_spawn(node, 0, kSenderType,
                      xenon::typed_payload(SenderArguments{tally_, numbers_}));
      }
    } else if (message.action() == xenon::ACTION_SPAWNED) {
      send(xenon::SpawnedActor::from(message).name, ACTION_SEND_MORE);
    } else if (message.action() == ACTION_RESULT) {
      const auto result = message.decode<Result>();
      std::string visited;
      for (std::uint32_t node : result.nodes_visited) visited += " " + std::to_string(node);
      std::printf("tally: %llu numbers, every one once and in order: %s; nodes visited:%s\n",
                  static_cast<unsigned long long>(result.received),
                  result.every_number_once_in_order ? "yes" : "no", visited.c_str());
      const std::size_t hops = std::min<std::size_t>(static_cast<std::size_t>(node_count()), 3);
      g_success = result.every_number_once_in_order &&
                  result.received == numbers_ * static_cast<std::uint64_t>(node_count()) &&
                  result.nodes_visited.size() == hops;
    } else if (message.action() == xenon::ACTION_CHILD_STOPPED) {
      if (++children_stopped_ == node_count() + 1) stop();
    }
  }

 private:
  std::uint64_t numbers_;
  xenon::ActorName tally_;
  int children_stopped_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  xenon::EngineOptions options;
  std::uint64_t numbers = 20000;
  xenon::CommandLine command_line(
      "migrate",
      "A tally migrates from node 0 to node 1 (and 2) while every node sends it numbers; "
      "checks that each came once, in order.");
  command_line.add_unsigned("messages", &numbers, "numbers each node's sender sends");
  xenon::add_engine_options(command_line, options);
  try {
    if (!command_line.parse(argc, argv)) return 0;
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "migrate: error: %s\n", error.what());
    return 2;
  }
  try {  // the engine throws when it cannot start (threads, memory, MPI)
    xenon::Engine engine(options);
    if (engine.node_count() < 2) {
      std::fprintf(stderr, "migrate: error: needs 2 or more nodes (mpiexec -n 2)\n");
      return 2;
    }
    engine.register_actor_type<Tally>(kTallyType);  // on every node, before run()
    engine.register_actor_type<Sender>(kSenderType);
    if (engine.node_index() == 0) engine.send(engine.spawn<Coordinator>(numbers), ACTION_START);
    engine.run();
    const xenon::EngineStatistics statistics = engine.statistics();
    std::printf("node %d: actors migrated out %llu, in %llu\n", engine.node_index(),
                static_cast<unsigned long long>(statistics.actors_migrated_out),
                static_cast<unsigned long long>(statistics.actors_migrated_in));
    if (statistics.dead_letters != 0) {  // a forwarded message that found no actor
      std::fprintf(stderr, "migrate: error: node %d: %llu dead letters\n", engine.node_index(),
                   static_cast<unsigned long long>(statistics.dead_letters));
      return 1;
    }
    if (engine.node_index() != 0) return 0;
    if (!g_success) {
      std::fprintf(stderr, "migrate: error: the tally lost, repeated or reordered numbers\n");
      return 1;
    }
    std::printf("%d nodes: every number counted once, in order, across the moves\n",
                engine.node_count());
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "migrate: error: %s\n", error.what());
    return 1;
  }
}
