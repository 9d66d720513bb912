// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace xenon::testing {

// The sequences of a FASTA text (an assembler's contigs or scaffolds), in order, each record's
// lines joined.
inline std::vector<std::string> fasta_sequences(const std::string& fasta) {
  std::vector<std::string> sequences;
  std::istringstream lines(fasta);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    if (line[0] == '>') {
      sequences.emplace_back();
    } else if (!sequences.empty()) {
      sequences.back() += line;
    }
  }
  return sequences;
}

}  // namespace xenon::testing
