// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/checkpoint_file.hpp"

#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <xenon/xenon.hpp>

#include "genomics/io/atomic_output_file.hpp"
#include "genomics/io/input_copies.hpp"

namespace xenon::genomics {
namespace {

constexpr const char* kMagic = "xenon checkpoint 1";

std::uint32_t crc32_of(std::span<const std::byte> bytes, std::uint32_t crc = 0) {
  return static_cast<std::uint32_t>(
      crc32_z(crc, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<z_size_t>(bytes.size())));
}

std::string header(const std::string& origin, std::uint64_t size, std::uint32_t crc32) {
  char crc[16];
  std::snprintf(crc, sizeof crc, "%08" PRIx32, crc32);
  return std::string(kMagic) + "\norigin " + origin + "\nbytes " + std::to_string(size) + "\ncrc32 " + crc +
         "\n\n";
}

std::string header(const std::string& origin, std::span<const std::byte> bytes) {
  return header(origin, bytes.size(), crc32_of(bytes));
}

void create_folder(const std::string& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) throw std::runtime_error(directory + ": cannot create the checkpoint folder: " + error.message());
}

}  // namespace

namespace checkpoint {

void save(const std::string& directory, const std::string& name, const std::string& origin,
          std::span<const std::byte> bytes) {
  create_folder(directory);
  AtomicOutputFile file((std::filesystem::path(directory) / name).string());
  file.write(header(origin, bytes));
  file.write(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  file.commit();
}

void save_in_pieces(const std::string& directory, const std::string& name, const std::string& origin,
                    const std::function<void(const ConsumePiece&)>& produce) {
  std::uint64_t size = 0;
  std::uint32_t crc = 0;
  produce([&](std::span<const std::byte> piece) {
    size += piece.size();
    crc = crc32_of(piece, crc);
  });
  create_folder(directory);
  AtomicOutputFile file((std::filesystem::path(directory) / name).string());
  file.write(header(origin, size, crc));
  std::uint64_t written = 0;
  std::uint32_t written_crc = 0;
  produce([&](std::span<const std::byte> piece) {
    written += piece.size();
    written_crc = crc32_of(piece, written_crc);
    file.write(std::string_view(reinterpret_cast<const char*>(piece.data()), piece.size()));
  });
  if (written != size || written_crc != crc) {
    throw std::logic_error("checkpoint " + name + ": its bytes changed between the two passes");
  }
  file.commit();
}

bool load_in_pieces(const std::string& directory, const std::string& name, const std::string& origin,
                    std::size_t unit, const ConsumePiece& consume, std::string& why) {
  const std::string path = (std::filesystem::path(directory) / name).string();
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    why = path + " is missing";
    return false;
  }
  // The header: lines up to the empty one.
  std::string lines;
  for (std::string line; std::getline(file, line) && !line.empty() && lines.size() < 1 << 20;) lines += line + "\n";
  lines += "\n";
  if (lines.rfind(std::string(kMagic) + "\norigin ", 0) != 0) {
    why = path + " is cut short or not a checkpoint";
    return false;
  }
  if (lines.rfind(std::string(kMagic) + "\norigin " + origin + "\n", 0) != 0) {
    why = path + " came from other inputs or options, or another build of the program";
    return false;
  }
  const std::size_t size_at = lines.find("\nbytes ");
  const std::uint64_t size = size_at == std::string::npos ? 0 : std::strtoull(lines.c_str() + size_at + 7, nullptr, 10);
  if (size_at == std::string::npos || unit == 0 || size % unit != 0) {
    why = path + " is cut short or not a checkpoint";
    return false;
  }
  std::vector<std::byte> piece(std::max<std::size_t>(1, (std::size_t{1} << 20) / unit) * unit);
  std::uint64_t left = size;
  std::uint32_t crc = 0;
  while (left != 0) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(left, piece.size()));
    file.read(reinterpret_cast<char*>(piece.data()), static_cast<std::streamsize>(want));
    if (static_cast<std::size_t>(file.gcount()) != want) {
      why = path + " is cut short or not a checkpoint";
      return false;
    }
    const std::span<const std::byte> bytes(piece.data(), want);
    crc = crc32_of(bytes, crc);
    consume(bytes);
    left -= want;
  }
  if (file.peek() != std::ifstream::traits_type::eof()) {
    why = path + " is cut short or not a checkpoint";  // longer than its header says
    return false;
  }
  if (lines != header(origin, size, crc)) {
    why = path + " is damaged (its CRC-32 does not match)";
    return false;
  }
  return true;
}

