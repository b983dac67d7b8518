"""Who acts first in a Destiny Dice fight (RULES.md §3, DD-1): the Mind dice thrown,
highest first, heroes before enemies on a tie, ties kept as groups the table may reorder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from rules.destiny_spec import Side, is_int
from rules.errors import InvalidRoll


@dataclass(frozen=True)
class InitiativeEntry:
    """One participant's initiative: their Mind die result (RULES DD-1).

    :param name: who.
    :param side: ``"hero"`` or ``"enemy"``.
    :param value: the Mind die's result.
    :param group: index of the tie group: entries of the same side and value,
        which the players (heroes) or the narrator (enemies) may reorder.
    """

    name: str
    side: Side
    value: int
    group: int = 0

    def to_dict(self) -> dict[str, Any]:
        """``{"name", "side", "value", "group"}``."""
        return asdict(self)


def initiative_order(entries: Sequence[tuple[str, Side, int | None]]) -> tuple[InitiativeEntry, ...]:
    """Order participants by initiative (RULES DD-1).

    Highest first; a hero acts before an enemy with the same value; heroes tied
    among themselves, or enemies, keep the order given (stable) and form a tie
    group the page may reorder.

    :param entries: ``(name, side, value)`` per participant; names unique.
    :returns: entries in acting order, ``group`` numbered from 0 in that order.
    :raises InvalidRoll: for a duplicate name, an unknown side or a value below 1.
    """
    seen = set()
    checked: list[tuple[str, Side, int]] = []
    for name, side, value in entries:
        if name in seen:
            raise InvalidRoll(f"{name} appears twice in the initiative")
        seen.add(name)
        if side not in ("hero", "enemy"):
            raise InvalidRoll(f"{name} is a hero or an enemy, not {side!r}")
        if not is_int(value) or value < 1:
            raise InvalidRoll(f"{name}'s initiative must be a whole number of at least 1, not {value!r}")
        checked.append((name, side, value))
    ranked = sorted(checked, key=lambda entry: (-entry[2], entry[1] != "hero"))  # sorted() is stable
    ordered: list[InitiativeEntry] = []
    group = -1
    for name, side, value in ranked:
        if not ordered or (ordered[-1].side, ordered[-1].value) != (side, value):
            group += 1
        ordered.append(InitiativeEntry(name, side, value, group))
    return tuple(ordered)
