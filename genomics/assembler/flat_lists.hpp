// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace xenon::genomics {

// Many short lists (the unitigs of each read, each read's bases) in one array, with where
// each begins: a vector per list costs a header and an allocation each, more than the few
// values a read's list holds.
template <class T>
class FlatLists {
 public:
  void push_back(std::span<const T> list) {
    values_.insert(values_.end(), list.begin(), list.end());
    ends_.push_back(values_.size());
  }
  std::span<const T> operator[](std::size_t index) const {
    const std::size_t begin = index == 0 ? 0 : ends_[index - 1];
    return {values_.data() + begin, ends_[index] - begin};
  }
  std::size_t size() const { return ends_.size(); }
  bool empty() const { return ends_.empty(); }
  void clear() {
    values_ = {};
    ends_ = {};
  }

 private:
  std::vector<T> values_;
  std::vector<std::size_t> ends_;  // one past each list's last value
};

}  // namespace xenon::genomics
