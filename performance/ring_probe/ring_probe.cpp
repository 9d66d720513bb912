// SPDX-License-Identifier: BSD-3-Clause
// ring_probe: our SpscRing against boost::lockfree::spsc_queue, side by side in one run, on
// the same two pinned threads, the same capacity and the same items. Each figure is the
// median of several interleaved repetitions; the ratio lines are ours divided by Boost's.
#include <boost/lockfree/spsc_queue.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <xenon/xenon.hpp>
#include "core/cpu_topology.hpp"
#include "core/spsc_ring.hpp"

namespace {

using xenon::SpscRing;

constexpr std::size_t kCapacity = 1024;
constexpr std::size_t kBatch = 32;

struct Item64 {  // the size of an engine message
  std::uint64_t sequence;
  std::uint64_t words[7];
};

template <class T>
T make_item(std::uint64_t sequence) {
  if constexpr (std::is_same_v<T, std::uint64_t>) {
    return sequence;
  } else {
    T item{};
    item.sequence = sequence;
    return item;
  }
}
template <class T>
std::uint64_t sequence_of(const T& item) {
  if constexpr (std::is_same_v<T, std::uint64_t>) {
    return item;
  } else {
    return item.sequence;
  }
}

// The four queues under test, behind one small interface each side uses.
template <class T>
struct XenonOneByOne {
  SpscRing<T> ring{kCapacity};
  bool push(const T& item) { return ring.try_push(item); }
  template <class F>
  std::size_t pop(F&& visit) { return ring.consume(visit, 1); }
  void flush() {}
};
template <class T>
struct XenonBatched {
  SpscRing<T> ring{kCapacity};
  bool push(const T& item) {
    if (!ring.try_stage(item)) {
      ring.publish();
      return false;
    }
    if (ring.staged_count() >= kBatch) ring.publish();
    return true;
  }
  template <class F>
  std::size_t pop(F&& visit) { return ring.consume(visit, kBatch); }
  void flush() { ring.publish(); }
};
template <class T>
struct BoostOneByOne {
  boost::lockfree::spsc_queue<T> queue{kCapacity};
  bool push(const T& item) { return queue.push(item); }
  template <class F>
  std::size_t pop(F&& visit) { return queue.consume_one(visit) ? 1 : 0; }
  void flush() {}
};
template <class T>
struct BoostBatched {
  boost::lockfree::spsc_queue<T> queue{kCapacity};
  T pending[kBatch];
  std::size_t pending_count = 0;
  bool push(const T& item) {
    pending[pending_count++] = item;
    if (pending_count == kBatch) flush_all();
    return true;
  }
  void flush_all() {
    std::size_t done = 0;
    while (done < pending_count) done += queue.push(pending + done, pending_count - done);
    pending_count = 0;
  }
  template <class F>
  std::size_t pop(F&& visit) {
    T items[kBatch];
    const std::size_t count = queue.pop(items, kBatch);
    for (std::size_t i = 0; i < count; ++i) visit(items[i]);
    return count;
  }
  void flush() { flush_all(); }
};

struct Placement {
  const xenon::CpuTopology* topology;
  void pin(int slot) const {
    if (topology != nullptr && topology->allowed_pu_count() >= 2) topology->pin_current_thread(slot);
  }
};

// Streams `items` items; returns items per second. Exits if any item is lost or reordered.
template <class Queue, class T>
double stream(std::uint64_t items, const Placement& placement) {
  auto queue = std::make_unique<Queue>();
  std::atomic<bool> go{false};
  std::thread producer([&] {
    placement.pin(1);
    // Acquire: pairs with the release store of go below.
    while (!go.load(std::memory_order_acquire)) {
    }
    for (std::uint64_t i = 0; i < items;) {
      if (queue->push(make_item<T>(i))) ++i;
    }
    queue->flush();
  });
  placement.pin(0);
  std::uint64_t expected = 0;
  bool in_order = true;
  const auto start = xenon::MonotonicClock::now();
  go.store(true, std::memory_order_release);  // pairs with the producer's acquire load
  while (expected < items) {
    queue->pop([&](const T& item) {
      in_order &= (sequence_of(item) == expected);
      ++expected;
    });
  }
  const double seconds = xenon::seconds_between(start, xenon::MonotonicClock::now());
  producer.join();
  if (!in_order) {
    std::fprintf(stderr, "ring_probe: error: items lost or reordered\n");
    std::exit(1);  // NOLINT(concurrency-mt-unsafe): the other thread has been joined
  }
  return static_cast<double>(items) / seconds;
}

// One item there, one back, `rounds` times; returns nanoseconds per round trip.
template <class Queue, class T>
double round_trip(std::uint64_t rounds, const Placement& placement) {
  auto there = std::make_unique<Queue>();
  auto back = std::make_unique<Queue>();
  std::thread echo([&] {
    placement.pin(1);
    for (std::uint64_t done = 0; done < rounds;) {
      there->pop([&](const T& item) {
        while (!back->push(item)) {
        }
        back->flush();
        ++done;
      });
    }
  });
  placement.pin(0);
  const auto start = xenon::MonotonicClock::now();
  for (std::uint64_t i = 0; i < rounds; ++i) {
    while (!there->push(make_item<T>(i))) {
    }
    there->flush();
    std::uint64_t got = 0;
    while (got == 0) got = back->pop([](const T&) {});
  }
  const double seconds = xenon::seconds_between(start, xenon::MonotonicClock::now());
  echo.join();
  return seconds * 1e9 / static_cast<double>(rounds);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

struct Pair {
  std::string name;
  std::function<double()> xenon;
  std::function<double()> boost;
  const char* unit;
  bool higher_is_better;
};

}  // namespace

int main(int argc, char** argv) {
  std::int64_t repetitions = 5;
  std::uint64_t items = 20'000'000;
  std::uint64_t rounds = 200'000;
  bool pin = true;
  xenon::CommandLine command_line(
      "ring_probe", "Benchmarks xenon::SpscRing against boost::lockfree::spsc_queue.");
  command_line.add_integer("repetitions", &repetitions, 1, 101, "interleaved repetitions per figure");
  command_line.add_unsigned("items", &items, "items per streaming run");
  command_line.add_unsigned("rounds", &rounds, "round trips per latency run");
  command_line.add_flag("pin", &pin, "pin the two threads to distinct cores");
  try {
    if (!command_line.parse(argc, argv)) return 0;
    if (items == 0 || rounds == 0) throw xenon::CommandLineError("-items and -rounds must be >= 1");
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "ring_probe: error: %s\n", error.what());
    return 2;
  }
  std::unique_ptr<xenon::CpuTopology> topology;
  if (pin) topology = std::make_unique<xenon::CpuTopology>();
  const Placement placement{topology.get()};

