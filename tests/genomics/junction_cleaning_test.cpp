// SPDX-License-Identifier: BSD-3-Clause
// The stores cleaning the graph where its unitigs meet (junction_cleaning.hpp), in the steps
// CleaningRounds orders and with the stores joining what each step left (piece_joining.hpp),
// over 1 to 8 stores whose messages arrive in a random order: checked against
// UnitigGraph::clean() on the whole graph, which they replace: the same unitigs left, and the
// same counts of weak branches, tips and bubbles removed in the same number of rounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "genomics/assembler/cleaning_rounds.hpp"
#include "genomics/assembler/cleaning_step_check.hpp"
#include "genomics/assembler/junction_cleaning.hpp"
#include "genomics/assembler/unitig_graph.hpp"
#include "genomics/assembler/varint.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "tests/genomics/joining_run.hpp"
#include "tests/genomics/random_bases.hpp"
#include "tests/support/test_support.hpp"

namespace xenon::genomics {
namespace {

using Step = JunctionCleaning::Step;
using Listed = std::vector<std::tuple<std::string, std::uint64_t, bool>>;

using xenon::testing::random_bases;

std::string canonical(const std::string& bases) {
  const std::string reverse = reverse_complement(bases);
  return std::min(reverse, bases);
}

bool palindrome(std::string_view bases) { return reverse_complement(bases) == bases; }

// A random genome with what makes a graph branch: short stretches copied elsewhere (some
// reverse complemented, some with a base changed or a few lost: a repeat's variant, a bubble
// read about as often as its sister), and palindromes, whose middle k-mer (even k) or
// junction (odd k) is its own reverse complement.
std::string genome_with_repeats(std::mt19937_64& random, std::size_t length) {
  std::string genome = random_bases(random, length);
  for (int copy = 0; copy < 8; ++copy) {
    const std::size_t stretch = 30 + random() % 120;
    std::string bases = genome.substr(random() % (genome.size() - stretch), stretch);
    if (random() % 2 == 0) bases = reverse_complement(bases);
    if (random() % 3 == 0) bases[stretch / 2] = "ACGT"[(std::string_view("ACGT").find(bases[stretch / 2]) + 1) % 4];
    if (random() % 3 == 0) bases.erase(stretch / 2, 1 + random() % 8);
    genome.replace(random() % (genome.size() - stretch), stretch, bases);
  }
  for (int copy = 0; copy < 3; ++copy) {
    const std::string half = random_bases(random, 15);
    genome.replace(random() % (genome.size() - 30), 30, half + reverse_complement(half));
  }
  return genome;
}

using Counts = std::unordered_map<std::string, std::uint32_t>;

// `reads` reads of 100 bases from either strand of the first `span` bases of `source` (a
// circle when `circular`: reads go on round its end), each base wrong at `error_rate` and now
// and then a few bases lost or added (bubbles whose branches differ in length); their k-mers
// counted as k-mer and reverse complement together.
void read_into(Counts& counts, std::mt19937_64& random, const std::string& source, bool circular, std::size_t span,
               std::size_t reads, double error_rate, std::size_t k) {
  constexpr std::size_t kReadLength = 100;
  const std::string text = circular ? source + source.substr(0, kReadLength - 1) : source;
  const std::size_t starts = circular ? span : span - kReadLength + 1;
  std::bernoulli_distribution wrong(error_rate);
  for (std::size_t read = 0; read < reads; ++read) {
    std::string bases = text.substr(random() % starts, kReadLength);
    if (random() % 2 == 0) bases = reverse_complement(bases);
    for (char& base : bases) {
      if (wrong(random)) base = "ACGT"[(std::string_view("ACGT").find(base) + 1 + random() % 3) % 4];
    }
    if (error_rate > 0 && random() % 20 == 0) bases.erase(30 + random() % 40, 1 + random() % 6);
    if (error_rate > 0 && random() % 20 == 0) bases.insert(30 + random() % 40, random_bases(random, 1 + random() % 6));
    for (std::size_t at = 0; at + k <= bases.size(); ++at) ++counts[canonical(bases.substr(at, k))];
  }
}

// The compacted graph of every k-mer read (once is enough: errors make tips, bubbles and weak
// branches), from a genome with repeats read about 25 times over and a third of it 100 times,
// a plasmid whose errors hide that it is a cycle until they are cleaned away, and a ring read
// without error: a cycle from the start.
std::vector<Unitig> graph_from_reads(std::mt19937_64& random, std::size_t k) {
  const std::string genome = genome_with_repeats(random, 3000);
  const std::string plasmid = random_bases(random, 400);
  const std::string ring = random_bases(random, 150);
  Counts counts;
  read_into(counts, random, genome, false, genome.size(), 750, 0.004, k);
  read_into(counts, random, genome, false, genome.size() / 3, 750, 0.004, k);
  read_into(counts, random, plasmid, true, plasmid.size(), 100, 0.004, k);
  read_into(counts, random, ring, true, ring.size(), 30, 0, k);
  UnitigGraph graph(static_cast<int>(k));
  for (const auto& [kmer, count] : counts) graph.add(kmer, count, false);
  graph.compact();
  return graph.unitigs();
}

Listed listed(const UnitigGraph& graph) {
  Listed unitigs;
  for (const Unitig& unitig : graph.unitigs()) unitigs.emplace_back(unitig.bases, unitig.coverage_sum, unitig.circular);
  return unitigs;
}

// The stores and the coordinator cleaning: each step's records, verdicts and the stores'
// begin() taken in a random order (another store's records may reach a store before it has
// begun the step itself, as in a run); the stores join what a step left, each keeping the
// unitigs it emitted.
class CleaningRun {
 public:
  CleaningRun(std::size_t k, std::size_t stores, std::uint64_t seed) : k_(k), random_(seed) {
    for (std::size_t store = 0; store < stores; ++store) cleanings_.emplace_back(static_cast<int>(k), stores, store);
  }
  JunctionCleaning& store(std::size_t index) { return cleanings_[index]; }
  // The pieces of cycles of pieces the joinings sent node 0.
  const std::vector<RawPiece>& sent() const { return sent_; }
  // The steps taken (each judging every kind its round had left).
  std::uint64_t steps() const { return steps_; }

