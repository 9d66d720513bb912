// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace xenon::testing {

struct ProcessResult {
  int exit_code = -1;  // -1: did not exit normally
  std::string output;  // stdout and stderr together
};

// Runs a shell command and collects what it printed (stdout and stderr).
inline ProcessResult run_command(const std::string& shell_command) {
  const std::string command = shell_command + " 2>&1";
  ProcessResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer;
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) result.output += buffer.data();
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// The path of one of our built binaries: make test sets XENON_BIN to their folder.
inline std::string binary(const std::string& name) {
  const char* bin = std::getenv("XENON_BIN");
  return std::string(bin != nullptr ? bin : "build/release/bin") + "/" + name;
}

// Runs one of our built binaries with the given shell-quoted arguments.
inline ProcessResult run_binary(const std::string& name, const std::string& arguments) {
  return run_command(binary(name) + " " + arguments);
}

}  // namespace xenon::testing
