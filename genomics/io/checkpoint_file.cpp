// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/checkpoint_file.hpp"

#include <elf.h>
#include <link.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <xenon/xenon.hpp>

#include "genomics/io/atomic_output_file.hpp"
#include "genomics/io/input_copies.hpp"

namespace xenon::genomics {
namespace {

constexpr const char* kMagicPrefix = "xenon checkpoint ";
constexpr const char* kMagic = "xenon checkpoint 2";  // 2: the program line

std::uint32_t crc32_of(std::span<const std::byte> bytes, std::uint32_t crc = 0) {
  return static_cast<std::uint32_t>(
      crc32_z(crc, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<z_size_t>(bytes.size())));
}

// The program line of what this process writes (save() writes nothing for a program that
// cannot be identified; "unknown" is no program's description, should one be written).
std::string program_line() {
  return "program " + checkpoint::describe_program().value_or("unknown") + "\n";
}

std::string header(const std::string& origin, std::uint64_t size, std::uint32_t crc32) {
  char crc[16];
  std::snprintf(crc, sizeof crc, "%08" PRIx32, crc32);
  return std::string(kMagic) + "\n" + program_line() + "origin " + origin + "\nbytes " + std::to_string(size) +
         "\ncrc32 " + crc + "\n\n";
}

std::string header(const std::string& origin, std::span<const std::byte> bytes) {
  return header(origin, bytes.size(), crc32_of(bytes));
}

// The line of `lines` that starts with `key` and a space, without them, or nullopt.
std::optional<std::string> header_field(const std::string& lines, const std::string& key) {
  const std::string start = "\n" + key + " ";
  const std::size_t at = lines.find(start);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t from = at + start.size();
  return lines.substr(from, lines.find('\n', from) - from);
}

// Where two origins part, word for word: "it says X where this run has Y".
std::string where_they_differ(const std::string& saved, const std::string& asked) {
  std::size_t begin = 0;
  while (begin < saved.size() && begin < asked.size() && saved[begin] == asked[begin]) ++begin;
  std::size_t common_end = 0;  // how many last characters they share, after `begin`
  while (common_end < saved.size() - begin && common_end < asked.size() - begin &&
         saved[saved.size() - 1 - common_end] == asked[asked.size() - 1 - common_end]) {
    ++common_end;
  }
  const auto is_break = [](char c) { return c == ' ' || c == ','; };
  while (begin > 0 && !is_break(saved[begin - 1])) --begin;
  while (common_end > 0 && !is_break(saved[saved.size() - common_end])) --common_end;
  const auto excerpt = [&](const std::string& text) {
    std::string part = text.substr(begin, text.size() - common_end - begin);
    constexpr std::size_t kLongest = 160;
    if (part.size() > kLongest) part.replace(kLongest, std::string::npos, "...");
    return "\"" + part + "\"";
  };
  return "it says " + excerpt(saved) + " where this run has " + excerpt(asked);
}

// Empty if the header `lines` is of this checkpoint format, this program and `origin`; else
// why the checkpoint at `path` is not used.
std::string why_not_ours(const std::string& path, const std::string& lines, const std::string& origin) {
  if (lines.rfind(kMagicPrefix, 0) != 0) return path + " is cut short or not a checkpoint";
  if (lines.rfind(std::string(kMagic) + "\n", 0) != 0) {
    return path + " came from another build of the program (another checkpoint format: " +
           lines.substr(0, lines.find('\n')) + ")";
  }
  const std::optional<std::string>& running = checkpoint::describe_program();
  if (!running) {
    return path + " cannot be told from another build's: " + checkpoint::kUnidentifiedProgram;
  }
  const std::optional<std::string> program = header_field(lines, "program");
  const std::optional<std::string> saved_origin = header_field(lines, "origin");
  if (!program || !saved_origin) return path + " is cut short or not a checkpoint";
  if (*program != *running) {
    return path + " came from another build of the program: " + where_they_differ(*program, *running);
  }
  if (*saved_origin != origin) {
    return path + " came from other inputs or options: " + where_they_differ(*saved_origin, origin);
  }
  return {};
}

// The program as loaded (the first object dl_iterate_phdr names): its GNU build-id as hex
// (empty without one), read from its loaded notes, so it names the program even when it was
// started through the dynamic loader; and whether /proc/self/exe is that program's file (the
// kernel's AT_PHDR is its program headers) rather than the loader's.
struct LoadedProgram {
  std::string build_id;
  bool is_proc_self_exe = false;
};

LoadedProgram loaded_program() {
  LoadedProgram program;
  dl_iterate_phdr(
      [](dl_phdr_info* object, std::size_t, void* found) -> int {
        auto& program = *static_cast<LoadedProgram*>(found);
        program.is_proc_self_exe = reinterpret_cast<unsigned long>(object->dlpi_phdr) == getauxval(AT_PHDR);
        for (int index = 0; index < object->dlpi_phnum; ++index) {
          const ElfW(Phdr)& segment = object->dlpi_phdr[index];
          if (segment.p_type != PT_NOTE) continue;
          const std::size_t align = segment.p_align == 8 ? 8 : 4;
          const auto padded = [align](std::size_t size) { return (size + align - 1) / align * align; };
          const char* notes = reinterpret_cast<const char*>(object->dlpi_addr + segment.p_vaddr);
          std::size_t at = 0;  // offsets within the segment, checked before each read
          while (segment.p_memsz - at >= sizeof(ElfW(Nhdr))) {
            ElfW(Nhdr) note;
            std::memcpy(&note, notes + at, sizeof note);
            const std::size_t name = at + sizeof note;
            const std::size_t description = name + padded(note.n_namesz);
            const std::size_t next = description + padded(note.n_descsz);
            if (next > segment.p_memsz) break;
            if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(notes + name, "GNU", 4) == 0) {
              static constexpr char kHex[] = "0123456789abcdef";
              for (std::size_t byte = 0; byte < note.n_descsz; ++byte) {
                const auto value = static_cast<unsigned char>(notes[description + byte]);
                program.build_id += kHex[value >> 4];
                program.build_id += kHex[value & 15];
              }
              return 1;
            }
            at = next;
          }
        }
        return 1;  // only the first object, the program itself
      },
      &program);
  return program;
}

// The size and CRC-32 of the executable file, or empty where it cannot be read.
std::string executable_checksum() {
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
  if (size == 0 || !executable.eof()) return {};
  char text[64];
  std::snprintf(text, sizeof text, "%" PRIu64 " bytes crc32 %08" PRIx32, size, crc);
  return text;
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
  if (!describe_program()) return;  // no load would take it
  create_folder(directory);
  AtomicOutputFile file((std::filesystem::path(directory) / name).string());
  file.write(header(origin, bytes));
  file.write(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  file.commit();
}

void save_in_pieces(const std::string& directory, const std::string& name, const std::string& origin,
                    const std::function<void(const ConsumePiece&)>& produce) {
  if (!describe_program()) return;  // no load would take it
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
  why = why_not_ours(path, lines, origin);
  if (!why.empty()) return false;
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
  why = why_not_ours(path, lines, origin);
  if (!why.empty()) return std::nullopt;
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

const std::optional<std::string>& describe_program() {
  static const std::optional<std::string> described = []() -> std::optional<std::string> {
    const LoadedProgram program = loaded_program();
    // Started through the loader, /proc/self/exe is the loader, the same for every build.
    const std::string checksum = program.is_proc_self_exe ? executable_checksum() : std::string();
    if (program.build_id.empty() && checksum.empty()) return std::nullopt;
    std::string text;
    if (!program.build_id.empty()) text = "build-id " + program.build_id;
    if (!checksum.empty()) text += (text.empty() ? "" : ", ") + std::string("executable ") + checksum;
    return text;
  }();
  return described;
}

}  // namespace checkpoint

void CheckpointWriter::u64(std::uint64_t value) {
  std::byte word[8];
  store_le64(word, value);
  put(word);
}

void CheckpointWriter::bytes(std::span<const std::byte> data) {
  u64(data.size());
  put(data);
}

void CheckpointWriter::put(std::span<const std::byte> piece) {
  size_ += piece.size();
  if (consume_) {
    consume_(piece);
  } else {
    data_.insert(data_.end(), piece.begin(), piece.end());
  }
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
