// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/piece_joining.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "genomics/assembler/key_owner.hpp"
#include "genomics/assembler/varint.hpp"
#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {

PieceJoining::PieceJoining(int k, std::size_t stores, std::size_t self)
    : k_(static_cast<std::size_t>(k)), stores_(stores), self_(self) {
  if (k < 2) throw std::invalid_argument("joining pieces: k below 2");
  if (stores == 0 || self >= stores) throw std::invalid_argument("joining pieces: a store outside the stores");
}

void PieceJoining::add_piece(std::string bases, std::uint64_t coverage_sum) {
  if (bases.size() < k_) throw std::invalid_argument("joining pieces: a piece shorter than k");
  if (pieces_.size() > 0xffffffffu) throw std::overflow_error("joining pieces: more than 2^32 pieces on a store");
  Piece piece;
  piece.bases = std::move(bases);
  piece.coverage_sum = coverage_sum;
  // A junction that is its own reverse complement is no owner's (ends()), and every end there
  // leads on.
  const std::size_t length = k_ - 1;
  for (const int side : {kStart, kEnd}) {
    const std::string_view read =
        std::string_view(piece.bases).substr(side == kStart ? 0 : piece.bases.size() - length, length);
    piece.ways_on[side] = reverse_complement(read) == read;
  }
  pieces_.push_back(std::move(piece));
}

// Varint the sending store, then per end: varint piece (its store's number), varint side,
// varint entering, the k-1 bases.
// A junction that is its own reverse complement is left out: read either way, each piece
// there both enters and leaves it, so it never has one way in and one way out (compaction
// does not join there either).
PieceJoining::Messages PieceJoining::ends() const {
  Messages out(stores_);
  const std::size_t length = k_ - 1;
  for (std::size_t local = 0; local < pieces_.size(); ++local) {
    const std::string& bases = pieces_[local].bases;
    for (const int side : {kStart, kEnd}) {
      const std::string_view read =
          std::string_view(bases).substr(side == kStart ? 0 : bases.size() - length, length);
      const std::string reverse = reverse_complement(read);
      if (reverse == read) continue;
      const bool reversed = reverse < read;
      const std::string_view junction = reversed ? std::string_view(reverse) : read;
      // Read forward, a piece enters the junction at its end and leaves it at its start.
      const bool entering = (side == kEnd) != reversed;
      std::vector<std::byte>& message = out[owner_of_key(junction, stores_)];
      if (message.empty()) put_varint(message, self_);
      put_varint(message, local);
      put_varint(message, static_cast<std::uint64_t>(side));
      put_varint(message, entering ? 1 : 0);
      const auto* bytes = reinterpret_cast<const std::byte*>(junction.data());
      message.insert(message.end(), bytes, bytes + junction.size());
    }
  }
  return out;
}

bool PieceJoining::ends_arrived(std::span<const std::byte> bytes) {
  VarintReader reader(bytes, "piece ends");
  if (!reader.at_end()) {
    const std::uint64_t store = reader.next();
    if (store >= stores_) reader.fail("a store outside the stores");
    while (!reader.at_end()) {
      End end;
      end.piece = (store << 32) | reader.next32("a piece number");
      const std::uint64_t side = reader.next();
      const std::uint64_t entering = reader.next();
      if (side > 1 || entering > 1) reader.fail("a side or direction out of range");
      end.side = static_cast<int>(side);
      end.entering = entering == 1;
      end.junction = std::string(reader.text(k_ - 1, "a junction"));
      if (owner_of_key(end.junction, stores_) != self_) reader.fail("a junction this store does not own");
      ends_.push_back(std::move(end));
    }
  }
  if (++ends_in_ > stores_) throw std::logic_error("piece ends from more stores than there are");
  return ends_in_ == stores_;
}

PieceJoining::Messages PieceJoining::links() {
  if (ends_in_ != stores_) throw std::logic_error("piece links before every store's ends");
  std::sort(ends_.begin(), ends_.end(), [](const End& a, const End& b) { return a.junction < b.junction; });
  Messages out(stores_);
  const auto tell = [&out](const End& to, const End& other) {
    std::vector<std::byte>& message = out[store_of(to.piece)];
    put_varint(message, local_of(to.piece));
    put_varint(message, static_cast<std::uint64_t>(to.side));
    put_varint(message, other.piece);
    put_varint(message, static_cast<std::uint64_t>(other.side));
  };
  const auto leads_on = [&out](const End& to) {
    std::vector<std::byte>& message = out[store_of(to.piece)];
    put_varint(message, local_of(to.piece));
    put_varint(message, kLeadsOn + static_cast<std::uint64_t>(to.side));
  };
  for (std::size_t first = 0; first < ends_.size();) {
    std::size_t last = first + 1;
    while (last < ends_.size() && ends_[last].junction == ends_[first].junction) ++last;
    const std::span<const End> group(ends_.data() + first, last - first);
    const End& a = group[0];
    if (group.size() == 2 && a.entering != group[1].entering && a.piece != group[1].piece) {
      tell(a, group[1]);  // one way in, one way out, two pieces
      tell(group[1], a);
    } else {
      const bool both_ways = std::any_of(group.begin(), group.end(), [&a](const End& end) { return end.entering != a.entering; });
      if (both_ways) {
        for (const End& end : group) leads_on(end);
      }
    }
    first = last;
  }
  ends_ = {};
  return out;
}

