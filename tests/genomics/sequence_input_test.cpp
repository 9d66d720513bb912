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

namespace {

using namespace xenon::genomics;

class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    char pattern[] = "/tmp/xenon-input-test-XXXXXX";
    path_ = mkdtemp(pattern);
  }
  ~TemporaryDirectory() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name, const std::string& contents) const {
    const std::string path = path_ + "/" + name;
    std::ofstream(path, std::ios::binary) << contents;
    return path;
  }
  std::string gzip_file(const std::string& name, const std::string& contents) const {
    const std::string path = path_ + "/" + name;
    gzFile out = gzopen(path.c_str(), "wb");
    gzwrite(out, contents.data(), static_cast<unsigned>(contents.size()));
    gzclose(out);
    return path;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string fastq_records(int count, int first = 1) {
  std::string text;
  for (int i = first; i < first + count; ++i) {
    const std::string bases = std::string(static_cast<std::size_t>(10 + i % 7), "ACGT"[i % 4]);
    text += "@read" + std::to_string(i) + "\n" + bases + "\n+\n" + std::string(bases.size(), 'I') + "\n";
  }
  return text;
}


// Collects every record's sequence (FASTA lines joined).
struct Collector {
  std::vector<std::string> sequences;
  void begin_record() { sequences.emplace_back(); }
  void bases(std::string_view line) { sequences.back() += line; }
};

// Splits a file into blocks of about `target` bytes and parses them all, in order.
struct Parsed {
  std::vector<BlockOrigin> origins;
  std::vector<std::string> blocks;
  std::vector<std::string> sequences;
};
Parsed split_and_parse(const std::string& path, std::size_t target) {
  BlockSplitter splitter(path, 0, target);
  Parsed parsed;
  BlockOrigin origin;
  std::string block;
  while (splitter.next(origin, block)) {
    Collector collector;
    const std::uint64_t records = SequenceParser(origin, block, path).parse(collector);
    EXPECT_EQ(records, collector.sequences.size());
    parsed.origins.push_back(origin);
    parsed.blocks.push_back(block);
    parsed.sequences.insert(parsed.sequences.end(), collector.sequences.begin(), collector.sequences.end());
  }
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

  const std::string empty = directory.file("empty.fq", "");
  EXPECT_EQ(error_of(empty), empty + ": empty file: neither FASTA nor FASTQ");

  const std::string missing = directory.path() + "/missing.fq";
  EXPECT_EQ(error_of(missing), missing + ": cannot open: No such file or directory");
  EXPECT_NE(error_of(directory.path()).find(directory.path() + ": cannot read"), std::string::npos);

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

}  // namespace
