// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/engine/monitor.hpp"

#include <stdexcept>

namespace xenon {

DownNotice DownNotice::from(const Message& message) {
  if (message.action() != ACTION_DOWN) {
    throw std::invalid_argument(
        "DownNotice::from: the message is not an ACTION_DOWN (action code " +
        std::to_string(message.action().code()) + ")");
  }
  const std::span<const std::byte> reason = message.payload();
  return {message.source(),
          std::string(reinterpret_cast<const char*>(reason.data()), reason.size())};
}

}  // namespace xenon
