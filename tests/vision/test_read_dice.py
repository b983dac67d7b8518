"""vision.read_dice: every kind through one entry, the pip and numbered readers behind it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import DieReading, NumberedReading, TrayReading, dice, numerals, read_dice, read_numbered, read_tray, tray
from vision.numerals import KINDS, SIDES, Looks
from vision.principal import mark_principal

BANACHOWICZ = "real-polyhedral/banachowicz-mixed-d10"
MIXED = "20211121_171337.jpg"  # 4 d10, 2 d8, 2 numbered d6, 2 pip d6
BURKS = "real-polyhedral/burks-tray-polyhedral"


@pytest.fixture
def mixed(real_photos):
    return cv2.imread(str(real_photos.photo(BANACHOWICZ, MIXED)))


def _boxes(dice) -> list[tuple[int, ...]]:
    return [tuple(die.box) for die in dice]


def test_every_kind_is_read_pips_by_the_pip_reader(mixed):
    reading = read_dice(mixed)
    assert all(isinstance(die, NumberedReading) and die.sides == SIDES[die.kind] for die in reading.dice)
    assert {"d10", "d8", "d6-pips"} <= {die.kind for die in reading.dice}
    numbered = read_numbered(mixed).dice
    assert [(d.box, d.value) for d in reading.dice if d.kind != "d6-pips"] == [
        (d.box, d.value) for d in numbered if d.kind != "d6-pips"]
    pips = [die for die in numbered if die.kind == "d6-pips"]
    again = tray.read_at(mixed, [(*d.center, dice._side(d)) for d in pips])
    by_pip_reader = {tuple(die.box): die.value for die in read_tray(mixed).dice}
    read = [d for d in reading.dice if d.kind == "d6-pips"]
    assert any(again) and not all(again)  # one read by its crop, one the crop sees no die in (by the pip reader)
    for die, crop, final in zip(pips, again, read, strict=True):
        if crop is not None:
            assert (final.value, final.color, final.box) == (crop.value, die.color, crop.box)
        else:
            assert final.value == by_pip_reader.get(tuple(final.box), die.value)


def test_a_numbered_tray_runs_no_pip_detector(real_photos, monkeypatch):
    # the pip reader's detector and its passes at other scales (a 384-960 px input) ran on every
    # numbered tray, to re-read the few pip d6 the numbered reader had found already
    photo = cv2.imread(str(real_photos.photo(BANACHOWICZ, "20211121_171739.jpg")))  # 2 pip d6 among d10, d8, d6
    runs = []
    monkeypatch.setattr(tray.PipReader, "_detect_at", lambda *args: runs.append(args) or [])
    read = read_dice(photo).dice
    assert {"d6-pips", "d10"} <= {die.kind for die in read} and runs == []
    assert [d.value for d in read if d.kind == "d6-pips"] == [
        d.value for d in tray.read_at(photo, [(*d.center, dice._side(d)) for d in read_numbered(photo).dice
                                              if d.kind == "d6-pips"])]


def _die(kind, value, x, confidence=0.9):
    box = (x, 10, x + 40, 50)
    center = (x + 20.0, 30.0)
    if kind is None:  # the pip reader's own reading, no kind
        return DieReading(value=value, sides=6, box=box, center=center, color="white", confidence=confidence)
    return NumberedReading(value=value, sides=SIDES[kind], box=box, center=center, color="red",
                           confidence=confidence, kind=kind)


def _fake_numbered(monkeypatch, numbered):
    """read_dice's numbered reader replaced by one that reads ``numbered``, their colours named
    already (read_dice names a reading it keeps, read with ``named=False``: a no-op here)."""
    monkeypatch.setattr(dice, "read_numbered", lambda image, kinds=None, first=None, named=True: TrayReading(
        numbered, (640, 480), 0.0))
    monkeypatch.setattr(dice, "name_dice_colors", lambda image, named: None)


@pytest.fixture
def fake_readers(monkeypatch):
    """A d20, two pip d6 and a numbered d6 found by the numbered reader; the pip reader's
    classifier re-reads the first pip d6 and sees no die in the second, which the whole pip
    reader finds; it also finds a "pip d6" where the numbered one found nothing (a d20's facets)."""
    numbered = [_die("d20", 17, 0), _die("d6-pips", 3, 100), _die("d6-pips", 5, 200), _die("d6", 2, 300)]
    pips = [_die(None, 1, 400), _die(None, 6, 204)]
    places = []
    _fake_numbered(monkeypatch, numbered)
    monkeypatch.setattr(dice, "read_tray", lambda image, first=None: TrayReading(pips, (640, 480), 0.0))
    monkeypatch.setattr(dice, "read_at", lambda image, at: places.extend(at) or [_die(None, 4, 102), None])
    return places


def test_the_numbered_reader_decides_where_the_dice_are(fake_readers):
    # benchmarks/vision_read_dice.py: a die only the pip reader found was a phantom more often than a die
    read = read_dice(np.zeros((480, 640, 3), np.uint8)).dice
    assert [(die.kind, die.value, die.box[0]) for die in read] == [
        ("d20", 17, 0), ("d6-pips", 4, 102), ("d6-pips", 6, 204), ("d6", 2, 300)]
    assert fake_readers == [(120.0, 30.0, 40.0), (220.0, 30.0, 40.0)]  # the numbered dice's centres and sides
    assert read[1].color == "red" and read[2].color == "white"  # the numbered die's colour; the pip reader's die


def test_a_pip_die_is_re_read_once(monkeypatch):
    # two numbered pip d6 the classifier sees no die in, over one pip-reader die: the nearer takes it
    numbered = [_die("d6-pips", 3, 100), _die("d6-pips", 6, 110), _die("d8", 8, 300)]
    _fake_numbered(monkeypatch, numbered)
    monkeypatch.setattr(dice, "read_tray", lambda image, first=None: TrayReading([_die(None, 4, 108)], (640, 480), 0.0))
    monkeypatch.setattr(dice, "read_at", lambda image, at: [None] * len(at))
    read = read_dice(np.zeros((480, 640, 3), np.uint8)).dice
    assert [(die.value, die.box[0]) for die in read] == [(3, 100), (4, 108), (8, 300)]


def test_a_photo_with_no_sure_numbered_die_is_a_pip_tray(monkeypatch):
    # on pip trays it never learned the numbered reader finds unsure d10s and pip d6 that are not there
    numbered = [_die("d10", None, 0, confidence=0.5), _die("d6-pips", 2, 200)]
    _fake_numbered(monkeypatch, numbered)
    monkeypatch.setattr(dice, "read_tray", lambda image, first=None: TrayReading([_die(None, 6, 100)], (640, 480), 0.0))
    read = read_dice(np.zeros((480, 640, 3), np.uint8)).dice
    assert [(die.kind, die.value, die.box[0]) for die in read] == [("d6-pips", 6, 100)]
    assert read_dice(np.zeros((480, 640, 3), np.uint8), ["d10"]).dice == [numbered[0]]


def test_a_sure_pip_tray_is_decided_on_the_first_pass(real_photos, monkeypatch):
    # byler's dice are 20 px in the letterboxed input: the numbered reader read the photo again at
    # their scale (4 detector tiles) before its reading was discarded for the pip reader's
    photo = cv2.imread(str(real_photos.photo("real-dice/byler-tray-d6", "IMG_20191208_112332.jpg")))
    runs = []
    detect_at = numerals._detect_at
    monkeypatch.setattr(numerals, "_detect_at", lambda *args: runs.append(args[1]) or detect_at(*args))
    reading = read_dice(photo)
    assert len(runs) == 1 and reading.dice
    assert [(d.box, d.value, d.color) for d in reading.dice] == [(d.box, d.value, d.color) for d in read_tray(photo).dice]


def test_a_pip_tray_the_pip_reader_is_sure_of_never_measures_the_numbered_pass(real_photos, monkeypatch):
    # the letterboxed pass's sureness takes both looks at its strongest candidates (4 of the
    # numbered classifier's runs a byler photo); when the pip reader's first pass is sure the
    # photo is a pip tray whatever it is, so it is not measured, and the reading is the same
    photo = cv2.imread(str(real_photos.photo("real-dice/byler-tray-d6", "IMG_20191208_112332.jpg")))
    assert tray.first_pass(photo).sure
    measured = []
    strength = numerals._strength
    monkeypatch.setattr(numerals, "_strength", lambda *args: measured.append(1) or strength(*args))
    reading = read_dice(photo)
    assert measured == [] and reading.dice
    assert [(d.box, d.value, d.color) for d in reading.dice] == [(d.box, d.value, d.color) for d in read_tray(photo).dice]
    first = numerals.first_pass(photo)  # measured when asked, as it was made before
    assert first.strength == strength(Looks(photo), first.found) and first.sure


@pytest.mark.parametrize(("source", "name"), [("real-dice/penlington-desk-d6", "pl-3504b480be.jpg"),
                                            ("real-dice/patterson-craps-d6-crops",
                                             "DJI_20241005232833_0145_D_detection_1.jpg")])
def test_a_pip_tray_the_pip_reader_is_sure_of_is_decided_on_the_first_passes(real_photos, monkeypatch, source, name):
    # penlington's dice and patterson's close-ups are far from the size the numbered detector
    # learned: its letterboxed pass was unsure, so it read the photo at three more scales (up
    # to 15 tiles) before its reading was discarded for the pip reader's, whose first pass is sure
    photo = cv2.imread(str(real_photos.photo(source, name)))
    assert not numerals.first_pass(photo).sure and tray.first_pass(photo).sure
    runs, pip_runs = [], []
    detect_at, pip_detect_at = numerals._detect_at, tray._SHIPPED._detect_at
    monkeypatch.setattr(numerals, "_detect_at", lambda *args: runs.append(args[1]) or detect_at(*args))
    monkeypatch.setattr(tray._SHIPPED, "_detect_at", lambda *args: pip_runs.append(args[1]) or pip_detect_at(*args))
    reading = read_dice(photo)
    assert len(runs) == 1 and reading.dice
    read_tray_runs = len(pip_runs[1:])  # the first pass of read_dice is the pip reader's first too
    pip_runs.clear()
    expected = read_tray(photo).dice
    assert read_tray_runs == len(pip_runs) - 1
    assert [(d.box, d.value, d.color) for d in reading.dice] == [(d.box, d.value, d.color) for d in expected]


def test_each_numbered_look_is_classified_once_a_reading(real_photos, mixed, monkeypatch):
    # a sure first pass's candidates were classified up to three times (its sureness, the choice
    # of reader, the dice read), both looks each (upright and half-turned); on a pip tray only a
    # candidate whose upright look may make it a sure numbered die is looked at half-turned
    looks, candidates = [], set()
    run, detect_at = numerals._CLASSIFIER.run_images, numerals._detect_at
    monkeypatch.setattr(numerals._CLASSIFIER, "run_images", lambda crops: looks.append(len(crops)) or run(crops))

    def counted_detect_at(*args):
        found = detect_at(*args)
        candidates.update(c[:3] for c in found)
        return found

    monkeypatch.setattr(numerals, "_detect_at", counted_detect_at)
    assert dice.numbered_tray(read_dice(mixed).dice)
    assert 0 < sum(looks) <= 2 * len(candidates)
    looks.clear()
    candidates.clear()
    photo = cv2.imread(str(real_photos.photo("real-dice/byler-tray-d6", "IMG_20191208_112332.jpg")))
    reading = read_dice(photo)
    assert reading.dice and not dice.numbered_tray(reading.dice)
    # and the pip reader's dice it is not sure of (dice.recheck_pips)
    looked_at = len(candidates) + sum(die.confidence < dice.PIPS_SURE for die in reading.dice)
    assert looked_at <= sum(looks) < 2 * looked_at


def test_a_numbered_reading_unnamed_then_named_is_the_named_reading(real_photos, mixed):
    # read_dice reads with named=False and names only a reading it keeps (vision.dice._named)
    byler = cv2.imread(str(real_photos.photo("real-dice/byler-tray-d6", "IMG_20191208_112332.jpg")))
    for photo in (mixed, byler):
        unnamed = read_numbered(photo, named=False)
        assert unnamed.dice and unnamed.principal_note is None
        assert all(die.color == "white" and not die.principal for die in unnamed.dice)
        named = read_numbered(photo)
        assert {die.color for die in named.dice} != {"white"}
        dice._named(unnamed.dice, photo)
        assert [(d.kind, d.value, d.box, d.color, d.confidence) for d in unnamed.dice] == [
            (d.kind, d.value, d.box, d.color, d.confidence) for d in named.dice]


def test_a_numbered_reading_a_pip_tray_discards_is_not_named(real_photos, monkeypatch):
    # penlington's photo: both first passes unsure, so the numbered reader reads it at every
    # scale and finds dice, but the photo is a pip tray: its colour names (1.5 ms a die here) were lost
    photo = cv2.imread(str(real_photos.photo("real-dice/penlington-desk-d6", "pl-70b4ad8f4b.jpg")))
    assert read_numbered(photo).dice
    named = []
    name = dice.name_dice_colors
    monkeypatch.setattr(numerals, "name_dice_colors", lambda image, found: named.append(len(found)) or name(image, found))
    monkeypatch.setattr(dice, "name_dice_colors", lambda image, found: named.append(len(found)) or name(image, found))
    reading = read_dice(photo)
    assert named == [] and reading.dice and not dice.numbered_tray(reading.dice)
    assert [(d.box, d.value, d.color) for d in reading.dice] == [(d.box, d.value, d.color) for d in read_tray(photo).dice]


@pytest.mark.slow
def test_the_first_pass_shared_reads_as_before(real_photos):
    # read_dice decides on the numbered reader's first pass when it is sure, and goes on from it
    # when not: the same dice as reading the whole photo with each reader (the merge rule of
    # vision.dice), on the first photos of each source of the sample
    for source in (BANACHOWICZ, BURKS, "real-d20/lurig-platform-d20", "real-dice/byler-tray-d6",
                   "real-dice/penlington-desk-d6", "real-dice/patterson-craps-d6-crops"):
        for path in real_photos.photos(source)[:4]:
            photo = cv2.imread(str(path))
            first = numerals.first_pass(photo)
            numbered = read_numbered(photo).dice
            assert read_numbered(photo, first=first).dice == numbered, path.name
            pips = [dice.as_pips(die) for die in read_tray(photo).dice]
            found = [die for die, pip in zip(dice.recheck_pips(pips, photo), pips, strict=True) if die is not pip]
            if dice.numbered_tray(numbered) or found:  # found: numbered dice the pip reader found
                expected = dice.reread_pips(numbered, photo)
                expected += [die for die in found if not any(dice._same_die(die, other) for other in expected)]
            else:
                expected = pips
            mark_principal(expected, None)
            assert read_dice(photo).dice == expected, path.name


def test_only_pips_reads_the_pip_readers_dice(fake_readers):
    assert [(die.value, die.box[0]) for die in read_dice(np.zeros((8, 8, 3), np.uint8), ["d6-pips"]).dice] == [
        (1, 400), (6, 204)]


def test_kinds_narrow_the_reading(mixed):
    every = read_dice(mixed)
    for kinds in (["d10"], ["d6-pips", "d8"], ["d6", "d10", "d8"]):
        narrowed = read_dice(mixed, kinds)
        assert narrowed.dice and {die.kind for die in narrowed.dice} == set(kinds)
        assert _boxes(narrowed.dice) == _boxes(d for d in every.dice if d.kind in kinds)
    assert read_dice(mixed, ["d20"]).dice == []  # none in the tray; its d10s are not taken for d20s


def test_only_pips_is_the_pip_reader_alone(mixed):
    # as a pip preset has always read: fast, and every die a pip d6 (a numbered d6 among them too)
    pips = read_dice(mixed, ["d6-pips"]).dice
    assert pips and _boxes(pips) == _boxes(read_tray(mixed).dice)
    assert all(die.kind == "d6-pips" for die in pips)


def test_the_principal_die_is_chosen_among_the_dice_reported(real_photos):
    photo = cv2.imread(str(real_photos.photo(BURKS, "burks_000.jpg")))  # one long d4
    die, = read_dice(photo).dice
    assert die.kind == "d4" and die.principal
    other = next(name for name in ("red", "blue") if name != die.color)
    assert not read_dice(photo, principal_color=other).dice[0].principal
    assert read_dice(photo, principal_color=other).principal_note == f"no die of colour {other}"


@pytest.mark.parametrize(("kinds", "message"), [
    (["d7"], "unknown die kind d7; choose from " + ", ".join(KINDS)),
    ([], "no die kind named; choose from " + ", ".join(KINDS)),
])
def test_a_bad_kind_is_a_clear_error(kinds, message):
    with pytest.raises(ValueError) as raised:
        read_dice(np.zeros((64, 64, 3), np.uint8), kinds)
    assert str(raised.value) == message


def test_an_empty_frame_gives_an_empty_reading():
    reading = read_dice(np.zeros((480, 640, 3), np.uint8))
    assert (reading.dice, reading.size) == ([], (640, 480))


LURIG = "real-d20/lurig-platform-d20"


def test_a_tray_of_one_d20_gives_no_pip_d6(real_photos):
    # the numbered reader named no die 0.9 sure, so the photo was a pip tray and the pip reader
    # read the d20's faces as a pip 2 (RULES T-1); the numbered classifier, looking where the pip
    # reader found its die, names it a numbered die: it is reported as one, its value not guessed
    photo = cv2.imread(str(real_photos.photo(LURIG, "d20-78d630d7fe.jpg")))
    read = read_dice(photo).dice
    assert read and all(die.kind != "d6-pips" for die in read)
    assert all(die.value is None and die.unreadable for die in read)


def test_a_lone_numbered_die_not_sure_enough_is_not_read_as_pips(real_photos):
    # burks' d10 alone (the numbered reader 0.82 sure of it, under NUMBERED_TRAY) was read by the
    # pip reader as two pip 1s; the numbered classifier names the pip reader's die a d10, so the
    # photo is read as a numbered tray
    photo = cv2.imread(str(real_photos.photo(BURKS, "burks_053.jpg")))
    numbered = read_numbered(photo).dice
    assert [d.kind for d in numbered] == ["d10"] and not dice.numbered_tray(numbered)
    assert [(d.kind, d.value, d.box) for d in read_dice(photo).dice] == [(d.kind, d.value, d.box) for d in numbered]


def test_a_die_the_pip_reader_found_and_the_numbered_reader_did_not_is_kept(monkeypatch):
    # a pip tray whose pip die the numbered classifier names a d20: the numbered reader places
    # the dice, and the d20 it did not place is reported as the classifier reads it
    photo = np.full((480, 640, 3), 90, np.uint8)
    pips = [_die(None, 2, 100), _die(None, 5, 300)]
    _fake_numbered(monkeypatch, [_die("d8", 3, 500, confidence=0.5)])
    monkeypatch.setattr(dice, "read_tray", lambda image, first=None: TrayReading(pips, (640, 480), 0.0))
    d20 = _die("d20", None, 100)
    monkeypatch.setattr(dice, "recheck_pips", lambda found, image, looks=None: [d20, found[1]])
    read = read_dice(photo).dice
    assert [(die.kind, die.value, die.box[0]) for die in read] == [("d8", 3, 500), ("d20", None, 100)]
