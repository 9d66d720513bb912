// SPDX-License-Identifier: BSD-3-Clause
// Compaction: unitigs joined through junctions with one way in and one way out, then put in
// sequence order (each in its smaller orientation, a cycle from its smallest k-mer), so that
// the graph does not depend on the order in which its pieces were added or joined.
#include "genomics/assembler/unitig_graph.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {

void UnitigGraph::compact() {
  if (compacted_) return;  // nothing added or removed since: no junction could join more
  if (!in_canonical_order_) sort_canonically();
  const Junctions joined = junctions();
  // The one unitig after `oriented` when the junction between them has one way in and one out.
  const auto next = [&](Oriented oriented) -> std::optional<Oriented> {
    const std::span<const Oriented> following = after(joined, oriented);
    if (following.size() != 1 || following[0] / 2 == oriented / 2) return std::nullopt;
    if (before(joined, following[0]).size() != 1) return std::nullopt;
    return following[0];
  };
  std::vector<bool> used(unitigs_.size(), false);
  std::vector<Unitig> joined_unitigs;
  joined_unitigs.reserve(unitigs_.size());
  bool changed = false;  // whether any unitig was joined or found to be a cycle
  for (std::size_t index = 0; index < unitigs_.size(); ++index) {
    if (used[index]) continue;
    if (unitigs_[index].circular) {
      used[index] = true;
      joined_unitigs.push_back(std::move(unitigs_[index]));
      continue;
    }
    // Back to the chain's first unitig, or around a cycle to this one.
    Oriented first = 2 * index;
    bool circular = false;
    for (std::size_t steps = 0; steps <= unitigs_.size(); ++steps) {
      const std::optional<Oriented> previous = next(first ^ 1);
      if (!previous) break;
      if (*previous / 2 == index) {
        circular = true;
        first = 2 * index;
        break;
      }
      first = *previous ^ 1;
    }
    std::vector<Oriented> chain{first};
    used[first / 2] = true;
    for (std::optional<Oriented> following = next(first); following && !used[*following / 2];
         following = next(*following)) {
      chain.push_back(*following);
      used[*following / 2] = true;
    }
    if (chain.size() == 1) {  // a unitig that ends where it begins and meets nothing else
      const std::span<const Oriented> following = after(joined, first);
      circular = following.size() == 1 && following[0] == first && before(joined, first).size() == 1;
      if (!circular) {  // as it was, already in its canonical orientation: no copy
        joined_unitigs.push_back(std::move(unitigs_[first / 2]));
        continue;
      }
    }
    changed = true;
    Unitig merged;
    merged.circular = circular;
    for (const Oriented oriented : chain) {
      const std::string bases = oriented_bases(oriented);
      merged.bases += merged.bases.empty() ? bases : bases.substr(static_cast<std::size_t>(k_) - 1);
      merged.coverage_sum += unitigs_[oriented / 2].coverage_sum;
      merged.kmers += unitigs_[oriented / 2].kmers;
    }
    joined_unitigs.push_back(std::move(merged));
  }
  unitigs_ = std::move(joined_unitigs);
  // Unchanged, the unitigs are still in the order of the sort above.
  if (changed) sort_canonically();
  compacted_ = true;
}

// A cycle's bases read from its smallest k-mer (either strand), so the same cycle is always
// written the same way whoever walked it from wherever. Keeps the k-1 bases repeated at the end.
std::string UnitigGraph::canonical_rotation(const std::string& bases) const {
  const std::size_t k = static_cast<std::size_t>(k_);
  // add() refuses unitigs shorter than k, so a circle holds a k-mer at least.
  if (bases.size() < k) throw std::invalid_argument("a circular unitig shorter than k");
  const std::string circle = bases.substr(0, bases.size() - (k - 1));
  const std::size_t length = circle.size();
  const std::string doubled = circle + circle;
  std::string best;
  std::size_t best_start = 0;
  bool best_reversed = false;
  for (std::size_t start = 0; start < length; ++start) {
    const std::string_view kmer = std::string_view(doubled).substr(start, std::min(k, length));
    const std::string reverse = reverse_complement(kmer);
    if (best.empty() || kmer < best) {
      best.assign(kmer);
      best_start = start;
      best_reversed = false;
    }
    if (reverse < best) {
      best = reverse;
      best_start = start;
      best_reversed = true;
    }
  }
  std::string rotated;
  if (!best_reversed) {
    rotated = doubled.substr(best_start, length);
  } else {
    // The smallest k-mer is the reverse complement of the one at best_start: read the
    // reversed circle from where that k-mer begins in it.
    const std::string reverse = reverse_complement(circle);
    const std::size_t from = (2 * length - best_start - std::min(k, length)) % length;
    rotated = (reverse + reverse).substr(from, length);
  }
  // The k-1 bases after the end, read around the circle (however short it is).
  std::string closed = rotated;
  for (std::size_t i = 0; i + 1 < k; ++i) closed += rotated[i % length];
  return closed;
}

void UnitigGraph::sort_canonically() {
  for (Unitig& unitig : unitigs_) {
    if (unitig.circular) {
      unitig.bases = canonical_rotation(unitig.bases);
      continue;
    }
    if (reverse_sorts_first(unitig.bases)) unitig.bases = reverse_complement(unitig.bases);
  }
  std::sort(unitigs_.begin(), unitigs_.end(), [](const Unitig& a, const Unitig& b) { return a.bases < b.bases; });
  in_canonical_order_ = true;
}

}  // namespace xenon::genomics