  const std::vector<Pair> pairs = {
      {"stream-8B-one-by-one", [&] { return stream<XenonOneByOne<std::uint64_t>, std::uint64_t>(items, placement); },
       [&] { return stream<BoostOneByOne<std::uint64_t>, std::uint64_t>(items, placement); },
       "items / s", true},
      {"stream-8B-batched", [&] { return stream<XenonBatched<std::uint64_t>, std::uint64_t>(items, placement); },
       [&] { return stream<BoostBatched<std::uint64_t>, std::uint64_t>(items, placement); },
       "items / s", true},
      {"stream-64B-one-by-one", [&] { return stream<XenonOneByOne<Item64>, Item64>(items / 2, placement); },
       [&] { return stream<BoostOneByOne<Item64>, Item64>(items / 2, placement); }, "items / s", true},
      {"stream-64B-batched", [&] { return stream<XenonBatched<Item64>, Item64>(items / 2, placement); },
       [&] { return stream<BoostBatched<Item64>, Item64>(items / 2, placement); }, "items / s", true},
      {"round-trip-8B", [&] { return round_trip<XenonOneByOne<std::uint64_t>, std::uint64_t>(rounds, placement); },
       [&] { return round_trip<BoostOneByOne<std::uint64_t>, std::uint64_t>(rounds, placement); }, "ns",
       false},
  };
  for (const Pair& pair : pairs) {
    std::vector<double> ours, theirs;
    for (std::int64_t r = 0; r < repetitions; ++r) {
      ours.push_back(pair.xenon());
      theirs.push_back(pair.boost());
    }
    const double a = median(ours), b = median(theirs);
    std::printf("PERFORMANCE_COUNTER ring-xenon-%s = %f %s\n", pair.name.c_str(), a, pair.unit);
    std::printf("PERFORMANCE_COUNTER ring-boost-%s = %f %s\n", pair.name.c_str(), b, pair.unit);
    // Speed-up of ours over Boost: > 1 means ours wins.
    std::printf("PERFORMANCE_COUNTER ring-speedup-over-boost-%s = %f\n", pair.name.c_str(),
                pair.higher_is_better ? a / b : b / a);
    std::fflush(stdout);
  }
  return 0;
}
