// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace xenon {

// Moves frames (byte strings) between the nodes (processes) of one runtime. The engine
// talks only to this interface; the loopback transport serves single-process runs, and the
// MPI transport (transport/mpi/) spans machines.
//
// Threading contract: one thread at a time calls the members (the node's communication
// thread while the engine runs; the main thread before and after).
class Transport {
 public:
  // Takes one frame; returns false to stop the poll there (the frames not yet handed over
  // wait for the next poll). A receiver stops after a frame that brought a large payload, so
  // that its actor can free it before the next one is allocated (memory stays warm).
  using FrameHandler = std::function<bool(int source_node, std::span<const std::byte> frame)>;

  virtual ~Transport() = default;

  virtual int node_index() const = 0;
  virtual int node_count() const = 0;
  virtual std::string describe() const = 0;

  // Takes the frame for node and starts sending it; never refuses for lack of room (the
  // transport keeps it until done). Frames from one node to another may arrive in another
  // order: the engine numbers its frames and restores the order.
  virtual void send(int node, std::vector<std::byte> frame) = 0;

  // An empty buffer for the next frame, with the capacity of a frame whose send has
  // finished when there is one (a steady stream of frames then allocates nothing).
  virtual std::vector<std::byte> spare_frame_buffer() = 0;

  // A block of bytes sent straight from its owner's memory after the last frame sent to the
  // same node; release() runs once the transport no longer needs the bytes.
  struct Attachment {
    std::span<const std::byte> bytes;
    std::function<void()> release;
  };
  // The largest attachment: 2 GiB - 1 bytes, since MPI counts bytes in an int. The engine
  // refuses a larger payload for another node before announcing it.
  static constexpr std::size_t kMaxAttachmentBytes = 2147483647;
  virtual void send_attachment(int node, Attachment attachment) = 0;

  // Receives, into `into`, the next attachment from `node`, whose size the caller knows
  // from the frame before it. Blocks until it is there (it was sent right after that
  // frame). Throws if its size differs.
  virtual void receive_attachment(int node, std::span<std::byte> into) = 0;

  // Hands the frames that have arrived to handle, until it returns false. Returns how many
  // it handed over.
  virtual std::size_t poll(const FrameHandler& handle) = 0;

  // True when frames can arrive while this process does nothing (MPI): an idle
  // communication thread must then keep polling, sleeping only briefly. False when nothing
  // arrives unless this node sent it (loopback): it may park until woken.
  virtual bool frames_arrive_unannounced() const = 0;

  // How many sends started here are unfinished (counted lazily: a finished send may be
  // counted until the next poll). MPI moves a large message's bytes only while this process
  // calls into it (rendezvous, TCP back-pressure), so a poller must not sleep then.
  virtual std::size_t sends_in_flight() const = 0;

  // Collective end: every node calls it once, after its last send. Returns when this node's
  // sends are complete and every node has called it; frames that arrive meanwhile go to
  // handle (which must not stop).
  virtual void close(const FrameHandler& handle) = 0;

  // Start-up, collective: every node passes a short text (at most kStartupTextBytes) and
  // gets every node's, indexed by node. The engine compares its options this way before
  // anything else travels.
  static constexpr std::size_t kStartupTextBytes = 256;
  virtual std::vector<std::string> exchange_at_start(const std::string& mine) = 0;

  // End of the run, collective, after close(): every node passes bytes of any length (its
  // statistics, its trace); node 0 gets every node's, indexed by node, the others nothing.
  virtual std::vector<std::string> gather_at_end(const std::string& mine) = 0;

  // Ends every process of the job now with exit status `code` (MPI_Abort), instead of the
  // collective close: for a failure after which the other nodes would wait for this one
  // forever. The caller has printed and flushed its reason.
  [[noreturn]] virtual void abort(int code) = 0;
};

// The transport this process should use: MPI when it was launched by mpiexec and the build
// has MPI (CONFIG_MPI=y), the loopback transport otherwise. The MPI transport initialises MPI
// and finalises it when destroyed.
std::unique_ptr<Transport> make_process_transport();

}  // namespace xenon
