// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/read_pairing.hpp"

#include <algorithm>
#include <stdexcept>

#include "genomics/io/input_error.hpp"

namespace xenon::genomics {

const char* role_name(InputRole role) {
  switch (role) {
    case InputRole::kPositional: return "positional";
    case InputRole::kFirstMate: return "pair 1";
    case InputRole::kSecondMate: return "pair 2";
    case InputRole::kInterleaved: return "interleaved";
    case InputRole::kSingle: return "single";
  }
  return "unknown";
}

void gather_inputs(const InputOptions& options, std::vector<std::string>& files, std::vector<InputRole>& roles) {
  if (options.first_mates.size() != options.second_mates.size()) {
    throw std::invalid_argument("-1 given " + std::to_string(options.first_mates.size()) + " time(s) and -2 " +
                                std::to_string(options.second_mates.size()) +
                                " time(s): the n-th -1 file pairs with the n-th -2 file");
  }
  files.clear();
  roles.clear();
  const auto add = [&](const std::string& file, InputRole role) {
    files.push_back(file);
    roles.push_back(role);
  };
  for (const std::string& file : options.positional) add(file, InputRole::kPositional);
  for (std::size_t i = 0; i < options.first_mates.size(); ++i) {
    add(options.first_mates[i], InputRole::kFirstMate);
    add(options.second_mates[i], InputRole::kSecondMate);
  }
  for (const std::string& file : options.interleaved) add(file, InputRole::kInterleaved);
  for (const std::string& file : options.single) add(file, InputRole::kSingle);
}

std::vector<MateFiles> mate_files(const std::vector<InputRole>& roles, std::size_t files) {
  const auto role_of = [&](std::size_t file) { return roles.empty() ? InputRole::kPositional : roles[file]; };
  std::vector<std::uint32_t> positional, first_mates, second_mates;
  std::vector<MateFiles> mates;
  for (std::size_t file = 0; file < files; ++file) {
    const auto index = static_cast<std::uint32_t>(file);
    switch (role_of(file)) {
      case InputRole::kPositional: positional.push_back(index); break;
      case InputRole::kFirstMate: first_mates.push_back(index); break;
      case InputRole::kSecondMate: second_mates.push_back(index); break;
      case InputRole::kInterleaved: mates.push_back({index, index, true}); break;
      case InputRole::kSingle: break;
    }
  }
  if (first_mates.size() != second_mates.size()) throw std::logic_error("mate_files: -1 and -2 files differ in number");
  for (std::size_t i = 0; i < first_mates.size(); ++i) mates.push_back({first_mates[i], second_mates[i], true});
  if (positional.size() % 2 == 0) {
    for (std::size_t i = 0; i < positional.size(); i += 2) mates.push_back({positional[i], positional[i + 1], false});
  }
  std::sort(mates.begin(), mates.end(), [](const MateFiles& a, const MateFiles& b) { return a.first < b.first; });
  return mates;
}

void check_mate_records(const std::vector<std::string>& files, const std::vector<InputRole>& roles,
                        const std::vector<std::uint64_t>& records) {
  if (records.size() != files.size()) throw std::logic_error("check_mate_records: a count for every file");
  for (const MateFiles& mates : mate_files(roles, files.size())) {
    if (!mates.declared) continue;
    const std::uint64_t first = records[mates.first];
    if (mates.interleaved()) {
      if (first % 2 != 0) {
        throw InputError(files[mates.first], std::to_string(first) +
                                                 " records, an odd number: an interleaved file (--12) holds mates "
                                                 "two by two");
      }
      continue;
    }
    const std::uint64_t second = records[mates.second];
    if (first != second) {
      throw std::runtime_error(input_display_name(files[mates.first]) + " (-1) holds " + std::to_string(first) +
                               " records and " + input_display_name(files[mates.second]) + " (-2) holds " +
                               std::to_string(second) + ": mates are the records at the same place in both");
    }
  }
}

std::string describe_roles(const std::vector<InputRole>& roles) {
  if (std::all_of(roles.begin(), roles.end(), [](InputRole role) { return role == InputRole::kPositional; })) return "";
  std::string text = " roles:";
  for (std::size_t i = 0; i < roles.size(); ++i) text += std::string(i == 0 ? " " : ", ") + role_name(roles[i]);
  return text;
}

}  // namespace xenon::genomics
