// SPDX-License-Identifier: BSD-3-Clause
// mpi_scenarios: multi-process checks of the runtime, run by tests/mpi/mpi_test.cpp under
// `mpiexec -n P`. Every process runs the same scenario; node 0 checks and reports, and exits
// non-zero when any count, order or byte is wrong.
//
//   ordering   every sender on every worker of every node sends K numbered messages to a
//              receiver on every node: each arrives once and in order per sender.
//   payloads   payloads of 0 B to 64 MiB go to the last node and back, checksummed, one at a
//              time; then a burst of numbered payloads of mixed sizes (small ones in frames,
//              large ones as attachments, in flight together) comes back whole and in order.
//   typed      records in the typed encoding (strings, maps of vectors, optionals, names; up
//              to 200 KiB) go to the last node, built from a typed spawn argument, and back
//              whole and in order.
//   spawn      actors spawned by name on every worker of every node: their names say where
//              they live, they answer by name, and their supervisor hears when they stop.
//   idle       node 0's only actor stops at once; nodes without actors end with it.
//   crash      node P-1 kills itself with SIGKILL mid-run: the job must end, not hang.
//   monitors   node 0 watches actors on node P-1: one that stops with its own reason, one
//              already stopped, a name never spawned, a worker that does not exist.
//   unknown-type   node 0 asks node P-1 to spawn a type it never registered, mid-run: node
//              P-1's engine fails, and must end the job with its reason.
//   stopped    node P-1 stops itself with SIGSTOP mid-run: a heartbeat must notice, node 0's
//              watcher of an actor there hear of it (printed), and the job end naming it.
//   early-error    node P-1 spawns on a worker it does not have, before run(): the exception
//              leaves its engine, and the job must end rather than wait for it.
//   long-turn  node 0's root sends a mark to node P-1, then its worker runs a long turn of
//              another actor, which waits (up to 30 s) for the file node P-1 writes when the
//              mark arrives: the mark must leave before that turn ends, not with the round.
//   hand-on    the same, but the mark is sent by a later turn of the round (the root's turn
//              sent off the node first), which waits for the end of the round: the long turn
//              hands it on first (Actor::hand_on_sent_messages).
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <span>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <xenon/xenon.hpp>

namespace {

using xenon::Action;
using xenon::ActorName;
using xenon::Message;
using xenon::Payload;

inline constexpr Action ACTION_START{"scenario.start"};
inline constexpr Action ACTION_SEQUENCE{"scenario.sequence"};
inline constexpr Action ACTION_SENT_ALL{"scenario.sent-all"};
inline constexpr Action ACTION_COUNTS{"scenario.counts"};
inline constexpr Action ACTION_STOP{"scenario.stop"};
inline constexpr Action ACTION_ECHO{"scenario.echo"};
inline constexpr Action ACTION_BURST{"scenario.burst"};
inline constexpr Action ACTION_WHO{"scenario.who"};

int g_failures = 0;  // node 0 only (written by its root actor, read after run())

void fail(const std::string& what) {
  std::fprintf(stderr, "mpi_scenarios: FAILED: %s\n", what.c_str());
  ++g_failures;
}

std::uint64_t checksum(std::span<const std::byte> bytes) {
  std::uint64_t sum = 1469598103934665603ULL;
  for (std::byte b : bytes) sum = (sum ^ std::to_integer<std::uint64_t>(b)) * 1099511628211ULL;
  return sum;
}

template <class T>
T read_value(std::span<const std::byte> bytes, std::size_t index = 0) {
  T value;
  std::memcpy(&value, bytes.data() + index * sizeof(T), sizeof(T));
  return value;
}

// ---- ordering ----

constexpr std::uint64_t kSequenceLength = 20000;

struct Counts {
  std::uint64_t received;
  std::uint64_t out_of_order;
  std::uint64_t senders;
};

// Built from the number of messages it expects; reports to its supervisor once it has them
// all (a lost message leaves the job hanging until mpiexec's timeout fails it), and fails
// its node if any more arrive before it is stopped.
class Receiver final : public xenon::Actor {
 public:
  explicit Receiver(std::span<const std::byte> expected)
      : expected_(read_value<std::uint64_t>(expected)) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_SEQUENCE) {
      const auto sequence = message.payload_as<std::uint64_t>();
      std::uint64_t& next = next_[message.source()];
      if (sequence != next) ++out_of_order_;
      next = sequence + 1;
      if (++received_ == expected_) {
        send(supervisor(), ACTION_COUNTS,
             Payload::of(Counts{received_, out_of_order_, static_cast<std::uint64_t>(next_.size())}));
      }
    } else if (message.action() == ACTION_STOP) {
      if (received_ != expected_) {
        fail("node " + std::to_string(node_index()) + ": receiver got " +
             std::to_string(received_) + " messages, expected " + std::to_string(expected_));
      }
      stop();
    }
  }

 private:
  const std::uint64_t expected_;
  std::map<ActorName, std::uint64_t> next_;
  std::uint64_t received_ = 0;
  std::uint64_t out_of_order_ = 0;
};

// Built from the receivers' names; sends its whole sequence to each, interleaved.
class Sender final : public xenon::Actor {
 public:
  explicit Sender(std::span<const std::byte> receivers) {
    for (std::size_t i = 0; i < receivers.size() / sizeof(ActorName); ++i) {
      receivers_.push_back(read_value<ActorName>(receivers, i));
    }
  }
  void receive(const Message& message) override {
    if (message.action() != ACTION_START) return;
    for (std::uint64_t i = 0; i < kSequenceLength; ++i) {
      for (ActorName receiver : receivers_) send_value(receiver, ACTION_SEQUENCE, i);
    }
    reply(message, ACTION_SENT_ALL);
    stop();
  }

