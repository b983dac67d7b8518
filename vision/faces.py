"""Read the numeral on a d12's or d20's top face: a third small network, run by onnxruntime.

The numbered classifier (:mod:`vision.numerals`) names these dice but learned their values from
too few photos (one of each d20 value at most) to be trusted with them. This network
(``models/faces_value.onnx``, made by ``tools/train_faces.py``) learned the numerals 1..20 from
faces drawn by ``tools/face_synth.py`` only (every colour, marbling, font, light and slant), and
a class "turned" (no numeral upright in the middle): it never saw a photo, so its figures on the
datasets' real d12s and d20s (``benchmarks/vision_faces.py``) are those of dice it never saw.
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
MAX_NUMERAL = 20  # the network tells apart the numerals 1..MAX_NUMERAL
#: a die's crop is read turned this many ways (every 45°): in one of them the numeral stands within
#: ±22.5° of upright, as the network learned it (drawn within ±20°, then turned ±5° more)
TURNS = 8
#: the network's classes are the numerals 1..MAX_NUMERAL and, last (column TURNED - 1 of its
#: output), "turned": no numeral upright in the crop's middle
TURNED = MAX_NUMERAL + 1

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


def best_numeral(odds: NDArray[Any], sides: int) -> tuple[int, float]:
    """The numeral of 1..``sides`` and its probability in the surest of a die's turned crops, from
    their TURNS×TURNED probabilities (:func:`numeral_odds`); the numerals beyond ``sides`` are left
    out of the probability, the class "turned" is not."""
    kept = np.concatenate([odds[:, :sides], odds[:, TURNED - 1:]], axis=1)
    allowed = kept[:, :sides] / kept.sum(axis=1, keepdims=True)
    turn, numeral = np.unravel_index(int(np.argmax(allowed)), allowed.shape)
    return int(numeral) + 1, float(allowed[turn, numeral])


def numeral_odds(crops: NDArray[Any]) -> NDArray[np.float32]:
    """N×TURNED probabilities of the numerals 1..MAX_NUMERAL (column 0 is 1) upright on the top face
    of each of N FACE_CROP×FACE_CROP×3 uint8 BGR crops (:func:`face_crop`), and last of none upright.

    :raises FileNotFoundError: the network's file is missing."""
    logits = _NETWORK.run_images(crops)["value"]
    odds: NDArray[np.float32] = np.exp(logits - logits.max(axis=1, keepdims=True)).astype(np.float32)
    odds /= odds.sum(axis=1, keepdims=True)
    return odds


def read_face(image: NDArray[Any], center: tuple[float, float], side: float, sides: int) -> tuple[int, float]:
    """The numeral on the top face of the d``sides`` (12 or 20) of ``side`` pixels at ``center``
    (x, y pixels) of an H×W×3 uint8 BGR photo, and the network's probability of it (0–1); the
    reader gives it as the die's value only when sure enough (:data:`vision.numerals.FACE_MIN`).

    :raises ValueError: ``sides`` is not 1..MAX_NUMERAL.
    :raises FileNotFoundError: the network's file is missing.
    """
    if not 1 <= sides <= MAX_NUMERAL:
        raise ValueError(f"the face-value network reads numerals 1..{MAX_NUMERAL}, not a d{sides}")
    return best_numeral(numeral_odds(turned_crops(image, center, side)), sides)
