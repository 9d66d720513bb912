// SPDX-License-Identifier: BSD-3-Clause
// Repeat resolution: a unitig entered and left n ways, where reads pair each way in with one
// way out, copied into each of those paths; the reads, not the graph, say which way on is true.
#include "genomics/assembler/unitig_graph.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace xenon::genomics {

std::uint64_t UnitigGraph::resolve_repeats(const Passages& passages, std::uint32_t minimum_passages) {
  const Junctions joined = junctions();
  std::vector<bool> used(unitigs_.size(), false);
  struct Plan {
    std::size_t repeat;
    std::vector<std::pair<Oriented, Oriented>> paths;  // way in, way out
  };
  std::vector<Plan> plans;
  for (std::size_t repeat = 0; repeat < unitigs_.size(); ++repeat) {
    if (unitigs_[repeat].circular || used[repeat]) continue;
    const std::span<const Oriented> ins = before(joined, 2 * repeat);
    const std::span<const Oriented> outs = after(joined, 2 * repeat);
    if (ins.size() < 2 || ins.size() != outs.size()) continue;
    std::vector<std::size_t> neighbours;
    for (const Oriented oriented : ins) neighbours.push_back(oriented / 2);
    for (const Oriented oriented : outs) neighbours.push_back(oriented / 2);
    std::sort(neighbours.begin(), neighbours.end());
    const bool distinct = std::adjacent_find(neighbours.begin(), neighbours.end()) == neighbours.end();
    if (!distinct || std::binary_search(neighbours.begin(), neighbours.end(), repeat) ||
        std::any_of(neighbours.begin(), neighbours.end(), [&](std::size_t index) { return used[index]; })) {
      continue;
    }
    // The repeat must be the only way on from each way in, and the only way into each way out:
    // otherwise joining them would cut the links to the others.
    const bool alone = std::all_of(ins.begin(), ins.end(), [&](Oriented in) {
      const std::span<const Oriented> on = after(joined, in);
      return on.size() == 1 && on[0] == 2 * repeat;
    }) && std::all_of(outs.begin(), outs.end(), [&](Oriented out) {
      const std::span<const Oriented> from = before(joined, out);
      return from.size() == 1 && from[0] == 2 * repeat;
    });
    if (!alone) continue;
    Plan plan{repeat, {}};
    std::vector<bool> out_taken(outs.size(), false);
    bool settled = true;
    for (const Oriented in : ins) {
      std::size_t chosen = outs.size();
      std::uint64_t others = 0;  // a sum of 32-bit counts
      for (std::size_t o = 0; o < outs.size(); ++o) {
        const std::uint32_t reads = passages(in, 2 * repeat, outs[o]);
        if (reads >= minimum_passages && chosen == outs.size()) {
          chosen = o;
        } else {
          others += reads;
        }
      }
        if (chosen == outs.size() || others > 1 || out_taken[chosen]) {
        settled = false;
        break;
      }
      out_taken[chosen] = true;
      plan.paths.emplace_back(in, outs[chosen]);
    }
    if (!settled) continue;
    used[repeat] = true;
    for (const std::size_t index : neighbours) used[index] = true;
    plans.push_back(std::move(plan));
  }
  if (plans.empty()) return 0;
  const std::size_t overlap = static_cast<std::size_t>(k_) - 1;
  std::vector<Unitig> joined_paths;
  for (const Plan& plan : plans) {
    // Each copy of the repeat gets an equal share of its counts.
    const Unitig& repeat = unitigs_[plan.repeat];
    for (const auto& [in, out] : plan.paths) {
      Unitig path;
      path.bases = oriented_bases(in) + oriented_bases(2 * plan.repeat).substr(overlap) + oriented_bases(out).substr(overlap);
      path.coverage_sum = unitigs_[in / 2].coverage_sum + repeat.coverage_sum / plan.paths.size() +
                          unitigs_[out / 2].coverage_sum;
      path.kmers = unitigs_[in / 2].kmers + repeat.kmers + unitigs_[out / 2].kmers;
      joined_paths.push_back(std::move(path));
    }
  }
  remove(used);
  for (Unitig& path : joined_paths) unitigs_.push_back(std::move(path));
  in_canonical_order_ = false;
  compacted_ = false;
  compact();
  return plans.size();
}

}  // namespace xenon::genomics
