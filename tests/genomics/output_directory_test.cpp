// SPDX-License-Identifier: BSD-3-Clause
// The pieces behind the tools' output rules, one by one: which folders a tool may write into,
// what it removes there, the stale partial files of dead processes, and when a checkpoint is
// used. The tools themselves are tried under faults by tests/faults/fault_cases.sh.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "genomics/io/checkpoint_file.hpp"
#include "genomics/io/output_directory.hpp"
#include "genomics/io/temporary_files.hpp"
#include "tests/support/temporary_directory.hpp"

namespace {

using namespace xenon::genomics;
using xenon::testing::TemporaryDirectory;
namespace fs = std::filesystem;

OutputRules counter_rules() {
  return OutputRules{"kmer_counter", {"histogram.txt", "counts.txt"}, {"counted"}, false, false};
}

// The id of a process that has ended (a child, waited for).
long dead_process_id() {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  return child;
}

TEST(OutputDirectory, RefusesAFolderOfAnotherUnlessForcedAndTouchesOnlyItsOwnFiles) {
  TemporaryDirectory folder;
  folder.write("notes.txt", "mine");
  folder.write("histogram.txt", "someone else's");
  try {
    OutputDirectory(folder.path(), counter_rules());
    FAIL() << "a folder without kmer_counter.log was taken";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("not an output directory of kmer_counter"), std::string::npos)
        << error.what();
  }
  OutputRules forced = counter_rules();
  forced.force = true;
  OutputDirectory(folder.path(), forced).remove_previous_results();
  EXPECT_EQ(folder.entries(), std::vector<std::string>{"notes.txt"});
}

TEST(OutputDirectory, KnowsItsOwnFolderByTheLogsFirstLineAndRemovesThePreviousResults) {
  TemporaryDirectory folder;
  folder.write("kmer_counter.log", "2026-11-30T17:07:34.123Z  kmer_counter (Xenon) 0.1.0\n");
  folder.write("histogram.txt", "1 2\n");
  folder.write("counts.txt", "ACG 2\n");
  fs::create_directory(folder.path() + "/checkpoints");
  folder.write("checkpoints/counted", "saved");
  OutputRules resuming = counter_rules();
  resuming.resume = true;
  OutputDirectory(folder.path(), resuming).remove_previous_results();
  EXPECT_EQ(folder.entries(), (std::vector<std::string>{"checkpoints", "kmer_counter.log"})) << "--continue keeps checkpoints";
  OutputDirectory(folder.path(), counter_rules()).remove_previous_results();
  EXPECT_EQ(folder.entries(), std::vector<std::string>{"kmer_counter.log"});
  // The assembler's log does not make the folder the counter's.
  folder.write("kmer_counter.log", "2026-11-30T17:07:34.123Z  assembler (Xenon) 0.1.0\n");
  EXPECT_THROW(OutputDirectory(folder.path(), counter_rules()), std::runtime_error);
}

TEST(OutputDirectory, CreatesMissingFoldersAndTakesBackThoseStillEmpty) {
  TemporaryDirectory base;
  const std::string deep = base.path() + "/a/b/c";
  {
    const OutputDirectory created(deep, counter_rules());
    EXPECT_TRUE(fs::is_directory(deep));
    created.remove_created_if_empty();
  }
  EXPECT_TRUE(base.entries().empty());
  const OutputDirectory kept(deep, counter_rules());
  std::ofstream(deep + "/kmer_counter.log") << "a log\n";
  kept.remove_created_if_empty();
  EXPECT_TRUE(fs::exists(deep + "/kmer_counter.log")) << "a folder that holds a log stays";
}

TEST(OutputDirectory, RemovesThePartialFilesOfDeadProcessesOnly) {
  TemporaryDirectory folder;
  folder.write("kmer_counter.log", "2026-11-30T17:07:34.123Z  kmer_counter (Xenon) 0.1.0\n");
  const long dead = dead_process_id();
  folder.write(partial_file_name("histogram.txt", dead), "half");
  folder.write(".input-1.copy-" + std::to_string(dead), "half");
  // A picture a child program was drawing: the ending kept, for the program to pick the format.
  folder.write(partial_file_name_keeping_extension("graph.png", dead), "half");
  EXPECT_EQ(partial_file_name_keeping_extension("graph.png", dead), "graph.png.partial-" + std::to_string(dead) + ".png");
  folder.write(partial_file_name("counts.txt", getppid()), "a live process's");
  folder.write(partial_file_name_keeping_extension("graph.png", getppid()), "a live process's");
  folder.write("reads.partial-notapid", "not ours");
  folder.write("notes.partial-" + std::to_string(dead) + ".txt", "not ours: the ending is not the file's");
  const OutputDirectory ready(folder.path(), counter_rules());
  EXPECT_EQ(folder.entries(),
            (std::vector<std::string>{partial_file_name("counts.txt", getppid()),
                                      partial_file_name_keeping_extension("graph.png", getppid()), "kmer_counter.log",
                                      "notes.partial-" + std::to_string(dead) + ".txt", "reads.partial-notapid"}));
}

