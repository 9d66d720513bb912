// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/core/command_line.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <sstream>
#include <utility>

#include "xenon/core/version.hpp"

namespace xenon {
namespace {

bool is_help(std::string_view name) { return name == "help" || name == "h"; }
bool is_version(std::string_view name) { return name == "version"; }

template <class Number>
Number parse_number(std::string_view option, std::string_view text) {
  Number value{};
  if (text.empty()) throw CommandLineError("option -" + std::string(option) + " needs a value");
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error == std::errc::result_out_of_range) {
    throw CommandLineError("option -" + std::string(option) + ": '" + std::string(text) +
                           "' is out of range");
  }
  if (error != std::errc() || stop != end) {
    throw CommandLineError("option -" + std::string(option) + " expects an integer, got '" +
                           std::string(text) + "'");
  }
  return value;
}

}  // namespace

CommandLine::CommandLine(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {}

void CommandLine::add_integer(std::string name, std::int64_t* target, std::int64_t minimum,
                              std::int64_t maximum, std::string help) {
  options_.push_back({std::move(name), Kind::kInteger, target, minimum, maximum,
                      std::move(help), std::to_string(*target)});
}

void CommandLine::add_unsigned(std::string name, std::uint64_t* target, std::string help) {
  options_.push_back(
      {std::move(name), Kind::kUnsigned, target, 0, 0, std::move(help), std::to_string(*target)});
}

void CommandLine::add_string(std::string name, std::string* target, std::string help) {
  options_.push_back({std::move(name), Kind::kString, target, 0, 0, std::move(help),
                      target->empty() ? "none" : *target});
}

void CommandLine::add_string_list(std::string name, std::vector<std::string>* target, std::string help) {
  options_.push_back({std::move(name), Kind::kStringList, target, 0, 0, std::move(help),
                      target->empty() ? "none" : std::to_string(target->size()) + " given"});
}

void CommandLine::add_flag(std::string name, bool* target, std::string help) {
  options_.push_back({std::move(name), Kind::kFlag, target, 0, 0, std::move(help),
                      *target ? "on" : "off"});
}

void CommandLine::allow_positional(std::string what, std::vector<std::string>* target) {
  positional_what_ = std::move(what);
  positional_ = target;
}

const CommandLine::Option* CommandLine::find(std::string_view name) const {
  for (const Option& option : options_) {
    if (option.name == name) return &option;
  }
  return nullptr;
}

CommandLine::Option* CommandLine::find(std::string_view name) {
  return const_cast<Option*>(std::as_const(*this).find(name));
}

bool CommandLine::names_an_option(std::string_view argument) const {
  if (argument.size() < 2 || argument.front() != '-') return false;
  std::string_view name = argument.substr(argument[1] == '-' ? 2 : 1);
  name = name.substr(0, name.find('='));
  return find(name) != nullptr || is_help(name) || is_version(name);
}

bool CommandLine::given(std::string_view name) const {
  const Option* option = find(name);
  if (option == nullptr) throw std::logic_error("given(): no option -" + std::string(name));
  return option->given;
}

void CommandLine::assign(const Option& option, std::string_view value) const {
  switch (option.kind) {
    case Kind::kInteger: {
      auto number = parse_number<std::int64_t>(option.name, value);
      if (number < option.minimum || number > option.maximum) {
        throw CommandLineError("option -" + option.name + " must be between " +
                               std::to_string(option.minimum) + " and " +
                               std::to_string(option.maximum) + ", got " + std::string(value));
      }
      *static_cast<std::int64_t*>(option.target) = number;
      break;
    }
    case Kind::kUnsigned:
      if (!value.empty() && value.front() == '-') {
        throw CommandLineError("option -" + option.name + " expects a non-negative integer, got '" +
                               std::string(value) + "'");
      }
      *static_cast<std::uint64_t*>(option.target) = parse_number<std::uint64_t>(option.name, value);
      break;
    case Kind::kString:
      if (value.empty()) throw CommandLineError("option -" + option.name + " needs a value");
      *static_cast<std::string*>(option.target) = std::string(value);
      break;
    case Kind::kStringList:
      if (value.empty()) throw CommandLineError("option -" + option.name + " needs a value");
      static_cast<std::vector<std::string>*>(option.target)->emplace_back(value);
      break;
    case Kind::kFlag:
      if (value == "1" || value == "yes" || value == "true" || value == "on") {
        *static_cast<bool*>(option.target) = true;
      } else if (value == "0" || value == "no" || value == "false" || value == "off") {
        *static_cast<bool*>(option.target) = false;
      } else {
        throw CommandLineError("option -" + option.name + " is a switch; '" + std::string(value) +
                               "' is not yes/no");
      }
      break;
  }
}

bool CommandLine::parse(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view argument = argv[i];
    if (argument.size() < 2 || argument.front() != '-') {
      if (positional_ == nullptr) {
        throw CommandLineError("unexpected argument '" + std::string(argument) + "'");
      }
      positional_->emplace_back(argument);
      continue;
    }
    std::string_view name = argument.substr(argument[1] == '-' ? 2 : 1);
    std::string_view inline_value;
    bool has_inline_value = false;
    if (auto equals = name.find('='); equals != std::string_view::npos) {
      inline_value = name.substr(equals + 1);
      name = name.substr(0, equals);
      has_inline_value = true;
    }
    if (is_help(name)) {
      std::fputs(help_text().c_str(), stdout);
      return false;
    }
    if (is_version(name)) {
      std::fputs(version_text().c_str(), stdout);
      return false;
    }
    Option* option = find(name);
    if (option == nullptr) {
      throw CommandLineError("unknown option '" + std::string(argument) + "' (see --help)");
    }
    option->given = true;
    if (has_inline_value) {
      assign(*option, inline_value);
    } else if (option->kind == Kind::kFlag) {
      // `-balance off` as well as `-balance=off`: only on/off are taken as the next word.
      const std::string_view next = i + 1 < argc ? std::string_view(argv[i + 1]) : "";
      if (next == "on" || next == "off") {
        assign(*option, next);
        ++i;
      } else {
        *static_cast<bool*>(option->target) = true;
      }
    } else {
      if (i + 1 >= argc) throw CommandLineError("option -" + option->name + " needs a value");
      const std::string_view value = argv[++i];
      // `-o --dump` would make a folder named --dump: a value that is itself one of our
      // options is a forgotten value. ("-" alone is a value, standard input; an unknown name
      // such as -reads.fq passes; --o=--dump passes it on purpose.)
      if ((option->kind == Kind::kString || option->kind == Kind::kStringList) && names_an_option(value)) {
        throw CommandLineError("option -" + option->name + " needs a value, but the next argument is the option '" +
                               std::string(value) + "'");
      }
      assign(*option, value);
    }
  }
  return true;
}

