// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace xenon::testing {

// True under make test SANITIZE=...: runs are 5-20x slower, so the largest matrices shrink.
inline bool under_sanitizer() {
  const char* sanitize = std::getenv("XENON_SANITIZE");
  return sanitize != nullptr && *sanitize != '\0';
}

// True under make test SANITIZE=thread. A test of code that runs on one thread only has
// nothing to show ThreadSanitizer; the slow ones skip there (CI's time goes to the threaded
// tests) and still run in every other build, AddressSanitizer's included.
inline bool under_thread_sanitizer() {
  const char* sanitize = std::getenv("XENON_SANITIZE");
  return sanitize != nullptr && std::string(sanitize) == "thread";
}

// False for a build without MPI (make test CONFIG_MPI=n), whose tests skip mpiexec runs.
inline bool built_with_mpi() {
  const char* mpi = std::getenv("XENON_MPI");
  return mpi == nullptr || std::string(mpi) != "n";
}

// True in make test's stages other than the plain one: under a sanitizer, or built without
// MPI. A test of a script or of a web page in a browser, which no build option changes, runs
// in the plain build only: CI runs the suite four times, and its time goes where builds differ.
inline bool in_a_variant_build() { return under_sanitizer() || !built_with_mpi(); }

// Stress sizes shrink under sanitizers (make test SANITIZE=...), which run 5-20x slower.
inline std::uint64_t stress_items(std::uint64_t full) {
  const char* sanitize = std::getenv("XENON_SANITIZE");
  return (sanitize != nullptr && *sanitize != '\0') ? full / 8 : full;
}

// Aborts the test binary with a message if the scope is not left within the limit, so a
// lost wake-up or a lost message fails the run instead of hanging it.
class Watchdog {
 public:
  explicit Watchdog(std::string what, std::chrono::seconds limit = std::chrono::seconds(120))
      : what_(std::move(what)), thread_([this, limit] {
          std::unique_lock<std::mutex> lock(mutex_);
          if (!done_condition_.wait_for(lock, limit, [this] { return done_; })) {
            std::fprintf(stderr, "watchdog: '%s' still running after %lld s: hung\n",
                         what_.c_str(), static_cast<long long>(limit.count()));
            std::abort();
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    done_condition_.notify_one();
    thread_.join();
  }

 private:
  std::string what_;
  std::mutex mutex_;
  std::condition_variable done_condition_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace xenon::testing