 private:
  std::vector<ActorName> receivers_;
};

class OrderingRoot final : public xenon::Actor {
 public:
  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_START) {
      senders_expected_ = static_cast<std::uint64_t>(node_count() * worker_count() * 2);
      for (int node = 0; node < node_count(); ++node) {
        kinds_[request_spawn(node, worker_count() - 1, "scenario.receiver",
                             Payload::of(senders_expected_ * kSequenceLength))] = 'r';
      }
    } else if (action == xenon::ACTION_SPAWNED) {
      const auto spawned = xenon::SpawnedActor::from(message);
      if (kinds_.at(spawned.request) == 'r') {
        receivers_.push_back(spawned.name);
        if (receivers_.size() == static_cast<std::size_t>(node_count())) spawn_senders();
      } else {
        ++senders_ready_;
        send(spawned.name, ACTION_START);
      }
    } else if (action == ACTION_SENT_ALL) {
      ++senders_done_;
    } else if (action == ACTION_COUNTS) {
      const auto counts = message.payload_as<Counts>();
      const std::uint64_t expected = senders_expected_ * kSequenceLength;
      if (counts.received != expected) {
        fail("receiver got " + std::to_string(counts.received) + " messages, expected " +
             std::to_string(expected));
      }
      if (counts.out_of_order != 0) fail(std::to_string(counts.out_of_order) + " out of order");
      if (counts.senders != senders_expected_) fail("receiver heard from too few senders");
      if (++reports_ == receivers_.size()) {
        if (senders_done_ != senders_expected_) fail("not every sender said it was done");
        std::printf("ordering: %zu receivers each got %" PRIu64 " messages from %" PRIu64
                    " senders, in order\n",
                    receivers_.size(), expected, senders_expected_);
        for (ActorName receiver : receivers_) send(receiver, ACTION_STOP);
      }
    } else if (action == xenon::ACTION_CHILD_STOPPED) {
      if (++stopped_ == senders_expected_ + receivers_.size()) stop();
    }
  }

 private:
  void spawn_senders() {
    const Payload names = Payload::copy_of(std::as_bytes(std::span(receivers_)));
    for (int node = 0; node < node_count(); ++node) {
      for (int worker = 0; worker < worker_count(); ++worker) {
        for (int i = 0; i < 2; ++i) {
          kinds_[request_spawn(node, worker, "scenario.sender", names.share())] = 's';
        }
      }
    }
  }

  std::map<std::uint64_t, char> kinds_;
  std::vector<ActorName> receivers_;
  std::uint64_t senders_expected_ = 0, senders_ready_ = 0, senders_done_ = 0;
  std::size_t reports_ = 0, stopped_ = 0;
};

// ---- payloads ----

class Echo final : public xenon::Actor {
 public:
  explicit Echo(std::span<const std::byte>) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_ECHO || message.action() == ACTION_BURST) {
      reply(message, message.action(), message.share_payload());
    } else if (message.action() == ACTION_STOP) {
      stop();
    }
  }
};

class PayloadRoot final : public xenon::Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      request_spawn(node_count() - 1, 0, "scenario.echo");
    } else if (message.action() == xenon::ACTION_SPAWNED) {
      echo_ = xenon::SpawnedActor::from(message).name;
      send_next();
    } else if (message.action() == ACTION_ECHO) {
      const std::size_t size = kSizes[next_ - 1];
      if (message.payload_size() != size) {
        fail("payload of " + std::to_string(size) + " bytes came back with " +
             std::to_string(message.payload_size()));
      } else if (checksum(message.payload()) != expected_) {
        fail("payload of " + std::to_string(size) + " bytes came back changed");
      }
      if (next_ < std::size(kSizes)) {
        send_next();
      } else {
        std::printf("payloads: %zu sizes up to %zu bytes crossed nodes intact\n", std::size(kSizes),
                    kSizes[std::size(kSizes) - 1]);
        for (std::uint64_t index = 0; index < kBurst; ++index) {
          send(echo_, ACTION_BURST, numbered_payload(index));
        }
      }
    } else if (message.action() == ACTION_BURST) {
      const std::uint64_t index = burst_returned_++;
      if (message.payload_size() != burst_size(index) ||
          message.payload_size() < sizeof(index) || read_value<std::uint64_t>(message.payload()) != index) {
        fail("burst payload " + std::to_string(index) + " came back out of order or resized");
      } else if (checksum(message.payload()) != checksum(numbered_payload(index).bytes())) {
        fail("burst payload " + std::to_string(index) + " came back changed");
      }
      if (burst_returned_ == kBurst) {
        std::printf("payloads: a burst of %" PRIu64 " payloads of mixed sizes came back in order\n",
                    kBurst);
        send(echo_, ACTION_STOP);
      }
    } else if (message.action() == xenon::ACTION_CHILD_STOPPED) {
      stop();
    }
  }

 private:
  static constexpr std::size_t kSizes[] = {0,         1,           40,          41,
                                           4096,      65000,       64 * 1024 + 1, 1 << 20,
                                           16 << 20,  64 << 20};
  void send_next() {
    const std::size_t size = kSizes[next_++];
    Payload payload = Payload::with_size(size);
    std::span<std::byte> bytes = payload.writable_bytes();
    std::uint64_t state = size * 2654435761u + 1;
    for (std::byte& b : bytes) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      b = static_cast<std::byte>(state >> 56);
    }
    expected_ = checksum(payload.bytes());
    send(echo_, ACTION_ECHO, std::move(payload));
  }

  // The burst, numbered in the payloads' first 8 bytes: first sizes on both sides of the
  // attachment threshold (32 KiB), then a run just under it, whose frames (two or more
  // records) outgrow a posted receive (64 KiB) and travel as large frames.
  static constexpr std::uint64_t kBurst = 120;
  static std::size_t burst_size(std::uint64_t index) {
    constexpr std::size_t kBurstSizes[] = {8, 40000, 100, 300000, 16, 1 << 20, 32767, 70000};
    return index < kBurst / 2 ? kBurstSizes[index % std::size(kBurstSizes)] : 32767;
  }
  static Payload numbered_payload(std::uint64_t index) {
    Payload payload = Payload::with_size(burst_size(index));
    std::span<std::byte> bytes = payload.writable_bytes();
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      bytes[i] = static_cast<std::byte>((i * 31 + index * 7) >> 3);
    }
    std::memcpy(bytes.data(), &index, sizeof(index));
    return payload;
  }

  ActorName echo_;
  std::size_t next_ = 0;
  std::uint64_t expected_ = 0;
  std::uint64_t burst_returned_ = 0;
};

