// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace xenon::genomics {

// An array of trivial elements in pages of its own (anonymous mmap), returned to the system
// when the array goes. A table that grows by replacing an array with a larger one would,
// through malloc, leave each old array as a hole in the heap that stays resident (glibc only
// gives back the top of the heap), and those holes add up to about the table itself. The
// elements start as zero bytes; page-aligned, so any element alignment up to a page holds.
template <class T>
class PageArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  static_assert(alignof(T) <= 4096);

 public:
  PageArray() = default;
  explicit PageArray(std::size_t count) : count_(count) {
    if (count == 0) return;
    void* pages = mmap(nullptr, bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<T*>(pages);
    // Huge pages where the system gives them on request (transparent_hugepage "madvise"):
    // a hash table is read at random, and with 4 KiB pages nearly every probe of a large
    // one also misses the TLB. A hint only: without it, or refused, the array is the same.
#ifdef MADV_HUGEPAGE
    if (bytes() >= kHugePageBytes) madvise(pages, bytes(), MADV_HUGEPAGE);
#endif
  }
  PageArray(PageArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  PageArray& operator=(PageArray&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  PageArray(const PageArray&) = delete;
  PageArray& operator=(const PageArray&) = delete;
  ~PageArray() { release(); }

  T* get() const { return data_; }
  std::size_t size() const { return count_; }
  T& operator[](std::size_t i) const { return data_[i]; }

 private:
  std::size_t bytes() const { return count_ * sizeof(T); }
  void release() {
    if (data_ != nullptr) munmap(data_, bytes());
    data_ = nullptr;
    count_ = 0;
  }

  static constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;  // x86-64's; a hint elsewhere too

  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace xenon::genomics
