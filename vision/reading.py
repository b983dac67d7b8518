"""What the camera saw: one reading per die, and the reading of a whole tray."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Why a die can be reported without a value.
UNREADABLE_REASONS = ("cocked", "cut off", "blurred", "ambiguous pips")


@dataclass
class DieReading:
    """One die found in a tray photo.

    ``value`` is the face on top (1..sides) or ``None`` when the die is
    unreadable, in which case ``unreadable`` says why (one of
    :data:`UNREADABLE_REASONS`). ``box`` is ``[x0, y0, x1, y1]`` in pixels of
    the die's body as seen; ``center`` is ``(x, y)`` pixels of the top face.
    ``confidence`` is in [0, 1].
    """

    value: int | None
    sides: int
    box: tuple[int, int, int, int]
    center: tuple[float, float]
    color: str
    confidence: float
    unreadable: str | None = None
    principal: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON form: value, sides, box, color, principal, confidence, unreadable."""
        return {
            "value": self.value,
            "sides": self.sides,
            "box": [int(v) for v in self.box],
            "color": self.color,
            "principal": self.principal,
            "confidence": round(float(self.confidence), 3),
            "unreadable": self.unreadable,
        }


@dataclass
class TrayReading:
    """All dice read in one photo.

    ``size`` is ``(width, height)`` pixels of the photo, ``seconds`` the time
    the reading itself took, ``principal_note`` why no principal die was
    marked (``None`` when one was).
    """

    dice: list[DieReading] = field(default_factory=list)
    size: tuple[int, int] = (0, 0)
    seconds: float = 0.0
    principal_note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON form: dice (see :meth:`DieReading.to_dict`), size, seconds, principal_note."""
        return {
            "dice": [die.to_dict() for die in self.dice],
            "size": [int(self.size[0]), int(self.size[1])],
            "seconds": round(float(self.seconds), 4),
            "principal_note": self.principal_note,
        }
