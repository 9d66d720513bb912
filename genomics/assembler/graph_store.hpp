// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/assembler/carried_kmer_exchange.hpp"
#include "genomics/assembler/carried_sequences.hpp"
#include "genomics/assembler/cleaning_rounds.hpp"
#include "genomics/assembler/end_lookups.hpp"
#include "genomics/assembler/filter_keeper.hpp"
#include "genomics/assembler/graph_protocol.hpp"
#include "genomics/assembler/junction_cleaning.hpp"
#include "genomics/assembler/lookup_batcher.hpp"
#include "genomics/assembler/read_share.hpp"
#include "genomics/assembler/mate_pairing.hpp"
#include "genomics/assembler/piece_joining.hpp"
#include "genomics/assembler/thread_protocol.hpp"
#include "genomics/run/exchanges.hpp"
#include "genomics/run/freed_memory.hpp"
#include "genomics/assembler/unitig_walk.hpp"
#include "genomics/assembler/vertex_table.hpp"
#include "genomics/counter/kmer_store.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "genomics/kmer/minimizer.hpp"
#include "genomics/kmer/page_array.hpp"

namespace xenon::genomics {

// A k-mer store that goes on to hold its part of the de Bruijn graph. After counting, it keeps
// its solid k-mers as vertices, learns each vertex's edges by asking the stores that own the
// eight possible neighbours, then walks the unitigs (maximal paths without branches) that
// start at its vertices, asking other stores for the next vertex a batch of walks at a time
// (each vertex claimed by one walk), then joins the pieces with the other stores
// (piece_joining.hpp), cleans the unitigs with them, step by step as the coordinator starts
// each, joining after a removal by itself (junction_cleaning.hpp), and sends the cleaned
// unitigs to the coordinator. Vertices on no walk lie on cycles of unbranched vertices; the
// coordinator asks for those before cleaning. Later it threads its share of
// the reads through the cleaned graph's unitigs (ReadShare), as often as the coordinator asks,
// keeping those that crossed two unitigs to thread them again in the next repeat round; with
// other stores threading, it holds one slice of the index of the unitigs' ends and answers
// their lookups in it (end_lookups.hpp) until the coordinator says all are done.
template <int Words>
class GraphStore : public KmerStore<Words> {
 public:
  using Key = KmerKey<Words>;
  using Kmer = PackedKmer<Words>;

  // A round's stores start after the last round's have gone: what those freed goes back first.
  explicit GraphStore(std::span<const std::byte> arguments = {}) : KmerStore<Words>(arguments) {
    release_freed_memory();
  }

 protected:
  void receive_other(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_LOOKUP) {
      this->reply(message, ACTION_LOOKUP_REPLY,
                  LookupBatcher<Words>::answer_all(
                      message.payload(), [this](const Key& key, std::uint8_t flags) { return answer(key, flags); },
                      [this](const Key& key) { __builtin_prefetch(vertices_.home_address(key)); }));
      return;
    }
    if (action == ACTION_LOOKUP_REPLY) {
      batcher_->answered(message.payload(), [this](std::uint64_t tag, LookupAnswer found) { answered(tag, found); });
    } else if (action == ACTION_GRAPH_CARRIED_SHARE) {
      if (setup_done_ || carried_share_) {
        throw std::logic_error("a share of the carried sequences after the graph setup, or a second");
      }
      carried_share_.emplace(message.share_payload());
      return;
    } else if (action == ACTION_GRAPH_SOLIDIFY) {
      solidify(message);
      return;
    } else if (action == ACTION_GRAPH_FILTER_PART) {
      node_filter_arrived(KmerBloomFilter::from_bytes(message.payload()));
      return;
    } else if (action == ACTION_GRAPH_CARRIED_KMERS) {
      // Answered at once, judged or not: one that waits for this store's setup waits briefly.
      carried_.batch_arrived(message.share_payload(), count_in_table());
      this->reply(message, ACTION_GRAPH_CARRIED_JUDGED);
      keep_solid_when_carried_in();
      return;
    } else if (action == ACTION_GRAPH_CARRIED_JUDGED) {
      carried_batch_judged();
      return;
    } else if (action == ACTION_GRAPH_CARRIED_SENT) {
      carried_.report_arrived(message.payload_as<std::uint64_t>());
      keep_solid_when_carried_in();
      return;
    } else if (action == ACTION_GRAPH_EDGES) {
      phase_ = Phase::kEdges;
    } else if (action == ACTION_GRAPH_WALK) {
      phase_ = Phase::kWalks;
    } else if (action == ACTION_JOIN_ENDS) {
      if (joining().ends_arrived(message.payload())) send_links();
      return;
    } else if (action == ACTION_JOIN_LINKS) {
      if (joining().links_arrived(message.payload())) start_tokens();
      return;
    } else if (action == ACTION_JOIN_TOKENS) {
      if (!joining().all_links_in()) {  // its sender had all its links; this store waits for its own
        early_tokens_.push_back(message.share_payload());
        return;
      }
      pass_tokens(message.payload());
      return;
    } else if (action == ACTION_JOIN_GATHER) {
      gather_chains();
      return;
    } else if (action == ACTION_JOIN_PIECES) {
      joining().gathered(message.payload(), keeper());
      report_joined_when_done();
      return;
    } else if (action == ACTION_CLEAN_START) {
      clean_start(message.payload());
      return;
    } else if (action == ACTION_CLEAN_REPORTS) {
      if (step_reports_in_) {  // a store that began the next step while this one waits for verdicts, or joins
        if (!rounds_) throw std::invalid_argument("cleaning reports after the cleaning");
        early_reports_.push_back(message.share_payload());
        return;
      }
      take_reports(message.payload());
      return;
    } else if (action == ACTION_CLEAN_VERDICTS) {
      if (cleaning().verdicts_arrived(message.payload())) step_judged();
      return;
    } else if (action == ACTION_UNVISITED_REQUEST) {
      send_unvisited(message);
      return;
    } else if (action == ACTION_THREAD_READS) {
      take_threading_request(message);
      return;
    } else if (action == ACTION_THREAD_NEXT) {
      thread_turn_queued_ = false;
      thread_next_block();
      return;
    } else if (action == ACTION_END_ASKS) {
      end_asks_arrived(message.source(), message.share_payload());
      return;
    } else if (action == ACTION_END_ANSWERS) {
      if (share_ == nullptr) throw std::invalid_argument("graph store: answers to end lookups while threading no reads");
      share_->answers_arrived(message.payload());
      if (!thread_turn_queued_ && share_->can_go_on()) thread_next_block();
      return;
    } else if (action == ACTION_THREAD_RELEASE) {
      // Every store has threaded: no more asks of this threading can come. (The next
      // threading's request may have come first, down the stores' tree: its slice stays.)
      const auto threading = message.payload_as<std::uint64_t>();
      if (threading > threading_taken_ || (threading == threading_taken_ && share_ != nullptr)) {
        throw std::invalid_argument("graph store: threading " + std::to_string(threading) +
                                    " released before this store threaded it");
      }
      if (end_slice_ != nullptr && threading == threading_taken_) {
        end_slice_.reset();
        release_freed_memory();
      }
      return;
    } else if (action == ACTION_PAIR_MATES) {
      const PairingRequest request = PairingRequest::decode(message.payload());
      pairing_coordinator_ = message.source();
      pairing_owners_ = request.owners;
      router_ = std::make_unique<MateRouter>(request, std::move(threaded_paths_));
      threaded_paths_ = {};
      route_next_mates();
      return;
    } else if (action == ACTION_PAIR_NEXT) {
      route_next_mates();
      return;
    } else if (action == ACTION_MATES) {
      matcher_.add(message.payload());
      pairs_maybe_counted();
      return;
    } else if (action == ACTION_MATES_SENT) {
      matcher_.sent(message.payload_as<std::uint64_t>());
      pairs_maybe_counted();
      return;
    } else if (action == ACTION_PAIR_COUNTS) {
      summer_.add(message.payload());
      sums_maybe_done();
      return;
    } else if (action == ACTION_PAIR_COUNTS_SENT) {
      summer_.sent(message.payload_as<std::uint64_t>());
      sums_maybe_done();
      return;
    } else {
      throw std::runtime_error("graph store: unexpected action " + std::to_string(action.code()));
    }
    pump();
  }

