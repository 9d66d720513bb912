// SPDX-License-Identifier: BSD-3-Clause
#include "engine/communicator.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <deque>
#include <utility>
#include <vector>

#include "engine/urgent_envelope.hpp"
#include "engine/wire_frame.hpp"
#include "transport/transport.hpp"

// The communicator alone: no Engine and no Worker, only a NodeContext, a transport that
// records what is sent and hands over what a test puts in, and a stand-in for the worker
// that drives it in the one-thread mode.

namespace xenon {
namespace {

inline constexpr Action ACTION_SEQUENCE{"test.sequence"};

// Node `node` of `nodes`; frames sent are kept, frames given to arrive() come out of poll().
class RecordingTransport final : public Transport {
 public:
  RecordingTransport(int node, int nodes) : node_(node), nodes_(nodes) {}
  int node_index() const override { return node_; }
  int node_count() const override { return nodes_; }
  std::string describe() const override { return "recording (test)"; }
  void send(int node, std::vector<std::byte> frame) override {
    sent.emplace_back(node, std::move(frame));
  }
  std::vector<std::byte> spare_frame_buffer() override { return {}; }
  void send_attachment(int, Attachment) override { FAIL() << "no attachment expected"; }
  void receive_attachment(int, std::span<std::byte>) override {
    FAIL() << "no attachment expected";
  }
  std::size_t poll(const FrameHandler& handle) override {
    std::size_t handled = 0;
    while (!arriving_.empty()) {
      auto [source, frame] = std::move(arriving_.front());
      arriving_.pop_front();
      ++handled;
      if (!handle(source, frame)) break;
    }
    return handled;
  }
  bool frames_arrive_unannounced() const override { return false; }
  std::size_t sends_in_flight() const override { return 0; }
  void close(const FrameHandler& handle) override { poll(handle); }
  std::vector<std::string> exchange_at_start(const std::string& mine) override {
    return std::vector<std::string>(static_cast<std::size_t>(nodes_), mine);
  }
  std::vector<std::string> gather_at_end(const std::string& mine) override { return {mine}; }
  [[noreturn]] void abort(int code) override { std::_Exit(code); }

  void arrive(int source, std::vector<std::byte> frame) {
    arriving_.emplace_back(source, std::move(frame));
  }

  std::vector<std::pair<int, std::vector<std::byte>>> sent;

