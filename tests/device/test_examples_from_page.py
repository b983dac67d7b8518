"""The table's dice taught from the page (issue 17): a die corrected to a value, or tapped in
where the reader missed it, is an example cut from the roll's photo, in a real SQLite history
that a restart finds again; removing one leaves its roll as it was; the examples refit the
reader in the background, once for many, and a fit that fails changes nothing."""

from __future__ import annotations

import logging
import sqlite3
import threading

import cv2
import numpy as np
import pytest

from device.adapting import Refitter
from device.controller import Controller
from device.examples import Examples, TaughtFile
from device.history import History
from device.presets import build_presets
from device.tray.readers import adapted
from vision import adapt
from vision.reading import TrayReading

from .controller_fakes import HEIGHT, WIDTH, die, fakes, numbered, photo, settle


@pytest.fixture
def controller(history, reader, clock):
    made = Controller(build_presets(), history, **fakes(reader), clock=clock, refit_seconds=3600)
    yield made
    made.close()


def test_a_corrected_die_is_an_example_after_a_restart_and_the_others_are_not(tmp_path, controller, reader, clock):
    controller.arm("2d6")
    state = settle(controller, clock, photo(reader, die(3, "red", 100, 100, principal=True),
                                            die(None, "white", 300, 100, unreadable="cocked")))
    roll = controller.correct(state["latest_roll"]["id"], 1, value=4, who="Ana")
    assert roll["complete"] and roll["total"] == 7
    controller.close()
    with History(tmp_path) as history:  # a restart: a new history and controller on the folder
        again = Controller(build_presets(), history, refit_seconds=3600)
        listed = again.examples()
        again.close()
    [example] = listed["examples"]  # die 1 (a 3, not corrected) is no example: no correction is no confirmation
    assert (example["kind"], example["value"], example["roll"], example["who"]) == ("d6-pips", 4, roll["id"], "Ana")
    assert example["at"] and listed["counts"] == {"d6-pips": 1}
    with Examples(tmp_path) as examples:
        [kept] = examples.export()
        assert kept["box"] == [300, 100, 360, 160] and (tmp_path / kept["photo"]).is_file()
        assert examples.crop(kept["id"]).startswith(b"\x89PNG")


def test_a_die_corrected_to_cocked_or_twice_is_not_two_examples(controller, reader, clock):
    controller.arm("2d6")
    state = settle(controller, clock, photo(reader, die(3, "red", 100, 100, principal=True),
                                            die(2, "white", 300, 100)))
    roll_id = state["latest_roll"]["id"]
    controller.correct(roll_id, 1, cocked=True)
    assert controller.examples()["examples"] == []  # cocked is no face to learn
    controller.correct(roll_id, 1, value=5)
    controller.correct(roll_id, 1, value=6)
    assert [(e["value"], e["roll"]) for e in controller.examples()["examples"]] == [(6, roll_id)]


