// SPDX-License-Identifier: BSD-3-Clause
// Load balancing within a node: a busy worker hands whole ready actors, with the messages
// waiting in their mailboxes, to a worker that has been idle; the actor's name keeps its
// home worker, which forwards what arrives for it afterwards.
//
// Why each guarantee holds:
//  - Order per sender/receiver pair, towards the moved actor. Every message to it still
//    reaches its home first (its name says so), in the order each sender sent it. The
//    home stages the actor (in an urgent envelope: no later message in either lane of the
//    ring overtakes it), then the messages of its mailbox, then each later arrival, all
//    into the one ring to the new worker, a FIFO.
//  - Order per pair, from the moved actor. A message it sent before the move may still be
//    in a ring of its home's while one it sends after the move leaves from the new worker
//    through another ring. So the home hands actors over only when every consumer has
//    taken everything the home sent it (OutboundSet::all_taken_by_consumers(): their head
//    stores, release, pair with its acquire loads); the hand-off then travels through a
//    ring (release/acquire), so the new worker's sends come after all of those.
//  - One message at a time: only ready actors move (never one running), and only the
//    worker that owns an actor touches it; the rings carry it between owners.
//  - Exact termination and counts: a move changes no live count; the hand-off is a ring
//    message like any other. A moved actor that stops tells its home (an internal notice),
//    which then counts later messages as dead letters; those it forwarded meanwhile are
//    counted by the new worker. Memory: one table entry per moved actor alive.
//  - Timers, asks and monitors are kept by index in the worker's tables: a moved actor
//    has a fresh index (Actor::slot_) on its new worker, and a worker with any of them
//    pending hands no actor over (their entries would stay behind).
//  - Moved actors do not move again, and only children of Actor::spawn() (or actors that
//    called allow_moving()) move: spawn_on() keeps its meaning.
//
// What it costs: per round, one test of a bool (and a few local counts while idle); per
// turn, one test of a local count, and only while this worker has actors that may move,
// one relaxed load of the node's request count (WorkRequests::any()). An idle worker
// raises its request once per idle spell of 256 rounds or more, and withdraws it when busy.
#include <algorithm>

#include "engine/internal_actions.hpp"
#include "engine/urgent_envelope.hpp"
#include "engine/worker.hpp"