 private:
  // Passes the request on down the stores' tree and starts this store's share: with other
  // stores (two owners or more), its slice of the end index then answers their asks, those that
  // came before the request first.
  void take_threading_request(const Message& message) {
    ThreadingRequest request = ThreadingRequest::decode(message.payload(), this->self());
    if (request.threading <= threading_taken_) {
      throw std::invalid_argument("graph store: threading " + std::to_string(request.threading) + " after threading " +
                                  std::to_string(threading_taken_));
    }
    if (share_ != nullptr) throw std::logic_error("graph store: a threading request while threading");
    for (const ActorName child : request.pass_on_to) this->send(child, ACTION_THREAD_READS, message.share_payload());
    threading_taken_ = request.threading;
    // The last threading is over at every store (this request comes after all reported), so
    // its slice goes before this one is cut, whether or not its release came first.
    end_slice_.reset();
    threading_coordinator_ = request.coordinator;
    const std::vector<ActorName> owners = request.owners;
    EndAskBatches::Send send_asks = [this, owners](std::size_t owner, std::vector<std::byte>&& batch) {
      this->send(owners.at(owner), ACTION_END_ASKS, Payload::copy_of(batch));
    };
    // Last round's kept reads go to the new share, or are dropped when it does not want them.
    share_ = std::make_unique<ReadShare>(std::move(request), std::move(kept_reads_), std::move(send_asks));
    kept_reads_ = {};
    end_slice_ = share_->slice();
    std::vector<EarlyAsks> early;
    early.swap(early_asks_);
    for (EarlyAsks& asks : early) end_asks_arrived(asks.from, std::move(asks.batch));
    this->send(this->self(), ACTION_THREAD_NEXT);
    thread_turn_queued_ = true;
  }

  // Another store's asks of this one's slice: answered when they are of the threading this
  // store holds the slice of, kept when of one whose request has not come yet.
  void end_asks_arrived(ActorName from, Payload batch) {
    const std::uint64_t threading = end_lookup_threading(batch.bytes());
    // From a store that had the request first: the coordinator numbers only the threadings it
    // sends, to the same stores each time, so no other number can come before its request.
    if (threading == threading_taken_ + 1) {
      early_asks_.push_back({from, std::move(batch)});
      return;
    }
    if (end_slice_ == nullptr || threading != threading_taken_) {
      throw std::invalid_argument("graph store: end asks of threading " + std::to_string(threading) +
                                  ", whose slice this store does not hold");
    }
    this->send(from, ACTION_END_ANSWERS, Payload::copy_of(answer_end_asks(batch.bytes(), end_slice_->index, threading)));
  }

  // A block of its share of the reads per turn, the next asked of itself, so that messages
  // to other actors of its worker (the coordinator's, on node 0) are taken in between; a share
  // that waits for other stores' answers goes on when they come.
  void thread_next_block() {
    if (share_ == nullptr) throw std::logic_error("graph store: no reads to thread");
    const ActorName coordinator = threading_coordinator_;
    const bool more = share_->step([this, coordinator](std::vector<std::byte>&& reads) {
      this->send(coordinator, ACTION_THREADED_READS, Payload::copy_of(reads));
    });
    if (more) {
      this->send(this->self(), ACTION_THREAD_NEXT);
      thread_turn_queued_ = true;
      return;
    }
    if (!share_->finished()) return;  // waits for answers
    this->send(coordinator, ACTION_THREADING_DONE, share_->done().encode());
    kept_reads_ = share_->take_kept();
    threaded_paths_ = share_->take_paths();
    share_.reset();
    release_freed_memory();  // the index of the unitigs' ends (a slice stays until every store is done)
  }

  // A slice of this store's mates a turn, each to the store that owns its pair; then each
  // owner told how many batches it was sent.
  void route_next_mates() {
    if (router_ == nullptr) throw std::logic_error("graph store: no mates to route");
    const bool more = router_->step([this](std::size_t owner, std::vector<std::byte>&& batch) {
      this->send(pairing_owners_[owner], ACTION_MATES, Payload::copy_of(batch));
    });
    if (more) {
      this->send(this->self(), ACTION_PAIR_NEXT);
      return;
    }
    for (std::size_t owner = 0; owner < pairing_owners_.size(); ++owner) {
      this->send_value(pairing_owners_[owner], ACTION_MATES_SENT, router_->batches_sent()[owner]);
    }
    count_exchange_with_every_peer();
    router_.reset();
  }

