#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks that a PNG screenshot is not blank: decodes it (8-bit RGB or RGBA, any filter)
and counts its distinct pixel values. Prints the count; exits 1 below MINIMUM.

usage: check_screenshot.py FILE.png MINIMUM
"""
import struct
import sys
import zlib


def pixels(path):
    with open(path, "rb") as file:
        data = file.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    offset, idat = 8, b""
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    if depth != 8 or colour not in (2, 6):
        raise ValueError(f"PNG of depth {depth}, colour type {colour}: not 8-bit RGB(A)")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    rows = []
    position = 0
    for _ in range(height):
        kind = raw[position]
        line = bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + predictor) & 0xFF
        rows.append(bytes(line))
        previous = line
    return {row[i:i + channels] for row in rows for i in range(0, stride, channels)}


def main():
    distinct = len(pixels(sys.argv[1]))
    print(f"check_screenshot: {distinct} distinct pixel values")
    return 0 if distinct >= int(sys.argv[2]) else 1


if __name__ == "__main__":
    sys.exit(main())
