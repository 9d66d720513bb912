// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/record_range.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>

#include "genomics/io/bgzf.hpp"
#include "genomics/io/positioned_file.hpp"
#include "genomics/io/record_start.hpp"

namespace xenon::genomics {
namespace {

constexpr std::size_t kReadBytes = 1 << 20;
constexpr std::size_t kStepPastTheEnd = 1 << 14;
constexpr std::uint64_t kToTheEnd = std::numeric_limits<std::uint64_t>::max();

class PlainStream final : public UnitStream {
 public:
  PlainStream(const std::string& path, std::uint64_t begin, std::uint64_t end) : file_(path), begin_(begin) {
    begin_ = std::min(begin, file_.size());
    end_ = std::max(begin_, std::min(end, file_.size()));
  }
  std::size_t read(char* out, std::size_t capacity) override {
    const std::size_t got = file_.read_at(begin_ + produced_, out, capacity);
    produced_ += got;
    return got;
  }
  std::optional<std::uint64_t> end_offset() const override { return end_ - begin_; }
  std::uint64_t file_bytes_read() const noexcept override { return file_.bytes_read(); }

 private:
  PositionedFile file_;
  std::uint64_t begin_;
  std::uint64_t end_ = 0;
  std::uint64_t produced_ = 0;
};

class BgzfStream final : public UnitStream {
 public:
  BgzfStream(const std::string& path, std::uint64_t begin, std::uint64_t end)
      : file_(path), blocks_(file_), end_(end) {
    next_block_ = begin == 0 ? 0 : blocks_.first_block_at_or_after(begin);
  }
  std::size_t read(char* out, std::size_t capacity) override {
    while (taken_ == block_.size()) {
      if (!end_offset_ && next_block_ >= end_) end_offset_ = produced_;
      if (next_block_ >= file_.size()) return 0;
      next_block_ = blocks_.read_block(next_block_, block_);
      taken_ = 0;
    }
    const std::size_t n = std::min(capacity, block_.size() - taken_);
    std::memcpy(out, block_.data() + taken_, n);
    taken_ += n;
    produced_ += n;
    return n;
  }
  std::optional<std::uint64_t> end_offset() const override { return end_offset_; }
  std::uint64_t file_bytes_read() const noexcept override { return file_.bytes_read(); }

 private:
  PositionedFile file_;
  BgzfBlocks blocks_;
  std::uint64_t end_;
  std::uint64_t next_block_ = 0;
  std::string block_;  // the member being handed out
  std::size_t taken_ = 0;
  std::uint64_t produced_ = 0;
  std::optional<std::uint64_t> end_offset_;
};

}  // namespace

RecordRange::RecordRange(const std::string& path, SplittableEncoding encoding, SequenceFormat format,
                         std::uint64_t begin, std::uint64_t end)
    : path_(path), format_(format) {
  if (encoding == SplittableEncoding::kBgzf) {
    stream_ = std::make_unique<BgzfStream>(path, begin, end);
  } else {
    stream_ = std::make_unique<PlainStream>(path, begin, end);
  }
  if (begin == 0) return;
  const std::optional<std::uint64_t> start = record_start_after(0);
  position_ = start ? *start : held_end();
  if (!start) limit_ = position_;  // no record starts here: the range is empty
}

bool RecordRange::fill() {
  if (stream_done_) return false;
  // No further than the range's end, and past it in small steps: the record that straddles
  // the end is all this reader needs of the next range.
  std::size_t want = kReadBytes;
  if (const std::optional<std::uint64_t> unit = stream_->end_offset()) {
    want = *unit > held_end() ? static_cast<std::size_t>(std::min<std::uint64_t>(want, *unit - held_end()))
                              : kStepPastTheEnd;
  }
  const std::size_t old_size = held_.size();
  held_.resize(old_size + want);
  const std::size_t got = stream_->read(held_.data() + old_size, want);
  held_.resize(old_size + got);
  if (got == 0) stream_done_ = true;
  return got != 0;
}

std::optional<std::uint64_t> RecordRange::record_start_after(std::uint64_t from) {
  while (true) {
    const std::uint64_t at = std::min(from, held_end());
    const std::string_view data(held_.data() + (at - held_offset_), held_end() - at);
    const RecordStart found = find_record_start(data, stream_done_, format_);
    if (found.result == RecordStart::Result::kFound) return at + found.offset;
    if (found.result == RecordStart::Result::kNone) return std::nullopt;
    fill();
  }
}

std::size_t RecordRange::read(char* out, std::size_t capacity) {
  while (true) {
    std::optional<std::uint64_t> end = limit_;
    if (!end) {
      const std::optional<std::uint64_t> unit = stream_->end_offset();
      if (unit && (*unit <= held_end() || stream_done_)) {
        // Read through the record that straddles the end, to where the next range starts.
        const std::optional<std::uint64_t> next = record_start_after(*unit);
        limit_ = next ? std::max(*next, position_) : kToTheEnd;
        ends_file_ = !next;
        continue;
      }
      if (unit) end = *unit;  // the range runs at least this far
    }
    const std::uint64_t stop = end ? std::min(*end, held_end()) : held_end();
    if (position_ < stop) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(capacity, stop - position_));
      std::memcpy(out, held_.data() + (position_ - held_offset_), n);
      position_ += n;
      const std::uint64_t consumed = position_ - held_offset_;
      if (consumed >= kReadBytes && consumed * 2 >= held_.size()) {  // keep the copy cheap
        held_.erase(0, static_cast<std::size_t>(consumed));
        held_offset_ = position_;
      }
      return n;
    }
    if (limit_ && position_ >= *limit_) return 0;
    if (!fill() && limit_) return 0;  // read to the end of the file
  }
}

}  // namespace xenon::genomics
