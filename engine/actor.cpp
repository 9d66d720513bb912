// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/engine/actor.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <typeinfo>

#include "engine/worker.hpp"

namespace xenon {

void Actor::send_slot(ActorName to, Action action, const PayloadSlot& payload) {
  worker_->send(name_, to, action, payload);
}

ActorName Actor::spawn_child(std::unique_ptr<Actor> child, int worker, bool may_move) {
  if (may_move) child->may_move_ = true;
  return worker_->spawn(std::move(child), name_, worker);
}

int Actor::worker_index() const noexcept { return worker_->index(); }
void Actor::hand_on_sent_messages() { worker_->hand_on_sent_messages(); }

std::uint64_t Actor::request_spawn(int node, int worker, std::string_view type,
                                   Payload arguments) {
  return worker_->request_spawn(name_, node, worker, type, std::move(arguments));
}

void Actor::stop(std::string_view reason) {
  stop();
  worker_->set_stop_reason(reason);
}

void Actor::begin_phase(std::string_view name) { worker_->node().phases().begin(name); }
void Actor::end_phase() { worker_->node().phases().end(); }

std::string Actor::type_name() const {
  const char* mangled = typeid(*this).name();
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
  return status == 0 && demangled != nullptr ? std::string(demangled.get()) : std::string(mangled);
}

void Actor::watch(ActorName actor) { worker_->watch(*this, actor); }
void Actor::unwatch(ActorName actor) { worker_->unwatch(*this, actor); }

int Actor::worker_count() const noexcept { return worker_->node().worker_count(); }
int Actor::node_count() const noexcept { return static_cast<int>(worker_->node().node_count()); }

}  // namespace xenon
