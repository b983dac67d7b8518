"""What every rules system answers besides its result: the dice it still needs."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Needs:
    """More dice the players must throw before the roll is complete (RULES T-2, T-3).

    :param count: how many more dice, each from a fresh throw.
    :param sides: the physical die to throw: 6 or 10; Destiny Dice also 4, 8, 12 and 20
        (an attack step that asks for two dice names them all in :attr:`rules.destiny.AttackNeeds.dice`).
    :param kind: how the die is read, e.g. ``"D3"`` for a perfect roll's extra die.
    :param reason: one plain English sentence for the players.
    """

    count: int
    sides: int
    kind: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON form: ``{"count", "sides", "kind", "reason"}``."""
        return asdict(self)