std::string CommandLine::help_text() const {
  // One row per option: "  --name VALUE", then its help from a column that clears the
  // longest name by two spaces (help2man, which writes the man pages, needs two).
  std::vector<std::pair<std::string, std::string>> rows;
  for (const Option& option : options_) {
    // One-letter options read best as -k, -o (as in most tools); --k works too.
    std::string left = (option.name.size() == 1 ? "  -" : "  --") + option.name;
    if (option.kind != Kind::kFlag) left += " VALUE";
    rows.emplace_back(std::move(left), option.help + " (default: " + option.default_text + ")");
  }
  rows.emplace_back("  --help", "print this help and exit");
  rows.emplace_back("  --version", "print the version and exit");
  std::size_t column = 36;
  for (const auto& row : rows) column = std::max(column, row.first.size() + 2);

  std::ostringstream out;
  out << "Usage: " << program_ << " [options]";
  if (positional_ != nullptr) out << " " << positional_what_;
  out << "\n" << summary_ << "\n\nOptions (-name or --name, value as next argument or =value):\n";
  for (const auto& [left, help] : rows) {
    out << left << std::string(column - left.size(), ' ') << help << "\n";
  }
  return out.str();
}

std::string CommandLine::version_text() const {
  return program_ + " (Xenon) " XENON_VERSION_STRING "\n";
}

}  // namespace xenon
