// SPDX-License-Identifier: BSD-3-Clause
// The payloads of the k-mer counter whose layout lives in counter_protocol.cpp: their bytes,
// little-endian whatever the machine, read back as written, and rejected when cut short.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/counter/counter_protocol.hpp"

namespace {

using namespace xenon::genomics;

std::vector<std::byte> bytes_of(const xenon::Payload& payload) {
  const std::span<const std::byte> view = payload.bytes();
  return {view.begin(), view.end()};
}

TEST(CounterProtocol, AKmerBatchIsItsBlockNumberThenItsKeysWordByWordLittleEndian) {
  const std::vector<KmerKey<2>> keys = {{0x0102030405060708u, 0x1112131415161718u}, {1, 2}};
  const std::vector<std::byte> bytes = bytes_of(KmerBatch<2>::encode(0xa1a2, keys));
  ASSERT_EQ(bytes.size(), 8u + 2 * 16);
  EXPECT_EQ(bytes[0], std::byte{0xa2});
  EXPECT_EQ(bytes[1], std::byte{0xa1});
  EXPECT_EQ(bytes[8], std::byte{0x08});   // first word of the first key, lowest byte first
  EXPECT_EQ(bytes[16], std::byte{0x18});  // its second word
  EXPECT_EQ(bytes[32], std::byte{0x02});

  std::vector<KmerKey<2>> decoded = {{9, 9}, {9, 9}, {9, 9}};  // a reused buffer is resized
  EXPECT_EQ(KmerBatch<2>::decode(bytes, decoded), 0xa1a2u);
  EXPECT_EQ(decoded, keys);

  EXPECT_THROW(KmerBatch<2>::decode(std::span(bytes).first(bytes.size() - 8), decoded), std::invalid_argument);
  std::vector<KmerKey<1>> one_word;
  EXPECT_THROW(KmerBatch<1>::decode(std::span(bytes).first(4), one_word), std::invalid_argument);
  EXPECT_EQ(KmerBatch<1>::decode(bytes_of(KmerBatch<1>::encode(7, {})), one_word), 7u);  // no keys
  EXPECT_TRUE(one_word.empty());

  const std::vector<std::byte> stored = bytes_of(KmerBatch<2>::encode_stored(0xa1a2));
  EXPECT_EQ(stored, std::vector<std::byte>(bytes.begin(), bytes.begin() + 8));  // the batch's own first bytes
  EXPECT_EQ(KmerBatch<2>::decode_stored(stored), 0xa1a2u);
  EXPECT_THROW(KmerBatch<2>::decode_stored(std::span(stored).first(7)), std::invalid_argument);
}

TEST(CounterProtocol, AStoreHistogramAndADumpChunkReadBackAsWritten) {
  StoreHistogram store{12345, {}};
  store.histogram.add(1, 5);
  store.histogram.add(5000, 2);
  const StoreHistogram read = StoreHistogram::decode(bytes_of(store.encode()));
  EXPECT_EQ(read.kmers_received, 12345u);
  EXPECT_EQ(read.histogram, store.histogram);
  const std::vector<std::byte> histogram_bytes = bytes_of(store.encode());
  EXPECT_THROW(StoreHistogram::decode(std::span(histogram_bytes).first(7)), std::invalid_argument);

  const std::vector<DumpChunk<1>::Entry> entries = {{{0x0102}, 3}, {{0xffffffffffffffffu}, 1u << 20}};
  const std::vector<std::byte> bytes = bytes_of(DumpChunk<1>::encode(entries));
  ASSERT_EQ(bytes.size(), 2 * DumpChunk<1>::kEntryBytes);
  EXPECT_EQ(bytes[0], std::byte{0x02});
  EXPECT_EQ(bytes[8], std::byte{0x03});  // the count after the k-mer's word
  std::vector<DumpChunk<1>::Entry> decoded = {{{9}, 9}};  // replaced, not added to
  DumpChunk<1>::decode(bytes, decoded);
  EXPECT_EQ(decoded, entries);
  EXPECT_THROW(DumpChunk<1>::decode(std::span(bytes).first(bytes.size() - 1), decoded), std::invalid_argument);
}

// A parser's arguments name the filter that will come (its size, or none), and their length
// is checked; a tally carries the k-mers the filter left out, and a checkpoint's tally from
// before the filter (32 bytes) reads as one that left none out.
TEST(CounterProtocol, ParserArgumentsNameTheFilterAndATallyTheKmersLeftOut) {
  ParserArguments arguments;
  arguments.k = 55;
  arguments.stores = {xenon::ActorName::from_value(7), xenon::ActorName::from_value(9)};
  arguments.minimizer_length = 11;
  const ParserArguments plain = ParserArguments::decode(bytes_of(arguments.encode()));
  EXPECT_EQ(plain.k, 55u);
  EXPECT_EQ(plain.stores, arguments.stores);
  EXPECT_EQ(plain.minimizer_length, 11u);
  EXPECT_EQ(plain.filter_words, 0u);
  EXPECT_FALSE(plain.resolve_ambiguity_codes);
  arguments.resolve_ambiguity_codes = true;
  EXPECT_TRUE(ParserArguments::decode(bytes_of(arguments.encode())).resolve_ambiguity_codes);
  std::vector<std::byte> other_reading = bytes_of(arguments.encode());
  other_reading.back() = std::byte{2};  // the flag's last (most significant) byte: 0x02000001, neither 0 nor 1
  EXPECT_THROW(ParserArguments::decode(other_reading), std::invalid_argument);
  arguments.resolve_ambiguity_codes = false;

  arguments.filter_k = 21;
  arguments.filter_words = 1u << 20;
  const std::vector<std::byte> bytes = bytes_of(arguments.encode());
  const ParserArguments filtered = ParserArguments::decode(bytes);
  EXPECT_EQ(filtered.filter_k, 21u);
  EXPECT_EQ(filtered.filter_words, 1u << 20);
  EXPECT_THROW(ParserArguments::decode(std::span(bytes).first(bytes.size() - 8)), std::invalid_argument);
  std::vector<std::byte> longer = bytes;
  longer.resize(bytes.size() + 8);
  EXPECT_THROW(ParserArguments::decode(longer), std::invalid_argument) << "bytes past the arguments";
  arguments.filter_k = 23;  // longer than k (21 below), though of one word
  arguments.k = 21;
  EXPECT_THROW(ParserArguments::decode(bytes_of(arguments.encode())), std::invalid_argument);
  arguments.filter_words = 0;
  arguments.filter_k = 0;
  for (const std::uint32_t k : {0u, 129u}) {  // no k-mer of four words or fewer
    arguments.k = k;
    EXPECT_THROW(ParserArguments::decode(bytes_of(arguments.encode())), std::invalid_argument) << k;
  }
  arguments.k = 127;
  EXPECT_EQ(ParserArguments::decode(bytes_of(arguments.encode())).k, 127u);

  const InputTally tally{3, 40, 6000, 5000, 1200};
  const std::vector<std::byte> tally_bytes = bytes_of(tally.encode());
  const InputTally read = InputTally::decode(tally_bytes);
  EXPECT_EQ(read.kmers, 5000u);
  EXPECT_EQ(read.kmers_left_out, 1200u);
  const InputTally old = InputTally::decode(std::span(tally_bytes).first(32));
  EXPECT_EQ(old.kmers, 5000u);
  EXPECT_EQ(old.kmers_left_out, 0u);
  EXPECT_THROW(InputTally::decode(std::span(tally_bytes).first(36)), std::invalid_argument);
  EXPECT_THROW(InputTally::decode(bytes_of(InputTally{1, 1, 10, 5, 6}.encode())), std::invalid_argument);
}

}  // namespace
