// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace xenon::genomics {

// The k-mer lengths an assembly runs through, smallest first: each round's contigs are kept
// in the next one, so a small k bridges thin coverage and a large k settles repeats.

// The median length of the first records (at most `records`) of `file` (FASTA or FASTQ, plain
// or gzip); 0 when it holds none. Reads as InputFile does, so a copied standard input works.
std::size_t median_read_length(const std::string& file, std::size_t records = 2000);

// The default rounds for reads of this length: those of 21, 33, 55, 77 and 99 (as SPAdes
// takes for 2x150 reads) up to two thirds of the read length (a 150 bp read keeps 52 k-mers
// of 99, so depth at k is a third of the read depth), or below 21 one round of that length
// made odd. A larger k settles longer repeats and opens more gaps where coverage thins; the
// gaps are what the earlier rounds' unitigs, the read bridges and the pairs fill
// (genomics/README.md, "Several k in turn").
std::vector<int> k_rounds_for_read_length(std::size_t read_length);

// "21,33,55": odd lengths from 5 to 127, increasing; std::invalid_argument naming the problem.
std::vector<int> parse_k_list(const std::string& text);

// "21,33,55", as parse_k_list reads it.
std::string k_list_text(const std::vector<int>& rounds);

}  // namespace xenon::genomics
