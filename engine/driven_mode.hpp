// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>

#include "xenon/engine/message.hpp"

namespace xenon {

// With -threads-per-node 1 the node's only worker runs the communicator between its rounds
// (the one-thread, or driven, mode), and messages pass between the two by direct calls on
// that one thread instead of through rings. Each sees the other only through one of these.

// What the driving worker calls on the communicator.
class DrivenCommunicator {
 public:
  // One round of the communicator's work; true if anything happened. Without
  // take_arrivals it only sends (the driving worker has enough to do).
  virtual bool progress(bool take_arrivals = true) = 0;
  // A message from one of the node's actors for another node (or for the communicator).
  virtual void route_outgoing(const Message& message) = 0;
  // Sends the frames that wait to fill up now (a turn that sent them may be followed by a
  // long one: Worker::release_off_node_messages()).
  virtual void send_waiting_frames() = 0;
  // Frames and attachments the transport still holds.
  virtual std::size_t sends_in_flight() const = 0;
  // Whether an idle driver must keep polling (the transport cannot wake it), and how it
  // waits between two polls.
  virtual bool must_poll() const noexcept = 0;
  virtual void sleep_between_polls() = 0;

 protected:
  ~DrivenCommunicator() = default;
};

// What the communicator calls on the worker that drives it.
class DrivingWorker {
 public:
  // A message that arrived for one of this worker's actors.
  virtual void deliver_arrival(const Message& message) = 0;
  // Whether to take more arrivals this round (a frame can hold thousands of messages, more
  // than a round runs: past a backlog, frames wait in the transport instead).
  virtual bool has_room_for_arrivals() const noexcept = 0;

 protected:
  ~DrivingWorker() = default;
};

}  // namespace xenon