 private:
  int node_;
  int nodes_;
  std::deque<std::pair<int, std::vector<std::byte>>> arriving_;
};

// Stands in for the worker that drives the communicator: keeps what is delivered.
class RecordingWorker final : public DrivingWorker {
 public:
  void deliver_arrival(const Message& message) override {
    sequences.push_back(message.payload_as<std::uint64_t>());
    message.payload_slot().release();
  }
  bool has_room_for_arrivals() const noexcept override { return true; }
  std::vector<std::uint64_t> sequences;
};

std::vector<std::uint64_t> sequences_in(std::span<const std::byte> frame) {
  std::vector<std::uint64_t> sequences;
  decode_frame(frame, [&](const WireRecord& record) {
    std::uint64_t value;
    std::memcpy(&value, record.payload.data(), sizeof value);
    sequences.push_back(value);
  });
  return sequences;
}

// One node's communicator with a one-worker NodeContext, as Engine would wire it.
struct OneNode {
  explicit OneNode(int node, int nodes = 2)
      : context(static_cast<std::uint32_t>(node), static_cast<std::uint32_t>(nodes), 1, registry),
        transport(node, nodes),
        communicator(context, transport, 60 * 1024),
        from_worker(64) {
    context.set_communicator_parker(communicator.parker());
    communicator.add_inbound(&from_worker);
  }
  ActorRegistry registry;
  NodeContext context;
  RecordingTransport transport;
  Communicator communicator;
  MessageRing from_worker;
};

TEST(Communicator, MessagesForAnotherNodeLeaveTogetherInOneFrameWhenTheBurstEnds) {
  OneNode node(0);
  const ActorName sender = ActorName::make(0, 0, 1);
  const ActorName receiver = ActorName::make(1, 0, 7);
  for (std::uint64_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(node.from_worker.try_stage(
        Message(sender, receiver, ACTION_SEQUENCE, Payload::of(i).release_slot())));
  }
  node.from_worker.publish();
  EXPECT_TRUE(node.communicator.progress());
  ASSERT_EQ(node.transport.sent.size(), 1u) << "three messages, one frame";
  EXPECT_EQ(node.transport.sent[0].first, 1);
  EXPECT_EQ(sequences_in(node.transport.sent[0].second), (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_EQ(node.communicator.frames_sent(), 1u);
}

TEST(Communicator, FramesThatOvertakeEachOtherAreDeliveredInTheOrderSent) {
  OneNode node(1);
  RecordingWorker worker;
  node.communicator.set_driving_worker(&worker);  // the one-thread mode: straight to it
  const ActorName sender = ActorName::make(0, 0, 1);
  const ActorName receiver = ActorName::make(1, 0, 3);
  FrameWriter writer(0);
  std::vector<std::vector<std::byte>> frames;
  for (std::uint64_t sequence = 0; sequence < 3; ++sequence) {
    writer.append(sender, receiver, ACTION_SEQUENCE, Payload::of(10 * sequence).bytes());
    frames.push_back(writer.take(sequence));
  }
  node.transport.arrive(0, frames[2]);
  node.transport.arrive(0, frames[0]);
  node.transport.arrive(0, frames[1]);
  // The driven poll stops after the first frame following an empty poll; go on until all.
  for (int round = 0; round < 4; ++round) node.communicator.progress();
  EXPECT_EQ(worker.sequences, (std::vector<std::uint64_t>{0, 10, 20}));
  EXPECT_EQ(node.communicator.frames_received(), 3u);
}

TEST(Communicator, AFrameThatClaimsAnotherSourceIsRejected) {
  OneNode node(1);
  RecordingWorker worker;
  node.communicator.set_driving_worker(&worker);
  FrameWriter writer(1);  // says it comes from node 1, arrives from node 0
  writer.append(ActorName::make(1, 0, 1), ActorName::make(1, 0, 2), ACTION_SEQUENCE,
                Payload::of(std::uint64_t{5}).bytes());
  node.transport.arrive(0, writer.take(0));
  EXPECT_THROW(node.communicator.progress(), WireFormatError);
  EXPECT_TRUE(worker.sequences.empty());
}

// ---- Urgent messages across nodes: the priority is the record's bit 31 ----

TEST(Communicator, AnUrgentEnvelopeLeavesAsARecordWithTheUrgentBit) {
  OneNode node(0);
  const ActorName sender = ActorName::make(0, 0, 1);
  const ActorName receiver = ActorName::make(1, 0, 7);
  ASSERT_TRUE(node.from_worker.try_stage(
      Message(sender, receiver, ACTION_SEQUENCE, Payload::of(std::uint64_t{1}).release_slot())));
  const Message urgent(sender, receiver, ACTION_SEQUENCE,
                       Payload::of(std::uint64_t{2}).release_slot());
  ASSERT_TRUE(node.from_worker.try_stage(
      Message(sender, receiver, ACTION_URGENT, urgent_envelope_payload(urgent))));
  node.from_worker.publish();
  node.communicator.progress();
  ASSERT_EQ(node.transport.sent.size(), 1u);
  std::vector<std::pair<std::uint64_t, bool>> records;
  decode_frame(node.transport.sent[0].second, [&](const WireRecord& record) {
    EXPECT_EQ(record.action, ACTION_SEQUENCE) << "the message itself, not its envelope";
    std::uint64_t value;
    std::memcpy(&value, record.payload.data(), sizeof value);
    records.emplace_back(value, record.urgent);
  });
  EXPECT_EQ(records, (std::vector<std::pair<std::uint64_t, bool>>{{1, false}, {2, true}}));
}

// Keeps what is delivered, opening envelopes: (sequence, whether it came urgent).
class EnvelopeRecordingWorker final : public DrivingWorker {
 public:
  void deliver_arrival(const Message& arrival) override {
    const bool urgent = is_urgent_envelope(arrival);
    const Message message = urgent ? open_urgent_envelope(arrival) : arrival;
    received.emplace_back(message.payload_as<std::uint64_t>(), urgent);
    message.payload_slot().release();
  }
  bool has_room_for_arrivals() const noexcept override { return true; }
  std::vector<std::pair<std::uint64_t, bool>> received;
};

TEST(Communicator, AnArrivingUrgentRecordReachesTheWorkerAsAnEnvelope) {
  OneNode node(1);
  EnvelopeRecordingWorker worker;
  node.communicator.set_driving_worker(&worker);
  const ActorName sender = ActorName::make(0, 0, 1);
  const ActorName receiver = ActorName::make(1, 0, 3);
  FrameWriter writer(0);
  writer.append(sender, receiver, ACTION_SEQUENCE, Payload::of(std::uint64_t{5}).bytes());
  writer.append(sender, receiver, ACTION_SEQUENCE, Payload::of(std::uint64_t{6}).bytes(),
                /*urgent=*/true);
  node.transport.arrive(0, writer.take(0));
  for (int round = 0; round < 2; ++round) node.communicator.progress();
  EXPECT_EQ(worker.received, (std::vector<std::pair<std::uint64_t, bool>>{{5, false}, {6, true}}));
}

TEST(Communicator, ASingleNodeShutsDownWhenNoActorIsAliveAndNoSpawnRequestIsOnItsWay) {
  OneNode node(0, 1);
  node.communicator.progress();
  EXPECT_FALSE(node.context.shutting_down()) << "nobody asked for a check yet";
  node.context.request_termination_check();  // as when the last actor stops
  node.communicator.progress();
  EXPECT_TRUE(node.context.shutting_down());
}

// Frames held for their turn when the run ends are counted as dead letters, like every
// other message that can no longer be delivered; one that fills the gap during close
// releases the held ones, in order, into the count.
TEST(Communicator, FramesHeldForOrderingAreDeadLettersAtClose) {
  for (const bool gap_filled_during_close : {false, true}) {
    SCOPED_TRACE(gap_filled_during_close);
    OneNode node(1);
    RecordingWorker worker;
    node.communicator.set_driving_worker(&worker);
    const ActorName sender = ActorName::make(0, 0, 1);
    const ActorName receiver = ActorName::make(1, 0, 3);
    FrameWriter writer(0);
    std::vector<std::vector<std::byte>> frames;
    for (std::uint64_t sequence = 0; sequence < 3; ++sequence) {
      for (std::uint64_t record = 0; record <= sequence; ++record) {  // 1, 2, 3 records
        writer.append(sender, receiver, ACTION_SEQUENCE, Payload::of(record).bytes());
      }
      frames.push_back(writer.take(sequence));
    }
    node.transport.arrive(0, frames[1]);
    node.transport.arrive(0, frames[2]);
    for (int round = 0; round < 4; ++round) node.communicator.progress();
    EXPECT_TRUE(worker.sequences.empty()) << "held: frame 0 has not come";
    if (gap_filled_during_close) node.transport.arrive(0, frames[0]);
    node.communicator.close();
    EXPECT_TRUE(worker.sequences.empty()) << "nothing is delivered once closing";
    EXPECT_EQ(node.communicator.dead_letters(), gap_filled_during_close ? 6u : 5u);
  }
}

// MPI counts bytes in an int: a larger payload for another node is refused before the
// frame that would announce it (its receiver would wait for it forever).
TEST(Communicator, APayloadOver2GiBForAnotherNodeIsRefusedBeforeAnythingIsSent) {
  OneNode node(0);
  // Allocated, never touched: the pages cost nothing.
  Payload huge = Payload::for_overwrite(Transport::kMaxAttachmentBytes + 1);
  ASSERT_TRUE(node.from_worker.try_stage(Message(ActorName::make(0, 0, 1), ActorName::make(1, 0, 7),
                                                 ACTION_SEQUENCE, huge.release_slot())));
  node.from_worker.publish();
  try {
    node.communicator.progress();
    FAIL() << "a 2 GiB payload was accepted";
  } catch (const std::length_error& error) {
    EXPECT_NE(std::string(error.what()).find("a payload of 2147483648 bytes for node 1"),
              std::string::npos)
        << error.what();
  }
  EXPECT_TRUE(node.transport.sent.empty());
}

}  // namespace
}  // namespace xenon
