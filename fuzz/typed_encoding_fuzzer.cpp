// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target for the typed decoder (include/xenon/core/typed_encoding.hpp). The input
// is a value's encoding without its 4-byte schema fingerprint, which the fuzzer puts in front
// (random bytes would almost never match it). typed_decode may accept the payload or throw
// TypedDecodeError, and must do nothing else (no crash, no other exception, no read out of
// bounds). An accepted payload must be exactly what the encoder writes for the value read:
// one encoding per value.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz/typed_encoding_record.hpp"
#include "xenon/core/byte_order.hpp"

namespace {

void require(bool condition) {
  if (!condition) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using xenon::fuzzing::FuzzRecord;
  // Exactly the payload's bytes on the heap, so ASan catches a read one byte past the end.
  std::vector<std::byte> payload(4 + size);
  xenon::store_le32(payload.data(), xenon::typed_schema_fingerprint<FuzzRecord>());
  for (std::size_t i = 0; i < size; ++i) payload[4 + i] = static_cast<std::byte>(data[i]);

  FuzzRecord record;
  try {
    record = xenon::typed_decode<FuzzRecord>(payload);
  } catch (const xenon::TypedDecodeError&) {
    return 0;
  }
  require(xenon::typed_encode(record) == payload);
  return 0;
}
