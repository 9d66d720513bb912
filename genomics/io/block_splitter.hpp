// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "genomics/io/byte_source.hpp"
#include "genomics/io/sequence_format.hpp"

namespace xenon::genomics {

// Where a block of records comes from, so that whoever parses it can name the file and
// record of any problem.
struct BlockOrigin {
  std::uint32_t file_index = 0;
  SequenceFormat format = SequenceFormat::kFasta;
  bool ends_file = false;          // nothing follows in this file: a cut-short record is truncated
  // Number of the block's first record in its piece of the file (1-based): the whole file,
  // or the range one reader took (input_plan.hpp), whose records the reader numbers over the
  // file once the pieces before it are counted.
  std::uint64_t first_record = 1;
  // FASTA only: the block continues record first_record, cut because it is longer than a
  // block. Its first line then holds the record's last bases before the cut (at most the
  // overlap the splitter was given), so k-mers across the cut are found once.
  bool continues_record = false;
};

// Streams a FASTA or FASTQ file as blocks of about `target_bytes`, so that blocks can be
// parsed independently and in parallel. It only finds record boundaries (FASTQ: every fourth
// line; FASTA: lines that start with '>') and counts records; checking the records is the
// parser's job. A FASTA record longer than a block (a chromosome) is cut into blocks, each
// after the first starting with the previous `overlap_bases` bases of the record (k - 1 for
// k-mers). An empty file (or one of blank lines) is a file with no records. The bytes come
// from the whole file (InputFile), or from one range of it (RecordRange).
class BlockSplitter {
 public:
  BlockSplitter(std::string path, std::uint32_t file_index, std::size_t target_bytes = 1 << 20,
                std::size_t overlap_bases = 63);
  BlockSplitter(std::unique_ptr<ByteSource> source, std::uint32_t file_index, std::size_t target_bytes = 1 << 20,
                std::size_t overlap_bases = 63);

  SequenceFormat format() const noexcept { return format_; }
  bool empty() const noexcept { return empty_; }
  const std::string& path() const noexcept { return source_->path(); }
  // Bytes read from the file so far (compressed, where it is).
  std::uint64_t file_bytes_read() const noexcept { return source_->file_bytes_read(); }
  // Number of the record the next block starts with (or continues).
  std::uint64_t next_record() const noexcept { return next_record_; }

  // The next block into `block` (replacing its contents); false once the file is exhausted.
  bool next(BlockOrigin& origin, std::string& block);

 private:
  struct Cut {
    std::size_t bytes = 0;
    std::uint64_t records = 0;  // records that begin before the cut
  };
  bool find_cut(Cut& cut) const;
  std::size_t record_cut() const;
  void emit(std::string& block, std::size_t bytes);
  bool read_more();

  std::unique_ptr<ByteSource> source_;
  std::uint32_t file_index_;
  std::size_t target_bytes_;
  std::size_t overlap_bases_;
  SequenceFormat format_ = SequenceFormat::kFasta;
  bool empty_ = false;
  std::string pending_;  // read from the file, not yet handed out, from offset begin_
  std::size_t begin_ = 0;
  bool end_of_file_ = false;
  std::uint64_t next_record_ = 1;
  bool continuing_ = false;  // the next block continues a cut FASTA record
  std::string carried_;      // its first line: the record's bases before the cut
};

}  // namespace xenon::genomics
