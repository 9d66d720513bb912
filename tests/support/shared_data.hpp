#pragma once

#include <cstdlib>
#include <string>

namespace xenon::testing {

// ../shared/data (the real genomes and reads every developer and CI share), or XENON_DATA.
inline std::string data_directory() {
  const char* data = std::getenv("XENON_DATA");
  return data != nullptr ? data : "../shared/data";
}

// True under make test SANITIZE=...: runs are 5-20x slower, so the largest matrices shrink.
inline bool under_sanitizer() {
  const char* sanitize = std::getenv("XENON_SANITIZE");
  return sanitize != nullptr && *sanitize != '\0';
}

}  // namespace xenon::testing