  CleaningReport run(const CleaningSettings& settings, std::uint64_t threshold, std::vector<std::vector<RawPiece>> pieces) {
    join(std::move(pieces));
    const JunctionCleaning::Rules rules{threshold, settings.tip_length_for(static_cast<int>(k_)),
                                        settings.bubble_length_for(static_cast<int>(k_))};
    CleaningRounds rounds(settings.rounds);
    for (CleaningRounds::Next next = rounds.start(); next != CleaningRounds::Next::finished;) {
      if (next == CleaningRounds::Next::step) {
        next = rounds.step_done(take_step(rounds.step(), rules));
        // Every store finds by itself the kind the coordinator's sums choose, or none.
        for (const JunctionCleaning& cleaning : cleanings_) {
          const std::optional<Step> kind = cleaning.kind_to_remove();
          if (next == CleaningRounds::Next::join) {
            EXPECT_EQ(kind, rounds.applied());
          } else {
            EXPECT_FALSE(kind.has_value());
          }
        }
      } else {
        for (JunctionCleaning& cleaning : cleanings_) cleaning.remove_judged(rounds.applied());
        join();
        next = rounds.joined();
      }
    }
    return rounds.report();
  }

 private:
  enum Kind { kBegin, kReports, kVerdicts };
  struct Letter {
    std::size_t to;
    Kind kind;
    std::vector<std::byte> bytes;
  };

  void post(Kind kind, JunctionCleaning::Messages messages) {
    EXPECT_EQ(messages.size(), cleanings_.size());
    for (std::size_t to = 0; to < messages.size(); ++to) queue_.push_back({to, kind, std::move(messages[to])});
  }

