// SPDX-License-Identifier: BSD-3-Clause
#include "transport/mpi/mpi_transport.hpp"

#include <algorithm>
#include <limits>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace xenon {
namespace {

constexpr int kTagSmall = 1;
constexpr int kTagLarge = 2;
// Attachments from one node arrive in the order sent (same source, same tag).
constexpr int kTagAttachment = 3;

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string("MPI: ") + call + " failed: " + std::string(text, length));
}

}  // namespace

MpiTransport::MpiTransport() {
  int initialised = 0;
  check(MPI_Initialized(&initialised), "MPI_Initialized");
  if (!initialised) {
    int provided = MPI_THREAD_SINGLE;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
    initialised_here_ = true;
    if (provided < MPI_THREAD_SERIALIZED) {
      MPI_Finalize();
      throw std::runtime_error("MPI provides thread level " + std::to_string(provided) +
                               "; Xenon needs MPI_THREAD_SERIALIZED");
    }
  }
  check(MPI_Comm_dup(MPI_COMM_WORLD, &comm_), "MPI_Comm_dup");
  check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
  receive_buffers_.resize(kPostedReceives);
  receive_requests_.assign(kPostedReceives, MPI_REQUEST_NULL);
  for (int slot = 0; slot < kPostedReceives; ++slot) {
    receive_buffers_[slot].resize(kSmallFrameBytes);
    post_receive(slot);
  }
}

MpiTransport::~MpiTransport() {
  if (!closed_ && size_ > 1) {
    // Destroyed without the collective close: an exception left this process's engine
    // while the other ranks may still be running. MPI_Finalize would wait for them forever,
    // before the program could print its error. Leave MPI as it is: the process exits with
    // the program's status, and mpiexec ends the job because a rank exited without
    // finalising.
    return;
  }
  if (!closed_) {
    // A job of one process: cancel what is posted so that MPI_Finalize does not wait.
    for (MPI_Request& request : receive_requests_) {
      if (request != MPI_REQUEST_NULL) {
        MPI_Cancel(&request);
        MPI_Request_free(&request);
      }
    }
  }
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  if (initialised_here_) MPI_Finalize();
}

std::vector<std::string> MpiTransport::exchange_at_start(const std::string& mine) {
  std::vector<char> sent(kStartupTextBytes, '\0');
  std::copy_n(mine.begin(), std::min(mine.size(), kStartupTextBytes - 1), sent.begin());
  std::vector<char> gathered(kStartupTextBytes * static_cast<std::size_t>(size_));
  check(MPI_Allgather(sent.data(), static_cast<int>(kStartupTextBytes), MPI_CHAR, gathered.data(),
                      static_cast<int>(kStartupTextBytes), MPI_CHAR, comm_),
        "MPI_Allgather");
  std::vector<std::string> texts;
  for (int node = 0; node < size_; ++node) {
    texts.emplace_back(gathered.data() + static_cast<std::size_t>(node) * kStartupTextBytes);
  }
  return texts;
}

std::vector<std::string> MpiTransport::gather_at_end(const std::string& mine) {
  // The lengths first (MPI counts in an int), then the bytes with MPI_Gatherv.
  if (mine.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw std::runtime_error("gather_at_end: " + std::to_string(mine.size()) +
                             " bytes exceed what MPI can gather from one rank");
  }
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(rank_ == 0 ? static_cast<std::size_t>(size_) : 0);
  check(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm_), "MPI_Gather");
  std::vector<int> offsets(lengths.size());
  long long total = 0;
  for (std::size_t node = 0; node < lengths.size(); ++node) {
    if (total + lengths[node] > std::numeric_limits<int>::max()) {
      throw std::runtime_error("gather_at_end: the ranks' bytes together exceed what MPI can gather");
    }
    offsets[node] = static_cast<int>(total);
    total += lengths[node];
  }
  std::vector<char> gathered(static_cast<std::size_t>(total));
  check(MPI_Gatherv(mine.data(), length, MPI_CHAR, gathered.data(), lengths.data(), offsets.data(),
                    MPI_CHAR, 0, comm_),
        "MPI_Gatherv");
  std::vector<std::string> texts;
  for (std::size_t node = 0; node < lengths.size(); ++node) {
    texts.emplace_back(gathered.data() + offsets[node], static_cast<std::size_t>(lengths[node]));
  }
  return texts;
}

