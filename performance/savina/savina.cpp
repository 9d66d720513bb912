// SPDX-License-Identifier: BSD-3-Clause
// savina: the Savina actor benchmarks on Xenon actors, with the suite's default parameters.
//   savina [-benchmark NAME|all] [-repetitions R] [-threads-per-node N] [benchmark options]
// Each benchmark prints its elapsed time (median of R runs, each on a fresh engine),
// messages/s and ns per message as PERFORMANCE_COUNTER lines, and checks its message
// counts: any difference, or any dead letter, makes the program exit 1.
#include <sys/resource.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "performance/savina/benchmark.hpp"

namespace {

using xenon::savina::Benchmark;
using xenon::savina::Outcome;

std::vector<std::unique_ptr<Benchmark>> make_suite() {
  std::vector<std::unique_ptr<Benchmark>> suite;
  suite.push_back(xenon::savina::make_ping_pong());
  suite.push_back(xenon::savina::make_thread_ring());
  suite.push_back(xenon::savina::make_counting());
  suite.push_back(xenon::savina::make_fork_join_throughput());
  suite.push_back(xenon::savina::make_big());
  suite.push_back(xenon::savina::make_chameneos());
  return suite;
}

struct ContextSwitches {
  std::uint64_t voluntary = 0;
  std::uint64_t involuntary = 0;
};

// The process's context switches so far (every thread, joined ones included).
ContextSwitches context_switches() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return {static_cast<std::uint64_t>(usage.ru_nvcsw), static_cast<std::uint64_t>(usage.ru_nivcsw)};
}

// Prints one benchmark's counters from its repetitions; returns false if any count differed.
bool report(const Benchmark& benchmark, const std::vector<Outcome>& runs) {
  const std::string prefix = "savina-" + benchmark.label();
  const char* name = prefix.c_str();
  bool exact = true;
  for (const Outcome& run : runs) {
    for (const std::string& error : run.errors) {
      std::fprintf(stderr, "savina: error: %s: %s\n", benchmark.label().c_str(), error.c_str());
      exact = false;
    }
    if (run.statistics.dead_letters != 0) {
      std::fprintf(stderr, "savina: error: %s: %" PRIu64 " message(s) were not delivered\n",
                   benchmark.label().c_str(), run.statistics.dead_letters);
      exact = false;
    }
  }
  // The repetition with the median elapsed time supplies every figure.
  std::vector<const Outcome*> sorted;
  for (const Outcome& run : runs) sorted.push_back(&run);
  std::sort(sorted.begin(), sorted.end(),
            [](const Outcome* a, const Outcome* b) { return a->seconds < b->seconds; });
  const Outcome& median = *sorted[sorted.size() / 2];
  const double messages = static_cast<double>(median.messages);
  std::printf("PERFORMANCE_COUNTER %s-repetitions = %zu\n", name, runs.size());
  std::printf("PERFORMANCE_COUNTER %s-message-count = %" PRIu64 "\n", name, median.messages);
  std::printf("PERFORMANCE_COUNTER %s-elapsed-time = %f s\n", name, median.seconds);
  std::printf("PERFORMANCE_COUNTER %s-elapsed-time-min = %f s\n", name, sorted.front()->seconds);
  std::printf("PERFORMANCE_COUNTER %s-elapsed-time-max = %f s\n", name, sorted.back()->seconds);
  std::printf("PERFORMANCE_COUNTER %s-throughput = %f messages / s\n", name,
              messages / median.seconds);
  std::printf("PERFORMANCE_COUNTER %s-ns-per-message = %f ns\n", name,
              median.seconds * 1e9 / messages);
  for (const xenon::savina::Extra& extra : median.extras) {
    std::printf("PERFORMANCE_COUNTER %s-%s = %f %s\n", name, extra.name.c_str(), extra.value,
                extra.unit.c_str());
  }
  std::printf("PERFORMANCE_COUNTER %s-messages-to-other-workers = %" PRIu64 "\n", name,
              median.statistics.messages_to_other_workers);
  std::printf("PERFORMANCE_COUNTER %s-parks = %" PRIu64 "\n", name, median.statistics.parks);
  std::printf("PERFORMANCE_COUNTER %s-voluntary-context-switches = %" PRIu64 "\n", name,
              median.voluntary_context_switches);
  std::printf("PERFORMANCE_COUNTER %s-involuntary-context-switches = %" PRIu64 "\n", name,
              median.involuntary_context_switches);
  std::printf("PERFORMANCE_COUNTER %s-dead-letter-count = %" PRIu64 "\n", name,
              median.statistics.dead_letters);
  std::fflush(stdout);
  return exact;
}

int run_suite(int argc, char** argv) {
  xenon::EngineOptions engine_options;
  engine_options.threads_per_node = 3;  // two workers and the communication thread
  std::string selected = "all";
  std::int64_t repetitions = 3;
  auto suite = make_suite();
  std::string names;
  for (const auto& benchmark : suite) names += std::string(names.empty() ? "" : ", ") + benchmark->name();

  xenon::CommandLine command_line(
      "savina", "The Savina actor benchmarks on Xenon actors (" + names +
                    ").\nPrints PERFORMANCE_COUNTER lines; exits 1 if any message count differs.");
  xenon::add_engine_options(command_line, engine_options);
  command_line.add_string("benchmark", &selected, "the benchmark to run, or 'all'");
  command_line.add_integer("repetitions", &repetitions, 1, 101,
                           "runs per benchmark, each on a fresh engine (median reported)");
  for (const auto& benchmark : suite) benchmark->add_options(command_line);
  if (!command_line.parse(argc, argv)) return 0;

  std::vector<Benchmark*> chosen;
  for (const auto& benchmark : suite) {
    if (selected == "all" || selected == benchmark->name()) chosen.push_back(benchmark.get());
  }
  if (chosen.empty()) {
    throw xenon::CommandLineError("option -benchmark: unknown benchmark '" + selected +
                                  "' (known: " + names + ", all)");
  }
  for (Benchmark* benchmark : chosen) benchmark->check_options(engine_options);

  std::printf("PERFORMANCE_COUNTER savina-worker-count = %d\n", engine_options.worker_count());
  bool exact = true;
  for (Benchmark* benchmark : chosen) {
    std::vector<Outcome> runs;
    for (std::int64_t r = 0; r < repetitions; ++r) {
      const ContextSwitches before = context_switches();
      runs.push_back(benchmark->run(engine_options));
      const ContextSwitches after = context_switches();
      runs.back().voluntary_context_switches = after.voluntary - before.voluntary;
      runs.back().involuntary_context_switches = after.involuntary - before.involuntary;
    }
    exact &= report(*benchmark, runs);
  }
  return exact ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run_suite(argc, argv);
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "savina: error: %s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "savina: error: %s\n", error.what());
    return 1;
  }
}
