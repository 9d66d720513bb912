// SPDX-License-Identifier: BSD-3-Clause
// The filter that leaves out of the later rounds the k-mers read once: the Bloom filter itself
// (it never forgets, says "maybe" rarely, merges and travels as bytes) and the window that
// judges each k-mer of a scan by its shorter k-mers, against a plain computation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "genomics/assembler/carried_sequences.hpp"
#include "genomics/assembler/filter_keeper.hpp"
#include "genomics/kmer/kmer.hpp"
#include "genomics/kmer/kmer_bloom_filter.hpp"
#include "genomics/kmer/kmer_filter_window.hpp"
#include "genomics/kmer/kmer_hash.hpp"

namespace {

using namespace xenon::genomics;

std::uint64_t hash_of_index(std::uint64_t i) { return key_of<1>({i * 0x9e3779b97f4a7c15ULL + 1})[0]; }

TEST(KmerBloomFilter, NeverForgetsAndRarelySaysMaybeOfWhatItWasNotGiven) {
  constexpr std::uint64_t kItems = 100000;
  KmerBloomFilter filter = KmerBloomFilter::sized_for(kItems);
  EXPECT_EQ(filter.bytes(), kItems * 2);  // 16 bits an item
  for (std::uint64_t i = 0; i < kItems; ++i) filter.insert(hash_of_index(i));
  for (std::uint64_t i = 0; i < kItems; ++i) ASSERT_TRUE(filter.may_contain(hash_of_index(i))) << i;
  std::uint64_t false_positives = 0;
  for (std::uint64_t i = kItems; i < 2 * kItems; ++i) false_positives += filter.may_contain(hash_of_index(i));
  EXPECT_LT(false_positives, kItems / 100);  // about 0.5% when full
  EXPECT_GT(false_positives, 0u);            // a Bloom filter, not a set: the counter must not rely on "no"

  EXPECT_EQ(KmerBloomFilter::sized_for(0).bytes(), 8u);  // one word at least
  EXPECT_TRUE(KmerBloomFilter().empty());
}

TEST(KmerBloomFilter, MergesByUnionAndTravelsAsLittleEndianBytes) {
  KmerBloomFilter first = KmerBloomFilter::sized_for(1000);
  KmerBloomFilter second = KmerBloomFilter::sized_for(1000);
  for (std::uint64_t i = 0; i < 500; ++i) first.insert(hash_of_index(i));
  for (std::uint64_t i = 500; i < 1000; ++i) second.insert(hash_of_index(i));
  first.merge(second);
  for (std::uint64_t i = 0; i < 1000; ++i) ASSERT_TRUE(first.may_contain(hash_of_index(i))) << i;
  EXPECT_THROW(first.merge(KmerBloomFilter::sized_for(2000)), std::invalid_argument);

  const std::vector<std::byte> bytes = first.to_bytes();
  ASSERT_EQ(bytes.size(), first.bytes());
  EXPECT_EQ(KmerBloomFilter::from_bytes(bytes), first);
  KmerBloomFilter one = KmerBloomFilter::sized_for(1);
  one.insert(0);  // bits 0 of word 0: the lowest byte first
  EXPECT_EQ(one.to_bytes()[0], std::byte{1});
  EXPECT_THROW(KmerBloomFilter::from_bytes(std::span(bytes).first(12)), std::invalid_argument);
}

// Between rounds the filter waits in slices, one a node (filter_keeper.hpp): the slices cover
// its words in order, at most a word apart in size, and put back together in any order give
// the same filter; a slice that does not fit is refused.
TEST(KmerBloomFilter, TravelsInSlicesThatPutItBackTogether) {
  for (const std::uint64_t items : {1u, 30u, 1000u}) {
    KmerBloomFilter filter = KmerBloomFilter::sized_for(items);
    for (std::uint64_t i = 0; i < items; ++i) filter.insert(hash_of_index(i));
    const std::vector<std::byte> bytes = filter.to_bytes();
    for (const std::size_t slices : {1u, 3u, 8u, 13u}) {
      KmerBloomFilter gathered = KmerBloomFilter::with_words(filter.words());
      std::size_t covered = 0;
      for (std::size_t index = slices; index-- > 0;) {
        const WordRange range = filter_slice(filter.words(), slices, index);
        ASSERT_LE(range.first, range.end);
        ASSERT_LE(range.end - range.first, filter.words() / slices + 1);
        ASSERT_EQ(range.first, index == 0 ? 0 : filter_slice(filter.words(), slices, index - 1).end);
        gathered.read_words(range.first, std::span(bytes).subspan(8 * range.first, 8 * (range.end - range.first)));
        covered += range.end - range.first;
      }
      EXPECT_EQ(covered, filter.words());
      EXPECT_EQ(gathered, filter) << items << " items, " << slices << " slices";
    }
  }
  KmerBloomFilter two_words = KmerBloomFilter::with_words(2);
  const std::vector<std::byte> three_words(24);
  EXPECT_THROW(two_words.read_words(0, three_words), std::invalid_argument);
  EXPECT_THROW(two_words.read_words(2, std::span(three_words).first(8)), std::invalid_argument);
  EXPECT_THROW(two_words.read_words(0, std::span(three_words).first(12)), std::invalid_argument);
  EXPECT_NO_THROW(two_words.read_words(1, std::span(three_words).first(8)));
  EXPECT_THROW(KmerBloomFilter::with_words(0), std::invalid_argument);
}

// The verdict the slow way: the k-mer whose last base is `end` (an index into the record's
// text) passes when every shorter k-mer inside it is one the filter may hold.
bool passes_slowly(const KmerBloomFilter& filter, const std::string& record, std::size_t end, int filter_k, int k) {
  for (std::size_t last = end + 1 - static_cast<std::size_t>(k) + static_cast<std::size_t>(filter_k) - 1; last <= end; ++last) {
    KmerScanner<1> scanner(filter_k);
    std::uint64_t hash = 0;
    scanner.feed(record.substr(last + 1 - static_cast<std::size_t>(filter_k), static_cast<std::size_t>(filter_k)),
                 [&](const PackedKmer<1>& kmer) { hash = key_of<1>(kmer)[0]; });
    if (!filter.may_contain(hash)) return false;
  }
  return true;
}

// Counts the characters the scanner has seen (a base or a break each) on its way to the window.
struct CountingObserver {
  KmerFilterWindow& window;
  std::size_t seen = 0;
  void push(int code) {
    window.push(code);
    ++seen;
  }
  void reset() {
    window.reset();
    ++seen;
  }
};

// Random records (with an N here and there, cut into lines of random lengths) whose first
// halves' shorter k-mers are in the filter: the window's verdict for every k-mer the scanner
// completes is the slow one's, and both verdicts occur.
template <int Words>
void judge_every_kmer(int k) {
  std::mt19937_64 random(static_cast<std::uint64_t>(k));
  constexpr int kFilterK = 21;
  KmerBloomFilter filter = KmerBloomFilter::sized_for(8000);
  KmerFilterWindow window(filter, kFilterK, k);
  std::size_t passed = 0;
  std::size_t failed = 0;
  for (int record_number = 0; record_number < 40; ++record_number) {
    std::string record(150 + random() % 300, 'A');
    for (char& base : record) base = "ACGT"[random() % 4];
    if (record_number % 3 == 0) record[random() % record.size()] = 'N';
    KmerScanner<1> fill(kFilterK);
    fill.feed(record.substr(0, record.size() / 2), [&](const PackedKmer<1>& kmer) { filter.insert(key_of<1>(kmer)[0]); });

    KmerScanner<Words> scanner(k);
    CountingObserver observer{window};
    window.begin_record();
    for (std::size_t at = 0; at < record.size();) {
      const std::size_t line = std::min<std::size_t>(1 + random() % 80, record.size() - at);
      window.prepare(std::string_view(record).substr(at, line));
      scanner.feed(std::string_view(record).substr(at, line), [&](const PackedKmer<Words>&) {
        const std::size_t end = observer.seen - 1;
        const bool expected = passes_slowly(filter, record, end, kFilterK, k);
        ASSERT_EQ(window.passes(), expected) << "k " << k << ", record " << record_number << ", end " << end;
        (expected ? passed : failed) += 1;
      }, observer);
      at += line;
    }
  }
  EXPECT_GT(passed, 100u) << k;
  EXPECT_GT(failed, 100u) << k;
}

TEST(KmerFilterWindow, JudgesEveryKmerOfAScanAsItsShorterKmersDoAcrossLinesAndBreaks) {
  judge_every_kmer<1>(21);
  judge_every_kmer<2>(33);
  judge_every_kmer<2>(63);
}

TEST(KmerFilterWindow, RefusesABaseScannedThatWasNotPrepared) {
  KmerBloomFilter filter = KmerBloomFilter::sized_for(10);
  KmerFilterWindow window(filter, 21, 33);
  window.begin_record();
  window.prepare("ACGTN");
  for (int base = 0; base < 4; ++base) window.push(base);
  window.reset();  // the N
  EXPECT_THROW(window.push(0), std::logic_error);
}

TEST(KmerFilterWindow, RefusesAFilterOfLongerKmersOrNone) {
  const KmerBloomFilter filter = KmerBloomFilter::sized_for(10);
  EXPECT_THROW(KmerFilterWindow(filter, 33, 55), std::invalid_argument);  // over one word
  EXPECT_THROW(KmerFilterWindow(filter, 31, 21), std::invalid_argument);  // longer than k
  EXPECT_THROW(KmerFilterWindow(KmerBloomFilter(), 21, 33), std::invalid_argument);
}

}  // namespace