namespace xenon {
namespace {

// Empty rounds in a row before an idle worker asks for actors: as many as it spins before
// it yields (IdleBackoff). A worker between two messages of a ping-pong is idle for a few
// rounds only; this keeps it from asking (and a busy peer from looking) on every message.
constexpr unsigned kIdleRoundsBeforeAsking = 256;
// After an offer that handed nothing over (rings not yet taken, no movable actor ready):
// turns before the next try, doubling up to the longest while offers keep failing, so that
// a long ready queue of pinned actors is not walked per turn.
constexpr unsigned kTurnsBetweenOffers = 16;
constexpr unsigned kLongestTurnsBetweenOffers = 4096;
// Ready actors one offer looks at, at most.
constexpr std::size_t kMostActorsLookedAt = 4096;

}  // namespace

void Worker::note_round_for_balancing(bool busy) noexcept {
  if (!busy) {
    if (++idle_rounds_ == kIdleRoundsBeforeAsking) {
      node_.work_requests().raise(index_);
      asked_for_work_ = true;
    }
    return;
  }
  idle_rounds_ = 0;
  if (asked_for_work_) {  // work came another way: nobody need send us more
    node_.work_requests().take(index_);
    asked_for_work_ = false;
  }
}

bool Worker::may_hand_over(const Actor& actor) const noexcept {
  return actor.may_move_ && actor.name_.worker() == static_cast<std::uint32_t>(index_) &&
         !actor.mailbox_.has_urgent() && !actor.stop_requested_;
}

// Between two turns: shares the ready actors that may move among this worker and the
// workers that asked, round robin, this worker keeping every (takers + 1)-th.
void Worker::offer_actors() {
  offer_backoff_ = std::clamp(offer_backoff_ * 2, kTurnsBetweenOffers, kLongestTurnsBetweenOffers);
  turns_before_offer_ = offer_backoff_;
  if (ready_head_ == nullptr || ready_head_ == ready_tail_) return;  // keep the one we have
  if (!timers_.empty() || !asks_.empty() || !monitors_.empty()) return;
  if (!outbound_.all_taken_by_consumers()) return;
  takers_.clear();
  for (int worker = 0; worker < node_.worker_count(); ++worker) {
    if (worker != index_ && node_.work_requests().take(worker)) takers_.push_back(worker);
  }
  if (takers_.empty()) return;

  std::vector<bool> served(takers_.size(), false);
  bool handed_over = false;
  Actor* rest = ready_head_;
  Actor* const last = ready_tail_;
  ready_head_ = nullptr;
  ready_tail_ = nullptr;
  std::size_t movable = 0;
  for (std::size_t looked = 0; rest != nullptr && looked < kMostActorsLookedAt; ++looked) {
    Actor* actor = rest;
    rest = actor->next_ready_;
    // Movable actors in turn: this worker keeps the first, each taker gets one, and so on.
    const std::size_t share = may_hand_over(*actor) ? movable++ % (takers_.size() + 1) : 0;
    if (share == 0) {
      push_ready(actor);
      continue;
    }
    hand_over(actor, takers_[share - 1]);
    served[share - 1] = true;
    handed_over = true;
  }
  if (rest != nullptr) {  // those not looked at stay, in their order, behind the kept ones
    if (ready_tail_ == nullptr) {
      ready_head_ = rest;
    } else {
      ready_tail_->next_ready_ = rest;
    }
    ready_tail_ = last;
  }
  // A worker we had nothing for may get actors from another busy worker.
  for (std::size_t t = 0; t < takers_.size(); ++t) {
    if (!served[t]) node_.work_requests().raise(takers_[t]);
  }
  if (!handed_over) return;
  outbound_.flush();  // the takers are idle, perhaps parked: wake them now
  turns_before_offer_ = 0;
  offer_backoff_ = 0;
}

void Worker::hand_over(Actor* actor, int taker) {
  const std::uint32_t index = actor->slot_;
  const ActorName name = actor->name_;
  actors_[index] = nullptr;
  --movable_actors_;
  moved_out_.emplace(index, taker);
  ++counters_.actors_moved_out;
  // Its waiting messages follow it, oldest first (none is urgent: may_hand_over()). They
  // are taken out of its mailbox first: once the actor is staged, a full batch may publish
  // it, and from then on its new worker owns it, mailbox and all.
  handed_messages_.clear();
  empty_mailbox(actor, [this](const Message& message) { handed_messages_.push_back(message); });
  const auto channel = static_cast<std::size_t>(taker);
  outbound_.stage(
      channel, name, name, ACTION_URGENT,
      urgent_envelope_payload(Message(name, name, ACTION_MOVE_IN, adopt_payload(actor))));
  // Staged without the backpressure wait, which takes in messages (and could forward one
  // for this actor ahead of these).
  for (const Message& message : handed_messages_) {
    outbound_.stage(channel, message.source(), message.destination(), message.action(),
                    message.payload_slot());
  }
}

// A message for an actor of ours that no longer lives here: on to where it lives, behind
// everything sent there before. Returns false if the actor never moved.
bool Worker::forward_to_moved(const Message& message) {
  const auto moved = moved_out_.find(message.destination().index());
  if (moved == moved_out_.end()) return false;
  if (message.action() == ACTION_MOVED_ACTOR_STOPPED) {
    forget_moved_actor(message);
    return true;
  }
  stage(static_cast<std::size_t>(moved->second), message.source(), message.destination(),
        message.action(), message.payload_slot());
  return true;
}

void Worker::forget_moved_actor(const Message& notice) {
  const std::uint32_t index = notice.destination().index();
  moved_out_.erase(index);
  stopped_[index] = true;
}

// A message whose name names another worker: an actor moved here, or one for it.
MessageNode* Worker::deliver_to_moved_in(const Message& message) {
  if (is_urgent_envelope(message) && enveloped_action(message) == ACTION_MOVE_IN) {
    take_moved_in(adopted_actor(open_urgent_envelope(message)));
    return nullptr;
  }
  const auto moved = moved_in_.find(message.destination().value());
  if (moved == moved_in_.end()) {
    if (!migrated_out_.empty() && forward_to_migrated(message)) return nullptr;  // on to another node
    dead_letter(message);  // it stopped here; its home forwarded this before it knew
    return nullptr;
  }
  ++arrived_in_mailboxes_;
  return enqueue(moved->second, message);
}

// An actor that arrives from another worker or node gets a fresh slot in this worker's
// tables; its name, and so its home, stay as they were. Its messages follow it and
// schedule it.
void Worker::seat_arriving_actor(Actor* actor, std::string_view mechanism) {
  const std::uint32_t slot = node_.reserve_index(index_, mechanism);
  if (slot >= actors_.size()) {
    actors_.resize(slot + 1, nullptr);
    stopped_.resize(slot + 1, false);
  }
  actors_[slot] = actor;
  actor->slot_ = slot;
  actor->worker_ = this;
  actor->scheduled_ = false;
}

void Worker::take_moved_in(Actor* actor) {
  seat_arriving_actor(actor, "load balancing");
  moved_in_.emplace(actor->name_.value(), actor);
  ++counters_.actors_moved_in;
}

}  // namespace xenon
