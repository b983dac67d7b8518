"""``dicelens read`` on image files too large to decode safely: one line each, no traceback."""

from __future__ import annotations

import json
import struct
import zlib

import pytest

from .cli_run import dicelens

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples


def huge_png(path, width: int, height: int) -> None:
    """A valid PNG claiming ``width``×``height`` pixels, with a few bytes of pixel data only."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b""))


def test_images_too_large_are_one_line_each_and_the_others_still_read(tmp_path, four_ones):
    ppm = tmp_path / "big.ppm"
    ppm.write_bytes(b"P6\n40000 40000\n255\n")
    png = tmp_path / "wide.png"
    huge_png(png, 20000, 20000)
    done = dicelens("read", str(ppm), str(png), str(four_ones))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"dicelens: {ppm}: image too large (40000×40000 pixels; at most 50 megapixels)",
        f"dicelens: {png}: image too large (20000×20000 pixels; at most 50 megapixels)",
    ]
    assert [json.loads(line)["file"] for line in done.stdout.splitlines()] == [str(four_ones)]


def test_a_format_whose_header_is_not_read_here_stops_at_opencvs_limit(tmp_path):
    # Radiance HDR, 10000×10000: Pillow does not know it; OpenCV's own limit, lowered to 50
    # megapixels, refuses it
    hdr = tmp_path / "big.hdr"
    hdr.write_bytes(b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 10000 +X 10000\n")
    done = dicelens("read", str(hdr))
    assert done.returncode == 2
    assert done.stderr == f"dicelens: {hdr}: image too large (at most 50 megapixels)\n"