  // Once this store's request is in and every store's mates for it have come: each pair of
  // ways it counted, to the store that sums it (itself included), and every store told how
  // many messages it was sent. (Mates may come before the request: they wait for it.)
  void pairs_maybe_counted() {
    if (pairing_owners_.empty() || !matcher_.complete(pairing_owners_.size())) return;  // once: take_counts empties it
    const std::vector<std::vector<std::vector<std::byte>>> counts = matcher_.take_counts(pairing_owners_.size());
    for (std::size_t owner = 0; owner < pairing_owners_.size(); ++owner) {
      for (const std::vector<std::byte>& message : counts[owner]) {
        this->send(pairing_owners_[owner], ACTION_PAIR_COUNTS, Payload::copy_of(message));
      }
    }
    for (std::size_t owner = 0; owner < pairing_owners_.size(); ++owner) {
      this->send_value(pairing_owners_[owner], ACTION_PAIR_COUNTS_SENT, static_cast<std::uint64_t>(counts[owner].size()));
    }
    count_exchange_with_every_peer();
  }

  // Once every store's counts for the pairs of ways this store sums have come (which is after
  // its own request: each store sends them only once every store's mates are in, and a store
  // sends its mates only once it has its request): the sums, to the coordinator.
  void sums_maybe_done() {
    if (pairing_owners_.empty() || !summer_.complete(pairing_owners_.size())) return;
    const std::vector<std::vector<std::byte>> sums = summer_.take_counts();
    for (const std::vector<std::byte>& message : sums) {
      this->send(pairing_coordinator_, ACTION_PAIRS_COUNTED, Payload::copy_of(message));
    }
    this->send_value(pairing_coordinator_, ACTION_PAIRING_DONE, static_cast<std::uint64_t>(sums.size()));
    pairing_owners_.clear();
  }

  enum class Phase { kIdle, kEdges, kWalks, kDone };
  // Lookup flags: the asker reads the k-mer reversed; claim it for the asker's walk if it has
  // one vertex before it in that reading and no walk claimed it yet; set its edge bit (bits
  // 3-5) back to the asker, found (each edge is looked up once, from its smaller end).
  static constexpr std::uint8_t kReversed = 1;
  static constexpr std::uint8_t kClaim = 2;
  static constexpr std::uint8_t kSetEdge = 4;
  static constexpr int kEdgeBitShift = 3;
  static constexpr std::size_t kBatchEntries = 4096;
  static constexpr std::size_t kFullEnoughBatch = 1024;  // sent while answers are still to come
  static constexpr std::size_t kEdgeWindow = 1 << 16;  // edge lookups in flight
  static constexpr std::size_t kWalkWindow = 1 << 14;  // walks in progress
  static constexpr std::size_t kUnitigMessageBytes = 1 << 20;
  static constexpr std::uint64_t kSeedSpacing = 1024;

  struct Start {
    Kmer kmer;        // as read
    bool known;       // a vertex of this store with no single vertex before it
    std::size_t slot; // when known
  };
  // A walk in progress: the unitig so far, and the lookup of the vertex it would take next.
  struct Walk : UnitigWalk<Words> {
    Kmer next;
    Kmer next_canonical;
    bool next_reversed = false;
    bool candidate = false;  // `next` starts the walk if the walk can claim it
    std::optional<MinimizerWindow> window;  // over `bases`, for the next k-mer's store
  };
  struct LocalLookup {
    Key key;
    std::uint8_t flags;
    std::uint64_t tag;
  };

  void solidify(const Message& message) {
    // What counting freed (a parser's filter, its arguments, batches) came from holes in the
    // heap where earlier rounds left them, and stays resident until given back.
    release_freed_memory();
    if (setup_done_) throw std::logic_error("a second graph setup for one store");
    const GraphSetup setup = GraphSetup::decode(message.payload());
    coordinator_ = message.source();
    stores_ = setup.stores;
    const auto self_at = std::find(stores_.begin(), stores_.end(), this->self());
    if (self_at == stores_.end()) throw std::invalid_argument("graph setup without this store");
    self_index_ = static_cast<std::size_t>(self_at - stores_.begin());
    shape_.emplace(static_cast<int>(setup.k));
    minimizer_length_ = static_cast<int>(setup.minimizer_length);
    minimizers_.emplace(static_cast<int>(setup.k), minimizer_length_);
    k_ = static_cast<int>(setup.k);
    threshold_ = setup.threshold;
    filter_items_ = setup.filter_items;
    filter_keepers_ = setup.filter_keepers;
    carried_anywhere_ = setup.carried_anywhere;
    // Before any other store can have walked: its pieces' ends may come before this store walks.
    joining_.emplace(k_, stores_.size(), self_index_);
    cleaning_.emplace(k_, stores_.size(), self_index_);
    // Carried k-mers are solid whatever their count: this store's share goes to their owners.
    carried_.judge_from_now(threshold_, count_in_table());
    if (carried_anywhere_) {
      // The share came before the setup, from the same coordinator; the router reads it where
      // it is kept until the router is done (a small payload's bytes lie inside the Payload,
      // so it is not moved).
      if (!carried_share_) throw std::logic_error("a round that carries sequences, and no share of them for this store");
      const std::span<const std::byte> bytes = carried_share_->bytes();
      const std::string_view share(reinterpret_cast<const char*>(bytes.data()), bytes.size());
      carried_router_.emplace(Payload{}, share, k_, minimizer_length_, stores_.size());
      route_carried();
    } else if (carried_share_) {
      throw std::logic_error("a share of carried sequences in a round that carries none");
    }
    setup_done_ = true;
    keep_solid_when_carried_in();
  }

  // This store's share of the carried sequences to the stores that own its k-mers (its own
  // judged at once), a batch's worth of k-mers at a time while fewer than kCarriedInFlight
  // batches wait to be judged (each is answered: ACTION_GRAPH_CARRIED_JUDGED); once all have
  // gone, how many batches went to each store.
  void route_carried() {
    static constexpr std::size_t kCarriedInFlight = 16;
    bool done = false;
    while (!done && carried_in_flight_ < kCarriedInFlight) {
      done = carried_router_->route_some(carried_router_->batch_keys(), [this](std::size_t store, Payload batch) {
        if (store == self_index_) {
          carried_.batch_arrived(std::move(batch), count_in_table());
        } else {
          this->send(stores_[store], ACTION_GRAPH_CARRIED_KMERS, std::move(batch));
          ++carried_in_flight_;
        }
      });
    }
    if (!done) return;  // goes on as the answers come
    for (std::size_t store = 0; store < stores_.size(); ++store) {
      this->send_value(stores_[store], ACTION_GRAPH_CARRIED_SENT, carried_router_->sent()[store]);
    }
    count_exchange_with_every_peer();
    carried_router_.reset();
    carried_share_.reset();
  }

  void carried_batch_judged() {
    if (carried_in_flight_ == 0) throw std::logic_error("an answer for a batch of carried k-mers not sent");
    --carried_in_flight_;
    if (carried_router_) route_carried();
  }