std::optional<std::vector<std::byte>> load(const std::string& directory, const std::string& name,
                                           const std::string& origin, std::string& why) {
  const std::string path = (std::filesystem::path(directory) / name).string();
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    why = path + " is missing";
    return std::nullopt;
  }
  const std::string contents((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  // The header's lines up to the empty one; the size it gives tells where the bytes are.
  const std::size_t end = contents.find("\n\n");
  std::size_t size = 0;
  const std::string lines = end == std::string::npos ? std::string() : contents.substr(0, end + 2);
  const std::size_t size_at = lines.find("\nbytes ");
  if (size_at != std::string::npos) size = std::strtoull(lines.c_str() + size_at + 7, nullptr, 10);
  if (end == std::string::npos || size_at == std::string::npos || contents.size() - lines.size() != size) {
    why = path + " is cut short or not a checkpoint";
    return std::nullopt;
  }
  const auto* begin = reinterpret_cast<const std::byte*>(contents.data() + lines.size());
  const std::span<const std::byte> bytes(begin, size);
  if (lines.rfind(std::string(kMagic) + "\norigin " + origin + "\n", 0) != 0) {
    why = path + " came from other inputs or options, or another build of the program";
    return std::nullopt;
  }
  if (lines != header(origin, bytes)) {
    why = path + " is damaged (its CRC-32 does not match)";
    return std::nullopt;
  }
  return std::vector<std::byte>(bytes.begin(), bytes.end());
}

std::optional<std::string> describe_inputs(const std::vector<std::string>& files) {
  std::string text;
  for (const std::string& file : files) {
    struct stat status {};
    if (is_read_once(file) || stat(file.c_str(), &status) != 0) return std::nullopt;
    std::error_code error;
    text += (text.empty() ? "" : ", ") + json_quoted(std::filesystem::absolute(file, error).string()) + " " +
            std::to_string(status.st_size) + " bytes modified " + std::to_string(status.st_mtim.tv_sec) + "." +
            std::to_string(status.st_mtim.tv_nsec);
  }
  return text;
}

const std::string& describe_program() {
  static const std::string described = [] {
    std::ifstream executable("/proc/self/exe", std::ios::binary);
    std::vector<char> piece(1 << 20);
    std::uint64_t size = 0;
    std::uint32_t crc = 0;
    while (executable) {
      executable.read(piece.data(), static_cast<std::streamsize>(piece.size()));
      const auto got = static_cast<std::size_t>(executable.gcount());
      crc = crc32_of(std::as_bytes(std::span(piece.data(), got)), crc);
      size += got;
    }
    if (size == 0 || !executable.eof()) return std::string("unknown build");
    char text[64];
    std::snprintf(text, sizeof text, "build %" PRIu64 " bytes crc32 %08" PRIx32, size, crc);
    return std::string(text);
  }();
  return described;
}

}  // namespace checkpoint

void CheckpointWriter::u64(std::uint64_t value) {
  const std::size_t at = data_.size();
  data_.resize(at + 8);
  store_le64(data_.data() + at, value);
}

void CheckpointWriter::bytes(std::span<const std::byte> data) {
  u64(data.size());
  data_.insert(data_.end(), data.begin(), data.end());
}

std::span<const std::byte> CheckpointReader::take(std::size_t size) {
  if (size > data_.size() - at_) throw std::runtime_error("checkpoint ends early");
  const std::span<const std::byte> taken = data_.subspan(at_, size);
  at_ += size;
  return taken;
}

std::uint64_t CheckpointReader::u64() { return load_le64(take(8).data()); }

std::span<const std::byte> CheckpointReader::bytes() { return take(u64()); }

std::string CheckpointReader::text() {
  const std::span<const std::byte> data = bytes();
  return std::string(reinterpret_cast<const char*>(data.data()), data.size());
}

}  // namespace xenon::genomics
