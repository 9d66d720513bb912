// SPDX-License-Identifier: BSD-3-Clause
// Backpressure on one worker. A message to an actor on the sender's own worker goes
// straight into its mailbox, and that actor cannot run while the sender is inside
// receive(): a flooder would grow the mailbox without bound. So once more than
// kMailboxLimit messages wait in this worker's mailboxes, send() first runs the ready
// actors (those with messages, none of them on this thread's stack: a running actor is
// out of the ready queue until its turn ends) until half the limit is left. The flooder's
// receiver thus drains inside the flooder's send(), in order, and memory stays bounded
// even when everything is sent within one receive().
//
// What relief cannot reach: messages to the sender itself, or to an actor further up this
// thread's stack (one whose send() is relieving), since an actor never runs inside its own
// receive(). Those wait; the threshold then rises to kMailboxLimit / 2 above what is left,
// so that each send to them does not search again, and falls back at the next round.
// Relief handles at most kMailboxLimit messages per call, so actors that feed each other
// cannot keep the sender here forever, and nests at most kMaxReliefDepth deep.
//
// Cost when unused: one comparison in send() (nodes in use against the threshold).
#include "engine/worker.hpp"

namespace xenon {

void Worker::relieve_mailboxes() {
  if (relief_depth_ < kMaxReliefDepth) {
    ++counters_.mailbox_reliefs;
    ++relief_depth_;
    std::size_t budget = kMailboxLimit;
    while (pool_.nodes_in_use() > kMailboxLimit / 2 && budget > 0) {
      Actor* actor = pop_ready();
      if (actor == nullptr) break;
      budget -= std::min<std::size_t>(budget, run_turn_for_relief(actor));
    }
    --relief_depth_;
  }
  const std::size_t left = pool_.nodes_in_use();
  relief_threshold_ = left <= kMailboxLimit / 2 ? kMailboxLimit : left + kMailboxLimit / 2;
}

}  // namespace xenon
