// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <string>
#include <vector>

namespace xenon {

// Writes the report of a run (--report) to `path`: one self-contained HTML page (no
// network: the data, the style and the script that draws inline SVG are all in it) from
// every node's observation (engine/observation_json.hpp), indexed by node. Throws
// std::runtime_error naming the file if it cannot be written. The page's script sets
// data-rendered="yes" on <body> when every chart is drawn ("error: WHY" if one failed).
void write_run_report(const std::string& path, const std::vector<std::string>& node_observations);

}  // namespace xenon