  auto count_in_table() const {
    return [this](const Key& key) { return this->table_.count_of(key); };
  }

  // Once the setup and (if any store has a share) every carried k-mer this store owns are in:
  // the solid k-mers become vertices.
  void keep_solid_when_carried_in() {
    if (!setup_done_ || solid_kept_) return;
    if (!carried_anywhere_) {
      if (carried_.anything_arrived()) throw std::logic_error("carried k-mers in a round that carries none");
    } else if (!carried_.complete(stores_.size())) {
      return;
    }
    keep_solid(carried_.take());
  }

  void keep_solid(const typename CarriedKmerExchange<Words>::Kept& carried) {
    // A long turn (two scans of the table, the vertices built): what this round sent the
    // other stores goes first, the last carried batch's answer or this store's count of
    // batches sent, which they wait for to keep their own (at P = 2, 1.2 s of one store
    // alone at k = 99 while the other's count waited for this turn's end).
    this->hand_on_sent_messages();
    // The batches of carried k-mers came and went through holes in the heap, which stay
    // resident until given back (on node 0, 3.5 MiB more at the peak that follows).
    release_freed_memory();
    const std::uint64_t threshold = threshold_;
    // Carried k-mers are solid whatever their count; those no read has are added with one.
    const auto keep = [&](const Key& key, std::uint64_t count) {
      return count >= threshold ||
             std::binary_search(carried.under_threshold.begin(), carried.under_threshold.end(), key);
    };
    std::size_t solid = 0;
    KmerBloomFilter filter;
    if (filter_items_ != 0) filter = KmerBloomFilter::sized_for(filter_items_);
    this->table_.for_each([&](const Key& key, std::uint64_t count) {
      solid += keep(key, count);
      if constexpr (Words == 1) {
        if (!filter.empty() && count >= 2) filter.insert(key[0]);
      }
    });
    // What is kept, in the table's order, copied out so that the counts' table is given back
    // before the vertices take their memory (a round's peak was both). In pages of its own:
    // from the heap, the copy took the holes earlier rounds left on node 0, and stayed
    // resident after it was freed.
    struct KeptKmer {
      Key key;
      std::uint64_t count;
    };
    PageArray<KeptKmer> kept(solid);
    std::size_t kept_count = 0;
    this->table_.for_each([&](const Key& key, std::uint64_t count) {
      if (keep(key, count)) kept[kept_count++] = {key, count};
    });
    this->table_.clear();
    vertices_ = VertexTable<Words>(kept_count + carried.uncounted.size());
    for (std::size_t i = 0; i < kept_count; ++i) vertices_.insert(kept[i].key, kept[i].count);
    for (const Key& key : carried.uncounted) vertices_.insert(key, 1);
    solid = kept_count + carried.uncounted.size();
    kept = PageArray<KeptKmer>();
    batcher_ = std::make_unique<LookupBatcher<Words>>(stores_.size(), kBatchEntries);
    solid_kmers_ = solid;
    solid_kept_ = true;
    // The filter to the node's first store, which merges the node's filters and sends each
    // keeper its part of the keeper's slice (filter_keeper.hpp); then the count.
    if (!filter.empty()) {
      const std::size_t first = node_first_store();
      if (self_index_ == first) {
        node_filter_arrived(std::move(filter));
      } else {
        Payload whole = Payload::for_overwrite(filter.bytes());
        filter.write_bytes(whole.writable_bytes());
        this->send(stores_[first], ACTION_GRAPH_FILTER_PART, std::move(whole));
      }
    }
    this->send_value(coordinator_, ACTION_GRAPH_SOLID, static_cast<std::uint64_t>(solid_kmers_));
  }

  // The first of this node's stores (they are in node order), and how many the node has.
  std::size_t node_first_store() const {
    const std::uint32_t node = this->self().node();
    return static_cast<std::size_t>(std::find_if(stores_.begin(), stores_.end(),
                                                 [node](const ActorName store) { return store.node() == node; }) -
                                    stores_.begin());
  }
  std::size_t stores_on_node() const {
    const std::uint32_t node = this->self().node();
    return static_cast<std::size_t>(std::count_if(stores_.begin(), stores_.end(),
                                                  [node](const ActorName store) { return store.node() == node; }));
  }

  // On a node's first store: a filter of the node's (its own once it has kept its solid
  // k-mers; the others' perhaps before this store's setup), ORed into the node's. Once all
  // are in, each keeper gets its part of the keeper's slice.
  void node_filter_arrived(KmerBloomFilter filter) {
    if (node_filter_.empty()) {
      node_filter_ = std::move(filter);
    } else {
      node_filter_.merge(filter);
    }
    ++node_filters_in_;
    if (!solid_kept_ || node_filter_.empty()) return;  // this store's own comes with its setup
    const std::size_t expected = stores_on_node();
    if (node_filters_in_ < expected) return;
    if (node_filters_in_ > expected || self_index_ != node_first_store()) {
      throw std::logic_error(std::to_string(node_filters_in_) + " filters for a node of " + std::to_string(expected) + " stores");
    }
    for (std::size_t keeper = 0; keeper < filter_keepers_.size(); ++keeper) {
      this->send(filter_keepers_[keeper], ACTION_FILTER_PART,
                 FilterPart::encode(filter_keepers_.size(), node_filter_,
                                    filter_slice(node_filter_.words(), filter_keepers_.size(), keeper)));
    }
    node_filter_ = KmerBloomFilter();
  }

  LookupAnswer answer(const Key& key, std::uint8_t flags) {
    const std::uint32_t slot = vertices_.find(key);
    if (slot == VertexTable<Words>::kAbsent) return {};
    if ((flags & kSetEdge) != 0) vertices_.add_edge(slot, flags >> kEdgeBitShift);
    const std::uint8_t edges = vertices_.edges(slot);
    bool claimed = false;
    if ((flags & kClaim) != 0 && !vertices_.visited(slot) &&
        VertexEdges::degree(VertexEdges::before(edges, (flags & kReversed) != 0)) == 1) {
      vertices_.mark_visited(slot);
      claimed = true;
    }
    return {vertices_.count(slot), edges, claimed};
  }

  // Asks the store of `minimizer` about a k-mer; local answers wait in local_ for pump().
  void lookup(const Kmer& canonical, std::uint64_t minimizer, std::uint8_t flags, std::uint64_t tag) {
    const Key key = key_of<Words>(canonical);
    const std::size_t store = store_of_minimizer(minimizer, static_cast<std::uint32_t>(stores_.size()));
    if (store == self_index_) {
      local_.push_back({key, flags, tag});
    } else if (batcher_->add(store, key, flags, tag)) {
      batcher_->flush(store, sender());
    }
  }

