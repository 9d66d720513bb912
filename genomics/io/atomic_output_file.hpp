// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>

namespace xenon::genomics {

// An output file that appears completely or not at all: bytes go to a temporary file beside
// it, which close() flushes to disk and publish() renames over the final name. Destroyed
// before publish(), it removes the temporary file. Errors throw std::runtime_error naming
// the file.
class AtomicOutputFile {
 public:
  explicit AtomicOutputFile(std::string path);
  ~AtomicOutputFile();
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

  void write(std::string_view bytes);
  // Flushes, syncs and closes the temporary file: every write error shows here.
  void close();
  // Renames the closed temporary file to the final name.
  void publish();
  void commit() {
    close();
    publish();
  }

  const std::string& path() const noexcept { return path_; }

 private:
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  std::string temporary_path_;
  std::FILE* file_ = nullptr;
  bool published_ = false;
};

// Publishes several files as one: all are closed first, and if one cannot be renamed, those
// already renamed are removed again, so either every file appears or none does.
void publish_together(std::initializer_list<AtomicOutputFile*> files);

}  // namespace xenon::genomics
