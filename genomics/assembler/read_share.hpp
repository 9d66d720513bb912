// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "genomics/assembler/mate_pairing.hpp"
#include "genomics/assembler/read_bridges.hpp"
#include "genomics/assembler/read_threads.hpp"
#include "genomics/assembler/thread_protocol.hpp"
#include "genomics/io/block_splitter.hpp"
#include "genomics/run/graph_copies.hpp"

namespace xenon::genomics {

// One store's share of read threading: reads its pieces of the input (ThreadingRequest),
// traces every read through the unitig ends it was given, counts the runs that crossed two
// unitigs or more (each distinct run once, with how many reads crossed so), or in a repeat
// round only their passages (three unitigs in a row, which is all a repeat round reads), and
// hands those to the coordinator when the share is done, about a MiB a message. When every read's
// unitigs are wanted (for pairing mates), it keeps them here (take_paths), where the reads
// were read. When asked, it keeps the reads that crossed, to thread them again through the
// next round's graph (take_kept, then a request to rethread them). One block at a time, so the
// store's worker can take other actors' messages in between (on node 0, the coordinator's,
// which would otherwise pile up unread while the worker threads). Asked for bridges, it only
// finds the bridges its reads spell between dead ends, and hands them over with its report.
class ReadShare {
 public:
  using Send = std::function<void(std::vector<std::byte>&&)>;
  static constexpr std::size_t kMessageBytes = 1 << 20;

  static constexpr std::size_t kReadsPerTurn = 4096;  // kept reads threaded again per step

  // `kept`: the reads this store kept last time, threaded when the request says so.
  explicit ReadShare(ThreadingRequest request, std::vector<std::string> kept = {});

  // Threads the next block; false once every piece is read or one could not be (then done()
  // has sent what was left).
  bool step(const Send& send);
  // The report that ends the share (its failure names the first piece that could not be read).
  const ThreadingDone& done() const { return done_; }
  // The reads that crossed two unitigs or more, when the request asked to keep them.
  std::vector<std::string> take_kept() { return std::move(kept_); }
  // Every read that met the graph, with its unitigs, when the request asked for paths.
  ThreadedPaths take_paths() { return std::move(paths_); }

 private:
  bool rethread_step(const Send& send);
  void end_record();
  void add(const ReadPlace& place, const ReadThreads::Traced& traced, std::string& bases);
  void send_crossed(const Send& send);

  ThreadingRequest request_;
  ReadThreads threads_;
  GraphCopies::Hold graph_copy_;  // the ends and their index, counted while this share holds them
  DeadEnds dead_;  // when finding bridges
  BridgeVotes bridges_;
  std::size_t piece_ = 0;  // the piece being read
  std::unique_ptr<BlockSplitter> splitter_;
  std::string block_;
  // The record being read (a FASTA record may span blocks), and the piece's records so far.
  std::string record_;
  bool record_open_ = false;
  std::uint64_t records_ = 0;
  std::map<std::vector<std::size_t>, std::uint64_t> crossed_;  // each run once, with its reads
  std::map<ReadThreads::Passage, std::uint64_t> passages_;     // each passage once, when asked for those
  ThreadedPaths paths_;
  std::vector<std::string> rethread_;  // last time's kept reads, to thread again
  std::size_t rethread_at_ = 0;
  std::vector<std::string> kept_;
  ThreadingDone done_;
};

}  // namespace xenon::genomics
