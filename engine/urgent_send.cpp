// SPDX-License-Identifier: BSD-3-Clause
// Sending urgent messages: on this worker straight to the urgent front of the mailbox,
// elsewhere as an envelope (engine/urgent_envelope.hpp) routed like any message.
#include "engine/urgent_envelope.hpp"
#include "engine/worker.hpp"
#include "xenon/engine/actor.hpp"

namespace xenon {

void Actor::send_urgent_slot(ActorName to, Action action, const PayloadSlot& payload) {
  worker_->send_urgent(name_, to, action, payload);
}

void Worker::send_urgent(ActorName from, ActorName to, Action action,
                         const PayloadSlot& payload) {
  if (Actor* actor = live_local_actor(to); actor != nullptr) {
    MessageNode* node = pool_.allocate();
    node->message.assign(from, to, action, payload);
    append_urgent_to_mailbox(actor, node);
    if (pool_.nodes_in_use() > relief_threshold_) past_relief_threshold(node);
    return;
  }
  // Another worker or node, or an actor not (or no longer) here: the envelope goes where
  // the message would have gone, and whoever takes it out opens it.
  send_elsewhere(from, to, ACTION_URGENT, urgent_envelope_payload(Message(from, to, action, payload)));
}

}  // namespace xenon
