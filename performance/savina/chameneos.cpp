// SPDX-License-Identifier: BSD-3-Clause
// Savina "chameneos": C creatures (default 100) meet in pairs through one mall actor until
// M meetings (default 200,000) have happened. A creature asks the mall for a meeting; the
// mall keeps the first asker waiting and forwards the second one's request to it; the
// waiting creature changes colour and tells its partner, and both ask again. After the
// last meeting the mall answers every request with "exit", and each creature reports how
// many meetings it had. Messages: C + 2M requests, M forwards, M changes, C exits,
// C reports = 4M + 3C. The mall sits on worker 0, the creatures round-robin.
#include <vector>

#include "performance/savina/benchmark.hpp"

namespace xenon::savina {
namespace {

inline constexpr Action ACTION_START{"savina.chameneos.start"};
inline constexpr Action ACTION_HELLO{"savina.chameneos.hello"};
inline constexpr Action ACTION_READY{"savina.chameneos.ready"};
inline constexpr Action ACTION_GO{"savina.chameneos.go"};
inline constexpr Action ACTION_MEET{"savina.chameneos.meet"};      // payload: MeetRequest
inline constexpr Action ACTION_CHANGE{"savina.chameneos.change"};  // payload: colour
inline constexpr Action ACTION_EXIT{"savina.chameneos.exit"};
inline constexpr Action ACTION_MEETING_COUNT{"savina.chameneos.meeting-count"};  // payload: count

enum class Colour : std::uint32_t { kBlue = 0, kRed = 1, kYellow = 2, kFaded = 3 };

// The colour two creatures of colours a and b both take after meeting.
inline Colour complement(Colour a, Colour b) {
  if (a == b) return a;
  return static_cast<Colour>(3 - static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
}

// A request for a meeting; forwarded by the mall, it names the partner.
struct MeetRequest {
  Colour colour;
  ActorName asker;
};

// One creature's totals, written once when it exits; main() reads them after run().
struct CreatureCounts {
  std::uint64_t meetings = 0;
  std::uint64_t messages_received = 0;
};

class Creature final : public Actor {
 public:
  Creature(Colour colour, ActorName mall, CreatureCounts& report)
      : colour_(colour), mall_(mall), report_(report) {}
  void receive(const Message& message) override {
    ++counts_.messages_received;
    const Action action = message.action();
    if (action == ACTION_MEET) {  // forwarded by the mall: we meet request.asker
      const auto request = message.payload_as<MeetRequest>();
      colour_ = complement(colour_, request.colour);
      ++counts_.meetings;
      send_value(request.asker, ACTION_CHANGE, colour_);
      ask_for_meeting();
    } else if (action == ACTION_CHANGE) {
      colour_ = message.payload_as<Colour>();
      ++counts_.meetings;
      ask_for_meeting();
    } else if (action == ACTION_EXIT) {
      colour_ = Colour::kFaded;
      send_value(mall_, ACTION_MEETING_COUNT, counts_.meetings);
      report_ = counts_;
      stop();
    } else if (action == ACTION_GO) {
      --counts_.messages_received;  // control, not part of the benchmark
      ask_for_meeting();
    } else if (action == ACTION_HELLO) {
      --counts_.messages_received;
      reply(message, ACTION_READY);
    }
  }

 private:
  void ask_for_meeting() { send_value(mall_, ACTION_MEET, MeetRequest{colour_, self()}); }

  Colour colour_;
  const ActorName mall_;
  CreatureCounts& report_;
  CreatureCounts counts_;
};

// The mall's totals, written when it stops.
struct MallCounts {
  std::uint64_t meetings = 0;
  std::uint64_t requests = 0;
  std::uint64_t reports = 0;
  std::uint64_t reported_meetings = 0;
};

class Mall final : public Actor {
 public:
  Mall(std::uint64_t meetings, std::vector<CreatureCounts>& creature_counts, MallCounts& report,
       Stopwatch& stopwatch)
      : meetings_left_(meetings), creature_counts_(creature_counts), report_(report),
        stopwatch_(stopwatch) {}
  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_MEET) {
      ++counts_.requests;
      if (meetings_left_ == 0) {
        reply(message, ACTION_EXIT);
      } else if (waiting_.is_none()) {
        waiting_ = message.source();
      } else {
        --meetings_left_;
        ++counts_.meetings;
        send(waiting_, ACTION_MEET, message.share_payload());
        waiting_ = ActorName::none();
      }
    } else if (action == ACTION_MEETING_COUNT) {
      ++counts_.reports;
      counts_.reported_meetings += message.payload_as<std::uint64_t>();
      if (counts_.reports == creatures_.size()) stopwatch_.stop();
    } else if (action == ACTION_START) {
      for (std::size_t i = 0; i < creature_counts_.size(); ++i) {
        creatures_.push_back(spawn_on<Creature>(round_robin_worker(i, worker_count()),
                                                static_cast<Colour>(i % 3), self(),
                                                creature_counts_[i]));
        send(creatures_.back(), ACTION_HELLO);
      }
    } else if (action == ACTION_READY) {
      if (++ready_ == creatures_.size()) {
        stopwatch_.start();
        for (ActorName creature : creatures_) send(creature, ACTION_GO);
      }
    } else if (action == ACTION_CHILD_STOPPED) {
      ++stopped_;
    }
    // Done when every creature has both reported and stopped, in whichever order the two
    // messages came.
    if (!creatures_.empty() && stopped_ == creatures_.size() &&
        counts_.reports == creatures_.size()) {
      report_ = counts_;
      stop();
    }
  }

