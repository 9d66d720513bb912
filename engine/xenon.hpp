#pragma once

// The public API of the Xenon actor engine: include this one header.
#include "core/command_line.hpp"
#include "core/counter_report.hpp"
#include "core/progress_line.hpp"
#include "core/version.hpp"
#include "engine/action.hpp"
#include "engine/actor.hpp"
#include "engine/actor_name.hpp"
#include "engine/engine.hpp"
#include "engine/engine_options.hpp"
#include "engine/message.hpp"
#include "engine/payload.hpp"
#include "engine/spawn_request.hpp"
