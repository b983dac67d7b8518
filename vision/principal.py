"""Pick the principal die by its colour (the table's rule D6-2)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from vision.reading import DieReading


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
