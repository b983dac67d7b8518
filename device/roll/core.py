"""The roll being made, as the controller's parts share it: its state, the walk of its
throws, saving it and saying where it is (``state()``, the ``roll`` and ``state`` events).

:class:`RollCore` holds what every part of :class:`device.controller.Controller` reads and
changes (the parts are its base classes, one job each); a change that saves is
:func:`all_or_nothing`: a failed save puts the roll back as it was.
"""

from __future__ import annotations

import copy
import functools
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from device.errors import DeviceError, SaveFailed, said
from device.events import EventHub
from device.history import History
from device.presets import Preset
from device.roll.record import Die, Roll, Void, abandoned_note, now
from device.roll.walk import Walk, resolve, walk
from device.tray.dispatch import TrayDispatcher
from device.tray.problems import Problem, dice_count
from rules.errors import InvalidRoll
from rules.phrase import Phrase
from rules.pool import PoolOptions
from vision.principal import MeasuredColor
from vision.reading import DieReading

if TYPE_CHECKING:
    from device.teach_round import TeachingRound

log = logging.getLogger("device.controller")

STATES = ("idle", "armed", "waiting", "reading", "prompting", "resolved")
#: States in which a settled frame or dice by hand are taken for the roll.
TAKING = ("armed", "waiting", "prompting")


class RollStateError(DeviceError, RuntimeError):
    """The call does not fit the controller's state (dice by hand with no preset armed...)."""


#: What a failed save or a refused request puts back: the roll being made and where the
#: controller is with it.
_ROLL_STATE = ("_state", "_prompt", "_problem", "_needs", "_roll", "_latest", "_preset", "_roller",
               "_fresh_after", "_generation", "_read_requested", "_armed_before", "_void")


def all_or_nothing(method):
    """A change of the roll that saves: when the save fails (:class:`SaveFailed`, a full
    disk...), the controller is put back as it was before the call and the error raised;
    the same call succeeds once the cause is gone (a half-taken step wedged the roll)."""

    @functools.wraps(method)
    def change(self, *args, **kwargs):
        with self._lock:
            before = self._snapshot()
            try:
                return method(self, *args, **kwargs)
            except SaveFailed as exc:
                self._restore(before, exc)
                raise

    return change