  auto sender() {
    return [this](std::size_t store, Payload payload) { this->send(stores_[store], ACTION_LOOKUP, std::move(payload)); };
  }

  void answered(std::uint64_t tag, LookupAnswer found) {
    if (phase_ == Phase::kEdges) {
      if (found.count != 0) {
        vertices_.add_edge(tag >> 3, static_cast<int>(tag & 7));
        ++edges_;
      }
    } else if (phase_ == Phase::kWalks) {
      walk_answered(static_cast<std::size_t>(tag), found);
    } else {
      throw std::logic_error("graph store: lookup answered outside the edge and walk steps");
    }
  }

  // Does what can be done now: answers of this store's own lookups, new lookups up to the
  // window, then sends the batches and reports the step done when nothing is left.
  void pump() {
    constexpr std::size_t kAhead = 8;
    do {
      std::vector<LocalLookup> lookups;
      lookups.swap(local_);
      for (std::size_t i = 0; i < lookups.size(); ++i) {
        if (i + kAhead < lookups.size()) __builtin_prefetch(vertices_.home_address(lookups[i + kAhead].key));
        answered(lookups[i].tag, answer(lookups[i].key, lookups[i].flags));
      }
      if (phase_ == Phase::kEdges) {
        ask_edges();
      } else if (phase_ == Phase::kWalks) {
        start_walks();
      }
    } while (!local_.empty());
    // A batch goes when it is full enough, or when no answer is still to come: each answer
    // pumps again, so a batch kept to fill cannot be left behind. Sending every batch after
    // every answer split each store's lookups over the P - 1 others at every round trip,
    // until they went one or two at a time (at P = 4, 1.5 M messages of about 50 bytes a
    // rank, against 14 k for the counting).
    if (batcher_->batches_in_flight() == 0) {
      batcher_->flush_all(sender());
    } else {
      batcher_->flush_fuller_than(kFullEnoughBatch, sender());
    }
    if (phase_ == Phase::kEdges && edge_cursor_ == vertices_.slots() && batcher_->outstanding() == 0) {
      phase_ = Phase::kIdle;
      this->send_value(coordinator_, ACTION_GRAPH_EDGES_DONE, edges_);
    } else if (phase_ == Phase::kWalks && start_cursor_ == vertices_.slots() && starts_.empty() &&
               active_walks_ == 0 && batcher_->outstanding() == 0) {
      phase_ = Phase::kDone;
      send_pair(ACTION_GRAPH_WALK_DONE, joining().pieces(), kmers_walked_);
      send_ends();
    }
  }

  void send_pair(Action action, std::uint64_t first, std::uint64_t second) { send_counts(action, {first, second}); }

  void send_counts(Action action, std::initializer_list<std::uint64_t> counts) {
    Payload totals = Payload::for_overwrite(8 * counts.size());
    std::byte* at = totals.writable_bytes().data();
    for (const std::uint64_t count : counts) {
      store_le64(at, count);
      at += 8;
    }
    this->send(coordinator_, action, std::move(totals));
  }

  // A joining's messages may come before this store begins it: the walks' joining before the
  // coordinator's word, a cleaning step's before this store's verdicts are all in. It begins
  // with the first of them. Once the cleaned unitigs have gone there is nothing to join.
  PieceJoining& joining() {
    if (!joining_) {
      if (!cleaning_) throw std::logic_error("a joining message after the cleaning");
      joining_.emplace(k_, stores_.size(), self_index_);
    }
    return *joining_;
  }

  JunctionCleaning& cleaning() {
    if (!cleaning_) throw std::logic_error("a cleaning message before the setup or after the cleaning");
    return *cleaning_;
  }

  // One step of an exchange (joining, cleaning): its message to every other store, empty or
  // not (each counts its senders); the caller takes its own at once.
  void to_every_other_store(Action action, const std::vector<std::vector<std::byte>>& messages) {
    for (std::size_t store = 0; store < stores_.size(); ++store) {
      if (store != self_index_) this->send(stores_[store], action, Payload::copy_of(messages[store]));
    }
    count_exchange_with_every_peer();
  }

  // Joining the pieces (piece_joining.hpp): each step's message to every store, this store's
  // own taken at once.
  void send_ends() {
    PieceJoining::Messages ends = joining().ends();
    to_every_other_store(ACTION_JOIN_ENDS, ends);
    if (joining().ends_arrived(ends[self_index_])) send_links();
  }

  void send_links() {
    PieceJoining::Messages links = joining().links();
    to_every_other_store(ACTION_JOIN_LINKS, links);
    if (joining().links_arrived(links[self_index_])) start_tokens();
  }

  void start_tokens() {
    send_tokens(joining().start_tokens());
    send_pair(ACTION_JOIN_STARTED, step_number_, joining().tokens_started());
    std::vector<Payload> early;
    early.swap(early_tokens_);
    for (const Payload& tokens : early) pass_tokens(tokens.bytes());
    report_finished_tokens();
  }

  void pass_tokens(std::span<const std::byte> tokens) {
    send_tokens(joining().pass_tokens(tokens));
    report_finished_tokens();
  }

  // Tokens for other stores' pieces go; this store's own are passed on here, until none is left.
  void send_tokens(PieceJoining::Messages tokens) {
    std::vector<std::vector<std::byte>> own;
    for (;;) {
      for (std::size_t store = 0; store < stores_.size(); ++store) {
        if (tokens[store].empty()) continue;
        if (store == self_index_) {
          own.push_back(std::move(tokens[store]));
        } else {
          this->send(stores_[store], ACTION_JOIN_TOKENS, Payload::copy_of(tokens[store]));
        }
      }
      if (own.empty()) return;
      const std::vector<std::byte> next = std::move(own.back());
      own.pop_back();
      tokens = joining().pass_tokens(next);
    }
  }

  void report_finished_tokens() {
    const std::uint64_t finished = joining().tokens_finished();
    if (finished == tokens_reported_) return;
    send_pair(ACTION_JOIN_FINISHED, step_number_, finished - tokens_reported_);
    tokens_reported_ = finished;
  }

  void gather_chains() {
    PieceJoining::Messages pieces = joining().gather(keeper(), emitter());
    for (std::size_t store = 0; store < stores_.size(); ++store) {
      if (!pieces[store].empty()) this->send(stores_[store], ACTION_JOIN_PIECES, Payload::copy_of(pieces[store]));
    }
    report_joined_when_done();
  }

