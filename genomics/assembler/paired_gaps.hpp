// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <vector>

#include "genomics/assembler/assembler_settings.hpp"
#include "genomics/assembler/read_bridges.hpp"
#include "genomics/assembler/read_threads.hpp"
#include "genomics/assembler/unitig_graph.hpp"

namespace xenon::genomics {

// Gaps that reads meet in, joined where read pairs say the two ends lie side by side.
//
// At low depth the last read out of a dead end and the first read into the next one often
// overlap by fewer than kMinimumOverlap bases: a 10-base overlap is met by chance somewhere
// among the thousands of dead ends of a genome, so read bridges leave such gaps apart. Read
// pairs are local: when mates in the two unitigs link the ends (the fragment leaves the one
// and enters the other), an overlap of kLeastPairedOverlap bases between those two ends alone
// is no chance. MEGAHIT crosses such gaps by assembling the mates near each end with a small
// k ("local assembly"); this takes the reads' own overlap, the pairs only confirming it.

// The read pairs that must link two ends for a short overlap to join them.
inline constexpr std::uint64_t kLeastLinkingPairs = 2;

// The short overlaps of every round (BridgeVotes::short_overlaps) that join two dead ends of
// the last round's final `graph` which at least kLeastLinkingPairs read pairs of `threads`
// link, as bridges of `graph` (numbered as it numbers its unitigs, their bases from the one
// end's last k-1 to the other's first k-1). Each is found by its first and last k'-1 bases,
// k' the k of its round, as the last k'-1 bases of a dead end and the first k'-1 of a dead
// beginning: the ends of a gap no round joined stay dead ends in every later round, as the
// unitigs carried to it end there. An end that two would join to different ends, or that
// more than one dead end ends like, is left alone; `ambiguous` counts the ends left for two.
std::vector<ReadBridge> paired_gaps(const UnitigGraph& graph, const std::vector<ShortOverlap>& overlaps,
                                    const ReadThreads& threads, std::uint64_t& ambiguous);

}  // namespace xenon::genomics
