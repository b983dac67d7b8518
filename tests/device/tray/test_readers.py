"""The default readers: every step's frame goes through ``vision.read_dice``, narrowed to its
kinds (device.tray.readers): a pip preset to pip d6 alone, the pool's d10 steps and the
fight's steps to every kind, so a die of another kind is named."""

from __future__ import annotations

import pytest

from device.combat import CombatSession
from device.controller import Controller
from device.presets import build_presets
from device.tray.dispatch import TrayDispatcher
from tests.device.controller_fakes import FakeReader, annotate, die, numbered, settle


class SpyReadDice(FakeReader):
    """``vision.read_dice(image, kinds, principal_color)`` over :meth:`frame`'s frames; records
    the kinds each read asked for (a frozenset, or None: every kind)."""

    def __init__(self):
        super().__init__()
        self.kinds: list[frozenset[str] | None] = []

    def read_dice(self, image, kinds=None, principal_color=None):
        self.kinds.append(None if kinds is None else frozenset(kinds))
        return self._lookup(image, principal_color)


@pytest.fixture
def spy(monkeypatch):
    spy = SpyReadDice()
    monkeypatch.setattr("vision.read_dice", spy.read_dice)
    return spy


@pytest.fixture
def roller(history, clock):
    """The controller with its default readers (annotate faked: no JPEG work to spy on)."""
    return Controller(build_presets(), history, annotate=annotate, clock=clock)


@pytest.fixture
def fight(tmp_path, clock):
    session = CombatSession(tmp_path / "fight", clock=clock)
    session.add_hero("Brann")
    session.add_enemy("Saqueador")
    return session


def test_a_pip_preset_reads_pip_d6_alone(roller, spy, clock):
    roller.arm("2d6")
    state = settle(roller, clock, spy.frame(die(6, "red", principal=True), die(4, x=300)))
    assert state["state"] == "prompting" and state["needs"]["kind"] == "D3"
    assert spy.kinds == [frozenset({"d6-pips"})] and spy.colors == ["red"]


def test_the_pool_reads_every_kind_and_names_a_die_of_another_one(roller, spy, clock):
    roller.arm("pool5")
    dice = [numbered(v, x=100 * i) for i, v in enumerate((10, 3, 7, 1, 2))]
    state = settle(roller, clock, spy.frame(*dice[:4], numbered(5, "d8", x=400)))
    assert state["prompt"] == "a d8 is in the tray: throw only d10s"
    state = settle(roller, clock, spy.frame(*(numbered(d.value, x=d.box[0], y=300) for d in dice)))
    assert state["state"] == "prompting" and state["needs"]["count"] == 1  # the 10 is thrown again
    assert spy.kinds == [None, None]


def test_the_fights_steps_read_every_kind(fight, spy, clock):
    fight.read_tray("initiative", "Brann")
    fight.on_settled(spy.frame(numbered(7, "d8")), clock.tick())
    assert fight.state()["tray"]["problem"]["text"] == "a d8 is in the tray: Brann's initiative needs a d6"
    fight.on_settled(spy.frame(numbered(5, "d6-pips")), clock.tick())
    fight.roll_initiative({"Brann": 5, "Saqueador": 4})
    fight.start_attack("Brann", "Saqueador")
    fight.read_tray("attack")
    fight.on_settled(spy.frame(numbered(7, "d8"), numbered(14, "d20", x=300)), clock.tick())
    assert fight.state()["tray"]["waiting"]["needs"] == "the defence needs a d6 and a d20"
    assert spy.kinds == [None, None, None]


def test_one_dispatcher_reads_the_fight_and_the_roll_each_its_way(roller, fight, spy, clock):
    tray = TrayDispatcher([fight, roller], roller.readers, roller.annotate)  # as device/serve.py builds it
    roller.use_tray(tray)
    roller.arm("1d6")
    fight.read_tray("initiative", "Brann")
    tray.on_settled(spy.frame(numbered(4, "d6")), clock.tick())
    assert fight.state()["tray"]["initiative"] == {"Brann": 4}
    settle(tray, clock, spy.frame(die(3, "red", principal=True)), roller)
    assert spy.kinds == [None, frozenset({"d6-pips"})]