// ---- traffic between nodes (EngineStatistics::node_matrix) ----

// Sends kTrafficMessages echoes to the last node in one receive() (aggregated into few
// frames), waits for every reply, and stops the echo; main() then checks node 0's matrix.
inline constexpr std::uint64_t kTrafficMessages = 1000;

class TrafficRoot final : public xenon::Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      begin_phase("spawning");
      request_spawn(node_count() - 1, 0, "scenario.echo");
    } else if (message.action() == xenon::ACTION_SPAWNED) {
      begin_phase("echoes");
      echo_ = xenon::SpawnedActor::from(message).name;
      for (std::uint64_t i = 0; i < kTrafficMessages; ++i) send_value(echo_, ACTION_ECHO, i);
    } else if (message.action() == ACTION_ECHO && ++replies_ == kTrafficMessages) {
      send(echo_, ACTION_STOP);
      stop();
    }
  }

 private:
  ActorName echo_;
  std::uint64_t replies_ = 0;
};

// Node 0, after run(): every node's row arrived, and the rows agree with what node 0 saw.
void check_node_matrix(const xenon::Engine& engine, const xenon::EngineStatistics& statistics) {
  const auto nodes = static_cast<std::size_t>(engine.node_count());
  const auto& matrix = statistics.node_matrix;
  if (matrix.size() != nodes) {
    fail("node matrix has " + std::to_string(matrix.size()) + " rows for " + std::to_string(nodes) + " nodes");
    return;
  }
  std::uint64_t frames_to_node_0 = 0;
  for (std::size_t from = 0; from < nodes; ++from) {
    if (matrix[from].size() != nodes) fail("node matrix row " + std::to_string(from) + " is incomplete");
    if (matrix[from][from].frames != 0) fail("a node sent frames to itself");
    frames_to_node_0 += matrix[from][0].frames;
  }
  if (frames_to_node_0 != statistics.frames_received) {
    fail("the rows say " + std::to_string(frames_to_node_0) + " frames went to node 0, which received " +
         std::to_string(statistics.frames_received));
  }
  const xenon::NodePairTraffic& out = matrix[0][nodes - 1];
  const xenon::NodePairTraffic& back = matrix[nodes - 1][0];
  if (out.messages < kTrafficMessages || back.messages < kTrafficMessages) {
    fail("node matrix: " + std::to_string(out.messages) + " messages out and " +
         std::to_string(back.messages) + " back, fewer than the " + std::to_string(kTrafficMessages) + " echoes");
  }
  if (out.aggregation() <= 1.0 || out.bytes == 0) fail("node matrix: the echoes were not aggregated");
  std::printf("traffic: node matrix of %zu nodes; to the last node %" PRIu64 " messages in %" PRIu64
              " frames (%.1f per frame)\n",
              nodes, out.messages, out.frames, out.aggregation());
}

// ---- spawn and names ----

// Arguments are summed byte by byte, weighted by position: a byte lost, moved or taken from
// another request's arguments changes the sum.
std::uint64_t arguments_sum(std::span<const std::byte> bytes) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) sum += (i + 1) * std::to_integer<std::uint64_t>(bytes[i]);
  return sum;
}

// Says where it runs and what arguments it was built from.
class Resident final : public xenon::Actor {
 public:
  explicit Resident(std::span<const std::byte> arguments)
      : arguments_size_(arguments.size()), arguments_sum_(arguments_sum(arguments)) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_WHO) {
      const std::uint64_t answer[5] = {self().value(), static_cast<std::uint64_t>(node_index()),
                                       static_cast<std::uint64_t>(worker_index()), arguments_size_, arguments_sum_};
      reply(message, ACTION_WHO, Payload::copy_of(std::as_bytes(std::span(answer))));
      stop();
    }
  }

 private:
  std::uint64_t arguments_size_, arguments_sum_;
};

