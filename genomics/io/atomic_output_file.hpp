#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace xenon::genomics {

// An output file that appears completely or not at all: bytes go to a temporary file beside
// it, which commit() flushes to disk and renames over the final name. Destroyed without
// commit(), it removes the temporary file. Errors throw std::runtime_error naming the file.
class AtomicOutputFile {
 public:
  explicit AtomicOutputFile(std::string path);
  ~AtomicOutputFile();
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

  void write(std::string_view bytes);
  void commit();

  const std::string& path() const noexcept { return path_; }

 private:
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  std::string temporary_path_;
  std::FILE* file_ = nullptr;
};

// Writes a whole file at once through AtomicOutputFile.
void write_file_atomically(const std::string& path, std::string_view bytes);

}  // namespace xenon::genomics
