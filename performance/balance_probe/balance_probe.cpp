// SPDX-License-Identifier: BSD-3-Clause
// balance_probe: an uneven fork-join whose work all starts on worker 0, to measure load
// balancing (EngineOptions::balance). The root, on worker 0, spawns every task there with
// Actor::spawn(); the tasks' sizes are random (exponential), so neither their number nor
// their sizes split evenly by hand. Each task computes a chain of xorshift steps and sends
// the result to the root. With -balance off, worker 0 does all of it; with -balance on,
// idle workers take ready tasks from it. The probe checks the sum of the results against
// the same computation done on the program's thread before the run.
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>
#include <xenon/xenon.hpp>

namespace {

constexpr xenon::Action ACTION_START{"balance.start"};
constexpr xenon::Action ACTION_TASK{"balance.task"};
constexpr xenon::Action ACTION_RESULT{"balance.result"};

struct ProbeOptions {
  std::int64_t task_count = 4000;
  std::int64_t mean_task_steps = 200000;  // about 0.2 ms each on a current core
  std::uint64_t seed = 1;
  std::string counters_json;
};

std::uint64_t xorshift(std::uint64_t x) noexcept {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

// A task's work: `steps` dependent xorshift steps from `start` (no shortcut exists).
std::uint64_t task_result(std::uint64_t start, std::uint64_t steps) noexcept {
  std::uint64_t x = start | 1;
  for (std::uint64_t i = 0; i < steps; ++i) x = xorshift(x);
  return x;
}

struct Task {
  std::uint64_t start;
  std::uint64_t steps;
};

// Exponentially distributed sizes around the mean, from the seed.
std::vector<Task> plan_tasks(const ProbeOptions& options) {
  std::vector<Task> tasks;
  std::uint64_t random = options.seed * 0x9E3779B97F4A7C15ull + 1;
  for (std::int64_t t = 0; t < options.task_count; ++t) {
    random = xorshift(random);
    const double uniform = (static_cast<double>(random >> 11) + 0.5) / 9007199254740992.0;
    const double steps = -std::log(uniform) * static_cast<double>(options.mean_task_steps);
    tasks.push_back({xorshift(random ^ 0xA5A5A5A5ull), static_cast<std::uint64_t>(steps) + 1});
  }
  return tasks;
}

struct RootResult {
  std::uint64_t results = 0;
  std::uint64_t sum = 0;
  double elapsed_seconds = 0;
};

class TaskActor final : public xenon::Actor {
 public:
  void receive(const xenon::Message& message) override {
    const auto task = message.payload_as<Task>();
    send_value(supervisor(), ACTION_RESULT, task_result(task.start, task.steps));
    stop();
  }
};

// On worker 0: spawns every task there (children of spawn() may move), then adds up results.
class Root final : public xenon::Actor {
 public:
  Root(const std::vector<Task>& tasks, RootResult& result) : tasks_(tasks), result_(result) {}
  void receive(const xenon::Message& message) override {
    if (message.action() == ACTION_START) {
      began_ = std::chrono::steady_clock::now();
      for (const Task& task : tasks_) send_value(spawn<TaskActor>(), ACTION_TASK, task);
    } else if (message.action() == ACTION_RESULT) {
      result_.sum += message.payload_as<std::uint64_t>();
      if (++result_.results == tasks_.size()) {
        result_.elapsed_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - began_).count();
      }
    } else if (message.action() == xenon::ACTION_CHILD_STOPPED) {
      if (++stopped_ == tasks_.size()) stop();
    }
  }

 private:
  const std::vector<Task>& tasks_;
  RootResult& result_;
  std::chrono::steady_clock::time_point began_;
  std::uint64_t stopped_ = 0;
};

int run_probe(int argc, char** argv) {
  xenon::EngineOptions engine_options;
  ProbeOptions options;
  xenon::CommandLine command_line(
      "balance_probe",
      "An uneven fork-join, every task spawned on worker 0 with random sizes, to measure load "
      "balancing (-balance on|off);\nprints PERFORMANCE_COUNTER lines (see "
      "performance/balance_probe/README.md).");
  xenon::add_engine_options(command_line, engine_options);
  command_line.add_integer("task-count", &options.task_count, 1, 10000000,
                           "tasks spawned on worker 0");
  command_line.add_integer("mean-task-steps", &options.mean_task_steps, 1, 1000000000,
                           "mean xorshift steps per task (exponentially distributed)");
  command_line.add_unsigned("seed", &options.seed, "seed of the task sizes");
  command_line.add_string("counters-json", &options.counters_json,
                          "also write the counters to this file, as JSON");
  if (!command_line.parse(argc, argv)) return 0;
  if (!options.counters_json.empty()) {
    const std::string problem = xenon::CounterReport::destination_problem(options.counters_json);
    if (!problem.empty()) throw xenon::CommandLineError("option -counters-json: " + problem);
  }

  xenon::Engine engine(engine_options);
  if (engine.node_count() != 1) {
    throw xenon::CommandLineError("balance_probe balances within one node: run it without mpiexec");
  }
  const std::vector<Task> tasks = plan_tasks(options);
  std::uint64_t expected = 0;
  std::uint64_t total_steps = 0;
  for (const Task& task : tasks) {
    expected += task_result(task.start, task.steps);
    total_steps += task.steps;
  }

  RootResult result;
  engine.send(engine.spawn<Root>(tasks, result), ACTION_START);
  engine.run();
  const xenon::EngineStatistics statistics = engine.statistics();

  xenon::CounterReport report("balance_probe");
  report.add_text("type", "uneven-fork-join");
  report.add_text("balance", engine_options.balance ? "on" : "off");
  report.add_integer("worker-count", static_cast<std::uint64_t>(engine.worker_count()));
  report.add_integer("task-count", tasks.size());
  report.add_integer("task-steps", total_steps);
  report.add_real("elapsed-time", result.elapsed_seconds, "s");
  report.add_integer("actors-moved", statistics.actors_moved);
  for (std::size_t w = 0; w < statistics.worker_busy_nanoseconds.size(); ++w) {
    report.add_real("worker-" + std::to_string(w) + "-busy-time",
                    static_cast<double>(statistics.worker_busy_nanoseconds[w]) / 1e9, "s");
  }
  report.add_integer("dead-letter-count", statistics.dead_letters);
  report.print(stdout);
  std::fflush(stdout);
  if (!options.counters_json.empty()) report.write_json(options.counters_json);

  if (result.results != tasks.size() || result.sum != expected || statistics.dead_letters != 0) {
    std::fprintf(stderr,
                 "balance_probe: error: %" PRIu64 " of %zu results, sum %016" PRIx64
                 " (expected %016" PRIx64 "), %" PRIu64 " dead letters\n",
                 result.results, tasks.size(), result.sum, expected, statistics.dead_letters);
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run_probe(argc, argv);
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "balance_probe: error: %s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "balance_probe: error: %s\n", error.what());
    return 1;
  }
}