// Spawns three actors on every worker of every node, by name: with no arguments, with
// arguments large enough to travel apart from the request (two different ones, shared by
// every request, so that each request must meet its own), and checks where each runs and
// what it was built from.
class SpawnRoot final : public xenon::Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      const Payload large[2] = {pattern(40 * 1024, 7), pattern(100 * 1024 + 3, 11)};
      for (int node = 0; node < node_count(); ++node) {
        for (int worker = 0; worker < worker_count(); ++worker) {
          spawn_resident(node, worker, large[0].share());
          spawn_resident(node, worker, Payload{});
          spawn_resident(node, worker, large[1].share());
        }
      }
    } else if (message.action() == xenon::ACTION_SPAWNED) {
      const auto spawned = xenon::SpawnedActor::from(message);
      const Expected& expected = expected_.at(spawned.request);
      if (spawned.name.node() != static_cast<std::uint32_t>(expected.node) ||
          spawned.name.worker() != static_cast<std::uint32_t>(expected.worker)) {
        fail("actor spawned on node " + std::to_string(expected.node) + " worker " +
             std::to_string(expected.worker) + " is named for another place");
      }
      names_[spawned.name] = spawned.request;
      send(spawned.name, ACTION_WHO);
    } else if (message.action() == ACTION_WHO) {
      const auto name = ActorName::from_value(read_value<std::uint64_t>(message.payload(), 0));
      if (name != message.source()) fail("an actor does not know its own name");
      if (read_value<std::uint64_t>(message.payload(), 1) != name.node() ||
          read_value<std::uint64_t>(message.payload(), 2) != name.worker()) {
        fail("an actor runs somewhere else than its name says");
      }
      const Expected& expected = expected_.at(names_.at(name));
      if (read_value<std::uint64_t>(message.payload(), 3) != expected.size ||
          read_value<std::uint64_t>(message.payload(), 4) != expected.sum) {
        fail("an actor on node " + std::to_string(name.node()) + " was built from " +
             std::to_string(read_value<std::uint64_t>(message.payload(), 3)) + " bytes of arguments, not the " +
             std::to_string(expected.size) + " its request gave");
      }
      ++answers_;
    } else if (message.action() == xenon::ACTION_CHILD_STOPPED) {
      if (names_.find(message.source()) == names_.end()) fail("stop notice from an actor that is not our child");
      if (++stopped_ == expected_.size()) {
        if (answers_ != expected_.size()) fail("not every spawned actor answered");
        std::printf("spawn: %zu actors spawned by name on every worker of %d nodes (arguments of 0, 40 KiB and "
                    "100 KiB) answered from where their names say, built from their own arguments, and stopped\n",
                    expected_.size(), node_count());
        stop();
      }
    }
  }

 private:
  struct Expected {
    int node, worker;
    std::uint64_t size, sum;
  };

  static Payload pattern(std::size_t size, unsigned step) {
    Payload payload = Payload::for_overwrite(size);
    std::span<std::byte> bytes = payload.writable_bytes();
    for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::byte>((i * step) % 251);
    return payload;
  }

  void spawn_resident(int node, int worker, Payload arguments) {
    const Expected expected{node, worker, arguments.size(), arguments_sum(arguments.bytes())};
    expected_[request_spawn(node, worker, "scenario.resident", std::move(arguments))] = expected;
  }

  std::map<std::uint64_t, Expected> expected_;
  std::map<ActorName, std::uint64_t> names_;  // the request that spawned each
  std::size_t answers_ = 0, stopped_ = 0;
};

// ---- typed messages ----

// A value in the typed encoding, with every kind of field; the echo adds its name to it.
struct TypedRecord {
  std::uint64_t number = 0;
  std::string text;
  std::map<std::string, std::vector<std::int64_t>> table;
  std::optional<double> ratio;
  std::vector<ActorName> stamps;
  bool operator==(const TypedRecord&) const = default;
  static constexpr auto fields = xenon::fields(&TypedRecord::number, &TypedRecord::text,
                                               &TypedRecord::table, &TypedRecord::ratio,
                                               &TypedRecord::stamps);
};

// Record `number`: sizes from a few bytes (inline) to about 200 KiB (a payload of its own,
// past the 32 KiB attachment threshold), negative numbers, an absent optional.
TypedRecord typed_record(std::uint64_t number) {
  TypedRecord record;
  record.number = number;
  record.text = std::string(number % 5 == 4 ? 200000 : number * 3, static_cast<char>('a' + number % 26));
  for (std::uint64_t i = 0; i < number % 4; ++i) {
    record.table["key" + std::to_string(i)] = {-static_cast<std::int64_t>(i),
                                                std::numeric_limits<std::int64_t>::min(),
                                                std::numeric_limits<std::int64_t>::max()};
  }
  if (number % 3 != 0) record.ratio = 1.0 / static_cast<double>(number);
  return record;
}

// Built from a typed spawn argument (its signature); stamps each record with its name.
class TypedEcho final : public xenon::Actor {
 public:
  explicit TypedEcho(std::span<const std::byte> arguments)
      : signature_(xenon::typed_payload_value<std::string>(arguments)) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_ECHO) {
      auto record = message.decode<TypedRecord>();
      record.stamps.push_back(self());
      record.text += signature_;
      reply_typed(message, ACTION_ECHO, record);
    } else if (message.action() == ACTION_STOP) {
      stop();
    }
  }

 private:
  std::string signature_;
};

