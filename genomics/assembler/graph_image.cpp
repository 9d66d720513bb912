// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/graph_image.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <xenon/xenon.hpp>

#include "genomics/io/temporary_files.hpp"

extern char** environ;

namespace xenon::genomics {
namespace {

// The last line of a program's output that says something.
std::string last_line(std::string_view output) {
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r' || output.back() == ' ')) {
    output.remove_suffix(1);
  }
  const std::size_t at = output.rfind('\n');
  return std::string(at == std::string_view::npos ? output : output.substr(at + 1));
}

// Runs `arguments` (the program first) with `extra_environment` added to ours, its standard
// output and error gathered; returns waitpid's status and the output. The child dies with the
// thread that started it: a run killed outright (SIGKILL) leaves no child drawing on.
std::pair<int, std::string> run_child(const std::vector<std::string>& arguments,
                                      const std::vector<std::string>& extra_environment) {
  // Everything the child needs is made before fork(): after it, a child of a threaded process
  // may only make async-signal-safe calls.
  std::vector<std::string> environment = extra_environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view variable(*entry);
    const std::string prefix(variable.substr(0, variable.find('=') + 1));
    bool replaced = false;
    for (const std::string& extra : extra_environment) replaced |= extra.compare(0, prefix.size(), prefix) == 0;
    if (!replaced) environment.emplace_back(variable);
  }
  std::vector<char*> argv;
  for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (const std::string& variable : environment) envp.push_back(const_cast<char*>(variable.c_str()));
  envp.push_back(nullptr);
  int pipe_ends[2];
  if (pipe2(pipe_ends, O_CLOEXEC) != 0) throw std::runtime_error("cannot make a pipe: " + error_text(errno));
  const int null_input = open("/dev/null", O_RDONLY | O_CLOEXEC);
  const pid_t parent = getpid();

  const pid_t child = fork();
  if (child == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the parent died before prctl
    if (dup2(pipe_ends[1], STDOUT_FILENO) < 0 || dup2(pipe_ends[1], STDERR_FILENO) < 0) _exit(127);
    if (null_input >= 0) dup2(null_input, STDIN_FILENO);
    closefrom(STDERR_FILENO + 1);  // nothing of ours (the transport's sockets, output files)
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  const int fork_error = errno;
  close(pipe_ends[1]);
  if (null_input >= 0) close(null_input);
  if (child < 0) {
    close(pipe_ends[0]);
    throw std::runtime_error("cannot start " + arguments[0] + ": " + error_text(fork_error));
  }
  std::string output;
  char buffer[4096];
  for (;;) {
    const ssize_t got = read(pipe_ends[0], buffer, sizeof buffer);
    if (got > 0) {
      output.append(buffer, static_cast<std::size_t>(got));
      if (output.size() > (1 << 16)) output.erase(0, output.size() - (1 << 15));  // the end tells
    } else if (got == 0 || errno != EINTR) {
      break;
    }
  }
  close(pipe_ends[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waiting for " + arguments[0] + ": " + error_text(errno));
  }
  return {status, output};
}

}  // namespace

GraphImage graph_image_from(const std::string& word) {
  if (word == "yes") return GraphImage::yes;
  if (word == "no") return GraphImage::no;
  if (word == "auto") return GraphImage::automatic;
  throw std::invalid_argument("--graph-image must be yes, no or auto, not '" + word + "'");
}

std::optional<std::string> find_bandage() {
  const char* path = std::getenv("PATH");  // NOLINT(concurrency-mt-unsafe): no thread calls setenv
  std::string_view directories = path != nullptr ? path : "";
  while (!directories.empty()) {
    const std::size_t colon = directories.find(':');
    std::string directory(directories.substr(0, colon));
    directories = colon == std::string_view::npos ? std::string_view{} : directories.substr(colon + 1);
    if (directory.empty()) directory = ".";
    const std::string candidate = directory + "/Bandage";
    struct stat status {};
    if (stat(candidate.c_str(), &status) == 0 && S_ISREG(status.st_mode) && access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return std::nullopt;
}

void draw_with_bandage(const std::string& bandage, const std::string& gfa_path, const std::string& png_path) {
  const std::string temporary = partial_file_name_keeping_extension(png_path, getpid());
  TemporaryFiles::add(temporary);  // removed if a signal ends the run
  const auto discard = [&] {
    std::remove(temporary.c_str());
    TemporaryFiles::remove(temporary);
  };
  std::pair<int, std::string> result;
  try {
    result = run_child({bandage, "image", gfa_path, temporary}, {"QT_QPA_PLATFORM=offscreen"});
  } catch (...) {
    discard();
    throw;
  }
  const auto& [status, output] = result;
  std::string failure;
  if (WIFSIGNALED(status)) {
    failure = "was killed by signal " + std::to_string(WTERMSIG(status));
  } else if (WEXITSTATUS(status) != 0) {
    failure = "exited with status " + std::to_string(WEXITSTATUS(status));
  } else if (access(temporary.c_str(), F_OK) != 0) {
    failure = "exited with status 0 but wrote no picture";
  }
  if (!failure.empty()) {
    discard();
    const std::string said = last_line(output);
    throw std::runtime_error(png_path + ": Bandage " + failure + (said.empty() ? "" : ": " + said));
  }
  if (TemporaryFiles::publish(temporary, png_path.c_str()) != 0) {
    const int error = errno;
    discard();
    throw std::runtime_error(png_path + ": cannot rename " + temporary + ": " + error_text(error));
  }
}

std::optional<std::string> draw_graph_image(GraphImage mode, const GraphFile& graph, const std::string& gfa_path,
                                            const std::string& png_path, RunLog& log) {
  if (mode == GraphImage::no) return std::nullopt;
  const std::uint64_t bases = graph.bases();
  const std::string size = std::to_string(graph.segments.size()) + " segments, " + std::to_string(bases) + " bases";
  const bool large = graph.segments.size() > kAutomaticImageSegments || bases > kAutomaticImageBases;
  if (mode == GraphImage::automatic && large) {
    log.line("graph.png: skipped: the graph (" + size + ") is larger than --graph-image auto draws (" +
             std::to_string(kAutomaticImageSegments) + " segments, " + std::to_string(kAutomaticImageBases) +
             " bases); --graph-image yes draws it");
    return std::nullopt;
  }
  const std::optional<std::string> bandage = find_bandage();
  if (!bandage) {
    const std::string why = "Bandage is not installed (no Bandage on PATH; Debian package bandage)";
    if (mode == GraphImage::yes) throw std::runtime_error("--graph-image yes: " + why);
    log.line("graph.png: skipped: " + why);
    return std::nullopt;
  }
  log.begin_phase("graph image");
  try {
    draw_with_bandage(*bandage, gfa_path, png_path);
  } catch (const std::exception& error) {
    if (mode == GraphImage::yes) throw;
    log.end_phase(std::string("no picture: ") + error.what());
    return std::nullopt;
  }
  log.end_phase("the graph (" + size + ") drawn by " + *bandage + " into " + png_path);
  return png_path;
}

}  // namespace xenon::genomics