  // A joined unitig, or a piece on no chain, stays to be cleaned.
  PieceJoining::Emit keeper() {
    return [this](std::string bases, std::uint64_t coverage_sum, PieceJoining::WaysOn ways_on) {
      cleaning().add(std::move(bases), coverage_sum, ways_on);
    };
  }

  // A unitig to the coordinator (a piece of a cycle of pieces, which nothing else meets, or a
  // cleaned unitig), in messages of about kUnitigMessageBytes.
  // `action`: ACTION_UNITIGS for pieces of cycles, ACTION_CLEANED_UNITIGS for cleaned unitigs
  // (the coordinator may still await other stores' joining when they come).
  PieceJoining::Emit emitter(Action action = ACTION_UNITIGS) {
    return [this, action](const std::string& bases, std::uint64_t coverage_sum, PieceJoining::WaysOn /*unused at node 0*/) {
      append_unitig(unitigs_, bases, coverage_sum);
      ++unitigs_sent_;
      kmers_sent_ += bases.size() - static_cast<std::size_t>(k_) + 1;
      if (unitigs_.size() >= kUnitigMessageBytes) flush_unitigs(action);
    };
  }

  // The joining is done once this store has every piece of its chains: after the walks, the
  // coordinator says what comes next; in the cleaning, this store goes on by itself.
  void report_joined_when_done() {
    if (!joining().done()) return;
    flush_unitigs(ACTION_UNITIGS);
    std::uint64_t kmers_kept = 0;
    for (const JunctionCleaning::StoredUnitig& unitig : cleaning().unitigs()) kmers_kept += unitig.bases.size() - static_cast<std::size_t>(k_) + 1;
    send_counts(ACTION_GRAPH_JOINED, {step_number_, unitigs_sent_, kmers_sent_, cleaning().unitigs().size(), kmers_kept});
    unitigs_sent_ = 0;
    kmers_sent_ = 0;
    tokens_reported_ = 0;
    joining_.reset();
    if (rounds_) go_on_cleaning(rounds_->joined());
  }

  // The cleaning (junction_cleaning.hpp): u64 rounds, u64 threshold, u64 tip length, u64
  // bubble length. Every store then takes the steps of cleaning_rounds.hpp by itself, as the
  // coordinator follows them: the owners' counts of each kind that every store hears are what
  // the rounds go by, the same on every store.
  void clean_start(std::span<const std::byte> bytes) {
    if (bytes.size() != 32) throw std::invalid_argument("a cleaning start of the wrong size");
    if (rounds_ || step_number_ != 0) throw std::invalid_argument("a second cleaning start");
    const std::uint64_t rounds = load_le64(bytes.data());
    if (rounds > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
      throw std::invalid_argument("cleaning rounds out of range");
    }
    rules_ = {load_le64(bytes.data() + 8), static_cast<std::size_t>(load_le64(bytes.data() + 16)),
              static_cast<std::size_t>(load_le64(bytes.data() + 24))};
    rounds_.emplace(static_cast<int>(rounds));
    go_on_cleaning(rounds_->start());
  }

  void go_on_cleaning(CleaningRounds::Next next) {
    switch (next) {
      case CleaningRounds::Next::step:
        begin_step();
        return;
      case CleaningRounds::Next::join:  // step_judged() takes it
        throw std::logic_error("a joining asked where only a step or the end can come");
      case CleaningRounds::Next::finished:
        send_cleaned();
        return;
    }
  }

  // The next step: this store's records to their owners, then its own and those that came
  // before it began, as if they came now.
  void begin_step() {
    ++step_number_;
    step_reports_in_ = false;
    JunctionCleaning::Messages reports = cleaning().begin(rounds_->step(), rules_);
    to_every_other_store(ACTION_CLEAN_REPORTS, reports);
    std::vector<Payload> early;
    early.swap(early_reports_);
    take_reports(reports[self_index_]);
    for (const Payload& report : early) take_reports(report.bytes());
  }

  void take_reports(std::span<const std::byte> bytes) {
    if (step_reports_in_) throw std::logic_error("cleaning reports from more stores than there are, in one step");
    if (!cleaning().reports_arrived(bytes)) return;
    step_reports_in_ = true;
    send_verdicts();
  }

  void send_verdicts() {
    JunctionCleaning::Messages verdicts = cleaning().verdicts();
    to_every_other_store(ACTION_CLEAN_VERDICTS, verdicts);
    if (cleaning().verdicts_arrived(verdicts[self_index_])) step_judged();
  }

  // Every owner's verdicts are in: the coordinator hears what each kind would remove here and,
  // where one removes anything anywhere, this store removes the first such kind and joins what
  // is left at once (every store knows the same kind from the owners' counts); else it takes
  // the next step, or sends its cleaned unitigs.
  void step_judged() {
    report_step();  // before the joining's messages, which the coordinator counts after it
    const std::optional<JunctionCleaning::Step> kind = cleaning().kind_to_remove();
    const CleaningRounds::Next next = rounds_->step_done(cleaning().judged_anywhere());
    if (kind.has_value() != (next == CleaningRounds::Next::join) || (kind && *kind != rounds_->applied())) {
      throw std::logic_error("the cleaning's rounds and the owners' counts disagree on the kind to remove");
    }
    if (!kind) {
      go_on_cleaning(next);
      return;
    }
    cleaning().remove_judged(*kind);
    for (JunctionCleaning::StoredUnitig& unitig : cleaning().take_unitigs()) {
      joining().add_piece(std::move(unitig.bases), unitig.coverage_sum);
    }
    send_ends();
  }

  // What each kind the step judged would remove here: unitigs, then their k-mers.
  void report_step() {
    using Step = JunctionCleaning::Step;
    const JunctionCleaning& judged = cleaning();
    send_counts(ACTION_CLEAN_STEP_DONE,
                {step_number_, judged.removed_in_step(Step::weak_branches), judged.removed_in_step(Step::tips),
                 judged.removed_in_step(Step::bubbles), judged.kmers_removed_in_step(Step::weak_branches),
                 judged.kmers_removed_in_step(Step::tips), judged.kmers_removed_in_step(Step::bubbles)});
  }

  void send_cleaned() {
    if (!early_reports_.empty()) throw std::logic_error("cleaning reports of a step after the last");
    const PieceJoining::Emit emit = emitter(ACTION_CLEANED_UNITIGS);
    for (JunctionCleaning::StoredUnitig& unitig : cleaning().take_unitigs()) {
      emit(std::move(unitig.bases), unitig.coverage_sum, {});
    }
    flush_unitigs(ACTION_CLEANED_UNITIGS);
    send_pair(ACTION_GRAPH_CLEANED, unitigs_sent_, kmers_sent_);
    unitigs_sent_ = 0;
    kmers_sent_ = 0;
    cleaning_.reset();
    rounds_.reset();
  }