class TypedRoot final : public xenon::Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      request_spawn(node_count() - 1, 0, "scenario.typed-echo", xenon::typed_payload(std::string("|echoed")));
    } else if (message.action() == xenon::ACTION_SPAWNED) {
      echo_ = xenon::SpawnedActor::from(message).name;
      for (std::uint64_t number = 0; number < kRecords; ++number) {
        send_typed(echo_, ACTION_ECHO, typed_record(number));
      }
    } else if (message.action() == ACTION_ECHO) {
      TypedRecord expected = typed_record(returned_++);
      expected.stamps.push_back(echo_);
      expected.text += "|echoed";
      if (!(message.decode<TypedRecord>() == expected)) {
        fail("typed record " + std::to_string(expected.number) + " came back changed or out of order");
      }
      if (returned_ == kRecords) {
        std::printf("typed: %" PRIu64 " records crossed nodes and came back whole, in order\n", kRecords);
        send(echo_, ACTION_STOP);
      }
    } else if (message.action() == xenon::ACTION_CHILD_STOPPED) {
      stop();
    }
  }

 private:
  static constexpr std::uint64_t kRecords = 40;
  ActorName echo_;
  std::uint64_t returned_ = 0;
};

// ---- long-turn ----

inline constexpr Action ACTION_MARK{"scenario.mark"};
inline constexpr Action ACTION_WAIT{"scenario.wait"};
inline constexpr Action ACTION_SEEN{"scenario.seen"};
inline constexpr Action ACTION_RELAY{"scenario.relay"};

std::string text_of(const Message& message) {
  const std::span<const std::byte> bytes = message.payload();
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

Payload text_payload(const std::string& text) {
  return Payload::copy_of(std::as_bytes(std::span<const char>(text.data(), text.size())));
}

// On node P-1: writes the file the mark names.
class Marker final : public xenon::Actor {
 public:
  explicit Marker(std::span<const std::byte>) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_MARK) {
      std::FILE* file = std::fopen(text_of(message).c_str(), "w");
      if (file != nullptr) std::fclose(file);
    } else if (message.action() == ACTION_STOP) {
      stop();
    }
  }
};

// On node 0, on its root's worker: one long turn, until the mark's file exists; `hand_on`:
// what the worker holds for other nodes handed on first.
class Waiter final : public xenon::Actor {
 public:
  explicit Waiter(bool hand_on = false) : hand_on_(hand_on) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_WAIT) {
      if (hand_on_) hand_on_sent_messages();
      const std::string path = text_of(message);
      const auto began = std::chrono::steady_clock::now();
      bool seen = false;
      while (!seen && std::chrono::steady_clock::now() - began < std::chrono::seconds(30)) {
        seen = access(path.c_str(), F_OK) == 0;
        if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      std::remove(path.c_str());
      if (!seen) fail("the mark for node " + std::to_string(node_count() - 1) + " had not left after a turn of 30 s");
      reply(message, ACTION_SEEN);
    } else if (message.action() == ACTION_STOP) {
      stop();
    }
  }

 private:
  bool hand_on_;
};

// On node 0, on its root's worker: passes a mark on to node P-1, in a turn of its own.
class Relay final : public xenon::Actor {
 public:
  explicit Relay(ActorName marker) : marker_(marker) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_RELAY) {
      send(marker_, ACTION_MARK, text_payload(text_of(message)));
    } else if (message.action() == ACTION_STOP) {
      stop();
    }
  }

 private:
  ActorName marker_;
};

// `hand_on`: the hand-on scenario (see the top of this file), else long-turn.
class LongTurnRoot final : public xenon::Actor {
 public:
  explicit LongTurnRoot(bool hand_on = false) : hand_on_(hand_on) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      request_spawn(node_count() - 1, 0, "scenario.marker");
    } else if (message.action() == xenon::ACTION_SPAWNED) {
      marker_ = xenon::SpawnedActor::from(message).name;
      const std::string path = "/tmp/xenon-long-turn-" + std::to_string(getpid());
      std::remove(path.c_str());
      if (!hand_on_) {
        waiter_ = spawn_on<Waiter>(worker_index());  // the same worker: its turn follows this one
        send(marker_, ACTION_MARK, text_payload(path));  // for another node: must leave now
        send(waiter_, ACTION_WAIT, text_payload(path));  // runs in this round, after this turn
        return;
      }
      // This turn sends off the node first (a mark of no consequence), so the relay's mark,
      // a later turn's, waits for the end of the round, which the waiter's turn holds up.
      relay_ = spawn_on<Relay>(worker_index(), marker_);
      waiter_ = spawn_on<Waiter>(worker_index(), true);
      first_ = path + "-first";
      send(marker_, ACTION_MARK, text_payload(first_));
      send(relay_, ACTION_RELAY, text_payload(path));
      send(waiter_, ACTION_WAIT, text_payload(path));
    } else if (message.action() == ACTION_SEEN) {
      if (!first_.empty()) std::remove(first_.c_str());
      send(marker_, ACTION_STOP);
      send(waiter_, ACTION_STOP);
      if (relay_ != ActorName{}) send(relay_, ACTION_STOP);
      stop();
    }
  }

 private:
  bool hand_on_;
  ActorName marker_, waiter_, relay_;
  std::string first_;
};

// ---- idle and crash ----

class Quitter final : public xenon::Actor {
 public:
  void receive(const Message&) override { stop(); }
};

class Crasher final : public xenon::Actor {
 public:
  explicit Crasher(std::span<const std::byte>) {}
  void receive(const Message&) override {
    std::fprintf(stderr, "mpi_scenarios: node %d kills itself (SIGKILL)\n", node_index());
    std::fflush(stderr);
    kill(getpid(), SIGKILL);
  }
};

class Stopper final : public xenon::Actor {
 public:
  explicit Stopper(std::span<const std::byte>) {}
  void receive(const Message&) override {
    std::fprintf(stderr, "mpi_scenarios: node %d stops itself (SIGSTOP)\n", node_index());
    std::fflush(stderr);
    kill(getpid(), SIGSTOP);
  }
};

