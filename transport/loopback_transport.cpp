#include "transport/loopback_transport.hpp"

#include <stdexcept>
#include <string>

namespace xenon {

void LoopbackTransport::send(int node, std::vector<std::byte> frame) {
  if (node != 0) {
    throw std::out_of_range("loopback transport has only node 0, not node " +
                            std::to_string(node));
  }
  frames_.push_back(std::move(frame));
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
