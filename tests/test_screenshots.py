"""tools/screenshots.py squeezes Chromium's PNGs losslessly: every filter PNG allows is undone."""

from __future__ import annotations

import random
import struct
import zlib
from pathlib import Path

from tools import screenshots


def _filtered(rows: list[bytes], bpp: int) -> bytes:
    """Rows encoded with filters 0-4 in turn (the reference encoder of the PNG specification)."""
    out, prev = bytearray(), bytes(len(rows[0]))
    for y, line in enumerate(rows):
        kind = y % 5
        out.append(kind)
        for i, value in enumerate(line):
            left = line[i - bpp] if i >= bpp else 0
            up, corner = prev[i], (prev[i - bpp] if i >= bpp else 0)
            guess = left + up - corner
            paeth = min(
                (abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner)
            )[2]
            predictor = (0, left, up, (left + up) >> 1, paeth)[kind]
            out.append((value - predictor) & 255)
        prev = line
    return bytes(out)


def _png(width: int, height: int, bpp: int, rows: list[bytes]) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2 if bpp == 3 else 6, 0, 0, 0)
    body = zlib.compress(_filtered(rows, bpp))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def test_squeeze_keeps_every_pixel_of_every_filter(tmp_path: Path) -> None:
    rng = random.Random(7)
    for bpp in (3, 4):
        width, height = 37, 23
        # a gradient with noise, like the felt: every filter has something to predict
        rows = [
            bytes((x * 5 + y * 3 + rng.randrange(8)) & 255 for x in range(width * bpp)) for y in range(height)
        ]
        path = tmp_path / f"shot{bpp}.png"
        path.write_bytes(_png(width, height, bpp, rows))
        assert screenshots.pixel_rows(path.read_bytes()) == (width, height, bpp, rows)
        screenshots.squeeze(path)
        assert screenshots.pixel_rows(path.read_bytes()) == (width, height, bpp, rows)
