// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/run_record.hpp"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include <xenon/xenon.hpp>
#include "genomics/io/input_copies.hpp"

namespace xenon::genomics {
namespace {

std::string quoted_list(const std::vector<std::string>& words) {
  std::string text = "[";
  for (std::size_t i = 0; i < words.size(); ++i) text += (i == 0 ? "" : ", ") + json_quoted(words[i]);
  return text + "]";
}

// The bytes of an input as given (compressed, if it is): of its copy for standard input and
// pipes, which the run holds while it writes its files.
std::string input_bytes(const std::string& input) {
  std::error_code error;
  const std::uintmax_t bytes = std::filesystem::file_size(file_to_read(input), error);
  return error ? "null" : std::to_string(bytes);
}

}  // namespace

std::string run_json(const AssemblerSettings& settings, const AssemblyOutcome& outcome,
                     const std::vector<RunLog::Phase>& phases, int nodes, int workers) {
  const CounterSettings& counting = settings.counting;
  std::string json = "{\n";
  json += "  \"program\": \"assembler\",\n";
  json += "  \"version\": " + json_quoted(XENON_VERSION_STRING) + ",\n";
  json += "  \"command_line\": " + quoted_list(settings.command_line) + ",\n";
  json += "  \"inputs\": [";
  for (std::size_t i = 0; i < counting.files.size(); ++i) {
    const InputRole role = counting.roles.empty() ? InputRole::kPositional : counting.roles[i];
    json += std::string(i == 0 ? "\n" : ",\n") + "    {\"file\": " + json_quoted(counting.files[i]) +
            ", \"role\": " + json_quoted(role_name(role)) + ", \"bytes\": " + input_bytes(counting.files[i]) + "}";
  }
  json += "\n  ],\n";
  json += "  \"nodes\": " + std::to_string(nodes) + ",\n";
  json += "  \"workers_per_node\": " + std::to_string(workers) + ",\n";
  json += "  \"k\": " + std::to_string(counting.k) + ",\n";
  json += "  \"k_rounds\": " + k_rounds_json(outcome.rounds) + ",\n";
  json += "  \"k_rounds_from\": " + json_quoted(settings.k_rounds_from) + ",\n";
  json += "  \"coverage_threshold\": " + std::to_string(outcome.coverage_threshold) + ",\n";
  json += "  \"coverage_threshold_from\": " + json_quoted(outcome.coverage_threshold_source) + ",\n";
  json += "  \"solid_floor\": " + std::to_string(solid_floor(settings, outcome.coverage_threshold)) + ",\n";
  json += "  \"tip_length\": " + std::to_string(settings.cleaning.tip_length_for(counting.k)) + ",\n";
  json += "  \"bubble_length\": " + std::to_string(settings.cleaning.bubble_length_for(counting.k)) + ",\n";
  json += "  \"cleaning_rounds\": " + std::to_string(settings.cleaning.rounds) + ",\n";
  json += std::string("  \"read_bridges\": ") + (settings.read_bridges ? "true" : "false") + ",\n";
  json += std::string("  \"count_filter\": ") + (settings.count_filter ? "true" : "false") + ",\n";
  json += "  \"repeat_rounds\": " + std::to_string(settings.repeat_rounds) + ",\n";
  json += "  \"minimum_passages\": " + std::to_string(settings.minimum_passages) + ",\n";
  json += "  \"minimum_contig_length\": " + std::to_string(settings.minimum_contig) + ",\n";
  json += "  \"phases\": [";
  for (std::size_t i = 0; i < phases.size(); ++i) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f",
                  static_cast<double>(phases[i].ended_unix_nanoseconds - phases[i].began_unix_nanoseconds) / 1e9);
    json += std::string(i == 0 ? "\n" : ",\n") + "    {\"name\": " + json_quoted(phases[i].name) +
            ", \"seconds\": " + seconds + "}";
  }
  json += "\n  ]\n";
  return json + "}\n";
}

}  // namespace xenon::genomics
