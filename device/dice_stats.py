"""The table's dice in numbers (issue 17, the "Your dice" page): per kind of die, the dice the
history holds, how often the camera read them right, each face's count, and a test of
whether the faces come up as a fair die's would.

Pure (no I/O): the history's rolls in (``{"system", "dice"}`` dicts, as
:meth:`device.history.History.dice_of_rolls` gives them), JSON-ready dicts out. A roll's
dice are of one kind, the one its system throws (:data:`device.presets.SIDES`): six-sided
presets read pip d6 (``"d6-pips"``, RULES D6-1), the pool d10 (``"d10"``, RULES P-1: a
printed 0 is 10, so the faces are 1–10). The page words the figures (``web/dice_stats.py``).

Which dice count for what:

* ``read``: the dice the camera read; of them ``right`` (the table did not correct it),
  ``corrected`` (the table changed its face, or called it cocked) and ``unreadable`` (the
  camera said it could not read it, and nobody gave its face);
* ``by_hand``: dice entered by hand (the camera was away, or a leaning die's top face, or
  the dice a correction asked for): not the camera's, so in no share of read right;
* ``rolled``: every die of the rolls, ``read`` + ``by_hand`` (a die entered by hand and later
  marked cocked is still one rolled by hand, with no face);
* ``faces``: every die whose face is known (``dice``, their count), corrected ones with their corrected face (its
  true face: leaving them out would hide exactly the faces the camera misreads), and the
  fairness test on them;
* ``taught``: the examples taught for that kind (:func:`device.examples.taught_by_kind`),
  apart: a teaching round's dice are shown to the reader, not rolled in a game.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from scipy import optimize, stats

from device.presets import SIDES

ALPHA = 0.05  # the test's significance level
POWER = 0.8  # the chance of seeing the smallest bias given (the usual 80 %)
#: A face's expected count below which the chi-square's approximation is not trusted
#: (Cochran's rule): the exact binomial tests are used instead.
MIN_EXPECTED = 5
#: "Few" dice: so few that a face would have to come up more than a fifth more often than a
#: fair die's (1 in 5 instead of 1 in 6) to be seen: about 1,600 pip d6, 3,500 d10.
FEW_BIAS = 1.2


def kind_of(system: str) -> tuple[str, int]:
    """The kind (vision's name) and sides of the dice a roll of ``system`` throws.

    :raises KeyError: an unknown system.
    """
    sides = SIDES[system]
    return ("d6-pips" if sides == 6 else f"d{sides}"), sides


#: Every kind the history's rolls throw, in the page's order: ``{kind: sides}``.
KINDS: dict[str, int] = dict(kind_of(system) for system in SIDES)


@dataclass(frozen=True)
class Fairness:
    """A test of the faces' counts against a fair die's (every face 1 in ``sides``).

    :param test: ``"chi-square"`` (every face expected at least :data:`MIN_EXPECTED` times:
        Pearson's goodness of fit, ``scipy.stats.chisquare``) or ``"exact binomial"`` (fewer:
        each face's count against Binomial(n, 1/sides), ``scipy.stats.binomtest``, two-sided,
        the smallest p times the faces: Bonferroni).
    :param p: the p-value, 0–1: how often a fair die would give counts this far from even.
    :param face: the face furthest from its fair count (the largest standardised residual;
        for the exact test, the smallest p; of two as far, the one that came up more),
        1-based; ``more``: it came up more than a fair die's, else less.
    :param detectable: the chance of one face (the others sharing the rest alike) that this
        many dice would show at ``ALPHA`` with ``POWER`` (:func:`smallest_bias`); None: none
        this side of always.
    :param few: too few dice to call a die unfair (``detectable`` above ``FEW_BIAS`` / sides).
    """

    test: str
    p: float
    face: int
    more: bool
    detectable: float | None
    few: bool


def smallest_bias(n: int, sides: int, alpha: float = ALPHA, power: float = POWER) -> float | None:
    """The smallest bias ``n`` dice of ``sides`` faces would show: one face's chance ``q``
    such that the chi-square test of level ``alpha`` rejects a fair die with probability
    ``power`` when that face has chance ``q`` and the others ``(1 - q) / (sides - 1)`` each.

    Computed with the noncentral chi-square (``scipy.stats.ncx2``, ``sides - 1`` degrees of
    freedom): the noncentrality λ giving that power, then Cohen's effect size w = √(λ/n),
    which for this bias is w = |q − 1/k|·k/√(k − 1) (k = ``sides``), so
    q = 1/k + √(λ/n)·√(k − 1)/k. With 240 pip d6: λ = 12.83, q = 0.253, "1 in 4 instead
    of 1 in 6". The chi-square's power, an approximation while counts are small.

    :returns: ``q`` (0–1), or None when no ``q`` below 1 would do (or ``n`` is 0).
    """
    if n <= 0:
        return None
    df = sides - 1
    critical = stats.chi2.isf(alpha, df)
    lam = optimize.brentq(lambda x: stats.ncx2.sf(critical, df, x) - power, 1e-9, 1e4)
    q = 1 / sides + math.sqrt(lam / n) * math.sqrt(df) / sides
    return q if q < 1 else None


def fairness(counts: list[int], alpha: float = ALPHA, power: float = POWER) -> Fairness | None:
    """Test ``counts`` (each face's, face 1 first) against a fair die's; None for no dice.

    The chi-square when every face is expected :data:`MIN_EXPECTED` times or more, else the
    exact binomial tests (:class:`Fairness` says which and how).
    """
    n, sides = sum(counts), len(counts)
    if n == 0:
        return None
    expected = n / sides
    if expected >= MIN_EXPECTED:
        p = float(stats.chisquare(counts).pvalue)
        residuals = [(c - expected) / math.sqrt(expected) for c in counts]
        face = max(range(sides), key=lambda i: (abs(residuals[i]), residuals[i]))  # a tie: the one above
        test = "chi-square"
    else:
        each = [float(stats.binomtest(c, n, 1 / sides).pvalue) for c in counts]
        face = min(range(sides), key=lambda i: (each[i], -abs(counts[i] - expected), -counts[i]))
        p = min(1.0, each[face] * sides)
        test = "exact binomial"
    detectable = smallest_bias(n, sides, alpha, power)
    few = detectable is None or detectable > FEW_BIAS / sides
    return Fairness(test, p, face + 1, counts[face] > expected, detectable, few)


def _tally(sides: int) -> dict[str, Any]:
    return {"read": 0, "right": 0, "corrected": 0, "unreadable": 0, "by_hand": 0, "faces": [0] * sides}


def dice_stats(rolls: Iterable[Mapping[str, Any]], taught: Mapping[str, int] | None = None) -> dict:
    """The figures of every kind of :data:`KINDS`, whether or not it has dice yet.

    :param rolls: ``{"system", "dice"}`` per roll (``dice``: the roll's die dicts, as
        :meth:`device.roll.record.Die.to_dict` gives them).
    :param taught: examples taught per kind (any kind; those of :data:`KINDS` are shown).
    :returns: ``{"kinds": [{"kind", "sides", "rolled" (read + by_hand), "dice" (faces known), "read", "right",
        "corrected", "unreadable", "by_hand", "faces" ([count of face 1, …]), "taught",
        "fairness": Fairness as a dict, or None}], "alpha", "power"}``; the module
        docstring says which die counts where.
    """
    tallies = {kind: _tally(sides) for kind, sides in KINDS.items()}
    for roll in rolls:
        try:
            kind, sides = kind_of(roll["system"])
        except KeyError:
            continue  # a system this version does not know: not counted rather than guessed
        tally = tallies[kind]
        for die in roll.get("dice") or ():
            natural = die.get("natural")
            face = natural if isinstance(natural, int) and 1 <= natural <= sides else None
            if die.get("source") == "camera":
                tally["read"] += 1
                key = "corrected" if die.get("corrected") else "right" if face is not None else "unreadable"
                tally[key] += 1
            else:
                tally["by_hand"] += 1
            if face is not None:
                tally["faces"][face - 1] += 1
    kinds = []
    for kind, tally in tallies.items():
        test = fairness(tally["faces"])
        kinds.append({"kind": kind, "sides": KINDS[kind], "rolled": tally["read"] + tally["by_hand"],
                      "dice": sum(tally["faces"]), **tally,
                      "taught": int((taught or {}).get(kind, 0)),
                      "fairness": asdict(test) if test is not None else None})
    return {"kinds": kinds, "alpha": ALPHA, "power": POWER}
