#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace xenon {

// The problem with a command line, in one sentence that names the option.
class CommandLineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Declarative option parser shared by every Xenon binary.
//
// Accepts the predecessor's single-dash form (-threads-per-node 4) and GNU long options
// (--threads-per-node 4, --threads-per-node=4). Unknown options, missing or non-numeric
// values and out-of-range numbers raise CommandLineError. Arguments that do not start with
// '-' are collected as positional arguments only when the program allows them. Every program
// also answers --help and --version (GNU style: "PROGRAM (Xenon) 0.1.0").
class CommandLine {
 public:
  CommandLine(std::string program, std::string summary);

  // Registers an integer option; *target holds the default and receives the value.
  void add_integer(std::string name, std::int64_t* target, std::int64_t minimum,
                   std::int64_t maximum, std::string help);
  void add_unsigned(std::string name, std::uint64_t* target, std::string help);
  void add_string(std::string name, std::string* target, std::string help);
  void add_flag(std::string name, bool* target, std::string help);
  void allow_positional(std::string what, std::vector<std::string>* target);

  // Parses argv. Returns false when --help or --version was given (its text already printed
  // to stdout: the program should exit 0); throws CommandLineError on bad use.
  bool parse(int argc, const char* const* argv);

  // After parse(): whether option `name` was on the command line (its value may equal the
  // default). For options whose meaning depends on what else was given, e.g. -t beside
  // -threads-per-node.
  bool given(std::string_view name) const;

  std::string help_text() const;
  std::string version_text() const;
  const std::string& program() const { return program_; }

 private:
  enum class Kind { kInteger, kUnsigned, kString, kFlag };
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