def test_an_example_that_cannot_be_written_leaves_the_correction_saved(controller, reader, clock, monkeypatch,
                                                                        caplog):
    controller.arm("2d6")
    state = settle(controller, clock, photo(reader, die(3, "red", 100, 100, principal=True),
                                            die(2, "white", 300, 100)))

    def fails(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")
    monkeypatch.setattr(controller._examples, "add", fails)
    with caplog.at_level(logging.ERROR):
        roll = controller.correct(state["latest_roll"]["id"], 1, value=5)
    assert roll["total"] == 8 and controller.roll(roll["id"])["corrections"][-1]["to"] == 5
    assert "not kept as examples (the roll is saved)" in caplog.text
    assert controller.examples()["examples"] == []


def test_a_missed_die_tapped_in_joins_its_throw_and_is_an_example(controller, reader, clock):
    controller.arm("free")
    state = settle(controller, clock, photo(reader, die(3, "red", 100, 100, principal=True),
                                            die(2, "white", 300, 100, size=80)))
    before = state["latest_roll"]
    assert before["complete"] and before["total"] == 5
    roll = controller.add_die(before["id"], 450.0, 300.0, 6, who="Ana")
    assert roll["complete"] and roll["total"] == 11 and len(roll["dice"]) == 3  # RULES D6-2a: a free roll's dice
    added = roll["dice"][2]
    assert added["box"] == [415, 265, 485, 335]  # the side the reader measured (60, 80: 70), centred on the tap
    # nothing read it, so nothing was corrected: by hand only, in the record the history keeps
    assert (added["natural"], added["step"], added["corrected"], added["source"]) == (6, 0, False, "hand")
    assert roll["corrections"][-1] == {**roll["corrections"][-1], "index": 2, "from": None, "to": 6, "who": "Ana"}
    [example] = controller.examples()["examples"]
    assert (example["kind"], example["value"], example["roll"]) == ("d6-pips", 6, roll["id"])


def test_a_die_tapped_in_is_drawn_on_the_roll_s_photo(history, reader, clock):
    drawn = []

    def annotate(image, reading, labels=None):
        drawn.append([(list(d.box), label) for d, label in zip(reading.dice, labels or [None] * len(reading.dice),
                                                                 strict=True)])
        return image
    controller = Controller(build_presets(), history, reader=reader, numbered_reader=reader.numbered,
                            annotate=annotate, clock=clock, refit_seconds=3600)
    controller.arm("free")
    state = settle(controller, clock, photo(reader, die(3, "red", 100, 100, principal=True),
                                            die(2, "white", 300, 100)))
    controller.add_die(state["latest_roll"]["id"], 450.0, 300.0, 6)
    assert drawn[-1] == [([100, 100, 160, 160], None), ([300, 100, 360, 160], None),
                         ([420, 270, 480, 330], "+6")]
    controller.close()


@pytest.mark.parametrize(("x", "y", "value", "kind", "why"), [
    (640.0, 10.0, 4, None, "outside the photo (640×480 pixels)"),
    (-1.0, 10.0, 4, None, "outside the photo"),
    (130.0, 130.0, 4, None, "a die is already there"),
    (450.0, 300.0, 4, "d7", "unknown kind of die d7"),
    (450.0, 300.0, 4, "d20", "a d20 is not a die of this roll"),
    (450.0, 300.0, 7, None, "a die of this roll shows 1 to 6"),
])
def test_a_die_tapped_in_is_refused_with_the_reason(controller, reader, clock, x, y, value, kind, why):
    controller.arm("free")
    state = settle(controller, clock, photo(reader, die(3, "red", 100, 100, principal=True),
                                            die(2, "white", 300, 100)))
    roll = state["latest_roll"]
    with pytest.raises(ValueError, match=why.replace("(", r"\(").replace(")", r"\)")):
        controller.add_die(roll["id"], x, y, value, kind=kind)
    assert controller.roll(roll["id"])["dice"] == roll["dice"] and controller.examples()["examples"] == []


def test_a_finished_roll_the_rules_take_no_die_more_refuses_a_die_tapped_in(controller, reader, clock):
    controller.arm("2d6")
    state = settle(controller, clock, photo(reader, die(3, "red", 100, 100, principal=True),
                                            die(2, "white", 300, 100)))
    controller.arm("1d6")  # roll 1 is a past roll now: it has its dice, nobody throws it again
    with pytest.raises(ValueError, match=r"is finished and has the 2 dice it takes: no die is missing from it"):
        controller.add_die(state["latest_roll"]["id"], 450.0, 300.0, 4)
    assert len(controller.roll(state["latest_roll"]["id"])["dice"]) == 2


def test_the_current_finished_roll_refuses_a_die_the_rules_take_no_more_and_keeps_its_result(controller, reader,
                                                                                           clock):
    """RULES T-3, T-4: a third die tapped in on the current 2D6, finished, is refused; the
    result stays, and the next preset armed leaves it finished (it was lost, abandoned)."""
    controller.arm("2d6")
    state = settle(controller, clock, photo(reader, die(3, "red", 100, 100, principal=True),
                                            die(6, "white", 300, 100)))
    roll = state["latest_roll"]
    assert roll["complete"] and roll["total"] == 9
    with pytest.raises(ValueError, match="the rules take no such change to roll") as refused:
        controller.add_die(roll["id"], 450.0, 300.0, 2)
    assert "3 dice given for a 2D6 roll" in str(refused.value)
    after = controller.state()
    assert after["state"] == "resolved" and after["latest_roll"] == roll and after["prompt"] is None
    assert controller.roll(roll["id"]) == roll and controller.examples()["examples"] == []
    controller.arm("1d6")
    assert controller.roll(roll["id"])["total"] == 9 and controller.roll(roll["id"])["note"] is None


def test_a_refused_correction_of_the_current_roll_leaves_it_as_it_was(controller, reader, clock):
    """A correction refused after it was applied (dice given with ``more`` for the current
    roll) leaves neither its face nor its correction on the current roll."""
    controller.arm("2d6")
    roll = settle(controller, clock, photo(reader, die(3, "red", 100, 100, principal=True),
                                           die(6, "white", 300, 100)))["latest_roll"]
    with pytest.raises(ValueError, match="asks for its dice itself"):
        controller.correct(roll["id"], 1, value=2, more=[4])
    assert controller.state()["latest_roll"] == roll and controller.roll(roll["id"]) == roll
    assert controller.correct(roll["id"], 1, value=2)["total"] == 5  # the roll itself took nothing


def test_removing_an_example_leaves_its_roll_as_it_was(controller, reader, clock):
    controller.arm("2d6")
    state = settle(controller, clock, photo(reader, die(3, "red", 100, 100, principal=True),
                                            die(2, "white", 300, 100)))
    roll = controller.correct(state["latest_roll"]["id"], 1, value=5)
    [example] = controller.examples()["examples"]
    controller.remove_example(example["id"])
    assert controller.examples() == {"examples": [], "counts": {}, "adaptation": None}
    assert controller.roll(roll["id"]) == roll  # its correction, dice and result kept
    with pytest.raises(KeyError):
        controller.remove_example(example["id"])


class FitSpy:
    """``vision.adapt.fit`` as the refitter calls it: counts the fits and the dice they saw."""

    def __init__(self, fails: bool = False):
        self.fits: list[int] = []
        self.fails = fails

    def __call__(self, photos):
        self.fits.append(sum(len(p.dice) for p in photos))
        if self.fails:
            raise RuntimeError("the fit broke")
        return adapt.Adaptation(family="pips", used=True, photos=len(photos))


def test_ten_corrections_fit_once_in_the_background(tmp_path, controller, reader, clock):
    spy = FitSpy()
    controller._refitter = refitter = Refitter(tmp_path, controller._examples, quiet_seconds=3600, fit=spy)
    for n in range(10):
        controller.arm("2d6")
        state = settle(controller, clock, photo(reader, die(3, "red", 100 + 300 * (n % 2), 20 + n, principal=True),
                                                die(2, "white", 100 + 300 * (n % 2), 300 + n)))
        assert state["latest_roll"]["id"] == n + 1
        controller.correct(n + 1, 1, value=5)
    assert spy.fits == []  # none while the corrections keep coming (and no roll waited for one)
    assert refitter.settle(timeout=120)
    assert spy.fits == [10]
    assert adapt.load(tmp_path).used and refitter.adaptation_for("pips") is not None
    assert refitter.adaptation_for("numbered") is None  # a pip table's layer reads no pool
    refitter.close()


def test_examples_kept_after_the_last_fit_are_fitted_at_the_next_start(tmp_path, controller, reader, clock):
    """A server stopped in its quiet wait keeps the example but never fitted it: the next start
    fits it; a start whose adaptation was fitted on every example asks for no fit."""
    fits = []

    def fit(photos):
        fits.append(taught := sum(len(p.dice) for p in photos))
        return adapt.Adaptation(family="pips", used=True, photos=len(photos), examples={"d6-pips": {"5": taught}},
                                fingerprint=adapt.backend_for("pips").fingerprint())

    controller._refitter = Refitter(tmp_path, controller._examples, quiet_seconds=3600, fit=fit)
    controller.arm("2d6")
    state = settle(controller, clock, photo(reader, die(3, "red", 100, 100, principal=True), die(2, "white", 300, 100)))
    controller.correct(state["latest_roll"]["id"], 1, value=5)
    controller._refitter.close()  # stopped before the quiet wait ended
    assert fits == [] and controller._examples.count() == 1
    again = Refitter(tmp_path, controller._examples, quiet_seconds=3600, fit=fit)
    assert again.settle(timeout=120)
    assert fits == [1] and again.adaptation is not None and again.adaptation.photos == 1
    again.close()
    third = Refitter(tmp_path, controller._examples, quiet_seconds=3600, fit=fit)
    assert third.settle(timeout=120)
    assert fits == [1]  # up to date: no fit asked
    third.close()


def test_a_table_taught_on_other_networks_is_fitted_again_at_start(tmp_path, controller, reader, clock):
    """After an update changed the networks (int8 ones, a retrained detector), the adaptation
    fitted on the old ones is fitted again from the kept examples; fitted on these, it is not."""
    fits = []

    def fit(photos):
        fits.append(taught := sum(len(p.dice) for p in photos))
        return adapt.Adaptation(family="pips", used=True, photos=len(photos), examples={"d6-pips": {"5": taught}},
                                fingerprint="int8 networks")

    controller.arm("2d6")
    state = settle(controller, clock, photo(reader, die(3, "red", 100, 100, principal=True), die(2, "white", 300, 100)))
    controller.correct(state["latest_roll"]["id"], 1, value=5)
    adapt.Adaptation(family="pips", used=True, photos=1, examples={"d6-pips": {"5": 1}},
                     fingerprint="float networks").save(tmp_path)
    updated = Refitter(tmp_path, controller._examples, quiet_seconds=3600, fit=fit, networks=lambda family: "int8 networks")
    assert updated.settle(timeout=120)
    assert fits == [1] and updated.adaptation_for("pips").fingerprint == "int8 networks"
    updated.close()
    again = Refitter(tmp_path, controller._examples, quiet_seconds=3600, fit=fit, networks=lambda family: "int8 networks")
    assert again.settle(timeout=120)
    assert fits == [1]  # fitted on the networks it reads with: no fit asked
    again.close()


def test_a_fit_that_fails_logs_and_changes_nothing(tmp_path, controller, reader, clock, caplog):
    before = adapt.Adaptation(family="pips", used=False, why="fewer than two labelled photos")
    before.save(tmp_path)
    controller._refitter = refitter = Refitter(tmp_path, controller._examples, quiet_seconds=3600,
                                               fit=FitSpy(fails=True))
    controller.arm("2d6")
    state = settle(controller, clock, photo(reader, die(3, "red", 100, 100, principal=True),
                                            die(2, "white", 300, 100)))
    with caplog.at_level(logging.ERROR):
        controller.correct(state["latest_roll"]["id"], 1, value=5)
        assert refitter.settle(timeout=120)
    assert "could not be fitted: the one before is kept" in caplog.text
    assert adapt.load(tmp_path).to_dict() == before.to_dict() == refitter.adaptation.to_dict()
    assert controller.examples()["adaptation"]["why"] == "fewer than two labelled photos"
    refitter.close()


def test_the_live_reader_reads_with_the_adaptation_only_when_it_is_used(tmp_path, history, clock, monkeypatch):
    seen = []
    monkeypatch.setattr(adapt, "read", lambda image, adaptation, principal_color=None:
                        seen.append(adaptation.used) or TrayReading(dice=[], size=(WIDTH, HEIGHT)))
    controller = Controller(build_presets(), history, clock=clock, refit_seconds=3600)
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    controller._refitter.adaptation = adapt.Adaptation(family="pips", used=False)
    controller.readers["pips"](image, None)
    assert seen == []  # the shipped reader read it
    controller._refitter.adaptation = adapt.Adaptation(family="pips", used=True)
    controller.readers["pips"](image, None)
    controller.readers["numbered"](image, None)  # a pool's d10s: the shipped numbered reader
    assert seen == [True]
    controller.close()


@pytest.mark.slow  # fits a layer over real photos
def test_the_live_reader_reads_with_the_layer_the_examples_fitted_after_a_restart(tmp_path, history, clock, real_photos,
                                                                                   monkeypatch):
    # a table whose dice show 7 - v where the networks learned v: the layer reads them much
    # better than the shipped reader (on the sample's own values it reads 2 dice more of 82,
    # within vision.adapt's margin)
    source = "real-dice/byler-tray-d6"
    entries = list(real_photos.labels(source).values())
    files = []
    for entry in entries[:8]:
        path = real_photos.folder(source) / entry["file"]
        image = cv2.imread(str(path))
        files.append(TaughtFile(path.read_bytes(), ".jpg", image, entry["file"], [
            adapt.example(d.get("kind"), 7 - d["value"], d["box"], image.shape[1], image.shape[0])
            for d in entry["dice"]]))
    controller = Controller(build_presets(), history, clock=clock, refit_seconds=3600)
    with controller._examples.lock:
        controller._examples.add(files)
    controller._refitter.request()
    assert controller._refitter.settle(timeout=600)
    fitted = controller.examples()["adaptation"]
    assert fitted["used"] and fitted["examples"] == sum(len(f.dice) for f in files)
    assert fitted["right"] > fitted["shipped"]  # vision/adapt's rule: used only when it reads them better
    controller.close()
    again = Controller(build_presets(), history, clock=clock, refit_seconds=3600)  # a restart: read from the folder
    unseen = cv2.imread(str(real_photos.folder(source) / entries[9]["file"]))
    layer = adapt.read(unseen, adapt.load(tmp_path))
    layered, read_with = [], adapt.read
    monkeypatch.setattr(adapt, "read", lambda *args, **kwargs: layered.append(args[1]) or read_with(*args, **kwargs))
    read = again.readers["pips"](unseen, None)
    assert len(layered) == 1 and layered[0].used  # the layer read it, not the shipped reader alone
    assert [(d.value, d.box) for d in read.dice] == [(d.value, d.box) for d in layer.dice]
    assert {d.kind for d in read.dice} == {"d6-pips"}  # named as vision.read_dice names pip dice
    again.close()


def test_a_numbered_layer_keeps_the_shipped_reader_s_dice_of_kinds_it_was_not_taught(monkeypatch):
    taught = adapt.Adaptation(family="numbered", used=True, kinds=["d10"])
    monkeypatch.setattr(adapt, "read", lambda image, adaptation, principal_color=None:
                        TrayReading(dice=[numbered(7, x=100, y=100)], size=(WIDTH, HEIGHT)))
    shipped = TrayReading(dice=[numbered(3, x=102, y=98), numbered(5, "d8", x=300, y=300),
                                numbered(20, "d20", x=110, y=110)], size=(WIDTH, HEIGHT))
    read = adapted("numbered", lambda image, color: shipped, lambda family: taught)
    dice = read(np.zeros((HEIGHT, WIDTH, 3), np.uint8), None).dice
    # the layer's d10; the shipped d10 there is its own kind's, the d20 lies on it: only the d8 joins
    assert [(d.kind, d.value) for d in dice] == [("d10", 7), ("d8", 5)]


def test_the_history_closing_waits_for_a_request_reading_the_examples(tmp_path):
    # a browser test's server thread was still listing the examples when its fixture closed the
    # history: the connection closed under the query and the process died (segmentation fault)
    history = History(tmp_path)
    examples = Examples.beside(history)
    examples.lock.acquire()  # a request reading them
    closing = threading.Thread(target=history.close)
    closing.start()
    closing.join(0.3)
    assert closing.is_alive()
    assert examples.count() == 0  # the request's reads still work
    examples.lock.release()
    closing.join(10)
    assert not closing.is_alive()
    with pytest.raises(sqlite3.ProgrammingError):
        examples.count()
