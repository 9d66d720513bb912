// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {

std::string reverse_complement(std::string_view bases) {
  std::string reverse(bases.size(), 'N');
  for (std::size_t i = 0; i < bases.size(); ++i) {
    const int code = kBaseCodes[static_cast<unsigned char>(bases[bases.size() - 1 - i])];
    if (code >= 0) reverse[i] = "TGCA"[code];
  }
  return reverse;
}

}  // namespace xenon::genomics
