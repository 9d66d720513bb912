// SPDX-License-Identifier: BSD-3-Clause
// The workloads of Xenon's latency_probe and of its Savina suite (performance/savina), written
// for CAF 0.17 (Debian's libcaf-dev), to be run beside Xenon's by run_peers.sh. Each actor
// counts what it sent and received; the program exits 1 if a count differs from the
// workload's. Output: PERFORMANCE_COUNTER lines, as Xenon's probes print them.
//
//   caf_peer -benchmark latency|big|ping-pong|fork-join-throughput -workers W [-repetitions R]
#include <caf/all.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace caf;

using start_atom = atom_constant<atom("start")>;
using setup_atom = atom_constant<atom("setup")>;
using ready_atom = atom_constant<atom("ready")>;
using ping_atom = atom_constant<atom("ping")>;
using pong_atom = atom_constant<atom("pong")>;
using done_atom = atom_constant<atom("done")>;
using work_atom = atom_constant<atom("work")>;
using report_atom = atom_constant<atom("report")>;

using Clock = std::chrono::steady_clock;

struct Outcome {
  double seconds = 0;
  std::uint64_t messages = 0;
};

// --- latency and big: every actor pings random others, one ping at a time ------------------

struct PingerState {
  std::vector<actor> peers;
  std::size_t position = 0;
  std::uint64_t pings = 0;
  std::uint64_t pings_sent = 0;
  std::uint64_t pings_received = 0;
  std::uint64_t pongs_received = 0;
  std::mt19937_64 random;
  actor sink;
};

void ping_someone(stateful_actor<PingerState>* self) {
  auto& state = self->state;
  std::uniform_int_distribution<std::size_t> pick(0, state.peers.size() - 2);
  std::size_t target = pick(state.random);
  if (target >= state.position) ++target;  // anyone but itself
  ++state.pings_sent;
  self->send(state.peers[target], ping_atom::value);
}

behavior pinger(stateful_actor<PingerState>* self, std::uint64_t pings, std::uint64_t seed, std::size_t position,
                actor sink) {
  self->state.pings = pings;
  self->state.position = position;
  self->state.random.seed(seed * 0x9e3779b97f4a7c15ULL + position);
  self->state.sink = sink;
  return {
      [=](setup_atom, const std::vector<actor>& peers) {
        self->state.peers = peers;
        self->send(self->state.sink, ready_atom::value);
      },
      [=](start_atom) { ping_someone(self); },
      [=](ping_atom) {
        ++self->state.pings_received;
        self->send(actor_cast<actor>(self->current_sender()), pong_atom::value);  // as Xenon's reply()
      },
      [=](pong_atom) {
        auto& state = self->state;
        ++state.pongs_received;
        if (state.pings_sent < state.pings) {
          ping_someone(self);
        } else {
          self->send(state.sink, done_atom::value, state.pings_sent, state.pongs_received);
        }
      },
      // After every actor is done (each ping's pong was awaited, so every ping has arrived).
      [=](report_atom) { self->send(self->state.sink, report_atom::value, self->state.pings_received); },
  };
}

Outcome run_pingers(actor_system& system, std::size_t actors, std::uint64_t pings) {
  scoped_actor sink{system};
  std::vector<actor> peers;
  for (std::size_t i = 0; i < actors; ++i) peers.push_back(system.spawn(pinger, pings, std::uint64_t{1}, i, actor{sink}));
  for (const actor& peer : peers) sink->send(peer, setup_atom::value, peers);
  for (std::size_t i = 0; i < actors; ++i) sink->receive([](ready_atom) {});
  const Clock::time_point start = Clock::now();
  for (const actor& peer : peers) sink->send(peer, start_atom::value);
  std::uint64_t sent = 0, pongs = 0, received = 0;
  for (std::size_t i = 0; i < actors; ++i) {
    sink->receive([&](done_atom, std::uint64_t s, std::uint64_t p) {
      sent += s;
      pongs += p;
    });
  }
  const Clock::time_point end = Clock::now();
  for (const actor& peer : peers) sink->send(peer, report_atom::value);
  for (std::size_t i = 0; i < actors; ++i) sink->receive([&](report_atom, std::uint64_t r) { received += r; });
  if (sent != actors * pings || pongs != sent || received != sent) {
    throw std::runtime_error("counts differ: " + std::to_string(sent) + " pings sent, " + std::to_string(received) +
                             " received, " + std::to_string(pongs) + " pongs received, expected " +
                             std::to_string(actors * pings));
  }
  for (const actor& peer : peers) anon_send_exit(peer, exit_reason::user_shutdown);
  return {std::chrono::duration<double>(end - start).count(), 2 * sent};
}

// --- ping-pong: two actors, one ball -------------------------------------------------------

behavior ponger(event_based_actor* self) {
  return {[=](ping_atom) { self->send(actor_cast<actor>(self->current_sender()), pong_atom::value); }};
}

struct BallState {
  std::uint64_t left = 0;
  actor partner;
  actor sink;
};

behavior ball(stateful_actor<BallState>* self, std::uint64_t round_trips, actor partner, actor sink) {
  self->state.left = round_trips;
  self->state.partner = partner;
  self->state.sink = sink;
  return {
      [=](start_atom) { self->send(self->state.partner, ping_atom::value); },
      [=](pong_atom) {
        if (--self->state.left == 0) {
          self->send(self->state.sink, done_atom::value);
        } else {
          self->send(self->state.partner, ping_atom::value);
        }
      },
  };
}

