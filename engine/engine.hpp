#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/cache_line.hpp"
#include "core/parker.hpp"
#include "core/spsc_ring.hpp"
#include "engine/actor.hpp"
#include "engine/actor_registry.hpp"
#include "engine/engine_options.hpp"

namespace xenon {

class Transport;
class Worker;
class CpuTopology;
class Communicator;

struct EngineStatistics {
  std::uint64_t messages_received = 0;
  std::uint64_t messages_to_other_workers = 0;
  std::uint64_t dead_letters = 0;
  std::uint64_t actors_spawned = 0;
  std::uint64_t actors_stopped = 0;
  std::uint64_t parks = 0;
  std::uint64_t held_for_adoption = 0;  // messages that overtook a newly spawned actor
  std::uint64_t messages_to_other_nodes = 0;
  std::uint64_t frames_sent = 0;
  std::uint64_t frames_received = 0;
  std::uint64_t actors_failed = 0;         // stopped by an exception escaping receive()
  std::uint64_t overflow_peak = 0;         // most messages one sender had waiting for a ring
  std::uint64_t backpressure_waits = 0;    // times a sender waited for its consumer
  std::uint64_t pooled_message_nodes = 0;  // mailbox nodes allocated, all workers
};

// One node of the runtime: its workers, the rings between them, its communicator and the
// transport to the other nodes.
//
//   xenon::Engine engine(options);
//   engine.spawn<Root>(args...);   // before run()
//   engine.run();                  // returns when no actor is alive on any node
//
// Launched by mpiexec (and built with MPI), each process is one node and they form one
// runtime; otherwise the process is the only node. run() may be called once; it uses the
// calling thread as worker 0. If an actor's receive() throws, the engine stops every
// worker and run() rethrows the first exception.
class Engine {
 public:
  explicit Engine(EngineOptions options = {});
  Engine(EngineOptions options, std::unique_ptr<Transport> transport);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  int node_index() const noexcept { return node_index_; }
  int node_count() const noexcept { return node_count_; }
  int worker_count() const noexcept { return options_.worker_count(); }
  const EngineOptions& options() const noexcept { return options_; }

  // Before run(): places an actor on a worker of this node. Its supervisor is none().
  template <class T, class... Args>
  ActorName spawn_on(int worker, Args&&... args) {
    static_assert(std::is_base_of_v<Actor, T>, "spawned types derive from xenon::Actor");
    return place(std::make_unique<T>(std::forward<Args>(args)...), worker);
  }
  template <class T, class... Args>
  ActorName spawn(Args&&... args) {
    return spawn_on<T>(0, std::forward<Args>(args)...);
  }

  // Before run(), on every node: lets actors of any node spawn T here by name with
  // Actor::request_spawn(). T must be constructible from std::span<const std::byte>.
  template <class T>
  void register_actor_type(std::string type) {
    static_assert(std::is_constructible_v<T, std::span<const std::byte>>,
                  "registered actor types are built from their argument bytes");
    registry_.add(std::move(type), [](std::span<const std::byte> arguments) {
      return std::unique_ptr<Actor>(new T(arguments));
    });
  }

  // Before run(): sends a message from outside the actors (source none()), typically the
  // one that starts the program's first actor.
  void send(ActorName to, Action action, Payload payload = {});

  void run();

  // After run(): totals over every worker.
  EngineStatistics statistics() const;

  // ---- Engine internals (workers call these) ----
  Worker& worker(int index) noexcept { return *workers_[static_cast<std::size_t>(index)]; }
  bool shutting_down() const noexcept {
    // Acquire: pairs with the release store in request_shutdown().
    return shutting_down_.load(std::memory_order_acquire);
  }
  void count_spawned_actor() noexcept {
    // Relaxed: the spawner is alive while it spawns, so the count cannot reach zero
    // concurrently; the decrement's acq_rel orders everything that matters.
    live_actors_.fetch_add(1, std::memory_order_relaxed);
  }
  void count_stopped_actor() noexcept;
  std::int64_t live_actors() const noexcept {
    // Acquire: pairs with the acq_rel decrement in count_stopped_actor().
    return live_actors_.load(std::memory_order_acquire);
  }
  void count_spawn_request_sent() noexcept {
    // Relaxed: read only after an acquire of the live count that follows the requester's
    // stop, or by a wave answer that follows it the same way (see communicator.cpp).
    spawn_requests_sent_.fetch_add(1, std::memory_order_relaxed);
  }
  std::uint64_t spawn_requests_sent() const noexcept {
    return spawn_requests_sent_.load(std::memory_order_relaxed);
  }
  const ActorRegistry& registry() const noexcept { return registry_; }
  void fail(std::exception_ptr failure) noexcept;
  void request_shutdown() noexcept;

 private:
  ActorName place(std::unique_ptr<Actor> actor, int worker);
  void run_worker(int index);
  void run_communication();
  void pin_thread(const char* role, int slot);

  EngineOptions options_;
  std::unique_ptr<Transport> transport_;
  int node_index_ = 0;
  int node_count_ = 1;
  std::unique_ptr<CpuTopology> topology_;
  std::vector<std::unique_ptr<Worker>> workers_;
  // One ring per ordered pair of threads among the workers and the communicator.
  std::vector<std::unique_ptr<SpscRing<Message>>> rings_;
  std::unique_ptr<Communicator> communicator_;
  ActorRegistry registry_;
  bool ran_ = false;

  std::mutex failure_mutex_;
  std::exception_ptr failure_;

  // Touched by every worker on spawn and stop, and polled by every loop turn.
  alignas(kCacheLineSize) std::atomic<std::int64_t> live_actors_{0};
  alignas(kCacheLineSize) std::atomic<bool> shutting_down_{false};
  alignas(kCacheLineSize) std::atomic<std::uint64_t> spawn_requests_sent_{0};
};

}  // namespace xenon
