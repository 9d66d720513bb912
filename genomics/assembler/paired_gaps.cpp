// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/paired_gaps.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {

namespace {

using Oriented = UnitigGraph::Oriented;

// The graph's dead ends (each read as leaving it) by their last bases, as many as asked for:
// only where one dead end ends so.
class DeadEndsBySuffix {
 public:
  explicit DeadEndsBySuffix(const DeadEnds& dead) : dead_(dead) {}

  std::optional<Oriented> find(std::string_view suffix) {
    const auto [of_length, made] = by_length_.try_emplace(suffix.size());
    if (made) of_length->second = made_index(suffix.size());
    const auto found = of_length->second.find(suffix);
    if (found == of_length->second.end()) return std::nullopt;
    return found->second;
  }

 private:
  using Index = std::map<std::string, Oriented, std::less<>>;
  Index made_index(std::size_t length) const {
    Index index;
    std::set<std::string, std::less<>> repeated;
    for (const auto& [end, junction] : dead_.junctions) {
      if (junction.size() < length) continue;
      std::string suffix = junction.substr(junction.size() - length);
      if (!index.emplace(suffix, end).second) repeated.insert(std::move(suffix));
    }
    for (const std::string& suffix : repeated) index.erase(suffix);
    return index;
  }

  const DeadEnds& dead_;
  std::map<std::size_t, Index> by_length_;
};

// How many read pairs leave each unitig (the first mate's last, read along the fragment) and
// enter another (the second mate's first).
class PairLinks {
 public:
  explicit PairLinks(const ReadThreads& threads) {
    threads.for_each_pair([this](auto first, auto second, std::uint32_t pairs, std::int64_t /*leads*/) {
      if (!first.empty() && !second.empty()) links_[{first.back(), second.front()}] += pairs;
    });
  }
  // Those from `from` into `to`, the fragment read either way.
  std::uint64_t between(Oriented from, Oriented to) const {
    std::uint64_t pairs = 0;
    for (const std::pair<Oriented, Oriented>& way : {std::pair{from, to}, std::pair{to ^ 1, from ^ 1}}) {
      const auto found = links_.find(way);
      if (found != links_.end()) pairs += found->second;
    }
    return pairs;
  }

 private:
  std::map<std::pair<Oriented, Oriented>, std::uint64_t> links_;
};

}  // namespace

std::vector<ReadBridge> paired_gaps(const UnitigGraph& graph, const std::vector<ShortOverlap>& overlaps,
                                    const ReadThreads& threads, std::uint64_t& ambiguous) {
  ambiguous = 0;
  if (overlaps.empty()) return {};
  const auto k = static_cast<std::size_t>(graph.k());
  const DeadEnds dead = DeadEnds::of(graph);
  DeadEndsBySuffix ends(dead);
  const PairLinks links(threads);
  // Each pair of ends once (read the way of the smaller `from`), its bases those of the most
  // reads (the latest round's when as many: the same gap is found again in each round).
  std::map<std::pair<Oriented, Oriented>, ReadBridge> linked;
  for (const ShortOverlap& overlap : overlaps) {
    const auto junction = static_cast<std::size_t>(overlap.k) - 1;
    if (overlap.k < 2 || static_cast<std::size_t>(overlap.k) > k || overlap.bases.size() < junction + 1) continue;
    const std::optional<Oriented> from = ends.find(std::string_view(overlap.bases).substr(0, junction));
    const std::optional<Oriented> into_reversed =
        ends.find(reverse_complement(std::string_view(overlap.bases).substr(overlap.bases.size() - junction)));
    if (!from || !into_reversed || *from / 2 == *into_reversed / 2) continue;
    const Oriented to = *into_reversed ^ 1;
    if (links.between(*from, to) < kLeastLinkingPairs) continue;
    // Widened to this graph's junctions: the rest of the one end's last k-1 bases before, of
    // the other's first k-1 after.
    ReadBridge bridge{*from, to,
                      dead.last_junction(*from).substr(0, k - 1 - junction) + overlap.bases +
                          dead.first_junction(to).substr(junction),
                      overlap.reads, true};
    if ((bridge.to ^ 1) < bridge.from) {
      bridge = {bridge.to ^ 1, bridge.from ^ 1, reverse_complement(bridge.bases), bridge.reads, true};
    }
    const auto [kept, first] = linked.try_emplace({bridge.from, bridge.to}, bridge);
    if (!first && bridge.reads >= kept->second.reads) kept->second = std::move(bridge);
  }
  std::map<Oriented, std::size_t> joins_of_end;  // each end read as leaving it
  for (const auto& [ends_joined, bridge] : linked) {
    ++joins_of_end[bridge.from];
    ++joins_of_end[bridge.to ^ 1];
  }
  for (const auto& [end, joins] : joins_of_end) ambiguous += joins > 1;
  std::vector<ReadBridge> joined;
  for (auto& [ends_joined, bridge] : linked) {
    if (joins_of_end[bridge.from] == 1 && joins_of_end[bridge.to ^ 1] == 1) joined.push_back(std::move(bridge));
  }
  return joined;
}

}  // namespace xenon::genomics
