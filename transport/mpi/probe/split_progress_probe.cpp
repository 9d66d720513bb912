// SPDX-License-Identifier: BSD-3-Clause
// split_progress_probe: does two-way bandwidth between two ranks rise when one thread sends
// and another receives (MPI_THREAD_MULTIPLE), instead of one thread doing both, as split
// completion queues did for IPoIB? Both ranks stream `messages` frames of `bytes` to each
// other at once, at most kWindow in flight per direction, both ways:
//   one-thread: one thread posts sends and receives and tests both (what Xenon does);
//   two-threads: a send thread and a receive thread, each with its own requests.
// Prints the two-way bandwidth of each, median of the repetitions, and their ratio.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "xenon/core/command_line.hpp"

namespace {

constexpr int kWindow = 32;

void stream_sends(int peer, int bytes, int messages, std::vector<char>& buffer) {
  std::vector<MPI_Request> requests(kWindow, MPI_REQUEST_NULL);
  for (int sent = 0; sent < messages; sent += kWindow) {
    const int batch = std::min(kWindow, messages - sent);
    for (int i = 0; i < batch; ++i) {
      MPI_Isend(buffer.data(), bytes, MPI_BYTE, peer, 7, MPI_COMM_WORLD, &requests[i]);
    }
    MPI_Waitall(batch, requests.data(), MPI_STATUSES_IGNORE);
  }
}

void stream_receives(int peer, int bytes, int messages, std::vector<char>& buffer) {
  std::vector<MPI_Request> requests(kWindow, MPI_REQUEST_NULL);
  for (int received = 0; received < messages; received += kWindow) {
    const int batch = std::min(kWindow, messages - received);
    for (int i = 0; i < batch; ++i) {
      MPI_Irecv(buffer.data(), bytes, MPI_BYTE, peer, 7, MPI_COMM_WORLD, &requests[i]);
    }
    MPI_Waitall(batch, requests.data(), MPI_STATUSES_IGNORE);
  }
}

// One thread: each window posts its receives and sends together and completes them all.
void both_in_one_thread(int peer, int bytes, int messages, std::vector<char>& out,
                        std::vector<char>& in) {
  std::vector<MPI_Request> requests(2 * kWindow, MPI_REQUEST_NULL);
  for (int done = 0; done < messages; done += kWindow) {
    const int batch = std::min(kWindow, messages - done);
    for (int i = 0; i < batch; ++i) {
      MPI_Irecv(in.data(), bytes, MPI_BYTE, peer, 7, MPI_COMM_WORLD, &requests[2 * i]);
      MPI_Isend(out.data(), bytes, MPI_BYTE, peer, 7, MPI_COMM_WORLD, &requests[2 * i + 1]);
    }
    MPI_Waitall(2 * batch, requests.data(), MPI_STATUSES_IGNORE);
  }
}

double two_way_bandwidth(bool split, int peer, int bytes, int messages) {
  std::vector<char> out(static_cast<std::size_t>(bytes)), in(static_cast<std::size_t>(bytes));
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  if (split) {
    std::thread receiver([&] { stream_receives(peer, bytes, messages, in); });
    stream_sends(peer, bytes, messages, out);
    receiver.join();
  } else {
    both_in_one_thread(peer, bytes, messages, out, in);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - start;
  return 2.0 * bytes * static_cast<double>(messages) / seconds;  // both directions
}

}  // namespace

int main(int argc, char** argv) {
  // No options: --help says what it does, anything else is refused before MPI starts.
  xenon::CommandLine command_line("split_progress_probe", "Two-way MPI streaming with one progress thread against separate send and receive threads (MPI_THREAD_MULTIPLE). Run under mpiexec -n 2.");
  try {
    if (!command_line.parse(argc, argv)) return 0;
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "split_progress_probe: error: %s\n", error.what());
    return 2;
  }
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2 || provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0) {
      std::fprintf(stderr, "split_progress_probe: error: needs mpiexec -n 2 and "
                           "MPI_THREAD_MULTIPLE\n");
    }
    MPI_Finalize();
    return 2;
  }
  const int peer = 1 - rank;
  const int repetitions = 5;
  for (int bytes : {4096, 65536, 1 << 20}) {
    const int messages = std::max(64, static_cast<int>((256LL << 20) / bytes));
    std::vector<double> one, two;
    for (int r = 0; r < repetitions; ++r) {  // interleaved, so drift hits both alike
      one.push_back(two_way_bandwidth(false, peer, bytes, messages));
      two.push_back(two_way_bandwidth(true, peer, bytes, messages));
    }
    std::sort(one.begin(), one.end());
    std::sort(two.begin(), two.end());
    if (rank == 0) {
      const double a = one[repetitions / 2], b = two[repetitions / 2];
      std::printf("PERFORMANCE_COUNTER two-way-bandwidth-one-thread-%d-bytes = %.1f MB / s\n",
                  bytes, a / 1e6);
      std::printf("PERFORMANCE_COUNTER two-way-bandwidth-send-and-receive-threads-%d-bytes = "
                  "%.1f MB / s\n", bytes, b / 1e6);
      std::printf("PERFORMANCE_COUNTER two-way-bandwidth-split-over-one-thread-%d-bytes = %.3f\n",
                  bytes, b / a);
    }
  }
  MPI_Finalize();
  return 0;
}
