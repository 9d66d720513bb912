// SPDX-License-Identifier: BSD-3-Clause
// Urgent messages overtaking a queue of normal ones. A dispatcher queues -normal jobs for a
// worker actor on its own worker, then raises -urgent alarms with send_urgent(), all in one
// receive(), so that every message is waiting when the worker actor first runs. It takes
// the alarms first, in the order raised, then the jobs in the order queued. Prints the
// order received and exits 1 unless it is exactly that.
//   build/release/bin/priorities -normal 5 -urgent 2
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>
#include <xenon/xenon.hpp>

namespace {

inline constexpr xenon::Action ACTION_JOB{"priorities.job"};      // payload: job number
inline constexpr xenon::Action ACTION_ALARM{"priorities.alarm"};  // payload: alarm number
inline constexpr xenon::Action ACTION_START{"priorities.start"};

// Messages that may wait for the runner at once: past 64 Ki waiting messages, backpressure
// on one worker runs the runner inside send(), and the jobs it takes then are no longer
// waiting to be overtaken (the order check would rightly fail).
constexpr std::int64_t kMostMessages = 60000;

// One received message, as the log line shows it: "alarm 0", "job 3".
struct Entry {
  bool urgent;
  std::int64_t number;
};

class JobRunner : public xenon::Actor {
 public:
  JobRunner(std::int64_t expected, std::vector<Entry>& received)
      : expected_(expected), received_(received) {}
  void receive(const xenon::Message& message) override {
    received_.push_back({message.action() == ACTION_ALARM, message.payload_as<std::int64_t>()});
    if (static_cast<std::int64_t>(received_.size()) == expected_) stop();
  }

 private:
  std::int64_t expected_;
  std::vector<Entry>& received_;  // read by main() after run() has returned
};

class Dispatcher : public xenon::Actor {
 public:
  Dispatcher(std::int64_t jobs, std::int64_t alarms, std::vector<Entry>& received)
      : jobs_(jobs), alarms_(alarms), received_(received) {}
  void receive(const xenon::Message&) override {
    // On this worker: the runner cannot run before this receive() returns.
    const xenon::ActorName runner = spawn<JobRunner>(jobs_ + alarms_, received_);
    for (std::int64_t job = 0; job < jobs_; ++job) send_value(runner, ACTION_JOB, job);
    for (std::int64_t alarm = 0; alarm < alarms_; ++alarm) {
      send_urgent(runner, ACTION_ALARM, xenon::Payload::of(alarm));
    }
    stop();
  }

 private:
  std::int64_t jobs_;
  std::int64_t alarms_;
  std::vector<Entry>& received_;
};

}  // namespace

int main(int argc, char** argv) {
  xenon::EngineOptions options;
  std::int64_t normal = 5;
  std::int64_t urgent = 2;
  xenon::CommandLine command_line("priorities",
                                  "Urgent messages overtake the normal ones waiting.");
  xenon::add_engine_options(command_line, options);
  command_line.add_integer("normal", &normal, 0, kMostMessages, "jobs queued as normal messages");
  command_line.add_integer("urgent", &urgent, 0, kMostMessages, "alarms then sent as urgent");
  try {
    if (!command_line.parse(argc, argv)) return 0;  // --help or --version
    if (normal + urgent > kMostMessages) {
      throw xenon::CommandLineError("-normal " + std::to_string(normal) + " and -urgent " +
                                    std::to_string(urgent) + " exceed " +
                                    std::to_string(kMostMessages) + " messages together");
    }
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "priorities: error: %s\n", error.what());
    return 2;
  }
  try {  // the engine throws when it cannot start (threads, memory, MPI)
    xenon::Engine engine(options);
    std::vector<Entry> received;
    // Under mpiexec the actors live on node 0; the other nodes have none and wait.
    if (engine.node_index() == 0) {
      engine.send(engine.spawn<Dispatcher>(normal, urgent, received), ACTION_START);
    }
    engine.run();
    if (engine.node_index() != 0) return 0;

    std::string order;
    bool as_expected = static_cast<std::int64_t>(received.size()) == normal + urgent;
    for (std::size_t i = 0; i < received.size(); ++i) {
      const Entry& entry = received[i];
      order += (i == 0 ? "" : ", ") + std::string(entry.urgent ? "alarm " : "job ") +
               std::to_string(entry.number);
      // Alarms 0 .. urgent-1 first, then jobs 0 .. normal-1.
      const auto position = static_cast<std::int64_t>(i);
      const bool expected_urgent = position < urgent;
      const std::int64_t expected_number = expected_urgent ? position : position - urgent;
      as_expected &= entry.urgent == expected_urgent && entry.number == expected_number;
    }
    std::printf("received: %s\n", order.c_str());
    if (!as_expected) {
      std::fprintf(stderr,
                   "priorities: error: expected the %lld alarms in order, then the %lld jobs "
                   "in order\n",
                   static_cast<long long>(urgent), static_cast<long long>(normal));
      return 1;
    }
    std::printf("priorities: %lld urgent message(s) overtook %lld normal one(s); order kept "
                "within each priority\n",
                static_cast<long long>(urgent), static_cast<long long>(normal));
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "priorities: error: %s\n", error.what());
    return 1;
  }
}
