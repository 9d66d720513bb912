// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <string>

namespace xenon::genomics {

// The files this process has half-written in an output directory (an AtomicOutputFile's
// "NAME.partial-PID", a copy of standard input ".input-N.copy-PID"): each registers itself
// while it exists, so that a run ended by a signal or by running out of memory can remove
// them before it exits. Registering never allocates (the registry is a fixed table of the
// owners' own strings), so removal is safe even where allocation has failed.
class TemporaryFiles {
 public:
  // Registers `path` (the caller keeps the string alive until it unregisters it). Throws
  // std::logic_error when the table is full.
  static void add(const std::string& path);
  static void remove(const std::string& path);
  // Renames `from` to `to` and unregisters `from`, as one step with respect to
  // remove_all(): a file is either published or removed, never both. Returns rename's result.
  static int publish(const std::string& from, const char* to);
  // Unlinks every registered file, and keeps the registry locked so that no file can be
  // published afterwards: for a process about to _exit().
  static void remove_all_before_exit() noexcept;
};

// The name a process with id `pid` gives its half-written copy of `path`.
std::string partial_file_name(const std::string& path, long pid);
// The same, ending as `path` ends ("graph.png" -> "graph.png.partial-PID.png"): for a child
// program that picks the format by the name's ending.
std::string partial_file_name_keeping_extension(const std::string& path, long pid);

// Removes from `directory` the half-written files of runs that no longer exist (names ending
// ".partial-PID", ".partial-PID.EXT" or ".copy-PID" whose PID is no running process: a run
// killed by SIGKILL, or on a machine that crashed). Returns how many it removed.
int remove_stale_temporary_files(const std::string& directory);

}  // namespace xenon::genomics
