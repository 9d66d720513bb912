// SPDX-License-Identifier: BSD-3-Clause
// raw_mpi_probe: the same measurements as performance/node_probe, with plain MPI calls
// between ranks 0 and 1 (no actors, no frames): the baseline Xenon is compared with.
// Lives under transport/mpi/ because it is the only place that includes <mpi.h>.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "xenon/core/command_line.hpp"

namespace {

constexpr std::size_t kSizes[] = {0, 8, 64, 512, 4096, 32768, 262144, 1048576, 4194304};
constexpr std::uint64_t kRateMessages = 1'000'000;
constexpr int kRateWindow = 1024;

std::uint64_t round_trips_for(std::size_t size) {
  return std::clamp<std::uint64_t>((64u << 20) / std::max<std::size_t>(size, 1), 50, 5000);
}
std::uint64_t stream_messages_for(std::size_t size) {
  return std::clamp<std::uint64_t>((128u << 20) / std::max<std::size_t>(size, 1), 32, 20000);
}

// Rank 0 sends `messages` of `size` bytes (at most kRateWindow in flight), rank 1 receives
// them and answers with one empty message; returns rank 0's seconds.
double stream(int rank, std::size_t size, std::uint64_t messages, std::vector<char>& buffer) {
  std::vector<MPI_Request> requests(kRateWindow);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (std::uint64_t sent = 0; sent < messages;) {
    const int batch = static_cast<int>(std::min<std::uint64_t>(kRateWindow, messages - sent));
    for (int i = 0; i < batch; ++i) {
      if (rank == 0) {
        MPI_Isend(buffer.data(), static_cast<int>(size), MPI_BYTE, 1, 1, MPI_COMM_WORLD, &requests[i]);
      } else {
        MPI_Irecv(buffer.data(), static_cast<int>(size), MPI_BYTE, 0, 1, MPI_COMM_WORLD, &requests[i]);
      }
    }
    MPI_Waitall(batch, requests.data(), MPI_STATUSES_IGNORE);
    sent += static_cast<std::uint64_t>(batch);
  }
  if (rank == 0) {
    MPI_Recv(nullptr, 0, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(nullptr, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
  }
  return MPI_Wtime() - start;
}

}  // namespace

int main(int argc, char** argv) {
  // No options: --help says what it does, anything else is refused before MPI starts.
  xenon::CommandLine command_line("raw_mpi_probe", "Plain MPI ping-pong and streaming between two ranks, payloads 0 B to 4 MiB: the baseline node_probe is compared with. Run under mpiexec -n 2.");
  try {
    if (!command_line.parse(argc, argv)) return 0;
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "raw_mpi_probe: error: %s\n", error.what());
    return 2;
  }
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) std::fprintf(stderr, "raw_mpi_probe: error: run under mpiexec -n 2\n");
    MPI_Finalize();
    return 2;
  }
  std::vector<char> buffer(4 << 20);
  double one_way_ns[std::size(kSizes)] = {};
  double bandwidth[std::size(kSizes)] = {};
  for (std::size_t i = 0; i < std::size(kSizes); ++i) {
    const int bytes = static_cast<int>(kSizes[i]);
    const std::uint64_t rounds = round_trips_for(kSizes[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (std::uint64_t r = 0; r < rounds; ++r) {
      if (rank == 0) {
        MPI_Send(buffer.data(), bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buffer.data(), bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buffer.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buffer.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
      }
    }
    one_way_ns[i] = (MPI_Wtime() - start) * 1e9 / (2.0 * static_cast<double>(rounds));
    if (kSizes[i] > 0) {
      const std::uint64_t messages = stream_messages_for(kSizes[i]);
      bandwidth[i] = static_cast<double>(messages * kSizes[i]) / stream(rank, kSizes[i], messages, buffer);
    }
  }
  const double rate = static_cast<double>(kRateMessages) / stream(rank, 8, kRateMessages, buffer);
  if (rank == 0) {
    for (std::size_t i = 0; i < std::size(kSizes); ++i) {
      std::printf("PERFORMANCE_COUNTER mpi-one-way-latency-%zu-bytes = %.3f ns\n", kSizes[i],
                  one_way_ns[i]);
    }
    for (std::size_t i = 0; i < std::size(kSizes); ++i) {
      if (kSizes[i] == 0) continue;
      std::printf("PERFORMANCE_COUNTER mpi-stream-bandwidth-%zu-bytes = %.1f MB / s\n", kSizes[i],
                  bandwidth[i] / 1e6);
    }
    std::printf("PERFORMANCE_COUNTER mpi-8-byte-message-rate = %.1f messages / s\n", rate);
  }
  MPI_Finalize();
  return 0;
}
