// SPDX-License-Identifier: BSD-3-Clause
// The graph itself: its unitigs read either way, the junctions (k-1 bases) where they meet and
// the links through them. Every other step on the graph (compaction, cleaning, repeats,
// contigs) reads it through these.
#include "genomics/assembler/unitig_graph.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {

void UnitigGraph::add(std::string bases, std::uint64_t coverage_sum, bool circular) {
  if (bases.size() < static_cast<std::size_t>(k_)) {
    throw std::invalid_argument("a unitig of " + std::to_string(bases.size()) + " bases is shorter than k");
  }
  Unitig unitig;
  unitig.coverage_sum = coverage_sum;
  unitig.kmers = bases.size() - static_cast<std::size_t>(k_) + 1;
  unitig.bases = std::move(bases);
  unitig.circular = circular;
  unitigs_.push_back(std::move(unitig));
}

std::string UnitigGraph::oriented_bases(Oriented oriented) const {
  const std::string& bases = unitigs_[oriented / 2].bases;
  return oriented % 2 == 0 ? bases : reverse_complement(bases);
}

std::string UnitigGraph::first_junction(Oriented oriented) const {
  const std::string& bases = unitigs_[oriented / 2].bases;
  const std::size_t length = static_cast<std::size_t>(k_) - 1;
  return oriented % 2 == 0 ? bases.substr(0, length)
                           : reverse_complement(std::string_view(bases).substr(bases.size() - length));
}

std::string UnitigGraph::last_junction(Oriented oriented) const {
  const std::string& bases = unitigs_[oriented / 2].bases;
  const std::size_t length = static_cast<std::size_t>(k_) - 1;
  return oriented % 2 == 0 ? bases.substr(bases.size() - length)
                           : reverse_complement(std::string_view(bases).substr(0, length));
}

UnitigGraph::JunctionKey UnitigGraph::junction_key(const std::string& bases, std::size_t from, bool reversed) const {
  const std::size_t length = static_cast<std::size_t>(k_) - 1;
  const auto code_of = [&bases](std::size_t at) {
    const int code = kBaseCodes[static_cast<unsigned char>(bases[at])];
    if (code < 0) throw std::logic_error(std::string("a unitig holds the letter '") + bases[at] + "', not A, C, G or T");
    return static_cast<std::uint64_t>(code);
  };
  JunctionKey key{};
  if (!reversed) {
    for (std::size_t at = 0; at < length; ++at) key[at / 32] |= code_of(from + at) << (2 * (at % 32));
  } else {  // the complement (A <-> T, C <-> G) of the bases from the last
    for (std::size_t at = 0; at < length; ++at) {
      key[at / 32] |= (code_of(from + length - 1 - at) ^ 3) << (2 * (at % 32));
    }
  }
  return key;
}

UnitigGraph::JunctionKey UnitigGraph::first_junction_key(Oriented oriented) const {
  const std::string& bases = unitigs_[oriented / 2].bases;
  const std::size_t length = static_cast<std::size_t>(k_) - 1;
  return oriented % 2 == 0 ? junction_key(bases, 0, false) : junction_key(bases, bases.size() - length, true);
}

UnitigGraph::JunctionKey UnitigGraph::last_junction_key(Oriented oriented) const {
  const std::string& bases = unitigs_[oriented / 2].bases;
  const std::size_t length = static_cast<std::size_t>(k_) - 1;
  return oriented % 2 == 0 ? junction_key(bases, bases.size() - length, false) : junction_key(bases, 0, true);
}

std::size_t UnitigGraph::JunctionKeyHash::operator()(const JunctionKey& key) const noexcept {
  std::uint64_t hash = 0;
  for (const std::uint64_t word : key) {
    hash = (hash ^ word) * 0x9E3779B97F4A7C15ULL;
    hash ^= hash >> 29;
  }
  return static_cast<std::size_t>(hash);
}

UnitigGraph::Junctions UnitigGraph::junctions() const {
  Junctions junctions;
  junctions.first_keys.resize(2 * unitigs_.size());
  junctions.last_keys.resize(2 * unitigs_.size());
  junctions.beginning.reserve(2 * unitigs_.size());
  junctions.ending.reserve(2 * unitigs_.size());
  for (std::size_t index = 0; index < unitigs_.size(); ++index) {
    // A circular unitig's junctions are asked for (its key is its own) but lead nowhere else.
    for (const Oriented oriented : {2 * index, 2 * index + 1}) {
      junctions.first_keys[oriented] = first_junction_key(oriented);
      junctions.last_keys[oriented] = last_junction_key(oriented);
      if (unitigs_[index].circular) continue;
      junctions.beginning[junctions.first_keys[oriented]].push_back(oriented);
      junctions.ending[junctions.last_keys[oriented]].push_back(oriented);
    }
  }
  return junctions;
}

const std::vector<UnitigGraph::Oriented>& UnitigGraph::after(const Junctions& junctions, Oriented oriented) const {
  static const std::vector<Oriented> kNone;
  const auto found = junctions.beginning.find(junctions.last_keys.at(oriented));
  return found == junctions.beginning.end() ? kNone : found->second;
}

const std::vector<UnitigGraph::Oriented>& UnitigGraph::before(const Junctions& junctions, Oriented oriented) const {
  static const std::vector<Oriented> kNone;
  const auto found = junctions.ending.find(junctions.first_keys.at(oriented));
  return found == junctions.ending.end() ? kNone : found->second;
}

std::vector<std::pair<UnitigGraph::Oriented, UnitigGraph::Oriented>> UnitigGraph::links() const {
  const Junctions joined = junctions();
  std::vector<std::pair<Oriented, Oriented>> links;
  for (std::size_t index = 0; index < unitigs_.size(); ++index) {
    if (unitigs_[index].circular) {  // its last k-1 bases are its first: it follows itself
      links.emplace_back(2 * index, 2 * index);
      continue;
    }
    for (const Oriented from : {2 * index, 2 * index + 1}) {
      for (const Oriented to : after(joined, from)) {
        // Of the link and the same link read the other way, the smaller pair is listed.
        if (std::pair(from, to) <= std::pair(to ^ 1, from ^ 1)) links.emplace_back(from, to);
      }
    }
  }
  std::sort(links.begin(), links.end());
  return links;
}

void UnitigGraph::remove(const std::vector<bool>& removed) {
  std::vector<Unitig> kept;
  kept.reserve(unitigs_.size());
  for (std::size_t index = 0; index < unitigs_.size(); ++index) {
    if (!removed[index]) kept.push_back(std::move(unitigs_[index]));
  }
  unitigs_ = std::move(kept);
}

}  // namespace xenon::genomics
