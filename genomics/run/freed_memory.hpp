// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>

namespace xenon::genomics {

// Makes memory freed in bulk go back to the system, so that a process's resident memory
// follows what its phases hold. glibc's malloc maps a large block (a table of k-mers, an
// index) on its own only while it is above a threshold that it raises to the size of each
// such block freed, up to 32 MiB: after the first round's tables are freed, the next round's
// come from the heap, and what is freed there stays resident. A fixed threshold of 4 MiB keeps
// every table mapped on its own and unmapped when freed. With release_freed_memory() and the
// other changes of the same commit, on 40x E. coli (`assembler`, default rounds): the largest
// rank's peak at 8 processes fell from 168 to 119 MiB, one process's from 573 to 502 MiB.
// Does nothing outside glibc.
void return_freed_memory_to_the_system();

// Gives back to the system the whole pages that lie free inside the heap now, not only at its
// top (glibc's malloc_trim): freed smaller blocks (a graph's unitigs, a map's nodes) leave
// holes that stay resident otherwise. For after a step frees much of what it held and before
// the next builds more: it walks every free block, a millisecond or so. Also every second
// while the stores count (ACTION_COUNTER_GIVE_BACK_MEMORY, release_freed_memory_past), where
// messages stream through a heap with holes in it. Its cost is mostly in the kernel (madvise,
// the flushes of the other cores' address caches it waits for, and the page faults of the
// blocks taken again): every 200 ms, node 0 of an 8-process run of 40x E. coli (default rounds
// of k) computed 15.2 s inside receive() against 13.0 s on node 1; every second, 14.2 s
// against 13.7 s, with the same peak memory (63.4 MiB).
void release_freed_memory();

// As release_freed_memory(), only when more than `bytes` lie free in the heap's free lists
// (every arena's, less the main arena's top; resident or not: a trim leaves them free): for
// giving back now and then while messages stream through the heap, where a few MiB of freed
// payloads are taken again at once, and giving those back only makes the next ones fault their
// pages in again. Whether it gave back. (Outside glibc 2.33 or later, it always tries.)
bool release_freed_memory_past(std::size_t bytes);

}  // namespace xenon::genomics
