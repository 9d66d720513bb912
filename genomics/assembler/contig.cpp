// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/contig.hpp"

#include <algorithm>
#include <string_view>

#include "genomics/assembler/assembler_settings.hpp"
#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {

std::size_t spelled_path_length(const std::vector<Unitig>& unitigs, int k,
                                std::span<const Contig::Oriented> path) {
  if (path.empty()) return 0;
  std::size_t length = 0;
  for (const Contig::Oriented oriented : path) length += unitigs[oriented / 2].bases.size();
  return length - (path.size() - 1) * (static_cast<std::size_t>(k) - 1);
}

std::string spelled_path(const std::vector<Unitig>& unitigs, int k, std::span<const Contig::Oriented> path) {
  const std::size_t overlap = static_cast<std::size_t>(k) - 1;
  std::string bases;
  bases.reserve(spelled_path_length(unitigs, k, path));
  for (const Contig::Oriented oriented : path) {
    const std::string& unitig = unitigs[oriented / 2].bases;
    const std::string reversed = oriented % 2 == 0 ? std::string() : reverse_complement(unitig);
    const std::string_view piece = oriented % 2 == 0 ? std::string_view(unitig) : std::string_view(reversed);
    bases.append(bases.empty() ? piece : piece.substr(overlap));
  }
  return bases;
}

std::string spelled_contig(const std::vector<Unitig>& unitigs, int k, const Contig& contig) {
  return spelled_path(unitigs, k, contig.path).substr(contig.from, contig.length);
}

namespace {

// The bases [from, from + count) of a unitig read forward (even) or reverse complemented (odd).
void append_oriented(std::string& out, const std::string& bases, Contig::Oriented oriented, std::size_t from,
                     std::size_t count) {
  if (oriented % 2 == 0) {
    out.append(bases, from, count);
    return;
  }
  out += reverse_complement(std::string_view(bases).substr(bases.size() - from - count, count));
}

// The contig's bases [from, from + count), read forward: each unitig of the path adds its
// bases after the k - 1 it shares with the one before (the first adds all of them).
std::string forward_window(const std::vector<Unitig>& unitigs, int k, const Contig& contig, std::size_t from,
                           std::size_t count) {
  const std::size_t overlap = static_cast<std::size_t>(k) - 1;
  std::string bases;
  bases.reserve(count);
  std::size_t begin = contig.from + from;  // in what the whole path spells
  const std::size_t end = begin + count;
  std::size_t start = 0;  // where the unitig's bases begin in what the path spells
  for (std::size_t step = 0; step < contig.path.size() && begin < end; ++step) {
    const Contig::Oriented oriented = contig.path[step];
    const std::string& unitig = unitigs[oriented / 2].bases;
    // Its own bases, those no unitig before it spelled, end here; they begin where the
    // unitig before's ended.
    const std::size_t own_end = start + unitig.size();
    if (begin < own_end) {
      const std::size_t taken = std::min(end, own_end) - begin;
      append_oriented(bases, unitig, oriented, begin - start, taken);
      begin += taken;
    }
    start = own_end - overlap;
  }
  return bases;
}

}  // namespace

std::string spelled_window(const std::vector<Unitig>& unitigs, int k, const Contig& contig, bool reversed,
                           std::size_t from, std::size_t count) {
  if (from >= contig.length) return {};
  count = std::min(count, contig.length - from);
  if (!reversed) return forward_window(unitigs, k, contig, from, count);
  // Read the other way, the window is the reverse complement of the one as far from the end.
  return reverse_complement(forward_window(unitigs, k, contig, contig.length - from - count, count));
}

void spell_in_windows(const std::vector<Unitig>& unitigs, int k, const Contig& contig, std::size_t window,
                      const std::function<void(std::string_view)>& take) {
  window = std::max<std::size_t>(window, 1);
  for (std::size_t from = 0; from < contig.length; from += window) {
    take(spelled_window(unitigs, k, contig, false, from, window));
  }
}

int compare_spelled(const std::vector<Unitig>& unitigs, int k, const Contig& a, bool a_reversed, const Contig& b,
                    bool b_reversed) {
  // Windows that double, so a pair that differs early reads a few bases, and one that does not
  // reads each base about twice.
  std::size_t window = 64;
  for (std::size_t from = 0;; from += window, window *= 2) {
    const std::string a_bases = spelled_window(unitigs, k, a, a_reversed, from, window);
    const std::string b_bases = spelled_window(unitigs, k, b, b_reversed, from, window);
    if (const int order = a_bases.compare(b_bases); order != 0) return order;
    if (a_bases.size() < window) return 0;  // both ended here, alike
  }
}

Contig reversed_contig(const std::vector<Unitig>& unitigs, int k, Contig contig) {
  const std::size_t spelled = spelled_path_length(unitigs, k, contig.path);
  std::reverse(contig.path.begin(), contig.path.end());
  for (Contig::Oriented& oriented : contig.path) oriented ^= 1;
  // What the path spells is now read from its other end.
  contig.from = spelled - (contig.from + contig.length);
  return contig;
}

std::size_t contig_n50(const std::vector<Contig>& contigs) {
  std::vector<std::size_t> lengths;
  lengths.reserve(contigs.size());
  for (const Contig& contig : contigs) lengths.push_back(contig.length);
  return n50_of_lengths(std::move(lengths));
}

}  // namespace xenon::genomics
