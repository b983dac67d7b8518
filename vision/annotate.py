"""Draw a tray reading on its photo: boxes, values, colours, the principal die, unreadable dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
from numpy.typing import NDArray

from vision.reading import TrayReading

Box = tuple[int, int, int, int]  # pixels [x0, y0, x1, y1]

_READ = (80, 200, 60)  # BGR: a die read
_UNREADABLE = (40, 40, 230)  # BGR: a die seen but not read
_PRINCIPAL = (0, 215, 255)  # BGR: the principal die's frame
#: A label's digit height over the photo's longer side (a 1280 px photo: 46 px digits).
LABEL_SHARE = 1 / 28
LABEL_GAP = 2  # pixels kept clear around a label, so two labels never run into one


def annotate(image: NDArray[Any], reading: TrayReading, labels: Sequence[str | None] | None = None, *,
             words: bool = True) -> NDArray[Any]:
    """A copy of ``image`` with every die of ``reading`` drawn on it.

    Each die gets its box and a label: the value and colour ("5 red"), or
    "? cocked" with the reason for an unreadable die, or the value alone ("5", "?") where a
    whole label would cover another's on a crowded tray. The principal die gets a
    second, gold frame and a "P". Line widths and labels grow with the photo: a label's
    digits are :data:`LABEL_SHARE` of its longer side, readable on a phone that shows it whole.

    :param image: H×W×3 uint8 BGR photo the reading was made from.
    :param labels: per die of ``reading``, a label to draw instead (a corrected die's
        "4->6"), or None to keep its own.
    :param words: False for labels in no language, the value alone ("5") or "?": a photo
        the page shows to phones of every language (its box's colour says read or not).
    :returns: a new H×W×3 uint8 BGR image.
    """
    out = image.copy()
    height, width = out.shape[:2]
    thickness = max(1, round(max(height, width) / 500))
    # A label's digits are LABEL_SHARE of the photo's longer side, however many pixels it has: a
    # phone shows the whole photo about 360 px wide, where they stay about 13 px high.
    digit_height = cv2.getTextSize("0", cv2.FONT_HERSHEY_SIMPLEX, 1.0, thickness)[0][1]
    font_scale = max(0.35, LABEL_SHARE * max(height, width) / digit_height)
    taken: list[Box] = []  # the labels drawn so far
    for number, die in enumerate(reading.dice):
        x0, y0, x1, y1 = (int(v) for v in die.box)
        colour = _READ if die.value is not None else _UNREADABLE
        cv2.rectangle(out, (x0, y0), (x1 - 1, y1 - 1), colour, thickness)
        if die.principal:
            pad = 2 * thickness + 1
            cv2.rectangle(out, (x0 - pad, y0 - pad), (x1 - 1 + pad, y1 - 1 + pad), _PRINCIPAL, thickness)
        short = str(die.value) if die.value is not None else "?"
        text = f"{die.value} {die.color}" if die.value is not None else f"? {die.unreadable}"
        label = labels[number] if labels is not None else None
        # A crowded tray: where the whole label would cover another, the value alone ("5", "?").
        texts = [label] if label is not None else [text, short] if words else [short]
        placed = []  # (area of other labels covered, text, origin, text's size)
        for text in texts:
            text = "P " + text if die.principal else text
            (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thickness)
            origin, covered = _label_place((x0, y0, x1, y1), (tw, th, base), (width, height), taken)
            placed.append((covered, text, origin, (tw, th, base)))
            if not covered:
                break
        _, text, (tx, ty), (tw, th, base) = min(placed, key=lambda place: place[0])
        taken.append((tx - LABEL_GAP, ty - th - 1 - LABEL_GAP, tx + tw + LABEL_GAP, ty + base + LABEL_GAP))
        cv2.rectangle(out, (tx, ty - th - 1), (tx + tw, ty + base), (0, 0, 0), cv2.FILLED)
        cv2.putText(out, text, (tx, ty), cv2.FONT_HERSHEY_SIMPLEX, font_scale, colour, thickness,
                    cv2.LINE_AA)
    return out


def _overlap(a: Box, b: Box) -> int:
    """The area (pixels) two boxes share."""
    return max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))


def _label_place(box: Box, text: tuple[int, int, int], size: tuple[int, int],
                 taken: list[Box]) -> tuple[tuple[int, int], int]:
    """Where a die's label is drawn (its text's origin, pixels): above its ``box``, else below,
    else inside its top (the photo's edge in the way), each starting at the box's left edge,
    else centred on it, else ending at its right edge: the first that covers none of the labels
    ``taken``; when each covers one, the one covering least (touching dice on a crowded tray).

    :param text: the label's width, height and baseline (``cv2.getTextSize``), pixels.
    :param size: the photo's width and height, pixels.
    :returns: the origin, and the area (pixels) of the labels ``taken`` it covers there."""
    x0, y0, x1, y1 = box
    tw, th, base = text
    width, height = size
    rows = [y0 - 3, y1 + th + 3, y0 + th + 3]  # above, below, inside
    fits = [ty for ty in rows if ty - th - 1 >= 0 and ty + base <= height] or [min(height - base, y1 + th + 3)]
    columns = dict.fromkeys(min(max(0, tx), max(0, width - tw)) for tx in (x0, (x0 + x1 - tw) // 2, x1 - tw))
    places = [((tx, ty), sum(_overlap((tx, ty - th - 1, tx + tw, ty + base), t) for t in taken))
              for ty in fits for tx in columns]
    return min(places, key=lambda place: place[1])
