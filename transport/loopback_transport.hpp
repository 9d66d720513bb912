// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <deque>
#include <utility>
#include <vector>

#include "transport/transport.hpp"

namespace xenon {

// The transport of a runtime that is one process: node 0 of 1. A frame sent to node 0
// comes back from poll(), which lets tests drive the frame path without MPI.
class LoopbackTransport final : public Transport {
 public:
  int node_index() const override { return 0; }
  int node_count() const override { return 1; }
  std::string describe() const override { return "loopback (single process)"; }
  void send(int node, std::vector<std::byte> frame) override;
  std::vector<std::byte> spare_frame_buffer() override;
  void send_attachment(int node, Attachment attachment) override;
  void receive_attachment(int node, std::span<std::byte> into) override;
  std::size_t poll(const FrameHandler& handle) override;
  bool frames_arrive_unannounced() const override { return false; }
  std::size_t sends_in_flight() const override { return 0; }  // done on return
  void close(const FrameHandler& handle) override { poll(handle); }
  std::vector<std::string> exchange_at_start(const std::string& mine) override { return {mine}; }
  std::vector<std::string> gather_at_end(const std::string& mine) override { return {mine}; }
  [[noreturn]] void abort(int code) override;

 private:
  std::deque<std::vector<std::byte>> frames_;
  std::deque<std::vector<std::byte>> attachments_;
  std::vector<std::byte> spare_;  // the last frame handed over, emptied
};

}  // namespace xenon
