// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <string>
#include <vector>

namespace xenon::genomics {

// What a tool keeps in its output directory, and how it may use one that exists.
struct OutputRules {
  std::string program;               // its log is DIR/PROGRAM.log, which marks the folder as its own
  std::vector<std::string> results;  // the files it writes (besides the log and its checkpoints)
  std::vector<std::string> checkpoints;  // files it may leave in DIR/checkpoints/ for --continue; NAME* for every name starting NAME
  bool force = false;   // --force: write into a folder that is not its own
  bool resume = false;  // --continue: keep the checkpoints (each is checked before it is used)
};

// A tool's output directory (-o DIR), made ready before any work, so that one run's results
// never mix with another's:
//  - DIR is created if missing; if it exists, it must be empty or the tool's own: it holds
//    PROGRAM.log whose first line is "TIME  PROGRAM (Xenon) VERSION" (the log every run
//    writes first, and keeps even when it fails), else it
//    is refused unless --force (then only the tool's own files in it are touched);
//  - the half-written files of runs that are gone (killed, SIGKILL) are removed;
//  - the results of an earlier run are removed, and its checkpoints too unless --continue,
//    so a failed run leaves no older result looking current, and a run without --dump no
//    older counts.txt; a directory in the way of a result is an error, found here, before
//    any work. Files the tool does not own are never touched.
// A run that succeeds removes its checkpoints (remove_checkpoints).
// Writability is found at once: the caller creates the log right after prepare().
class OutputDirectory {
 public:
  // Throws std::runtime_error naming DIR and the problem.
  OutputDirectory(std::string directory, OutputRules rules);

  // Removes the previous run's results (and checkpoints unless resuming). Call after the log
  // was created in DIR: so an unwritable folder is found before anything is removed.
  void remove_previous_results() const;

  // After a run that succeeded: its checkpoints are of no more use.
  void remove_checkpoints() const;

  // After a failed run: removes the folders this run created, if they hold nothing.
  void remove_created_if_empty() const noexcept;

  const std::string& path() const noexcept { return directory_; }
  std::string log_path() const;
  std::string checkpoint_directory() const;

 private:
  void check_ours_or_forced() const;

  std::string directory_;
  OutputRules rules_;
  std::vector<std::string> created_;  // folders this run created, deepest last
};

// DIR/checkpoints, where a tool saves what --continue may skip.
std::string checkpoint_directory_of(const std::string& output_directory);

}  // namespace xenon::genomics
