// SPDX-License-Identifier: BSD-3-Clause
#pragma once

/// \file
/// An actor's mailbox (internal: Actor holds one, so it is installed, but it is not API).

#include "xenon/engine/message.hpp"

namespace xenon {

/// \cond XENON_INTERNAL

// A message waiting in an actor's mailbox; the nodes come from the worker's MessagePool.
struct MessageNode {
  Message message;
  MessageNode* next;
};

// An actor's mailbox: an intrusive FIFO of message nodes, whose front holds the urgent ones.
// Urgent messages (Actor::send_urgent) are linked in after the last urgent message still
// waiting, so they come out before every normal one and in their own order; a normal
// append is the plain tail append it always was, and a pop pays one comparison. Only the
// worker thread the actor lives on appends, pops and drains it (other threads' messages
// reach that worker through its rings first), so it needs no atomics and adds no
// synchronisation of its own.
class Mailbox {
 public:
  bool empty() const noexcept { return head_ == nullptr; }
  bool has_urgent() const noexcept { return last_urgent_ != nullptr; }

  // Appends `node` after the newest message. Returns true if the mailbox was empty.
  bool append(MessageNode* node) noexcept {
    node->next = nullptr;
    if (tail_ == nullptr) {
      head_ = node;
      tail_ = node;
      return true;
    }
    tail_->next = node;
    tail_ = node;
    return false;
  }

  // Inserts `node` after the newest urgent message (at the front if none waits). Returns
  // true if the mailbox was empty.
  bool append_urgent(MessageNode* node) noexcept {
    const bool was_empty = head_ == nullptr;
    MessageNode*& link = last_urgent_ == nullptr ? head_ : last_urgent_->next;
    node->next = link;
    link = node;
    if (node->next == nullptr) tail_ = node;
    last_urgent_ = node;
    return was_empty;
  }

  // The newest node (the one append() just linked in), or nullptr when empty.
  MessageNode* newest() const noexcept { return tail_; }

  // Takes the oldest message's node, or nullptr when the mailbox is empty.
  MessageNode* pop() noexcept {
    MessageNode* node = head_;
    if (node != nullptr) {
      head_ = node->next;
      if (head_ == nullptr) tail_ = nullptr;
      if (node == last_urgent_) last_urgent_ = nullptr;
    }
    return node;
  }

  // Hands every waiting node to `take`, urgent ones first, each kind oldest first; the mailbox is empty afterwards.
  template <class Take>
  void drain(Take&& take) {
    while (MessageNode* node = pop()) take(node);
  }

 private:
  MessageNode* head_ = nullptr;
  MessageNode* tail_ = nullptr;
  MessageNode* last_urgent_ = nullptr;  // the newest urgent node; nullptr when none waits
};

/// \endcond

}  // namespace xenon
