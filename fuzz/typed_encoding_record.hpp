// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The type the typed-encoding fuzzer decodes: every kind of encoding, nested.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "xenon/core/typed_encoding.hpp"

namespace xenon::fuzzing {

struct FuzzInner {
  std::uint16_t small = 0;
  std::optional<std::string> name;
  static constexpr auto fields = xenon::fields(&FuzzInner::small, &FuzzInner::name);
};

struct FuzzRecord {
  std::string text;
  std::vector<std::optional<std::int32_t>> numbers;
  std::map<std::string, std::vector<bool>> flags;
  std::pair<double, char> pair{};
  std::vector<FuzzInner> inners;
  std::map<std::int64_t, float> by_number;
  std::vector<std::uint16_t> shorts;  // a vector of numbers: one block copy on little-endian hosts
  static constexpr auto fields =
      xenon::fields(&FuzzRecord::text, &FuzzRecord::numbers, &FuzzRecord::flags, &FuzzRecord::pair,
                    &FuzzRecord::inners, &FuzzRecord::by_number, &FuzzRecord::shorts);
};

}  // namespace xenon::fuzzing
