// SPDX-License-Identifier: BSD-3-Clause
// cacheline_probe: what the hardware allows between two cores, measured on the machine the
// engine runs on, so every engine figure can be quoted as a multiple of it.
//   - cache lines bouncing between two pinned threads (round trip, ns): one line per
//     writer (the floor, "cacheline-round-trip") and one line both write (the textbook form);
//   - a bare single-producer/single-consumer stream of 8-byte items through xenon::SpscRing
//     (items/s), batched as the engine does and one item at a time.
// Repetitions are interleaved; each figure is the median, with the minimum and maximum.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <vector>

#include <xenon/xenon.hpp>
#include "core/cpu_topology.hpp"
#include "performance/cacheline_probe/cache_line_ping_pong.hpp"
#include "performance/cacheline_probe/spsc_stream.hpp"

namespace {

struct Options {
  std::int64_t repetitions = 7;
  std::int64_t rounds = 500'000;
  std::int64_t items = 20'000'000;
  std::int64_t capacity = 1024;
  std::int64_t batch = 32;
  bool pin = true;
};

// Median, minimum and maximum of one figure over the repetitions.
struct Summary {
  double median;
  double minimum;
  double maximum;
};

Summary summarize(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return {values[values.size() / 2], values.front(), values.back()};
}

void print(const char* name, const Summary& summary, const char* unit) {
  std::printf("PERFORMANCE_COUNTER %s = %f %s\n", name, summary.median, unit);
  std::printf("PERFORMANCE_COUNTER %s-min = %f %s\n", name, summary.minimum, unit);
  std::printf("PERFORMANCE_COUNTER %s-max = %f %s\n", name, summary.maximum, unit);
}

int run_probe(int argc, char** argv) {
  Options options;
  xenon::CommandLine command_line(
      "cacheline_probe",
      "Measures the physical limit between two cores: a cache-line ping-pong between two "
      "pinned\nthreads (round-trip ns) and a bare SPSC stream of 8-byte items (items/s).");
  command_line.add_integer("repetitions", &options.repetitions, 1, 101,
                           "interleaved repetitions per figure (median reported)");
  command_line.add_integer("rounds", &options.rounds, 1, 1'000'000'000,
                           "timed round trips per ping-pong repetition");
  command_line.add_integer("items", &options.items, 1, 100'000'000'000,
                           "items per stream repetition");
  command_line.add_integer("capacity", &options.capacity, 2, 1 << 24,
                           "stream ring capacity (a power of two)");
  command_line.add_integer("batch", &options.batch, 1, 1 << 24,
                           "items per publish and per consume in the batched stream");
  command_line.add_flag("pin", &options.pin, "pin the two threads to distinct cores (-pin=off: don't)");
  if (!command_line.parse(argc, argv)) return 0;
  if ((options.capacity & (options.capacity - 1)) != 0) {
    throw xenon::CommandLineError("option -capacity must be a power of two, got " +
                                  std::to_string(options.capacity));
  }
  if (options.batch > options.capacity) {
    throw xenon::CommandLineError("option -batch must not exceed -capacity");
  }

  std::unique_ptr<xenon::CpuTopology> topology;
  if (options.pin) {
    topology = std::make_unique<xenon::CpuTopology>();
    if (topology->allowed_pu_count() < 2) {
      std::fprintf(stderr,
                   "cacheline_probe: error: needs two processing units to pin to, this process "
                   "may use %d\n",
                   topology->allowed_pu_count());
      return 1;
    }
  }
  // OS index of the PU each slot was pinned to; written by the pinned thread before it is
  // joined, read after the join.
  int pinned_pu[2] = {-1, -1};
  const auto pin = [&](int slot) {
    if (topology != nullptr) pinned_pu[slot] = topology->pin_current_thread(slot);
  };

  const auto rounds = static_cast<std::uint64_t>(options.rounds);
  const auto items = static_cast<std::uint64_t>(options.items);
  const auto capacity = static_cast<std::size_t>(options.capacity);
  const auto batch = static_cast<std::size_t>(options.batch);
  std::vector<double> round_trip, shared_round_trip, stream_batched, stream_one_by_one;
  const std::uint64_t warmup = rounds / 10 + 1000;
  for (std::int64_t r = 0; r < options.repetitions; ++r) {
    using xenon::bench::LineLayout;
    round_trip.push_back(
        xenon::bench::cache_line_round_trip_ns(LineLayout::kOneWriterPerLine, rounds, warmup, pin));
    shared_round_trip.push_back(
        xenon::bench::cache_line_round_trip_ns(LineLayout::kSharedLine, rounds, warmup, pin));
    stream_batched.push_back(
        xenon::bench::spsc_stream_items_per_second(items, capacity, batch, pin));
    stream_one_by_one.push_back(
        xenon::bench::spsc_stream_items_per_second(items, capacity, 1, pin));
  }

  std::printf("PERFORMANCE_COUNTER cacheline-pinned = %s\n", options.pin ? "yes" : "no");
  std::printf("PERFORMANCE_COUNTER cacheline-processing-units = %d %d\n", pinned_pu[0],
              pinned_pu[1]);
  if (topology != nullptr) {
    std::printf("PERFORMANCE_COUNTER cacheline-topology = %s\n", topology->describe().c_str());
  }
  std::printf("PERFORMANCE_COUNTER cacheline-repetitions = %lld\n",
              static_cast<long long>(options.repetitions));
  std::printf("PERFORMANCE_COUNTER cacheline-round-trips-per-repetition = %lld\n",
              static_cast<long long>(options.rounds));
  std::printf("PERFORMANCE_COUNTER stream-items-per-repetition = %lld\n",
              static_cast<long long>(options.items));
  const Summary trip = summarize(round_trip);
  print("cacheline-round-trip", trip, "ns");
  std::printf("PERFORMANCE_COUNTER cacheline-one-way = %f ns\n", trip.median / 2);
  print("cacheline-shared-line-round-trip", summarize(shared_round_trip), "ns");
  const Summary batched = summarize(stream_batched);
  const Summary single = summarize(stream_one_by_one);
  const std::string batched_name = "stream-8B-batch-" + std::to_string(options.batch);
  print(batched_name.c_str(), batched, "messages / s");
  std::printf("PERFORMANCE_COUNTER %s-per-item = %f ns\n", batched_name.c_str(),
              1e9 / batched.median);
  print("stream-8B-one-by-one", single, "messages / s");
  std::printf("PERFORMANCE_COUNTER stream-8B-one-by-one-per-item = %f ns\n", 1e9 / single.median);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run_probe(argc, argv);
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "cacheline_probe: error: %s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "cacheline_probe: error: %s\n", error.what());
    return 1;
  }
}
