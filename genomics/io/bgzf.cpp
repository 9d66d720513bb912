// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/bgzf.hpp"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <cstring>

#include "genomics/io/input_error.hpp"

namespace xenon::genomics {
namespace {

constexpr std::size_t kFixedHeader = 12;  // ID1 ID2 CM FLG MTIME(4) XFL OS XLEN(2)
constexpr std::size_t kTrailer = 8;       // CRC32 ISIZE
constexpr unsigned char kExtraFlag = 4;   // FLG.FEXTRA

unsigned le16(const unsigned char* bytes) { return bytes[0] | (unsigned{bytes[1]} << 8); }
std::uint32_t le32(const unsigned char* bytes) {
  return bytes[0] | (std::uint32_t{bytes[1]} << 8) | (std::uint32_t{bytes[2]} << 16) | (std::uint32_t{bytes[3]} << 24);
}

}  // namespace

std::size_t bgzf_block_size(const unsigned char* bytes, std::size_t available) {
  if (available < kFixedHeader || bytes[0] != 0x1f || bytes[1] != 0x8b || bytes[2] != 8 ||
      (bytes[3] & kExtraFlag) == 0) {
    return 0;
  }
  const std::size_t extra = le16(bytes + 10);
  if (kFixedHeader + extra > available) return 0;
  // Subfields: SI1 SI2 SLEN(2) data; BGZF's is 'B' 'C', 2 bytes: the member's size - 1.
  for (std::size_t at = kFixedHeader; at + 4 <= kFixedHeader + extra;) {
    const std::size_t length = le16(bytes + at + 2);
    if (bytes[at] == 'B' && bytes[at + 1] == 'C' && length == 2 && at + 6 <= kFixedHeader + extra) {
      const std::size_t size = le16(bytes + at + 4) + std::size_t{1};
      return size >= kFixedHeader + extra + kTrailer ? size : 0;
    }
    at += 4 + length;
  }
  return 0;
}

bool starts_bgzf(const unsigned char* bytes, std::size_t available) {
  return bgzf_block_size(bytes, available) != 0;
}

struct BgzfBlocks::Inflater {
  inflate_state state;
};

BgzfBlocks::BgzfBlocks(PositionedFile& file) : file_(file), inflater_(std::make_unique<Inflater>()) {}

BgzfBlocks::~BgzfBlocks() = default;

bool is_bgzf_end_marker(const unsigned char* bytes, std::size_t size) {
  static constexpr unsigned char kMarker[kBgzfEndMarkerBytes] = {
      0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, 'B', 'C', 2, 0, 0x1b, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  return size == kBgzfEndMarkerBytes && std::memcmp(bytes, kMarker, kBgzfEndMarkerBytes) == 0;
}

std::size_t BgzfBlocks::block_size_at(std::uint64_t offset) {
  unsigned char header[kBgzfLongestHeader];
  const std::size_t got = file_.read_at(offset, reinterpret_cast<char*>(header), sizeof header);
  return bgzf_block_size(header, got);
}

std::uint64_t BgzfBlocks::first_block_at_or_after(std::uint64_t from) {
  // A member is at most 64 KiB, so one starts in every 64 KiB of the file but the last.
  // Windows overlap by a longest header so that no header is missed across them.
  // Small windows: the next member is on average half a member away.
  constexpr std::size_t kWindow = (1 << 14) + kBgzfLongestHeader;
  std::string window(kWindow, '\0');
  for (std::uint64_t start = from; start < file_.size(); start += kWindow - kBgzfLongestHeader) {
    const std::size_t got = file_.read_at(start, window.data(), window.size());
    const auto* bytes = reinterpret_cast<const unsigned char*>(window.data());
    for (std::size_t at = 0; at + kFixedHeader <= got && at < kWindow - kBgzfLongestHeader; ++at) {
      if (bytes[at] != 0x1f) continue;
      const std::size_t size = bgzf_block_size(bytes + at, got - at);
      if (size == 0) continue;
      // Compressed data may hold a header's bytes by chance; the next member's header rarely.
      const std::uint64_t next = start + at + size;
      if (next == file_.size() || (next < file_.size() && block_size_at(next) != 0)) return start + at;
    }
  }
  return file_.size();
}

std::uint64_t BgzfBlocks::read_block(std::uint64_t offset, std::string& out) {
  const auto corrupt = [&](const std::string& what) {
    return InputError(file_.path(), "corrupt BGZF block at byte " + std::to_string(offset) + ": " + what);
  };
  const auto truncated = [&] { return InputError(file_.path(), "compressed data is truncated"); };
  // Each byte once: the fixed header, any longer extra field, then the rest of the member.
  compressed_.resize(1 << 16);
  char* data = compressed_.data();
  const auto* header = reinterpret_cast<const unsigned char*>(data);
  std::size_t got = file_.read_at(offset, data, kBgzfHeaderBytes);
  if (got < kFixedHeader) throw truncated();
  const std::size_t data_start = kFixedHeader + le16(header + 10);
  if (data_start > got) {
    if (data_start > kBgzfLongestHeader) throw corrupt("not a BGZF member header");
    got += file_.read_at(offset + got, data + got, data_start - got);
    if (got < data_start) throw truncated();
  }
  const std::size_t size = bgzf_block_size(header, got);
  if (size == 0) throw corrupt("not a BGZF member header");
  if (file_.read_at(offset + got, data + got, size - got) != size - got) throw truncated();
  const auto* block = reinterpret_cast<const unsigned char*>(compressed_.data());
  const std::uint32_t expected_crc = le32(block + size - 8);
  const std::uint32_t length = le32(block + size - 4);
  if (length > (1u << 16)) throw corrupt("its length " + std::to_string(length) + " is over 64 KiB");
  // A member inflates whole into its known length: isa-l's one-shot inflate, the fastest of
  // the libraries measured per member (performance/decompression_bench).
  out.resize(length);
  inflate_state& state = inflater_->state;
  isal_inflate_init(&state);
  state.crc_flag = ISAL_DEFLATE;
  state.next_in = const_cast<unsigned char*>(block + data_start);
  state.avail_in = static_cast<std::uint32_t>(size - data_start - kTrailer);
  unsigned char spare = 0;  // for an empty member, whose output buffer would be empty
  state.next_out = length != 0 ? reinterpret_cast<unsigned char*>(out.data()) : &spare;
  state.avail_out = length != 0 ? length : 1;
  const int status = isal_inflate_stateless(&state);
  if (status != ISAL_DECOMP_OK || state.total_out != length) {
    throw corrupt("its data does not inflate to its length");
  }
  if (crc32_gzip_refl(0, reinterpret_cast<const unsigned char*>(out.data()), length) != expected_crc) {
    throw corrupt("CRC-32 mismatch");
  }
  return offset + size;
}

}  // namespace xenon::genomics
