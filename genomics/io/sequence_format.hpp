// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <string_view>

namespace xenon::genomics {

enum class SequenceFormat : unsigned char { kFasta = 1, kFastq = 2 };

inline std::string_view format_name(SequenceFormat format) {
  return format == SequenceFormat::kFasta ? "FASTA" : "FASTQ";
}

}  // namespace xenon::genomics
