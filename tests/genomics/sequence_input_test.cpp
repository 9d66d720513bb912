// SPDX-License-Identifier: BSD-3-Clause
// Reading FASTA/FASTQ: blocks cut on record boundaries with the right record numbers, plain
// and gzip alike, and every kind of bad input reported with its file and record.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "genomics/io/block_splitter.hpp"
#include "genomics/io/input_error.hpp"
#include "genomics/io/input_file.hpp"
#include "genomics/io/sequence_parser.hpp"
#include "genomics/kmer/kmer.hpp"
#include "tests/support/record_collector.hpp"
#include "tests/support/temporary_directory.hpp"
#include "tests/support/test_support.hpp"

namespace {

using namespace xenon::genomics;

// Test inputs, plain or gzip-compressed.
class TemporaryDirectory : public xenon::testing::TemporaryDirectory {
 public:
  TemporaryDirectory() : xenon::testing::TemporaryDirectory("xenon-input-test") {}
  std::string file(const std::string& name, const std::string& contents) const {
    return write(name, contents);
  }
  std::string gzip_file(const std::string& name, const std::string& contents) const {
    const std::string file = path() + "/" + name;
    gzFile out = gzopen(file.c_str(), "wb");
    gzwrite(out, contents.data(), static_cast<unsigned>(contents.size()));
    gzclose(out);
    return file;
  }
};

std::string fastq_records(int count, int first = 1) {
  std::string text;
  for (int i = first; i < first + count; ++i) {
    const std::string bases = std::string(static_cast<std::size_t>(10 + i % 7), "ACGT"[i % 4]);
    text += "@read" + std::to_string(i) + "\n" + bases + "\n+\n" + std::string(bases.size(), 'I') + "\n";
  }
  return text;
}


using Collector = xenon::testing::RecordCollector;

// Splits a file into blocks of about `target` bytes and parses them all, in order.
struct Parsed {
  std::vector<BlockOrigin> origins;
  std::vector<std::string> blocks;
  std::vector<std::string> sequences;
};
Parsed split_and_parse(const std::string& path, std::size_t target, std::size_t overlap = 30) {
  BlockSplitter splitter(path, 0, target, overlap);
  Parsed parsed;
  BlockOrigin origin;
  std::string block;
  Collector collector;
  while (splitter.next(origin, block)) {
    const std::size_t before = collector.sequences.size();
    const std::uint64_t records = SequenceParser(origin, block, path).parse(collector);
    EXPECT_EQ(records, collector.sequences.size() - before);
    parsed.origins.push_back(origin);
    parsed.blocks.push_back(block);
  }
  parsed.sequences = std::move(collector.sequences);
  return parsed;
}

std::string error_of(const std::string& path, std::size_t target = 1 << 20) {
  try {
    split_and_parse(path, target);
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

TEST(BlockSplitter, CutsFastqIntoWholeRecordsNumberedFromOne) {
  TemporaryDirectory directory;
  const std::string text = fastq_records(500);
  const std::string path = directory.file("reads.fq", text);
  for (const std::size_t target : {std::size_t{1}, std::size_t{100}, std::size_t{1000}, std::size_t{1} << 20}) {
    const Parsed parsed = split_and_parse(path, target);
    std::string joined;
    std::uint64_t next_record = 1;
    for (std::size_t i = 0; i < parsed.blocks.size(); ++i) {
      joined += parsed.blocks[i];
      EXPECT_EQ(parsed.blocks[i].front(), '@');
      EXPECT_EQ(parsed.origins[i].first_record, next_record);
      EXPECT_EQ(parsed.origins[i].format, SequenceFormat::kFastq);
      next_record += static_cast<std::uint64_t>(std::count(parsed.blocks[i].begin(), parsed.blocks[i].end(), '\n') / 4);
    }
    EXPECT_EQ(joined, text) << "target " << target;
    EXPECT_EQ(parsed.sequences.size(), 500u);
    if (target == 1000) {
      EXPECT_GT(parsed.blocks.size(), 10u);
    }
  }
}

TEST(BlockSplitter, CutsFastaBeforeHeadersAndJoinsSequenceLines) {
  TemporaryDirectory directory;
  std::string text;
  for (int i = 0; i < 200; ++i) text += ">seq" + std::to_string(i) + " description\nACGTACGTAC\nGGTT\r\nacgtn\n\n";
  const std::string path = directory.file("genome.fa", text);
  const Parsed parsed = split_and_parse(path, 300);
  EXPECT_GT(parsed.blocks.size(), 10u);
  std::uint64_t next_record = 1;
  for (std::size_t i = 0; i < parsed.blocks.size(); ++i) {
    EXPECT_EQ(parsed.blocks[i].front(), '>');
    EXPECT_EQ(parsed.origins[i].first_record, next_record);
    next_record += static_cast<std::uint64_t>(std::count(parsed.blocks[i].begin(), parsed.blocks[i].end(), '>'));
  }
  ASSERT_EQ(parsed.sequences.size(), 200u);
  EXPECT_EQ(parsed.sequences[199], "ACGTACGTACGGTTacgtn");  // "\r\n" ends a line too
}

// Canonical k-mers of every record, scanning block by block as the counter's parsers do.
struct KmerLister {
  KmerScanner<1> scanner{21};
  std::vector<std::string> kmers;
  void begin_record() { scanner.reset(); }
  void resume_record(std::string_view carried) {
    scanner.reset();
    scanner.feed(carried, [](const PackedKmer<1>&) {});
  }
  void bases(std::string_view line) {
    scanner.feed(line, [this](const PackedKmer<1>& kmer) { kmers.push_back(kmer_to_string<1>(kmer, 21)); });
  }
};

std::vector<std::string> kmers_by_blocks(const std::string& path, std::size_t target) {
  BlockSplitter splitter(path, 0, target, 20);  // k - 1
  KmerLister lister;
  BlockOrigin origin;
  std::string block;
  while (splitter.next(origin, block)) SequenceParser(origin, block, path).parse(lister);
  std::sort(lister.kmers.begin(), lister.kmers.end());
  return lister.kmers;
}

TEST(BlockSplitter, CutsAFastaRecordLongerThanABlockWithoutLosingOrRepeatingKmers) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "one thread only: nothing for ThreadSanitizer";
  TemporaryDirectory directory;
  std::string genome;
  std::uint64_t state = 12345;
  for (int i = 0; i < 100000; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    genome += "ACGTN"[(state >> 33) % (i % 1000 < 3 ? 5 : 4)];
  }
  std::string wrapped;
  for (std::size_t at = 0; at < genome.size(); at += 60) wrapped += genome.substr(at, 60) + "\r\n";
  const std::string lines = directory.file("lines.fa", ">chr1 a long record\n" + wrapped + ">chr2\nACGTACGTACGTACGTACGTACGTAAA\n");
  const std::string one_line = directory.file("one_line.fa", ">chr1\n" + genome + "\n>chr2\nACGTACGTACGTACGTACGTACGTAAA\n");
  for (const std::string& path : {lines, one_line}) {
    const std::vector<std::string> whole = kmers_by_blocks(path, 1 << 20);
    for (const std::size_t target : {std::size_t{7}, std::size_t{100}, std::size_t{4096}}) {
      const Parsed parsed = split_and_parse(path, target, 20);
      EXPECT_GT(parsed.blocks.size(), 10u);
      ASSERT_EQ(parsed.sequences.size(), 2u) << path << " target " << target;
      EXPECT_EQ(parsed.sequences[0], genome);
      EXPECT_TRUE(parsed.origins.back().first_record == 2 || parsed.origins.back().continues_record);
      EXPECT_EQ(kmers_by_blocks(path, target), whole) << path << " target " << target;
    }
  }
}

TEST(BlockSplitter, KeepsTrailingBlankLinesOfFastqWithTheLastRecord) {
  TemporaryDirectory directory;
  const std::string path = directory.file("blank_tail.fq", fastq_records(59) + "\n\n\n\n\n");
  for (const std::size_t target : {std::size_t{1}, std::size_t{50}, std::size_t{1000}}) {
    EXPECT_EQ(error_of(path, target), "no error") << "target " << target;
    EXPECT_EQ(split_and_parse(path, target).sequences.size(), 59u);
  }
}

TEST(BlockSplitter, AnEmptyFileHasNoRecords) {
  TemporaryDirectory directory;
  for (const std::string& contents : {std::string(), std::string("\n\r\n\n")}) {
    BlockSplitter splitter(directory.file("empty.fq", contents), 0);
    EXPECT_TRUE(splitter.empty());
    BlockOrigin origin;
    std::string block;
    EXPECT_FALSE(splitter.next(origin, block));
  }
  EXPECT_TRUE(BlockSplitter(directory.gzip_file("empty.fq.gz", ""), 0).empty());
}

TEST(InputFile, ReadsGzipAndConcatenatedGzipMembersAsThePlainText) {
  TemporaryDirectory directory;
  const std::string text = fastq_records(2000);
  const std::string plain = directory.file("reads.fq", text);
  const std::string packed = directory.gzip_file("reads.fq.gz", text);
  EXPECT_EQ(split_and_parse(packed, 4096).sequences, split_and_parse(plain, 4096).sequences);
  // Two members, as `cat a.gz b.gz` makes.
  const std::string second = directory.gzip_file("more.fq.gz", fastq_records(10, 2001));
  std::ofstream(directory.path() + "/both.fq.gz", std::ios::binary)
      << std::ifstream(packed, std::ios::binary).rdbuf() << std::ifstream(second, std::ios::binary).rdbuf();
  EXPECT_EQ(split_and_parse(directory.path() + "/both.fq.gz", 4096).sequences.size(), 2010u);
}

TEST(InputErrors, NameTheFileAndTheRecord) {
  TemporaryDirectory directory;
  const std::string good = fastq_records(4);
  // Record 3 loses its '+' line: lines regroup, and record 3 is where it shows.
  std::string no_plus = fastq_records(2) + "@read3\nACGT\nIIII\n" + fastq_records(3, 4);
  const std::string no_plus_path = directory.file("no_plus.fq", no_plus);
  EXPECT_EQ(error_of(no_plus_path), no_plus_path + ": record 3: missing '+' line after the sequence, found \"IIII\"");
  // The same, found by a parser of a later block (blocks of about 60 bytes).
  EXPECT_EQ(error_of(no_plus_path, 60), error_of(no_plus_path));

  const std::string short_quality = directory.file("short.fq", fastq_records(1) + "@r2\nACGTA\n+\nIII\n");
  EXPECT_EQ(error_of(short_quality), short_quality + ": record 2: quality length 3 differs from sequence length 5");

  const std::string truncated = directory.file("truncated.fq", good + "@read5\nACGT\n");
  EXPECT_EQ(error_of(truncated), truncated + ": record 5: truncated: the file ends after the sequence");

  const std::string bad_header = directory.file("header.fq", fastq_records(1) + "read2\nAC\n+\nII\n");
  EXPECT_EQ(error_of(bad_header), bad_header + ": record 2: expected a FASTQ header starting with '@', found \"read2\"");

  const std::string neither = directory.file("notes.txt", "hello\n");
  EXPECT_EQ(error_of(neither), neither + ": neither FASTA nor FASTQ: starts with 'h', not '>' or '@'");


  const std::string missing = directory.path() + "/missing.fq";
  EXPECT_EQ(error_of(missing), missing + ": cannot open: No such file or directory");
  EXPECT_EQ(error_of(directory.path()), directory.path() + ": cannot read: a directory");

  // Trailing blank lines end a FASTQ file harmlessly; inside it they are an error.
  EXPECT_EQ(error_of(directory.file("blank_end.fq", good + "\n\n")), "no error");
  const std::string blank_inside = directory.file("blank_inside.fq", fastq_records(1) + "\n" + fastq_records(1, 2));
  EXPECT_EQ(error_of(blank_inside), blank_inside + ": record 2: empty line where a FASTQ record should start");
}

TEST(InputErrors, ReportCorruptAndTruncatedCompressedData) {
  TemporaryDirectory directory;
  const std::string packed = directory.gzip_file("reads.fq.gz", fastq_records(3000));
  std::string bytes;
  {
    std::ifstream in(packed, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string cut = directory.file("cut.fq.gz", bytes.substr(0, bytes.size() / 2));
  EXPECT_EQ(error_of(cut), cut + ": compressed data is truncated");
  std::string damaged = bytes;
  for (std::size_t i = 100; i < 200; ++i) damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
  const std::string corrupt = directory.file("corrupt.fq.gz", damaged);
  EXPECT_NE(error_of(corrupt).find(corrupt + ": corrupt compressed data"), std::string::npos) << error_of(corrupt);
}

// `cat a.gz b.fq > c.fq.gz` once passed for a.gz alone (100 records of 8,175, exit 0).
TEST(InputErrors, BytesAfterTheGzipStreamThatStartNoMemberAreAnErrorAtTheirOffset) {
  TemporaryDirectory directory;
  const std::string packed = directory.gzip_file("reads.fq.gz", fastq_records(100));
  std::string bytes;
  {
    std::ifstream in(packed, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string appended = directory.file("appended.fq.gz", bytes + fastq_records(50, 101));
  EXPECT_EQ(error_of(appended), appended + ": data after the end of the gzip stream at byte " +
                                    std::to_string(bytes.size()) +
                                    " is not another gzip member (a file appended to a .gz file?)");
  // Zeros after the stream are padding, as gzip takes them.
  const std::string padded = directory.file("padded.fq.gz", bytes + std::string(70000, '\0'));
  EXPECT_EQ(error_of(padded), "no error");
  EXPECT_EQ(split_and_parse(padded, 4096).sequences.size(), 100u);
}

}  // namespace
