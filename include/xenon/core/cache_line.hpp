// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>

namespace xenon {

/// The coherence granule we lay contended fields out against (`alignas(kCacheLineSize)`).
/// 64 bytes on x86-64 and ARMv8; POWER7 uses 128-byte lines, where two 64-byte blocks may
/// still false-share, so we pad to 128 there.
#if defined(__powerpc64__) || defined(__powerpc__)
inline constexpr std::size_t kCacheLineSize = 128;
#else
inline constexpr std::size_t kCacheLineSize = 64;
#endif

}  // namespace xenon
