"""``dicelens read`` (every kind, ``--kinds``, ``--numbered``) through a real subprocess, on real photos of
polyhedral dice."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from vision.colors import PALETTE
from vision.numerals import KINDS, SIDES

from .cli_run import dicelens

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples

ONE_DIE = {"d4": "burks_000.jpg", "d12": "burks_012.jpg", "d20": "burks_004.jpg"}  # one die each, black tray
MIXED = "20211121_171337.jpg"  # banachowicz: 4 d10, 2 d8, 2 numbered d6, 2 pip d6
DIE_KEYS = {"value", "sides", "box", "color", "principal", "confidence", "unreadable", "kind", "face"}


def lines_of(done) -> list[dict]:
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.fixture
def one_die(real_photos) -> dict[str, Path]:
    return {kind: real_photos.photo("real-polyhedral/burks-tray-polyhedral", name) for kind, name in ONE_DIE.items()}


@pytest.fixture
def mixed(real_photos) -> Path:
    return real_photos.photo("real-polyhedral/banachowicz-mixed-d10", MIXED)


def test_numbered_dice_are_read_with_their_kind_and_drawn(tmp_path, one_die, mixed):
    photos = [*one_die.values(), mixed]
    lines = lines_of(dicelens("read", "--numbered", *map(str, photos), "--annotate", str(tmp_path)))
    assert [line["file"] for line in lines] == [str(photo) for photo in photos]
    for line in lines:
        assert set(line) == {"file", "dice", "seconds"} and line["seconds"] > 0
        for die in line["dice"]:
            assert set(die) == DIE_KEYS and die["kind"] in KINDS
            assert die["sides"] == SIDES[die["kind"]] and len(die["box"]) == 4
            assert die["value"] is None or 1 <= die["value"] <= die["sides"]
            assert (die["value"] is None) == (die["unreadable"] is not None)
    for kind, line in zip(one_die, lines, strict=False):  # the last line is the mixed tray
        assert [die["kind"] for die in line["dice"]] == [kind], line
    mixed = lines[-1]["dice"]
    assert {"d10", "d8", "d6-pips"} <= {die["kind"] for die in mixed}
    for die in mixed:
        if die["kind"] == "d10":  # a d10's printed 0 is the value 10
            assert die["face"] in (None, "0") and (die["face"] == "0") == (die["value"] == 10)
    for photo in photos:
        drawn = cv2.imread(str(tmp_path / f"{photo.stem}.annotated.png"))
        assert drawn.shape == cv2.imread(str(photo)).shape


def test_every_kind_is_read_by_default_and_numbered_is_the_same(mixed):
    default, = lines_of(dicelens("read", str(mixed)))
    numbered, = lines_of(dicelens("read", "--numbered", str(mixed)))
    assert {"d10", "d8", "d6-pips"} <= {die["kind"] for die in default["dice"]}
    assert all(set(die) == DIE_KEYS for die in default["dice"])
    assert default["dice"] == numbered["dice"]


def test_kinds_narrow_the_reading(mixed):
    every, = lines_of(dicelens("read", str(mixed)))
    narrowed, = lines_of(dicelens("read", "--kinds", "d6-pips,d10", str(mixed)))
    assert narrowed["dice"] and {die["kind"] for die in narrowed["dice"]} == {"d6-pips", "d10"}
    assert [die["box"] for die in narrowed["dice"]] == [
        die["box"] for die in every["dice"] if die["kind"] in ("d6-pips", "d10")]
    pips, = lines_of(dicelens("read", "--kinds", " d6-pips ", str(mixed)))
    assert pips["dice"] and all(die["kind"] == "d6-pips" and die["sides"] == 6 for die in pips["dice"])


@pytest.mark.parametrize(("kinds", "message"), [
    ("d6-pips,d7", "unknown die kind d7; choose from " + ", ".join(KINDS)),
    (",", "no die kind named; choose from " + ", ".join(KINDS)),
])
def test_a_bad_kind_is_one_plain_line(mixed, kinds, message):
    done = dicelens("read", "--kinds", kinds, str(mixed))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"dicelens: argument --kinds: {message}\n"


def test_numbered_takes_the_principal_colour(one_die):
    photo = str(one_die["d4"])
    die, = lines_of(dicelens("read", "--numbered", photo))[0]["dice"]
    assert die["principal"]  # the only die: its colour is one no other die has
    other = next(name for name in PALETTE if name != die["color"])
    marked, = lines_of(dicelens("read", "--numbered", photo, "--principal-color", die["color"]))[0]["dice"]
    unmarked, = lines_of(dicelens("read", "--numbered", photo, "--principal-color", other))[0]["dice"]
    assert marked["principal"] and not unmarked["principal"]
