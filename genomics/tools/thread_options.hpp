// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <sched.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>

#include <xenon/xenon.hpp>

namespace xenon::genomics {

// Ranks that mpiexec started on this host (Open MPI, or MPICH's Hydra); 1 outside mpiexec.
inline int ranks_on_this_host() {
  for (const char* variable : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}) {
    if (const char* value = std::getenv(variable)) {  // NOLINT(concurrency-mt-unsafe): before any thread
      const int ranks = std::atoi(value);
      if (ranks >= 1) return ranks;
    }
  }
  return 1;
}

// The cores this process should compute on: the CPUs of its mask (taskset, a cgroup's
// cpuset, mpiexec's binding), shared evenly among the MPI ranks of this host, at least one.
// When Open MPI bound each rank to cores of its own, the mask already is the rank's share.
inline int available_cores() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  int cpus = sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask)
                                                            : static_cast<int>(std::thread::hardware_concurrency());
  cpus = std::max(cpus, 1);
  const bool bound_by_mpiexec = std::getenv("OMPI_MCA_orte_bound_at_launch") != nullptr;  // NOLINT(concurrency-mt-unsafe)
  return bound_by_mpiexec ? cpus : std::max(1, cpus / ranks_on_this_host());
}

// How a tool's threads are chosen: -t N or --threads=N, as Jellyfish, KMC, SPAdes and MEGAHIT
// take them, for N workers that compute (with N >= 2 the engine adds a communication thread:
// -t N is -threads-per-node N+1, and -t 1 is -threads-per-node 1, one worker that also
// communicates); or the engine's own -threads-per-node. One of them at most; without either,
// one worker per available core.
class ThreadOptions {
 public:
  ThreadOptions() : default_workers_(std::clamp<std::int64_t>(available_cores(), 1, kMaxWorkers)) {}

  // Registers -t, --threads and the engine's options (-threads-per-node among them), each
  // showing the default in --help.
  void add_to(CommandLine& command_line, EngineOptions& options) {
    t_ = threads_ = default_workers_;
    command_line.add_integer("t", &t_, 1, kMaxWorkers,
                             "worker threads that compute, per node; from 2 on, the engine adds a "
                             "communication thread (-t N is -threads-per-node N+1); by default the "
                             "cores available to this process, shared among the MPI ranks of its host");
    command_line.add_integer("threads", &threads_, 1, kMaxWorkers, "the same as -t");
    options.threads_per_node = threads_per_node_for(default_workers_);
    add_engine_options(command_line, options);
  }

  // After parsing: the threads per node that were asked for, into `options`. Throws
  // CommandLineError when more than one of -t, --threads and -threads-per-node was given.
  void resolve(const CommandLine& command_line, EngineOptions& options) {
    const bool t_given = command_line.given("t");
    const bool threads_given = command_line.given("threads");
    if (t_given && threads_given) throw CommandLineError("-t and --threads both given: give the worker threads once");
    if ((t_given || threads_given) && command_line.given("threads-per-node")) {
      throw CommandLineError("-t/--threads and -threads-per-node both given: give one (-t N is -threads-per-node N+1)");
    }
    if (t_given || threads_given) {
      const std::int64_t workers = t_given ? t_ : threads_;
      chosen_by_ = "-t " + std::to_string(workers);
      options.threads_per_node = threads_per_node_for(workers);
    } else if (command_line.given("threads-per-node")) {
      chosen_by_ = "-threads-per-node " + std::to_string(options.threads_per_node);
    } else {
      chosen_by_ = "default: the cores available, " + std::to_string(default_workers_) + " here";
    }
  }

  // For the log: "3 workers + 1 communication thread per node (-t 3)".
  std::string describe(const EngineOptions& options) const {
    const int workers = options.worker_count();
    return std::to_string(workers) + (workers == 1 ? " worker" : " workers") +
           (options.has_communication_thread() ? " + 1 communication thread" : " (which also communicates)") +
           " per node (" + chosen_by_ + ")";
  }

 private:
  static constexpr std::int64_t kMaxWorkers = ActorName::kMaxWorkers;

  static std::int64_t threads_per_node_for(std::int64_t workers) { return workers == 1 ? 1 : workers + 1; }

  std::int64_t default_workers_;
  std::int64_t t_ = 0;
  std::int64_t threads_ = 0;
  std::string chosen_by_;
};

}  // namespace xenon::genomics
