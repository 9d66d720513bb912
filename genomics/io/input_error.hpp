// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace xenon::genomics {

// The name that stands for standard input among the input files, as in most Unix tools.
inline constexpr const char* kStandardInput = "-";

// How an input is named in messages: "standard input" for "-", else its path.
inline std::string input_display_name(const std::string& file) {
  return file == kStandardInput ? std::string("standard input") : file;
}

// Bad input: names the file and, where one is known, the record (1-based) that is wrong.
class InputError : public std::runtime_error {
 public:
  InputError(const std::string& file, const std::string& problem)
      : std::runtime_error(input_display_name(file) + ": " + problem), file_(file), problem_(problem) {}
  InputError(const std::string& file, std::uint64_t record, const std::string& problem)
      : std::runtime_error(input_display_name(file) + ": record " + std::to_string(record) + ": " + problem),
        file_(file),
        problem_(problem),
        record_(record) {}

  const std::string& file() const noexcept { return file_; }
  // What is wrong, without the file and record.
  const std::string& problem() const noexcept { return problem_; }
  // 0 when the problem is not in a record (missing file, corrupt compression, ...).
  std::uint64_t record() const noexcept { return record_; }

 private:
  std::string file_;
  std::string problem_;
  std::uint64_t record_ = 0;
};

}  // namespace xenon::genomics
