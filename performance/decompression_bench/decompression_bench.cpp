// SPDX-License-Identifier: BSD-3-Clause
// Decompression speed of zlib, isa-l (igzip) and libdeflate on gzip and BGZF files, all in
// memory (the file is read first, the output buffer reused), so the figures are the
// libraries' and not the disk's. Each gzip file is decompressed as one stream of members
// (zlib and isa-l stream; libdeflate needs the whole output at once); each BGZF file also
// member by member, as the readers of a split file do. Prints MB/s of decompressed output,
// best of the runs. Usage: decompression_bench [-runs N] FILE...
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "genomics/io/bgzf.hpp"

namespace {

using Bytes = std::vector<unsigned char>;

Bytes read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open");
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// zlib: a gzip stream of members, inflated 1 MiB of output at a time.
std::size_t zlib_stream(const Bytes& in, Bytes& out) {
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 16) != Z_OK) throw std::runtime_error("zlib: init");
  stream.next_in = const_cast<unsigned char*>(in.data());
  stream.avail_in = static_cast<unsigned>(in.size());
  std::size_t total = 0;
  while (true) {
    stream.next_out = out.data();
    stream.avail_out = static_cast<unsigned>(std::min<std::size_t>(out.size(), 1 << 20));
    const int status = inflate(&stream, Z_NO_FLUSH);
    total += std::min<std::size_t>(out.size(), 1 << 20) - stream.avail_out;
    if (status == Z_STREAM_END) {
      if (stream.avail_in == 0) break;
      inflateReset(&stream);  // the next member
    } else if (status != Z_OK) {
      throw std::runtime_error("zlib: corrupt data");
    }
  }
  inflateEnd(&stream);
  return total;
}

// isa-l: the same stream, 1 MiB of output at a time.
std::size_t isal_stream(const Bytes& in, Bytes& out) {
  inflate_state state;
  isal_inflate_init(&state);
  state.crc_flag = ISAL_GZIP;
  state.next_in = const_cast<unsigned char*>(in.data());
  state.avail_in = static_cast<std::uint32_t>(in.size());
  std::size_t total = 0;
  while (true) {
    state.next_out = out.data();
    state.avail_out = static_cast<std::uint32_t>(std::min<std::size_t>(out.size(), 1 << 20));
    const std::size_t before = state.avail_out;
    if (isal_inflate(&state) != ISAL_DECOMP_OK) throw std::runtime_error("isa-l: corrupt data");
    total += before - state.avail_out;
    if (state.block_state == ISAL_BLOCK_FINISH) {
      if (state.avail_in == 0) break;
      unsigned char* next = state.next_in;
      const std::uint32_t left = state.avail_in;
      isal_inflate_reset(&state);  // the next member
      state.crc_flag = ISAL_GZIP;
      state.next_in = next;
      state.avail_in = left;
    } else if (state.avail_in == 0 && before == state.avail_out) {
      throw std::runtime_error("isa-l: truncated data");
    }
  }
  return total;
}

// libdeflate: every member into one output buffer big enough for the whole file.
std::size_t libdeflate_whole(const Bytes& in, Bytes& out) {
  libdeflate_decompressor* decompressor = libdeflate_alloc_decompressor();
  std::size_t in_at = 0, total = 0;
  while (in_at < in.size()) {
    std::size_t used = 0, produced = 0;
    if (libdeflate_gzip_decompress_ex(decompressor, in.data() + in_at, in.size() - in_at, out.data() + total,
                                      out.size() - total, &used, &produced) != LIBDEFLATE_SUCCESS) {
      throw std::runtime_error("libdeflate: corrupt data or output too small");
    }
    in_at += used;
    total += produced;
  }
  libdeflate_free_decompressor(decompressor);
  return total;
}

