// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "xenon/engine/actor.hpp"
#include "xenon/engine/actor_registry.hpp"
#include "xenon/engine/engine_options.hpp"
#include "xenon/engine/run_observation.hpp"

namespace xenon {

class Transport;
class Worker;
class CpuTopology;
class Communicator;
class NodeContext;

/// Counters of one node's run (Engine::statistics()), summed over its workers and its
/// communicator.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
struct EngineStatistics {
  std::uint64_t messages_received = 0;          ///< messages handed to an actor's receive()
  std::uint64_t messages_to_other_workers = 0;  ///< messages sent to another worker of this node
  std::uint64_t dead_letters = 0;    ///< messages to stopped or never-spawned actors, not delivered
  std::uint64_t actors_spawned = 0;  ///< actors that began to live on this node's workers
  std::uint64_t actors_stopped = 0;  ///< actors that stopped (by stop() or a failure)
  std::uint64_t parks = 0;           ///< times an idle worker went to sleep
  std::uint64_t held_for_adoption = 0;        ///< messages that overtook a newly spawned actor
  std::uint64_t messages_to_other_nodes = 0;  ///< messages sent to an actor on another node
  std::uint64_t frames_sent = 0;              ///< frames (batches of messages) sent to other nodes
  std::uint64_t frames_received = 0;          ///< frames received from other nodes
  std::uint64_t actors_failed = 0;            ///< stopped by an exception escaping receive()
  std::uint64_t overflow_peak = 0;            ///< most messages one sender had waiting for a ring
  std::uint64_t backpressure_waits = 0;       ///< times a sender waited for its consumer
  std::uint64_t pooled_message_nodes = 0;     ///< mailbox nodes allocated, all workers
  std::uint64_t mailbox_reliefs = 0;  ///< times send() ran its worker's actors first (backpressure)
  std::uint64_t bytes_to_other_nodes = 0;  ///< bytes of frames and large payloads sent to other nodes
  std::uint64_t timers_fired = 0;      ///< timer messages sent, and asks that timed out
  std::uint64_t timers_cancelled = 0;  ///< timers (asks' timeouts included) ended by a stop or the run's end
  std::uint64_t late_responses = 0;    ///< responses to asks already answered, timed out or stopped
  std::uint64_t actors_moved = 0;      ///< ready actors a busy worker handed to an idle one (load balancing)
  std::uint64_t actors_migrated_out = 0;  ///< actors that left this node (MigratableActor::migrate)
  std::uint64_t actors_migrated_in = 0;   ///< actors that arrived on this node from another

  /// \name Busy time: time workers spent inside actors' receive()
  /// Read once per round of a worker (up to 256 messages), with the steady clock: it is
  /// wall-clock time, so a worker the OS descheduled mid-turn counts as busy meanwhile (the
  /// busy_cpu fields excepted: the threads' CPU time over the same rounds).
  //!@{
  std::uint64_t busy_nanoseconds = 0;                ///< summed over this node's workers
  std::vector<std::uint64_t> worker_busy_nanoseconds;  ///< by worker index
  /// Unix time (ns) at which bucket 0 of busy_timeline_nanoseconds began: a multiple of the
  /// bucket width, so the timelines of nodes on hosts whose clocks agree line up.
  std::int64_t busy_timeline_start_unix_nanoseconds = 0;
  std::uint64_t busy_timeline_bucket_nanoseconds = 0;  ///< width of one bucket (50 ms)
  /// Busy time of all workers per bucket, from bucket 0 to the last busy one; sums to
  /// busy_nanoseconds.
  std::vector<std::uint64_t> busy_timeline_nanoseconds;
  /// CPU time of the workers' threads over the same rounds (EngineOptions::measure_busy_cpu;
  /// 0 without it): what they computed, without the time the OS gave other processes.
  std::uint64_t busy_cpu_nanoseconds = 0;
  std::vector<std::uint64_t> worker_busy_cpu_nanoseconds;  ///< by worker index
  /// The same CPU time per bucket of busy_timeline_nanoseconds (a round's CPU time spread over
  /// the buckets its wall-clock interval crosses); sums to busy_cpu_nanoseconds.
  std::vector<std::uint64_t> busy_cpu_timeline_nanoseconds;
  //!@}