void MpiTransport::abort(int code) {
  // MPI_COMM_WORLD, not our duplicate: every process of the job ends.
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);  // MPI_Abort does not return; should it, this process still ends
}

std::string MpiTransport::describe() const {
  return "MPI, rank " + std::to_string(rank_) + " of " + std::to_string(size_);
}

void MpiTransport::post_receive(int slot) {
  check(MPI_Irecv(receive_buffers_[slot].data(), static_cast<int>(kSmallFrameBytes), MPI_BYTE,
                  MPI_ANY_SOURCE, kTagSmall, comm_, &receive_requests_[slot]),
        "MPI_Irecv");
}

void MpiTransport::send(int node, std::vector<std::byte> frame) {
  if (node < 0 || node >= size_) {
    throw std::out_of_range("MPI transport: no node " + std::to_string(node) + " (job has " +
                            std::to_string(size_) + ")");
  }
  if (frame.size() > static_cast<std::size_t>(INT32_MAX)) {
    throw std::length_error("MPI transport: frame of " + std::to_string(frame.size()) +
                            " bytes exceeds 2 GiB");
  }
  pending_sends_.push_back({MPI_REQUEST_NULL, std::move(frame), {}});
  PendingSend& pending = pending_sends_.back();
  const int tag = pending.frame.size() <= kSmallFrameBytes ? kTagSmall : kTagLarge;
  // The request is completed by complete_sends() or close(), which the checker cannot see.
  check(MPI_Isend(pending.frame.data(),  // NOLINT(clang-analyzer-optin.mpi.MPI-Checker)
                  static_cast<int>(pending.frame.size()), MPI_BYTE, node, tag, comm_,
                  &pending.request),
        "MPI_Isend");
}

std::vector<std::byte> MpiTransport::spare_frame_buffer() {
  if (spare_buffers_.empty()) return {};
  std::vector<std::byte> buffer = std::move(spare_buffers_.back());
  spare_buffers_.pop_back();
  return buffer;
}

void MpiTransport::send_attachment(int node, Attachment attachment) {
  if (node < 0 || node >= size_) {
    throw std::out_of_range("MPI transport: no node " + std::to_string(node));
  }
  if (attachment.bytes.size() > static_cast<std::size_t>(INT32_MAX)) {
    throw std::length_error("MPI transport: attachment over 2 GiB");
  }
  pending_sends_.push_back({MPI_REQUEST_NULL, {}, std::move(attachment.release)});
  PendingSend& pending = pending_sends_.back();
  // Completed by complete_sends() or close(), which the checker cannot see.
  check(MPI_Isend(attachment.bytes.data(),  // NOLINT(clang-analyzer-optin.mpi.MPI-Checker)
                  static_cast<int>(attachment.bytes.size()), MPI_BYTE, node, kTagAttachment,
                  comm_, &pending.request),
        "MPI_Isend");
}

void MpiTransport::receive_attachment(int node, std::span<std::byte> into) {
  MPI_Status status;
  check(MPI_Recv(into.data(), static_cast<int>(into.size()), MPI_BYTE, node, kTagAttachment, comm_,
                 &status),
        "MPI_Recv");
  int bytes = 0;
  check(MPI_Get_count(&status, MPI_BYTE, &bytes), "MPI_Get_count");
  if (static_cast<std::size_t>(bytes) != into.size()) {
    throw std::length_error("MPI transport: attachment of " + std::to_string(bytes) +
                            " bytes from node " + std::to_string(node) + ", expected " +
                            std::to_string(into.size()));
  }
}

