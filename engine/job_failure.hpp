// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <exception>
#include <string>

namespace xenon {

class Transport;

// The line a node prints when it fails while the runtime spans several processes: it names
// the node, its host and the failure ("xenon: rank 1 of 2 on host-a failed: no actor type
// 'x' is registered").
std::string job_failure_line(int node_index, int node_count, std::exception_ptr failure);

// Prints that line on stderr, flushed, and ends every process of the job through
// transport.abort(1): the other nodes would otherwise wait for this one forever (and this
// one for them in the collective close), with the reason never printed.
[[noreturn]] void end_job_after_failure(Transport& transport, std::exception_ptr failure) noexcept;

}  // namespace xenon
