// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <thread>

namespace xenon::bench {

// Busy-waiting for the other thread without a pause hint (the probe wants the raw latency),
// but yielding once every 65,536 fruitless polls, so that two spinning threads that happen
// to share one core (unpinned, or a one-core machine) still make progress. On two free cores
// a wait never gets that long, and the yield never runs.
class SpinWait {
 public:
  void poll() noexcept {
    if ((++polls_ & 0xffff) == 0) std::this_thread::yield();
  }

 private:
  std::uint64_t polls_ = 0;
};

}  // namespace xenon::bench
