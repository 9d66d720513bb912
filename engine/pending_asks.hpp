// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>

#include "xenon/core/clock.hpp"
#include "xenon/engine/actor_name.hpp"
#include "xenon/engine/ask.hpp"
#include "xenon/engine/timer.hpp"

namespace xenon {

// A worker's asks still waiting for their answer (a response or the timeout), and those
// answered whose continuation has not run yet. An entry ends when its continuation runs
// (or, without one, when its answer is queued for receive()), or when its actor stops;
// a response that finds no open entry is late. One thread only (the worker's).
class PendingAsks {
 public:
  struct Ask {
    std::uint32_t owner;  // index of the asking actor on this worker
    ActorName asked;      // the source of a timeout notice
    TimerId timeout;
    MonotonicClock::time_point deadline;
    AskContinuation then;  // empty: the answer goes to receive()
    bool answered = false;
  };

  bool empty() const noexcept { return asks_.empty(); }

  // A new request number (1 to 2^31 - 1, then round again: far more than can be pending).
  std::uint64_t open(std::uint32_t owner, ActorName asked, MonotonicClock::time_point deadline,
                     AskContinuation then) {
    const std::uint64_t request = next_request_;
    next_request_ = next_request_ == kReplyAddressBit - 1 ? 1 : next_request_ + 1;
    asks_.emplace(request, Ask{owner, asked, TimerId{}, deadline, std::move(then)});
    return request;
  }
  void set_timeout(std::uint64_t request, TimerId timeout) { asks_.at(request).timeout = timeout; }

  // The ask `request` if it still waits for its answer, else nullptr (a late response).
  Ask* waiting(std::uint64_t request) noexcept {
    const auto ask = asks_.find(request);
    return ask == asks_.end() || ask->second.answered ? nullptr : &ask->second;
  }
  // Its answer is queued: it keeps its entry only while a continuation waits to run.
  void answered(std::uint64_t request) {
    const auto ask = asks_.find(request);
    if (ask->second.then) {
      ask->second.answered = true;
    } else {
      asks_.erase(ask);
    }
  }
  // The continuation of an answered ask, taken out with its entry (empty if none).
  AskContinuation take_continuation(std::uint64_t request) {
    const auto ask = asks_.find(request);
    if (ask == asks_.end()) return {};
    AskContinuation then = std::move(ask->second.then);
    asks_.erase(ask);
    return then;
  }
  // Its actor stopped: its asks end unanswered.
  void forget_owned_by(std::uint32_t owner) noexcept {
    std::erase_if(asks_, [owner](const auto& ask) { return ask.second.owner == owner; });
  }

 private:
  std::unordered_map<std::uint64_t, Ask> asks_;
  std::uint64_t next_request_ = 1;
};

}  // namespace xenon
