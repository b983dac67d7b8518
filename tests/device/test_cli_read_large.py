"""``dicelens read`` on image files too large to decode safely: one line each, no traceback."""

from __future__ import annotations

import json
import struct
import zlib

from .cli_run import dicelens
from .test_cli_read import PHOTO


def huge_png(path, width: int, height: int) -> None:
    """A valid PNG header claiming ``width``×``height`` pixels, followed by a few pixels only."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + header
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(header)) + chunk
                     + struct.pack(">I", zlib.crc32(chunk)) + b"\x00" * 64)


def test_images_too_large_are_one_line_each_and_the_others_still_read(tmp_path):
    ppm = tmp_path / "big.ppm"
    ppm.write_bytes(b"P6\n40000 40000\n255\n")
    png = tmp_path / "wide.png"
    huge_png(png, 20000, 20000)
    done = dicelens("read", str(ppm), str(png), str(PHOTO))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"dicelens: {ppm}: image too large (40000×40000 pixels; at most 50 megapixels)",
        f"dicelens: {png}: image too large (20000×20000 pixels; at most 50 megapixels)",
    ]
    assert [json.loads(line)["file"] for line in done.stdout.splitlines()] == [str(PHOTO)]


def test_a_format_whose_header_is_not_read_here_stops_at_opencvs_limit(tmp_path):
    # Sun raster, 10000×10000 × 24 bits: OpenCV's own limit, lowered to 50 megapixels, refuses it
    raster = tmp_path / "big.ras"
    raster.write_bytes(struct.pack(">8I", 0x59A66A95, 10000, 10000, 24, 0, 1, 0, 0))
    done = dicelens("read", str(raster))
    assert done.returncode == 2
    assert done.stderr == f"dicelens: {raster}: image too large (at most 50 megapixels)\n"
