// SPDX-License-Identifier: BSD-3-Clause
// The graph itself: its unitigs read either way, the junctions (k-1 bases) where they meet and
// the links through them. Every other step on the graph (compaction, cleaning, repeats,
// contigs) reads it through these.
#include "genomics/assembler/unitig_graph.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
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
  in_canonical_order_ = false;
  compacted_ = false;
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

JunctionKey UnitigGraph::junction_key(const std::string& bases, std::size_t from, bool reversed) const {
  const std::size_t length = static_cast<std::size_t>(k_) - 1;
  // Each base's code read without a branch; a letter other than A, C, G or T (code -1) sets
  // bits above the two of a base in `letters`, checked once at the end.
  const auto* text = reinterpret_cast<const unsigned char*>(bases.data()) + from;
  std::uint64_t letters = 0;
  JunctionKey key{};
  for (std::size_t at = 0; at < length; ++at) {
    // Read reversed, the complement (A <-> T, C <-> G, code ^ 3) of the bases from the last.
    const auto code = static_cast<std::uint64_t>(static_cast<std::int64_t>(
        reversed ? kBaseCodes[text[length - 1 - at]] ^ 3 : kBaseCodes[text[at]]));
    letters |= code;
    key[at / 32] |= (code & 3) << (2 * (at % 32));
  }
  if ((letters & ~std::uint64_t{3}) != 0) {
    for (std::size_t at = 0; at < length; ++at) {
      if (kBaseCodes[text[at]] < 0) {
        throw std::logic_error(std::string("a unitig holds the letter '") + bases[from + at] + "', not A, C, G or T");
      }
    }
  }
  return key;
}

JunctionKey UnitigGraph::first_junction_key(Oriented oriented) const {
  const std::string& bases = unitigs_[oriented / 2].bases;
  const std::size_t length = static_cast<std::size_t>(k_) - 1;
  return oriented % 2 == 0 ? junction_key(bases, 0, false) : junction_key(bases, bases.size() - length, true);
}

JunctionKey UnitigGraph::last_junction_key(Oriented oriented) const {
  const std::string& bases = unitigs_[oriented / 2].bases;
  const std::size_t length = static_cast<std::size_t>(k_) - 1;
  return oriented % 2 == 0 ? junction_key(bases, bases.size() - length, false) : junction_key(bases, 0, true);
}

UnitigGraph::Junctions UnitigGraph::junctions() const {
  Junctions junctions;
  junctions.first_keys.resize(2 * unitigs_.size());
  junctions.last_keys.resize(2 * unitigs_.size());
  std::vector<std::pair<JunctionKey, Oriented>> beginning;
  std::vector<std::pair<JunctionKey, Oriented>> ending;
  beginning.reserve(2 * unitigs_.size());
  ending.reserve(2 * unitigs_.size());
  for (std::size_t index = 0; index < unitigs_.size(); ++index) {
    // A circular unitig's junctions are asked for (its key is its own) but lead nowhere else.
    for (const Oriented oriented : {2 * index, 2 * index + 1}) {
      junctions.first_keys[oriented] = first_junction_key(oriented);
      junctions.last_keys[oriented] = last_junction_key(oriented);
      if (unitigs_[index].circular) continue;
      beginning.emplace_back(junctions.first_keys[oriented], oriented);
      ending.emplace_back(junctions.last_keys[oriented], oriented);
    }
  }
  junctions.beginning = JunctionIndex(beginning);
  junctions.ending = JunctionIndex(ending);
  return junctions;
}

std::span<const UnitigGraph::Oriented> UnitigGraph::after(const Junctions& junctions, Oriented oriented) const {
  return junctions.beginning.at(junctions.last_keys.at(oriented));
}

std::span<const UnitigGraph::Oriented> UnitigGraph::before(const Junctions& junctions, Oriented oriented) const {
  return junctions.ending.at(junctions.first_keys.at(oriented));
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

std::vector<Unitig> UnitigGraph::take_unitigs() {
  std::vector<Unitig> taken = std::move(unitigs_);
  unitigs_.clear();  // a moved-from vector is only valid: now it is empty
  in_canonical_order_ = false;
  compacted_ = false;
  return taken;
}

void UnitigGraph::remove(const std::vector<bool>& removed) {
  std::vector<Unitig> kept;
  kept.reserve(unitigs_.size());
  for (std::size_t index = 0; index < unitigs_.size(); ++index) {
    if (!removed[index]) kept.push_back(std::move(unitigs_[index]));
  }
  unitigs_ = std::move(kept);
  compacted_ = false;  // a junction left with one way in and one out joins (the order holds)
}

}  // namespace xenon::genomics
