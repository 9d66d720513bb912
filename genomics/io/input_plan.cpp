// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/input_plan.hpp"

#include <algorithm>
#include <numeric>

#include "genomics/io/bgzf.hpp"
#include "genomics/io/input_copies.hpp"
#include "genomics/io/input_error.hpp"
#include "genomics/io/input_file.hpp"
#include "genomics/io/positioned_file.hpp"

namespace xenon::genomics {
namespace {

// The format of the first record: the first byte that is not a line break.
std::optional<SequenceFormat> first_record_format(const std::string& path) {
  InputFile file(path);
  char buffer[4096];
  for (int reads = 0; reads < 64; ++reads) {  // a file of blank lines longer than this: read whole
    const std::size_t got = file.read(buffer, sizeof buffer);
    if (got == 0) return std::nullopt;
    for (std::size_t i = 0; i < got; ++i) {
      if (buffer[i] == '\n' || buffer[i] == '\r') continue;
      if (buffer[i] == '>') return SequenceFormat::kFasta;
      if (buffer[i] == '@') return SequenceFormat::kFastq;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

InputLayout inspect_input(const std::string& path) {
  InputLayout layout;
  if (is_read_once(path)) {
    layout.encoding = InputEncoding::kReadOnce;
    return layout;
  }
  try {
    PositionedFile file(path);
    layout.size = file.size();
    unsigned char header[kBgzfLongestHeader];
    const std::size_t got = file.read_at(0, reinterpret_cast<char*>(header), sizeof header);
    if (got >= 2 && header[0] == 0x1f && header[1] == 0x8b) {
      unsigned char end[kBgzfEndMarkerBytes];
      const bool marked = layout.size >= kBgzfEndMarkerBytes &&
                          file.read_at(layout.size - kBgzfEndMarkerBytes, reinterpret_cast<char*>(end), sizeof end) ==
                              sizeof end &&
                          is_bgzf_end_marker(end, sizeof end);
      layout.encoding = starts_bgzf(header, got) && marked ? InputEncoding::kBgzf : InputEncoding::kGzip;
    }
    if (layout.encoding != InputEncoding::kGzip) layout.format = first_record_format(path);
  } catch (const InputError&) {
    layout.format.reset();  // the reader that reads it whole reports the problem
  }
  return layout;
}

std::vector<std::vector<InputPiece>> plan_input(const std::vector<InputLayout>& files, int readers) {
  const auto count = static_cast<std::size_t>(std::max(readers, 1));
  std::vector<std::vector<InputPiece>> plan(count);
  std::vector<std::uint64_t> load(count, 0);
  std::vector<std::uint32_t> whole_files;
  for (std::uint32_t index = 0; index < files.size(); ++index) {
    const InputLayout& file = files[index];
    const bool splittable = (file.encoding == InputEncoding::kPlain || file.encoding == InputEncoding::kBgzf) &&
                            file.format.has_value();
    if (count == 1 || !splittable) {
      whole_files.push_back(index);
      continue;
    }
    for (std::size_t reader = 0; reader < count; ++reader) {
      InputPiece piece{index, static_cast<std::uint32_t>(reader), file.encoding, file.format, false,
                       file.size * reader / count, file.size * (reader + 1) / count};
      load[reader] += piece.end - piece.begin;
      plan[reader].push_back(piece);
    }
  }
  // Largest first, each to the reader with the fewest bytes (the first such: the same plan
  // on every run).
  std::stable_sort(whole_files.begin(), whole_files.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return files[a].size > files[b].size; });
  for (const std::uint32_t index : whole_files) {
    const InputLayout& file = files[index];
    const std::size_t reader = file.encoding == InputEncoding::kReadOnce
                                   ? 0
                                   : static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    load[reader] += file.size;
    plan[reader].push_back({index, 0, file.encoding, file.format, true, 0, file.size});
  }
  for (std::vector<InputPiece>& pieces : plan) {
    std::sort(pieces.begin(), pieces.end(), [](const InputPiece& a, const InputPiece& b) {
      return a.file_index != b.file_index ? a.file_index < b.file_index : a.piece < b.piece;
    });
  }
  return plan;
}

}  // namespace xenon::genomics
