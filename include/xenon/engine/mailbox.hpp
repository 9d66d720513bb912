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

// An actor's mailbox: an intrusive FIFO of message nodes. Only the worker thread the actor
// lives on appends, pops and drains it (other threads' messages reach that worker through
// its rings first), so it needs no atomics and adds no synchronisation of its own.
class Mailbox {
 public:
  bool empty() const noexcept { return head_ == nullptr; }

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

  // Takes the oldest message's node, or nullptr when the mailbox is empty.
  MessageNode* pop() noexcept {
    MessageNode* node = head_;
    if (node != nullptr) {
      head_ = node->next;
      if (head_ == nullptr) tail_ = nullptr;
    }
    return node;
  }

  // Hands every waiting node to `take`, oldest first; the mailbox is empty afterwards.
  template <class Take>
  void drain(Take&& take) {
    while (MessageNode* node = pop()) take(node);
  }

 private:
  MessageNode* head_ = nullptr;
  MessageNode* tail_ = nullptr;
};

/// \endcond

}  // namespace xenon
