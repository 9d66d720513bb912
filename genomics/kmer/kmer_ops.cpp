// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {

std::string reverse_complement(std::string_view bases) {
  std::string reverse(bases.size(), 'N');
  for (std::size_t i = 0; i < bases.size(); ++i) reverse[i] = complement_base(bases[bases.size() - 1 - i]);
  return reverse;
}

}  // namespace xenon::genomics
