// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/piece_splitter.hpp"

#include "genomics/io/record_range.hpp"

namespace xenon::genomics {

std::unique_ptr<BlockSplitter> open_piece(const std::string& file, const InputPiece& piece, std::size_t block_bytes,
                                          std::size_t overlap_bases) {
  if (piece.whole) return std::make_unique<BlockSplitter>(file, piece.file_index, block_bytes, overlap_bases);
  const SplittableEncoding encoding =
      piece.encoding == InputEncoding::kBgzf ? SplittableEncoding::kBgzf : SplittableEncoding::kPlain;
  return std::make_unique<BlockSplitter>(std::make_unique<RecordRange>(file, encoding, *piece.format, piece.begin, piece.end),
                                         piece.file_index, block_bytes, overlap_bases);
}

}  // namespace xenon::genomics
