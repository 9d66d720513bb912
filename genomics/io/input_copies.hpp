// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace xenon::genomics {

// Copies of the inputs that can be read only once (is_read_once: standard input, "-"; a
// pipe such as <(zcat ...)), for a tool that reads its inputs
// more than once (the assembler threads the reads through its graph after counting them).
// The bytes are copied as they are (still compressed, if they are), into the given
// directory; while the copies exist, InputFile reads an input from its copy, and every
// message still names the input as it was given. The copies are removed on destruction.
class InputCopies {
 public:
  struct Copy {
    std::string input;  // as given on the command line
    std::string path;   // where its bytes are
    std::uint64_t bytes = 0;
  };

  // Throws InputError if an input cannot be read, std::runtime_error if a copy cannot be
  // written (both naming the file).
  InputCopies(const std::vector<std::string>& inputs, const std::string& directory);
  ~InputCopies();
  InputCopies(const InputCopies&) = delete;
  InputCopies& operator=(const InputCopies&) = delete;

  const std::vector<Copy>& copies() const noexcept { return copies_; }

 private:
  void remove_all();

  std::vector<Copy> copies_;
};

// Whether `input` gives its bytes only once: "-", or something that exists and is neither a
// regular file nor a directory (a pipe, a character device). A missing file is not: opening
// it fails, and names it, where every other input is opened.
bool is_read_once(const std::string& input);

// The file InputFile opens for `input`: its copy while one exists, else `input` itself.
std::string file_to_read(const std::string& input);

}  // namespace xenon::genomics
