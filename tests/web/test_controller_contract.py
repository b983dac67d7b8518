"""The contract of web/controller.py, run on the real controller and fight and on the tests'
fakes alike: what the web calls on them exists, answers in the shapes the web reads, and
refuses with the errors the web turns into answers (web.errors.refusals). A fake that
drifts from the real controller fails here, not in a page test that trusts it."""

from __future__ import annotations

import pytest

from device.combat import CombatSession
from device.controller import Controller
from device.errors import CameraUnavailable
from device.history import History
from device.presets import build_presets
from tests.fakes.controller import FakeController
from web.controller import Controller as ControllerProtocol
from web.controller import Fight

STATE_KEYS = {"state", "preset", "roller", "prompt", "problem", "needs", "camera", "latest_roll", "current_roll", "odds"}
PRESET_KEYS = {"name", "label", "system", "sides", "count", "spec"}
SETTING_KEYS = {"principal_color", "principal_measured", "presets", "pin", "house_rules"}
ROLL_KEYS = {"id", "seq", "preset", "label", "system", "roller", "complete", "dice", "corrections"}


@pytest.fixture(params=["real", "fake", "fake as tests/web has it"])
def ctl(request, tmp_path):
    if request.param == "real":
        with History(tmp_path) as history:
            yield Controller(build_presets(), history)
    elif request.param == "fake":
        yield FakeController(tmp_path)
    else:
        yield FakeController(tmp_path, queue_size=8, settles_on_throw=True, draws=False)


def _own_methods(obj, protocol) -> list[str]:
    """The protocol's methods ``obj`` has of its own (a fake typed by subclassing the
    protocol would otherwise inherit a stub that answers None)."""
    names = [name for name in dir(protocol) if not name.startswith("_")]
    return [name for name in names if getattr(type(obj), name, None) not in (None, getattr(protocol, name))]


def test_it_has_every_method_the_web_calls(ctl):
    assert isinstance(ctl, ControllerProtocol)
    assert _own_methods(ctl, ControllerProtocol) == sorted(
        name for name in dir(ControllerProtocol) if not name.startswith("_"))


def test_the_state_presets_and_settings_have_the_shapes_the_web_reads(ctl):
    state = ctl.state()
    assert STATE_KEYS <= set(state)
    assert {"status", "message", "reason", "can_throw"} <= set(state["camera"])
    presets = ctl.presets()
    assert presets and all(PRESET_KEYS <= set(preset) for preset in presets)
    assert SETTING_KEYS <= set(ctl.settings())


def test_arming_answers_the_state_and_an_unknown_preset_is_a_lookup_error(ctl):
    name = ctl.presets()[0]["name"]
    state = ctl.arm(name, "Nara")
    assert state["state"] == "armed" and state["preset"] == name and state["roller"] == "Nara"
    with pytest.raises(LookupError):
        ctl.arm("no such preset")


def _armed_d6(ctl) -> str:
    name = next(p["name"] for p in ctl.presets() if p["system"] == "d6" and p["count"] == 2)
    ctl.arm(name)
    return name


def test_dice_by_hand_make_a_roll_the_history_gives_back(ctl):
    name = _armed_d6(ctl)
    state = ctl.enter_dice([3, 4], roller="Nara")
    assert STATE_KEYS <= set(state)
    roll = ctl.rolls(limit=1)[0]
    assert ROLL_KEYS <= set(roll) and roll["preset"] == name and roll["roller"] == "Nara"
    assert sorted(die["natural"] for die in roll["dice"]) == [3, 4]
    assert ctl.state()["latest_roll"]["id"] == roll["id"]
    assert ctl.roll(roll["id"])["seq"] == roll["seq"]
    assert [r["id"] for r in ctl.rolls_since(roll["seq"] - 1)] == [roll["id"]]
    assert ctl.rolls_since(roll["seq"]) == []
    assert ctl.rolls(limit=5, player="Nara")[0]["id"] == roll["id"]
    assert ctl.rolls(limit=5, preset="no such preset") == []


def test_a_face_the_dice_do_not_show_is_a_value_error(ctl):
    _armed_d6(ctl)
    with pytest.raises(ValueError):
        ctl.enter_dice([3, 7])


def test_an_unknown_roll_is_a_lookup_error(ctl):
    for call in (lambda: ctl.roll(99), lambda: ctl.photo_path(99),
                 lambda: ctl.correct(99, 0, value=2), lambda: ctl.set_principal(99, 0)):
        with pytest.raises(LookupError):
            call()


def test_a_correction_answers_the_roll_with_a_newer_seq(ctl):
    _armed_d6(ctl)
    ctl.enter_dice([3, 4])
    roll = ctl.rolls(limit=1)[0]
    index = next(die["index"] for die in roll["dice"] if die["natural"] == 4)
    corrected = ctl.correct(roll["id"], index, value=2, who="Nara")
    assert corrected["id"] == roll["id"] and corrected["seq"] > roll["seq"]
    assert sorted(die["natural"] for die in corrected["dice"]) == [2, 3]
    assert corrected["corrections"][-1]["who"] == "Nara"


