// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/end_lookups.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "genomics/kmer/kmer.hpp"

namespace xenon::genomics {
namespace {

constexpr std::size_t kHeaderBytes = 16;  // the threading, the batch's number
constexpr std::size_t kAnswerBytes = 24;
constexpr std::uint64_t kNowhere = ~std::uint64_t{0};

void put_u64(std::vector<std::byte>& bytes, std::uint64_t value) {
  bytes.resize(bytes.size() + 8);
  store_le64(bytes.data() + bytes.size() - 8, value);
}

std::uint64_t get_u64(std::span<const std::byte> bytes, std::size_t at) { return load_le64(bytes.data() + at); }

std::size_t packed_bytes(std::size_t k) { return (k + 3) / 4; }

void check_threading(std::span<const std::byte> batch, std::uint64_t threading, const char* what) {
  const std::uint64_t named = end_lookup_threading(batch);
  if (named != threading) {
    throw std::invalid_argument(std::string(what) + " of threading " + std::to_string(named) + ", not " +
                                std::to_string(threading));
  }
}

}  // namespace

EndAskBatches::EndAskBatches(std::uint64_t threading, std::size_t owners, int k, Send send, std::size_t batch_bytes)
    : threading_(threading),
      k_(static_cast<std::size_t>(k)),
      send_(std::move(send)),
      batch_bytes_(batch_bytes),
      batches_(owners),
      asks_in_(owners) {
  if (k < 1 || k > kMaxKmerLength) throw std::invalid_argument("end asks: k = " + std::to_string(k));
}

void EndAskBatches::add(std::size_t owner, std::string_view kmer, std::uint64_t ticket) {
  if (kmer.size() != k_) throw std::invalid_argument("end asks: a k-mer of " + std::to_string(kmer.size()) + " bases");
  std::vector<std::byte>& batch = batches_.at(owner);
  // Packed before any of it goes in: a refused k-mer leaves the batch as it was.
  std::byte packed[(kMaxKmerLength + 3) / 4];
  for (std::size_t at = 0; at < k_; at += 4) {
    unsigned bases = 0;
    for (std::size_t i = at; i < at + 4 && i < k_; ++i) {
      const int code = kBaseCodes[static_cast<unsigned char>(kmer[i])];
      if (code < 0) throw std::invalid_argument("end asks: a k-mer with a base that is not ACGT");
      bases |= static_cast<unsigned>(code) << (2 * (i - at));
    }
    packed[at / 4] = static_cast<std::byte>(bases);
  }
  if (batch.empty()) {
    put_u64(batch, threading_);
    put_u64(batch, 0);  // the batch's number, once it is sent
  }
  put_u64(batch, ticket);
  batch.insert(batch.end(), packed, packed + packed_bytes(k_));
  ++asks_in_[owner];
  ++unsent_;
  if (batch.size() >= batch_bytes_) send(owner);
}

void EndAskBatches::flush() {
  for (std::size_t owner = 0; owner < batches_.size(); ++owner) {
    if (!batches_[owner].empty()) send(owner);
  }
}

void EndAskBatches::send(std::size_t owner) {
  std::vector<std::byte> batch = std::move(batches_[owner]);
  batches_[owner] = {};
  const std::uint64_t number = next_batch_++;
  store_le64(batch.data() + 8, number);
  out_.emplace(number, asks_in_[owner]);
  unsent_ -= asks_in_[owner];
  asks_in_[owner] = 0;
  send_(owner, std::move(batch));
}

void EndAskBatches::take_answers(std::span<const std::byte> answers, const Answered& answered) {
  check_threading(answers, threading_, "end answers");
  const std::uint64_t number = get_u64(answers, 8);
  const auto sent = out_.find(number);
  if (sent == out_.end()) {
    throw std::invalid_argument("end answers: to batch " + std::to_string(number) + ", never sent or answered already");
  }
  if (answers.size() != kHeaderBytes + sent->second * kAnswerBytes) {
    throw std::invalid_argument("end answers: " + std::to_string(answers.size()) + " bytes for batch " +
                                std::to_string(number) + " of " + std::to_string(sent->second) + " asks");
  }
  for (std::size_t at = kHeaderBytes; at < answers.size(); at += kAnswerBytes) {
    if (get_u64(answers, at + 8) == kNowhere && get_u64(answers, at + 16) != 0) {
      throw std::invalid_argument("end answers: a k-mer placed nowhere at an offset");
    }
  }
  out_.erase(sent);
  // Each handed on: one that `answered` refuses ends the run (the tracers check every place).
  for (std::size_t at = kHeaderBytes; at < answers.size(); at += kAnswerBytes) {
    const std::uint64_t unitig = get_u64(answers, at + 8);
    std::optional<EndIndex::Place> place;
    if (unitig != kNowhere) {
      place = EndIndex::Place{static_cast<std::size_t>(unitig), static_cast<std::size_t>(get_u64(answers, at + 16))};
    }
    answered(get_u64(answers, at), place);
  }
}

std::uint64_t end_lookup_threading(std::span<const std::byte> batch) {
  if (batch.size() < kHeaderBytes) throw std::invalid_argument("end lookups: a batch without its header");
  return get_u64(batch, 0);
}

std::vector<std::byte> answer_end_asks(std::span<const std::byte> asks, const EndIndex& slice,
                                       std::uint64_t threading) {
  check_threading(asks, threading, "end asks");
  const auto k = static_cast<std::size_t>(slice.k());
  const std::size_t ask_bytes = 8 + packed_bytes(k);
  if (asks.size() == kHeaderBytes || (asks.size() - kHeaderBytes) % ask_bytes != 0) {
    throw std::invalid_argument("end asks: a batch empty or cut short");
  }
  const auto past_last_base = static_cast<unsigned>(0xff << (2 * (k % 4))) & (k % 4 == 0 ? 0u : 0xffu);
  std::vector<std::byte> answers;
  answers.reserve(kHeaderBytes + (asks.size() - kHeaderBytes) / ask_bytes * kAnswerBytes);
  put_u64(answers, threading);
  put_u64(answers, get_u64(asks, 8));  // the batch's number
  std::string kmer(k, 'A');
  for (std::size_t at = kHeaderBytes; at < asks.size(); at += ask_bytes) {
    if ((static_cast<unsigned>(asks[at + ask_bytes - 1]) & past_last_base) != 0) {
      throw std::invalid_argument("end asks: bits set past a k-mer's last base");
    }
    for (std::size_t i = 0; i < k; ++i) {
      const auto packed = static_cast<unsigned>(asks[at + 8 + i / 4]);
      kmer[i] = "ACGT"[(packed >> (2 * (i % 4))) & 3];
    }
    const std::optional<EndIndex::Place> place = slice.place_owned(kmer);
    put_u64(answers, get_u64(asks, at));
    put_u64(answers, place ? place->unitig : kNowhere);
    put_u64(answers, place ? place->offset : 0);
  }
  return answers;
}

}  // namespace xenon::genomics
