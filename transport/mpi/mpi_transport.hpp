// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <mpi.h>

#include <deque>
#include <functional>
#include <vector>

#include "transport/transport.hpp"

namespace xenon {

// Frames between the processes of an MPI job, with non-blocking calls only.
//
// Receiving: kPostedReceives receives of up to kSmallFrameBytes are always posted and
// tested oldest first (they complete in the order posted); a frame that is larger travels
// with another tag and is taken with a matched probe (MPI_Improbe + MPI_Mrecv) into a
// buffer of its exact size. Such frames are rare (only -aggregation-bytes above
// kSmallFrameBytes makes them), so an idle poll probes for them only every
// kPollsPerLargeProbe calls: each MPI call costs a run of MPI's progress engine.
// Sending: MPI_Isend from the frame's own buffer, kept until the send completes.
//
// MPI is initialised with MPI_THREAD_SERIALIZED: the main thread initialises and finalises,
// the communication thread makes every call in between, never two threads at once. The
// transport works on its own duplicate of MPI_COMM_WORLD, with errors returned (and thrown
// as std::runtime_error) rather than aborting.
class MpiTransport final : public Transport {
 public:
  static constexpr std::size_t kSmallFrameBytes = 64 * 1024;
  static constexpr int kPostedReceives = 32;
  static constexpr unsigned kPollsPerLargeProbe = 16;
  // Finished frames kept for reuse, and the largest capacity worth keeping.
  static constexpr std::size_t kSpareBuffers = 8;
  static constexpr std::size_t kSpareBufferCapacity = 2 * kSmallFrameBytes;

  MpiTransport();
  ~MpiTransport() override;
  MpiTransport(const MpiTransport&) = delete;
  MpiTransport& operator=(const MpiTransport&) = delete;

  int node_index() const override { return rank_; }
  int node_count() const override { return size_; }
  std::string describe() const override;
  void send(int node, std::vector<std::byte> frame) override;
  std::vector<std::byte> spare_frame_buffer() override;
  void send_attachment(int node, Attachment attachment) override;
  void receive_attachment(int node, std::span<std::byte> into) override;
  std::size_t poll(const FrameHandler& handle) override;
  bool frames_arrive_unannounced() const override { return true; }
  std::size_t sends_in_flight() const override { return pending_sends_.size(); }
  void close(const FrameHandler& handle) override;
  std::vector<std::string> exchange_at_start(const std::string& mine) override;
  std::vector<std::string> gather_at_end(const std::string& mine) override;
  [[noreturn]] void abort(int code) override;

 private:
  struct PendingSend {
    MPI_Request request;
    std::vector<std::byte> frame;
    std::function<void()> release;  // for an attachment: lets its owner free the bytes
  };

  void post_receive(int slot);
  void post_handled_receives();
  std::size_t complete_sends();
  bool poll_small(const FrameHandler& handle, std::size_t& frames);
  bool poll_large(const FrameHandler& handle, std::size_t& frames);

  bool initialised_here_ = false;
  bool closed_ = false;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  std::vector<std::vector<std::byte>> receive_buffers_;
  std::vector<MPI_Request> receive_requests_;
  // The posted receives all match the same messages, so MPI matches them in the order they
  // were posted: poll() tests them in that order, starting with the oldest.
  int oldest_receive_ = 0;
  // Slots handed over but not posted again yet: the `unposted_receives_` slots before
  // oldest_receive_. Posting again waits for the next poll, after the handler's reply left.
  int unposted_receives_ = 0;
  unsigned polls_since_large_probe_ = 0;
  std::deque<PendingSend> pending_sends_;
  std::vector<std::vector<std::byte>> spare_buffers_;  // of finished sends, for reuse
};

}  // namespace xenon
