// SPDX-License-Identifier: BSD-3-Clause
// The one-thread (driven) mode, and polling: with -threads-per-node 1 the node's only
// worker runs the communicator between its rounds; a transport whose frames arrive
// unannounced is polled, by that worker or by the communication thread.
#include <thread>

#include "engine/communicator.hpp"
#include "transport/transport.hpp"

namespace xenon {

// Whether a poll goes on after a frame. The worker that drives us stops at the first frame
// after an empty poll (a message to an idle node is run, and its reply sent, before anything
// else is tested) and when its mailboxes hold a full backlog; a steady flow is taken whole.
bool Communicator::keep_polling(bool after_empty_poll) const noexcept {
  return driving_worker_ == nullptr ||
         (!after_empty_poll && driving_worker_->has_room_for_arrivals());
}

void Communicator::sleep_between_polls() {
  // Frames can arrive without anyone waking us. Keep polling for kPollBeforeSleeping (a
  // reply is usually that close), then sleep between polls: 20 us at first, up to 1 ms when
  // nothing comes (at most ~1000 wake-ups per second when idle).
  // While our sends are unfinished, MPI needs our calls to finish them: keep polling.
  if (transport_.sends_in_flight() > 0) {
    std::this_thread::yield();
    return;
  }
  const auto now = MonotonicClock::now();
  if (!idle_polling_) {
    idle_polling_ = true;
    idle_since_ = now;
  }
  if (now - idle_since_ < kPollBeforeSleeping) {
    std::this_thread::yield();
    return;
  }
  sleep_microseconds_ = sleep_microseconds_ == 0 ? 20 : std::min(2 * sleep_microseconds_, 1000u);
  std::this_thread::sleep_for(std::chrono::microseconds(sleep_microseconds_));
}

}  // namespace xenon
