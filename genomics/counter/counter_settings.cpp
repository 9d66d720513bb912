// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/counter/counter_settings.hpp"

#include <xenon/xenon.hpp>

namespace xenon::genomics {

std::string summary_json(const CounterSettings& settings, const InputTally& tally,
                         const KmerHistogram& histogram) {
  std::string files;
  for (std::size_t i = 0; i < settings.files.size(); ++i) {
    files += (i == 0 ? "" : ", ") + json_quoted(settings.files[i]);
  }
  return "{\n"
         "  \"k\": " + std::to_string(settings.k) + ",\n"
         "  \"canonical\": true,\n"
         "  \"files\": [" + files + "],\n"
         "  \"records\": " + std::to_string(tally.records) + ",\n"
         "  \"bases\": " + std::to_string(tally.bases) + ",\n"
         "  \"total_kmers\": " + std::to_string(histogram.total_kmers()) + ",\n"
         "  \"distinct_kmers\": " + std::to_string(histogram.distinct_kmers()) + ",\n"
         "  \"unique_kmers\": " + std::to_string(histogram.unique_kmers()) + ",\n"
         "  \"max_count\": " + std::to_string(histogram.max_count()) + "\n"
         "}\n";
}

}  // namespace xenon::genomics
