// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace xenon::genomics {

// How an input file was given, as SPAdes and MEGAHIT take them: which of its records are
// mates of read pairs, and with which records of which file.
enum class InputRole : std::uint8_t {
  kPositional,   // a FILES argument: files 1 and 2, 3 and 4, ... of these are paired by position
  kFirstMate,    // -1: the n-th -1 file pairs with the n-th -2 file, record by record
  kSecondMate,   // -2
  kInterleaved,  // --12: records 1 and 2, 3 and 4, ... of the file are mates
  kSingle,       // -s: unpaired reads
};

// "positional", "pair 1", "pair 2", "interleaved", "single": as run.json and the log name it.
const char* role_name(InputRole role);

// The inputs as the command line gave them, by role, each list in the order given.
struct InputOptions {
  std::vector<std::string> positional;
  std::vector<std::string> first_mates;   // -1
  std::vector<std::string> second_mates;  // -2
  std::vector<std::string> interleaved;   // --12
  std::vector<std::string> single;        // -s
};

// Every input file in the order the tools read them (the positional ones, then each -1 with
// its -2, then --12, then -s) and each one's role, in `files` and `roles`. Throws
// std::invalid_argument (a usage error) when -1 and -2 are not given as many times.
void gather_inputs(const InputOptions& options, std::vector<std::string>& files, std::vector<InputRole>& roles);

// Where mates are: record r of `first` with record r of `second`, or, for an interleaved
// file (first == second), record 2i-1 with record 2i (counting from 1).
struct MateFiles {
  std::uint32_t first = 0;   // indexes into the inputs
  std::uint32_t second = 0;
  // Said to be pairs (-1/-2, --12): a record count that cannot pair is an error. Positional
  // files paired by position that hold different numbers of records are left unpaired, with
  // a warning in the log (the behaviour kept from before -1/-2 existed).
  bool declared = false;
  bool interleaved() const { return first == second; }
};

// The mates of inputs with these roles (empty `roles`: every input positional, of `files`
// inputs). Positional files pair by position only when there is an even number of them.
std::vector<MateFiles> mate_files(const std::vector<InputRole>& roles, std::size_t files);

// Checks that every declared pairing can pair every record, given each input's record count:
// throws std::runtime_error naming both files and both counts (-1/-2), or the file and its
// odd count (--12).
void check_mate_records(const std::vector<std::string>& files, const std::vector<InputRole>& roles,
                        const std::vector<std::uint64_t>& records);

// The roles, for what a checkpoint came from: "" when every input is positional (as before
// roles existed), else " roles: pair 1, pair 2, ...".
std::string describe_roles(const std::vector<InputRole>& roles);

}  // namespace xenon::genomics
