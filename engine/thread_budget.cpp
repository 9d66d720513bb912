// SPDX-License-Identifier: BSD-3-Clause
#include "engine/thread_budget.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>

#include "xenon/engine/message.hpp"

namespace xenon {
namespace {

// The cores this process may run on (a batch job's CPU set, not the whole machine).
int usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  const unsigned cores = std::thread::hardware_concurrency();
  return cores > 0 ? static_cast<int>(cores) : 1;
}

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;  // unknown: not checked
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

std::string gigabytes(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB", static_cast<double>(bytes) / 1e9);
  return text;
}

}  // namespace

std::size_t ring_capacity(int worker_count) { return worker_count <= 16 ? 1024 : 256; }

std::uint64_t ring_bytes(int worker_count) {
  const auto workers = static_cast<std::uint64_t>(worker_count);
  const std::uint64_t rings = workers * (workers - 1) + 2 * workers;
  return rings * ring_capacity(worker_count) * sizeof(Message);
}

void check_thread_budget(std::int64_t threads_per_node, int worker_count) {
  check_thread_budget(threads_per_node, worker_count, usable_cores(), physical_memory_bytes());
}

void check_thread_budget(std::int64_t threads_per_node, int worker_count, int cores,
                         std::uint64_t memory_bytes) {
  const std::string option = "-threads-per-node " + std::to_string(threads_per_node);
  const int most_workers = std::max(kWorkersAlwaysAllowed, kWorkersPerCore * cores);
  if (worker_count > most_workers) {
    throw std::invalid_argument(
        option + ": " + std::to_string(worker_count) + " workers on " + std::to_string(cores) +
        " core(s); at most " + std::to_string(most_workers) + " workers are allowed (" +
        std::to_string(kWorkersPerCore) + " per core, at least " +
        std::to_string(kWorkersAlwaysAllowed) + ")");
  }
  if (memory_bytes == 0) return;
  const std::uint64_t rings = ring_bytes(worker_count);
  if (rings > memory_bytes / kRingMemoryShare) {
    throw std::invalid_argument(option + ": the rings between " + std::to_string(worker_count) +
                                " workers would take " + gigabytes(rings) +
                                ", more than a quarter of this machine's " +
                                gigabytes(memory_bytes) + " of memory");
  }
}

}  // namespace xenon
