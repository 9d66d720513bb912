// SPDX-License-Identifier: BSD-3-Clause
#include "transport/loopback_transport.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

namespace xenon {

void LoopbackTransport::abort(int code) { std::_Exit(code); }  // the only process: it ends

void LoopbackTransport::send(int node, std::vector<std::byte> frame) {
  if (node != 0) {
    throw std::out_of_range("loopback transport has only node 0, not node " +
                            std::to_string(node));
  }
  frames_.push_back(std::move(frame));
}

void LoopbackTransport::send_attachment(int node, Attachment attachment) {
  if (node != 0) {
    throw std::out_of_range("loopback transport has only node 0, not node " +
                            std::to_string(node));
  }
  attachments_.emplace_back(attachment.bytes.begin(), attachment.bytes.end());
  if (attachment.release) attachment.release();
}

void LoopbackTransport::receive_attachment(int node, std::span<std::byte> into) {
  if (node != 0 || attachments_.empty()) {
    throw std::logic_error("loopback transport: no attachment from node " + std::to_string(node));
  }
  const std::vector<std::byte>& bytes = attachments_.front();
  if (bytes.size() != into.size()) {
    throw std::length_error("loopback transport: attachment of " + std::to_string(bytes.size()) +
                            " bytes, expected " + std::to_string(into.size()));
  }
  std::copy(bytes.begin(), bytes.end(), into.begin());
  attachments_.pop_front();
}

std::vector<std::byte> LoopbackTransport::spare_frame_buffer() {
  return std::exchange(spare_, {});
}

std::size_t LoopbackTransport::poll(const FrameHandler& handle) {
  std::size_t count = 0;
  while (!frames_.empty()) {
    std::vector<std::byte> frame = std::move(frames_.front());
    frames_.pop_front();
    ++count;
    const bool keep_going = handle(0, frame);
    frame.clear();
    spare_ = std::move(frame);
    if (!keep_going) break;
  }
  return count;
}

}  // namespace xenon
