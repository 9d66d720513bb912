// SPDX-License-Identifier: BSD-3-Clause
// idle_probe: how much CPU an idle runtime burns. One actor on worker 0 blocks in receive()
// for the whole measurement (as a long computation would); every other worker and the
// communication thread have nothing to do and should park. Prints the process's CPU time
// over the idle period as a fraction of one core.
#include <chrono>
#include <cstdio>
#include <thread>

#include <xenon/xenon.hpp>

namespace {

inline constexpr xenon::Action ACTION_START{"idle_probe.start"};

class Sleeper final : public xenon::Actor {
 public:
  Sleeper(std::int64_t milliseconds, double& cpu_seconds, double& wall_seconds)
      : milliseconds_(milliseconds), cpu_seconds_(cpu_seconds), wall_seconds_(wall_seconds) {}
  void receive(const xenon::Message&) override {
    // Give the other threads time to back off to parking before measuring.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const double cpu_start = xenon::process_cpu_seconds();
    const auto wall_start = xenon::MonotonicClock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds_));
    cpu_seconds_ = xenon::process_cpu_seconds() - cpu_start;
    wall_seconds_ = xenon::seconds_between(wall_start, xenon::MonotonicClock::now());
    stop();
  }

 private:
  std::int64_t milliseconds_;
  double& cpu_seconds_;
  double& wall_seconds_;
};

}  // namespace

int main(int argc, char** argv) {
  xenon::EngineOptions options;
  options.threads_per_node = 3;
  std::int64_t milliseconds = 1000;
  xenon::CommandLine command_line("idle_probe", "Measures the CPU an idle runtime uses.");
  xenon::add_engine_options(command_line, options);
  command_line.add_integer("milliseconds", &milliseconds, 1, 3600000, "length of the idle period");
  try {
    if (!command_line.parse(argc, argv)) return 0;
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "idle_probe: error: %s\n", error.what());
    return 2;
  }
  double cpu_seconds = 0, wall_seconds = 0;
  xenon::Engine engine(options);
  engine.send(engine.spawn<Sleeper>(milliseconds, cpu_seconds, wall_seconds), ACTION_START);
  engine.run();
  std::printf("PERFORMANCE_COUNTER idle-thread-count = %d\n",
              engine.worker_count() - 1 + (options.has_communication_thread() ? 1 : 0));
  std::printf("PERFORMANCE_COUNTER idle-wall-time = %f s\n", wall_seconds);
  std::printf("PERFORMANCE_COUNTER idle-cpu-time = %f s\n", cpu_seconds);
  std::printf("PERFORMANCE_COUNTER idle-cpu-fraction-of-one-core = %f\n", cpu_seconds / wall_seconds);
  return 0;
}
