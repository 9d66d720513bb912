// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/junction_cleaning.hpp"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "genomics/assembler/cleaning_rules.hpp"
#include "genomics/assembler/key_owner.hpp"
#include "genomics/assembler/varint.hpp"
#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {
namespace rules = cleaning_rules;

JunctionCleaning::JunctionCleaning(int k, std::size_t stores, std::size_t self)
    : k_(static_cast<std::size_t>(k)), stores_(stores), self_(self) {
  if (k < 2) throw std::invalid_argument("cleaning at junctions: k below 2");
  if (stores == 0 || self >= stores) throw std::invalid_argument("cleaning at junctions: a store outside the stores");
}

void JunctionCleaning::add(std::string bases, std::uint64_t coverage_sum, WaysOn ways_on) {
  if (in_step_) throw std::logic_error("cleaning at junctions: a unitig added during a step");
  if (removed_since_joined_) throw std::logic_error("cleaning at junctions: a unitig added before the others were joined");
  if (bases.size() < k_) throw std::invalid_argument("cleaning at junctions: a unitig shorter than k");
  if (unitigs_.size() > 0xffffffffu) throw std::overflow_error("cleaning at junctions: more than 2^32 unitigs on a store");
  judged_ = false;  // the verdicts were of the unitigs before
  unitigs_.push_back({std::move(bases), coverage_sum});
  ways_on_.push_back(ways_on[kStart]);
  ways_on_.push_back(ways_on[kEnd]);
}

std::vector<JunctionCleaning::StoredUnitig> JunctionCleaning::take_unitigs() {
  if (in_step_) throw std::logic_error("cleaning at junctions: unitigs taken during a step");
  ways_on_.clear();
  removed_since_joined_ = false;
  judged_ = false;
  return std::exchange(unitigs_, {});
}

// A message: varint the step's first kind, varint the sending store, then per record: varint
// local, varint side, varint flags, varint coverage sum, varint length, varint the key's
// length, the key, then the k bases of its order.
void JunctionCleaning::put_record(std::vector<std::byte>& message, std::string_view key, std::size_t local, int side,
                                  std::uint64_t flags, std::string_view order) const {
  if (message.empty()) {
    put_varint(message, static_cast<std::uint64_t>(first_));
    put_varint(message, self_);
  }
  const StoredUnitig& unitig = unitigs_[local];
  put_varint(message, local);
  put_varint(message, static_cast<std::uint64_t>(side));
  put_varint(message, flags);
  put_varint(message, unitig.coverage_sum);
  put_varint(message, unitig.bases.size());
  put_varint(message, key.size());
  const auto* key_bytes = reinterpret_cast<const std::byte*>(key.data());
  message.insert(message.end(), key_bytes, key_bytes + key.size());
  const auto* order_bytes = reinterpret_cast<const std::byte*>(order.data());
  message.insert(message.end(), order_bytes, order_bytes + order.size());
}