// Keeps a ping going with an actor on the last node, and has that node killed (or
// stopped) meanwhile.
class CrashRoot final : public xenon::Actor {
 public:
  explicit CrashRoot(const char* how = "scenario.crasher") : how_(how) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      request_spawn(node_count() - 1, 0, "scenario.echo");
      request_spawn(node_count() - 1, 0, how_);
    } else if (message.action() == xenon::ACTION_SPAWNED) {
      const auto spawned = xenon::SpawnedActor::from(message);
      if (echo_.is_none()) {
        echo_ = spawned.name;
        watch(echo_);  // its node leaving is a notice, printed, before the job ends
        send(echo_, ACTION_ECHO);
      } else {
        send(spawned.name, ACTION_START);  // the crasher: die now, mid-conversation
      }
    } else if (message.action() == ACTION_ECHO) {
      send(echo_, ACTION_ECHO);  // forever: only the crash can end this run
    } else if (message.action() == xenon::ACTION_DOWN) {
      const auto down = xenon::DownNotice::from(message);
      std::fprintf(stderr, "mpi_scenarios: down: %u.%u.%u reason: %s\n", down.actor.node(),
                   down.actor.worker(), down.actor.index(), down.reason.c_str());
      std::fflush(stderr);
    }
  }

 private:
  const char* how_;
  ActorName echo_;
};

// Asks the last node for an actor of a type nobody registered, with a ping going meanwhile.
class UnknownTypeRoot final : public xenon::Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      request_spawn(node_count() - 1, 0, "scenario.echo");
    } else if (message.action() == xenon::ACTION_SPAWNED) {
      echo_ = xenon::SpawnedActor::from(message).name;
      send(echo_, ACTION_ECHO);
      request_spawn(node_count() - 1, 0, "scenario.never-registered");
    } else if (message.action() == ACTION_ECHO) {
      send(echo_, ACTION_ECHO);  // forever: only the failure can end this run
    }
  }

 private:
  ActorName echo_;
};

// ---- monitors ----

// Stops when told: with the message's text as its reason, or normally if there is none.
class Monitored final : public xenon::Actor {
 public:
  explicit Monitored(std::span<const std::byte>) {}
  void receive(const Message& message) override {
    if (message.action() != ACTION_STOP) return;
    if (message.payload_size() == 0) {
      stop();
    } else {
      stop(std::string(reinterpret_cast<const char*>(message.payload().data()),
                       message.payload_size()));
    }
  }
};

// Watches, on the last node: an actor (twice) that stops with a reason of its own, one that
// has already stopped, a name never spawned and a worker that does not exist. Each gives
// exactly one notice; the reason's own arrives before its ACTION_CHILD_STOPPED, since both
// come from it.
class MonitorRoot final : public xenon::Actor {
 public:
  void receive(const Message& message) override {
    const std::uint32_t last = static_cast<std::uint32_t>(node_count() - 1);
    if (message.action() == ACTION_START) {
      with_reason_request_ =
          request_spawn(node_count() - 1, worker_count() - 1, "scenario.monitored");
      request_spawn(node_count() - 1, worker_count() - 1, "scenario.monitored");
    } else if (message.action() == xenon::ACTION_SPAWNED) {
      const auto spawned = xenon::SpawnedActor::from(message);
      if (spawned.request == with_reason_request_) {
        with_reason_ = spawned.name;
        watch(with_reason_);
        watch(with_reason_);  // a second watch of the same actor changes nothing
        send(with_reason_, ACTION_STOP, Payload::copy_of(std::as_bytes(std::span(kReason))));
      } else {
        send(spawned.name, ACTION_STOP);  // watched only once it has stopped
      }
    } else if (message.action() == xenon::ACTION_CHILD_STOPPED) {
      if (message.source() == with_reason_) {
        if (notices_[with_reason_] != std::string(kReason)) {
          fail("monitors: the notice of " + std::to_string(with_reason_.value()) +
               " before its stop: '" + notices_[with_reason_] + "'");
        }
      } else {
        for (const ActorName name :
             {message.source(), ActorName::make(last, 0, 999), ActorName::make(last, 40, 0)}) {
          watch(name);
          no_such_actor_.push_back(name);
        }
      }
    } else if (message.action() == xenon::ACTION_DOWN) {
      const auto down = xenon::DownNotice::from(message);
      if (!notices_.emplace(down.actor, down.reason).second) {
        fail("monitors: a second notice for " + std::to_string(down.actor.value()));
      }
      if (notices_.size() == 4) finish();
    }
  }

 private:
  static constexpr std::string_view kReason = "the monitored actor's own reason";

  void finish() {
    for (const ActorName name : no_such_actor_) {
      if (notices_[name] != xenon::kDownNoSuchActor) {
        fail("monitors: watching " + std::to_string(name.value()) + " gave '" + notices_[name] +
             "', not '" + std::string(xenon::kDownNoSuchActor) + "'");
      }
    }
    std::printf("monitors: 4 notices from node %u, each once and with its reason\n",
                static_cast<unsigned>(node_count() - 1));
    stop();
  }

  std::uint64_t with_reason_request_ = 0;
  ActorName with_reason_;
  std::vector<ActorName> no_such_actor_;
  std::map<ActorName, std::string> notices_;
};

// ---- urgent ----

