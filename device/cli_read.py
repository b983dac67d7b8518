"""``dicelens read IMAGE…``: read the dice in photos, one JSON object per photo per line.

Each line is ``{"file", "dice": [{"value", "sides", "box", "color", "principal",
"confidence", "unreadable", "kind", "face"}], "seconds"}`` with ``seconds`` the time of the
reading itself. Every kind of ``vision.numerals.KINDS`` is read (d4, pip d6, numbered d6,
d8, d10, percentile d10, d12, d20: ``vision.read_dice``) unless ``--kinds`` names some
(``--kinds d6-pips,d20``; ``--numbered``, from when pip d6 were the default, is every
kind too); ``sides`` 4–20, ``value`` 1..sides (a d10's "0" is 10), ``kind``, and
``face`` (the printed symbol when it is not the value: "0" on a d10 showing 10,
"00"…"90" on a percentile d10, else null). With ``--data DIR`` the dice
are read as the camera of a server on that folder reads them (:func:`device.tray.readers.adapted`):
with the adaptation ``dicelens teach`` made there (:mod:`vision.adapt`: the pip or the
numbered reader, as the table's dice are), or, when it read the taught photos no better
(``"used": false``), without it — one line on stderr says so. A file that cannot be
read as an image (missing, a folder, empty, damaged beyond decoding, or larger
than ``vision.image.MAX_PIXELS``, 50 megapixels, which is refused before it is
decoded) is reported on stderr in one line and the others are still read; the
exit status is then 2.
A photo cut short (a half-written JPEG or PNG) is such a file: "damaged image
(the file is cut short)". A photo damaged otherwise that still decodes in part
is read and one line on stderr says so.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from device.cli import UsageError, output_folder, summary
from device.tray.readers import adapted
from device.tray.readers import reader as tray_reader
from vision import TrayReading, adapt, annotate, read_dice
from vision.colors import PALETTE
from vision.dice import kinds_wanted
from vision.image import OPENCV_SILENT, DamagedImage, ImageTooLarge, read_image, set_opencv_log_level

#: What the reader does with a cocked or leaning die (RULES T-1, T-5), as ``--help`` says it.
LEANING = ('A die that is cocked, or leans on the tray wall, has value null and unreadable "cocked": '
           "the reader never reads a value made from the pips of two faces (RULES T-1), and it cannot "
           "tell a die leaning on the wall with a plain top face from one cocked on another die. With "
           'cocked_dice = "accept_leaning" in the config (RULES T-5), the page asks the table for that '
           "die's top face.")


def _palette_name(text: str) -> str:
    text = text.lower()
    if text not in PALETTE:
        raise argparse.ArgumentTypeError(f"unknown colour {text!r}; choose from {', '.join(PALETTE)}")
    return text


def _kinds(text: str) -> frozenset[str]:
    """``d6-pips,d20`` → those kinds (vision.numerals.KINDS)."""
    try:
        return kinds_wanted(name.strip() for name in text.split(",") if name.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(subparsers) -> None:
    """Add ``read`` to the ``dicelens`` sub-commands."""
    parser = subparsers.add_parser("read", help="read the dice in tray photos (JSON lines)",
                                   description=summary(__doc__), epilog=LEANING)
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photo files (JPEG, PNG…)")
    parser.add_argument("--principal-color", type=_palette_name, metavar="NAME",
                        help="colour of the principal die (default: the one die of a unique colour)")
    parser.add_argument("--kinds", type=_kinds, metavar="KIND,…",
                        help="read only these kinds, comma-separated: d4, d6-pips, d6 (numbered), d8, d10, "
                             "d10-percentile, d12, d20 (default: every kind). Each die has its kind, and its "
                             "face when the printed symbol is not the value (a d10's 0 is value 10, face 0)")
    parser.add_argument("--numbered", action="store_true",
                        help="every kind (the default; kept for scripts written when pip d6 were)")
    parser.add_argument("--data", type=Path, metavar="DIR",
                        help="read with the adaptation `dicelens teach` made in this data folder "
                             "(the table's own dice; pip or numbered, as taught)")
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


class _Unreadable(Exception):
    """A photo argument that is no image; the message completes "dicelens: NAME…"."""


def _decode_quietly(path: Path) -> tuple[np.ndarray | None, str]:
    """``cv2.imread`` with the C libraries' warnings (libjpeg's "Premature end
    of JPEG file") caught from file descriptor 2 instead of shown; returns the
    image (or None) and that text. OpenCV's own log is silenced in :func:`run`."""
    with tempfile.TemporaryFile() as caught:
        saved = os.dup(2)
        sys.stderr.flush()
        os.dup2(caught.fileno(), 2)
        try:
            # imread, not imdecode: from a buffer OpenCV gives up on a cut-short JPEG
            image = read_image(path, cv2.IMREAD_COLOR)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        caught.seek(0)
        return image, caught.read().decode(errors="replace").strip()


