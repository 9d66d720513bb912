#include "engine/engine.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

#include "core/cpu_topology.hpp"
#include "engine/worker.hpp"
#include "transport/loopback_transport.hpp"

namespace xenon {
namespace {

// Slots per worker-to-worker ring (64 bytes each). Enough to keep a batch in flight in
// each direction; a full ring is never an error, the sender keeps the overflow.
std::size_t ring_capacity(int worker_count) { return worker_count <= 16 ? 1024 : 256; }

}  // namespace

Engine::Engine(EngineOptions options) : Engine(options, std::make_unique<LoopbackTransport>()) {}

Engine::Engine(EngineOptions options, std::unique_ptr<Transport> transport)
    : options_(options), transport_(std::move(transport)) {
  if (options_.threads_per_node < 1 || options_.threads_per_node > ActorName::kMaxWorkers + 1) {
    throw std::invalid_argument("threads per node must be between 1 and " +
                                std::to_string(ActorName::kMaxWorkers + 1));
  }
  node_index_ = transport_->node_index();
  node_count_ = transport_->node_count();
  if (options_.pin || options_.verbose) topology_ = std::make_unique<CpuTopology>();

  const int workers = options_.worker_count();
  for (int w = 0; w < workers; ++w) workers_.push_back(std::make_unique<Worker>(*this, w));
  rings_.resize(static_cast<std::size_t>(workers) * static_cast<std::size_t>(workers));
  for (int producer = 0; producer < workers; ++producer) {
    for (int consumer = 0; consumer < workers; ++consumer) {
      if (producer == consumer) continue;
      auto& ring = rings_[static_cast<std::size_t>(producer * workers + consumer)];
      ring = std::make_unique<SpscRing<Message>>(ring_capacity(workers));
      worker(producer).set_outbound(consumer, ring.get(), &worker(consumer).parker());
      worker(consumer).add_inbound(ring.get());
    }
  }
}

Engine::~Engine() = default;

ActorName Engine::place(std::unique_ptr<Actor> actor, int worker_index) {
  if (ran_) throw std::logic_error("Engine::spawn after run(): spawn from an actor instead");
  if (worker_index < 0 || worker_index >= worker_count()) {
    throw std::out_of_range("spawn_on: worker " + std::to_string(worker_index) +
                            " does not exist (worker count " + std::to_string(worker_count()) +
                            ")");
  }
  Worker& host = worker(worker_index);
  actor->worker_ = &host;
  actor->name_ = ActorName::make(static_cast<std::uint32_t>(node_index_),
                                 static_cast<std::uint32_t>(worker_index), host.reserve_index());
  actor->supervisor_ = ActorName::none();
  count_spawned_actor();
  Actor* raw = actor.release();
  host.adopt(raw);
  return raw->name_;
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
    std::fprintf(stderr, "xenon: node %d of %d: %d worker(s)%s; topology: %s\n", node_index_,
                 node_count_, worker_count(),
                 options_.has_communication_thread() ? " + 1 communication thread" : "",
                 topology_->describe().c_str());
  }
  // Relaxed: run() is on the thread that spawned the initial actors.
  if (live_actors_.load(std::memory_order_relaxed) == 0) return;

  std::vector<std::thread> threads;
  for (int w = 1; w < worker_count(); ++w) threads.emplace_back([this, w] { run_worker(w); });
  if (options_.has_communication_thread()) threads.emplace_back([this] { run_communication(); });
  run_worker(0);
  for (std::thread& thread : threads) thread.join();

  // Every thread has joined: whatever is still in a ring or an overflow queue was sent to an
  // actor that had stopped. Count it, free it, and say so.
  for (auto& w : workers_) w->publish_after_stop();
  for (auto& w : workers_) w->discard_in_flight();
  if (failure_) std::rethrow_exception(failure_);
  const EngineStatistics totals = statistics();
  if (totals.dead_letters > 0) {
    std::fprintf(stderr,
                 "xenon: warning: %llu message(s) were sent to actors that had stopped or never "
                 "existed (dead letters)\n",
                 static_cast<unsigned long long>(totals.dead_letters));
  }
}

void Engine::pin_thread(const char* role, int slot) {
  if (!options_.pin || topology_ == nullptr) return;
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
  // The communication thread shares the last worker's core when pinned: it sleeps unless
  // the transport has work, and a single-node transport never has.
  pin_thread("communication thread", worker_count());
  try {
    IdleBackoff backoff;
    const Transport::FrameHandler reject = [](int source, std::span<const std::byte>) {
      throw std::runtime_error("received a frame from node " + std::to_string(source) +
                               ", but this engine spans one node");
    };
    while (!shutting_down()) {
      if (transport_->poll(reject) > 0) {
        backoff.reset();
        continue;
      }
      switch (backoff.next()) {
        case IdleBackoff::Step::kSpin:
          cpu_relax();
          break;
        case IdleBackoff::Step::kYield:
          std::this_thread::yield();
          break;
        case IdleBackoff::Step::kPark:
          communication_parker_.prepare_to_park();
          if (shutting_down()) {
            communication_parker_.cancel_park();
          } else {
            communication_parker_.park();
          }
          backoff.reset();
          break;
      }
    }
  } catch (...) {
    fail(std::current_exception());
  }
}

void Engine::count_stopped_actor() noexcept {
  // acq_rel: the release half publishes this worker's last actions; the acquire half, in
  // the worker that takes the count to zero, sees every other stop before shutting down.
  if (live_actors_.fetch_sub(1, std::memory_order_acq_rel) == 1) request_shutdown();
}

void Engine::fail(std::exception_ptr failure) noexcept {
  {
    std::lock_guard<std::mutex> lock(failure_mutex_);
    if (!failure_) failure_ = failure;
  }
  request_shutdown();
}

void Engine::request_shutdown() noexcept {
  // Release: pairs with the acquire load in shutting_down().
  shutting_down_.store(true, std::memory_order_release);
  for (auto& w : workers_) w->parker().wake();
  communication_parker_.wake();
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
  }
  return totals;
}

}  // namespace xenon