def test_the_dice_stats_count_every_kind_and_a_players_dice_alone(ctl):
    _armed_d6(ctl)
    ctl.enter_dice([3, 4], roller="Nara")
    roll = ctl.rolls(limit=1)[0]
    ctl.correct(roll["id"], next(d["index"] for d in roll["dice"] if d["natural"] == 4), value=2)
    stats = ctl.dice_stats()
    assert {"kinds", "alpha", "power"} <= set(stats)
    d6, d10 = stats["kinds"]
    assert (d6["kind"], d6["sides"], d10["kind"], d10["sides"]) == ("d6-pips", 6, "d10", 10)
    assert (d6["dice"], d6["by_hand"], d6["read"], d6["faces"]) == (2, 2, 0, [0, 1, 1, 0, 0, 0])
    assert d6["fairness"]["test"] == "exact binomial" and d10["dice"] == 0 and d10["fairness"] is None
    assert ctl.dice_stats(player="nara")["kinds"][0]["faces"] == [0, 1, 1, 0, 0, 0]
    assert ctl.dice_stats(player="Bia")["kinds"][0]["dice"] == 0


def _without_camera(fake):
    """The fake's ``start_teaching`` once its camera is gone, as the real one starts."""
    fake.set_camera("no camera", "no camera attached")
    return fake.start_teaching


def test_the_teaching_round_starts_stops_and_refuses_with_no_throw_held(ctl):
    with pytest.raises(CameraUnavailable):  # no camera yet: the round would get no throw
        (ctl.start_teaching if isinstance(ctl, Controller) else _without_camera(ctl))()
    (ctl.on_status if isinstance(ctl, Controller) else ctl.set_camera)("ok")
    teaching = ctl.teaching()
    assert isinstance(teaching.pop("can_throw"), bool)    # whether the camera throws the set itself
    assert teaching == {"on": False, "dice": [], "examples": {}, "lacking": {}, "why_not": None}
    assert ctl.start_teaching()["on"] is True
    for call in (ctl.confirm_taught_throw, lambda: ctl.fix_taught_die(0, 3)):
        with pytest.raises(LookupError):
            call()
    assert ctl.skip_taught_throw()["dice"] == []
    assert ctl.stop_teaching()["on"] is False


def test_a_subscription_gets_the_state_and_the_roll_events(ctl):
    subscription = ctl.subscribe()
    try:
        assert subscription.get(timeout=0.01) is None
        _armed_d6(ctl)
        ctl.enter_dice([3, 4])
        events = []
        while (event := subscription.get(timeout=0.1)) is not None:
            events.append(event)
        kinds = {event.kind for event in events}
        assert "state" in kinds and "roll" in kinds
        roll = ctl.rolls(limit=1)[0]
        assert roll["seq"] in [event.seq for event in events if event.kind == "roll"]
        assert all(event.seq is None for event in events if event.kind == "state")
    finally:
        subscription.close()


def test_settings_change_and_an_unknown_one_is_refused(ctl):
    assert ctl.update_settings(principal_color="blue")["principal_color"] == "blue"
    assert ctl.settings()["principal_color"] == "blue"
    with pytest.raises((ValueError, TypeError)):
        ctl.update_settings(colour="blue")


def test_the_principal_colour_is_measured_only_with_one_die_in_sight(ctl):
    with pytest.raises(RuntimeError, match="no photo from the camera yet"):
        ctl.principal_from_tray()
    assert ctl.settings()["principal_measured"] is None


def test_clearing_the_history_forgets_every_roll(ctl):
    _armed_d6(ctl)
    ctl.enter_dice([3, 4])
    ctl.clear_history()
    assert ctl.rolls() == []


def test_the_latest_frame_is_an_image_and_a_reading_or_none(ctl):
    image, reading = ctl.latest_frame()
    assert (image is None) == (reading is None)


def test_the_latest_frame_as_a_jpeg_is_bytes_and_the_full_frames_size_or_none(ctl):
    _armed_d6(ctl)
    ctl.enter_dice([3, 4])
    latest = ctl.latest_frame_jpeg(64)
    if ctl.latest_frame()[0] is None:
        assert latest is None
    else:
        jpeg, frame = latest
        assert jpeg[:2] == b"\xff\xd8" and {"width", "height", "reading"} <= set(frame)


def test_the_fight_has_every_method_the_web_calls(tmp_path):
    fight = CombatSession(tmp_path)
    assert isinstance(fight, Fight)
    assert _own_methods(fight, Fight) == sorted(name for name in dir(Fight) if not name.startswith("_"))
    state = fight.add_hero("Brann")
    assert {"log_size", "seq", "encounter", "groups", "attack", "last_attack", "can_undo", "heroes",
            "bestiary", "conditions", "options", "tray", "last_attack_correctable"} <= set(state)
    assert fight.names() == ["Brann"]
    with pytest.raises(KeyError):
        fight.add_hero("no such hero")
    with pytest.raises(ValueError):
        fight.next_turn()  # no initiative rolled
