// SPDX-License-Identifier: BSD-3-Clause
#include "core/cpu_topology.hpp"

// XENON_HWLOC=0 (make CONFIG_HWLOC=n, used by the cross builds, whose sysroots have no
// hwloc) keeps the same class without hwloc: it counts the allowed CPUs and reports that
// pinning is unavailable instead of pinning.
#ifndef XENON_HWLOC
#define XENON_HWLOC 1
#endif

#if XENON_HWLOC
#include <hwloc.h>
#else
#include <sched.h>

#include <cstdio>
#endif

#include <sstream>
#include <stdexcept>
#include <vector>

namespace xenon {

#if XENON_HWLOC

struct CpuTopology::State {
  hwloc_topology_t topology = nullptr;
  hwloc_bitmap_t allowed = nullptr;
  std::vector<unsigned> pu_order;  // OS indices of allowed PUs, one per core first
};

CpuTopology::CpuTopology() : state_(std::make_unique<State>()) {
  if (hwloc_topology_init(&state_->topology) != 0 || hwloc_topology_load(state_->topology) != 0) {
    throw std::runtime_error("hwloc could not load the machine topology");
  }
  state_->allowed = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(state_->topology, state_->allowed, HWLOC_CPUBIND_PROCESS) != 0 ||
      hwloc_bitmap_iszero(state_->allowed)) {
    hwloc_bitmap_copy(state_->allowed, hwloc_topology_get_allowed_cpuset(state_->topology));
  }
  // Order: the first allowed PU of every core, then the second PU of every core, ... so
  // that workers land on distinct cores before sharing one through SMT.
  const int cores = hwloc_get_nbobjs_by_type(state_->topology, HWLOC_OBJ_CORE);
  std::vector<std::vector<unsigned>> per_core;
  for (int c = 0; c < cores; ++c) {
    hwloc_obj_t core = hwloc_get_obj_by_type(state_->topology, HWLOC_OBJ_CORE, c);
    std::vector<unsigned> pus;
    unsigned index;
    hwloc_bitmap_foreach_begin(index, core->cpuset) {
      if (hwloc_bitmap_isset(state_->allowed, index)) pus.push_back(index);
    }
    hwloc_bitmap_foreach_end();
    if (!pus.empty()) per_core.push_back(std::move(pus));
  }
  for (std::size_t round = 0;; ++round) {
    bool any = false;
    for (const auto& pus : per_core) {
      if (round < pus.size()) {
        state_->pu_order.push_back(pus[round]);
        any = true;
      }
    }
    if (!any) break;
  }
  if (state_->pu_order.empty()) {
    unsigned index;
    hwloc_bitmap_foreach_begin(index, state_->allowed) { state_->pu_order.push_back(index); }
    hwloc_bitmap_foreach_end();
  }
}

CpuTopology::~CpuTopology() {
  if (state_->allowed != nullptr) hwloc_bitmap_free(state_->allowed);
  if (state_->topology != nullptr) hwloc_topology_destroy(state_->topology);
}

int CpuTopology::allowed_pu_count() const { return static_cast<int>(state_->pu_order.size()); }

std::string CpuTopology::describe() const {
  hwloc_topology_t topology = state_->topology;
  std::ostringstream out;
  out << hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PACKAGE) << " package(s), "
      << hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE) << " NUMA node(s), "
      << hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE) << " core(s), "
      << hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PU) << " PU(s); allowed PUs:";
  for (unsigned pu : state_->pu_order) out << ' ' << pu;
  return out.str();
}

int CpuTopology::pin_current_thread(int slot) const {
  if (state_->pu_order.empty()) return -1;
  const unsigned pu = state_->pu_order[static_cast<std::size_t>(slot) % state_->pu_order.size()];
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  hwloc_bitmap_only(set, pu);
  const int result = hwloc_set_cpubind(state_->topology, set, HWLOC_CPUBIND_THREAD);
  hwloc_bitmap_free(set);
  return result == 0 ? static_cast<int>(pu) : -1;
}

#else  // XENON_HWLOC

struct CpuTopology::State {
  int allowed = 1;
};

CpuTopology::CpuTopology() : state_(std::make_unique<State>()) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) {
    state_->allowed = CPU_COUNT(&set);
  }
  std::fputs("xenon: pinning unavailable: built without hwloc (CONFIG_HWLOC=n); threads stay "
             "unpinned\n",
             stderr);
}

CpuTopology::~CpuTopology() = default;

int CpuTopology::allowed_pu_count() const { return state_->allowed; }

std::string CpuTopology::describe() const {
  return "topology unknown (built without hwloc); " + std::to_string(state_->allowed) +
         " CPU(s) allowed";
}

int CpuTopology::pin_current_thread(int) const { return -1; }

#endif  // XENON_HWLOC

}  // namespace xenon