def load_photo(name: str) -> tuple[np.ndarray, str | None]:
    """Load a photo file as H×W×3 uint8 BGR, turned upright by its EXIF orientation.

    :returns: the image and ``None``, or a one-line note when the file is
        damaged but decoded in part (the decoder's warning says how).
    :raises _Unreadable: for a missing file, a folder, an empty or unreadable
        file, one no decoder understands, one cut short, or one too large to decode.
    """
    path = Path(name)
    if path.is_dir():
        raise _Unreadable(f"{name} is a folder, not an image")
    if not path.exists():
        raise _Unreadable(f"{name}: no such file")
    if not path.is_file():  # opening a named pipe would wait for a writer for ever
        raise _Unreadable(f"{name} is not a file (a pipe or a device), not an image")
    try:
        with path.open("rb") as file:
            empty = not file.read(1)
    except OSError as exc:
        raise _Unreadable(f"{name}: cannot be opened: {exc.strerror}") from None
    if empty:
        raise _Unreadable(f"{name}: empty file, not an image")
    try:
        image, warning = _decode_quietly(path)
    except (ImageTooLarge, DamagedImage) as exc:
        raise _Unreadable(f"{name}: {exc}") from None
    if image is None:
        raise _Unreadable(f"{name}: not an image, or a damaged one")
    if warning:
        return image, f"{name}: damaged image, only partly decoded ({warning.splitlines()[0]})"
    return image, None


def _reader(args: argparse.Namespace) -> Callable[..., TrayReading]:
    """The shipped readers of the kinds asked for (``vision.read_dice``), or with ``--data``
    the camera's reader of the folder's adaptation's family (pip or numbered, as the table's
    dice were taught; ``--kinds`` cannot narrow it), with the adaptation only when it is used."""
    if args.data is None:
        return functools.partial(read_dice, kinds=args.kinds)
    if args.kinds is not None:
        raise UsageError("--kinds and --data: an adaptation reads the kinds it was taught")
    if not args.data.is_dir():
        raise UsageError(f"--data: {args.data} is not a folder")
    try:
        adaptation = adapt.load(args.data)
    except adapt.ExampleError as exc:
        raise UsageError(f"--data: {exc}; teach it again with dicelens teach") from None
    if adaptation is None:
        raise UsageError(f"--data: {args.data} holds no adaptation; "
                         "make one with dicelens teach LABELS.json --data DIR")
    if not adaptation.used:
        print(f"dicelens: --data: {args.data}'s adaptation is not used ({adaptation.why or 'it reads no better'}): "
              "read without it, as the camera reads", file=sys.stderr)
    elif adapt.stale(adaptation):
        print(f"dicelens: --data: {args.data}'s adaptation was fitted on other networks than dicelens has now: "
              "read without it, as the camera reads; dicelens serve --data fits it again at start", file=sys.stderr)
    return adapted(adaptation.family, tray_reader(adaptation.family),
                   lambda family: adaptation if adaptation.used else None)


def run(args: argparse.Namespace) -> int:
    """Read every image; 0 when all were read, 2 when one or more could not be opened
    or its annotated copy not written."""
    set_opencv_log_level(OPENCV_SILENT)  # our own line says it plainly
    status = 0
    read = _reader(args)
    written: set[Path] = set()
    if args.annotate is not None:  # checked before the first photo, so no reading is wasted
        output_folder(args.annotate, "--annotate")
    for name in args.images:
        try:
            image, note = load_photo(name)
        except _Unreadable as exc:
            print(f"dicelens: {exc}", file=sys.stderr)
            status = 2
            continue
        if note is not None:
            print(f"dicelens: {note}", file=sys.stderr)
        reading = read(image, principal_color=args.principal_color)
        dice = [die.to_dict() for die in reading.dice]
        print(json.dumps({"file": name, "dice": dice, "seconds": round(reading.seconds, 4)}), flush=True)
        if args.annotate is not None:
            out = _annotated_path(args.annotate, name, written)
            try:  # encode then write, so a failure comes with the system's reason
                out.write_bytes(cv2.imencode(".png", annotate(image, reading))[1].tobytes())
            except OSError as exc:
                print(f"dicelens: --annotate: cannot write {out}: {exc.strerror}", file=sys.stderr)
                status = 2
            written.add(out)
    return status
