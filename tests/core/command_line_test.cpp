// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/core/command_line.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "xenon/core/version.hpp"

namespace xenon {
namespace {

struct Parsed {
  std::int64_t threads = 1;
  std::uint64_t seed = 5;
  bool pin = false;
  std::string output;
};

CommandLine make(Parsed& parsed) {
  CommandLine command_line("prog", "test program");
  command_line.add_integer("threads-per-node", &parsed.threads, 1, 64, "threads");
  command_line.add_unsigned("seed", &parsed.seed, "seed");
  command_line.add_flag("pin", &parsed.pin, "pin");
  command_line.add_string("output", &parsed.output, "output directory");
  return command_line;
}

bool parse(CommandLine& command_line, std::vector<const char*> arguments) {
  arguments.insert(arguments.begin(), "prog");
  return command_line.parse(static_cast<int>(arguments.size()), arguments.data());
}

TEST(CommandLine, AcceptsTheSingleDashFormOfThePredecessor) {
  Parsed parsed;
  CommandLine command_line = make(parsed);
  ASSERT_TRUE(parse(command_line, {"-threads-per-node", "12", "-seed", "9", "-pin"}));
  EXPECT_EQ(parsed.threads, 12);
  EXPECT_EQ(parsed.seed, 9u);
  EXPECT_TRUE(parsed.pin);
}

TEST(CommandLine, AcceptsGnuLongOptions) {
  Parsed parsed;
  CommandLine command_line = make(parsed);
  ASSERT_TRUE(parse(command_line, {"--threads-per-node=4", "--output", "dir", "--pin=no"}));
  EXPECT_EQ(parsed.threads, 4);
  EXPECT_EQ(parsed.output, "dir");
  EXPECT_FALSE(parsed.pin);
}

TEST(CommandLine, KeepsDefaultsForOptionsNotGiven) {
  Parsed parsed;
  CommandLine command_line = make(parsed);
  ASSERT_TRUE(parse(command_line, {}));
  EXPECT_EQ(parsed.threads, 1);
  EXPECT_EQ(parsed.seed, 5u);
}

void expect_error(std::vector<const char*> arguments, const std::string& fragment) {
  Parsed parsed;
  CommandLine command_line = make(parsed);
  try {
    parse(command_line, arguments);
    ADD_FAILURE() << "no error for " << fragment;
  } catch (const CommandLineError& error) {
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
  }
}

TEST(CommandLine, NamesTheProblemInItsError) {
  expect_error({"-threads"}, "unknown option '-threads'");
  expect_error({"-threads-per-node"}, "needs a value");
  expect_error({"-threads-per-node", "four"}, "expects an integer, got 'four'");
  expect_error({"-threads-per-node", "4x"}, "expects an integer, got '4x'");
  expect_error({"-threads-per-node", "0"}, "between 1 and 64");
  expect_error({"-threads-per-node", "100000000000000000000"}, "out of range");
  expect_error({"-seed", "-3"}, "non-negative");
  expect_error({"--pin=maybe"}, "is a switch");
  expect_error({"stray"}, "unexpected argument 'stray'");
  expect_error({"--output="}, "needs a value");
}

TEST(CommandLine, HelpListsEveryOptionWithItsDefault) {
  Parsed parsed;
  CommandLine command_line = make(parsed);
  const std::string help = command_line.help_text();
  EXPECT_NE(help.find("--threads-per-node VALUE"), std::string::npos);
  EXPECT_NE(help.find("(default: 1)"), std::string::npos);
  EXPECT_NE(help.find("--pin"), std::string::npos);
  EXPECT_NE(help.find("--help"), std::string::npos);
  EXPECT_NE(help.find("\n  --version "), std::string::npos) << help;
}

// help2man turns the help into a man page: it needs two spaces between an option and its
// text, however long the option's name.
TEST(CommandLine, HelpKeepsTwoSpacesAfterTheLongestOption) {
  Parsed parsed;
  CommandLine command_line = make(parsed);
  std::int64_t count = 3;
  const std::string name(50, 'n');
  command_line.add_integer(name, &count, 0, 9, "a long name");
  const std::string help = command_line.help_text();
  const std::string longest = "  --" + name + " VALUE";
  EXPECT_NE(help.find("\n" + longest + "  a long name (default: 3)\n"), std::string::npos) << help;
  // The others align with it.
  const std::string pin = "  --pin";
  EXPECT_NE(help.find("\n" + pin + std::string(longest.size() + 2 - pin.size(), ' ') + "pin ("),
            std::string::npos)
      << help;
}

TEST(CommandLine, VersionPrintsTheProgramAndXenonsVersionAndStopsTheParse) {
  Parsed parsed;
  CommandLine command_line = make(parsed);
  const std::string expected = "prog (Xenon) " + std::to_string(XENON_VERSION_MAJOR) + "." +
                               std::to_string(XENON_VERSION_MINOR) + "." +
                               std::to_string(XENON_VERSION_PATCH) + "\n";
  EXPECT_EQ(command_line.version_text(), expected);
  ::testing::internal::CaptureStdout();
  const bool carry_on = parse(command_line, {"-threads-per-node", "3", "--version", "-pin"});
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), expected);
  EXPECT_FALSE(carry_on);
  EXPECT_FALSE(parsed.pin);  // nothing after --version is read
}

