// SPDX-License-Identifier: BSD-3-Clause
// Frame aggregation: messages for another node are appended to one frame per destination
// and sent when full, when a burst is over, or at the deadline; large payloads travel as
// attachments. Arriving frames are put back in sequence per source node and split into
// messages (see communicator.hpp).
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/communicator.hpp"
#include "engine/internal_actions.hpp"
#include "engine/migration_messages.hpp"
#include "transport/transport.hpp"

namespace xenon {

// ---- Outgoing ----

void Communicator::send_attached(std::uint32_t node, const Message& message, bool urgent) {
  // Checked before the frame that announces it: the receiver would wait for it forever.
  if (message.payload_size() > Transport::kMaxAttachmentBytes) {
    const std::size_t size = message.payload_size();
    message.payload_slot().release();  // ours to free: the transport never took it
    throw std::length_error("a payload of " + std::to_string(size) +
                            " bytes for node " + std::to_string(node) + " (action " +
                            std::to_string(message.action().code()) + ") exceeds the " +
                            std::to_string(Transport::kMaxAttachmentBytes) +
                            " bytes a message to another node can carry (MPI counts bytes in "
                            "an int): send it in parts");
  }
  send_frame(node);  // what is already queued for that node goes first
  PeerState& peer = peers_[node];
  peer.writer.append_attached(message.source(), message.destination(), message.action(),
                              message.payload_size(), urgent);
  ++peer.sent.messages;
  send_frame(node);
  const PayloadSlot slot = message.payload_slot();
  bytes_sent_ += message.payload_size();
  peer.sent.bytes += message.payload_size();
  transport_.send_attachment(static_cast<int>(node),
                             {message.payload(), [slot] { slot.release(); }});
}

void Communicator::append(std::uint32_t node, ActorName from, ActorName to, Action action,
                          std::span<const std::byte> payload, bool urgent) {
  PeerState& peer = peers_[node];
  if (peer.writer.empty()) {
    peer.first_kept = MonotonicClock::time_point{};  // set by flush_frames() if it waits
    pending_frames_.push_back(node);
  }
  peer.writer.append(from, to, action, payload, urgent);
  ++peer.sent.messages;
  if (peer.writer.size() >= flush_bytes_) send_frame(node);
}

void Communicator::flush_frames(bool everything) {
  if (pending_frames_.empty()) return;
  // The clock is read only when a frame may wait (a reply on its way does not); the
  // deadline counts from the first round that kept the frame.
  const auto now = everything ? MonotonicClock::time_point{} : MonotonicClock::now();
  std::size_t kept = 0;
  for (std::uint32_t node : pending_frames_) {
    PeerState& peer = peers_[node];
    if (peer.writer.empty()) continue;  // already sent because it was full
    if (peer.first_kept == MonotonicClock::time_point{}) peer.first_kept = now;
    if (everything || now - peer.first_kept >= kFlushDeadline) {
      send_frame(node);
    } else {
      pending_frames_[kept++] = node;
    }
  }
  pending_frames_.resize(kept);
}

void Communicator::send_frame(std::uint32_t node) {
  PeerState& peer = peers_[node];
  if (peer.writer.empty()) return;
  bytes_sent_ += peer.writer.size();
  peer.sent.bytes += peer.writer.size();
  ++peer.sent.frames;
  transport_.send(static_cast<int>(node),
                  peer.writer.take(peer.next_send_sequence++, transport_.spare_frame_buffer()));
  ++frames_sent_;
}

// ---- Incoming ----

void Communicator::receive_frame(int source, std::span<const std::byte> frame) {
  const FrameHeader header = read_frame_header(frame);
  if (source < 0 || static_cast<std::uint32_t>(source) >= node_count_ ||
      header.source_node != static_cast<std::uint32_t>(source)) {
    throw WireFormatError("frame from node " + std::to_string(source) + " says it comes from node " +
                          std::to_string(header.source_node));
  }
  ++frames_received_;
  PeerState& peer = peers_[static_cast<std::size_t>(source)];
  peer.heard = true;
  if (header.sequence < peer.next_receive_sequence ||
      peer.early_frames.count(header.sequence) != 0) {
    throw WireFormatError("frame " + std::to_string(header.sequence) + " from node " +
                          std::to_string(source) + " arrived twice");
  }
  if (header.sequence > peer.next_receive_sequence) {
    // Overtook an earlier frame (another tag or receive slot): hold it until its turn.
    peer.early_frames.emplace(header.sequence, std::vector<std::byte>(frame.begin(), frame.end()));
    return;
  }
  deliver_frame(static_cast<std::uint32_t>(source), frame);
  ++peer.next_receive_sequence;
  for (auto next = peer.early_frames.find(peer.next_receive_sequence);
       next != peer.early_frames.end();
       next = peer.early_frames.find(peer.next_receive_sequence)) {
    deliver_frame(static_cast<std::uint32_t>(source), next->second);
    peer.early_frames.erase(next);
    ++peer.next_receive_sequence;
  }
}

void Communicator::deliver_frame(std::uint32_t source, std::span<const std::byte> frame) {
  if (closing_) {
    discard_frame(source, frame);
    return;
  }
  frame_source_ = source;  // for spawn arguments that come apart (spawn_arguments_)
  decode_frame(frame, [this, source](const WireRecord& record) {
    if (record.attached_length == 0) {
      deliver(record.source, record.destination, record.action, record.payload, record.urgent);
      return;
    }
    // Straight from the wire into the payload the actor will read.
    Payload payload = Payload::for_overwrite(record.attached_length);
    transport_.receive_attachment(static_cast<int>(source), payload.writable_bytes());
    received_attachment_ = true;
    deliver(record.source, record.destination, record.action, std::move(payload), record.urgent);
  });
}

void Communicator::discard_frame(std::uint32_t source, std::span<const std::byte> frame) {
  decode_frame(frame, [this, source](const WireRecord& record) {
    if (record.attached_length > 0) {  // take it off the wire, then drop it
      std::vector<std::byte> discard(record.attached_length);
      transport_.receive_attachment(static_cast<int>(source), discard);
    }
    if (record.destination.worker() != kCommunicatorWorker &&
        !is_migration_stop_notice(record.action, record.payload)) {
      ++dead_letters_;
    }
  });
}

}  // namespace xenon
