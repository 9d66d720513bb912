// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace xenon {

/// The problem with a command line, in one sentence that names the option.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
class CommandLineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Declarative option parser shared by every Xenon binary.
///
/// Accepts the predecessor's single-dash form (`-threads-per-node 4`) and GNU long options
/// (`--threads-per-node 4`, `--threads-per-node=4`). Unknown options, missing or non-numeric
/// values and out-of-range numbers raise CommandLineError. Arguments that do not start with
/// '-' are collected as positional arguments only when the program allows them. Every program
/// also answers `--help` and `--version` (GNU style: "PROGRAM (Xenon) 0.1.0").
///
/// Each `add_` call registers an option NAME (given without dashes) that writes into
/// `*target`; the value `*target` holds at registration is the default shown by `--help`, and
/// the target must outlive parse(). Options keep the order of registration in the help.
///
/// \threads One thread at a time (typically main(), before the Engine is built); no blocking.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
class CommandLine {
 public:
  /// `program` names the binary in the help's usage line; `summary` is the help's one-line
  /// description.
  CommandLine(std::string program, std::string summary);

  /// Registers an integer option; *target holds the default and receives the value, which
  /// must lie in [minimum, maximum].
  void add_integer(std::string name, std::int64_t* target, std::int64_t minimum,
                   std::int64_t maximum, std::string help);
  /// Registers an option whose value is any non-negative 64-bit integer.
  void add_unsigned(std::string name, std::uint64_t* target, std::string help);
  /// Registers an option whose value is any non-empty text.
  void add_string(std::string name, std::string* target, std::string help);
  /// Registers an option that may be given several times: each value (any non-empty text) is
  /// appended to *target, in the order given (`-1 a.fq -1 b.fq`).
  void add_string_list(std::string name, std::vector<std::string>* target, std::string help);
  /// Registers a switch: `-name` alone sets it; `-name=yes` or `-name=no` (also 1/0, true/false,
  /// on/off) sets it either way, as does `-name on` or `-name off` (those two words only).
  void add_flag(std::string name, bool* target, std::string help);
  /// Lets the program take positional arguments, appended to *target in order; `what` names
  /// them in the usage line (such as "FILE...").
  void allow_positional(std::string what, std::vector<std::string>* target);

  /// Parses argv. Returns false when `--help` (or `-h`) or `--version` was given (its text
  /// already printed to stdout: the program should exit 0); throws CommandLineError on bad
  /// use, including a string option whose value is one of the registered options
  /// (`-o --dump`).
  bool parse(int argc, const char* const* argv);

  /// After parse(): whether option `name` was on the command line (its value may equal the
  /// default). For options whose meaning depends on what else was given, e.g. `-t` beside
  /// `-threads-per-node`. Throws std::logic_error for a name never registered.
  bool given(std::string_view name) const;

  /// The text `--help` prints: usage, summary, then each option with its help and default.
  std::string help_text() const;
  /// The text `--version` prints: "PROGRAM (Xenon) MAJOR.MINOR.PATCH".
  std::string version_text() const;
  /// The program name given to the constructor.
  const std::string& program() const { return program_; }

 private:
  enum class Kind { kInteger, kUnsigned, kString, kStringList, kFlag };
  struct Option {
    std::string name;
    Kind kind;
    void* target;
    std::int64_t minimum = 0;
    std::int64_t maximum = 0;
    std::string help;
    std::string default_text;
    bool given = false;  // set by parse()
  };

  Option* find(std::string_view name);
  const Option* find(std::string_view name) const;
  void assign(const Option& option, std::string_view value) const;
  bool names_an_option(std::string_view argument) const;

  std::string program_;
  std::string summary_;
  std::vector<Option> options_;
  std::string positional_what_;
  std::vector<std::string>* positional_ = nullptr;
};

}  // namespace xenon