  void ask_edges() {
    while (edge_cursor_ < vertices_.slots() && batcher_->outstanding() + local_.size() < kEdgeWindow) {
      const std::size_t slot = edge_cursor_++;
      if (!vertices_.occupied(slot)) continue;
      const Kmer kmer = kmer_of<Words>(vertices_.key(slot));
      std::uint64_t after[4];
      std::uint64_t before[4];
      minimizers_->of_neighbours(kmer, after, before);
      const int first = shape_->first_base(kmer);
      const int last = KmerShape<Words>::last_base(kmer);
      for (int base = 0; base < 4; ++base) {
        // The neighbour's bit for this vertex: it follows this one's first base, or precedes
        // its last, read the neighbour's canonical way.
        const Kmer next = shape_->successor(kmer, base);
        const Kmer next_canonical = shape_->canonical(next);
        const int next_back = same_words<Words>(next, next_canonical) ? 4 + first : 3 - first;
        ask_edge(kmer, next_canonical, after[base], slot * 8 + static_cast<std::size_t>(base), next_back);
        const Kmer previous = shape_->predecessor(kmer, base);
        const Kmer previous_canonical = shape_->canonical(previous);
        const int previous_back = same_words<Words>(previous, previous_canonical) ? last : 4 + 3 - last;
        ask_edge(kmer, previous_canonical, before[base], slot * 8 + 4 + static_cast<std::size_t>(base), previous_back);
      }
    }
  }

  void ask_edge(const Kmer& vertex, const Kmer& neighbour, std::uint64_t minimizer, std::size_t tag, int back) {
    if (words_less<Words>(neighbour, vertex)) return;  // the neighbour asks, and sets this bit
    lookup(neighbour, minimizer, static_cast<std::uint8_t>(kSetEdge | (back << kEdgeBitShift)), tag);
  }

  // Walks start at a vertex, read one way, that does not have exactly one vertex before it;
  // at each vertex after a vertex with two or more after it (if it has only that one before
  // it: the walk's first lookup tells); and at seeds, vertices inside unitigs picked by hash
  // (about one in kSeedSpacing), from which one walk goes each way, so that long unitigs are
  // walked in many pieces at once. Every vertex is claimed by the first walk that reaches it and
  // by no other: the pieces share no k-mer, and the coordinator joins them into unitigs.
  void list_starts(std::size_t slot) {
    if (!vertices_.occupied(slot)) return;
    const Kmer kmer = kmer_of<Words>(vertices_.key(slot));
    const std::uint8_t edges = vertices_.edges(slot);
    const bool inside = VertexEdges::degree(VertexEdges::before(edges, false)) == 1 &&
                        VertexEdges::degree(VertexEdges::after(edges, false)) == 1;
    if (inside) {
      if ((vertices_.key(slot)[Words - 1] >> 40) % kSeedSpacing != 0) return;
      starts_.push_back({kmer, true, slot});  // forward from the seed, which it claims
      const Kmer reverse = shape_->reverse_complement(kmer);
      starts_.push_back({shape_->successor(reverse, std::countr_zero(VertexEdges::after(edges, true))), false, 0});
      return;
    }
    for (const bool reversed : {false, true}) {
      const Kmer read = reversed ? shape_->reverse_complement(kmer) : kmer;
      if (VertexEdges::degree(VertexEdges::before(edges, reversed)) != 1) starts_.push_back({read, true, slot});
      const std::uint8_t after = VertexEdges::after(edges, reversed);
      if (VertexEdges::degree(after) < 2) continue;
      for (int base = 0; base < 4; ++base) {
        if ((after >> base) & 1) starts_.push_back({shape_->successor(read, base), false, 0});
      }
    }
  }

  void start_walks() {
    while (active_walks_ < kWalkWindow) {
      if (starts_.empty()) {
        if (start_cursor_ == vertices_.slots()) return;
        list_starts(start_cursor_++);
        continue;
      }
      const Start start = starts_.back();
      starts_.pop_back();
      if (start.known && vertices_.visited(start.slot)) {
        // Claimed already (by the walk that starts here the other way, or one through a
        // seed): the piece after it, if it has a single vertex after it, is a walk of its own.
        const bool reversed = !same_words<Words>(start.kmer, kmer_of<Words>(vertices_.key(start.slot)));
        const std::uint8_t after = VertexEdges::after(vertices_.edges(start.slot), reversed);
        if (VertexEdges::degree(after) == 1) starts_.push_back({shape_->successor(start.kmer, std::countr_zero(after)), false, 0});
        continue;
      }
      std::size_t id;
      if (free_walks_.empty()) {
        id = walks_.size();
        walks_.emplace_back();
      } else {
        id = free_walks_.back();
        free_walks_.pop_back();
      }
      ++active_walks_;
      Walk& walk = walks_[id];
      if (start.known) {
        vertices_.mark_visited(start.slot);
        const bool reversed = !same_words<Words>(start.kmer, kmer_of<Words>(vertices_.key(start.slot)));
        begin(walk, start.kmer, vertices_.count(start.slot), vertices_.edges(start.slot), reversed);
        advance(id);
      } else {
        walk.candidate = true;
        ask_next(id, start.kmer, minimizers_->of(start.kmer));
      }
    }
  }

  void begin(Walk& walk, const Kmer& kmer, std::uint32_t count, std::uint8_t edges, bool reversed) {
    walk.candidate = false;
    walk.begin(kmer, k_, count, edges, reversed);
    if (!walk.window) walk.window.emplace(k_, minimizer_length_);
    walk.window->reset();
    for (const char base : walk.bases) walk.window->push(kBaseCodes[static_cast<unsigned char>(base)]);
  }

  void ask_next(std::size_t id, const Kmer& next, std::uint64_t minimizer) {
    Walk& walk = walks_[id];
    walk.next = next;
    walk.next_canonical = shape_->canonical(next);
    walk.next_reversed = !same_words<Words>(walk.next_canonical, next);
    lookup(walk.next_canonical, minimizer, static_cast<std::uint8_t>(kClaim | (walk.next_reversed ? kReversed : 0)), id);
  }

  void advance(std::size_t id) {
    Walk& walk = walks_[id];
    const int base = walk.only_base_after();
    if (base < 0) {
      finish(id);
      return;
    }
    // The window moves on to the next k-mer now (if the walk stops there, it is not used again).
    walk.window->push(base);
    ask_next(id, shape_->successor(walk.current, base), walk.window->minimum());
  }

