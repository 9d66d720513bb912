// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/fasta_output.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <utility>

#include "genomics/assembler/assembler_settings.hpp"

namespace xenon::genomics {

namespace {

// Bases a window at a time (a window of a contig's path is what a store holding its unitigs
// would be asked for): so no record is held whole, however long.
constexpr std::size_t kWindowBases = 1024 * kFastaLineBases;

// A record's header, then its bases 80 a line, handed on to the sink about a window at a time
// whatever the lengths of the pieces its bases come in.
class FastaRecord {
 public:
  FastaRecord(const FastaSink& write, std::string header) : write_(write), text_(std::move(header)) {}
  void add(std::string_view bases) {
    while (!bases.empty()) {
      const std::size_t taken = std::min(bases.size(), kFastaLineBases - in_line_);
      text_.append(bases.substr(0, taken));
      bases.remove_prefix(taken);
      in_line_ += taken;
      if (in_line_ == kFastaLineBases) {
        text_ += '\n';
        in_line_ = 0;
      }
    }
    if (text_.size() >= kWindowBases) flush();
  }
  void finish() {
    if (in_line_ != 0) text_ += '\n';
    in_line_ = 0;
    flush();
  }

 private:
  void flush() {
    if (!text_.empty()) write_(text_);
    text_.clear();
  }
  const FastaSink& write_;
  std::string text_;
  std::size_t in_line_ = 0;  // bases on the line being written
};

}  // namespace

void write_contigs_fasta(const std::vector<Contig>& contigs, const GraphFile& graph, const FastaSink& write) {
  char header[160];
  for (std::size_t i = 0; i < contigs.size(); ++i) {
    const Contig& contig = contigs[i];
    std::snprintf(header, sizeof header, ">%s length=%zu coverage=%.2f%s\n", contig_name(i).c_str(), contig.length,
                  contig.coverage(), contig.circular ? " circular" : "");
    FastaRecord record(write, header);
    spell_in_windows(graph.segments, graph.k, contig, kWindowBases,
                     [&record](std::string_view bases) { record.add(bases); });
    record.finish();
  }
}

void write_scaffolds_fasta(const std::vector<Scaffold>& scaffolds, const std::vector<Contig>& contigs,
                           const GraphFile& graph, const FastaSink& write) {
  for (std::size_t i = 0; i < scaffolds.size(); ++i) {
    const Scaffold& scaffold = scaffolds[i];
    std::string header = ">scaffold_" + std::to_string(i + 1) + " length=" + std::to_string(scaffold.length) + " contigs=";
    for (std::size_t part = 0; part < scaffold.contigs.size(); ++part) {
      header += (part == 0 ? "" : ",") + contig_name(scaffold.contigs[part]);
    }
    header += '\n';
    FastaRecord record(write, std::move(header));
    spell_in_windows(scaffold, contigs, graph.segments, graph.k, kWindowBases,
                     [&record](std::string_view bases) { record.add(bases); });
    record.finish();
  }
}

}  // namespace xenon::genomics
