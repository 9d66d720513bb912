// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target for the wire decoder (engine/wire_frame.hpp). The input is a frame as it
// would arrive from another node. read_frame_header and decode_frame may accept it or throw
// WireFormatError, and must do nothing else (no crash, no other exception, no read out of
// bounds). An accepted frame must be exactly what FrameWriter writes for its records.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/wire_frame.hpp"

namespace {

void require(bool condition) {
  if (!condition) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // A copy of exactly `size` bytes on the heap, so ASan catches a read one byte past the end.
  const std::vector<std::byte> frame(reinterpret_cast<const std::byte*>(data),
                                     reinterpret_cast<const std::byte*>(data) + size);

  std::optional<xenon::FrameHeader> header_only;
  try {
    header_only = xenon::read_frame_header(frame);
  } catch (const xenon::WireFormatError&) {
  }

  // Re-encodes every delivered record; the source node is only known if the header is good.
  xenon::FrameWriter writer(header_only ? header_only->source_node : 0);
  std::size_t delivered = 0;
  std::optional<xenon::FrameHeader> header;
  try {
    header = xenon::decode_frame(frame, [&](const xenon::WireRecord& record) {
      // The decoder read this header, so read_frame_header must have accepted it.
      require(header_only.has_value());
      // Payloads lie inside the frame (append copies every byte of them, under ASan).
      require(record.payload.empty() ||
              (record.payload.data() >= frame.data() &&
               record.payload.data() + record.payload.size() <= frame.data() + frame.size()));
      if ((header_only->flags & xenon::kFlagAttachedPayload) != 0) {
        require(record.payload.empty());
        writer.append_attached(record.source, record.destination, record.action,
                               record.attached_length, record.urgent);
      } else {
        require(record.attached_length == 0);
        writer.append(record.source, record.destination, record.action, record.payload,
                      record.urgent);
      }
      ++delivered;
    });
  } catch (const xenon::WireFormatError&) {
    // A bad frame delivers nothing: the decoder validates every record before the first.
    require(delivered == 0);
    return 0;
  }

  // decode_frame accepts only frames whose header read_frame_header accepts, and agrees on it.
  require(header_only.has_value());
  require(header->flags == header_only->flags && header->source_node == header_only->source_node &&
          header->record_count == header_only->record_count &&
          header->sequence == header_only->sequence);
  require(delivered == header->record_count);

  // Re-encoding gives back the input byte for byte: one frame, one meaning.
  require(writer.take(header->sequence) == frame);
  return 0;
}
