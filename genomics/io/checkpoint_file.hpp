// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace xenon::genomics {

// The result of a run's first phases, saved in DIR/checkpoints/NAME so that --continue can
// skip them. A text header, then the bytes:
//   xenon checkpoint 2
//   program PROGRAM    the build that wrote it (describe_program(), of the writing process)
//   origin ORIGIN      what the result came from (tool, version, options, inputs)
//   bytes N
//   crc32 XXXXXXXX     of the N bytes
//   (an empty line, then the N bytes)
// It is written all or nothing (AtomicOutputFile), and used only if this process's program
// can be identified and is the one that wrote it, its origin is the one asked for now, and
// its bytes are whole and match their CRC-32; else the reason names which of these failed
// (and, for the program or origin, the words that differ).
namespace checkpoint {

void save(const std::string& directory, const std::string& name, const std::string& origin,
          std::span<const std::byte> bytes);

// The bytes, or nullopt with `why` not: missing, from another origin, cut short or damaged.
std::optional<std::vector<std::byte>> load(const std::string& directory, const std::string& name,
                                           const std::string& origin, std::string& why);

// For a result too large to hold twice in memory (a k-mer store's table): `produce(consume)`
// hands the bytes to consume() in pieces, the same bytes in the same order each time; it is
// called twice, once for the size and CRC-32 that the header gives first, once to write.
using ConsumePiece = std::function<void(std::span<const std::byte>)>;
void save_in_pieces(const std::string& directory, const std::string& name, const std::string& origin,
                    const std::function<void(const ConsumePiece&)>& produce);

// Reads a checkpoint in pieces of whole `unit`s into consume(), without holding it whole.
// True if it is whole, its own and undamaged; the CRC-32 is known only at the end, so after
// false (with `why`) whatever consume() took must be thrown away.
bool load_in_pieces(const std::string& directory, const std::string& name, const std::string& origin,
                    std::size_t unit, const ConsumePiece& consume, std::string& why);

// The inputs, for an origin: each file's absolute path, size and modification time (a file
// changed since gives another origin); nullopt if one of them can be read only once
// (standard input, a pipe), as nothing can tell that it would give the same bytes again.
std::optional<std::string> describe_inputs(const std::vector<std::string>& files);

// The running program, for the header: its GNU build-id, read from the loaded program (so
// also when started through the dynamic loader; the Makefile links every program with one),
// and its executable's size and CRC-32 when /proc/self/exe is the program and not the loader
// (a build of other code under the same version cleans, bridges or extends otherwise, and
// would give its own contigs); nullopt where neither can be had: then no checkpoint is saved
// (save() and save_in_pieces() write nothing) or used.
const std::optional<std::string>& describe_program();
// Why describe_program() is nullopt, for the log.
inline constexpr const char* kUnidentifiedProgram =
    "this program cannot identify its build (no GNU build-id, and /proc/self/exe unreadable or the loader's)";

}  // namespace checkpoint

// Builds a checkpoint's bytes: little-endian integers and sized strings, kept for data(), or
// handed on as they are written to a checkpoint::save_in_pieces consumer (a checkpoint of
// megabytes, the contigs and the graph, never held whole beside what it copies).
class CheckpointWriter {
 public:
  CheckpointWriter() = default;
  explicit CheckpointWriter(checkpoint::ConsumePiece consume) : consume_(std::move(consume)) {}

  void u64(std::uint64_t value);
  void bytes(std::span<const std::byte> data);  // its size, then the bytes
  void text(std::string_view data) { bytes(std::as_bytes(std::span(data.data(), data.size()))); }
  const std::vector<std::byte>& data() const noexcept { return data_; }  // empty when handed on
  std::uint64_t size() const noexcept { return size_; }  // the bytes written

 private:
  void put(std::span<const std::byte> piece);

  checkpoint::ConsumePiece consume_;
  std::vector<std::byte> data_;
  std::uint64_t size_ = 0;
};

// Reads what a CheckpointWriter wrote; throws std::runtime_error when the bytes end early.
class CheckpointReader {
 public:
  explicit CheckpointReader(std::span<const std::byte> data) : data_(data) {}
  std::uint64_t u64();
  std::span<const std::byte> bytes();
  std::string text();
  bool at_end() const noexcept { return at_ == data_.size(); }

 private:
  std::span<const std::byte> take(std::size_t size);

  std::span<const std::byte> data_;
  std::size_t at_ = 0;
};

}  // namespace xenon::genomics
