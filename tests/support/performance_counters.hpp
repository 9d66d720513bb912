// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace xenon::testing {

// The "PERFORMANCE_COUNTER name = value [unit]" lines of a probe's output, in order, as
// (name, value without its unit).
inline std::vector<std::pair<std::string, std::string>> counter_lines(const std::string& output) {
  std::vector<std::pair<std::string, std::string>> result;
  std::istringstream lines(output);
  std::string line;
  const std::string prefix = "PERFORMANCE_COUNTER ";
  while (std::getline(lines, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    const auto equals = line.find(" = ");
    if (equals == std::string::npos) continue;
    const std::string value = line.substr(equals + 3);
    result.emplace_back(line.substr(prefix.size(), equals - prefix.size()),
                        value.substr(0, value.find(' ')));
  }
  return result;
}

// The same, by name.
inline std::map<std::string, std::string> counters_by_name(const std::string& output) {
  const auto lines = counter_lines(output);
  return {lines.begin(), lines.end()};
}

}  // namespace xenon::testing
