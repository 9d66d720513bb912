// SPDX-License-Identifier: BSD-3-Clause
// Typed messages between actors of one node (send_typed, reply_typed, Message::decode):
// values that are not trivially copyable arrive whole on the same worker and across workers,
// small ones inline and large ones shared; trivially copyable values keep the raw path; a
// payload of another type is refused with an error, not misread. (Across nodes:
// tests/programs/mpi/scenarios.cpp, scenario "typed".)
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <xenon/xenon.hpp>
#include "tests/engine/engine_test_support.hpp"
#include "tests/support/test_support.hpp"

namespace xenon {
namespace {

using namespace testing;  // the shared actions and with_threads()

inline constexpr Action ACTION_RECORD{"typed_test.record"};
inline constexpr Action ACTION_TEXT{"typed_test.text"};
inline constexpr Action ACTION_POINT{"typed_test.point"};

struct Record {
  std::string label;
  std::map<std::string, std::vector<double>> series;
  std::optional<ActorName> forward_to;
  std::vector<ActorName> seen_by;
  static constexpr auto fields =
      xenon::fields(&Record::label, &Record::series, &Record::forward_to, &Record::seen_by);
};

struct Point {  // trivially copyable, no field list: raw bytes
  double x, y;
};
static_assert(kTravelsAsRawBytes<Point> && kTravelsAsRawBytes<int>);
static_assert(!kTravelsAsRawBytes<Record> && !kTravelsAsRawBytes<std::string>);

Record sample_record(std::size_t points) {
  Record record;
  record.label = "series of " + std::to_string(points);
  for (std::size_t i = 0; i < points; ++i) record.series["s" + std::to_string(i % 3)].push_back(i * 0.5);
  return record;
}

// Adds its name to each record and replies with it; answers a text with its length.
class Stamper final : public Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_RECORD) {
      Record record = message.decode<Record>();
      record.seen_by.push_back(self());
      reply_typed(message, ACTION_RECORD, record);
    } else if (message.action() == ACTION_TEXT) {
      reply_typed(message, ACTION_TEXT, message.decode<std::string>() + "!");
    } else if (message.action() == ACTION_STOP) {
      stop();
    }
  }
};

struct TypedResult {
  std::vector<Record> records;
  std::vector<std::string> texts;
  std::size_t point_payload_size = 0;
  Point point{};
  std::string wrong_type_error;
  std::vector<ActorName> stampers;
};

// Sends records of 1 (inline) to 1000 (shared) points to a stamper on its own worker and one
// on the last worker, a text, a point, and then a text that it decodes as a record.
class Sender final : public Actor {
 public:
  explicit Sender(TypedResult& result) : result_(result) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      stampers_ = {spawn<Stamper>(), spawn_on<Stamper>(worker_count() - 1)};
      result_.stampers = stampers_;
      for (ActorName stamper : stampers_) {
        for (std::size_t points : {0, 1, 1000}) send_typed(stamper, ACTION_RECORD, sample_record(points));
        send_typed(stamper, ACTION_TEXT, std::string("typed"));
      }
      send_typed(self(), ACTION_POINT, Point{1.25, -2.5});
    } else if (message.action() == ACTION_RECORD) {
      result_.records.push_back(message.decode<Record>());
    } else if (message.action() == ACTION_TEXT) {
      result_.texts.push_back(message.decode<std::string>());
      if (result_.texts.size() == stampers_.size()) {
        try {
          message.decode<Record>();
        } catch (const TypedDecodeError& error) {
          result_.wrong_type_error = error.what();
        }
        for (ActorName stamper : stampers_) send(stamper, ACTION_STOP);
        stop();
      }
    } else if (message.action() == ACTION_POINT) {
      result_.point_payload_size = message.payload_size();
      result_.point = message.decode<Point>();
    }
  }

 private:
  TypedResult& result_;
  std::vector<ActorName> stampers_;
};

TEST(TypedMessages, ValuesArriveWholeOnTheSameWorkerAndAcrossWorkers) {
  testing::Watchdog watchdog("typed messages");
  Engine engine(with_threads(3));
  TypedResult result;
  engine.send(engine.spawn<Sender>(result), ACTION_START);
  engine.run();

  ASSERT_EQ(result.records.size(), 6u);
  ASSERT_EQ(result.stampers.size(), 2u);
  EXPECT_NE(result.stampers[0].worker(), result.stampers[1].worker());
  std::size_t index = 0;
  for (int stamper = 0; stamper < 2; ++stamper) {
    for (std::size_t points : {0, 1, 1000}) {
      const Record& record = result.records[index++];
      const Record expected = sample_record(points);
      EXPECT_EQ(record.label, expected.label);
      EXPECT_EQ(record.series, expected.series);
      EXPECT_EQ(record.forward_to, std::nullopt);
      ASSERT_EQ(record.seen_by.size(), 1u);
      EXPECT_EQ(record.seen_by[0], result.stampers[stamper]);
    }
  }
  EXPECT_EQ(result.texts, (std::vector<std::string>{"typed!", "typed!"}));
  EXPECT_EQ(result.point_payload_size, sizeof(Point)) << "a trivially copyable value goes raw";
  EXPECT_EQ(result.point.x, 1.25);
  EXPECT_EQ(result.point.y, -2.5);
  EXPECT_NE(result.wrong_type_error.find("the payload holds another type"), std::string::npos)
      << result.wrong_type_error;
  EXPECT_EQ(engine.statistics().dead_letters, 0u);
}

TEST(TypedMessages, TypedPayloadsPickTheirPathByType) {
  const Payload text = typed_payload(std::string("abc"));
  EXPECT_EQ(text.size(), 4u + 1 + 3);  // fingerprint, length, bytes
  EXPECT_EQ(typed_payload_value<std::string>(text.bytes()), "abc");
  const Payload number = typed_payload(std::uint32_t{7});
  EXPECT_EQ(number.size(), sizeof(std::uint32_t));  // raw, as Payload::of
  EXPECT_EQ(typed_payload_value<std::uint32_t>(number.bytes()), 7u);
  EXPECT_THROW(typed_payload_value<std::uint64_t>(number.bytes()), std::length_error);
  // A name inside an encoded value is its 64-bit value, little-endian.
  const Payload names = typed_payload(std::vector<ActorName>{ActorName::make(1, 2, 3)});
  ASSERT_EQ(names.size(), 4u + 1 + 8);
  EXPECT_EQ(load_le64(names.bytes().data() + 5), ActorName::make(1, 2, 3).value());
  EXPECT_EQ(typed_payload_value<std::vector<ActorName>>(names.bytes()),
            std::vector<ActorName>{ActorName::make(1, 2, 3)});
}

}  // namespace
}  // namespace xenon
