#include "transport/loopback_transport.hpp"

#include <stdexcept>
#include <string>

namespace xenon {

bool LoopbackTransport::try_send(int node, std::span<const std::byte> frame) {
  if (node != 0) {
    throw std::out_of_range("loopback transport has only node 0, not node " +
                            std::to_string(node));
  }
  frames_.emplace_back(frame.begin(), frame.end());
  return true;
}

std::size_t LoopbackTransport::poll(const FrameHandler& handle) {
  std::size_t count = 0;
  while (!frames_.empty()) {
    std::vector<std::byte> frame = std::move(frames_.front());
    frames_.pop_front();
    handle(0, frame);
    ++count;
  }
  return count;
}

}  // namespace xenon
