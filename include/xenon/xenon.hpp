// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// In-tree programs include Xenon as installed users do, `#include <xenon/xenon.hpp>` (the
// build adds -Iinclude); `make install` puts engine/xenon.hpp itself in this place.
#include "engine/xenon.hpp"
