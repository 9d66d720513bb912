// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace xenon::testing {

// A SequenceParser visitor that collects every record's sequence: FASTA lines joined, and a
// record cut across blocks is one (the bases carried into the next block were collected with
// the previous one, and must be its last).
struct RecordCollector {
  std::vector<std::string> sequences;
  void begin_record() { sequences.emplace_back(); }
  void resume_record(std::string_view carried) {
    ASSERT_FALSE(sequences.empty());
    const std::string& so_far = sequences.back();
    ASSERT_GE(so_far.size(), carried.size());
    EXPECT_EQ(so_far.substr(so_far.size() - carried.size()), carried) << "carried bases are the record's last";
  }
  void bases(std::string_view line) { sequences.back() += line; }
};

}  // namespace xenon::testing
