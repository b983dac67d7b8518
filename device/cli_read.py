"""``dicelens read IMAGE…``: read the dice in photos, one JSON object per photo per line.

Each line is ``{"file", "dice": [{"value", "sides", "box", "color", "principal",
"confidence", "unreadable"}], "seconds"}`` with ``seconds`` the time of the
reading itself. A file that cannot be read as an image is reported on
stderr in one line and the others are still read; the exit status is then 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

from device.cli import output_folder
from vision import annotate, read_tray
from vision.colors import PALETTE


def _palette_name(text: str) -> str:
    if text not in PALETTE:
        raise argparse.ArgumentTypeError(f"unknown colour {text!r}; choose from {', '.join(PALETTE)}")
    return text


def register(subparsers) -> None:
    """Add ``read`` to the ``dicelens`` sub-commands."""
    parser = subparsers.add_parser("read", help="read the dice in tray photos (JSON lines)",
                                   description=__doc__.splitlines()[0])
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photo files (JPEG, PNG…)")
    parser.add_argument("--principal-color", type=_palette_name, metavar="NAME",
                        help="colour of the principal die (default: the one die of a unique colour)")
    parser.add_argument("--annotate", type=Path, metavar="DIR",
                        help="also write each photo with the readings drawn on it into DIR")
    parser.set_defaults(func=run)


def _annotated_path(folder: Path, name: str, written: set[Path]) -> Path:
    """``STEM.annotated.png``; ``STEM-2.annotated.png``… when photos of two folders share a stem."""
    stem, number = Path(name).stem, 1
    out = folder / f"{stem}.annotated.png"
    while out in written:
        number += 1
        out = folder / f"{stem}-{number}.annotated.png"
    return out


def run(args: argparse.Namespace) -> int:
    """Read every image; 0 when all were read, 2 when one or more could not be opened."""
    status = 0
    written: set[Path] = set()
    if args.annotate is not None:  # checked before the first photo, so no reading is wasted
        output_folder(args.annotate, "--annotate")
    for name in args.images:
        image = cv2.imread(name, cv2.IMREAD_COLOR) if Path(name).is_file() else None
        if image is None:
            reason = "no such file" if not Path(name).is_file() else "not an image"
            print(f"dicelens: {name}: {reason}", file=sys.stderr)
            status = 2
            continue
        reading = read_tray(image, principal_color=args.principal_color)
        dice = [die.to_dict() for die in reading.dice]
        print(json.dumps({"file": name, "dice": dice, "seconds": round(reading.seconds, 4)}), flush=True)
        if args.annotate is not None:
            out = _annotated_path(args.annotate, name, written)
            cv2.imwrite(str(out), annotate(image, reading))
            written.add(out)
    return status
