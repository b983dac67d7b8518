"""Pick the principal die by its colour (the table's rule D6-2): by a palette name, or by the
colour measured on the table's own principal die."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from numpy.typing import NDArray

from vision.colors import PALETTE, dice_lab
from vision.reading import DieReading

#: The colour difference (:func:`difference`) within which a die can be the measured principal
#: die, and how much nearer than any other die it must be (the second nearest at least
#: CLEAR_RATIO times and CLEAR_MARGIN more as far). Chosen on benchmarks/vision_light.py's
#: photos (byler's tray, penlington's desk; docs/benchmarks.md): under ×0.6–×1.4 light and
#: warm or cool casts the principal die of the 38 photos that have one is found in all 228 (a
#: die whose body clips white at ×1.4 moves 12 from its measure, the others at most 2; a
#: near-twin of a red principal die lies 3 from it).
NEAR_DIFFERENCE = 16.0
CLEAR_RATIO = 1.5
CLEAR_MARGIN = 1.0
#: lightness weight k_L of :func:`difference` (CMC l:c 2:1 weighs lightness so): a change of
#: exposure, or a body the sensor clips, moves L* more than the die's hue and chroma
LIGHTNESS_WEIGHT = 2.0

#: a CIELAB colour (L*, a*, b*)
Lab = tuple[float, float, float]


@dataclass(frozen=True)
class MeasuredColor:
    """The principal die's colour as measured on a die of the tray (RULES D6-2a).

    ``name`` is its palette name (what the page shows), ``lab`` its body's CIELAB
    ``(L*, a*, b*)`` white-balanced and exposed against the floor
    (:func:`vision.colors.dice_lab`), so it holds when the light changes.
    """

    name: str
    lab: Lab

    def to_dict(self) -> dict[str, Any]:
        """``{"name", "lab": [L*, a*, b*]}`` (one decimal)."""
        return {"name": self.name, "lab": [round(float(v), 1) for v in self.lab]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MeasuredColor:
        """The inverse of :meth:`to_dict`. :raises ValueError: not such a dict."""
        try:
            name, lab = data["name"], tuple(float(v) for v in data["lab"])
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"a measured colour is {{\"name\", \"lab\": [L, a, b]}}, got {data!r}") from None
        if name not in PALETTE or len(lab) != 3 or not all(math.isfinite(v) for v in lab):
            raise ValueError(f"a measured colour is {{\"name\", \"lab\": [L, a, b]}}, got {data!r}")
        return cls(name, (lab[0], lab[1], lab[2]))


def measure_die(image: NDArray[Any], box: Sequence[int], name: str) -> MeasuredColor:
    """The measured colour of the die in ``box`` (``[x0, y0, x1, y1]`` pixels) named ``name``,
    the only die of ``image`` (H×W×3 uint8 BGR) in sight: the floor is measured around it.

    :raises ValueError: a bad image or box.
    """
    return MeasuredColor(name, dice_lab(image, [box])[0])


def mark_principal(dice: Sequence[DieReading], principal_color: str | None = None) -> str | None:
    """Mark the principal die in place and say why when none is marked.

    With ``principal_color`` the principal die is the one die of that colour;
    without, the one die whose colour no other die has. When zero or several
    dice qualify none is marked: a principal die is never picked at random.

    :returns: None when a die was marked, else the plain-English reason.
    """
    for die in dice:
        die.principal = False
    if not dice:
        return "no dice"
    if principal_color is not None:
        chosen = [die for die in dice if die.color == principal_color]
        if not chosen:
            return f"no die of colour {principal_color}"
        if len(chosen) > 1:
            return f"{len(chosen)} dice of colour {principal_color}"
    else:
        counts = Counter(die.color for die in dice)
        chosen = [die for die in dice if counts[die.color] == 1]
        if not chosen:
            return "no die of a colour no other die has"
        if len(chosen) > 1:
            return "several dice of a colour no other die has"
    chosen[0].principal = True
    return None


def difference(a: Lab, b: Lab) -> float:
    """The colour difference of two CIELAB colours: Euclidean, the L* difference divided by
    :data:`LIGHTNESS_WEIGHT` (ΔE*ab with k_L = 2)."""
    return math.hypot((a[0] - b[0]) / LIGHTNESS_WEIGHT, a[1] - b[1], a[2] - b[2])


def find_measured(labs: Sequence[Lab], measured: Lab) -> int | str:
    """The index of the die whose colour (of ``labs``, :func:`vision.colors.dice_lab`) is the
    ``measured`` one: the nearest, when within :data:`NEAR_DIFFERENCE` and clearly nearer
    than any other (:data:`CLEAR_RATIO`, :data:`CLEAR_MARGIN`); else ``"none near"`` or
    ``"several near"``."""
    order = sorted(range(len(labs)), key=lambda i: difference(labs[i], measured))
    if not order or difference(labs[order[0]], measured) > NEAR_DIFFERENCE:
        return "none near"
    nearest = difference(labs[order[0]], measured)
    if len(order) > 1 and difference(labs[order[1]], measured) < max(CLEAR_RATIO * nearest,
                                                                     nearest + CLEAR_MARGIN):
        return "several near"
    return order[0]


def mark_measured(image: NDArray[Any], dice: Sequence[DieReading], measured: MeasuredColor) -> str | None:
    """Mark the die of the ``measured`` colour the principal die, in place (RULES D6-2a: the
    die of the configured principal colour; :func:`find_measured`).

    No die near it: the palette name's rule (:func:`mark_principal` with ``measured.name``)
    decides. Several about as near: none is marked, and the table is asked (RULES D6-2a: a
    principal die is never picked at random).

    :param image: H×W×3 uint8 BGR, the photo the dice were read in.
    :returns: None when a die was marked, else the plain-English reason.
    :raises ValueError: a bad image or box.
    """
    found = find_measured(dice_lab(image, [die.box for die in dice]), measured.lab)
    if found == "none near":
        return mark_principal(dice, measured.name)
    for die in dice:
        die.principal = False
    if isinstance(found, str):
        return f"several dice of about the measured {measured.name}"
    dice[found].principal = True
    return None
