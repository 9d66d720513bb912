// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Where the genomics test data is, for the C++ tests; tools/test_data.sh is the same rule for
// shell scripts. The data set is the files listed in tools/test_data.sha256. Paths are relative
// to the repository root, where make test runs the tests.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace xenon::testing {

// XENON_DATA if set; else ../shared/data where present (a ready copy beside the checkout);
// else build/test-data, which `make test-data` makes from Debian packages.
inline std::string data_directory() {
  const char* data = std::getenv("XENON_DATA");
  if (data != nullptr && *data != '\0') return data;
  if (std::filesystem::is_directory("../shared/data")) return "../shared/data";
  return "build/test-data";
}

// Success when every file of the data set is in data_directory(); otherwise a failure naming
// the first missing file and saying what to run. Tests that read the data assert it first,
// so that missing data fails them with that sentence rather than with a confusing mismatch.
inline ::testing::AssertionResult test_data_present() {
  const std::string list = "tools/test_data.sha256";
  std::ifstream sums(list);
  if (!sums) {
    return ::testing::AssertionFailure()
           << list << " not found: run the tests from the repository root, as make test does";
  }
  const std::string directory = data_directory();
  const std::string howto =
      "run `make deps` (installs bowtie2-examples, gasic-examples, unicycler-data and "
      "art-nextgen-simulation-tools) then `make test-data`";
  for (std::string line; std::getline(sums, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::string sum, file;
    std::istringstream(line) >> sum >> file;
    if (std::filesystem::is_regular_file(directory + "/" + file)) continue;
    if (std::getenv("XENON_DATA") != nullptr && *std::getenv("XENON_DATA") != '\0') {
      return ::testing::AssertionFailure()
             << "test data missing: XENON_DATA=" << directory << " has no " << file
             << ": unset XENON_DATA to use the made data, or " << howto;
    }
    return ::testing::AssertionFailure()
           << "test data missing: " << directory << "/" << file << ": " << howto;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace xenon::testing
