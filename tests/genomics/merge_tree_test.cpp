// SPDX-License-Identifier: BSD-3-Clause
// The tree the stores merge the first round's filter along (genomics/assembler/merge_tree.hpp).
#include "genomics/assembler/merge_tree.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

namespace {

using namespace xenon::genomics;

std::size_t ceil_log2(std::size_t n) {
  std::size_t bits = 0;
  while ((std::size_t{1} << bits) < n) ++bits;
  return bits;
}

// Every store but 0 is the child of exactly its parent, each part reaches store 0, and no
// store merges, nor any chain is, longer than ceil(log2 n).
TEST(MergeTree, ReachesStoreZeroOnceFromEveryStoreInLogarithmicSteps) {
  for (std::size_t stores = 1; stores <= 70; ++stores) {
    std::vector<std::size_t> times_a_child(stores, 0);
    for (std::size_t store = 0; store < stores; ++store) {
      const std::vector<std::size_t> children = merge_tree::children(store, stores);
      EXPECT_LE(children.size(), ceil_log2(stores)) << store << " of " << stores;
      for (const std::size_t child : children) {
        ASSERT_LT(child, stores);
        EXPECT_EQ(merge_tree::parent(child), store) << child << " of " << stores;
        ++times_a_child[child];
      }
    }
    EXPECT_EQ(times_a_child[0], 0u);
    for (std::size_t store = 1; store < stores; ++store) {
      EXPECT_EQ(times_a_child[store], 1u) << store << " of " << stores;
      std::size_t steps = 0;
      for (std::size_t at = store; at != 0; at = merge_tree::parent(at)) ++steps;
      EXPECT_LE(steps, ceil_log2(stores)) << store << " of " << stores;
    }
  }
}

TEST(MergeTree, EightStores) {
  EXPECT_EQ(merge_tree::children(0, 8), (std::vector<std::size_t>{1, 2, 4}));
  EXPECT_EQ(merge_tree::children(4, 8), (std::vector<std::size_t>{5, 6}));
  EXPECT_EQ(merge_tree::children(6, 8), (std::vector<std::size_t>{7}));
  EXPECT_TRUE(merge_tree::children(7, 8).empty());
  EXPECT_EQ(merge_tree::children(4, 6), (std::vector<std::size_t>{5}));
  EXPECT_EQ(merge_tree::parent(7), 6u);
  EXPECT_EQ(merge_tree::parent(6), 4u);
  EXPECT_EQ(merge_tree::parent(4), 0u);
}

}  // namespace