  // The next vertex is the walk's if it has this walk's vertex alone before it and no other
  // walk claimed it first.
  void walk_answered(std::size_t id, LookupAnswer found) {
    Walk& walk = walks_[id];
    if (found.count == 0) throw std::logic_error("an edge leads to a k-mer that is not a vertex");
    if (walk.candidate) {
      if (!found.claimed) {
        release(id);  // a unitig starts there (listed by its own store), or another walk has it
        return;
      }
      begin(walk, walk.next, found.count, found.edges, walk.next_reversed);
      advance(id);
      return;
    }
    if (!found.claimed) {
      finish(id);
      return;
    }
    walk.take(walk.next, found.count, found.edges, walk.next_reversed);
    advance(id);
  }

  // Every piece is kept to be joined: it claimed its vertices, and no other piece has them.
  void finish(std::size_t id) {
    Walk& walk = walks_[id];
    kmers_walked_ += walk.bases.size() - static_cast<std::size_t>(k_) + 1;
    joining().add_piece(std::move(walk.bases), walk.coverage);
    release(id);
  }

  void release(std::size_t id) {
    walks_[id].bases.clear();
    free_walks_.push_back(id);
    --active_walks_;
  }

  void flush_unitigs(Action action) {
    if (unitigs_.empty()) return;
    this->send(coordinator_, action, std::span<const std::byte>(unitigs_));
    unitigs_.clear();
  }

  // Reply: per vertex no walk reached, its k-mer's words, u32 count, u32 edges.
  void send_unvisited(const Message& request) {
    std::vector<std::byte> records;
    for (std::size_t slot = 0; slot < vertices_.slots(); ++slot) {
      if (!vertices_.occupied(slot) || vertices_.visited(slot)) continue;
      const Kmer kmer = kmer_of<Words>(vertices_.key(slot));
      const std::size_t at = records.size();
      records.resize(at + 8 * Words + 8);
      for (int word = 0; word < Words; ++word) store_le64(records.data() + at + 8 * word, kmer[static_cast<std::size_t>(word)]);
      store_le32(records.data() + at + 8 * Words, vertices_.count(slot));
      store_le32(records.data() + at + 8 * Words + 4, vertices_.edges(slot));
    }
    this->reply(request, ACTION_UNVISITED, Payload::copy_of(records));
    // The graph is the coordinator's now: what held this store's part of it goes.
    vertices_ = VertexTable<Words>();
    batcher_.reset();
    local_ = {};
    starts_ = {};
    walks_ = {};
    free_walks_ = {};
    unitigs_ = {};
  }

  ActorName coordinator_;
  // The solid k-mers phase: the setup, the carried k-mers coming in, then this store's count.
  bool setup_done_ = false;
  bool solid_kept_ = false;
  std::uint64_t threshold_ = 0;
  std::uint64_t filter_items_ = 0;
  std::vector<ActorName> filter_keepers_;
  bool carried_anywhere_ = false;
  std::optional<Payload> carried_share_;  // from the coordinator, until carried_router_ is done
  std::optional<CarriedKmerRouter<Words>> carried_router_;  // while this store's share goes out
  std::size_t carried_in_flight_ = 0;                        // batches of it not yet answered
  CarriedKmerExchange<Words> carried_;
  std::uint64_t solid_kmers_ = 0;
  // On a node's first store: the node's stores' filters ORed, until all are in.
  KmerBloomFilter node_filter_;
  std::size_t node_filters_in_ = 0;
  std::vector<ActorName> stores_;
  std::size_t self_index_ = 0;
  std::optional<KmerShape<Words>> shape_;
  std::optional<KmerMinimizers<Words>> minimizers_;
  int minimizer_length_ = 0;
  int k_ = 0;
  VertexTable<Words> vertices_;
  std::unique_ptr<LookupBatcher<Words>> batcher_;
  std::vector<LocalLookup> local_;  // lookups of this store's own vertices
  Phase phase_ = Phase::kIdle;
  std::size_t edge_cursor_ = 0;
  std::uint64_t edges_ = 0;
  std::size_t start_cursor_ = 0;
  std::vector<Start> starts_;
  std::vector<Walk> walks_;
  std::vector<std::size_t> free_walks_;
  std::size_t active_walks_ = 0;
  std::uint64_t kmers_walked_ = 0;
  std::optional<PieceJoining> joining_;  // from the setup until its unitigs have gone, and in the cleaning
  std::optional<JunctionCleaning> cleaning_;  // the joined unitigs, from the setup until cleaned and sent
  std::vector<Payload> early_tokens_;    // that came before all of this store's links
  std::uint64_t tokens_reported_ = 0;    // finished, told the coordinator
  std::uint64_t step_number_ = 0;  // of the cleaning step under way (0: the walks' joining), in every report
  // The cleaning's rounds, followed here as the coordinator follows them, and what they judge by.
  std::optional<CleaningRounds> rounds_;
  JunctionCleaning::Rules rules_;
  bool step_reports_in_ = false;       // every store's records of this step are in: verdicts sent
  std::vector<Payload> early_reports_;  // of the next step, from stores that began it before this one
  std::vector<std::byte> unitigs_;
  std::uint64_t unitigs_sent_ = 0;
  std::uint64_t kmers_sent_ = 0;
  std::unique_ptr<ReadShare> share_;  // while threading reads
  bool thread_turn_queued_ = false;     // an ACTION_THREAD_NEXT on its way to this store
  // This store's slice of the end index (of threading_taken_'s), from its share's start until
  // every store has threaded (ACTION_THREAD_RELEASE), and the asks of other stores that came
  // before this store's request.
  std::shared_ptr<const EndSlice> end_slice_;
  std::uint64_t threading_taken_ = 0;  // the last threading whose request came
  struct EarlyAsks {
    ActorName from;
    Payload batch;
  };
  std::vector<EarlyAsks> early_asks_;
  std::vector<std::string> kept_reads_;  // that crossed two unitigs, for the next repeat round
  ActorName threading_coordinator_;
  // Pairing mates: this store's threaded reads until asked to pair, then its router, and the
  // pairs it owns.
  ThreadedPaths threaded_paths_;
  std::unique_ptr<MateRouter> router_;
  MateMatcher matcher_;
  PairCountSummer summer_;
  std::vector<ActorName> pairing_owners_;  // empty until its request comes, and once the sums are sent
  ActorName pairing_coordinator_;
};

}  // namespace xenon::genomics
