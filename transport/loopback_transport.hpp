#pragma once

#include <deque>
#include <vector>

#include "transport/transport.hpp"

namespace xenon {

// The transport of a runtime that is one process: node 0 of 1. A frame sent to node 0
// comes back from poll(), which lets tests drive the frame path without MPI.
class LoopbackTransport final : public Transport {
 public:
  int node_index() const override { return 0; }
  int node_count() const override { return 1; }
  bool try_send(int node, std::span<const std::byte> frame) override;
  std::size_t poll(const FrameHandler& handle) override;

 private:
  std::deque<std::vector<std::byte>> frames_;
};

}  // namespace xenon
