// SPDX-License-Identifier: BSD-3-Clause
// The typed encoding (include/xenon/core/typed_encoding.hpp): round trips of every supported
// type, a recorded encoding compared byte by byte (so a change of format, or a host that
// writes its own byte order, fails on any machine), and every kind of malformed payload.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "xenon/core/typed_encoding.hpp"

namespace {

using xenon::TypedDecodeError;
using xenon::typed_decode;
using xenon::typed_encode;

enum class Colour : std::uint16_t { kRed = 1, kBlue = 0xbeef };

struct Sample {
  std::string name;
  std::vector<std::int32_t> values;
  std::optional<double> weight;
  std::map<std::string, std::uint16_t> counts;
  bool flag = false;
  static constexpr auto fields =
      xenon::fields(&Sample::name, &Sample::values, &Sample::weight, &Sample::counts, &Sample::flag);
  bool operator==(const Sample&) const = default;
};

struct Outer {
  std::vector<Sample> samples;
  std::optional<Sample> best;
  std::pair<Colour, char> tag{};
  std::map<std::int64_t, std::vector<std::optional<std::string>>> index;
  int not_encoded = 7;  // left out of the field list: keeps its default on decoding
  static constexpr auto fields = xenon::fields(&Outer::samples, &Outer::best, &Outer::tag, &Outer::index);
};

template <class T>
T round_trip(const T& value) {
  const std::vector<std::byte> bytes = typed_encode(value);
  EXPECT_EQ(bytes.size(), xenon::typed_encoded_size(value));
  return typed_decode<T>(bytes);
}

std::vector<std::byte> bytes_of(std::initializer_list<int> values) {
  std::vector<std::byte> bytes;
  for (int value : values) bytes.push_back(static_cast<std::byte>(value));
  return bytes;
}

// The message of the TypedDecodeError that decoding `bytes` as T throws ("" if none).
template <class T>
std::string decode_error(const std::vector<std::byte>& bytes) {
  try {
    typed_decode<T>(bytes);
  } catch (const TypedDecodeError& error) {
    return error.what();
  }
  return "";
}

Sample recorded_sample() {
  return {"ab", {1, -2}, 1.5, {{"x", 258}, {"y", 1}}, true};
}

TEST(TypedEncoding, ScalarsRoundTripAtTheirLimits) {
  EXPECT_EQ(round_trip(true), true);
  EXPECT_EQ(round_trip(false), false);
  EXPECT_EQ(round_trip('\xff'), '\xff');
  EXPECT_EQ(round_trip(std::numeric_limits<std::int8_t>::min()), std::numeric_limits<std::int8_t>::min());
  EXPECT_EQ(round_trip(std::numeric_limits<std::uint8_t>::max()), std::numeric_limits<std::uint8_t>::max());
  EXPECT_EQ(round_trip(std::numeric_limits<std::int16_t>::min()), std::numeric_limits<std::int16_t>::min());
  EXPECT_EQ(round_trip(std::numeric_limits<std::uint16_t>::max()), std::numeric_limits<std::uint16_t>::max());
  EXPECT_EQ(round_trip(std::numeric_limits<std::int32_t>::min()), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(round_trip(std::numeric_limits<std::uint32_t>::max()), std::numeric_limits<std::uint32_t>::max());
  EXPECT_EQ(round_trip(std::numeric_limits<std::int64_t>::min()), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(round_trip(std::numeric_limits<std::uint64_t>::max()), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(round_trip(Colour::kBlue), Colour::kBlue);
  EXPECT_EQ(round_trip(-0.0f), 0.0f);
  EXPECT_TRUE(std::signbit(round_trip(-0.0)));
  EXPECT_EQ(round_trip(std::numeric_limits<double>::infinity()), std::numeric_limits<double>::infinity());
  EXPECT_EQ(round_trip(std::numeric_limits<double>::denorm_min()), std::numeric_limits<double>::denorm_min());
  EXPECT_TRUE(std::isnan(round_trip(std::numeric_limits<float>::quiet_NaN())));
}

TEST(TypedEncoding, ContainersRoundTripEmptyAndFull) {
  EXPECT_EQ(round_trip(std::string()), "");
  const std::string with_nul("a\0b", 3);
  EXPECT_EQ(round_trip(with_nul), with_nul);
  const std::string long_text(100000, 'q');  // a length of three varint bytes
  EXPECT_EQ(round_trip(long_text), long_text);
  EXPECT_EQ(round_trip(std::vector<int>{}), std::vector<int>{});
  EXPECT_EQ(round_trip(std::vector<bool>{true, false, true}), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(round_trip(std::vector<std::string>{"", "x", "yz"}),
            (std::vector<std::string>{"", "x", "yz"}));
  EXPECT_EQ(round_trip(std::map<std::string, int>{}), (std::map<std::string, int>{}));
  const std::map<int, std::string> numbers{{-5, "minus five"}, {0, ""}, {7, "seven"}};
  EXPECT_EQ(round_trip(numbers), numbers);
  EXPECT_EQ(round_trip(std::optional<std::string>()), std::nullopt);
  EXPECT_EQ(round_trip(std::optional<std::string>("here")), "here");
  EXPECT_EQ(round_trip(std::pair<std::string, double>("pi", 3.25)),
            (std::pair<std::string, double>("pi", 3.25)));
}

TEST(TypedEncoding, NestedValuesAndUserStructsRoundTrip) {
  Outer outer;
  outer.samples = {recorded_sample(), Sample{}, Sample{"c", {}, std::nullopt, {{"", 0}}, false}};
  outer.best = recorded_sample();
  outer.tag = {Colour::kRed, 'z'};
  outer.index = {{-1, {std::nullopt, "one"}}, {1LL << 40, {}}};
  outer.not_encoded = 99;
  const Outer back = round_trip(outer);
  EXPECT_EQ(back.samples, outer.samples);
  EXPECT_EQ(back.best, outer.best);
  EXPECT_EQ(back.tag, outer.tag);
  EXPECT_EQ(back.index, outer.index);
  EXPECT_EQ(back.not_encoded, 7);
}

TEST(TypedEncoding, SchemaTextNamesTheStructure) {
  EXPECT_EQ(xenon::typed_schema_text<Sample>(),
            "{string,vector<i32>,optional<f64>,map<string,u16>,bool}");
  EXPECT_EQ(xenon::typed_schema_text<Outer>(),
            "{vector<{string,vector<i32>,optional<f64>,map<string,u16>,bool}>,"
            "optional<{string,vector<i32>,optional<f64>,map<string,u16>,bool}>,pair<u16,char>,"
            "map<i64,vector<optional<string>>>}");
  // Integers by width and signedness, whatever the host calls them.
  EXPECT_EQ(xenon::typed_schema_text<long long>(), "i64");
  EXPECT_EQ(xenon::typed_schema_text<unsigned char>(), "u8");
  static_assert(xenon::typed_schema_fingerprint<std::string>() == 0x17c16538u);
}

// The recorded encoding: every byte fixed, so any host (little- or big-endian) that writes
// anything else fails here.
TEST(TypedEncoding, RecordedEncodingIsTheSameOnEveryHost) {
  const std::vector<std::byte> expected = bytes_of({
      0xa4, 0xc8, 0xf2, 0x81,                          // fingerprint of the schema, LE
      0x02, 'a', 'b',                                  // name: length 2, bytes
      0x02, 0x01, 0x00, 0x00, 0x00, 0xfe, 0xff, 0xff, 0xff,  // values: 2 x i32 LE
      0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x3f,  // weight: present, 1.5 as f64 LE
      0x02, 0x01, 'x', 0x02, 0x01, 0x01, 'y', 0x01, 0x00,    // counts: 2 entries, sorted
      0x01,                                            // flag
  });
  EXPECT_EQ(typed_encode(recorded_sample()), expected);
  EXPECT_EQ(typed_decode<Sample>(expected), recorded_sample());
  EXPECT_EQ(typed_encode(std::uint64_t{0x0102030405060708}),
            bytes_of({0x12, 0xe7, 0xfa, 0x79,  // fingerprint of "u64"
                      0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01}));
  const std::vector<std::byte> long_string = typed_encode(std::string(300, 'a'));
  EXPECT_EQ(long_string[4], std::byte{0xac});  // 300 as a varint: 0xac 0x02
  EXPECT_EQ(long_string[5], std::byte{0x02});
}

TEST(TypedEncoding, EveryTruncationIsAnErrorNamingIt) {
  const std::vector<std::byte> whole = typed_encode(recorded_sample());
  for (std::size_t size = 0; size < whole.size(); ++size) {
    const std::vector<std::byte> prefix(whole.begin(), whole.begin() + static_cast<long>(size));
    const std::string error = decode_error<Sample>(prefix);
    EXPECT_NE(error.find("typed payload: "), std::string::npos) << "prefix of " << size << " bytes";
  }
  EXPECT_EQ(decode_error<Sample>(bytes_of({0xa4, 0xc8})),
            "typed payload: schema fingerprint at byte 0: needs 4 bytes, only 2 left (truncated "
            "payload)");
}

TEST(TypedEncoding, MalformedPayloadsAreErrorsNamingTheProblem) {
  const auto with_fingerprint = [](std::uint32_t fingerprint, std::initializer_list<int> rest) {
    std::vector<std::byte> bytes = bytes_of({static_cast<int>(fingerprint & 0xff),
                                             static_cast<int>((fingerprint >> 8) & 0xff),
                                             static_cast<int>((fingerprint >> 16) & 0xff),
                                             static_cast<int>(fingerprint >> 24)});
    for (int value : rest) bytes.push_back(static_cast<std::byte>(value));
    return bytes;
  };
  const std::uint32_t string_print = xenon::typed_schema_fingerprint<std::string>();
  EXPECT_EQ(decode_error<std::string>(with_fingerprint(string_print, {0x05, 'a', 'b'})),
            "typed payload: string length at byte 4: 5 items run past the end (only 2 bytes "
            "left)");
  EXPECT_EQ(decode_error<std::string>(with_fingerprint(string_print, {0x01, 'a', 'b'})),
            "typed payload: value at byte 6: 1 bytes left over after it");
  EXPECT_EQ(decode_error<std::string>(with_fingerprint(string_print, {0x81, 0x00})),
            "typed payload: string length at byte 4: varint is not in its shortest form");
  EXPECT_EQ(decode_error<std::string>(with_fingerprint(
                string_print, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02})),
            "typed payload: string length at byte 4: varint exceeds 64 bits");
  EXPECT_EQ(decode_error<std::string>(with_fingerprint(string_print, {0x80})),
            "typed payload: string length at byte 4: varint runs past the end (truncated payload)");
  EXPECT_EQ(decode_error<bool>(with_fingerprint(xenon::typed_schema_fingerprint<bool>(), {0x02})),
            "typed payload: bool at byte 4: byte 2 is neither 0 nor 1");
  EXPECT_EQ(decode_error<std::optional<bool>>(with_fingerprint(
                xenon::typed_schema_fingerprint<std::optional<bool>>(), {0x07})),
            "typed payload: optional flag at byte 4: byte 7 is neither 0 nor 1");
  using ByteMap = std::map<std::uint8_t, bool>;
  const std::uint32_t map_print = xenon::typed_schema_fingerprint<ByteMap>();
  EXPECT_EQ(decode_error<ByteMap>(with_fingerprint(map_print, {2, 5, 1, 5, 0})),
            "typed payload: map key at byte 7: not greater than the key before it (repeated or "
            "unsorted)");
  EXPECT_EQ(decode_error<ByteMap>(with_fingerprint(map_print, {2, 5, 1, 4, 0})),
            "typed payload: map key at byte 7: not greater than the key before it (repeated or "
            "unsorted)");
  const std::string wrong_type = decode_error<std::vector<std::uint8_t>>(typed_encode(std::string("abc")));
  EXPECT_NE(wrong_type.find("the payload holds another type"), std::string::npos) << wrong_type;
  EXPECT_NE(wrong_type.find("for vector<u8>"), std::string::npos) << wrong_type;
}

}  // namespace