std::size_t MpiTransport::complete_sends() {
  // Sends complete roughly in order; free the finished prefix (and test the rest lazily).
  std::size_t completed = 0;
  while (!pending_sends_.empty()) {
    int done = 0;
    check(MPI_Test(&pending_sends_.front().request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (!done) break;
    PendingSend& finished = pending_sends_.front();
    if (finished.release) finished.release();
    if (finished.frame.capacity() != 0 && finished.frame.capacity() <= kSpareBufferCapacity &&
        spare_buffers_.size() < kSpareBuffers) {
      finished.frame.clear();
      spare_buffers_.push_back(std::move(finished.frame));
    }
    pending_sends_.pop_front();
    ++completed;
  }
  return completed;
}

std::size_t MpiTransport::poll(const FrameHandler& handle) {
  complete_sends();
  std::size_t frames = 0;
  // Large frames are rare: look for them every kPollsPerLargeProbe polls, first, whatever
  // the small ones do (a handler that stops every poll early must not starve them).
  if (++polls_since_large_probe_ >= kPollsPerLargeProbe) {
    polls_since_large_probe_ = 0;
    if (!poll_large(handle, frames)) return frames;
  }
  poll_small(handle, frames);
  return frames;
}

void MpiTransport::post_handled_receives() {
  for (; unposted_receives_ > 0; --unposted_receives_) {
    post_receive((oldest_receive_ - unposted_receives_ + kPostedReceives) % kPostedReceives);
  }
}

bool MpiTransport::poll_small(const FrameHandler& handle, std::size_t& frames) {
  post_handled_receives();  // in the order they were handed over: oldest first
  for (int tested = 0; tested < kPostedReceives; ++tested) {
    const int slot = oldest_receive_;
    int done = 0;
    MPI_Status status;
    check(MPI_Test(&receive_requests_[slot], &done, &status), "MPI_Test");
    if (!done) return true;
    int bytes = 0;
    check(MPI_Get_count(&status, MPI_BYTE, &bytes), "MPI_Get_count");
    const bool keep_going =
        handle(status.MPI_SOURCE,
               std::span<const std::byte>(receive_buffers_[slot].data(), static_cast<std::size_t>(bytes)));
    ++unposted_receives_;
    oldest_receive_ = (slot + 1) % kPostedReceives;
    ++frames;
    if (!keep_going) return false;
  }
  return true;
}

bool MpiTransport::poll_large(const FrameHandler& handle, std::size_t& frames) {
  for (;;) {
    int found = 0;
    MPI_Message message;
    MPI_Status status;
    check(MPI_Improbe(MPI_ANY_SOURCE, kTagLarge, comm_, &found, &message, &status), "MPI_Improbe");
    if (!found) return true;
    int bytes = 0;
    check(MPI_Get_count(&status, MPI_BYTE, &bytes), "MPI_Get_count");
    std::vector<std::byte> frame(static_cast<std::size_t>(bytes));
    check(MPI_Mrecv(frame.data(), bytes, MPI_BYTE, &message, MPI_STATUS_IGNORE), "MPI_Mrecv");
    ++frames;
    if (!handle(status.MPI_SOURCE, frame)) return false;
  }
}

void MpiTransport::close(const FrameHandler& handle) {
  // Finish our sends while still receiving (a large send completes only once its receiver
  // has matched it), then wait for every node to get here, still receiving.
  std::size_t frames = 0;
  const auto poll_both = [&] {
    complete_sends();
    poll_small(handle, frames);
    poll_large(handle, frames);
  };
  while (!pending_sends_.empty()) poll_both();
  MPI_Request barrier = MPI_REQUEST_NULL;
  check(MPI_Ibarrier(comm_, &barrier), "MPI_Ibarrier");
  for (;;) {
    int done = 0;
    check(MPI_Test(&barrier, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) break;
    poll_both();
  }
  poll_both();
  post_handled_receives();
  for (MPI_Request& request : receive_requests_) {
    check(MPI_Cancel(&request), "MPI_Cancel");
    check(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
  }
  closed_ = true;
}

}  // namespace xenon