namespace {

// The hashes of the k-mers of a sequence, as the parsers hash them.
std::vector<std::uint64_t> kmer_hashes(std::string_view sequence, int k) {
  std::vector<std::uint64_t> hashes;
  KmerScanner<1> scanner(k);
  scanner.feed(sequence, [&](const PackedKmer<1>& kmer) { hashes.push_back(key_of<1>(kmer)[0]); });
  return hashes;
}

// A filter with the additions put in.
KmerBloomFilter with_additions(KmerBloomFilter filter, const std::vector<KmerBloomFilter::WordBits>& additions) {
  for (const KmerBloomFilter::WordBits& addition : additions) filter.add(addition);
  return filter;
}

// A later round's filter is the first round's with what the carried k-mers it lacks add:
// nothing when it holds them all, else each word they change once, in order, with exactly
// the bits putting them in would set.
TEST(CarriedKmers, AddOnlyTheWordsTheFilterLacks) {
  const std::string known = "ACGTTGCAAGGCTTACCGATAGGCATTACGGATCCA";
  const std::string unknown = "TTTTGGGGCCCCAAAATGTGTGCACACAGTCAGT";
  constexpr int k = 21;
  KmerBloomFilter first = KmerBloomFilter::sized_for(1000);
  for (const std::uint64_t hash : kmer_hashes(known, k)) first.insert(hash);

  EXPECT_TRUE(carried_kmer_additions(first, known + "\n", k).empty()) << "nothing to add";
  EXPECT_TRUE(carried_kmer_additions(first, "", k).empty());

  const std::vector<KmerBloomFilter::WordBits> additions =
      carried_kmer_additions(first, known + "\n" + unknown + "\n" + unknown + "\n", k);
  ASSERT_FALSE(additions.empty());
  for (std::size_t i = 1; i < additions.size(); ++i) EXPECT_LT(additions[i - 1].word, additions[i].word) << "in order, once";
  KmerBloomFilter expected = first;  // the same bits as putting every carried k-mer in
  for (const std::uint64_t hash : kmer_hashes(unknown, k)) expected.insert(hash);
  const KmerBloomFilter joined = with_additions(first, additions);
  EXPECT_EQ(joined, expected);
  for (const KmerBloomFilter::WordBits& addition : additions) {
    EXPECT_NE(with_additions(first, {addition}), first) << "word " << addition.word << " adds nothing";
  }
}

// The carried k-mers are looked up in batches, and their additions merged as they grow: a
// batch filled in the middle of a sequence, one that spans sequences, the last part-filled
// one and merges along the way all give the same bits as one at a time.
TEST(CarriedKmers, PutInTheSameBitsWhereverABatchEnds) {
  constexpr int k = 21;
  std::mt19937_64 random(7);
  std::string sequences;
  std::vector<std::string> each;
  for (int sequence = 0; sequence < 3000; ++sequence) {  // about 90,000 k-mers lacking: merged at 65,536
    std::string bases(static_cast<std::size_t>(k) + random() % 90, 'A');  // 1 to 90 k-mers
    for (char& base : bases) base = "ACGT"[random() % 4];
    sequences += bases + "\n";
    each.push_back(std::move(bases));
  }
  KmerBloomFilter first = KmerBloomFilter::sized_for(200000);
  for (std::size_t sequence = 1; sequence < each.size(); sequence += 3) {  // a third known, not the last
    for (const std::uint64_t hash : kmer_hashes(each[sequence], k)) first.insert(hash);
  }
  KmerBloomFilter expected = first;
  for (const std::string& bases : each) {
    for (const std::uint64_t hash : kmer_hashes(bases, k)) expected.insert(hash);
  }
  const std::vector<KmerBloomFilter::WordBits> additions = carried_kmer_additions(first, sequences, k);
  for (std::size_t i = 1; i < additions.size(); ++i) ASSERT_LT(additions[i - 1].word, additions[i].word);
  EXPECT_EQ(with_additions(first, additions), expected);
}

}  // namespace