  /// \name Where the time and the messages went (run_observation.hpp)
  //!@{
  std::vector<WorkerObservation> workers;         ///< by worker index
  std::vector<ActorTypeObservation> actor_types;  ///< this node's, in order of first stop
  DurationHistogram receive_time;                 ///< sampled, all workers
  DurationHistogram queue_time;                   ///< send to receive, sampled, all workers
  std::vector<NodePairTraffic> to_nodes;          ///< what this node sent, by node
  /// Node 0, after run(): every node's to_nodes, [from][to]; empty on the other nodes.
  std::vector<std::vector<NodePairTraffic>> node_matrix;
  //!@}
};

/// One node of the runtime: its workers, the rings between them, its communicator and the
/// transport to the other nodes.
///
///     xenon::Engine engine(options);
///     engine.spawn<Root>(args...);   // before run()
///     engine.run();                  // returns when no actor is alive on any node
///
/// Launched by mpiexec (and built with MPI), each process is one node and they form one
/// runtime; otherwise the process is the only node. An exception escaping an actor's
/// receive() stops that actor alone (see Actor::receive()); a failure of the engine itself
/// (transport, malformed frame, a type not registered here) stops every worker, and run()
/// rethrows it; when the runtime spans several processes, the failing one instead prints
/// one line (rank, host, failure) and ends the whole job (MPI_Abort), since the others
/// would wait for it forever.
///
/// \threads Build it, set it up (spawn, send, register_actor_type) and run it on one thread;
/// run() makes that thread worker 0 and starts the others. The accessors node_index(),
/// node_count(), worker_count() and options() never change and may be read from any thread.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
class Engine {
 public:
  /// Lays out this node as `options` says and joins the runtime: under mpiexec (in a build
  /// with MPI) it initialises MPI, which the destructor finalises, so such a process makes
  /// one Engine. Throws std::invalid_argument if `options.threads_per_node` is not between 1 and
  /// 4096, gives more workers than max(64, 8 per core), or rings (which grow with the square
  /// of the workers) larger than a quarter of the memory, or, under mpiexec, differs from
  /// node 0's (as -aggregation-bytes may); std::runtime_error if the transport cannot start (such as under mpiexec in a
  /// build without MPI).
  /// \threads The thread that will call run(). Under mpiexec every process builds its
  /// engine; this may wait for the others (MPI's communicator setup is collective).
  explicit Engine(EngineOptions options = {});
  /// \cond XENON_INTERNAL
  // Tests: an engine on a transport of their own (the transport interface is not installed).
  Engine(EngineOptions options, std::unique_ptr<Transport> transport);
  /// \endcond
  /// Deletes the actors still alive (only if run() failed or never ran) and closes the
  /// transport. \threads The thread that built the engine, after run() (if called) returned.
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// This process's node index, 0 to node_count() - 1 (its MPI rank, else 0).
  int node_index() const noexcept { return node_index_; }
  /// How many nodes (processes) the runtime has: mpiexec's process count, else 1.
  int node_count() const noexcept { return node_count_; }
  /// How many workers this node has (EngineOptions::worker_count()).
  int worker_count() const noexcept { return options_.worker_count(); }
  /// The options this node was built with.
  const EngineOptions& options() const noexcept { return options_; }

  /// \name Spawning the first actors
  //!@{

  /// Before run(): places an actor of type T, built from `args` on this thread, on a worker
  /// of this node (spawn(): worker 0) and returns its name. Its supervisor is none(). Throws
  /// std::logic_error after run(), std::out_of_range if `worker` does not exist.
  /// \threads The thread that will call run(), before it.
  template <class T, class... Args>
  ActorName spawn_on(int worker, Args&&... args) {
    static_assert(std::is_base_of_v<Actor, T>, "spawned types derive from xenon::Actor");
    return place(std::make_unique<T>(std::forward<Args>(args)...), worker);
  }
  template <class T, class... Args>
  ActorName spawn(Args&&... args) {
    return spawn_on<T>(0, std::forward<Args>(args)...);
  }
  //!@}

