// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target for the option parser (include/xenon/core/command_line.hpp). The input is an argv:
// arguments separated by NUL bytes. Every kind of option is registered; parse() may accept
// the arguments or throw CommandLineError, and must do nothing else (no crash, no other
// exception, no hang, no read out of bounds).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "xenon/core/command_line.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> arguments{"fuzzed"};
  std::string current;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\0') {
      arguments.push_back(current);
      current.clear();
    } else {
      current.push_back(static_cast<char>(data[i]));
    }
  }
  arguments.push_back(current);
  std::vector<const char*> argv;
  for (const std::string& argument : arguments) argv.push_back(argument.c_str());

  std::int64_t threads = 1;
  std::int64_t negative = -5;
  std::uint64_t count = 40000;
  std::string name = "default";
  bool flag = false;
  std::vector<std::string> positional;
  xenon::CommandLine command_line("fuzzed", "Fuzzed option parser.");
  command_line.add_integer("threads-per-node", &threads, 1, 4096, "threads");
  command_line.add_integer("offset", &negative, INT64_MIN, INT64_MAX, "any integer");
  command_line.add_unsigned("ping-message-count-per-actor", &count, "count");
  command_line.add_string("name", &name, "a string");
  command_line.add_flag("pin", &flag, "a switch");
  if (size > 0 && (data[0] & 1) != 0) command_line.allow_positional("FILE...", &positional);
  try {
    if (command_line.parse(static_cast<int>(argv.size()), argv.data())) {
      // Accepted: every value is within the bounds it was registered with.
      if (threads < 1 || threads > 4096) __builtin_trap();
    }
  } catch (const xenon::CommandLineError&) {
    // The documented way to reject a command line.
  }
  return 0;
}
