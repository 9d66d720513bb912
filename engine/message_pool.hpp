// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "xenon/engine/mailbox.hpp"

namespace xenon {

// Free list of message nodes for one worker. Single-threaded: only the owning worker
// allocates and frees, so the message path never touches the global allocator or an atomic.
class MessagePool {
 public:
  MessageNode* allocate() {
    if (free_ == nullptr) grow();
    MessageNode* node = free_;
    free_ = node->next;
    ++in_use_;
    return node;
  }
  std::size_t allocated_nodes() const noexcept { return chunks_.size() * kChunkNodes; }
  // Messages now waiting in this worker's mailboxes.
  std::size_t nodes_in_use() const noexcept { return in_use_; }

  void free(MessageNode* node) noexcept {
    push_free(node);
    --in_use_;
  }

 private:
  static constexpr std::size_t kChunkNodes = 1024;

  [[gnu::noinline]] void grow() {
    chunks_.push_back(std::make_unique<MessageNode[]>(kChunkNodes));
    MessageNode* chunk = chunks_.back().get();
    for (std::size_t i = 0; i < kChunkNodes; ++i) push_free(&chunk[i]);
  }
  void push_free(MessageNode* node) noexcept {
    node->next = free_;
    free_ = node;
  }

  MessageNode* free_ = nullptr;
  std::size_t in_use_ = 0;
  std::vector<std::unique_ptr<MessageNode[]>> chunks_;
};

}  // namespace xenon