  /// Before run(), on every node: lets actors of any node spawn T here by name with
  /// Actor::request_spawn(). T must be constructible from std::span<const std::byte> (the
  /// request's arguments). Throws std::invalid_argument if `type` is already registered.
  /// \threads The thread that will call run(), before it.
  template <class T>
  void register_actor_type(std::string type) {
    static_assert(std::is_constructible_v<T, std::span<const std::byte>>,
                  "registered actor types are built from their argument bytes");
    registry_.add(std::move(type), [](std::span<const std::byte> arguments) {
      return std::unique_ptr<Actor>(new T(arguments));
    }, typeid(T));
  }

  /// Before run(): sends a message from outside the actors (source none()), typically the
  /// one that starts the program's first actor. `to` must live on this node
  /// (std::out_of_range otherwise); std::logic_error after run(). Replies to it are dead
  /// letters. \threads The thread that will call run(), before it.
  void send(ActorName to, Action action, Payload payload = {});
  /// Before run(): a timer of the program's own (source none()), as Actor::send_after() and
  /// Actor::send_every() set, that belongs to its target `to`, which must live on this node
  /// (std::out_of_range otherwise): it ends when `to` stops (counted in
  /// EngineStatistics::timers_cancelled), and `to` may cancel it (given the TimerId in a
  /// message). std::logic_error after run().
  /// \threads The thread that will call run(), before it.
  TimerId send_after(TimerDuration delay, ActorName to, Action action, Payload payload = {});
  /// As send_after(), every `period` from one period on; std::invalid_argument unless
  /// `period` is positive. \threads The thread that will call run(), before it.
  TimerId send_every(TimerDuration period, ActorName to, Action action, Payload payload = {});

  /// Runs the actors until none is alive on any node and no spawn request is on its way,
  /// then returns; the calling thread is worker 0 meanwhile. May be called once
  /// (std::logic_error otherwise). Every node must call it: each returns when the whole
  /// runtime has ended. Rethrows a failure of the engine (on several processes: prints
  /// "xenon: rank R of N on HOST failed: WHY" and ends the job with status 1); warns on
  /// stderr if any message was a dead letter.
  /// \threads The thread that built the engine; blocks for the whole run.
  void run();

  /// Totals over this node's workers and communicator (other nodes keep their own).
  /// \threads The thread that calls run(), before or after it (workers write the counters
  /// while it runs).
  EngineStatistics statistics() const;


 private:
  ActorName place(std::unique_ptr<Actor> actor, int worker);
  Worker& worker(int index) noexcept { return *workers_[static_cast<std::size_t>(index)]; }
  void fail(std::exception_ptr failure) noexcept;
  void run_worker(int index);
  void run_communication();
  void pin_thread(const char* role, int slot);
  void start_busy_timelines();
  void gather_observations();

  EngineOptions options_;
  std::unique_ptr<Transport> transport_;
  int node_index_ = 0;
  int node_count_ = 1;
  std::unique_ptr<CpuTopology> topology_;
  ActorRegistry registry_;
  // What the workers and the communicator share, and all they know of the node.
  std::unique_ptr<NodeContext> context_;
  std::vector<std::unique_ptr<Worker>> workers_;
  // One ring per ordered pair of threads among the workers and the communicator (rings are
  // an internal, core/spsc_ring.hpp: defined in engine.cpp).
  struct Rings;
  std::unique_ptr<Rings> rings_;
  std::unique_ptr<Communicator> communicator_;
  bool ran_ = false;
  std::int64_t busy_timeline_start_unix_nanoseconds_ = 0;
  std::vector<std::vector<NodePairTraffic>> node_matrix_;  // node 0, after run()

  std::mutex failure_mutex_;
  std::exception_ptr failure_;
};

}  // namespace xenon
