// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/run/freed_memory.hpp"

#if __has_include(<malloc.h>)
#include <malloc.h>  // defines __GLIBC__ (through features.h) where it is glibc's
#endif

namespace xenon::genomics {

void return_freed_memory_to_the_system() {
#if defined(__GLIBC__)
  // glibc's own first threshold, so that a message's payload of a MiB is mapped too: side by
  // side on 40x E. coli over 2 processes, this, 4 MiB and glibc's raising each took 43-50 s
  // (the machine's noise), and this held the least memory.
  constexpr int kLargeBlockBytes = 128 * 1024;
  // Setting either threshold ends glibc's raising of both; the heap's top is given back past
  // the same size. mallopt returns 0 only for an unknown option, which these are not.
  mallopt(M_MMAP_THRESHOLD, kLargeBlockBytes);
  mallopt(M_TRIM_THRESHOLD, kLargeBlockBytes);
#endif
}

void release_freed_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace xenon::genomics
