#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "genomics/io/input_file.hpp"
#include "genomics/io/sequence_format.hpp"

namespace xenon::genomics {

// Where a block of whole records comes from, so that whoever parses it can name the file and
// record of any problem.
struct BlockOrigin {
  std::uint32_t file_index = 0;
  SequenceFormat format = SequenceFormat::kFasta;
  bool ends_file = false;         // nothing follows in this file: a cut-short record is truncated
  std::uint64_t first_record = 1; // number of the block's first record in its file (1-based)
};

// Streams a FASTA or FASTQ file as blocks of about `target_bytes` that start and end on record
// boundaries, so that blocks can be parsed independently and in parallel. It only finds the
// boundaries (FASTQ: every fourth line; FASTA: lines that start with '>') and counts records;
// checking the records is the parser's job. A FASTA record longer than the target makes a
// block of its own.
class BlockSplitter {
 public:
  BlockSplitter(std::string path, std::uint32_t file_index, std::size_t target_bytes = 1 << 20);

  SequenceFormat format() const noexcept { return format_; }
  const std::string& path() const noexcept { return file_.path(); }

  // The next block into `block` (replacing its contents); false once the file is exhausted.
  bool next(BlockOrigin& origin, std::string& block);

 private:
  struct Cut {
    std::size_t bytes = 0;
    std::uint64_t records = 0;
  };
  bool find_cut(Cut& cut) const;
  bool read_more();

  InputFile file_;
  std::uint32_t file_index_;
  std::size_t target_bytes_;
  SequenceFormat format_ = SequenceFormat::kFasta;
  std::string pending_;       // read from the file, not yet handed out, from offset begin_
  std::size_t begin_ = 0;
  bool end_of_file_ = false;
  std::uint64_t next_record_ = 1;
};

}  // namespace xenon::genomics
