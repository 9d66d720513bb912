// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstring>
#include <string>

namespace xenon {

/// \cond XENON_INTERNAL
namespace error_text_detail {
// strerror_r comes in two forms: GNU returns the text, POSIX fills the buffer and returns 0.
inline std::string from_strerror_r(const char* text, const char* /*buffer*/) { return text; }
inline std::string from_strerror_r(int status, const char* buffer) {
  return status == 0 ? std::string(buffer) : std::string("unknown error");
}
}  // namespace error_text_detail
/// \endcond

/// The text of an errno value. \threads Any thread (strerror is not thread-safe; this is).
inline std::string error_text(int error) {
  char buffer[256] = {};
  return error_text_detail::from_strerror_r(strerror_r(error, buffer, sizeof buffer), buffer);
}

}  // namespace xenon