  CleaningRounds::Removals take_step(Step step, const JunctionCleaning::Rules& rules) {
    const std::size_t stores = cleanings_.size();
    std::vector<bool> begun(stores, false);
    std::vector<bool> reports_in(stores, false);
    std::size_t applied = 0;
    for (std::size_t store = 0; store < stores; ++store) queue_.push_back({store, kBegin, {}});
    while (!queue_.empty()) {
      const std::size_t pick = random_() % queue_.size();
      const Letter letter = std::move(queue_[pick]);
      queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(pick));
      JunctionCleaning& cleaning = cleanings_[letter.to];
      switch (letter.kind) {
        case kBegin:
          post(kReports, cleaning.begin(step, rules));
          begun[letter.to] = true;
          if (reports_in[letter.to]) post(kVerdicts, cleaning.verdicts());
          break;
        case kReports:
          if (!cleaning.reports_arrived(letter.bytes)) break;
          reports_in[letter.to] = true;
          if (begun[letter.to]) post(kVerdicts, cleaning.verdicts());  // else once it has begun
          break;
        case kVerdicts:
          if (cleaning.verdicts_arrived(letter.bytes)) ++applied;
          break;
      }
    }
    EXPECT_EQ(applied, stores);
    CleaningRounds::Removals removed{};
    for (const JunctionCleaning& cleaning : cleanings_) {
      for (const Step kind : {Step::weak_branches, Step::tips, Step::bubbles}) {
        removed[static_cast<std::size_t>(kind)] += cleaning.removed_in_step(kind);
      }
    }
    ++steps_;
    return removed;
  }

  // The unitigs each store holds joined again (and at first, given to the stores as pieces):
  // every unitig comes to a store from a joining, with its ways on, as in a run.
  void join(std::vector<std::vector<RawPiece>> pieces = {}) {
    JoiningRun joining(k_, cleanings_.size(), random_());
    for (std::size_t store = 0; store < cleanings_.size(); ++store) {
      for (JunctionCleaning::StoredUnitig& held : cleanings_[store].take_unitigs()) {
        joining.store(store).add_piece(std::move(held.bases), held.coverage_sum);
      }
      if (store < pieces.size()) {
        for (RawPiece& piece : pieces[store]) joining.store(store).add_piece(std::move(piece.bases), piece.coverage_sum);
      }
    }
    const std::vector<RawPiece> joined = joining.run();
    for (std::size_t at = 0; at < joined.size(); ++at) {
      if (joining.on_cycle()[at]) {  // to node 0 at once, as a store sends it
        sent_.push_back(joined[at]);
        continue;
      }
      cleanings_[joining.emitted_by()[at]].add(joined[at].bases, joined[at].coverage_sum, joined[at].ways_on);
    }
  }

