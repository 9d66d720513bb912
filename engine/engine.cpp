// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/engine/engine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#include "core/cpu_topology.hpp"
#include "engine/communicator.hpp"
#include "engine/job_failure.hpp"
#include "engine/node_context.hpp"
#include "engine/observation_json.hpp"
#include "engine/run_phases_target.hpp"
#include "engine/run_report.hpp"
#include "engine/trace_file.hpp"
#include "engine/options_agreement.hpp"
#include "engine/thread_budget.hpp"
#include "engine/worker.hpp"
#include "transport/transport.hpp"

namespace xenon {

struct Engine::Rings {
  std::vector<std::unique_ptr<MessageRing>> all;
};

Engine::Engine(EngineOptions options) : Engine(options, make_process_transport()) {}

namespace {

// An output file node 0 will write at the end of the run: refused at once if its folder
// does not exist, rather than after hours of work.
void check_output_path(const char* option, const std::string& path) {
  if (path.empty()) return;
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  std::error_code error;
  if (!folder.empty() && !std::filesystem::is_directory(folder, error)) {
    throw std::invalid_argument(std::string(option) + " " + path + ": the folder " +
                                folder.string() + " does not exist");
  }
}

std::int64_t unix_nanoseconds_now() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Engine::Engine(EngineOptions options, std::unique_ptr<Transport> transport)
    : options_(options), transport_(std::move(transport)) {
  if (options_.threads_per_node < 1 || options_.threads_per_node > ActorName::kMaxWorkers + 1) {
    throw std::invalid_argument("threads per node must be between 1 and " +
                                std::to_string(ActorName::kMaxWorkers + 1));
  }
  node_index_ = transport_->node_index();
  node_count_ = transport_->node_count();
  // Every node first (a node that refused alone would leave the others waiting), then what
  // this machine can hold.
  refuse_mismatched_options(*transport_, options_);
  check_thread_budget(options_.threads_per_node, options_.worker_count());
  if (options_.pin || options_.verbose) topology_ = std::make_unique<CpuTopology>();
  if (node_index_ == 0) {
    check_output_path("--trace", options_.trace_path);
    check_output_path("--report", options_.report_path);
  }

  const int workers = options_.worker_count();
  context_ = std::make_unique<NodeContext>(static_cast<std::uint32_t>(node_index_),
                                           static_cast<std::uint32_t>(node_count_), workers,
                                           registry_);
  context_->set_balancing(options_.balance);
  context_->set_measuring_busy_cpu(options_.measure_busy_cpu);
  for (int w = 0; w < workers; ++w) {
    workers_.push_back(std::make_unique<Worker>(*context_, w));
    if (!options_.trace_path.empty()) workers_.back()->keep_spans();
    context_->add_worker(w, worker(w), worker(w).parker());
  }
  communicator_ = std::make_unique<Communicator>(
      *context_, *transport_, static_cast<std::size_t>(options_.aggregation_bytes),
      std::chrono::seconds(options_.heartbeat_timeout_seconds));
  // Rings between every ordered pair of workers, and both ways between each worker and the
  // communicator (whose "worker" slot is index `workers`).
  rings_ = std::make_unique<Rings>();
  const auto make_ring = [this, workers] {
    rings_->all.push_back(std::make_unique<MessageRing>(ring_capacity(workers)));
    return rings_->all.back().get();
  };
  Parker& communicator_parker =
      options_.has_communication_thread() ? communicator_->parker() : worker(0).parker();
  for (int producer = 0; producer < workers; ++producer) {
    for (int consumer = 0; consumer < workers; ++consumer) {
      if (producer == consumer) continue;
      MessageRing* ring = make_ring();
      worker(producer).connect_outbound(consumer, ring, &worker(consumer).parker());
      worker(consumer).add_inbound(ring);
    }
    MessageRing* to_communicator = make_ring();
    worker(producer).connect_outbound(workers, to_communicator, &communicator_parker);
    communicator_->add_inbound(to_communicator);
    MessageRing* from_communicator = make_ring();
    communicator_->connect_outbound(producer, from_communicator, &worker(producer).parker());
    worker(producer).add_inbound(from_communicator);
  }
  context_->set_communicator_parker(communicator_parker);
  // With one thread per node, the only worker drives the communicator between its rounds.
  if (!options_.has_communication_thread()) {
    worker(0).drive_communicator(communicator_.get());
    communicator_->set_driving_worker(&worker(0));
  }
}

Engine::~Engine() = default;

ActorName Engine::place(std::unique_ptr<Actor> actor, int worker_index) {
  if (ran_) throw std::logic_error("Engine::spawn after run(): spawn from an actor instead");
  const ActorName name = context_->place(*actor, worker_index, ActorName::none(), "spawn_on");
  worker(worker_index).adopt(actor.release());  // before the threads run: directly
  return name;
}

void Engine::send(ActorName to, Action action, Payload payload) {
  if (ran_) throw std::logic_error("Engine::send after run(): send from an actor instead");
  if (to.node() != static_cast<std::uint32_t>(node_index_) ||
      to.worker() >= static_cast<std::uint32_t>(worker_count())) {
    throw std::out_of_range("Engine::send: no actor of this node is named like that");
  }
  worker(static_cast<int>(to.worker())).send(ActorName::none(), to, action, payload.release_slot());
}

void Engine::run() {
  if (ran_) throw std::logic_error("Engine::run may be called once");
  ran_ = true;
  if (options_.verbose && topology_ != nullptr) {
    std::fprintf(stderr, "xenon: node %d of %d (%s): %d worker(s)%s; topology: %s\n",
                 node_index_, node_count_, transport_->describe().c_str(), worker_count(),
                 options_.has_communication_thread() ? " + 1 communication thread" : "",
                 topology_->describe().c_str());
  }
  // The threads have not started: the count is this thread's own.
  if (context_->live_actors() == 0) {
    if (node_count_ == 1) {  // nothing can ever happen
      gather_observations();  // an empty run's report is still asked for
      return;
    }
    context_->request_termination_check();  // tell node 0 we are idle from the start
  }

  start_busy_timelines();
  const RunningPhases running_phases(context_->phases());  // begin_run_phase() marks here
  std::vector<std::thread> threads;
  const int thread_count = worker_count() + (options_.has_communication_thread() ? 1 : 0);
  // Reserved first: a thread that fails to start must not leave a growing vector to move
  // (and destroy) running threads.
  threads.reserve(static_cast<std::size_t>(thread_count));
  try {
    for (int w = 1; w < worker_count(); ++w) threads.emplace_back([this, w] { run_worker(w); });
    if (options_.has_communication_thread()) threads.emplace_back([this] { run_communication(); });
  } catch (const std::system_error& error) {
    // The threads already started stop (fail() shuts the node down); never terminate with
    // joinable threads.
    fail(std::make_exception_ptr(std::runtime_error(
        "cannot start thread " + std::to_string(threads.size() + 2) + " of " +
        std::to_string(thread_count) + " (-threads-per-node " +
        std::to_string(options_.threads_per_node) + "): " + error.what() +
        "; the limit on processes per user (ulimit -u) may be too low")));
  }
  if (threads.size() + 1 == static_cast<std::size_t>(thread_count)) run_worker(0);
  for (std::thread& thread : threads) thread.join();

  // Every thread has joined: whatever is still in a ring or an overflow queue was sent to an
  // actor that had stopped. Count it, free it, and say so. Closing the transport is
  // collective: it returns once every node got there.
  for (auto& w : workers_) w->publish_after_stop();
  if (!failure_) {
    try {
      communicator_->close();
    } catch (...) {
      fail(std::current_exception());
    }
  }
  // Across processes a failed node cannot take part in the collective close: it says why
  // and ends the job, or every node would wait for it.
  if (failure_ && node_count_ > 1) end_job_after_failure(*transport_, failure_);
  for (auto& w : workers_) w->discard_in_flight();
  if (failure_) std::rethrow_exception(failure_);
  gather_observations();
  const EngineStatistics totals = statistics();
  if (totals.dead_letters > 0) {
    std::fprintf(stderr,
                 "xenon: warning: %llu message(s) were sent to actors that had stopped or never "
                 "existed (dead letters)\n",
                 static_cast<unsigned long long>(totals.dead_letters));
  }
}

// Bucket 0 of every worker's busy timeline begins at the last multiple of the bucket width
// in Unix time, so the buckets of all nodes line up (see BusyTimeline).
void Engine::start_busy_timelines() {
  using std::chrono::duration_cast;
  using std::chrono::nanoseconds;
  const auto now_unix =
      duration_cast<nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  const MonotonicClock::time_point now = MonotonicClock::now();
  const std::int64_t width = BusyTimeline::kBucketWidth.count();
  const std::int64_t into_bucket = now_unix % width;
  busy_timeline_start_unix_nanoseconds_ = now_unix - into_bucket;
  const auto origin = now - duration_cast<MonotonicClock::duration>(nanoseconds(into_bucket));
  for (auto& w : workers_) w->start_busy_timeline(origin);
}

// Collective, after the transport closed: node 0 gathers what every node sent every node
// (EngineStatistics::node_matrix) and, with --trace or --report, every node's events and
// statistics, and writes the files. Every node takes part whatever its own options: they
// need not agree on these.
void Engine::gather_observations() {
  const std::int64_t ended = unix_nanoseconds_now();
  const EngineStatistics mine = statistics();
  const std::vector<std::string> traffic = transport_->gather_at_end(encode_traffic(mine.to_nodes));
  for (const std::string& row : traffic) node_matrix_.push_back(decode_traffic(row));

  std::vector<std::vector<std::uint64_t>> worker_buckets;
  std::vector<const SpanRing*> worker_spans;
  for (const auto& w : workers_) {
    worker_buckets.push_back(w->busy_timeline().bucket_nanoseconds());
    worker_spans.push_back(w->spans());
  }
  const std::vector<PhaseLog::Phase> phases = context_->phases().phases(ended);
  NodeObservationInput observation{node_index_, &mine, worker_buckets, phases, ended};
  const std::vector<std::string> observations =
      transport_->gather_at_end(node_observation_json(observation));
  std::string events;
  if (!options_.trace_path.empty()) {
    events = node_trace_events({node_index_, mine.busy_timeline_start_unix_nanoseconds,
                                mine.busy_timeline_bucket_nanoseconds, worker_spans,
                                worker_buckets, phases});
  }
  const std::vector<std::string> node_events = transport_->gather_at_end(events);
  if (node_index_ != 0) return;
  if (!options_.trace_path.empty()) write_trace_file(options_.trace_path, node_events);
  if (!options_.report_path.empty()) write_run_report(options_.report_path, observations);
}

void Engine::pin_thread(const char* role, int slot) {
  if (!options_.pin || topology_ == nullptr) {
    if (options_.verbose) std::fprintf(stderr, "xenon: %s not pinned (the OS places it; -pin pins)\n", role);
    return;
  }
  const int pu = topology_->pin_current_thread(slot);
  if (options_.verbose) {
    if (pu >= 0) {
      std::fprintf(stderr, "xenon: %s pinned to PU %d\n", role, pu);
    } else {
      std::fprintf(stderr, "xenon: %s could not be pinned\n", role);
    }
  }
}

void Engine::run_worker(int index) {
  const std::string role = "worker " + std::to_string(index);
  pin_thread(role.c_str(), index);
  try {
    worker(index).run();
  } catch (...) {
    fail(std::current_exception());
  }
}

void Engine::run_communication() {
  // Pinned, the communication thread shares the last worker's core: it sleeps unless the
  // transport has work.
  pin_thread("communication thread", worker_count());
  try {
    communicator_->run();
  } catch (...) {
    fail(std::current_exception());
  }
}

void Engine::fail(std::exception_ptr failure) noexcept {
  {
    std::lock_guard<std::mutex> lock(failure_mutex_);
    if (!failure_) failure_ = failure;
  }
  context_->request_shutdown();
}

EngineStatistics Engine::statistics() const {
  EngineStatistics totals;
  for (const auto& w : workers_) {
    const WorkerCounters& c = w->counters();
    totals.messages_received += c.messages_received;
    totals.messages_to_other_workers += c.messages_to_other_workers;
    totals.dead_letters += c.dead_letters;
    totals.actors_spawned += c.actors_spawned;
    totals.actors_stopped += c.actors_stopped;
    totals.parks += c.parks;
    totals.held_for_adoption += c.held_for_adoption;
    totals.messages_to_other_nodes += c.messages_to_other_nodes;
    totals.actors_failed += c.actors_failed;
    totals.overflow_peak = std::max(totals.overflow_peak, c.overflow_peak);
    totals.backpressure_waits += c.backpressure_waits;
    totals.pooled_message_nodes += c.pooled_message_nodes;
    totals.timers_fired += c.timers_fired;
    totals.timers_cancelled += c.timers_cancelled;
    totals.late_responses += c.late_responses;
    totals.mailbox_reliefs += c.mailbox_reliefs;
    totals.actors_moved += c.actors_moved_out;
    totals.actors_migrated_out += c.actors_migrated_out;
    totals.actors_migrated_in += c.actors_migrated_in;
    // A worker's timeline added into the node's: its total, its own entry, its buckets.
    const auto add_timeline = [](const BusyTimeline& timeline, std::uint64_t& total,
                                 std::vector<std::uint64_t>& by_worker, std::vector<std::uint64_t>& buckets) {
      total += timeline.total_nanoseconds();
      by_worker.push_back(timeline.total_nanoseconds());
      const auto& own = timeline.bucket_nanoseconds();
      if (own.size() > buckets.size()) buckets.resize(own.size(), 0);
      for (std::size_t b = 0; b < own.size(); ++b) buckets[b] += own[b];
    };
    add_timeline(w->busy_timeline(), totals.busy_nanoseconds, totals.worker_busy_nanoseconds,
                 totals.busy_timeline_nanoseconds);
    add_timeline(w->busy_cpu_timeline(), totals.busy_cpu_nanoseconds, totals.worker_busy_cpu_nanoseconds,
                 totals.busy_cpu_timeline_nanoseconds);
  }
  totals.busy_timeline_start_unix_nanoseconds = busy_timeline_start_unix_nanoseconds_;
  totals.busy_timeline_bucket_nanoseconds =
      static_cast<std::uint64_t>(BusyTimeline::kBucketWidth.count());
  totals.bytes_to_other_nodes = communicator_->bytes_sent();
  totals.dead_letters += communicator_->dead_letters();
  totals.frames_sent = communicator_->frames_sent();
  totals.frames_received = communicator_->frames_received();
  for (const auto& w : workers_) {
    totals.workers.push_back(w->observation());
    totals.receive_time.merge(totals.workers.back().receive_time);
    totals.queue_time.merge(totals.workers.back().queue_time);
    for (ActorTypeObservation& type : w->actor_types()) {
      auto known = std::find_if(totals.actor_types.begin(), totals.actor_types.end(),
                                [&](const ActorTypeObservation& t) { return t.type == type.type; });
      if (known == totals.actor_types.end()) {
        totals.actor_types.push_back(std::move(type));
        continue;
      }
      known->actors += type.actors;
      known->messages_handled += type.messages_handled;
      known->mailbox_high_water = std::max(known->mailbox_high_water, type.mailbox_high_water);
    }
  }
  totals.to_nodes = communicator_->traffic_to_nodes();
  totals.node_matrix = node_matrix_;
  return totals;
}

}  // namespace xenon
