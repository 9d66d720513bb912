// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <memory>
#include <string>

namespace xenon {

// The processing units this process may run on, as hwloc sees them, and pinning of threads
// to them. hwloc's binding calls ignore the process's CPU mask (taskset, mpirun), so we
// intersect with the process's own binding first and only ever pin inside it.
class CpuTopology {
 public:
  CpuTopology();
  ~CpuTopology();
  CpuTopology(const CpuTopology&) = delete;
  CpuTopology& operator=(const CpuTopology&) = delete;

  // Processing units (hardware threads) allowed to this process.
  int allowed_pu_count() const;

  // One line: packages, cores, PUs, and which PUs this process may use.
  std::string describe() const;

  // Pins the calling thread to the allowed PU number slot % allowed_pu_count(), spreading
  // consecutive slots over distinct cores first. Returns the OS index of that PU, or -1 if
  // binding failed (the thread then stays unpinned).
  int pin_current_thread(int slot) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace xenon