JunctionCleaning::Messages JunctionCleaning::begin(Step first, const Rules& rules) {
  if (in_step_) throw std::logic_error("cleaning at junctions: a step begun before the last one ended");
  if (removed_since_joined_) {
    throw std::logic_error("cleaning at junctions: a step begun before what the last step left was joined");
  }
  if (ways_on_.size() != 2 * unitigs_.size()) throw std::logic_error("cleaning at junctions: unitigs without their ways on");
  first_ = first;
  rules_ = rules;
  in_step_ = true;
  judged_ = false;
  verdicts_in_ = 0;
  removed_ = {};
  kmers_removed_ = {};
  judged_anywhere_ = {};
  verdict_marks_.assign(kKinds * unitigs_.size(), false);
  const bool weak = first == Step::weak_branches;
  const bool ends = first != Step::bubbles;  // weak branches and tips are judged at the ends
  Messages out(stores_);
  const std::size_t length = k_ - 1;
  for (std::size_t local = 0; local < unitigs_.size(); ++local) {
    const std::string_view bases = unitigs_[local].bases;
    const bool bubble_branch = bases.size() <= rules.bubble_length;
    if (!ends && !bubble_branch) continue;
    // Only the ends of each unitig are read, never its whole reverse complement: the ends are
    // what the owners judge, and its first k bases read the smaller way its place in order.
    const std::string_view first_bases = bases.substr(0, length);
    const std::string_view last_bases = bases.substr(bases.size() - length);
    const std::string order = reverse_sorts_first(bases) ? reverse_complement(bases.substr(bases.size() - k_))
                                                         : std::string(bases.substr(0, k_));
    if (bubble_branch) {
      // Read forward, then reverse complemented: its first junction, then its last.
      const std::string forward = std::string(first_bases).append(last_bases);
      const std::string backward = reverse_complement(last_bases).append(reverse_complement(first_bases));
      put_record(out[owner_of_key(forward, stores_)], forward, local, kEnd, kBubbleReading, order);
      put_record(out[owner_of_key(backward, stores_)], backward, local, kStart, kBubbleReading, order);
    }
    if (!ends) continue;
    const bool below = rules::below_threshold({unitigs_[local].coverage_sum, bases.size() - k_ + 1}, rules.threshold);
    for (const int side : {kStart, kEnd}) {
      // The junction as the unitig arrives at it, read the way that ends there: forward at its
      // end, reverse complemented at its start.
      const std::string arriving = side == kEnd ? std::string(last_bases) : reverse_complement(first_bases);
      const std::string other_way = reverse_complement(arriving);
      const bool entering = arriving <= other_way;
      const std::string& junction = entering ? arriving : other_way;
      std::uint64_t flags = entering ? kEntering : 0;
      if (weak && below) flags |= kWeakEligible;
      const std::size_t here = 2 * local + static_cast<std::size_t>(side);
      const std::size_t there = 2 * local + static_cast<std::size_t>(1 - side);
      // A tip: nothing before it (nothing arrives where it leaves), something after it.
      if (bases.size() < rules.tip_length && !ways_on_[there] && ways_on_[here]) flags |= kTipEligible;
      put_record(out[owner_of_key(junction, stores_)], junction, local, side, flags, order);
    }
  }
  return out;
}

bool JunctionCleaning::reports_arrived(std::span<const std::byte> bytes) {
  VarintReader reader(bytes, "cleaning reports");
  if (!reader.at_end()) {
    const std::uint64_t step = reader.next();
    const std::uint64_t store = reader.next();
    if (step > static_cast<std::uint64_t>(Step::bubbles)) reader.fail("a step out of range");
    // Records may come before this store's own first step begins (the store holds those of a
    // later step until it begins it); all are of one step, checked against its own when it
    // judges them.
    if ((in_step_ && step != static_cast<std::uint64_t>(first_)) ||
        (records_step_ && step != static_cast<std::uint64_t>(*records_step_))) {
      reader.fail("a record of another step");
    }
    records_step_ = static_cast<Step>(step);
    if (store >= stores_) reader.fail("a store outside the stores");
    // The flags a step beginning with this kind may set.
    std::uint64_t allowed = kBubbleReading;
    if (*records_step_ != Step::bubbles) allowed |= kEntering | kTipEligible;
    if (*records_step_ == Step::weak_branches) allowed |= kWeakEligible;
    while (!reader.at_end()) {
      Record record;
      record.store = static_cast<std::size_t>(store);
      record.local = reader.next32("a unitig's number");  // so that kKinds times it, in a verdict, cannot wrap
      const std::uint64_t side = reader.next();
      record.flags = reader.next();
      record.coverage_sum = reader.next();
      record.length = reader.next();
      if (side > 1 || (record.flags & ~allowed) != 0) reader.fail("a side or flag out of range for its step");
      if ((record.flags & kBubbleReading) != 0 && record.flags != kBubbleReading) reader.fail("a bubble's reading flagged as an end");
      if (record.flags != kBubbleReading && *records_step_ == Step::bubbles) reader.fail("an end in a step of bubbles alone");
      if (record.length < k_) reader.fail("a unitig shorter than k");
      record.side = static_cast<int>(side);
      record.key = std::string(reader.text(reader.count("key bases"), "a key"));
      const std::size_t key_length = record.flags == kBubbleReading ? 2 * (k_ - 1) : k_ - 1;
      if (record.key.size() != key_length) reader.fail("a key of the wrong length for its record");
      if (owner_of_key(record.key, stores_) != self_) reader.fail("a key this store does not own");
      record.order = std::string(reader.text(k_, "a unitig's first bases"));
      records_.push_back(std::move(record));
    }
  }
  if (++reports_in_ > stores_) throw std::logic_error("cleaning reports from more stores than there are");
  return reports_in_ == stores_;
}