inline constexpr Action ACTION_HOLD{"scenario.hold"};
inline constexpr Action ACTION_NUMBERED{"scenario.numbered"};  // payload: u64 number

// On the last node: holds its worker a moment on the first message (so the rest wait in its
// mailbox), then records the order in which normal and urgent messages arrive, and sends
// back, once all are in: normal, urgent, normals received before the last urgent, and
// whether each priority kept its order.
class UrgentReceiver final : public xenon::Actor {
 public:
  static constexpr std::uint64_t kNormal = 400;
  static constexpr std::uint64_t kUrgent = 8;
  explicit UrgentReceiver(std::span<const std::byte> /*arguments*/) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_HOLD) {
      usleep(200 * 1000);
    } else if (message.action() == ACTION_NUMBERED) {
      const auto number = message.payload_as<std::uint64_t>();
      if (number >= kNormal) {  // urgent ones are numbered after the normal ones
        in_order_ = in_order_ && number == kNormal + urgent_;
        ++urgent_;
        normal_before_last_urgent_ = normal_;
      } else {
        in_order_ = in_order_ && number == normal_;
        ++normal_;
      }
      if (normal_ + urgent_ == kNormal + kUrgent) {
        const std::uint64_t counts[4] = {normal_, urgent_, normal_before_last_urgent_, in_order_ ? 1u : 0u};
        send(message.source(), ACTION_COUNTS, std::as_bytes(std::span(counts)));
        stop();
      }
    }
  }

 private:
  std::uint64_t normal_ = 0;
  std::uint64_t urgent_ = 0;
  std::uint64_t normal_before_last_urgent_ = 0;
  bool in_order_ = true;
};

// Sends, in one receive(), a hold, 400 normal messages and then 8 urgent ones to an actor on
// the last node: across the wire (the urgent bit of frame records) every urgent message must
// be received before the normal ones still waiting, each priority in order.
class UrgentRoot final : public xenon::Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      request_spawn(node_count() - 1, worker_count() - 1, "scenario.urgent-receiver");
    } else if (message.action() == xenon::ACTION_SPAWNED) {
      const ActorName receiver = xenon::SpawnedActor::from(message).name;
      send(receiver, ACTION_HOLD);
      for (std::uint64_t i = 0; i < UrgentReceiver::kNormal; ++i) send_value(receiver, ACTION_NUMBERED, i);
      for (std::uint64_t i = 0; i < UrgentReceiver::kUrgent; ++i) {
        send_urgent(receiver, ACTION_NUMBERED, Payload::of(UrgentReceiver::kNormal + i));
      }
    } else if (message.action() == ACTION_COUNTS) {
      std::uint64_t counts[4] = {};
      if (message.payload_size() != sizeof counts) fail("urgent: a report of " + std::to_string(message.payload_size()) + " bytes");
      std::memcpy(counts, message.payload().data(), sizeof counts);
      if (counts[0] != UrgentReceiver::kNormal || counts[1] != UrgentReceiver::kUrgent) {
        fail("urgent: " + std::to_string(counts[0]) + " normal and " + std::to_string(counts[1]) + " urgent received");
      } else if (counts[3] != 1) {
        fail("urgent: a priority's messages arrived out of order");
      } else if (counts[2] == UrgentReceiver::kNormal) {
        fail("urgent: every normal message was received before the last urgent one");
      } else {
        std::printf("urgent: %u urgent messages received before %" PRIu64 " of %u normal ones, each priority in order\n",
                    static_cast<unsigned>(UrgentReceiver::kUrgent), UrgentReceiver::kNormal - counts[2],
                    static_cast<unsigned>(UrgentReceiver::kNormal));
      }
      stop();
    }
  }
};

}  // namespace

// ---- migration refused ----

// What a Mover is told to do: each kind but the last is refused.
enum class MoveKind : std::uint32_t {
  kNoSuchNode,
  kOwnNode,
  kTimerPending,
  kStopWins,
  kToNode1,
  kWhenAsked  // moved by its root's migrate(name, node)
};
struct MoveOrder {
  MoveKind kind = MoveKind::kToNode1;
  static constexpr auto fields = xenon::fields(&MoveOrder::kind);
};

class Mover final : public xenon::MigratableActor<MoveOrder> {
 public:
  explicit Mover(MoveOrder order) : MigratableActor(order) {}
  explicit Mover(std::span<const std::byte> encoded) : MigratableActor(encoded) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_STOP) {  // came after it, in its mailbox
      if (node_index() != 1) fail("the mover stopped on node " + std::to_string(node_index()));
      stop();
      return;
    }
    switch (state().kind) {
      case MoveKind::kNoSuchNode: migrate(node_count()); break;
      case MoveKind::kOwnNode: migrate(node_index()); break;
      case MoveKind::kTimerPending:
        send_after(std::chrono::seconds(60), self(), ACTION_STOP);
        migrate(1);
        break;
      case MoveKind::kStopWins:  // stop() after migrate(): it stops here
        migrate(1);
        stop();
        break;
      case MoveKind::kToNode1: migrate(1); break;
      case MoveKind::kWhenAsked: break;
    }
  }
};

// Never registered: its new node could not build it.
class UnregisteredMover final : public xenon::MigratableActor<MoveOrder> {
 public:
  explicit UnregisteredMover(MoveOrder order) : MigratableActor(order) {}
  void receive(const Message&) override { migrate(1); }
};

