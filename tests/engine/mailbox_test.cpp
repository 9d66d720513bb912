// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/engine/mailbox.hpp"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace xenon {
namespace {

inline constexpr Action ACTION_NUMBERED{"test.numbered"};

// Nodes numbered by their message's source index, so the order they come out in is visible.
std::array<MessageNode, 8> numbered_nodes() {
  std::array<MessageNode, 8> nodes{};
  for (std::uint32_t i = 0; i < nodes.size(); ++i) {
    nodes[i].message.assign(ActorName::make(0, 0, i), ActorName::make(0, 0, 99), ACTION_NUMBERED,
                            PayloadSlot{});
    nodes[i].next = &nodes[(i + 1) % nodes.size()];  // stale links the mailbox must not trust
  }
  return nodes;
}

std::uint32_t number_of(const MessageNode* node) { return node->message.source().index(); }

TEST(Mailbox, StartsEmptyAndPopsNothing) {
  Mailbox mailbox;
  EXPECT_TRUE(mailbox.empty());
  EXPECT_EQ(mailbox.pop(), nullptr);
}

TEST(Mailbox, PopsInTheOrderAppended) {
  auto nodes = numbered_nodes();
  Mailbox mailbox;
  EXPECT_TRUE(mailbox.append(&nodes[0])) << "the first append finds the mailbox empty";
  for (std::size_t i = 1; i < nodes.size(); ++i) EXPECT_FALSE(mailbox.append(&nodes[i]));
  for (std::uint32_t i = 0; i < nodes.size(); ++i) {
    ASSERT_FALSE(mailbox.empty());
    const MessageNode* node = mailbox.pop();
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(number_of(node), i);
  }
  EXPECT_TRUE(mailbox.empty());
  EXPECT_EQ(mailbox.pop(), nullptr);
}

TEST(Mailbox, AppendsAfterBeingEmptiedStartAFreshQueue) {
  auto nodes = numbered_nodes();
  Mailbox mailbox;
  mailbox.append(&nodes[0]);
  ASSERT_EQ(mailbox.pop(), &nodes[0]);
  // The tail must have been forgotten with the last pop: nodes[0] is not linked to again.
  EXPECT_TRUE(mailbox.append(&nodes[1]));
  mailbox.append(&nodes[2]);
  EXPECT_EQ(mailbox.pop(), &nodes[1]);
  mailbox.append(&nodes[3]);  // appended while not empty: goes behind nodes[2]
  EXPECT_EQ(mailbox.pop(), &nodes[2]);
  EXPECT_EQ(mailbox.pop(), &nodes[3]);
  EXPECT_EQ(mailbox.pop(), nullptr);
  EXPECT_EQ(nodes[0].next, nullptr) << "the old tail was linked to a later node";
}

TEST(Mailbox, DrainHandsOverEveryNodeOldestFirstAndLeavesItEmpty) {
  auto nodes = numbered_nodes();
  Mailbox mailbox;
  for (std::size_t i = 0; i < 5; ++i) mailbox.append(&nodes[i]);
  ASSERT_EQ(mailbox.pop(), &nodes[0]);
  std::vector<std::uint32_t> drained;
  mailbox.drain([&](MessageNode* node) { drained.push_back(number_of(node)); });
  EXPECT_EQ(drained, (std::vector<std::uint32_t>{1, 2, 3, 4}));
  EXPECT_TRUE(mailbox.empty());
  EXPECT_TRUE(mailbox.append(&nodes[5])) << "drained means empty, tail included";
  EXPECT_EQ(mailbox.pop(), &nodes[5]);
}


// ---- The urgent front ----

std::vector<std::uint32_t> pop_all(Mailbox& mailbox) {
  std::vector<std::uint32_t> order;
  while (const MessageNode* node = mailbox.pop()) order.push_back(number_of(node));
  return order;
}

TEST(Mailbox, UrgentNodesComeOutFirstEachKindInItsOwnOrder) {
  auto nodes = numbered_nodes();
  Mailbox mailbox;
  mailbox.append(&nodes[0]);
  mailbox.append(&nodes[1]);
  mailbox.append_urgent(&nodes[2]);
  mailbox.append(&nodes[3]);
  mailbox.append_urgent(&nodes[4]);
  mailbox.append_urgent(&nodes[5]);
  EXPECT_EQ(pop_all(mailbox), (std::vector<std::uint32_t>{2, 4, 5, 0, 1, 3}));
  EXPECT_TRUE(mailbox.empty());
}

TEST(Mailbox, AnUrgentNodeIntoAnEmptyMailboxIsAlsoItsTail) {
  auto nodes = numbered_nodes();
  Mailbox mailbox;
  EXPECT_TRUE(mailbox.append_urgent(&nodes[0])) << "it found the mailbox empty";
  mailbox.append(&nodes[1]);  // must link behind nodes[0], the tail
  EXPECT_FALSE(mailbox.append_urgent(&nodes[2]));
  EXPECT_EQ(pop_all(mailbox), (std::vector<std::uint32_t>{0, 2, 1}));
}

TEST(Mailbox, TheUrgentFrontIsForgottenOnceItsLastNodeIsTaken) {
  auto nodes = numbered_nodes();
  Mailbox mailbox;
  mailbox.append(&nodes[0]);
  mailbox.append_urgent(&nodes[1]);
  ASSERT_EQ(mailbox.pop(), &nodes[1]);
  // nodes[1] left: a new urgent node goes to the front, not after the popped one.
  mailbox.append_urgent(&nodes[2]);
  mailbox.append(&nodes[3]);
  mailbox.append_urgent(&nodes[4]);
  EXPECT_EQ(pop_all(mailbox), (std::vector<std::uint32_t>{2, 4, 0, 3}));
  mailbox.append_urgent(&nodes[5]);  // after a full drain: the only node, head and tail
  mailbox.append(&nodes[6]);
  EXPECT_EQ(pop_all(mailbox), (std::vector<std::uint32_t>{5, 6}));
}

TEST(Mailbox, DrainHandsOverUrgentNodesFirst) {
  auto nodes = numbered_nodes();
  Mailbox mailbox;
  mailbox.append(&nodes[0]);
  mailbox.append_urgent(&nodes[1]);
  std::vector<std::uint32_t> order;
  mailbox.drain([&](MessageNode* node) { order.push_back(number_of(node)); });
  EXPECT_EQ(order, (std::vector<std::uint32_t>{1, 0}));
  EXPECT_TRUE(mailbox.empty());
}

}  // namespace
}  // namespace xenon
