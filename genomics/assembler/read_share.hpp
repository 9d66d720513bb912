// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "genomics/assembler/bridge_tracer.hpp"
#include "genomics/assembler/end_index.hpp"
#include "genomics/assembler/end_lookups.hpp"
#include "genomics/assembler/mate_pairing.hpp"
#include "genomics/assembler/read_bridges.hpp"
#include "genomics/assembler/read_threads.hpp"
#include "genomics/assembler/read_tracer.hpp"
#include "genomics/assembler/thread_protocol.hpp"
#include "genomics/io/block_splitter.hpp"
#include "genomics/run/graph_copies.hpp"

namespace xenon::genomics {

// One store's slice of the end index (EndIndex), while any store may still ask it: counted as
// a graph copy meanwhile (GraphCopies), though it is a share of the ends, not a copy of them.
struct EndSlice {
  EndSlice(const std::vector<UnitigEnds>& ends, int k, std::size_t end_span, std::size_t owner, std::size_t owners)
      : index(ends, k, end_span, owner, owners), hold(index.bytes()) {}
  EndIndex index;
  GraphCopies::Hold hold;
};

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
// With one store (or none: node 0 alone), the share indexes every unitig's ends. With two or
// more, each store keeps only its slice of that index (EndSlice) and asks the others where the
// k-mers they own lie (ReadTracer, BridgeTracer, end_lookups.hpp): a read waits for its answers
// while the share reads on, up to kWindow reads, and the results are the same.
class ReadShare {
 public:
  using Send = std::function<void(std::vector<std::byte>&&)>;
  static constexpr std::size_t kMessageBytes = 1 << 20;

  static constexpr std::size_t kReadsPerTurn = 4096;  // kept reads threaded again per step
  // Reads waiting for other stores' answers (and those read after them), past which the share
  // reads no further block until answers come: a turn reads a whole block (or kReadsPerTurn
  // kept reads), so up to a block's reads more.
  static constexpr std::size_t kWindow = 1 << 14;

  // `kept`: the reads this store kept last time, threaded when the request says so.
  // `send_asks`: where the asks of the other owners go (request.owners; needed when there are
  // two or more), a batch of ACTION_END_ASKS for one of them at a time, at most `batch_bytes`.
  explicit ReadShare(ThreadingRequest request, std::vector<std::string> kept = {},
                     EndAskBatches::Send send_asks = {}, std::size_t window = kWindow,
                     std::size_t batch_bytes = EndAskBatches::kBatchBytes);
  ReadShare(const ReadShare&) = delete;
  ReadShare& operator=(const ReadShare&) = delete;

  // One turn: the next block of the input (or of the kept reads) while fewer than kWindow reads
  // wait for answers, and the share ended (its runs sent) once every read is threaded. True
  // while another turn can go on at once; false when the share is over (finished()) or waits
  // for answers (answers_arrived(), then can_go_on() says whether to take a turn).
  bool step(const Send& send);
  // A batch of another store's answers (ACTION_END_ANSWERS) to this share's asks.
  void answers_arrived(std::span<const std::byte> answers);
  bool can_go_on() const;
  bool finished() const { return finished_; }
  // The slice that answers the other stores' asks (null with one store): it must outlive the
  // share until every store has threaded its reads.
  std::shared_ptr<const EndSlice> slice() const { return slice_; }
  // The report that ends the share (its failure names the first piece that could not be read).
  const ThreadingDone& done() const { return done_; }
  // The reads that crossed two unitigs or more, when the request asked to keep them.
  std::vector<std::string> take_kept() { return std::move(kept_); }
  // Every read that met the graph, with its unitigs, when the request asked for paths.
  ThreadedPaths take_paths() { return std::move(paths_); }

 private:
  void read_block();
  void rethread_some();
  void end_record();
  // Threads a read, or admits it to the tracer (which copies what it keeps).
  void thread_read(const ReadPlace& place, std::string_view bases);
  // The reads the tracer has threaded, oldest first.
  void take_threaded();
  std::size_t unthreaded() const;
  void add(const ReadPlace& place, const ReadThreads::Traced& traced, std::string_view bases);
  void finish(const Send& send);
  void flush_unless(bool reading_on);
  void send_crossed(const Send& send);

  ThreadingRequest request_;
  // One store: every unitig's ends indexed, and counted as a copy of the graph.
  std::optional<ReadThreads> threads_;
  std::optional<GraphCopies::Hold> graph_copy_;
  DeadEnds dead_;  // when finding bridges
  // Two or more: this store's slice, its asks of the others, and the tracer that waits on them.
  std::shared_ptr<EndSlice> slice_;
  std::optional<EndAskBatches> asks_;
  std::optional<ReadTracer> read_tracer_;
  std::optional<BridgeTracer> bridge_tracer_;
  std::deque<ReadPlace> places_;  // of the reads in the read tracer, when paths are kept
  BridgeVotes bridges_;
  std::size_t window_;
  bool input_over_ = false;  // every piece (or kept read) read, or one could not be
  bool threading_failed_ = false;  // threading a read threw: not a failure of the input
  bool finished_ = false;
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
