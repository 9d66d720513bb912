// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/io/atomic_output_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <xenon/xenon.hpp>

#include "genomics/io/temporary_files.hpp"

namespace xenon::genomics {

AtomicOutputFile::AtomicOutputFile(std::string path)
    : path_(std::move(path)),
      temporary_path_(partial_file_name(path_, getpid())) {
  TemporaryFiles::add(temporary_path_);  // removed if a signal ends the run
  file_ = std::fopen(temporary_path_.c_str(), "wb");
  if (file_ == nullptr) {
    TemporaryFiles::remove(temporary_path_);
    fail("cannot create " + temporary_path_);
  }
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
}

AtomicOutputFile::~AtomicOutputFile() {
  if (file_ != nullptr) std::fclose(file_);
  if (!published_) {
    std::remove(temporary_path_.c_str());
    TemporaryFiles::remove(temporary_path_);
  }
}

void AtomicOutputFile::fail(const std::string& what) const {
  throw std::runtime_error(path_ + ": " + what + ": " + error_text(errno));
}

void AtomicOutputFile::write(std::string_view bytes) {
  if (file_ == nullptr) throw std::logic_error(path_ + ": written after close()");
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) fail("write failed");
}

void AtomicOutputFile::close() {
  if (file_ == nullptr) return;
  const bool flushed = std::fflush(file_) == 0 && fsync(fileno(file_)) == 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!flushed || !closed) fail("write failed");
}

void AtomicOutputFile::publish() {
  if (file_ != nullptr) throw std::logic_error(path_ + ": published before close()");
  if (TemporaryFiles::publish(temporary_path_, path_.c_str()) != 0) {
    fail("cannot rename " + temporary_path_ + " to it");
  }
  published_ = true;
}

void publish_together(std::initializer_list<AtomicOutputFile*> files) {
  for (AtomicOutputFile* file : files) file->close();
  for (auto current = files.begin(); current != files.end(); ++current) {
    try {
      (*current)->publish();
    } catch (...) {
      for (auto done = files.begin(); done != current; ++done) std::remove((*done)->path().c_str());
      throw;
    }
  }
}

}  // namespace xenon::genomics
