// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// What the engine's tests (engine_test.cpp, worker_test.cpp, outbound_channel_test.cpp)
// share: their actions and a node of a given thread count.

#include <xenon/xenon.hpp>

namespace xenon::testing {

inline constexpr Action ACTION_START{"test.start"};
inline constexpr Action ACTION_PING{"test.ping"};
inline constexpr Action ACTION_PONG{"test.pong"};
inline constexpr Action ACTION_SEQUENCE{"test.sequence"};
inline constexpr Action ACTION_BLOB{"test.blob"};
inline constexpr Action ACTION_STOP{"test.stop"};
inline constexpr Action ACTION_WORK{"test.work"};
inline constexpr Action ACTION_CHECK{"test.check"};

inline EngineOptions with_threads(int threads) {
  EngineOptions options;
  options.threads_per_node = threads;
  return options;
}

}  // namespace xenon::testing