  std::size_t k_;
  std::mt19937_64 random_;
  std::vector<JunctionCleaning> cleanings_;
  std::vector<Letter> queue_;
  std::vector<RawPiece> sent_;
  std::uint64_t steps_ = 0;
};

struct Totals {
  CleaningReport removed;
  std::uint64_t later_rounds = 0;           // cleanings that went on past their first round
  std::uint64_t cycles_left = 0;            // cycles that cleaning freed of their branches
  std::uint64_t palindromic_junctions = 0;  // unitig ends at a junction its own reverse complement
  std::uint64_t palindromic_kmers = 0;      // k-mers their own reverse complement
  std::uint64_t rounds = 0;
  std::uint64_t steps = 0;
};

std::uint64_t cycles(const std::vector<Unitig>& unitigs) {
  const auto circular = [](const Unitig& unitig) { return unitig.circular; };
  return static_cast<std::uint64_t>(std::count_if(unitigs.begin(), unitigs.end(), circular));
}

// One graph cleaned both ways over 1, 2, 3 and 8 stores.
void clean_both_ways(std::size_t k, const std::vector<Unitig>& unitigs, const CleaningSettings& settings,
                     std::uint64_t threshold, std::uint64_t seed, Totals& totals) {
  UnitigGraph reference(static_cast<int>(k));
  for (const Unitig& unitig : unitigs) reference.add(unitig.bases, unitig.coverage_sum, unitig.circular);
  const CleaningReport expected = reference.clean(settings, threshold);
  const Listed expected_unitigs = listed(reference);
  totals.removed.weak_branches_removed += expected.weak_branches_removed;
  totals.removed.tips_removed += expected.tips_removed;
  totals.removed.bubbles_popped += expected.bubbles_popped;
  totals.later_rounds += expected.rounds > 1 ? 1 : 0;
  totals.cycles_left += cycles(reference.unitigs()) - cycles(unitigs);
  for (const std::size_t stores : {1u, 2u, 3u, 8u}) {
    SCOPED_TRACE("k " + std::to_string(k) + ", seed " + std::to_string(seed) + ", threshold " +
                 std::to_string(threshold) + ", rounds " + std::to_string(settings.rounds) + ", " +
                 std::to_string(stores) + " stores");
    std::mt19937_64 random(seed * 1000 + threshold * 10 + stores);
    CleaningRun run(k, stores, random());
    std::vector<std::vector<RawPiece>> pieces(stores);
    for (const Unitig& unitig : unitigs) {
      if (!unitig.circular) pieces[random() % stores].push_back({unitig.bases, unitig.coverage_sum});  // cycles stay on node 0
    }
    const CleaningReport report = run.run(settings, threshold, std::move(pieces));
    EXPECT_EQ(report.weak_branches_removed, expected.weak_branches_removed);
    EXPECT_EQ(report.tips_removed, expected.tips_removed);
    EXPECT_EQ(report.bubbles_popped, expected.bubbles_popped);
    EXPECT_EQ(report.rounds, expected.rounds);
    EXPECT_LE(run.steps(), 3 * report.rounds);
    totals.rounds += report.rounds;
    totals.steps += run.steps();
    // Node 0 compacts what the stores send: the pieces of cycles (sent by the joinings) join, and the cycles
    // they never held go in as they were.
    UnitigGraph cleaned(static_cast<int>(k));
    std::set<std::string> held;
    for (std::size_t store = 0; store < stores; ++store) {
      for (const JunctionCleaning::StoredUnitig& unitig : run.store(store).unitigs()) {
        cleaned.add(unitig.bases, unitig.coverage_sum, false);
        held.insert(canonical(unitig.bases));
      }
    }
    for (const Unitig& unitig : unitigs) {
      if (unitig.circular) cleaned.add(unitig.bases, unitig.coverage_sum, true);
    }
    for (const RawPiece& piece : run.sent()) cleaned.add(piece.bases, piece.coverage_sum, false);
    cleaned.compact();
    EXPECT_EQ(listed(cleaned), expected_unitigs);
    // The stores joined all the rest themselves: every unitig on no cycle is held whole.
    for (const auto& [bases, coverage_sum, circular] : expected_unitigs) {
      if (!circular) {
        EXPECT_EQ(held.count(bases), 1u) << bases << " not held whole";
      }
    }
  }
}

TEST(JunctionCleaning, MakesTheSerialCleaningsDecisionsWhereverTheUnitigsAndMessagesGo) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "one thread only: nothing for ThreadSanitizer";
  CleaningSettings one_round;
  one_round.rounds = 1;
  CleaningSettings no_rounds;
  no_rounds.rounds = 0;
  CleaningSettings long_tips;
  long_tips.tip_length = 80;
  // Threshold 1 leaves weak branches alone (no count is under it): tips and bubbles judged
  // among the errors. Up to 20, the genome's own stretches read 25 times fall under it too.
  const std::vector<std::pair<std::uint64_t, CleaningSettings>> cases = {
      {1, {}}, {2, {}}, {3, {}}, {5, {}}, {12, {}}, {2, one_round}, {2, no_rounds}, {20, long_tips}};
  Totals totals;
  for (const std::size_t k : {21u, 22u}) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      std::mt19937_64 random(seed * 10 + k);
      const std::vector<Unitig> unitigs = graph_from_reads(random, k);
      for (const Unitig& unitig : unitigs) {
        const std::size_t length = k - 1;
        if (palindrome(std::string_view(unitig.bases).substr(0, length)) ||
            palindrome(std::string_view(unitig.bases).substr(unitig.bases.size() - length))) {
          ++totals.palindromic_junctions;
        }
        for (std::size_t at = 0; at + k <= unitig.bases.size(); ++at) {
          if (palindrome(std::string_view(unitig.bases).substr(at, k))) ++totals.palindromic_kmers;
        }
      }
      for (const auto& [threshold, settings] : cases) clean_both_ways(k, unitigs, settings, threshold, seed, totals);
    }
  }
  // Each kind of decision was made, several rounds were taken, cycles were left in pieces on
  // the stores, and junctions and k-mers that read the same both ways were met: the test
  // cannot pass for want of anything to clean.
  EXPECT_GT(totals.removed.weak_branches_removed, 0u);
  EXPECT_GT(totals.removed.tips_removed, 0u);
  EXPECT_GT(totals.removed.bubbles_popped, 0u);
  EXPECT_GT(totals.later_rounds, 0u);
  EXPECT_GT(totals.cycles_left, 0u);
  EXPECT_GT(totals.palindromic_junctions, 0u);
  EXPECT_GT(totals.palindromic_kmers, 0u);
  // Steps that judged several kinds at once, where the first removed nothing, saved steps.
  EXPECT_LT(totals.steps, 3 * totals.rounds);
}

