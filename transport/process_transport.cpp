// SPDX-License-Identifier: BSD-3-Clause
#include <cstdlib>
#include <stdexcept>

#include "transport/loopback_transport.hpp"
#include "transport/transport.hpp"

#if XENON_WITH_MPI
#include "transport/mpi/mpi_transport.hpp"
#endif

namespace xenon {
namespace {

// Set by mpiexec / mpirun (Open MPI, PMIx, MPICH's PMI) in every process it launches.
// Read once, while the engine is being built and no other thread of ours exists.
bool launched_by_mpi() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"}) {
    if (std::getenv(variable) != nullptr) return true;  // NOLINT(concurrency-mt-unsafe)
  }
  return false;
}

}  // namespace

std::unique_ptr<Transport> make_process_transport() {
  if (launched_by_mpi()) {
#if XENON_WITH_MPI
    return std::make_unique<MpiTransport>();
#else
    throw std::runtime_error(
        "launched by mpiexec, but this build has no MPI (built with CONFIG_MPI=n): each "
        "process would run alone; rebuild with MPI or run without mpiexec");
#endif
  }
  return std::make_unique<LoopbackTransport>();
}

}  // namespace xenon
