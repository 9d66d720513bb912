#pragma once

#include <cstdio>
#include <exception>
#include <string>

#include "engine/xenon.hpp"
#include "genomics/counter/counter_protocol.hpp"
#include "genomics/counter/counter_settings.hpp"
#include "genomics/counter/kmer_parser.hpp"

namespace xenon::genomics {

// The frame of a genomics tool's main(): parse() (false after --help; an exception is a usage
// error: one line, exit status 2), then run() (its exit status; an exception: one line, 1).
template <class Parse, class Run>
int tool_main(const char* program, Parse&& parse, Run&& run) {
  try {
    if (!parse()) return 0;
  } catch (const std::exception& error) {  // CommandLineError or a usage error
    std::fprintf(stderr, "%s: error: %s\n", program, error.what());
    return 2;
  }
  try {
    return run();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: error: %s\n", program, error.what());
    return 1;
  }
}

// Every node registers the parsers (spawned by name from node 0), for both k-mer widths.
inline void register_parsers(Engine& engine) {
  engine.register_actor_type<KmerParser<1>>(std::string(kParserType1));
  engine.register_actor_type<KmerParser<2>>(std::string(kParserType2));
}

// After the run, on node 0: the counter's outcome as the tool's exit status, with one line on
// failure and the files written on success (after `summary`, the tool's own line).
template <class Summary>
int report_outcome(const char* program, const CounterOutcome& outcome, Summary&& summary) {
  if (!outcome.succeeded) {
    std::fprintf(stderr, "%s: error: %s\n", program, outcome.error.c_str());
    return 1;
  }
  summary();
  for (const std::string& file : outcome.files_written) std::printf("  wrote %s\n", file.c_str());
  return 0;
}

}  // namespace xenon::genomics
