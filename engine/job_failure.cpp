// SPDX-License-Identifier: BSD-3-Clause
#include "engine/job_failure.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "transport/transport.hpp"

namespace xenon {

std::string job_failure_line(int node_index, int node_count, std::exception_ptr failure) {
  std::string what = "an unknown exception";
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& error) {
    what = error.what();
  } catch (...) {
  }
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return "xenon: rank " + std::to_string(node_index) + " of " + std::to_string(node_count) +
         " on " + (host[0] != '\0' ? host : "an unnamed host") + " failed: " + what +
         "; ending the job";
}

void end_job_after_failure(Transport& transport, std::exception_ptr failure) noexcept {
  try {
    const std::string line =
        job_failure_line(transport.node_index(), transport.node_count(), failure);
    std::fprintf(stderr, "%s\n", line.c_str());
  } catch (...) {
    std::fprintf(stderr, "xenon: rank %d failed; ending the job\n", transport.node_index());
  }
  std::fflush(stdout);  // what the program printed before stays before the line
  std::fflush(stderr);
  transport.abort(1);
  std::_Exit(1);  // not reached: abort() does not return (the attribute is lost on the virtual call)
}

}  // namespace xenon
