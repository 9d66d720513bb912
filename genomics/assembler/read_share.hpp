// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "genomics/assembler/read_threads.hpp"
#include "genomics/assembler/thread_protocol.hpp"

namespace xenon::genomics {

// One store's share of read threading: reads its pieces of the input (ThreadingRequest),
// traces every read through the unitig ends it was given, and hands on what the coordinator
// needs, about a MiB at a time: the reads that met the graph with the unitigs of their runs
// (only those that crossed two unitigs or more, unless every read's unitigs are wanted for
// pairing) and, when asked, the bases of the reads that crossed.
class ReadShare {
 public:
  static constexpr std::size_t kMessageBytes = 1 << 20;

  explicit ReadShare(const ThreadingRequest& request);

  // Reads every piece; `send` gets each full message. Returns the report that ends the share
  // (its failure names the first piece that could not be read).
  ThreadingDone run(const std::function<void(std::vector<std::byte>&&)>& send);

 private:
  void add(ThreadedRead read, const std::string& bases, const std::function<void(std::vector<std::byte>&&)>& send);

  const ThreadingRequest& request_;
  ReadThreads threads_;
  std::vector<std::byte> message_;
  ThreadingDone done_;
};

}  // namespace xenon::genomics