PieceJoining::Piece& PieceJoining::piece_at(std::uint64_t local, const char* what) {
  if (local >= pieces_.size()) throw std::invalid_argument(std::string(what) + ": a piece this store does not have");
  return pieces_[static_cast<std::size_t>(local)];
}

// Per link: varint this store's piece, varint its side, varint the other piece, varint its
// side. Per end that something leads on from, with no link: varint the piece, varint
// kLeadsOn + its side.
bool PieceJoining::links_arrived(std::span<const std::byte> bytes) {
  VarintReader reader(bytes, "piece links");
  while (!reader.at_end()) {
    Piece& piece = piece_at(reader.next(), "piece links");
    const std::uint64_t code = reader.next();
    if (code == kLeadsOn + kStart || code == kLeadsOn + kEnd) {
      piece.ways_on[code - kLeadsOn] = true;
      continue;
    }
    const std::uint64_t side = code;
    Link link;
    link.piece = reader.next();
    const std::uint64_t other_side = reader.next();
    if (side > 1 || other_side > 1 || store_of(link.piece) >= stores_) reader.fail("a side or store out of range");
    link.side = static_cast<int>(other_side);
    if (piece.linked[side]) reader.fail("a side of a piece linked twice");
    piece.linked[side] = true;
    piece.links[side] = link;
    piece.ways_on[side] = true;
  }
  if (++links_in_ > stores_) throw std::logic_error("piece links from more stores than there are");
  return links_in_ == stores_;
}

// Per token: varint the piece it enters, varint the side it enters at, varint the chain end it
// set out from, varint the place in the chain of the piece it enters.
PieceJoining::Messages PieceJoining::start_tokens() {
  if (!all_links_in()) throw std::logic_error("piece tokens before every store's links");
  Messages out(stores_);
  for (std::size_t local = 0; local < pieces_.size(); ++local) {
    Piece& piece = pieces_[local];
    if (piece.linked[kStart] == piece.linked[kEnd]) continue;  // alone, or inside a chain
    const int side = piece.linked[kStart] ? kStart : kEnd;
    // The chain goes on from this piece's linked side: read from here, it is reversed when
    // that side is its start.
    piece.visits[0] = Visit{id_of(local), 0, side == kStart};
    piece.visit_count = 1;
    const Link& next = piece.links[side];
    std::vector<std::byte>& message = out[store_of(next.piece)];
    put_varint(message, local_of(next.piece));
    put_varint(message, static_cast<std::uint64_t>(next.side));
    put_varint(message, id_of(local));
    put_varint(message, 1);
    ++tokens_started_;
  }
  return out;
}

PieceJoining::Messages PieceJoining::pass_tokens(std::span<const std::byte> bytes) {
  if (!all_links_in()) throw std::logic_error("piece tokens before every store's links");
  Messages out(stores_);
  VarintReader reader(bytes, "piece tokens");
  while (!reader.at_end()) {
    const std::uint64_t local = reader.next();
    const std::uint64_t side = reader.next();
    Visit visit;
    visit.origin = reader.next();
    visit.position = reader.next32("a place in a chain");
    if (side > 1) reader.fail("a side out of range");
    piece_at(local, "piece tokens");
    visit.reversed = side == kEnd;  // entered at its end, the chain reads it backwards
    this->visit(static_cast<std::size_t>(local), visit, static_cast<int>(side), out);
  }
  return out;
}

void PieceJoining::visit(std::size_t local, const Visit& visit, int entered_at, Messages& out) {
  Piece& piece = pieces_[local];
  if (!piece.linked[entered_at]) throw std::logic_error("a token entered a piece by a side with no link");
  if (piece.visit_count == 2) throw std::logic_error("a third token in a piece");
  piece.visits[static_cast<std::size_t>(piece.visit_count++)] = visit;
  const int leaving_at = 1 - entered_at;
  if (piece.linked[leaving_at]) {
    const Link& next = piece.links[leaving_at];
    std::vector<std::byte>& message = out[store_of(next.piece)];
    put_varint(message, local_of(next.piece));
    put_varint(message, static_cast<std::uint64_t>(next.side));
    put_varint(message, visit.origin);
    put_varint(message, static_cast<std::uint64_t>(visit.position) + 1);
    return;
  }
  // The chain's other end: the end with the smaller number collects the chain.
  ++tokens_finished_;
  if (id_of(local) < visit.origin) {
    Chain& chain = chains_[local];
    const std::size_t length = static_cast<std::size_t>(visit.position) + 1;
    chain.bases.resize(length);
    chain.in.assign(length, false);
    chain.missing = length;
  }
}

