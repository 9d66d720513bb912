// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/output_directory.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "genomics/io/temporary_files.hpp"

namespace xenon::genomics {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCheckpointFolder = "checkpoints";

[[noreturn]] void fail(const std::string& directory, const std::string& what, const std::error_code& error = {}) {
  throw std::runtime_error(directory + ": " + what + (error ? ": " + error.message() : std::string()));
}

}  // namespace

OutputDirectory::OutputDirectory(std::string directory, OutputRules rules)
    : directory_(std::move(directory)), rules_(std::move(rules)) {
  std::error_code error;
  const fs::file_status status = fs::status(directory_, error);
  if (fs::exists(status)) {
    if (!fs::is_directory(status)) fail(directory_, "exists and is not a directory");
    check_ours_or_forced();
    remove_stale_temporary_files(directory_);
    if (fs::is_directory(checkpoint_directory(), error)) remove_stale_temporary_files(checkpoint_directory());
    return;
  }
  // Create it, remembering each folder made, so a failed run can take them back.
  fs::path missing = fs::absolute(directory_, error).lexically_normal();
  std::vector<std::string> chain;
  for (; !missing.empty() && !fs::exists(missing, error); missing = missing.parent_path()) {
    chain.insert(chain.begin(), missing.string());
    if (missing == missing.parent_path()) break;
  }
  for (const std::string& folder : chain) {
    if (!fs::create_directory(folder, error) && error) {
      remove_created_if_empty();
      fail(directory_, "cannot create the output directory", error);
    }
    created_.push_back(folder);
  }
}

void OutputDirectory::check_ours_or_forced() const {
  std::error_code error;
  fs::directory_iterator entries(directory_, error);
  if (error) fail(directory_, "cannot read the output directory", error);
  if (entries == fs::directory_iterator()) return;  // empty
  std::ifstream log(log_path());
  std::string first_line;
  std::getline(log, first_line);
  // The log's first line: its time, two spaces, "PROGRAM (Xenon) VERSION".
  const std::string mark = "  " + rules_.program + " (Xenon) ";
  const std::size_t text = first_line.find("  ");
  if ((text != std::string::npos && first_line.compare(text, mark.size(), mark) == 0) || rules_.force) return;
  fail(directory_,
       "not empty, and not an output directory of " + rules_.program + " (it has no " + rules_.program +
           ".log): give another directory, or --force to write into it (only " + rules_.program +
           "'s own files there are replaced)");
}

void OutputDirectory::remove_previous_results() const {
  std::error_code error;
  const auto remove = [&](const fs::path& file) {
    if (fs::is_directory(fs::symlink_status(file, error))) {
      fail(file.string(), "in the way: a directory where " + rules_.program + " writes a file");
    }
    if (!fs::remove(file, error) && error) fail(file.string(), "cannot remove the previous run's file", error);
  };
  for (const std::string& result : rules_.results) remove(fs::path(directory_) / result);
  if (!rules_.resume) remove_checkpoints();
}

void OutputDirectory::remove_checkpoints() const {
  std::error_code error;
  const auto remove = [&](const fs::path& file) {
    if (!fs::is_directory(fs::symlink_status(file, error)) && !fs::remove(file, error) && error) {
      fail(file.string(), "cannot remove the previous run's checkpoint", error);
    }
  };
  for (const std::string& checkpoint : rules_.checkpoints) {
    if (!checkpoint.ends_with('*')) {
      remove(fs::path(checkpoint_directory()) / checkpoint);
      continue;
    }
    // A family of files (the k-mer stores' shards): every name with that start.
    const std::string start = checkpoint.substr(0, checkpoint.size() - 1);
    std::vector<fs::path> matching;
    for (fs::directory_iterator entry(checkpoint_directory(), error), end; !error && entry != end; entry.increment(error)) {
      if (entry->path().filename().string().starts_with(start)) matching.push_back(entry->path());
    }
    for (const fs::path& file : matching) remove(file);
  }
  if (fs::is_empty(checkpoint_directory(), error)) fs::remove(checkpoint_directory(), error);
}

void OutputDirectory::remove_created_if_empty() const noexcept {
  std::error_code error;
  for (auto folder = created_.rbegin(); folder != created_.rend(); ++folder) {
    if (!fs::is_empty(*folder, error) || !fs::remove(*folder, error)) return;
  }
}

std::string OutputDirectory::log_path() const { return (fs::path(directory_) / (rules_.program + ".log")).string(); }

std::string OutputDirectory::checkpoint_directory() const { return checkpoint_directory_of(directory_); }

std::string checkpoint_directory_of(const std::string& output_directory) {
  return (fs::path(output_directory) / kCheckpointFolder).string();
}

}  // namespace xenon::genomics
