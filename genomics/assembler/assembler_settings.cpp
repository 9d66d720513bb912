// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/assembler_settings.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include <xenon/xenon.hpp>

namespace xenon::genomics {

std::uint64_t coverage_threshold_from(const KmerHistogram& histogram) {
  std::map<std::uint64_t, std::uint64_t> kmers_by_count;
  histogram.for_each([&](std::uint64_t count, std::uint64_t kmers) { kmers_by_count[count] = kmers; });
  const auto kmers_at = [&](std::uint64_t count) {
    const auto found = kmers_by_count.find(count);
    return found == kmers_by_count.end() ? std::uint64_t{0} : found->second;
  };
  constexpr std::uint64_t kLargestThreshold = 1000;
  for (std::uint64_t count = 2; count < kLargestThreshold; ++count) {
    if (kmers_at(count + 1) != 0 && kmers_at(count) <= kmers_at(count + 1)) return count;
  }
  return 2;
}

CoverageThreshold choose_coverage_threshold(const AssemblerSettings& settings, const KmerHistogram& histogram,
                                            const std::vector<KRound>& rounds_before) {
  if (settings.coverage_threshold != 0) return {settings.coverage_threshold, kThresholdFromOption};
  const std::uint64_t from_histogram = coverage_threshold_from(histogram);
  if (!rounds_before.empty() && rounds_before.back().coverage_threshold < from_histogram) {
    return {rounds_before.back().coverage_threshold, kThresholdFromRoundBefore};
  }
  return {from_histogram, kThresholdFromHistogram};
}

std::uint64_t solid_floor(const AssemblerSettings& settings, std::uint64_t threshold) {
  return settings.coverage_threshold != 0 ? settings.coverage_threshold : std::min(kSolidFloor, threshold);
}

bool builds_count_filter(const AssemblerSettings& settings) {
  return settings.count_filter && settings.first_round && settings.carry_to_next_round &&
         settings.coverage_threshold != 1 && settings.counting.k <= 32;
}

bool reads_count_filter(const AssemblerSettings& settings) {
  return settings.count_filter && !settings.first_round && settings.first_round_filter_words != 0 &&
         settings.coverage_threshold != 1 && !settings.k_rounds.empty() && settings.k_rounds.front() <= settings.counting.k;
}

std::string contig_name(std::size_t index) { return "contig_" + std::to_string(index + 1); }

std::size_t n50(const std::vector<Unitig>& contigs) {
  std::vector<std::size_t> lengths;
  for (const Unitig& contig : contigs) lengths.push_back(contig.bases.size());
  return n50_of_lengths(std::move(lengths));
}

std::size_t n50_of_lengths(std::vector<std::size_t> lengths) {
  std::size_t total = 0;
  for (const std::size_t length : lengths) total += length;
  std::sort(lengths.rbegin(), lengths.rend());
  std::size_t running = 0;
  for (const std::size_t length : lengths) {
    running += length;
    if (2 * running >= total) return length;
  }
  return 0;
}

KRound round_record(const AssemblerSettings& settings, const AssemblyOutcome& outcome) {
  return {settings.counting.k, outcome.coverage_threshold, outcome.coverage_threshold_source,
          solid_floor(settings, outcome.coverage_threshold), outcome.solid_kmers, outcome.read_bridges};
}

std::string k_rounds_json(const std::vector<KRound>& rounds) {
  std::string json = "[";
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    const KRound& round = rounds[i];
    json += std::string(i == 0 ? "" : ", ") + "{\"k\": " + std::to_string(round.k) +
            ", \"coverage_threshold\": " + std::to_string(round.coverage_threshold) +
            ", \"coverage_threshold_from\": " + json_quoted(round.coverage_threshold_source) +
            ", \"solid_floor\": " + std::to_string(round.solid_floor) +
            ", \"solid_kmers\": " + std::to_string(round.solid_kmers) +
            ", \"read_bridges\": " + std::to_string(round.read_bridges) + "}";
  }
  return json + "]";
}

std::string assembly_json(const AssemblerSettings& settings, const AssemblyOutcome& outcome) {
  std::string json = "{\n";
  const auto field = [&](const char* name, std::uint64_t value, bool last = false) {
    json += "  \"" + std::string(name) + "\": " + std::to_string(value) + (last ? "\n" : ",\n");
  };
  field("k", static_cast<std::uint64_t>(settings.counting.k));
  field("coverage_threshold", outcome.coverage_threshold);
  json += "  \"k_rounds\": " + k_rounds_json(outcome.rounds) + ",\n";
  field("solid_kmers", outcome.solid_kmers);
  field("edges", outcome.edges);
  field("unitigs", outcome.unitigs);
  field("cycles", outcome.cycles);
  field("weak_branches_removed", outcome.cleaning.weak_branches_removed);
  field("tips_removed", outcome.cleaning.tips_removed);
  field("bubbles_popped", outcome.cleaning.bubbles_popped);
  std::uint64_t read_bridges = 0;  // of every round
  for (const KRound& round : outcome.rounds) read_bridges += round.read_bridges;
  field("read_bridges", read_bridges);
  field("repeats_resolved", outcome.repeats_resolved);
  field("minimum_contig_length", settings.minimum_contig);
  field("contigs", outcome.contigs);
  field("total_length", outcome.total_length);
  field("largest_contig", outcome.largest_contig);
  field("n50", outcome.n50);
  field("scaffolds", outcome.scaffolds);
  field("scaffold_total_length", outcome.scaffold_total_length);
  field("scaffold_n50", outcome.scaffold_n50);
  field("insert_size", outcome.insert_size, true);
  return json + "}\n";
}

}  // namespace xenon::genomics
