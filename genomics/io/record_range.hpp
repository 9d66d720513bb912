// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "genomics/io/byte_source.hpp"
#include "genomics/io/sequence_format.hpp"

namespace xenon::genomics {

// How a file that can be read in ranges is stored.
enum class SplittableEncoding : unsigned char { kPlain = 1, kBgzf = 2 };

// The bytes of a plain or BGZF file, decompressed, from the first unit (a byte; a BGZF member)
// at or after a point, with where the first unit at or after a later point begins in them
// once the stream has come that far.
class UnitStream {
 public:
  virtual ~UnitStream() = default;
  virtual std::size_t read(char* out, std::size_t capacity) = 0;  // 0 at the end of the file
  virtual std::optional<std::uint64_t> end_offset() const = 0;
  virtual std::uint64_t file_bytes_read() const noexcept = 0;
};

// The records of one range [begin, end) of a file: the whole records that start in it, by
// the rule of find_record_start (record_start.hpp) applied at both ends, so that the ranges of
// one file, side by side, hold every record exactly once. A range that starts at 0 starts at
// the file's first byte (BlockSplitter checks what is there). For BGZF the units are the
// members: a range holds the records that start after the start of the first member that
// starts in it, up to the first that starts after the first member of the next range.
class RecordRange final : public ByteSource {
 public:
  RecordRange(const std::string& path, SplittableEncoding encoding, SequenceFormat format, std::uint64_t begin,
              std::uint64_t end);

  std::size_t read(char* out, std::size_t capacity) override;
  const std::string& path() const noexcept override { return path_; }
  bool ends_file() const noexcept override { return ends_file_; }
  std::uint64_t file_bytes_read() const noexcept override { return stream_->file_bytes_read(); }

 private:
  bool fill();
  std::uint64_t held_end() const { return held_offset_ + held_.size(); }
  // Where the first record after `from` starts, reading on as far as that takes.
  std::optional<std::uint64_t> record_start_after(std::uint64_t from);

  std::string path_;
  SequenceFormat format_;
  std::unique_ptr<UnitStream> stream_;
  std::string held_;                // stream bytes from held_offset_ on
  std::uint64_t held_offset_ = 0;
  std::uint64_t position_ = 0;      // the next byte to hand out
  std::optional<std::uint64_t> limit_;  // where the range ends, once known
  bool stream_done_ = false;
  bool ends_file_ = false;
};

}  // namespace xenon::genomics
