#include "genomics/counter/counter_settings.hpp"

#include <cstdio>

namespace xenon::genomics {
namespace {

std::string json_string(const std::string& text) {
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      quoted += escaped;
    } else {
      quoted += c;
    }
  }
  return quoted + '"';
}

}  // namespace

std::string summary_json(const CounterSettings& settings, const InputTally& tally,
                         const KmerHistogram& histogram) {
  std::string files;
  for (std::size_t i = 0; i < settings.files.size(); ++i) {
    files += (i == 0 ? "" : ", ") + json_string(settings.files[i]);
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
