#include "genomics/io/atomic_output_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace xenon::genomics {

AtomicOutputFile::AtomicOutputFile(std::string path)
    : path_(std::move(path)),
      temporary_path_(path_ + ".partial-" + std::to_string(getpid())) {
  file_ = std::fopen(temporary_path_.c_str(), "wb");
  if (file_ == nullptr) fail("cannot create " + temporary_path_);
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
}

AtomicOutputFile::~AtomicOutputFile() {
  if (file_ != nullptr) {
    std::fclose(file_);
    std::remove(temporary_path_.c_str());
  }
}

void AtomicOutputFile::fail(const std::string& what) const {
  throw std::runtime_error(path_ + ": " + what + ": " + std::strerror(errno));
}

void AtomicOutputFile::write(std::string_view bytes) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) fail("write failed");
}

void AtomicOutputFile::commit() {
  if (std::fflush(file_) != 0 || fsync(fileno(file_)) != 0) fail("write failed");
  const int closed = std::fclose(file_);
  file_ = nullptr;
  if (closed != 0) {
    std::remove(temporary_path_.c_str());
    fail("write failed");
  }
  if (std::rename(temporary_path_.c_str(), path_.c_str()) != 0) {
    std::remove(temporary_path_.c_str());
    fail("cannot rename " + temporary_path_ + " to it");
  }
}

void write_file_atomically(const std::string& path, std::string_view bytes) {
  AtomicOutputFile file(path);
  file.write(bytes);
  file.commit();
}

}  // namespace xenon::genomics