TEST(Checkpoint, IsUsedOnlyWholeAndFromTheSameOrigin) {
  TemporaryDirectory folder;
  const std::string text = "the counted k-mers";
  const auto bytes = std::as_bytes(std::span(text.data(), text.size()));
  checkpoint::save(folder.path(), "counted", "k=31 inputs: a.fq", bytes);
  std::string why;
  const auto loaded = checkpoint::load(folder.path(), "counted", "k=31 inputs: a.fq", why);
  ASSERT_TRUE(loaded.has_value()) << why;
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(loaded->data()), loaded->size()), text);

  EXPECT_FALSE(checkpoint::load(folder.path(), "counted", "k=25 inputs: a.fq", why));
  EXPECT_NE(why.find("came from other inputs or options: it says \"k=31\" where this run has \"k=25\""),
            std::string::npos)
      << why;

  std::string saved = folder.read("counted");
  saved[saved.size() - 3] ^= 1;
  folder.write("counted", saved);
  EXPECT_FALSE(checkpoint::load(folder.path(), "counted", "k=31 inputs: a.fq", why));
  EXPECT_NE(why.find("damaged (its CRC-32 does not match)"), std::string::npos) << why;

  folder.write("counted", saved.substr(0, saved.size() - 1));
  EXPECT_FALSE(checkpoint::load(folder.path(), "counted", "k=31 inputs: a.fq", why));
  EXPECT_NE(why.find("cut short"), std::string::npos) << why;

  EXPECT_FALSE(checkpoint::load(folder.path(), "graph", "k=31 inputs: a.fq", why));
  EXPECT_NE(why.find("missing"), std::string::npos) << why;
}

// The header names the build that wrote it: a checkpoint of another build, or of the
// checkpoint format before the program line, is not taken.
TEST(Checkpoint, IsUsedOnlyByTheBuildThatWroteIt) {
  const std::optional<std::string>& program = checkpoint::describe_program();
  ASSERT_TRUE(program.has_value()) << "this test's own build cannot be identified";
  EXPECT_NE(program->find("build-id "), std::string::npos) << *program;
  EXPECT_NE(program->find("executable "), std::string::npos) << *program;

  TemporaryDirectory folder;
  const std::string text = "the counted k-mers";
  checkpoint::save(folder.path(), "counted", "k=31", std::as_bytes(std::span(text.data(), text.size())));
  const std::string saved = folder.read("counted");
  const std::string line = "\nprogram " + *program + "\n";
  const std::size_t at = saved.find(line);
  ASSERT_NE(at, std::string::npos) << saved.substr(0, 200);
  std::string why;
  ASSERT_TRUE(checkpoint::load(folder.path(), "counted", "k=31", why)) << why;

  std::string other_build = saved;
  other_build.replace(at, line.size(), "\nprogram build-id 00, executable 1 bytes crc32 00000000\n");
  folder.write("counted", other_build);
  EXPECT_FALSE(checkpoint::load(folder.path(), "counted", "k=31", why));
  EXPECT_NE(why.find("came from another build of the program: it says \"00, executable 1 bytes crc32 00000000\" where"),
            std::string::npos)
      << why;

  std::string unknown = saved;
  unknown.replace(at, line.size(), "\nprogram unknown\n");
  folder.write("counted", unknown);
  EXPECT_FALSE(checkpoint::load(folder.path(), "counted", "k=31", why));
  EXPECT_NE(why.find("came from another build of the program"), std::string::npos) << why;

  std::string old_format = saved;
  old_format.replace(0, old_format.find('\n') + line.size(), "xenon checkpoint 1\n");
  folder.write("counted", old_format);
  EXPECT_FALSE(checkpoint::load(folder.path(), "counted", "k=31", why));
  EXPECT_NE(why.find("another build of the program (another checkpoint format: xenon checkpoint 1)"),
            std::string::npos)
      << why;
}

TEST(Checkpoint, DescribesInputsThatCanBeReadAgainOnly) {
  TemporaryDirectory folder;
  const std::string reads = folder.write("a.fq", "@r\nACGT\n+\nIIII\n");
  const auto described = checkpoint::describe_inputs({reads});
  ASSERT_TRUE(described.has_value());
  EXPECT_NE(described->find(reads + "\" 15 bytes modified "), std::string::npos) << *described;
  EXPECT_FALSE(checkpoint::describe_inputs({reads, "-"}).has_value()) << "standard input cannot be checked";
}

TEST(CheckpointReader, ReadsWhatTheWriterWroteAndRefusesToReadPastTheEnd) {
  CheckpointWriter writer;
  writer.u64(42);
  writer.text("ACGT");
  CheckpointReader reader(writer.data());
  EXPECT_EQ(reader.u64(), 42u);
  EXPECT_EQ(reader.text(), "ACGT");
  EXPECT_TRUE(reader.at_end());
  EXPECT_THROW(reader.u64(), std::runtime_error);
}

}  // namespace
