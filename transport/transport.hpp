#pragma once

#include <cstddef>
#include <functional>
#include <span>

namespace xenon {

// Moves frames (byte strings) between the nodes (processes) of one runtime. The engine
// talks only to this interface; the loopback transport serves single-process runs and
// tests, and an MPI transport spans machines.
//
// Threading contract: one thread (the node's communication thread, or its only worker)
// calls every member.
class Transport {
 public:
  using FrameHandler = std::function<void(int source_node, std::span<const std::byte> frame)>;

  virtual ~Transport() = default;

  virtual int node_index() const = 0;
  virtual int node_count() const = 0;

  // Queues a copy of frame for node; false if the transport cannot take it now (retry).
  // Throws std::out_of_range for a node that does not exist.
  virtual bool try_send(int node, std::span<const std::byte> frame) = 0;

  // Hands every frame that has arrived to handle, oldest first. Returns how many.
  virtual std::size_t poll(const FrameHandler& handle) = 0;
};

}  // namespace xenon