// Spawns a mover of each kind; each refused one fails with its reason, the allowed ones
// move to node 1 and stop there with the stop sent after their start (or the request).
class MigrateRefusedRoot final : public xenon::Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      for (MoveKind kind : {MoveKind::kNoSuchNode, MoveKind::kOwnNode, MoveKind::kTimerPending,
                            MoveKind::kStopWins, MoveKind::kToNode1}) {
        const ActorName mover = spawn<Mover>(MoveOrder{kind});
        send(mover, ACTION_START);
        if (kind == MoveKind::kToNode1) send(mover, ACTION_STOP);
      }
      send(spawn<UnregisteredMover>(MoveOrder{}), ACTION_START);
      // Asked by name: a mover goes, and stops on node 1 with the stop sent after the
      // request; an actor that is no MigratableActor stays (a line on stderr) and stops here.
      const ActorName asked = spawn<Mover>(MoveOrder{MoveKind::kWhenAsked});
      migrate(asked, 1);
      send(asked, ACTION_STOP);
      const ActorName pinned = spawn<Monitored>(std::span<const std::byte>{});
      migrate(pinned, 1);
      send(pinned, ACTION_STOP);
    } else if (message.action() == xenon::ACTION_CHILD_STOPPED) {
      const std::string reason(reinterpret_cast<const char*>(message.payload().data()),
                               message.payload_size());
      std::printf("node 0: mover %u stopped: %s\n", message.source().index(),
                  reason.empty() ? "normally" : reason.c_str());
      if (++stopped_ == 8) stop();
    }
  }

 private:
  int stopped_ = 0;
};

int main(int argc, char** argv) {
  xenon::EngineOptions options;
  std::string scenario;
  xenon::CommandLine command_line("mpi_scenarios", "Multi-process checks of the runtime.");
  xenon::add_engine_options(command_line, options);
  command_line.add_string(
      "scenario", &scenario,
      "ordering, payloads, traffic, typed, spawn, idle, monitors, urgent, crash, stopped, unknown-type, migrate-refused, "
      "long-turn, hand-on or early-error");
  try {
    if (!command_line.parse(argc, argv)) return 0;
    xenon::Engine engine(options);
    engine.register_actor_type<Receiver>("scenario.receiver");
    engine.register_actor_type<Sender>("scenario.sender");
    engine.register_actor_type<Echo>("scenario.echo");
    engine.register_actor_type<Resident>("scenario.resident");
    engine.register_actor_type<Crasher>("scenario.crasher");
    engine.register_actor_type<Stopper>("scenario.stopper");
    engine.register_actor_type<Monitored>("scenario.monitored");
    engine.register_actor_type<UrgentReceiver>("scenario.urgent-receiver");
    engine.register_actor_type<TypedEcho>("scenario.typed-echo");
    engine.register_actor_type<Mover>("scenario.mover");
    engine.register_actor_type<Marker>("scenario.marker");
    if (engine.node_index() == 0) {
      ActorName root;
      if (scenario == "ordering") {
        root = engine.spawn<OrderingRoot>();
      } else if (scenario == "payloads") {
        root = engine.spawn<PayloadRoot>();
      } else if (scenario == "traffic") {
        root = engine.spawn<TrafficRoot>();
      } else if (scenario == "typed") {
        root = engine.spawn<TypedRoot>();
      } else if (scenario == "spawn") {
        root = engine.spawn<SpawnRoot>();
      } else if (scenario == "idle") {
        root = engine.spawn<Quitter>();
      } else if (scenario == "crash") {
        root = engine.spawn<CrashRoot>();
      } else if (scenario == "stopped") {
        root = engine.spawn<CrashRoot>("scenario.stopper");
      } else if (scenario == "monitors") {
        root = engine.spawn<MonitorRoot>();
      } else if (scenario == "urgent") {
        root = engine.spawn<UrgentRoot>();
      } else if (scenario == "unknown-type") {
        root = engine.spawn<UnknownTypeRoot>();
      } else if (scenario == "migrate-refused") {
        root = engine.spawn<MigrateRefusedRoot>();
      } else if (scenario == "long-turn") {
        root = engine.spawn<LongTurnRoot>();
      } else if (scenario == "hand-on") {
        root = engine.spawn<LongTurnRoot>(true);
      } else if (scenario == "early-error") {
        root = engine.spawn<Quitter>();  // node 0 then waits for the others to end
      } else {
        throw xenon::CommandLineError("unknown scenario '" + scenario + "'");
      }
      engine.send(root, ACTION_START);
    }
    if (scenario == "early-error" && engine.node_index() == engine.node_count() - 1) {
      engine.spawn_on<Quitter>(engine.worker_count());  // one past the last: throws
    }
    engine.run();
    const xenon::EngineStatistics statistics = engine.statistics();
    if (statistics.dead_letters != 0) {
      fail("node " + std::to_string(engine.node_index()) + ": " +
           std::to_string(statistics.dead_letters) + " dead letters");
    }
    if (scenario == "traffic" && engine.node_index() == 0) check_node_matrix(engine, statistics);
    if (scenario == "migrate-refused") {
      std::printf("node %d: actors migrated out %" PRIu64 ", in %" PRIu64 "\n", engine.node_index(),
                  statistics.actors_migrated_out, statistics.actors_migrated_in);
    }
    if (engine.node_index() == 0) {
      std::printf("node 0: %d nodes, frames sent %" PRIu64 ", received %" PRIu64 "\n",
                  engine.node_count(), statistics.frames_sent, statistics.frames_received);
    }
    return g_failures == 0 ? 0 : 1;
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "mpi_scenarios: error: %s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "mpi_scenarios: error: %s\n", error.what());
    return 1;
  }
}