Outcome run_ping_pong(actor_system& system, std::uint64_t round_trips) {
  scoped_actor sink{system};
  const actor pong = system.spawn(ponger);
  const actor ping = system.spawn(ball, round_trips, pong, actor{sink});
  const Clock::time_point start = Clock::now();
  sink->send(ping, start_atom::value);
  sink->receive([](done_atom) {});
  const Clock::time_point end = Clock::now();
  anon_send_exit(ping, exit_reason::user_shutdown);
  anon_send_exit(pong, exit_reason::user_shutdown);
  return {std::chrono::duration<double>(end - start).count(), 2 * round_trips};
}

// --- fork-join throughput (Savina fjthrput) ------------------------------------------------

void perform_computation(double theta) {
  const double sine = std::sin(theta);
  if (sine * sine <= 0) throw std::logic_error("fjthrput: sin^2 of theta came out <= 0");
}

behavior throughput_actor(stateful_actor<std::uint64_t>* self, std::uint64_t messages, actor driver) {
  return {[=](work_atom, double theta) {
    perform_computation(theta);
    if (++self->state == messages) self->send(driver, done_atom::value, self->state);
  }};
}

struct DriverState {
  std::vector<actor> workers;
  std::size_t done = 0;
  std::uint64_t received = 0;
  actor sink;
};

// The driver is an actor, as in Xenon's version, not the main thread.
behavior driver(stateful_actor<DriverState>* self, std::size_t actors, std::uint64_t messages, actor sink) {
  self->state.sink = sink;
  for (std::size_t i = 0; i < actors; ++i) self->state.workers.push_back(self->spawn(throughput_actor, messages, actor{self}));
  return {
      [=](start_atom) {
        for (std::uint64_t m = 0; m < messages; ++m) {
          for (const actor& worker : self->state.workers) self->send(worker, work_atom::value, 37.2);
        }
      },
      [=](done_atom, std::uint64_t received) {
        self->state.received += received;
        if (++self->state.done == self->state.workers.size()) self->send(self->state.sink, done_atom::value, self->state.received);
      },
  };
}

Outcome run_fork_join(actor_system& system, std::size_t actors, std::uint64_t messages) {
  scoped_actor sink{system};
  const actor drive = system.spawn(driver, actors, messages, actor{sink});
  const Clock::time_point start = Clock::now();
  sink->send(drive, start_atom::value);
  std::uint64_t received = 0;
  sink->receive([&](done_atom, std::uint64_t total) { received = total; });
  const Clock::time_point end = Clock::now();
  if (received != actors * messages) throw std::runtime_error("fork-join: " + std::to_string(received) + " messages received");
  anon_send_exit(drive, exit_reason::user_shutdown);
  return {std::chrono::duration<double>(end - start).count(), actors * messages};
}

[[noreturn]] void usage(const std::string& problem) {
  std::fprintf(stderr, "caf_peer: error: %s\nusage: caf_peer -benchmark latency|big|ping-pong|fork-join-throughput -workers W [-repetitions R]\n",
               problem.c_str());
  std::exit(2);
}

std::uint64_t positive(const std::string& option, const char* text) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || value == 0) usage(option + " needs a positive integer, not '" + text + "'");
  return value;
}

}  // namespace

int main(int argc, char** argv) {
  std::string benchmark;
  std::uint64_t workers = 0;
  std::uint64_t repetitions = 3;
  for (int i = 1; i < argc; i += 2) {
    const std::string option = argv[i];
    if (i + 1 >= argc) usage(option + " needs a value");
    if (option == "-benchmark") {
      benchmark = argv[i + 1];
    } else if (option == "-workers") {
      workers = positive(option, argv[i + 1]);
    } else if (option == "-repetitions") {
      repetitions = positive(option, argv[i + 1]);
    } else {
      usage("unknown option " + option);
    }
  }
  if (benchmark.empty() || workers == 0) usage("-benchmark and -workers are needed");
  if (benchmark != "latency" && benchmark != "big" && benchmark != "ping-pong" && benchmark != "fork-join-throughput") {
    usage("unknown benchmark " + benchmark);
  }
  try {
    std::vector<Outcome> outcomes;
    for (std::uint64_t r = 0; r < repetitions; ++r) {
      actor_system_config config;
      config.set("scheduler.max-threads", static_cast<std::size_t>(workers));
      actor_system system{config};
      if (benchmark == "latency") {
        outcomes.push_back(run_pingers(system, static_cast<std::size_t>(100 * workers), 40000));  // latency_probe's defaults
      } else if (benchmark == "big") {
        outcomes.push_back(run_pingers(system, 120, 20000));  // Savina's
      } else if (benchmark == "ping-pong") {
        outcomes.push_back(run_ping_pong(system, 40000));
      } else {
        outcomes.push_back(run_fork_join(system, 60, 10000));
      }
    }
    std::sort(outcomes.begin(), outcomes.end(), [](const Outcome& a, const Outcome& b) { return a.seconds < b.seconds; });
    const Outcome& median = outcomes[outcomes.size() / 2];
    std::printf("PERFORMANCE_COUNTER runtime = CAF %d.%d.%d\n", CAF_VERSION / 10000, CAF_VERSION / 100 % 100, CAF_VERSION % 100);
    std::printf("PERFORMANCE_COUNTER benchmark = %s\n", benchmark.c_str());
    std::printf("PERFORMANCE_COUNTER worker-count = %llu\n", static_cast<unsigned long long>(workers));
    std::printf("PERFORMANCE_COUNTER message-count = %llu\n", static_cast<unsigned long long>(median.messages));
    std::printf("PERFORMANCE_COUNTER elapsed-time = %f s\n", median.seconds);
    std::printf("PERFORMANCE_COUNTER throughput = %f messages / s\n", static_cast<double>(median.messages) / median.seconds);
    std::printf("PERFORMANCE_COUNTER ns-per-message = %.0f\n", median.seconds * 1e9 / static_cast<double>(median.messages));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "caf_peer: error: %s\n", error.what());
    return 1;
  }
  return 0;
}
