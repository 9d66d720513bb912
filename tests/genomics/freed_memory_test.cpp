// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/run/freed_memory.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#if __has_include(<malloc.h>)
#include <malloc.h>
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define XENON_TEST_OWN_MALLOC 1  // a sanitizer's allocator, not glibc's: nothing to check
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define XENON_TEST_OWN_MALLOC 1
#endif
#endif

namespace {

#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD) && !defined(XENON_TEST_OWN_MALLOC)
// What the compiler may not see through: malloc then free of a block it would otherwise drop.
void* allocated(std::size_t bytes) {
  void* block = std::malloc(bytes);
  asm volatile("" : : "r"(block) : "memory");
  return block;
}

// glibc marks a block it mapped on its own in the size word before it (IS_MMAPPED, 2): its
// chunk layout, not an API, but the one fact that other threads' blocks (a test before this
// one may leave an engine's) cannot change, as they can change mallinfo2()'s counts.
bool mapped_on_its_own(const void* block) {
  std::size_t size_word = 0;
  const std::uintptr_t before = reinterpret_cast<std::uintptr_t>(block) - sizeof(std::size_t);
  std::memcpy(&size_word, reinterpret_cast<const void*>(before), sizeof size_word);
  return (size_word & 2) != 0;
}

// In a fresh process (a threadsafe death test runs this test alone in a new one): glibc takes a
// block from free space already in the heap before it maps one, so what tests before this one
// left there would decide it. Exits 0 when a table's block (8 MiB) allocated after a larger one
// (24 MiB) was freed is mapped on its own, so unmapped when freed, where glibc by default would
// have raised its threshold past it and taken it from the heap, where it stays resident once
// freed; and a message's payload (1 MiB) still comes from the heap.
[[noreturn]] void allocate_after_a_larger_block_freed() {
  xenon::genomics::return_freed_memory_to_the_system();
  std::free(allocated(std::size_t{24} << 20));
  void* table = allocated(std::size_t{8} << 20);
  void* payload = allocated(std::size_t{1} << 20);
  const bool as_wanted = mapped_on_its_own(table) && !mapped_on_its_own(payload);
  std::free(payload);
  std::free(table);
  std::_Exit(as_wanted ? 0 : 1);
}

TEST(FreedMemory, ALargeBlockAfterALargerOneFreedIsMappedOnItsOwn) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(allocate_after_a_larger_block_freed(), testing::ExitedWithCode(0), "");
}
#endif

#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33) && !defined(XENON_TEST_OWN_MALLOC)
// In a fresh process: 8 MiB freed in holes below blocks still held (every other block of 256
// KiB, under one more that keeps them off the heap's top). Exits 0 when giving back past
// 64 MiB does nothing and past 4 MiB gives back; else 1 or 2, which one did not.
[[noreturn]] void give_back_only_past_what_lies_free() {
  xenon::genomics::return_freed_memory_to_the_system();
  constexpr int kBlocks = 64;
  void* blocks[kBlocks];
  for (void*& block : blocks) block = allocated(std::size_t{256} << 10);
  void* above = allocated(std::size_t{256} << 10);
  for (int i = 0; i < kBlocks; i += 2) std::free(blocks[i]);
  const bool past_more = xenon::genomics::release_freed_memory_past(std::size_t{64} << 20);
  const bool past_less = xenon::genomics::release_freed_memory_past(std::size_t{4} << 20);
  for (int i = 1; i < kBlocks; i += 2) std::free(blocks[i]);
  std::free(above);
  std::_Exit(past_more ? 1 : past_less ? 0 : 2);
}

TEST(FreedMemory, GivesBackOnlyPastWhatLiesFreeInTheHeap) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(give_back_only_past_what_lies_free(), testing::ExitedWithCode(0), "");
}
#endif

}  // namespace
