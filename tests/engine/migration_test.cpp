// SPDX-License-Identifier: BSD-3-Clause
// The pieces of a move across nodes that one process can check: a MigratableActor's state
// through the typed encoding and the registry (as the target node builds it), and the
// migration messages' layouts. The moves themselves: tests/examples/migrate_test.cpp.
#include <gtest/gtest.h>

#include <map>
#include <span>
#include <string>
#include <vector>

#include "engine/internal_actions.hpp"
#include "engine/migration_messages.hpp"
#include "xenon/engine/actor_registry.hpp"
#include "xenon/xenon.hpp"

namespace {

struct Counts {
  std::string label;
  std::map<std::string, std::uint64_t> per_key;
  std::vector<std::uint32_t> history;
  static constexpr auto fields = xenon::fields(&Counts::label, &Counts::per_key, &Counts::history);
  bool operator==(const Counts&) const = default;
};

class Counter : public xenon::MigratableActor<Counts> {
 public:
  explicit Counter(Counts counts) : MigratableActor(std::move(counts)) {}
  explicit Counter(std::span<const std::byte> encoded) : MigratableActor(encoded) {}
  void receive(const xenon::Message&) override {}
  const Counts& counts() const { return state(); }
};

class Pinned : public xenon::Actor {
 public:
  explicit Pinned(std::span<const std::byte>) {}
  void receive(const xenon::Message&) override {}
};

TEST(Migration, StateComesBackWholeThroughTheRegistry) {
  xenon::ActorRegistry registry;
  registry.add(
      "counter",
      [](std::span<const std::byte> bytes) {
        return std::unique_ptr<xenon::Actor>(new Counter(bytes));
      },
      typeid(Counter));
  const Counts counts{"k-mers", {{"ACGT", 7}, {"TTTT", 1u << 20}}, {0, 1, 2}};
  const Counter original(counts);
  ASSERT_NE(registry.name_of(typeid(original)), nullptr);
  EXPECT_EQ(*registry.name_of(typeid(original)), "counter");
  EXPECT_EQ(registry.name_of(typeid(Pinned)), nullptr);  // migrate() refuses such a type
  const xenon::Payload encoded = xenon::typed_payload(counts);
  const auto rebuilt = registry.create("counter", encoded.bytes());
  EXPECT_EQ(dynamic_cast<const Counter&>(*rebuilt).counts(), counts);
}

TEST(Migration, TruncatedStateIsADecodeError) {
  const xenon::Payload encoded = xenon::typed_payload(Counts{"x", {{"A", 1}}, {4}});
  EXPECT_THROW(Counter(encoded.bytes().first(encoded.size() - 1)), xenon::TypedDecodeError);
}

TEST(Migration, RequestRoundTripsAndRejectsShortBytes) {
  const std::vector<std::byte> state{std::byte{1}, std::byte{2}, std::byte{3}};
  const xenon::MigrationRequest request{xenon::ActorName::make(0, 1, 42),
                                        xenon::ActorName::make(0, 0, 3), 1, "tally", state};
  const xenon::Payload payload = request.encode();
  const auto decoded = xenon::MigrationRequest::decode(payload.bytes());
  EXPECT_EQ(decoded.name, request.name);
  EXPECT_EQ(decoded.supervisor, request.supervisor);
  EXPECT_EQ(decoded.worker, 1u);
  EXPECT_EQ(decoded.type, "tally");
  EXPECT_TRUE(std::equal(decoded.state.begin(), decoded.state.end(), state.begin(), state.end()));
  EXPECT_THROW(xenon::MigrationRequest::decode(payload.bytes().first(23)), xenon::WireFormatError);
  EXPECT_THROW(xenon::MigrationRequest::decode(payload.bytes().first(27)), xenon::WireFormatError);
}

TEST(Migration, ForwardedMessageKeepsNameActionUrgencyAndPayload) {
  constexpr xenon::Action kAction{"migration_test.number"};
  const std::vector<std::byte> bytes{std::byte{9}, std::byte{8}};
  const xenon::Payload wrapped =
      xenon::ForwardedMessage{xenon::ActorName::make(2, 0, 5), kAction, true, bytes}.encode();
  const auto forwarded = xenon::ForwardedMessage::decode(wrapped.bytes());
  EXPECT_EQ(forwarded.to, xenon::ActorName::make(2, 0, 5));
  EXPECT_EQ(forwarded.action, kAction);
  EXPECT_TRUE(forwarded.urgent);
  EXPECT_TRUE(
      std::equal(forwarded.payload.begin(), forwarded.payload.end(), bytes.begin(), bytes.end()));
  EXPECT_THROW(xenon::ForwardedMessage::decode(wrapped.bytes().first(15)), xenon::WireFormatError);
}

TEST(Migration, ForwardingAddressIsNoActorIndex) {
  EXPECT_NE(xenon::kForwardingIndex & xenon::kReplyAddressBit, 0u);  // above every actor index
  EXPECT_NE(xenon::kForwardingIndex, xenon::kNoActorIndex);
}

}  // namespace
