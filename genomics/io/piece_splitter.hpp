// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "genomics/io/block_splitter.hpp"
#include "genomics/io/input_plan.hpp"

namespace xenon::genomics {

// The blocks of one planned piece of `file`: the whole file, or the records of its range
// (RecordRange), numbered from 1 within the piece.
std::unique_ptr<BlockSplitter> open_piece(const std::string& file, const InputPiece& piece, std::size_t block_bytes,
                                          std::size_t overlap_bases);

}  // namespace xenon::genomics
