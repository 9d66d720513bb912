// SPDX-License-Identifier: BSD-3-Clause
#pragma once

/// \file
/// The public API of the Xenon actor engine: include this one header, as
/// `#include <xenon/xenon.hpp>`. It reaches a few internal headers as well, which the
/// engine's inline members need; they are installed but are not part of the API.

/// \namespace xenon
/// Everything Xenon offers: actors (Actor, Message, Payload, Action, ActorName), the node
/// that runs them (Engine, EngineOptions), and the helpers its programs share (CommandLine,
/// CounterReport, ProgressLine, MonotonicClock, Random, the little-endian byte functions,
/// error_text(), json_quoted(), kCacheLineSize). Programs (genomics/, examples/,
/// performance/) include this header only.

#include "core/byte_order.hpp"
#include "core/cache_line.hpp"
#include "core/clock.hpp"
#include "core/command_line.hpp"
#include "core/counter_report.hpp"
#include "core/error_text.hpp"
#include "core/json_text.hpp"
#include "core/progress_line.hpp"
#include "core/random.hpp"
#include "core/version.hpp"
#include "engine/action.hpp"
#include "engine/actor.hpp"
#include "engine/actor_name.hpp"
#include "engine/engine.hpp"
#include "engine/engine_options.hpp"
#include "engine/message.hpp"
#include "engine/payload.hpp"
#include "engine/spawn_request.hpp"