// The rounds apply the first kind a step found anything to remove, and judge the kinds after
// it next; a round ends after bubbles or when nothing from its step on removes anything.
TEST(CleaningRounds, AppliesTheFirstKindThatRemovesAndJudgesTheRestNext) {
  using Next = CleaningRounds::Next;
  CleaningRounds idle(2);
  ASSERT_EQ(idle.start(), Next::step);
  EXPECT_EQ(idle.step_done({0, 0, 0}), Next::finished) << "a round that removed nothing is the last";
  EXPECT_EQ(idle.report().rounds, 1);
  EXPECT_EQ(CleaningRounds(0).start(), Next::finished);

  CleaningRounds rounds(2);
  ASSERT_EQ(rounds.start(), Next::step);
  EXPECT_EQ(rounds.step(), Step::weak_branches);
  ASSERT_EQ(rounds.step_done({5, 3, 1}), Next::join);
  EXPECT_EQ(rounds.applied(), Step::weak_branches);
  ASSERT_EQ(rounds.joined(), Next::step);
  EXPECT_EQ(rounds.step(), Step::tips);
  ASSERT_EQ(rounds.step_done({9, 0, 2}), Next::join) << "weak branches are not judged again this round";
  EXPECT_EQ(rounds.applied(), Step::bubbles);
  ASSERT_EQ(rounds.joined(), Next::step) << "after bubbles, the next round";
  EXPECT_EQ(rounds.step(), Step::weak_branches);
  EXPECT_EQ(rounds.report().rounds, 2);
  ASSERT_EQ(rounds.step_done({0, 1, 4}), Next::join);
  EXPECT_EQ(rounds.applied(), Step::tips);
  ASSERT_EQ(rounds.joined(), Next::step);
  EXPECT_EQ(rounds.step(), Step::bubbles);
  EXPECT_EQ(rounds.step_done({0, 0, 0}), Next::finished) << "the rounds ran out";
  EXPECT_EQ(rounds.report().weak_branches_removed, 5u);
  EXPECT_EQ(rounds.report().tips_removed, 1u);
  EXPECT_EQ(rounds.report().bubbles_popped, 2u);
  EXPECT_EQ(rounds.report().rounds, 2);

  CleaningRounds one(1);
  ASSERT_EQ(one.start(), Next::step);
  ASSERT_EQ(one.step_done({0, 0, 3}), Next::join);
  EXPECT_EQ(one.joined(), Next::finished) << "one round, over after its bubbles";
}

