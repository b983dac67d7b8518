"""The principal die: the configured colour, else the one die of a colour no other die has."""

from __future__ import annotations

from vision.principal import mark_principal
from vision.reading import DieReading


def _dice(*colors):
    return [DieReading(value=3, sides=6, box=(0, 0, 10, 10), center=(5.0, 5.0), color=c, confidence=0.9)
            for c in colors]


def _marked(dice):
    return [i for i, die in enumerate(dice) if die.principal]


def test_configured_colour_marks_that_die():
    dice = _dice("white", "red", "white")
    assert mark_principal(dice, "red") is None
    assert _marked(dice) == [1]


def test_configured_colour_missing_or_repeated_marks_none():
    dice = _dice("white", "red", "red")
    assert mark_principal(dice, "blue") == "no die of colour blue"
    assert _marked(dice) == []
    assert mark_principal(dice, "red") == "2 dice of colour red"
    assert _marked(dice) == []


def test_unique_colour_is_principal_without_configuration():
    dice = _dice("black", "green", "black")
    assert mark_principal(dice) is None
    assert _marked(dice) == [1]


def test_zero_or_several_unique_colours_mark_none():
    same = _dice("white", "white")
    assert mark_principal(same) == "no die of a colour no other die has"
    assert _marked(same) == []
    several = _dice("white", "red", "blue")
    assert mark_principal(several) == "several dice of a colour no other die has"
    assert _marked(several) == []


def test_a_lone_die_is_principal_and_old_marks_are_cleared():
    dice = _dice("purple")
    assert mark_principal(dice) is None and dice[0].principal
    pair = _dice("red", "red")
    pair[0].principal = True
    mark_principal(pair)
    assert _marked(pair) == []


def test_no_dice():
    assert mark_principal([]) == "no dice"