JunctionCleaning::Messages JunctionCleaning::verdicts() {
  if (!in_step_ || reports_in_ != stores_) throw std::logic_error("cleaning verdicts before every store's records");
  if (records_step_ && *records_step_ != first_) throw std::logic_error("cleaning records of another step than this store's");
  records_step_.reset();
  // Ends and pairs of junctions have keys of different lengths: a group is of one or the other.
  std::sort(records_.begin(), records_.end(), [](const Record& a, const Record& b) { return a.key < b.key; });
  Messages verdicts(stores_);
  Counts given{};  // every store is told how many verdicts of each kind this owner gave
  for (std::size_t first = 0; first < records_.size();) {
    std::size_t last = first + 1;
    while (last < records_.size() && records_[last].key == records_[first].key) ++last;
    const std::span<const Record> group(records_.data() + first, last - first);
    if (group.front().flags == kBubbleReading) {
      judge_bubbles(group, verdicts, given);
    } else {
      judge_ends(group, verdicts, given);
    }
    first = last;
  }
  records_ = {};
  reports_in_ = 0;
  Messages out(stores_);
  for (std::size_t store = 0; store < stores_; ++store) {
    for (const std::uint64_t count : given) put_varint(out[store], count);
    out[store].insert(out[store].end(), verdicts[store].begin(), verdicts[store].end());
  }
  return out;
}

// Varint the owner's verdicts of each kind, given to every store; then varint kKinds * local +
// kind per unitig of this store to go for that kind (once per end or reading that lost).
void JunctionCleaning::put_verdict(Messages& out, Counts& given, const Record& record, Step kind) {
  put_varint(out[record.store], kKinds * record.local + static_cast<std::uint64_t>(kind));
  ++given[static_cast<std::size_t>(kind)];
}

// Higher mean coverage wins; on a tie, the unitig first in sequence order.
bool JunctionCleaning::better(const Record& a, const Record& b) const {
  const int compared = rules::compare(coverage(a), coverage(b));
  if (compared != 0) return compared > 0;
  if (a.order == b.order) throw std::logic_error("cleaning at junctions: two unitigs begin with the same k-mer");
  return a.order < b.order;
}

// A junction's ends. Read the way that ends there, a unitig meets the others that end there
// the same way (its rivals) and leads on to those that end there the other way; at a junction
// that is its own reverse complement every end is both.
void JunctionCleaning::judge_ends(std::span<const Record> group, Messages& out, Counts& given) const {
  const std::string& junction = group.front().key;
  const bool palindrome = reverse_complement(junction) == junction;
  const auto rivals = [palindrome](const Record& rival, const Record& end) {
    const bool same_unitig = rival.store == end.store && rival.local == end.local;
    return !same_unitig && (palindrome || (rival.flags & kEntering) == (end.flags & kEntering));
  };
  for (const Record& end : group) {
    if ((end.flags & kWeakEligible) != 0 && std::any_of(group.begin(), group.end(), [&](const Record& rival) {
          return rivals(rival, end) && !rules::below_threshold(coverage(rival), rules_.threshold);
        })) {
      put_verdict(out, given, end, Step::weak_branches);
    }
    if ((end.flags & kTipEligible) != 0 && std::any_of(group.begin(), group.end(), [&](const Record& rival) {
          return rivals(rival, end) && better(rival, end) &&
                 rules::looks_like_error(coverage(end), coverage(rival), rules_.threshold);
        })) {
      put_verdict(out, given, end, Step::tips);
    }
  }
}

