// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/k_choice.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "genomics/io/input_file.hpp"
#include "genomics/kmer/kmer.hpp"

namespace xenon::genomics {
namespace {

constexpr int kSmallestK = 5;
constexpr int kLargestK = kMaxKmerLength - 1;
constexpr std::array<int, 5> kDefaultRounds = {21, 33, 55, 77, 99};

// Record lengths from the start of a FASTA or FASTQ text; the last record is left out when
// the text may have cut it.
std::vector<std::size_t> record_lengths(const std::string& text, bool whole_file, std::size_t records) {
  std::vector<std::size_t> lengths;
  std::size_t position = 0;
  const auto next_line = [&](std::string& line) {
    if (position >= text.size()) return false;
    std::size_t end = text.find('\n', position);
    if (end == std::string::npos) {
      if (!whole_file) return false;  // cut by the sample
      end = text.size();
    }
    line.assign(text, position, end - position);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    position = end + 1;
    return true;
  };
  std::string line;
  if (!text.empty() && text[0] == '@') {  // FASTQ: header, sequence, '+', quality
    std::string sequence, separator, quality;
    while (lengths.size() < records && next_line(line) && next_line(sequence) && next_line(separator) &&
           next_line(quality)) {
      lengths.push_back(sequence.size());
    }
    return lengths;
  }
  std::size_t length = 0;  // FASTA: lines between headers
  bool in_record = false;
  while (lengths.size() < records && next_line(line)) {
    if (!line.empty() && line[0] == '>') {
      if (in_record) lengths.push_back(length);
      in_record = true;
      length = 0;
    } else {
      length += line.size();
    }
  }
  if (in_record && whole_file && lengths.size() < records) lengths.push_back(length);
  return lengths;
}

}  // namespace

std::size_t median_read_length(const std::string& file, std::size_t records) {
  constexpr std::size_t kSampleBytes = 1 << 20;
  InputFile input(file);
  std::string text(kSampleBytes, '\0');
  std::size_t held = 0;
  while (held < text.size()) {
    const std::size_t got = input.read(text.data() + held, text.size() - held);
    if (got == 0) break;
    held += got;
  }
  const bool whole_file = held < text.size();
  text.resize(held);
  std::vector<std::size_t> lengths = record_lengths(text, whole_file, records);
  if (lengths.empty()) return 0;
  std::nth_element(lengths.begin(), lengths.begin() + static_cast<std::ptrdiff_t>(lengths.size() / 2), lengths.end());
  return lengths[lengths.size() / 2];
}

std::vector<int> k_rounds_for_read_length(std::size_t read_length) {
  int largest = static_cast<int>(std::min<std::size_t>(read_length * 2 / 3, kLargestK));
  if (largest % 2 == 0) --largest;
  largest = std::max(largest, kSmallestK);
  std::vector<int> rounds;
  for (const int k : kDefaultRounds) {
    if (k <= largest) rounds.push_back(k);
  }
  if (rounds.empty()) rounds.push_back(largest);
  return rounds;
}

std::vector<int> parse_k_list(const std::string& text) {
  std::vector<int> rounds;
  std::size_t position = 0;
  while (position <= text.size()) {
    std::size_t end = text.find(',', position);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(position, end - position);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 3) {
      throw std::invalid_argument("--k-list '" + text + "': expected odd k-mer lengths separated by commas, like 21,33,55");
    }
    const int k = std::stoi(item);
    if (k < kSmallestK || k > kLargestK || k % 2 == 0) {
      throw std::invalid_argument("--k-list: " + item + " is not an odd k-mer length from " + std::to_string(kSmallestK) +
                                  " to " + std::to_string(kLargestK));
    }
    if (!rounds.empty() && k <= rounds.back()) {
      throw std::invalid_argument("--k-list: the lengths must increase (" + std::to_string(k) + " after " +
                                  std::to_string(rounds.back()) + ")");
    }
    rounds.push_back(k);
    position = end + 1;
  }
  return rounds;
}

std::string k_list_text(const std::vector<int>& rounds) {
  std::string text;
  for (const int k : rounds) text += (text.empty() ? "" : ",") + std::to_string(k);
  return text;
}

}  // namespace xenon::genomics
