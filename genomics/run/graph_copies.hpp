// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <atomic>
#include <cstdint>

namespace xenon::genomics {

// Bytes this process holds in copies of the whole graph, which do not fall with the nodes:
// each store's unitig ends and their index, to thread its reads (read_share.hpp), and on node
// 0 the graph the steps after the cleaning work on, as each step left it (assembly_pipeline.hpp;
// not the pieces on their way there). --stats reports the most it held at once, so that these
// show in the figures. \threads Any thread. Every access is relaxed and pairs with nothing:
// they are tallies, read once the run is over, after Engine::run joined the workers (the join
// orders every write before the read).
class GraphCopies {
 public:
  static void hold(std::uint64_t bytes) {
    const std::uint64_t now = held().fetch_add(bytes, std::memory_order_relaxed) + bytes;
    std::uint64_t most = peak().load(std::memory_order_relaxed);
    while (now > most && !peak().compare_exchange_weak(most, now, std::memory_order_relaxed)) {
    }
  }
  static void release(std::uint64_t bytes) { held().fetch_sub(bytes, std::memory_order_relaxed); }  // relaxed: a tally
  static std::uint64_t peak_bytes() { return peak().load(std::memory_order_relaxed); }  // relaxed: after the join

  // Holds `bytes` for its lifetime.
  class Hold {
   public:
    explicit Hold(std::uint64_t bytes) : bytes_(bytes) { hold(bytes_); }
    ~Hold() { release(bytes_); }
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;

   private:
    std::uint64_t bytes_;
  };

 private:
  static std::atomic<std::uint64_t>& held() {
    static std::atomic<std::uint64_t> bytes{0};
    return bytes;
  }
  static std::atomic<std::uint64_t>& peak() {
    static std::atomic<std::uint64_t> bytes{0};
    return bytes;
  }
};

}  // namespace xenon::genomics