// Per piece: varint the collector (its store's number), varint the place, varint the coverage
// sum, varint its ways on (1 at its start, 2 at its end), varint the length, the bases; all
// read as the chain reads them.
PieceJoining::Messages PieceJoining::gather(const Emit& emit, const Emit& emit_cycle_piece) {
  if (gathered_) throw std::logic_error("pieces gathered twice");
  gathered_ = true;
  Messages out(stores_);
  for (std::size_t local = 0; local < pieces_.size(); ++local) {
    Piece& piece = pieces_[local];
    if (piece.visit_count == 0) {  // alone, or (linked, yet no token came) on a cycle of pieces
      const bool on_cycle = piece.linked[kStart] || piece.linked[kEnd];
      (on_cycle ? emit_cycle_piece : emit)(std::move(piece.bases), piece.coverage_sum, piece.ways_on);
      piece.bases = {};
      continue;
    }
    if (piece.visit_count != 2) throw std::logic_error("a piece of a chain that one token alone went through");
    const Visit& visit =
        piece.visits[0].origin < piece.visits[1].origin ? piece.visits[0] : piece.visits[1];
    std::string bases = visit.reversed ? reverse_complement(piece.bases) : std::move(piece.bases);
    piece.bases = {};
    const WaysOn ways_on = visit.reversed ? WaysOn{piece.ways_on[kEnd], piece.ways_on[kStart]} : piece.ways_on;
    if (store_of(visit.origin) == self_) {
      put_in_chain(local_of(visit.origin), visit.position, std::move(bases), piece.coverage_sum, ways_on, emit);
      continue;
    }
    std::vector<std::byte>& message = out[store_of(visit.origin)];
    put_varint(message, local_of(visit.origin));
    put_varint(message, visit.position);
    put_varint(message, piece.coverage_sum);
    put_varint(message, (ways_on[kStart] ? 1u : 0u) | (ways_on[kEnd] ? 2u : 0u));
    put_varint(message, bases.size());
    const auto* bytes = reinterpret_cast<const std::byte*>(bases.data());
    message.insert(message.end(), bytes, bytes + bases.size());
  }
  pieces_ = {};
  return out;
}

void PieceJoining::gathered(std::span<const std::byte> bytes, const Emit& emit) {
  VarintReader reader(bytes, "gathered pieces");
  while (!reader.at_end()) {
    const std::uint64_t collector = reader.next();
    const std::uint32_t position = reader.next32("a place in a chain");
    const std::uint64_t coverage_sum = reader.next();
    const std::uint64_t ways = reader.next();
    if (ways > 3) reader.fail("ways on out of range");
    const std::uint64_t length = reader.count("bases");
    put_in_chain(collector, position, std::string(reader.text(length, "a piece's bases")), coverage_sum,
                 WaysOn{(ways & 1) != 0, (ways & 2) != 0}, emit);
  }
}

void PieceJoining::put_in_chain(std::uint64_t collector_local, std::uint32_t position, std::string bases,
                                std::uint64_t coverage_sum, WaysOn ways_on, const Emit& emit) {
  const auto found = chains_.find(collector_local);
  if (found == chains_.end()) throw std::logic_error("a piece for a chain this store does not collect");
  Chain& chain = found->second;
  if (position >= chain.bases.size() || chain.in[position]) {
    throw std::logic_error("a piece for a place in a chain that is taken or not there");
  }
  if (bases.size() < k_) throw std::invalid_argument("gathered pieces: a piece shorter than k");
  chain.bases[position] = std::move(bases);
  chain.in[position] = true;
  chain.coverage_sum += coverage_sum;
  if (position == 0) chain.ways_on[kStart] = ways_on[kStart];
  if (position + 1 == chain.bases.size()) chain.ways_on[kEnd] = ways_on[kEnd];
  if (--chain.missing != 0) return;
  std::string joined = std::move(chain.bases[0]);
  for (std::size_t at = 1; at < chain.bases.size(); ++at) {
    const std::string& next = chain.bases[at];
    if (joined.compare(joined.size() - (k_ - 1), k_ - 1, next, 0, k_ - 1) != 0) {
      throw std::logic_error("pieces of a chain that do not share their junction");
    }
    joined.append(next, k_ - 1, std::string::npos);
  }
  ++chains_joined_;
  pieces_joined_ += chain.bases.size();
  const std::uint64_t sum = chain.coverage_sum;
  const WaysOn joined_ways_on = chain.ways_on;
  chains_.erase(found);
  emit(std::move(joined), sum, joined_ways_on);
}

}  // namespace xenon::genomics