// Unitigs read between the same two junctions: those that look like errors beside the best
// covered one go, and so do those read at least half as often (the other copy of a repeat
// with a variant), when their lengths are within 5% (or 2 bases).
void JunctionCleaning::judge_bubbles(std::span<const Record> group, Messages& out, Counts& given) const {
  if (group.size() < 2) return;
  const Record* best = &group.front();
  for (const Record& member : group) {
    if (member.store == best->store && member.local == best->local) continue;
    if (better(member, *best)) best = &member;
  }
  for (const Record& member : group) {
    if (member.store == best->store && member.local == best->local) continue;
    if (!rules::lengths_alike(member.length, best->length)) continue;
    if (!rules::looks_like_error(coverage(member), coverage(*best), rules_.threshold) &&
        !rules::read_about_as_often(coverage(member), coverage(*best))) {
      continue;
    }
    put_verdict(out, given, member, Step::bubbles);
  }
}

bool JunctionCleaning::verdicts_arrived(std::span<const std::byte> bytes) {
  if (!in_step_) throw std::logic_error("cleaning verdicts outside a step");
  VarintReader reader(bytes, "cleaning verdicts");
  for (std::size_t kind = 0; kind < kKinds; ++kind) {
    const std::uint64_t given = reader.next();
    if (given != 0 && kind < static_cast<std::size_t>(first_)) reader.fail("verdicts of a kind the step did not judge");
    judged_anywhere_[kind] += given;
  }
  while (!reader.at_end()) {
    const std::uint64_t mark = reader.next();
    if (mark >= verdict_marks_.size()) reader.fail("a unitig this store does not hold");
    if (mark % kKinds < static_cast<std::uint64_t>(first_)) reader.fail("a verdict of a kind the step did not judge");
    verdict_marks_[static_cast<std::size_t>(mark)] = true;
  }
  if (++verdicts_in_ > stores_) throw std::logic_error("cleaning verdicts from more stores than there are");
  if (verdicts_in_ != stores_) return false;
  in_step_ = false;
  judged_ = true;
  for (std::size_t local = 0; local < unitigs_.size(); ++local) {
    for (std::size_t kind = 0; kind < kKinds; ++kind) {
      if (!verdict_marks_[kKinds * local + kind]) continue;
      ++removed_[kind];
      kmers_removed_[kind] += unitigs_[local].bases.size() - k_ + 1;
    }
  }
  for (std::size_t kind = 0; kind < kKinds; ++kind) {
    if (removed_[kind] != 0 && judged_anywhere_[kind] == 0) {
      throw std::logic_error("cleaning verdicts: unitigs to go that no owner counted");
    }
  }
  return true;
}

std::optional<JunctionCleaning::Step> JunctionCleaning::kind_to_remove() const {
  if (!judged_) throw std::logic_error("cleaning at junctions: the kind to remove asked before the verdicts");
  for (auto kind = static_cast<std::size_t>(first_); kind < kKinds; ++kind) {
    if (judged_anywhere_[kind] != 0) return static_cast<Step>(kind);
  }
  return std::nullopt;
}

const std::array<std::uint64_t, JunctionCleaning::kKinds>& JunctionCleaning::judged_anywhere() const {
  if (!judged_) throw std::logic_error("cleaning at junctions: the verdicts counted asked before they were in");
  return judged_anywhere_;
}

void JunctionCleaning::remove_judged(Step kind) {
  if (!judged_) throw std::logic_error("cleaning at junctions: a removal without a step's verdicts");
  if (kind < first_) throw std::logic_error("cleaning at junctions: a removal of a kind the step did not judge");
  judged_ = false;
  std::vector<StoredUnitig> kept;
  kept.reserve(unitigs_.size());
  const auto index = static_cast<std::size_t>(kind);
  for (std::size_t local = 0; local < unitigs_.size(); ++local) {
    if (!verdict_marks_[kKinds * local + index]) kept.push_back(std::move(unitigs_[local]));
  }
  verdict_marks_ = {};
  const bool removed = kept.size() != unitigs_.size();
  unitigs_ = std::move(kept);
  if (!removed) return;
  // What leads on where a unitig went has changed, and the rest are numbered anew: the ways on
  // come back with the joining, which must come first.
  ways_on_.clear();
  removed_since_joined_ = true;
}

}  // namespace xenon::genomics
