"""Read the numeral on a numbered die's top face: a third small network, run by onnxruntime.

The numbered classifier (:mod:`vision.numerals`) names the dice but learned their values from
the datasets' few trays (one photo of each d20 value at most): on a die it never saw it reads
few numerals right. This network (``models/faces_value.onnx``, made by ``tools/train_faces.py``)
learned the numerals of d6s, d8s, d10s, percentile d10s, d12s and d20s (:data:`GLYPHS`) from
faces drawn by ``tools/face_synth.py`` only (every colour, marbling, font, light and slant), and
a class "turned" (no numeral upright in the middle): it never saw a photo, so its figures on the
datasets' real numbered dice (``benchmarks/vision_faces.py``) are those of dice it never saw.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.image import square_crop
from vision.network import Network

FACE_CROP = 48  # pixels: the network's input side
#: the crop's side as a multiple of the die's: the top face and some of its neighbours, whose
#: numerals the network learned to ignore (the whole die would give the numeral fewer pixels)
FACE_SPAN = 0.8
MAX_NUMERAL = 20  # the most numerals a die the network reads prints (a d20)
#: a die's crop is read turned this many ways (every 45°): in one of them the numeral stands
#: within ±22.5° of upright, as the network learned it (drawn within ±20°, then turned ±5° more)
TURNS = 8
#: the network's classes but the last, each at column (its index) of its output: the numerals
#: 1..MAX_NUMERAL, the "0" a d10 prints for 10, and a percentile d10's "00" (100, its value 10)
#: and "30"…"90" (its "10" and "20" are the numerals 10 and 20)
GLYPHS: tuple[str, ...] = (*(str(n) for n in range(1, MAX_NUMERAL + 1)), "0", "00",
                           *(f"{n}0" for n in range(3, 10)))
#: the last class, at column TURNED - 1: "turned", no numeral upright in the crop's middle (a face
#: turned further, or an emblem)
TURNED = len(GLYPHS) + 1


def die_glyphs(sides: int, percentile: bool = False) -> list[str]:
    """What a d``sides`` prints on its faces of value 1..sides: a d10's 10 is "0", a percentile
    d10's faces are "10"…"90" and "00" (value 10).

    :raises ValueError: ``sides`` is not 1..MAX_NUMERAL, or a percentile die is not a d10."""
    if not 1 <= sides <= MAX_NUMERAL or (percentile and sides != 10):
        raise ValueError(f"the face-value network reads numerals 1..{MAX_NUMERAL} and percentile d10s, "
                         f"not a {'percentile ' if percentile else ''}d{sides}")
    if percentile:
        return [f"{v}0" for v in range(1, 10)] + ["00"]
    return [str(v % 10 if sides == 10 else v) for v in range(1, sides + 1)]


_NETWORK = Network(Path(__file__).resolve().parent / "models" / "faces_value.onnx", "face-value network")


def face_crop(image: NDArray[Any], center: tuple[float, float], side: float, angle: float = 0.0) -> NDArray[Any]:
    """A FACE_CROP×FACE_CROP×3 uint8 BGR crop of an H×W×3 uint8 BGR photo showing the die of
    ``side`` pixels centred on ``center`` (x, y pixels): its middle FACE_SPAN × side square,
    turned ``angle`` degrees counter-clockwise and scaled to fill the crop; the photo's edge
    repeated beyond."""
    return square_crop(image, center, max(FACE_SPAN * side, 1.0), FACE_CROP, angle)


def turned_crops(image: NDArray[Any], center: tuple[float, float], side: float) -> NDArray[Any]:
    """TURNS×FACE_CROP×FACE_CROP×3 uint8 BGR: :func:`face_crop` turned by every 360 / TURNS degrees
    (the network learned upright numerals: one of these turns shows it so)."""
    return np.stack([face_crop(image, center, side, 360.0 * k / TURNS) for k in range(TURNS)])


def value_odds(odds: NDArray[Any], sides: int, percentile: bool = False) -> NDArray[np.float32]:
    """Each value 1..``sides``'s probability (index 0 is 1) in the die's turned crop surest of it,
    from their TURNS×TURNED probabilities (:func:`numeral_odds`); the numerals the die does not
    print (:func:`die_glyphs`) are left out of the probability, the class "turned" is not.

    :raises ValueError: as :func:`die_glyphs`."""
    columns = [GLYPHS.index(glyph) for glyph in die_glyphs(sides, percentile)] + [TURNED - 1]
    kept = odds[:, columns]
    best: NDArray[np.float32] = (kept[:, :sides] / kept.sum(axis=1, keepdims=True)).max(axis=0).astype(np.float32)
    return best


def numeral_odds(crops: NDArray[Any]) -> NDArray[np.float32]:
    """N×TURNED probabilities of each of GLYPHS (column 0 is "1") upright on the top face of each of
    N FACE_CROP×FACE_CROP×3 uint8 BGR crops (:func:`face_crop`), and last of none upright.

    :raises FileNotFoundError: the network's file is missing."""
    logits = _NETWORK.run_images(crops)["value"]
    odds: NDArray[np.float32] = np.exp(logits - logits.max(axis=1, keepdims=True)).astype(np.float32)
    odds /= odds.sum(axis=1, keepdims=True)
    return odds


def face_odds(image: NDArray[Any], center: tuple[float, float], side: float, sides: int,
              percentile: bool = False) -> NDArray[np.float32]:
    """:func:`value_odds` of the top face of the d``sides`` (a percentile d10 with ``percentile``)
    of ``side`` pixels at ``center`` (x, y pixels) of an H×W×3 uint8 BGR photo: ``sides``
    probabilities (0–1), of the values 1..sides.

    :raises ValueError: as :func:`die_glyphs` (before any crop is cut).
    :raises FileNotFoundError: the network's file is missing.
    """
    die_glyphs(sides, percentile)
    return value_odds(numeral_odds(turned_crops(image, center, side)), sides, percentile)


def read_face(image: NDArray[Any], center: tuple[float, float], side: float, sides: int,
              percentile: bool = False) -> tuple[int, float]:
    """The value (1..``sides``) of the numeral on the top face of the d``sides`` (a percentile d10
    with ``percentile``) of ``side`` pixels at ``center`` (x, y pixels) of an H×W×3 uint8 BGR
    photo, and the network's probability of it (0–1): the likeliest of :func:`face_odds`; the
    reader gives it as the die's value only when sure enough (:data:`vision.numerals.FACE_MIN`).

    :raises ValueError: as :func:`die_glyphs` (before any crop is cut).
    :raises FileNotFoundError: the network's file is missing.
    """
    odds = face_odds(image, center, side, sides, percentile)
    return int(np.argmax(odds)) + 1, float(odds.max())