 private:
  std::uint64_t meetings_left_;
  std::vector<CreatureCounts>& creature_counts_;
  MallCounts& report_;
  Stopwatch& stopwatch_;
  MallCounts counts_;
  std::vector<ActorName> creatures_;
  ActorName waiting_ = ActorName::none();
  std::size_t ready_ = 0;
  std::size_t stopped_ = 0;
};

class Chameneos final : public Benchmark {
 public:
  const char* name() const override { return "chameneos"; }
  const char* summary() const override { return "creatures meeting in pairs through a mall"; }
  void add_options(CommandLine& command_line) override {
    command_line.add_integer("chameneos-creatures", &creatures_, 2, 10'000'000,
                             "chameneos: creatures (Savina: 100)");
    command_line.add_integer("chameneos-meetings", &meetings_, 1, 1'000'000'000'000,
                             "chameneos: meetings (Savina: 200000)");
  }
  Outcome run(const EngineOptions& engine_options) override {
    const auto meetings = static_cast<std::uint64_t>(meetings_);
    const auto creatures = static_cast<std::uint64_t>(creatures_);
    std::vector<CreatureCounts> creature_counts(creatures);
    MallCounts mall;
    Stopwatch stopwatch;
    Engine engine(engine_options);
    engine.send(engine.spawn_on<Mall>(0, meetings, creature_counts, mall, stopwatch),
                ACTION_START);
    engine.run();
    Outcome outcome;
    outcome.seconds = stopwatch.seconds();
    outcome.messages = 4 * meetings + 3 * creatures;
    std::uint64_t creature_meetings = 0, creature_messages = 0;
    for (const CreatureCounts& one : creature_counts) {
      creature_meetings += one.meetings;
      creature_messages += one.messages_received;
    }
    outcome.expect_count("meetings held by the mall", mall.meetings, meetings);
    outcome.expect_count("meetings counted by the creatures", creature_meetings, 2 * meetings);
    outcome.expect_count("meetings reported to the mall", mall.reported_meetings, 2 * meetings);
    outcome.expect_count("meeting requests", mall.requests, creatures + 2 * meetings);
    outcome.expect_count("reports", mall.reports, creatures);
    // Forwards + changes + exits reach the creatures; requests + reports reach the mall.
    outcome.expect_count("messages received", creature_messages + mall.requests + mall.reports,
                         outcome.messages);
    outcome.statistics = engine.statistics();
    return outcome;
  }

 private:
  std::int64_t creatures_ = 100;
  std::int64_t meetings_ = 200'000;
};

}  // namespace

std::unique_ptr<Benchmark> make_chameneos() { return std::make_unique<Chameneos>(); }

}  // namespace xenon::savina