class RollCore:
    """The controller's shared state (set by ``Controller.__init__``) and the steps of a roll."""

    _lock: threading.RLock
    _hub: EventHub
    _history: History
    _clock: Callable[[], float]
    _tray: TrayDispatcher
    _chain_limit: int
    _cocked_dice: str
    _house_rules: PoolOptions
    _presets: list[Preset]
    _config_presets: list[Preset]
    _principal_color: str | None
    _principal_measured: MeasuredColor | None
    _camera: dict[str, Any]
    _throw_fn: Callable[[int | None], None] | None
    _read_now_fn: Callable[[], None] | None
    _can_throw: Callable[[], bool]
    _can_throw_dice: Callable[[int], bool]
    _last_frame_at: Callable[[], float | None]
    _state: str
    _preset: Preset | None
    _roller: str | None
    _prompt: str | None
    _problem: dict | None                   # the prompt's problem as data (Problem.to_dict)
    _needs: dict | None
    _roll: Roll | None                      # the roll of the armed preset
    teaching_round: TeachingRound           # while on, it takes every throw (the state says so)
    _latest: dict | None
    _fresh_after: float                     # frames settled before this are stale (T-2)
    _generation: int                        # bumped when a reading in flight goes stale
    _read_requested: bool                   # the next frame is read as it is (read now)
    _armed_before: list[DieReading] | None  # the tray when the preset was armed
    _void: Void | None                      # RULES T-5 rethrow_set: the throw a cocked die voided
    _odds: dict[str, dict | None]
    _closed: bool
    annotate: Callable
    readers: dict[str, Callable]
    _save_error: str | None                 # why the last save failed (None: it worked)

    def _walk(self, roll: Roll, principal_note: str | None = None) -> Walk:
        """:func:`device.roll.walk.walk` under this controller's chain limit and cocked-die policy."""
        return walk(roll, self._chain_limit, self._cocked_dice, principal_note)

    def _resolve(self, roll: Roll, principal_note: str | None = None) -> Walk:
        """:func:`device.roll.walk.resolve` under this controller's chain limit and cocked-die policy."""
        return resolve(roll, self._chain_limit, self._cocked_dice, principal_note)

    def _request(self) -> str:
        """What the roll asks for now, in the words of its prompt: the first throw, the dice
        the rules want (RULES D6-4, P-3) or the problem of a throw to make again. A refusal
        ("no die has moved…") names it after its reason, so no refusal loses it."""
        roll = self._roll
        if roll is None or not roll.dice:
            return self._first_prompt()
        walk = self._walk(roll)
        if walk.problem is not None:
            return walk.problem.english()
        return self._needs["reason"] if self._needs else self._first_prompt()

    def _request_problem(self) -> Problem | None:
        """The problem of a throw the roll asks to make again, if that is what it asks for."""
        roll = self._roll
        return None if roll is None or not roll.dice else self._walk(roll).problem

    def _open_step(self) -> tuple[int, int | None, int]:
        """The step the next dice are for: (number, dice expected or None for any, sides).

        A step with a problem (an unreadable die, no principal die) is thrown again
        as a whole, with as many dice as the rules ask for there; otherwise the next step is the one the outcome needs.
        """
        roll = self._roll
        preset = cast(Preset, self._preset)  # dice are wanted for an armed preset only
        if roll is None or not roll.dice:
            return 0, preset.count, preset.sides
        walk = self._walk(roll)
        if walk.problem is not None:
            step = cast(int, walk.step)  # a problem names its throw
            return step, (preset.count if step == 0 else walk.outcome.needs.count), preset.sides
        last = max(die.step for die in roll.dice)
        needs = self._needs or {"count": 0, "sides": preset.sides}
        return last + 1, needs["count"], needs["sides"]

    def _store_step(self, dice: list[Die], step: int | None) -> None:
        roll = cast(Roll, self._roll)  # the armed preset's roll
        if step is None:
            step = 0
        roll.dice = [die for die in roll.dice if die.step < step]
        for die in dice:
            die.step = step
            die.index = len(roll.dice)
            roll.dice.append(die)

    def _advance(self, photos: tuple[bytes, bytes] | None = None,
                 principal_note: str | None = None) -> None:
        """Resolve the roll, save it, and move to prompting or resolved."""
        roll = cast(Roll, self._roll)  # the armed preset's roll
        walk = self._resolve(roll, principal_note)
        needs = walk.outcome.needs if walk.outcome is not None else None
        self._needs = None if needs is None else needs.to_dict()
        if walk.problem is None and roll.complete:
            roll.finished = now()
            self._save(photos)
            self._set_state("resolved")
        else:
            roll.finished = None
            self._save(photos)
            problem = walk.problem
            # no problem and not complete: the rules need more dice
            self._set_state("prompting", prompt=problem.english() if problem else cast(dict, self._needs)["reason"],
                            problem=None if problem is None else problem.to_dict())
        self._fresh_after = self._clock()

    def _new_roll(self) -> Roll:
        preset = cast(Preset, self._preset)  # a roll is made for an armed preset only
        if preset.spec is None:
            spec = {"system": "free"}
        else:
            spec = preset.make_spec(preset.count or 1, roller=self._roller).to_dict()
        return Roll(preset.name, preset.system, spec, now(), roller=self._roller, label=preset.label)

    # --- saving, state ------------------------------------------------
    def _snapshot(self) -> dict:
        """What a refused request or a failed save must leave as it was (:data:`_ROLL_STATE`)."""
        values = {name: getattr(self, name) for name in _ROLL_STATE}
        return {name: copy.deepcopy(v) if isinstance(v, (dict, list, Roll)) else v for name, v in values.items()}

    def _restore(self, snapshot: dict, failure: SaveFailed | None = None) -> None:
        """Put back a :meth:`_snapshot`; ``failure``: the failed save that is why (logged, and
        shown on /healthz until a save works)."""
        for name, value in snapshot.items():
            setattr(self, name, value)
        if failure is not None:
            self._save_error = said(failure)
            log.error("%s", failure)
        self._publish_state()


    def _abandon(self, why: Phrase) -> None:
        """Close the roll under way as abandoned, ``why`` in its note (a finished one is left)."""
        roll = self._roll
        if roll is None or roll.id is None or roll.finished is not None:
            return
        roll.finished, roll.note = now(), abandoned_note(why)
        self._save()

    def _save(self, photos: tuple[bytes, bytes] | None = None) -> None:
        photo, annotated = photos if photos else (None, None)
        roll = cast(Roll, self._roll)  # only the armed preset's roll is saved here
        saved = self._history.save(roll, photo=photo, annotated=annotated)
        self._save_error = None  # saving works again
        roll.id, roll.seq, roll.photo = saved["id"], saved["seq"], saved["photo"]
        self._publish_roll(saved)

    def _publish_roll(self, saved: dict) -> None:
        if self._latest is None or saved["id"] >= self._latest["id"]:
            self._latest = saved
        self._hub.publish("roll", copy.deepcopy(saved), seq=saved["seq"])

    def _set_state(self, state: str, prompt: str | None = None, problem: dict | None = None) -> None:
        self._state, self._prompt, self._problem = state, prompt, problem
        if state in ("idle", "armed", "resolved"):
            self._needs = None
        self._publish_state()

    def _publish_state(self) -> None:
        self._hub.publish("state", copy.deepcopy(self._state_dict()))

    def _state_dict(self) -> dict:
        preset = self._preset
        return {
            "state": self._state,
            "preset": preset.name if preset else None,
            "label": preset.label if preset else None,
            "roller": self._roller,
            "prompt": self._prompt,
            "problem": self._problem,
            "needs": self._needs,
            "camera": self._camera_dict(preset),
            "latest_roll": self._latest,
            # the roll under way, the only one that takes throws (None once another is armed)
            "current_roll": self._roll.id if self._roll is not None else None,
            "odds": self._preset_odds(preset) if preset else None,
            "teaching": self.teaching_round.on,
        }

    def _camera_dict(self, preset: Preset | None) -> dict:
        """The camera's status, and what it can do for the armed roll: ``can_throw``, it
        throws these dice itself; ``by_hand``, they can only be entered by hand (no camera,
        or one that throws by itself but not dice of these sides, as the simulated one a pool)."""
        throws = bool(self._throw_fn and self._can_throw())
        these = preset is None or self._can_throw_dice(preset.sides)
        return {**self._camera, "can_throw": throws and these,
                "by_hand": self._camera["status"] == "no camera" or (throws and not these)}

    def _preset_odds(self, preset: Preset) -> dict | None:
        if preset.name not in self._odds:
            try:
                self._odds[preset.name] = preset.odds()
            except (InvalidRoll, TypeError) as exc:
                log.warning("no odds for %s: %s", preset.name, exc)
                self._odds[preset.name] = None
        return self._odds[preset.name]

    def _first_prompt(self) -> str:
        preset = cast(Preset, self._preset)  # asked of an armed preset only
        count = preset.count
        dice = "the dice" if count is None else dice_count(count, "six-sided " if preset.sides == 6 else "ten-sided ")
        return f"{preset.label}: throw {dice}"
