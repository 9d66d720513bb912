// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "genomics/assembler/graph_gfa.hpp"
#include "genomics/io/run_log.hpp"

namespace xenon::genomics {

// Whether to draw graph.png (--graph-image): always, never, or when the graph is small and
// Bandage is installed.
enum class GraphImage { yes, no, automatic };

// "yes", "no" or "auto"; throws std::invalid_argument naming the option otherwise.
GraphImage graph_image_from(const std::string& word);

// With --graph-image auto, graphs up to these sizes are drawn: Bandage lays out a graph of a
// bacterial genome's few thousand segments in seconds, but takes minutes and draws an
// unreadable tangle for one of a hundred thousand.
inline constexpr std::uint64_t kAutomaticImageSegments = 5000;
inline constexpr std::uint64_t kAutomaticImageBases = 20'000'000;

// Bandage's path: the first executable "Bandage" on PATH, or nullopt.
std::optional<std::string> find_bandage();

// Draws `gfa_path` into `png_path` with `Bandage image`, headless (QT_QPA_PLATFORM=offscreen),
// as a child process: Bandage writes a temporary name (NAME.partial-PID.png: it picks the
// format by the ending) that is renamed to `png_path` once Bandage succeeded, so no partial
// picture is ever seen; Bandage is killed if the run ends first (even by SIGKILL). Throws
// std::runtime_error with Bandage's exit status (or signal) and the last line it printed.
void draw_with_bandage(const std::string& bandage, const std::string& gfa_path, const std::string& png_path);

// graph.png as `mode` asks, after graph.gfa is published at `gfa_path`: drawn (returns its
// path) or skipped, with a line in `log` saying why. With `yes`, a missing Bandage or a failed
// drawing throws; with `automatic`, either is a line in the log and no picture.
std::optional<std::string> draw_graph_image(GraphImage mode, const GraphFile& graph, const std::string& gfa_path,
                                            const std::string& png_path, RunLog& log);

}  // namespace xenon::genomics
