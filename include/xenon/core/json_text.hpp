// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace xenon {

/// A JSON string literal of `text`: quotes and backslashes escaped, control characters as
/// \\uXXXX. \threads Any thread.
inline std::string json_quoted(std::string_view text) {
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      quoted += escaped;
    } else {
      quoted += c;
    }
  }
  return quoted + '"';
}

}  // namespace xenon
