// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "genomics/io/positioned_file.hpp"

namespace xenon::genomics {

// BGZF, the blocked gzip of htslib (`bgzip`, in Debian's tabix): a gzip file made of members
// of at most 64 KiB, each naming its own compressed size in a "BC" extra field. Any member can
// be decompressed on its own, so several readers can each take the members that start in
// their range of the file.

// The first bytes a header needs (the "BC" field is in bgzip's 6-byte extra field).
inline constexpr std::size_t kBgzfHeaderBytes = 18;
// The largest header this code reads: the fixed 12 bytes and an extra field that holds more.
inline constexpr std::size_t kBgzfLongestHeader = 12 + 256;

// The whole size of the BGZF member whose header starts at `bytes` (BSIZE + 1), or 0 if they
// do not start one (or hold too little of it to tell).
std::size_t bgzf_block_size(const unsigned char* bytes, std::size_t available);

// Whether a file starting with these bytes is BGZF (its first member is a BGZF member).
bool starts_bgzf(const unsigned char* bytes, std::size_t available);

// The empty member bgzip ends every file with: its absence says the file was cut short, or
// had other gzip data appended (`cat reads.bgz more.gz`), which only a whole read can take.
inline constexpr std::size_t kBgzfEndMarkerBytes = 28;
bool is_bgzf_end_marker(const unsigned char* bytes, std::size_t size);

// The members of one BGZF file, found and decompressed one at a time.
class BgzfBlocks {
 public:
  explicit BgzfBlocks(PositionedFile& file);
  ~BgzfBlocks();
  BgzfBlocks(const BgzfBlocks&) = delete;
  BgzfBlocks& operator=(const BgzfBlocks&) = delete;

  // Where the first member that starts at or after `from` starts (the file's size if none
  // does): a member header whose size leads to the end of the file or to another header.
  std::uint64_t first_block_at_or_after(std::uint64_t from);

  // Decompresses the member at `offset` into `out` (replacing what it held) and checks its
  // CRC-32 and length; returns where the next member starts. Throws InputError naming the
  // file and the offset if the member is corrupt or cut short.
  std::uint64_t read_block(std::uint64_t offset, std::string& out);

 private:
  std::size_t block_size_at(std::uint64_t offset);

  PositionedFile& file_;
  std::string compressed_;  // reused
  struct Inflater;  // isa-l's state, kept out of this header
  std::unique_ptr<Inflater> inflater_;
};

}  // namespace xenon::genomics