TEST(CommandLine, SaysWhichOptionsWereGivenEvenWithTheirDefaultValue) {
  Parsed parsed;
  CommandLine command_line = make(parsed);
  ASSERT_TRUE(parse(command_line, {"-threads-per-node", "1", "--pin"}));
  EXPECT_TRUE(command_line.given("threads-per-node"));  // 1 is also the default
  EXPECT_TRUE(command_line.given("pin"));
  EXPECT_FALSE(command_line.given("seed"));
  EXPECT_THROW((void)command_line.given("no-such-option"), std::logic_error);
}

TEST(CommandLine, RefusesAnOptionWhereAStringValueWasExpected) {
  Parsed parsed;
  CommandLine command_line = make(parsed);
  try {
    parse(command_line, {"-output", "--pin"});
    FAIL() << "-output --pin was accepted as the folder '--pin'";
  } catch (const CommandLineError& error) {
    EXPECT_STREQ(error.what(), "option -output needs a value, but the next argument is the option '--pin'");
  }
  EXPECT_THROW(parse(command_line, {"-output", "--help"}), CommandLineError);
  EXPECT_THROW(parse(command_line, {"-output", "-seed=3"}), CommandLineError);
  // "-" (standard input) and names that are no option of ours are values.
  ASSERT_TRUE(parse(command_line, {"-output", "-"}));
  EXPECT_EQ(parsed.output, "-");
  ASSERT_TRUE(parse(command_line, {"-output", "-results"}));
  EXPECT_EQ(parsed.output, "-results");
  ASSERT_TRUE(parse(command_line, {"--output=--pin"}));  // said on purpose
  EXPECT_EQ(parsed.output, "--pin");
}

TEST(CommandLine, CollectsPositionalArgumentsWhenAllowed) {
  Parsed parsed;
  CommandLine command_line = make(parsed);
  std::vector<std::string> files;
  command_line.allow_positional("FILES...", &files);
  ASSERT_TRUE(parse(command_line, {"a.fq", "-pin", "b.fq"}));
  EXPECT_EQ(files, (std::vector<std::string>{"a.fq", "b.fq"}));
}

// As SPAdes's -1/-2: each use adds a value, in order; the names may be digits.
TEST(CommandLine, CollectsEveryValueOfARepeatableOption) {
  Parsed parsed;
  CommandLine command_line = make(parsed);
  std::vector<std::string> first, interleaved;
  command_line.add_string_list("1", &first, "first mates");
  command_line.add_string_list("12", &interleaved, "interleaved");
  ASSERT_TRUE(parse(command_line, {"-1", "a.fq", "-pin", "-1", "-", "--12=c.fq", "--1", "b.fq"}));
  EXPECT_EQ(first, (std::vector<std::string>{"a.fq", "-", "b.fq"}));
  EXPECT_EQ(interleaved, (std::vector<std::string>{"c.fq"}));
  EXPECT_TRUE(command_line.given("1"));
  try {
    parse(command_line, {"-1", "--12", "c.fq"});
    FAIL() << "-1 --12 was accepted as the file '--12'";
  } catch (const CommandLineError& error) {
    EXPECT_STREQ(error.what(), "option -1 needs a value, but the next argument is the option '--12'");
  }
  EXPECT_THROW(parse(command_line, {"-1"}), CommandLineError);
  EXPECT_NE(command_line.help_text().find("  -1 VALUE"), std::string::npos);
  EXPECT_NE(command_line.help_text().find("  --12 VALUE"), std::string::npos);
}

}  // namespace
}  // namespace xenon
