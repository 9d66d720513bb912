// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <vector>

// A binary tree over the stores 0 .. n-1, along which what every store needs goes down from
// store 0 (the threading request: thread_protocol.hpp), or what merges could go up to it:
// store s's parent is s less its lowest set bit; its children are s + 1, s + 2, s + 4, ...
// below that bit (every power of two for store 0) and below n. So store 0 sends ceil(log2 n)
// copies, no store more, and the longest chain is as long, where sending from one place would
// have it send n - 1.
namespace xenon::genomics::merge_tree {

// Where store `store` (not 0) sends its merged part.
inline std::size_t parent(std::size_t store) { return store - (store & (~store + 1)); }

// The stores whose parts `store` merges before it sends its own, of `stores` in all.
inline std::vector<std::size_t> children(std::size_t store, std::size_t stores) {
  std::vector<std::size_t> found;
  const std::size_t lowest_bit = store & (~store + 1);  // 0 for store 0: no bound below
  for (std::size_t step = 1; store + step < stores && (lowest_bit == 0 || step < lowest_bit); step *= 2) {
    found.push_back(store + step);
  }
  return found;
}

}  // namespace xenon::genomics::merge_tree