TEST(JunctionCleaning, RefusesMessagesThatDoNotFitAndStepsOutOfOrder) {
  constexpr int k = 21;
  const JunctionCleaning::Rules rules{2, 52, 105};
  EXPECT_THROW(JunctionCleaning(k, 2, 2), std::invalid_argument);
  EXPECT_THROW(JunctionCleaning(1, 1, 0), std::invalid_argument);
  std::mt19937_64 random(3);
  JunctionCleaning cleaning(k, 2, 0);
  EXPECT_THROW(cleaning.add("ACGT", 1, {}), std::invalid_argument);
  // Enough unitigs that store 1 owns some of their ends (all 20 on store 0: one time in 2^20).
  for (int unitig = 0; unitig < 10; ++unitig) cleaning.add(random_bases(random, 40 + random() % 40), 100, {});
  EXPECT_THROW(cleaning.verdicts(), std::logic_error) << "outside a step";
  EXPECT_THROW(cleaning.verdicts_arrived({}), std::logic_error) << "outside a step";

  JunctionCleaning::Messages reports = cleaning.begin(Step::weak_branches, rules);
  ASSERT_EQ(reports.size(), 2u);
  ASSERT_FALSE(reports[1].empty());
  EXPECT_THROW(cleaning.begin(Step::weak_branches, rules), std::logic_error) << "a step begun twice";
  EXPECT_THROW(cleaning.add(random_bases(random, 30), 1, {}), std::logic_error) << "added during a step";
  EXPECT_THROW(cleaning.take_unitigs(), std::logic_error) << "taken during a step";
  EXPECT_THROW(cleaning.reports_arrived(reports[1]), std::invalid_argument) << "ends store 1 owns";
  std::vector<std::byte> header;
  put_varint(header, static_cast<std::uint64_t>(Step::tips));
  put_varint(header, 1);
  EXPECT_THROW(cleaning.reports_arrived(header), std::invalid_argument) << "a record of another step";
  header.clear();
  put_varint(header, 9);
  put_varint(header, 1);
  EXPECT_THROW(cleaning.reports_arrived(header), std::invalid_argument) << "a step out of range";
  header.clear();
  put_varint(header, static_cast<std::uint64_t>(Step::weak_branches));
  put_varint(header, 2);
  EXPECT_THROW(cleaning.reports_arrived(header), std::invalid_argument) << "a store outside the stores";
  const std::vector<std::byte> cut(reports[0].begin(), reports[0].end() - 1);
  JunctionCleaning beside(k, 2, 0);  // a store of its own: the records before the cut stay in it
  EXPECT_THROW(beside.reports_arrived(cut), std::invalid_argument);

  EXPECT_FALSE(cleaning.reports_arrived(reports[0]));
  EXPECT_THROW(cleaning.verdicts(), std::logic_error) << "before every store's records";
  EXPECT_TRUE(cleaning.reports_arrived({}));  // store 1 holds nothing of this step
  const JunctionCleaning::Messages verdicts = cleaning.verdicts();
  ASSERT_EQ(verdicts.size(), 2u);
  // A verdict message: the sender's counts of each kind given, then this store's verdicts.
  const auto verdict_message = [](std::array<std::uint64_t, 3> given, std::vector<std::uint64_t> marks) {
    std::vector<std::byte> message;
    for (const std::uint64_t count : given) put_varint(message, count);
    for (const std::uint64_t mark : marks) put_varint(message, mark);
    return message;
  };
  EXPECT_THROW(cleaning.verdicts_arrived(verdict_message({0, 0, 0}, {JunctionCleaning::kKinds * 10})),
               std::invalid_argument)
      << "a unitig past the ten this store holds";
  EXPECT_THROW(cleaning.verdicts_arrived({}), std::invalid_argument) << "no counts";
  EXPECT_THROW(cleaning.kind_to_remove(), std::logic_error) << "before the verdicts";
  EXPECT_FALSE(cleaning.verdicts_arrived(verdicts[0]));
  EXPECT_TRUE(cleaning.verdicts_arrived(verdict_message({0, 0, 0}, {})));
  EXPECT_FALSE(cleaning.kind_to_remove().has_value());
  for (const Step kind : {Step::weak_branches, Step::tips, Step::bubbles}) {
    EXPECT_EQ(cleaning.removed_in_step(kind), 0u);  // no rival at any junction, no two unitigs between two
  }
  EXPECT_THROW(cleaning.verdicts_arrived({}), std::logic_error) << "verdicts once the step is over";

  // After a step that removed a unitig, what is left must be joined again (it comes back with
  // its ways on) before anything else: no step, no unitig added to the rest.
  JunctionCleaning alone(k, 1, 0);
  const std::string junction = random_bases(random, k - 1);
  alone.add(random_bases(random, 30) + junction, 100 * 31, {false, true});
  alone.add(random_bases(random, 20) + junction, 1, {false, true});  // a weak branch beside it
  EXPECT_TRUE(alone.reports_arrived(alone.begin(Step::weak_branches, rules)[0]));
  EXPECT_TRUE(alone.verdicts_arrived(alone.verdicts()[0]));
  EXPECT_EQ(alone.kind_to_remove(), Step::weak_branches);
  ASSERT_EQ(alone.removed_in_step(Step::weak_branches), 1u);
  EXPECT_EQ(alone.removed_in_step(Step::tips), 1u);  // judged on the same unitigs: a tip too, shorter than 52
  alone.remove_judged(Step::weak_branches);
  EXPECT_THROW(alone.remove_judged(Step::weak_branches), std::logic_error) << "removed twice";
  EXPECT_THROW(alone.begin(Step::tips, rules), std::logic_error) << "a step before the joining";
  EXPECT_THROW(alone.add(random_bases(random, 50), 10, {}), std::logic_error) << "a unitig added before the joining";
  std::vector<JunctionCleaning::StoredUnitig> left = alone.take_unitigs();
  ASSERT_EQ(left.size(), 1u);
  alone.add(std::move(left[0].bases), left[0].coverage_sum, {false, false});
  EXPECT_TRUE(alone.reports_arrived(alone.begin(Step::tips, rules)[0]));
  // Unitig 0 to go as a weak branch, or weak branches counted, in a step that begins with tips.
  EXPECT_THROW(alone.verdicts_arrived(verdict_message({0, 0, 0}, {0})), std::invalid_argument);
  EXPECT_THROW(alone.verdicts_arrived(verdict_message({1, 0, 0}, {})), std::invalid_argument);
  EXPECT_THROW(alone.remove_judged(Step::bubbles), std::logic_error) << "a removal before the verdicts";
  EXPECT_TRUE(alone.verdicts_arrived(alone.verdicts()[0]));
  EXPECT_THROW(alone.remove_judged(Step::weak_branches), std::logic_error) << "a kind the step did not judge";
  EXPECT_NO_THROW(alone.remove_judged(Step::tips));
  JunctionCleaning uncounted(k, 1, 0);
  uncounted.add(random_bases(random, 50), 10, {});
  EXPECT_TRUE(uncounted.reports_arrived(uncounted.begin(Step::weak_branches, rules)[0]));
  EXPECT_THROW(uncounted.verdicts_arrived(verdict_message({0, 0, 0}, {0})), std::logic_error)
      << "a unitig to go that no owner counted";
  JunctionCleaning crowded(k, 1, 0);
  crowded.add(random_bases(random, 50), 10, {});
  EXPECT_TRUE(crowded.reports_arrived(crowded.begin(Step::weak_branches, rules)[0]));
  EXPECT_THROW(crowded.reports_arrived({}), std::logic_error) << "records from more stores than there are";

  // Records that come before a store's own step are of that step: another step's are refused
  // when it judges them, and a key of the length of another step's when they come.
  JunctionCleaning early(k, 2, 0);
  JunctionCleaning sender(k, 2, 1);
  for (int unitig = 0; unitig < 10; ++unitig) sender.add(random_bases(random, 40 + random() % 40), 100, {});
  const JunctionCleaning::Messages tips = sender.begin(Step::tips, rules);
  ASSERT_FALSE(tips[0].empty());
  EXPECT_FALSE(early.reports_arrived(tips[0]));
  EXPECT_TRUE(early.reports_arrived(early.begin(Step::weak_branches, rules)[0]));
  EXPECT_THROW(early.verdicts(), std::logic_error) << "records of another step than its own";
  std::vector<std::byte> long_key;
  put_varint(long_key, static_cast<std::uint64_t>(Step::weak_branches));
  put_varint(long_key, 1);
  for (const std::uint64_t field : {0, 0, 0, 100, 60}) put_varint(long_key, field);  // local, side, flags, sum, length
  put_varint(long_key, 2 * (k - 1));  // a pair of junctions, as bubbles key them
  long_key.resize(long_key.size() + 2 * (k - 1) + k, std::byte{'A'});
  JunctionCleaning owner(k, 1, 0);
  EXPECT_THROW(owner.reports_arrived(long_key), std::invalid_argument) << "an end keyed by a pair of junctions";
  // Flags that the step's first kind does not allow, or that make a bubble's reading an end.
  const auto record_with = [k](Step first, std::uint64_t flags) {
    std::vector<std::byte> record;
    put_varint(record, static_cast<std::uint64_t>(first));
    put_varint(record, 0);
    for (const std::uint64_t field : {std::uint64_t{0}, std::uint64_t{0}, flags, std::uint64_t{100}, std::uint64_t{60}}) {
      put_varint(record, field);
    }
    const std::size_t key = (flags & 8) != 0 ? 2 * (k - 1) : k - 1;
    put_varint(record, key);
    record.resize(record.size() + key + k, std::byte{'A'});
    return record;
  };
  EXPECT_TRUE(JunctionCleaning(k, 1, 0).reports_arrived(record_with(Step::weak_branches, 2)));
  EXPECT_THROW(JunctionCleaning(k, 1, 0).reports_arrived(record_with(Step::tips, 2)), std::invalid_argument)
      << "weak branches judged in a step after them";
  EXPECT_THROW(JunctionCleaning(k, 1, 0).reports_arrived(record_with(Step::bubbles, 4)), std::invalid_argument)
      << "tips judged in a step after them";
  EXPECT_TRUE(JunctionCleaning(k, 1, 0).reports_arrived(record_with(Step::bubbles, 8)));
  EXPECT_THROW(JunctionCleaning(k, 1, 0).reports_arrived(record_with(Step::weak_branches, 9)), std::invalid_argument)
      << "a bubble's reading flagged as an end";
}