// BGZF member by member: each library inflates the raw deflate data of one member into a
// 64 KiB buffer (the CRC-32 is checked by each, as the readers check it).
template <class Inflate>
std::size_t bgzf_members(const Bytes& in, Bytes& out, Inflate&& inflate_member) {
  std::size_t at = 0, total = 0;
  while (at < in.size()) {
    const std::size_t size = xenon::genomics::bgzf_block_size(in.data() + at, in.size() - at);
    if (size == 0 || at + size > in.size()) throw std::runtime_error("not BGZF");
    const std::size_t data_start = 12 + (in[at + 10] | (in[at + 11] << 8));
    std::uint32_t length;
    std::memcpy(&length, in.data() + at + size - 4, 4);
    inflate_member(in.data() + at + data_start, size - data_start - 8, out.data(), length);
    std::uint32_t crc;
    std::memcpy(&crc, in.data() + at + size - 8, 4);
    if (crc32(0, out.data(), length) != crc) throw std::runtime_error("CRC-32 mismatch");
    total += length;
    at += size;
  }
  return total;
}

double best_mbps(const std::function<std::size_t()>& run, int runs, std::size_t& produced) {
  double best = 0;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    produced = run();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::max(best, static_cast<double>(produced) / 1e6 / seconds);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 3;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "-runs" && i + 1 < argc) {
      runs = std::stoi(argv[++i]);
    } else {
      files.push_back(argv[i]);
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: decompression_bench [-runs N] FILE.gz...\n");
    return 2;
  }
  try {
    std::printf("%-32s %8s %9s %9s %9s %9s %9s %9s\n", "file", "MB out", "zlib", "isa-l", "libdefl.",
                "zlib/blk", "isa-l/blk", "libd/blk");
    for (const std::string& file : files) {
      const Bytes in = read_whole(file);
      Bytes out(std::max<std::size_t>(in.size() * 12, 1 << 20));
      std::size_t produced = 0;
      const double zlib = best_mbps([&] { return zlib_stream(in, out); }, runs, produced);
      const std::size_t expected = produced;
      const double isal = best_mbps([&] { return isal_stream(in, out); }, runs, produced);
      if (produced != expected) throw std::runtime_error("isa-l and zlib disagree on " + file);
      const double libdeflate = best_mbps([&] { return libdeflate_whole(in, out); }, runs, produced);
      if (produced != expected) throw std::runtime_error("libdeflate and zlib disagree on " + file);
      std::string per_member = "        -         -         -";
      if (xenon::genomics::starts_bgzf(in.data(), in.size())) {
        z_stream stream{};
        inflateInit2(&stream, -15);
        const double zlib_blocks = best_mbps([&] {
          return bgzf_members(in, out, [&](const unsigned char* data, std::size_t size, unsigned char* to, std::uint32_t length) {
            inflateReset(&stream);
            stream.next_in = const_cast<unsigned char*>(data);
            stream.avail_in = static_cast<unsigned>(size);
            stream.next_out = to;
            stream.avail_out = length + 1;
            if (inflate(&stream, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("zlib: corrupt member");
          });
        }, runs, produced);
        inflateEnd(&stream);
        inflate_state state;
        const double isal_blocks = best_mbps([&] {
          return bgzf_members(in, out, [&](const unsigned char* data, std::size_t size, unsigned char* to, std::uint32_t length) {
            isal_inflate_init(&state);
            state.next_in = const_cast<unsigned char*>(data);
            state.avail_in = static_cast<std::uint32_t>(size);
            state.next_out = to;
            state.avail_out = length + 1;
            if (isal_inflate_stateless(&state) != ISAL_DECOMP_OK) throw std::runtime_error("isa-l: corrupt member");
          });
        }, runs, produced);
        libdeflate_decompressor* decompressor = libdeflate_alloc_decompressor();
        const double libdeflate_blocks = best_mbps([&] {
          return bgzf_members(in, out, [&](const unsigned char* data, std::size_t size, unsigned char* to, std::uint32_t length) {
            if (libdeflate_deflate_decompress(decompressor, data, size, to, length, nullptr) != LIBDEFLATE_SUCCESS) {
              throw std::runtime_error("libdeflate: corrupt member");
            }
          });
        }, runs, produced);
        libdeflate_free_decompressor(decompressor);
        char text[64];
        std::snprintf(text, sizeof text, "%9.0f %9.0f %9.0f", zlib_blocks, isal_blocks, libdeflate_blocks);
        per_member = text;
      }
      std::printf("%-32s %8.1f %9.0f %9.0f %9.0f %s\n", std::filesystem::path(file).filename().c_str(), static_cast<double>(expected) / 1e6, zlib, isal,
                  libdeflate, per_member.c_str());
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "decompression_bench: error: %s\n", error.what());
    return 1;
  }
  return 0;
}
