// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/counter/counter_protocol.hpp"
#include "genomics/counter/counter_settings.hpp"
#include "genomics/counter/input_reader.hpp"
#include "genomics/counter/kmer_parser.hpp"
#include "genomics/io/input_error.hpp"
#include "genomics/io/input_file.hpp"
#include "genomics/io/output_directory.hpp"
#include "genomics/io/read_pairing.hpp"
#include "genomics/io/run_log.hpp"
#include "genomics/run/freed_memory.hpp"
#include "genomics/run/out_of_memory.hpp"
#include "genomics/run/sudden_exit.hpp"
#include "genomics/run/termination_signals.hpp"

namespace xenon::genomics {

// One run of a tool after its command line was accepted: when it began, and its log.
struct ToolRun {
  ToolRun(const char* program_name, int argc, char** argv)
      : program(program_name), arguments(argv, argv + argc) {}
  ~ToolRun() { sudden_exit::set_log(-1); }
  ToolRun(const ToolRun&) = delete;
  ToolRun& operator=(const ToolRun&) = delete;

  const char* program;
  std::vector<std::string> arguments;
  std::string started_at = utc_timestamp();
  MonotonicClock::time_point started = MonotonicClock::now();
  RunLog log;  // open on node 0 only
  std::optional<OutputDirectory> output;  // on node 0 only

  double seconds() const { return seconds_between(started, MonotonicClock::now()); }

  // On node 0, before any work: checks that the inputs can be read, makes the output
  // directory ready (OutputDirectory: refused if it is another's, the previous run's results
  // removed) and opens DIR/PROGRAM.log in it, which begins with what was asked and how the
  // run is laid out. Creating the log is what finds an unwritable directory, at once.
  void open_log(const OutputRules& rules, const std::string& directory, const std::vector<std::string>& inputs,
                const std::vector<InputRole>& roles, const std::string& threads, int nodes) {
    for (const std::string& input : inputs) InputFile::check_readable(input);
    output.emplace(directory, rules);
    try {
      log.open(output->log_path());
    } catch (...) {
      output->remove_created_if_empty();
      throw;
    }
    sudden_exit::set_log(log.descriptor());
    log.line(std::string(program) + " (Xenon) " + XENON_VERSION_STRING);  // OutputDirectory knows its own by it
    std::error_code error;
    log.line("command line: " + shell_words(arguments));
    log.line("started: " + started_at);
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    log.line("host: " + std::string(host) + ", process " + std::to_string(getpid()) + ", working directory " +
             std::filesystem::current_path(error).string());
    log.line("threads: " + threads);
    log.line("nodes: " + std::to_string(nodes) + (nodes == 1 ? " (one process)" : " (MPI processes; the log is node 0's)"));
    std::string names;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const bool positional = roles.empty() || roles[i] == InputRole::kPositional;
      names += (names.empty() ? "" : ", ") + input_display_name(inputs[i]) +
               (positional ? "" : " (" + std::string(role_name(roles[i])) + ")");
    }
    log.line("inputs: " + names);
    output->remove_previous_results();
    if (rules.resume) log.line("--continue: the phases with a whole checkpoint of these inputs and options are skipped");
  }

  // The run's last lines: the files written and its end, or the error.
  void succeeded(const std::vector<std::string>& files) {
    sudden_exit::note_activity("ending, after the results were written");
    for (const std::string& file : files) log.line("wrote " + file);
    char line[80];
    std::snprintf(line, sizeof line, "finished in %.3f s: exit status 0", seconds());
    log.line(line);
  }
  // A failed run keeps its log; a folder it created is removed only if it stayed empty.
  void failed(const std::string& why) {
    log.failed(why);
    char line[80];
    std::snprintf(line, sizeof line, "failed after %.3f s: exit status 1", seconds());
    log.line(line);
    if (output) output->remove_created_if_empty();
  }

  // The arguments as a shell would take them back: quoted where they need it.
  static std::string shell_words(const std::vector<std::string>& words) {
    std::string line;
    for (const std::string& word : words) {
      const bool plain = !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                                 "0123456789_-+=/.,:@%") == std::string::npos;
      if (!line.empty()) line += ' ';
      if (plain) {
        line += word;
        continue;
      }
      line += '\'';
      for (const char c : word) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
      line += '\'';
    }
    return line;
  }
};

// The frame of a genomics tool's main(): parse() (false after --help; an exception is a usage
// error: one line, exit status 2), then run(ToolRun&) (its exit status; an exception: one
// line, on standard error and in the log if one is open, exit status 1).
template <class Parse, class Run>
int tool_main(const char* program, int argc, char** argv, Parse&& parse, Run&& run) {
  try {
    if (!parse()) return 0;
  } catch (const std::exception& error) {  // CommandLineError or a usage error
    std::fprintf(stderr, "%s: error: %s\n", program, error.what());
    return 2;
  }
  ToolRun tool_run(program, argc, argv);
  try {
    // Before the engine starts a thread: signals and running out of memory end the run with
    // one line (and its partial files removed), whichever thread they meet.
    sudden_exit::set_program(program);
    exit_on_termination_signals();
    exit_when_out_of_memory();
    return_freed_memory_to_the_system();
    return run(tool_run);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: error: %s\n", program, error.what());
    tool_run.failed(error.what());
    return 1;
  }
}

// --force and --continue, as MEGAHIT takes them, into `rules`; `resumes` names the phases
// --continue skips.
inline void add_output_options(CommandLine& command_line, OutputRules& rules, const std::string& resumes) {
  command_line.add_flag("force", &rules.force,
                        "write into an output directory that is not empty and not this tool's (one without its "
                        "log); only the tool's own files there are replaced");
  command_line.add_flag("continue", &rules.resume,
                        "go on from an interrupted run in the same directory, skipping " + resumes +
                            ", if its checkpoint is whole (CRC-32) and came from the same inputs and options");
}

// Standard input ("-") can be read once: given twice, it is a usage error.
inline void check_standard_input_once(const std::vector<std::string>& files) {
  if (std::count(files.begin(), files.end(), std::string(kStandardInput)) > 1) {
    throw CommandLineError("standard input ('-') given more than once: it can be read once");
  }
}

// Every node registers the parsers, for every k-mer width (1, 2 or 4 words), and the input reader (each node
// reads its share of the input): node 0 spawns them there by name.
inline void register_parsers(Engine& engine) {
  engine.register_actor_type<KmerParser<1>>(std::string(kParserType<1>));
  engine.register_actor_type<KmerParser<2>>(std::string(kParserType<2>));
  engine.register_actor_type<KmerParser<4>>(std::string(kParserType<4>));
  engine.register_actor_type<InputReader>(std::string(kReaderType));
}

// After the run, on node 0: the counter's outcome as the tool's exit status, with one line on
// failure, and on success the tool's own line (summary()) and the files written; both also
// go into the log.
template <class Summary>
int report_outcome(ToolRun& run, const CounterOutcome& outcome, Summary&& summary) {
  if (!outcome.succeeded) {
    std::fprintf(stderr, "%s: error: %s\n", run.program, outcome.error.c_str());
    run.failed(outcome.error);
    return 1;
  }
  const std::string line = summary();
  std::printf("%s\n", line.c_str());
  for (const std::string& file : outcome.files_written) std::printf("  wrote %s\n", file.c_str());
  std::printf("  log in %s\n", run.log.path().c_str());
  run.log.line(line);
  run.output->remove_checkpoints();  // the results are whole: nothing is left to continue
  run.succeeded(outcome.files_written);
  return 0;
}

}  // namespace xenon::genomics