// The coordinator's check of the stores' reports, which it settles step by step in order: a
// report of a later step may come before the step under way is settled (a store that went on
// first), but a joining after a step that removed nothing, a report of a step already settled,
// or anything after the cleaning ended is refused with the steps named.
TEST(CleaningStepCheck, RefusesReportsOfSettledStepsAndJoiningsAfterAStepThatRemovedNothing) {
  const auto refused = [](const auto& report, const std::string& names) {
    try {
      report();
    } catch (const std::runtime_error& error) {
      return std::string(error.what()).find(names) != std::string::npos;
    }
    return false;
  };
  CleaningStepCheck check;
  EXPECT_NO_THROW(check.joining_reported(0, "the unitigs joined"));  // the walks' joining
  EXPECT_THROW(check.settled(1, false), std::logic_error) << "step 1 settled before the walks' joining ended";
  check.joined(0);
  EXPECT_TRUE(refused([&] { check.step_reported(1); }, "cleaning step 1 before the cleaning began"));
  EXPECT_TRUE(refused([&] { check.joining_reported(1, "tokens finished"); }, "before the cleaning began"));
  check.began_cleaning();
  EXPECT_TRUE(refused([&] { check.joining_reported(0, "the unitigs joined"); }, "after the walks' pieces were joined"));
  EXPECT_TRUE(refused([&] { check.step_reported(0); }, "after the walks' pieces were joined"));

  // Step 1: its reports, and a store that went on to step 1's joining before the others reported.
  EXPECT_NO_THROW(check.step_reported(1));
  EXPECT_NO_THROW(check.joining_reported(1, "the tokens started"));
  EXPECT_THROW(check.settled(2, false), std::logic_error) << "settled out of order";
  check.settled(1, true);
  EXPECT_NO_THROW(check.joining_reported(1, "the unitigs joined"));
  EXPECT_TRUE(refused([&] { check.step_reported(1); }, "step 1 when step 1 was settled and being joined"));
  EXPECT_NO_THROW(check.step_reported(2)) << "a store that joined first and went on";
  EXPECT_THROW(check.settled(2, false), std::logic_error) << "step 2 settled before step 1's joining ended";
  check.joined(1);
  EXPECT_TRUE(refused([&] { check.joining_reported(1, "the unitigs joined"); }, "when step 1 was settled and joined"));

  // Step 2 removes nothing: no store joins after it; steps 3 and on may be reported already.
  check.settled(2, false);
  EXPECT_TRUE(refused([&] { check.joining_reported(2, "the tokens started"); },
                      "the tokens started of a joining after cleaning step 2 when step 2 was settled with nothing removed"));
  EXPECT_TRUE(refused([&] { check.step_reported(2); }, "cleaning step 2 when step 2 was settled"));
  EXPECT_NO_THROW(check.step_reported(3));
  EXPECT_NO_THROW(check.joining_reported(3, "tokens finished"));
  EXPECT_THROW(check.joined(2), std::logic_error) << "no joining after a step that removed nothing";

  check.settled(3, false);
  check.finished();
  EXPECT_TRUE(refused([&] { check.joining_reported(4, "tokens finished"); }, "after the cleaning ended"));
  EXPECT_TRUE(refused([&] { check.step_reported(4); }, "after the cleaning ended"));
  EXPECT_THROW(check.settled(4, true), std::logic_error);
}
}  // namespace
}  // namespace xenon::genomics
