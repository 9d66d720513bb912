// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <string>
#include <vector>

#include "genomics/assembler/assembler_settings.hpp"
#include "genomics/io/run_log.hpp"

namespace xenon::genomics {

inline constexpr const char* kRunRecordFile = "run.json";

// How the run went, as one JSON object, for whoever finds the output folder later (the log
// says the same in lines, for a person): Xenon's version, the command line, each input with
// its role and size, k, the coverage threshold and where it came from, the cleaning and
// repeat settings as applied, the layout (nodes, workers), and each phase that ended before
// the files were written, with its seconds. Unlike assembly.json, it depends on time.
// `nodes` and `workers` are the engine's; `phases` the log's (RunLog::phases()).
std::string run_json(const AssemblerSettings& settings, const AssemblyOutcome& outcome,
                     const std::vector<RunLog::Phase>& phases, int nodes, int workers);

}  // namespace xenon::genomics
