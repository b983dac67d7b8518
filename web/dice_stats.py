"""The "Your dice" figures worded for a player, in the request's language (issue 17 item 5):
the controller's numbers (``Controller.dice_stats``, ``device/dice_stats.py``) with, per kind,
``words``: ``name`` ("pip d6"), ``right`` (the share of the camera's faces the table kept),
``verdict`` (the fairness test's p-value said: "no sign of bias in 240 dice thrown", "face 6 came
up more than chance would: p = 0.003"), ``detectable`` (the smallest bias these dice could
show: "… 1 in 4 instead of 1 in 6 …") and ``few`` (the warning while dice are too few to
call a die unfair, else None). Numbers are formatted by Babel in the request's locale.
"""

from __future__ import annotations

from flask_babel import format_decimal, format_percent, ngettext
from flask_babel import gettext as _

TINY_P = 0.001  # a smaller p-value is said "p < 0.001": its digits would mean nothing to a player


def kind_word(kind: str) -> str:
    """A reader's kind of die (``vision.numerals.KINDS``) as the page names it: "pip d6", "d10"."""
    words = {"d6-pips": _("pip d6"), "d6": _("numbered d6"), "d10-percentile": _("percentile d10")}
    return words.get(kind, kind)


def _count(n: int) -> str:
    return format_decimal(n)


def _verdict(kind: dict, alpha: float) -> str:
    """RULES D6-1, P-1: the faces a fair die shows alike (1–6, 1–10)."""
    test = kind["fairness"]
    if test is None:
        return _("no dice of this kind yet")
    if test["p"] >= alpha:
        return ngettext("no sign of bias in %(count)s die thrown", "no sign of bias in %(count)s dice thrown",
                        kind["dice"], count=_count(kind["dice"]))
    if test["p"] < TINY_P:
        p = format_decimal(TINY_P)
        if test["more"]:
            return _("face %(face)s came up more than chance would: p < %(p)s", face=test["face"], p=p)
        return _("face %(face)s came up less than chance would: p < %(p)s", face=test["face"], p=p)
    p = format_decimal(test["p"], format="@#")  # one or two significant digits: 0.003, 0.017
    if test["more"]:
        return _("face %(face)s came up more than chance would: p = %(p)s", face=test["face"], p=p)
    return _("face %(face)s came up less than chance would: p = %(p)s", face=test["face"], p=p)


def _detectable(kind: dict) -> str | None:
    test = kind["fairness"]
    if test is None:
        return None
    if test["detectable"] is None:
        return ngettext("with %(count)s die thrown no bias could be seen yet",
                        "with %(count)s dice thrown no bias could be seen yet", kind["dice"],
                        count=_count(kind["dice"]))
    odds = format_decimal(1 / test["detectable"], format="#,##0.#")
    return ngettext("with %(count)s die thrown a face would have to come up 1 in %(odds)s instead of 1 in "
                    "%(sides)s to be seen",
                    "with %(count)s dice thrown a face would have to come up 1 in %(odds)s instead of 1 in %(sides)s "
                    "to be seen", kind["dice"], count=_count(kind["dice"]), odds=odds, sides=kind["sides"])


def _right(kind: dict) -> str | None:
    faced = kind["right"] + kind["corrected"]
    if not faced:
        return None
    return _("%(share)s of the faces the camera read were right",
             share=format_percent(kind["right"] / faced, format="#,##0.# %"))


def shown_dice_stats(stats: dict) -> dict:
    """``stats`` (``Controller.dice_stats``) with each kind's ``words`` (the module docstring)."""
    kinds = []
    for kind in stats["kinds"]:
        test = kind["fairness"]
        few = test is not None and test["few"]
        kinds.append({**kind, "words": {
            "name": kind_word(kind["kind"]),
            "right": _right(kind),
            "verdict": _verdict(kind, stats["alpha"]),
            "detectable": _detectable(kind),
            "few": _("So few dice thrown say little: a die needs thousands of throws before “unfair” is fair to say.")
            if few else None,
        }})
    return {**stats, "kinds": kinds}
