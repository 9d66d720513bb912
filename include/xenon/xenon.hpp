// SPDX-License-Identifier: BSD-3-Clause
#pragma once

/// \file
/// The public API of the Xenon actor engine: include this one header, as
/// `#include <xenon/xenon.hpp>`. Every header it reaches lies beside it under include/xenon/
/// (what `make install` ships); engine/mailbox.hpp and engine/actor_registry.hpp are there
/// only because Actor's and Engine's inline members need them, and are not part of the API.

/// \namespace xenon
/// Everything Xenon offers: actors (Actor, Message, Payload, Action, ActorName), typed
/// messages (typed_payload, fields, Encoding, TypedDecodeError), the node
/// that runs them (Engine, EngineOptions), and the helpers its programs share (CommandLine,
/// CounterReport, ProgressLine, MonotonicClock, Random, the little-endian byte functions,
/// error_text(), json_quoted(), kCacheLineSize). Programs (genomics/, examples/,
/// performance/) include this header only.

#include "xenon/core/byte_order.hpp"
#include "xenon/core/cache_line.hpp"
#include "xenon/core/clock.hpp"
#include "xenon/core/command_line.hpp"
#include "xenon/core/counter_report.hpp"
#include "xenon/core/error_text.hpp"
#include "xenon/core/json_text.hpp"
#include "xenon/core/progress_line.hpp"
#include "xenon/core/random.hpp"
#include "xenon/core/typed_encoding.hpp"
#include "xenon/core/version.hpp"
#include "xenon/engine/action.hpp"
#include "xenon/engine/actor.hpp"
#include "xenon/engine/actor_name.hpp"
#include "xenon/engine/ask.hpp"
#include "xenon/engine/engine.hpp"
#include "xenon/engine/engine_options.hpp"
#include "xenon/engine/message.hpp"
#include "xenon/engine/migratable_actor.hpp"
#include "xenon/engine/monitor.hpp"
#include "xenon/engine/payload.hpp"
#include "xenon/engine/run_observation.hpp"
#include "xenon/engine/run_phases.hpp"
#include "xenon/engine/spawn_request.hpp"
#include "xenon/engine/timer.hpp"
#include "xenon/engine/typed_payload.hpp"
