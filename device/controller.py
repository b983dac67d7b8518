"""The roll controller: from a chosen preset and settled frames to a finished, saved roll.

An explicit state machine (``state()["state"]``)::

    idle ──arm──▶ armed ──frame/dice──▶ reading ──▶ resolved
                    │ ▲                    │
                  throw│                   ▼
                    ▼ │               prompting ──throw──▶ waiting
                  waiting ◀──────────────┘ (more dice, or a problem to fix)

* ``armed``: a preset is chosen; the first settled frame that arrives from now
  on (or dice by hand) is its first throw.
* ``waiting``: a throw was started on the sim/file camera; same as armed or
  prompting otherwise.
* ``reading``: vision is reading a frame (outside the lock).
* ``prompting``: the roll needs something: more dice (a perfect roll's extra
  D3, the rerolled 10s of a pool, RULES D6-4, P-3) or a problem fixed (too many
  or too few dice, a die of another kind than the preset's — a d8 among a pool's
  d10s —, an unreadable or cocked die, no principal die: RULES T-1, T-3). The
  prompt names it; nothing is guessed.
* ``resolved``: the roll is complete and saved; frames are ignored until a
  preset is armed again (a button press or a tap).

Only a frame that *arrives* while the controller waits for one, and was
settled after the prompt, is used (RULES T-2). Dice at the same place with the
same face as before were not thrown: a follow-up throw takes only the dice that
moved since the previous frame, and a first throw needs some die to have moved
since the preset was armed (a bump of the tray is not a throw; "read now"
reads the tray as it is). Every rule is ``rules.resolve``'s; the controller
only sorts dice into throws.

A roll is saved to the history at each step (so its photo and dice can be
corrected on the page while it waits) and once more when finished; each save
publishes a ``roll`` event with the new seq. Thread-safe: buttons, the camera
loop and web requests call in on their own threads.
"""

from __future__ import annotations

import copy
import functools
import logging
import shutil
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Literal, NamedTuple, cast

import cv2
import numpy as np

import rules
from device.errors import CameraUnavailable, DeviceError, RollNeedsDice, SaveFailed, ThrowUnsupported
from device.events import EventHub, Subscription
from device.history import History
from device.presets import Preset, PresetError, preset_from_table
from device.setup_view import setup_view
from device.tray.dispatch import Taken, TrayDispatcher
from device.tray.match import Wanted
from device.tray.problems import Problem, dice_count
from rules import cocked as cocked_policy
from rules.d6 import D6Spec
from rules.errors import InvalidRoll
from rules.phrase import Phrase
from rules.pool import PoolOptions, PoolSpec
from vision.reading import DieReading, TrayReading

log = logging.getLogger(__name__)

STATES = ("idle", "armed", "waiting", "reading", "prompting", "resolved")
#: The numbered reader's kind (``vision.numerals.KINDS``) of a preset's dice, by sides;
#: six-sided presets are read by the pip reader.
NUMBERED_KINDS = {10: "d10"}
#: States in which a settled frame or dice by hand are taken for the roll.
_TAKING = ("armed", "waiting", "prompting")
JPEG_QUALITY = 85
#: How the note of a roll with surplus throws begins (the rest names the die).
SURPLUS_NOTE = "dice after die"
#: How the note of a roll closed before it was complete begins (the rest says why). Such a
#: roll has ``finished`` but not ``complete``: the pages show it as abandoned.
ABANDONED_NOTE = "abandoned: "
#: How the note of a past roll a correction left waiting for dice begins.
WAITING_NOTE = "it still waits for dice: "


class _Walk(NamedTuple):
    """A roll's throws as the rules saw them (:meth:`Controller._walk`)."""
    spec: Any                     # the D6Spec or PoolSpec the throws were resolved by
    outcome: Any                  # the rules' outcome of the counted throws (needs, complete, to_dict); None before any
    counted: list[list[dict]]     # the dice of each counted throw, in the rules' order
    step: int | None              # the throw to make again (it has the problem), else None
    problem: Problem | None       # why


class RollStateError(DeviceError, RuntimeError):
    """The call does not fit the controller's state (dice by hand with no preset armed...)."""


#: What a failed save or a refused request puts back: the roll being made and where the
#: controller is with it.
_ROLL_STATE = ("_state", "_prompt", "_problem", "_needs", "_roll", "_latest", "_preset", "_roller",
               "_fresh_after", "_generation", "_read_requested", "_armed_before", "_void")


def _all_or_nothing(method):
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


class SettingLocked(DeviceError, RuntimeError):
    """A setting the config file decides (the PIN) was changed from the page."""


class Controller:
    """The roll controller handed to ``web.create_app`` (interface: CONTRACTS.md).

    :param presets: the presets, in the order the page lists them.
    :param history: where rolls are saved.
    :param reader: ``(image BGR H×W×3 uint8, principal_color) -> TrayReading``;
        default ``vision.read_tray``: the pip reader of six-sided presets.
    :param numbered_reader: ``(image, principal_color) -> TrayReading`` of
        ``NumberedReading`` dice (``kind``, ``sides``, ``value``: a d10's 0 is 10);
        default ``vision.read_numbered``: the reader of d10 presets (the pool). It
        reports dice of every kind, so a d8 among the d10s is named, not dropped.
    :param annotate: ``(image, TrayReading) -> image``; default ``vision.annotate``.
    :param principal_color: palette name of the principal die (RULES D6-2), or None
        to let vision pick a die of a colour no other die has.
    :param pin: the PIN hash (``web.security.hash_pin``) from the config, or None. It wins
        over any PIN set on the page, and so does its absence unless ``pin_from_page``.
    :param pin_from_page: with no ``pin``, whether the page may set, change and clear the
        PIN (the owner's choice in the config: otherwise any phone on the LAN could set a
        first PIN and lock the owner out).
    :param chain_limit: extra dice before a perfect-roll chain is stopped with a
        note on the roll (RULES T-4).
    :param house_rules: the config's pool options (RULES P-5b), applied to every pool
        preset until the settings page changes them (kept in the history database).
    :param cocked_dice: the config's cocked-die policy (RULES T-5, :data:`rules.cocked.POLICIES`),
        until the settings page changes it (kept in the history database).
    :param clock: the clock of the ``t`` of settled frames, seconds.
    :param resume_seconds: a roll the history holds still waiting for dice (the server
        stopped mid-chain) is taken up at start when its last step is younger than this:
        its preset armed again, its prompt shown, the next dice taken (RULES T-3); an
        older one is closed as abandoned, with a note (:meth:`_take_up`).
    """

    def __init__(self, presets: Sequence[Preset], history: History, *,
                 reader: Callable | None = None, numbered_reader: Callable | None = None,
                 annotate: Callable | None = None,
                 principal_color: str | None = "red", pin: str | None = None,
                 pin_from_page: bool = True,
                 chain_limit: int = 100, house_rules: PoolOptions = PoolOptions(),
                 cocked_dice: str = cocked_policy.DEFAULT,
                 clock: Callable[[], float] = time.monotonic, queue_size: int = 100,
                 resume_seconds: float = 30 * 60):
        if reader is None or numbered_reader is None or annotate is None:
            import vision
            reader = reader or vision.read_tray
            numbered_reader = numbered_reader or vision.read_numbered
            annotate = annotate or vision.annotate
        self.annotate = annotate
        self.readers = {"pips": reader, "numbered": numbered_reader}
        self._tray = TrayDispatcher([self], self.readers, annotate)
        self._history = history
        self._clock = clock
        self._chain_limit = chain_limit
        stored_rules = history.setting("house_rules")
        self._house_rules = PoolOptions(**stored_rules) if stored_rules else house_rules
        self._cocked_dice = cocked_policy.check_policy(history.setting("cocked_dice", cocked_dice))
        self._hub = EventHub(queue_size)
        self._lock = threading.RLock()
        self._config_presets = [_with_house_rules(preset, self._house_rules) for preset in presets]
        stored = history.setting("presets")
        self._presets = self._presets_from(stored) if stored else list(presets)
        self._principal_color = history.setting("principal_color", principal_color)
        self._pin_from_page = pin_from_page and pin is None
        self._config_pin = pin
        self._pin = history.setting("pin", None) if self._pin_from_page else pin
        self._camera = {"status": "no camera", "message": "no camera attached", "can_throw": False}
        self._throw_fn: Callable[[int | None], None] | None = None
        self._read_now_fn: Callable[[], None] | None = None
        self._can_throw: Callable[[], bool] = lambda: False
        self._can_throw_dice: Callable[[int], bool] = lambda sides: True
        self._last_frame_at: Callable[[], float | None] = lambda: None
        self._state = "idle"
        self._preset: Preset | None = None
        self._roller: str | None = None
        self._prompt: str | None = None
        self._problem: dict | None = None      # the prompt's problem as data (Problem.to_dict)
        self._needs: dict | None = None
        self._roll: dict | None = None          # the roll of the armed preset
        self._latest: dict | None = history.latest()
        self._fresh_after = 0.0                 # frames settled before this are stale (T-2)
        self._generation = 0                    # bumped when a reading in flight goes stale
        self._read_requested = False            # the next frame is read as it is (read now)
        self._armed_before: list[DieReading] | None = None  # the tray when the preset was armed
        # RULES T-5 rethrow_set: the throw a cocked die voided, {"step", "reference" (the tray
        # before it), "dice"}: DieReadings; its dice count again only once they moved
        self._void: dict | None = None
        self._odds: dict[str, dict | None] = {}
        self._closed = False
        self._save_error: str | None = None     # why the last save failed (None: it worked)
        self._take_up(resume_seconds)

    # --- the camera loop's side ------------------------------------------------
    def attach_camera(self, *, throw: Callable[[int | None], None] | None = None,
                      read_now: Callable[[], None] | None = None,
                      can_throw: bool | Callable[[], bool] = False,
                      can_throw_dice: Callable[[int], bool] | None = None,
                      last_frame_at: Callable[[], float | None] | None = None) -> None:
        """Give the controller the camera loop's hooks (``device.tray.loop.TrayLoop``).

        :param throw: ``throw(count)`` starts a throw of ``count`` dice (None: the
            camera's default) on a sim/file camera.
        :param read_now: reads the tray at once (the frame comes to the tray dispatcher).
        :param can_throw: whether the camera throws by itself now (a bool or a callable).
        :param can_throw_dice: ``can_throw_dice(sides)``, whether it throws dice of that many
            sides (the simulated camera: d6 only); None: any dice it throws.
        :param last_frame_at: when the camera last gave a frame, seconds on the
            controller's clock (None before the first), for :meth:`health`.
        """
        with self._lock:
            self._throw_fn, self._read_now_fn = throw, read_now
            self._can_throw = can_throw if callable(can_throw) else (lambda: bool(can_throw))
            self._can_throw_dice = can_throw_dice or (lambda sides: True)
            self._last_frame_at = last_frame_at or (lambda: None)
            self._publish_state()

    def on_status(self, status: str, message: str | None = None) -> None:
        """The camera loop's report: ``"ok"``, ``"no camera"`` or ``"reconnecting"``."""
        with self._lock:
            camera = {**self._camera, "status": status, "message": message}
            if camera == self._camera:
                return
            self._camera = camera
            self._hub.publish("camera", self._camera_dict(self._preset))
            self._publish_state()

    def use_tray(self, tray: TrayDispatcher) -> None:
        """Take frames from ``tray`` (``device/serve.py``'s, which asks a waiting fight first)
        instead of this controller's own: its tray as seen is the one a roll compares with."""
        with self._lock:
            self._tray = tray

    def on_settled(self, frame: np.ndarray, t: float) -> None:
        """A full-resolution frame (H×W×3 uint8 BGR) of a tray that settled at ``t``
        (seconds on the controller's clock), through this controller's own
        :class:`~device.tray.dispatch.TrayDispatcher` of it alone (tests, benchmarks)."""
        self._tray.on_settled(frame, t)

    def wanted(self, t: float) -> Wanted:
        """What the roll asks of a frame settled at ``t`` (the tray dispatcher's question):
        ``take`` only while it waits for dice and the frame settled after the prompt (RULES
        T-2); the roll is then ``reading`` until :meth:`take`."""
        with self._lock:
            preset = self._preset
            reader: Literal["pips", "numbered"] = (
                "numbered" if preset is not None and preset.sides in NUMBERED_KINDS else "pips")
            if self._closed or self._state not in _TAKING or preset is None or t < self._fresh_after:
                return Wanted(reader=reader, color=self._principal_color, take=False)
            step, expected, _ = self._open_step()
            # RULES T-2: the first throw is compared with the tray when the roll was armed
            # (taking a die out of it is fine), each later throw with the frame before it;
            # RULES T-5 rethrow_set: a voided step is thrown again from the tray before it,
            # and none of the voided throw's dice counts unless it moved.
            void = self._void if self._void is not None and self._void["step"] == step else None
            before: Literal["last"] | Sequence[DieReading] | None = (
                void["reference"] if void is not None else "last" if step > 0 else self._armed_before)
            wanted = Wanted(reader=reader, count=expected, kind=NUMBERED_KINDS.get(preset.sides),
                            moved_only=True, follow_up=step > 0, as_is=self._read_requested,
                            label=preset.label, asks=self._request(), color=self._principal_color,
                            photos=True, token=(self._generation, self._state, step), before=before,
                            voided=tuple(void["dice"]) if void is not None else ())
            self._set_state("reading")
            return wanted

    def take(self, taken: Taken) -> bool:
        """The frame :meth:`wanted` asked for: its dice are the step's, or the prompt says what
        is wrong. False when its save failed: the roll is as before, the next throw tries again."""
        generation, resume, step = cast(tuple[int, str, int], taken.wanted.token)
        with self._lock:
            if self._generation != generation:  # (armed again meanwhile...)
                return True
            problem = taken.match.problem
            if taken.reading is None and problem is not None:  # the reader failed
                failed = replace(problem, asks=self._request(), then=self._request_problem())
                self._set_state(resume, prompt=failed.english(), problem=failed.to_dict())
                return True
            self._state = resume
            before = self._snapshot()
            try:
                self._take_frame(taken, step)
                return True
            except SaveFailed as exc:  # say so where the players look; the next throw tries again
                self._restore(before, exc)
                failed = Problem("not saved", why=str(exc.args[0].values.get("why", exc))
                                 if isinstance(exc.args[0], Phrase) else str(exc), asks=exc.args[0])
                self._set_state(self._state, prompt=Phrase("{why} — then throw again", why=exc.args[0]),
                                problem=failed.to_dict())
                return False

    # --- the interface the web app and buttons use -------------------------------
    def state(self) -> dict:
        """The whole state (CONTRACTS.md), plus ``label`` of the armed preset."""
        with self._lock:
            return copy.deepcopy(self._state_dict())

    def presets(self) -> list[dict]:
        with self._lock:
            return [preset.to_dict() for preset in self._presets]

    @_all_or_nothing
    def arm(self, preset: str, roller: str | None = None) -> dict:
        """Choose the roll; the next fresh throw (or dice by hand) is its first throw.

        :raises KeyError: for an unknown preset name.
        """
        with self._lock:
            chosen = self._find_preset(preset)
            self._abandon(f"{chosen.label} was armed before this roll was complete")
            self._generation += 1
            self._preset, self._roller = chosen, roller or None
            self._roll, self._needs, self._armed_before, self._void = None, None, self._tray.seen(), None
            self._fresh_after = self._clock()
            if chosen.count == 0:  # a pool emptied by penalties: no dice (RULES P-8)
                self._roll = self._new_roll()
                self._store_step([], None)
                self._advance()
            else:
                self._set_state("armed", prompt=self._first_prompt())
            return copy.deepcopy(self._state_dict())

    def throw(self) -> None:
        """Start a throw on a camera that throws itself (sim, file), of the dice the
        roll wants now; after a finished roll, the same preset is armed again.

        :raises ThrowUnsupported: for a real camera (or none).
        :raises CameraUnavailable: while the camera is away.
        :raises RollStateError: no roll is armed (the dice thrown would count for nothing).
        """
        with self._lock:
            throw = self._throw_fn
            if throw is not None and self._camera["status"] != "ok":
                raise CameraUnavailable(Phrase("the camera is away ({why}): enter the dice by hand meanwhile",
                                               why=self._camera["message"]))
            if throw is None or not self._can_throw():
                raise ThrowUnsupported(Phrase("this camera cannot throw: throw the dice into the tray"))
            if self._preset is None:
                raise RollStateError(Phrase("no roll armed: choose a preset first"))
            if not self._can_throw_dice(self._preset.sides):
                raise ThrowUnsupported(Phrase("this camera cannot throw d{sides}s: enter them by hand on the page",
                                              sides=self._preset.sides))
            count = None
            before = self._snapshot()
            if self._state == "resolved":
                self.arm(self._preset.name, self._roller)
            if self._state in _TAKING:
                count = self._open_step()[1]
                self._set_state("waiting", prompt=self._prompt, problem=self._problem)
        try:
            throw(count)
        except (ValueError, DeviceError) as exc:  # e.g. more dice than the sim camera throws
            with self._lock:
                if self._state == "waiting":  # nothing was thrown: back to what it was (a finished roll too)
                    self._restore(before)
            if isinstance(exc, ThrowUnsupported):
                raise
            raise ThrowUnsupported(f"the camera cannot throw these dice ({exc}): "
                                   "throw them by hand or enter them on the page") from exc

    def read_now(self) -> None:
        """Read the tray now, without waiting for it to settle.

        :raises CameraUnavailable: when no camera is attached.
        """
        with self._lock:
            read_now = self._read_now_fn
            if read_now is None:
                raise CameraUnavailable(Phrase("no camera to read from"))
            self._read_requested = True
        read_now()

    @_all_or_nothing
    def enter_dice(self, values: list[int], roller: str | None = None) -> dict:
        """Dice by hand for the current step: the first throw (D6: principal die
        first), or the dice the prompt asks for. A finished roll starts again.

        :returns: the state after the dice are taken.
        :raises RollStateError: when no preset is armed.
        :raises ValueError: for a wrong number of dice or a face the dice do not have.
        """
        with self._lock:
            if self._preset is None:
                raise RollStateError(Phrase("no roll armed: choose a preset first"))
            again = self._state == "resolved"  # a new roll of the same preset, once the dice are right
            step, expected, sides = (0, self._preset.count, self._preset.sides) if again else self._open_step()
            if not isinstance(values, (list, tuple)) or not all(
                    isinstance(v, int) and not isinstance(v, bool) for v in values):
                raise ValueError("dice must be a list of whole numbers")
            low = 0 if sides == 10 else 1  # a d10's printed 0 is 10 (RULES P-1)
            if any(not low <= v <= sides for v in values):
                raise ValueError(Phrase("each die must show {faces}", faces=_faces(sides)))
            if expected is not None and len(values) != expected:
                raise ValueError(Phrase("1 die needed here, got {got}", got=len(values)) if expected == 1 else
                                 Phrase("{count} dice needed here, got {got}", count=expected, got=len(values)))
            if not values:
                raise ValueError(Phrase("no dice given"))
            if again:  # only now: a refused request leaves the finished roll the current one
                self.arm(self._preset.name, roller or self._roller)
            if roller:
                self._roller = roller
            self._generation += 1
            d6_principal = self._preset.system in ("d6", "free") and step == 0  # RULES D6-2a: the first typed
            dice = [_die(v or 10, "hand", principal=d6_principal and i == 0)
                    for i, v in enumerate(values)]
            if self._roll is None:
                self._roll = self._new_roll()
            self._roll["roller"] = self._roller
            self._void = None  # typed dice: no throw is voided
            self._store_step(dice, step)
            self._advance()
            self._tray.forget()  # the tray holds dice nobody saw: no comparison
            return copy.deepcopy(self._state_dict())

    @_all_or_nothing
    def correct(self, roll_id: int, index: int, *, value: int | None = None,
                cocked: bool = False, who: str | None = None, more: list[int] | None = None) -> dict:
        """Correct one die of a roll (a misread face, or a cocked die) and resolve again.

        :param more: for a finished past roll the correction leaves waiting for dice (an
            extra die corrected to 6 asks for the next, RULES D6-4): their natural values, by
            hand, in the order asked; each is kept as a die added by a correction.
        :returns: the roll as saved (new seq).
        :raises RollNotFound: no such roll.
        :raises RollNeedsDice: a finished past roll this would leave waiting for dice, and
            ``more`` does not give them all (see :meth:`_after_edit`).
        :raises ValueError: no such die, or a face the die does not have, or neither
            or both of ``value`` and ``cocked``, or no change (the die already shows it), or
            ``more`` for the current roll or beyond what the roll asks for.
        """
        with self._lock:
            roll = self._editable(roll_id)
            was_complete = roll["complete"]
            die = _die_at(roll, index)
            if (value is None) == (not cocked):
                raise ValueError("give either a value or cocked=True")
            sides = 10 if roll["system"] == "pool" else 6
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not (0 if sides == 10 else 1) <= value <= sides):
                raise ValueError(Phrase("a die of this roll shows {faces}", faces=_faces(sides)))
            new = None if cocked else (value or 10)
            if new == die["natural"] and (new is not None or die.get("unreadable") == "cocked"):
                raise ValueError(Phrase("die {n} already shows cocked: nothing to correct", n=index + 1)
                                 if new is None else
                                 Phrase("die {n} already shows {value}: nothing to correct", n=index + 1, value=new))
            roll["corrections"].append({"index": index, "from": die["natural"],
                                        "to": new if not cocked else "cocked",
                                        "who": who, "at": _now()})
            leaning = die.get("unreadable") == "cocked" and self._cocked_dice == "accept_leaning"
            die.update(natural=new, unreadable="cocked" if cocked else None, corrected=True,
                       source="hand" if leaning and not cocked else die["source"])  # RULES T-5: its top face
            if more:
                if roll is self._roll:
                    raise ValueError(Phrase("the current roll asks for its dice itself: "
                                            "throw them or enter them by hand"))
                self._add_dice(roll, list(more), who)
            return self._after_edit(roll, was_complete)

    def _add_dice(self, roll: dict, values: list[int], who: str | None) -> None:
        """Add to a past roll, step by step, the dice its outcome asks for, by hand."""
        sides = 10 if roll["system"] == "pool" else 6
        while values:
            walk = self._resolve(roll)
            if walk.problem is not None or roll["complete"]:
                raise ValueError(Phrase("this roll needs no more dice"))
            count = walk.outcome.needs.count
            if len(values) < count:
                return  # _after_edit says what is still needed
            step = max(die["step"] for die in roll["dice"]) + 1
            for value in values[:count]:
                lowest = 0 if sides == 10 else 1
                if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= sides:
                    raise ValueError(Phrase("a die of this roll shows {faces}", faces=_faces(sides)))
                die = _die(value or 10, "hand")
                die.update(step=step, index=len(roll["dice"]), corrected=True)
                roll["dice"].append(die)
                roll["corrections"].append({"index": die["index"], "from": None, "to": value or 10,
                                            "who": who, "at": _now()})
            values = values[count:]

    @_all_or_nothing
    def set_principal(self, roll_id: int, index: int, who: str | None = None) -> dict:
        """Mark which die of the first throw is the principal die (RULES D6-2) and resolve again.

        :raises RollNotFound: no such roll.
        :raises ValueError: not a six-sided roll, or the die is not of the first throw, or
            it is already the principal die, or a finished past roll this would leave waiting
            for dice.
        """
        with self._lock:
            roll = self._editable(roll_id)
            die = _die_at(roll, index)
            if roll["system"] not in ("d6", "free"):
                raise ValueError(Phrase("only a six-sided roll has a principal die"))
            if die["step"] != 0:
                raise ValueError(Phrase("the principal die is one of the first throw"))
            if die["principal"]:
                raise ValueError(Phrase("die {n} is already the principal die: nothing to change", n=index + 1))
            was_complete = roll["complete"]
            for other in roll["dice"]:
                other["principal"] = other is die
            roll["corrections"].append({"index": index, "from": "secondary", "to": "principal",
                                        "who": who, "at": _now()})
            return self._after_edit(roll, was_complete)

    def rolls(self, limit: int = 20, offset: int = 0, player: str | None = None,
              preset: str | None = None) -> list[dict]:
        return self._history.rolls(limit=limit, offset=offset, player=player, preset=preset)

    def roll(self, roll_id: int) -> dict:
        return self._history.roll(roll_id)

    def rolls_since(self, seq: int) -> list[dict]:
        return self._history.rolls_since(seq)

    def photo_path(self, roll_id: int, annotated: bool = True):
        return self._history.photo_path(roll_id, annotated)

    def setup_view(self) -> dict | None:
        """The latest frame read, its dice measured for the camera's setup (:func:`device.setup_view.setup_view`)."""
        return setup_view(self)

    def latest_frame(self) -> tuple[np.ndarray | None, dict | None]:
        """The last frame read (any state) and its tray reading dict, for picking the principal colour."""
        return self._tray.latest_frame()

    def latest_frame_jpeg(self, max_side: int) -> tuple[bytes, dict] | None:
        """The last frame read as a JPEG of at most ``max_side`` pixels, and ``{"width",
        "height", "reading"}`` of the full frame; None before the first
        (:meth:`TrayDispatcher.latest_frame_jpeg`)."""
        return self._tray.latest_frame_jpeg(max_side)

    def settings(self) -> dict:
        """``{"principal_color", "presets", "pin", "house_rules", "cocked_dice"}`` (pin: the
        stored hash, or None; house_rules: ``{"rule_of_ten", "rule_of_one", "target_number"}``,
        RULES P-5b; cocked_dice: one of :data:`rules.cocked.POLICIES`, RULES T-5)."""
        with self._lock:
            return {"principal_color": self._principal_color, "presets": self.presets(),
                    "pin": self._pin, "house_rules": self._house_rules.to_dict(),
                    "cocked_dice": self._cocked_dice}

    def update_settings(self, **changes) -> dict:
        """Change and keep (in the history database) ``principal_color``, ``presets``, ``pin``,
        ``house_rules`` or ``cocked_dice`` (RULES T-5: from the next throw read on).

        ``presets`` is the whole list, each as :meth:`presets` gives them or as a
        config ``[[presets]]`` table; ``None`` goes back to the config's presets. Every
        change is checked and saved in one transaction before any takes effect: a refusal
        or a failed save changes nothing. ``house_rules`` is ``{"rule_of_ten"?, "rule_of_one"?,
        "target_number"?}`` (the keys left out keep their value); every pool preset follows it (RULES P-5b).

        :raises ValueError: for an unknown setting or a bad value (naming it).
        :raises SettingLocked: for a PIN when the config decides it (``pin`` set, or
            ``pin_from_page`` off).
        :raises SaveFailed: when the history database cannot save them.
        """
        unknown = sorted(set(changes) - {"principal_color", "presets", "pin", "house_rules", "cocked_dice"})
        if unknown:
            raise ValueError(f"unknown setting {', '.join(unknown)}; "
                             "settings: principal_color, presets, pin, house_rules, cocked_dice")
        with self._lock:
            if "cocked_dice" in changes:
                cocked_policy.check_policy(changes["cocked_dice"])
            if "house_rules" in changes:
                wanted = changes["house_rules"]
                if not isinstance(wanted, dict) or set(wanted) - set(PoolOptions().to_dict()):
                    raise ValueError("house_rules takes rule_of_ten, rule_of_one and target_number")
                try:
                    house_rules = PoolOptions(**{**self._house_rules.to_dict(), **wanted})
                except InvalidRoll as exc:
                    raise ValueError(str(exc)) from None
                self._house_rules = house_rules
                self._history.set_setting("house_rules", house_rules.to_dict())
                self._config_presets = [_with_house_rules(p, house_rules) for p in self._config_presets]
                self._presets = [_with_house_rules(p, house_rules) for p in self._presets]
                if self._preset is not None:
                    self._preset = self._find_preset(self._preset.name)
                self._odds.clear()
            if "principal_color" in changes:
                from vision.colors import PALETTE
                color = changes["principal_color"]
                if color is not None and color not in PALETTE:
                    raise ValueError(Phrase("principal_color must be one of {colours} or null",
                                            colours=", ".join(PALETTE)))
            if "presets" in changes and changes["presets"] is not None:
                presets = self._presets_from(changes["presets"])
            if "pin" in changes:
                if not self._pin_from_page:
                    raise SettingLocked(Phrase("the PIN is set in the config file: change it there")
                                        if self._config_pin else
                                        Phrase("the PIN cannot be set from the page: set pin in the config "
                                               "file (or pin_from_page = true)"))
                if changes["pin"] is not None and not isinstance(changes["pin"], str):
                    raise ValueError("pin must be the stored PIN hash or null")
            try:
                self._history.set_settings(changes)  # first: a failed save changes nothing
            except SaveFailed as exc:
                self._save_error = str(exc)
                raise
            self._save_error = None
            if "principal_color" in changes:
                self._principal_color = changes["principal_color"]
            if "presets" in changes:
                if changes["presets"] is None:
                    self._presets = list(self._config_presets)
                else:
                    self._presets = presets
                self._odds.clear()
            if "pin" in changes:
                self._pin = changes["pin"]
            if "cocked_dice" in changes:
                self._cocked_dice = changes["cocked_dice"]
                self._void = self._voided_now()
                if self._roll is not None and self._state in _TAKING:  # the prompt of a cocked die follows
                    problem = self._request_problem()
                    self._set_state(self._state, prompt=self._request(),
                                    problem=None if problem is None else problem.to_dict())
            self._publish_state()
            return self.settings()

    @_all_or_nothing
    def clear_history(self) -> None:
        """Remove every saved roll and photo (seq keeps counting up)."""
        with self._lock:
            self._history.clear()
            self._save_error = None
            self._latest = None
            if self._roll is not None and self._roll.get("id") is not None:
                self._roll = None
                if self._state in _TAKING:
                    self._set_state("armed", prompt=self._first_prompt())
            self._publish_state()

    def health(self) -> dict:
        """What ``/healthz`` judges: the camera, the age of its last frame, free disk, the
        database, and whether rolls and photos can be saved.

        :returns: ``{"camera": {"status", "message", "last_frame_seconds"}, "disk":
            {"free_bytes", "error"}, "database": {"ok", "error"}, "saving": {"ok", "error"}}``;
            ``saving.error`` is why the last save failed (until one succeeds) or the folder
            that cannot be written; ``last_frame_seconds``
            is the time since the camera loop last got a frame (None before the first),
            ``free_bytes`` the space left in the data folder (None when it cannot be
            measured, ``error`` then says why).
        """
        with self._lock:
            camera: dict[str, Any] = {"status": self._camera["status"], "message": self._camera["message"]}
            last_frame_at = self._last_frame_at()
        camera["last_frame_seconds"] = (None if last_frame_at is None
                                        else round(max(self._clock() - last_frame_at, 0.0), 3))
        try:
            disk: dict[str, Any] = {"free_bytes": shutil.disk_usage(self._history.folder).free, "error": None}
        except OSError as exc:
            disk = {"free_bytes": None, "error": f"the data folder cannot be measured: {exc}"}
        problem = self._history.check()  # its own lock: a slow check holds up no roll
        with self._lock:
            saving = self._save_error or self._history.unwritable()
        return {"camera": camera, "disk": disk, "database": {"ok": problem is None, "error": problem},
                "saving": {"ok": saving is None, "error": saving}}

    def subscribe(self) -> Subscription:
        """A queue of events (``.get(timeout)``, ``.close()``) for one open page."""
        return self._hub.subscribe()

    def end_streams(self) -> None:
        """End every open page's event stream, and any opened later: the server is stopping."""
        self._hub.close()

    def close(self) -> None:
        """Stop taking frames (the camera loop may still deliver one); idempotent."""
        with self._lock:
            self._closed = True

    # --- inside: frames and steps ------------------------------------------------
    def _take_frame(self, taken: Taken, step: int) -> None:
        """Store the taken dice as the step's throw and advance, or save the reading with its
        problem and prompt (RULES T-1, T-3); a refused frame (no dice, nothing moved) starts
        no roll and replaces no photo."""
        self._read_requested = False
        found = taken.match
        if found.problem is not None and found.problem.code in ("no dice", "not moved"):
            refused = replace(found.problem, then=self._request_problem())
            self._fresh_after = self._clock()
            self._set_state(self._state, prompt=refused.english(), problem=refused.to_dict())
            return
        problem = found.problem
        dice = [_die_from_reading(d) for d in found.dice or ()]
        if step == 0 and problem is None:
            principals = [die for die in dice if die["principal"]]
            system = cast(Preset, self._preset).system  # a frame is taken for an armed preset only
            if len(dice) == 1 and system in ("d6", "free"):  # RULES D6-2a: a lone die
                dice[0]["principal"] = True
            elif len(principals) > 1 or system == "pool":  # a pool has no principal die
                for die in dice:
                    die["principal"] = False
        if self._roll is None:
            self._roll = self._new_roll()
        self._roll["readings"].append({**(taken.reading_dict or {}), "step": step,
                                       "problem": problem and problem.english(), "at": _now()})
        self._fresh_after = self._clock()
        if problem is not None:
            self._save(taken.photos)
            self._set_state("prompting", prompt=problem.english(), problem=problem.to_dict())
            return
        voids = self._cocked_dice == "rethrow_set" and any(die["unreadable"] == "cocked" for die in dice)
        self._void = {"step": step, "reference": taken.before, "dice": found.dice} if voids else None
        before = self._walk(self._roll).problem if self._roll["dice"] else None
        self._store_step(dice, step)
        self._advance(taken.photos, principal_note=taken.reading.principal_note if taken.reading else None)
        if (before is not None and before.code == "no principal" and self._state == "prompting"
                and self._problem is not None and self._problem["code"] == "no principal"):
            # a throw while the page asked for a tap replaced the dice: say so (RULES D6-2a)
            replaced = Problem("new throw", asks=self._prompt or "", then=self._request_problem())
            self._set_state("prompting", prompt=replaced.english(), problem=replaced.to_dict())

    def _voided_now(self) -> dict | None:
        """Under rethrow_set (RULES T-5), the throw of the current roll a cocked die voids (the
        step to throw again), else None; for a policy set while that throw waits: the tray
        before it is known for the first throw only (a later one is compared with none)."""
        roll = self._roll
        if self._cocked_dice != "rethrow_set" or roll is None or not roll["dice"]:
            return None
        if self._void is not None:
            return self._void
        walk = self._walk(roll)
        dice = [die for die in roll["dice"] if die["step"] == walk.step]
        if walk.problem is None or not any(die.get("unreadable") == "cocked" for die in dice):
            return None
        return {"step": walk.step, "reference": self._armed_before if walk.step == 0 else None,
                "dice": [_reading_of(die) for die in dice]}

    def _request(self) -> str:
        """What the roll asks for now, in the words of its prompt: the first throw, the dice
        the rules want (RULES D6-4, P-3) or the problem of a throw to make again. A refusal
        ("no die has moved…") names it after its reason, so no refusal loses it."""
        roll = self._roll
        if roll is None or not roll["dice"]:
            return self._first_prompt()
        walk = self._walk(roll)
        if walk.problem is not None:
            return walk.problem.english()
        return self._needs["reason"] if self._needs else self._first_prompt()

    def _request_problem(self) -> Problem | None:
        """The problem of a throw the roll asks to make again, if that is what it asks for."""
        roll = self._roll
        return None if roll is None or not roll["dice"] else self._walk(roll).problem

    def _open_step(self) -> tuple[int, int | None, int]:
        """The step the next dice are for: (number, dice expected or None for any, sides).

        A step with a problem (an unreadable die, no principal die) is thrown again
        as a whole, with as many dice as the rules ask for there; otherwise the next step is the one the outcome needs.
        """
        roll = self._roll
        preset = cast(Preset, self._preset)  # dice are wanted for an armed preset only
        if roll is None or not roll["dice"]:
            return 0, preset.count, preset.sides
        walk = self._walk(roll)
        if walk.problem is not None:
            step = cast(int, walk.step)  # a problem names its throw
            return step, (preset.count if step == 0 else walk.outcome.needs.count), preset.sides
        last = max(die["step"] for die in roll["dice"])
        needs = self._needs or {"count": 0, "sides": preset.sides}
        return last + 1, needs["count"], needs["sides"]

    def _store_step(self, dice: list[dict], step: int | None) -> None:
        roll = cast(dict, self._roll)  # the armed preset's roll
        if step is None:
            step = 0
        roll["dice"] = [die for die in roll["dice"] if die["step"] < step]
        for die in dice:
            die["step"] = step
            die["index"] = len(roll["dice"])
            roll["dice"].append(die)

    def _advance(self, photos: tuple[bytes, bytes] | None = None,
                 principal_note: str | None = None) -> None:
        """Resolve the roll, save it, and move to prompting or resolved."""
        roll = cast(dict, self._roll)  # the armed preset's roll
        walk = self._resolve(roll, principal_note)
        needs = walk.outcome.needs if walk.outcome is not None else None
        self._needs = None if needs is None else needs.to_dict()
        if walk.problem is None and roll["complete"]:
            roll["finished"] = _now()
            self._save(photos)
            self._set_state("resolved")
        else:
            roll["finished"] = None
            self._save(photos)
            problem = walk.problem
            # no problem and not complete: the rules need more dice
            self._set_state("prompting", prompt=problem.english() if problem else cast(dict, self._needs)["reason"],
                            problem=None if problem is None else problem.to_dict())
        self._fresh_after = self._clock()

    def _walk(self, roll: dict, principal_note: str | None = None) -> _Walk:
        """Resolve the roll's throws in order, as they were thrown; changes nothing.

        A throw is looked at only while the rules still ask for dice, and only as many
        of its dice as they ask for, so throws and dice a correction or a new principal
        die made surplus (RULES P-3: a 10 corrected to a 4 leaves its reroll die over)
        neither count nor stop the roll. A throw stops the walk when one of its dice
        is unreadable, or (the first throw of a D6 roll) no single die is the principal one (RULES T-1,
        T-3, D6-2), or the rules refuse its dice.
        """
        first = [die for die in roll["dice"] if die["step"] == 0]
        principal = next((die for die in first if die["principal"]), None)
        spec = self._spec_for(roll, principal is not None, len(first))
        bound = self._chain_limit if isinstance(spec, D6Spec) else None
        counted: list[list[dict]] = []
        outcome: Any = None
        for step in sorted({die["step"] for die in roll["dice"]}) or [0]:
            dice = [die for die in roll["dice"] if die["step"] == step]
            if step == 0 and principal is not None and isinstance(spec, D6Spec) and spec.principal_known:
                dice = [principal] + [die for die in dice if die is not principal]  # rules: principal first
            if outcome is not None:  # a throw's dice beyond what the rules ask for (fewer 10s now) are surplus
                dice = dice[:outcome.needs.count]
            problem = throw_problem(roll["system"], step, dice, principal_note, self._cocked_dice)
            if problem is None:
                try:
                    later = rules.resolve(spec, [[die["natural"] for die in throw]
                                                 for throw in (*counted, dice)], max_links=bound)
                except InvalidRoll as exc:  # dice the rules refuse: say so, keep waiting
                    problem = Problem("refused", why=str(exc), asks="throw again, or correct it on the page")
            if problem is not None:
                return _Walk(spec, outcome, counted, step, problem)
            outcome = later
            counted.append(dice)
            if outcome.complete:
                break
        return _Walk(spec, outcome, counted, None, None)

    def _resolve(self, roll: dict, principal_note: str | None = None) -> _Walk:
        """Walk the roll's throws (:meth:`_walk`) and write what the rules made of them into
        it: each die's role and value, the result, and which throws are surplus.

        Dice the rules have not counted (the throw with a problem, and after it) get
        their role from their place alone (RULES D6-2: principal, secondary, extra;
        none in a pool) and no value, so the ``principal`` flag and the role always agree.
        Throws or dice a correction made surplus (the rules had enough before them) are kept
        with ``"surplus": true``, no role and no value: they count again, in order, as
        soon as a later correction has the rules ask for dice again (RULES D6-4: a
        principal die corrected 6 → 3 → 6 takes its extra die back).
        """
        walk = self._walk(roll, principal_note)
        used = [die for throw in walk.counted for die in throw]
        counted = {id(die) for die in used}
        if roll.get("note") and roll["note"].startswith(SURPLUS_NOTE):
            roll["note"] = None
        surplus = walk.problem is None and len(used) < len(roll["dice"])
        if surplus:
            last = max(die["index"] for die in used) if used else -1
            roll["note"] = f"{SURPLUS_NOTE} {last + 1} no longer count after the correction (kept, " \
                           f"they count again if a correction asks for dice)"
        result = walk.outcome.to_dict() if walk.outcome is not None else {"dice": []}
        for die, ruled in zip(used, result["dice"], strict=False):
            die["role"] = ruled["role"]
            die["value"] = ruled.get("value", ruled["natural"])
            die.pop("surplus", None)
        for die in roll["dice"]:
            if id(die) not in counted:
                die["value"] = None
                die["role"] = (None if roll["system"] == "pool" or surplus else "principal" if die["principal"]
                               else "secondary" if die["step"] == 0 else "extra")
                if surplus:
                    die["surplus"] = True
                else:
                    die.pop("surplus", None)
        roll["spec"] = walk.spec.to_dict()
        if walk.problem is not None:
            roll.update(complete=False, result=None, total=None, successes=None, outcome=None,
                        perfect=False, botch=False)
            return walk
        if result.get("note"):
            roll["note"] = result["note"]
        roll.update(result=result, complete=walk.outcome.complete, total=result.get("total"),
                    successes=result.get("successes"), outcome=result.get("outcome"),
                    perfect=bool(result.get("perfect")), botch=bool(result.get("botch")))
        return walk

    def _spec_for(self, roll: dict, principal_found: bool, first_count: int):
        stored = roll["spec"]
        if roll["system"] == "pool":
            return PoolSpec.from_dict(stored)
        if roll["system"] == "free":  # RULES D6-2a: the D6 rules, once the principal die is known
            return D6Spec(count=max(first_count, 1), principal_known=principal_found,
                          roller=roll["roller"])
        # the stored principal_known is the preset's, always True: a D6 preset's principal die is its first
        return D6Spec.from_dict({**stored, "principal_known": True}, roller=roll["roller"])

    def _new_roll(self) -> dict:
        preset = cast(Preset, self._preset)  # a roll is made for an armed preset only
        if preset.spec is None:
            spec = {"system": "free"}
        else:
            spec = preset.make_spec(preset.count or 1, roller=self._roller).to_dict()
        return {"id": None, "seq": None, "preset": preset.name, "system": preset.system, "roller": self._roller,
                "started": _now(),
                "finished": None, "complete": False, "result": None, "total": None,
                "successes": None, "outcome": None, "perfect": False, "botch": False,
                "dice": [], "readings": [], "corrections": [], "note": None, "spec": spec}

    # --- inside: edits, saving, state ------------------------------------------------
    def _snapshot(self) -> dict:
        """What a refused request or a failed save must leave as it was (:data:`_ROLL_STATE`)."""
        values = {name: getattr(self, name) for name in _ROLL_STATE}
        return {name: copy.deepcopy(v) if isinstance(v, (dict, list)) else v for name, v in values.items()}

    def _restore(self, snapshot: dict, failure: SaveFailed | None = None) -> None:
        """Put back a :meth:`_snapshot`; ``failure``: the failed save that is why (logged, and
        shown on /healthz until a save works)."""
        for name, value in snapshot.items():
            setattr(self, name, value)
        if failure is not None:
            self._save_error = str(failure)
            log.error("%s", failure)
        self._publish_state()

    def _editable(self, roll_id: int) -> dict:
        """The roll to edit: the current roll itself, or a copy from the history."""
        if self._roll is not None and self._roll.get("id") == roll_id:
            return self._roll
        roll = self._history.roll(roll_id)
        for die in roll["dice"]:
            die.setdefault("principal", die.get("role") == "principal")
        return roll

    def _after_edit(self, roll: dict, was_complete: bool) -> dict:
        """Resolve an edited roll and save it. The current roll asks for what it now needs;
        a past roll cannot take dice any more, so an edit that would leave a finished one
        waiting for dice is refused (ValueError, nothing saved)."""
        if roll is self._roll:
            self._generation += 1  # a reading in flight was for the roll before the edit
            self._void = None  # the table fixed the throw by hand
            self._advance(self._redrawn(roll))
            return copy.deepcopy(cast(dict, self._latest))  # _advance saved it
        walk = self._resolve(roll)
        waiting = walk.problem.english() if walk.problem else None if roll["complete"] else walk.outcome.needs.reason
        if waiting is not None and was_complete:
            refusal = Phrase("roll {id} is finished and can take no more dice, but this change would "
                             "leave it waiting for them ({waiting}): only the current roll can ask "
                             "for dice", id=roll["id"], waiting=waiting)
            if walk.problem is not None:
                raise ValueError(refusal)
            raise RollNeedsDice(refusal, walk.outcome.needs.to_dict())  # given with ``more``, it takes them
        note = roll.get("note") or ""
        if waiting is None and note.startswith((ABANDONED_NOTE, WAITING_NOTE)):
            roll["note"] = None  # complete now: no longer abandoned nor waiting
        elif waiting is not None and not note.startswith(ABANDONED_NOTE):
            roll["note"] = f"{WAITING_NOTE}{waiting}"
        photo, annotated = self._redrawn(roll) or (None, None)
        saved = self._history.save(roll, photo=photo, annotated=annotated)
        self._save_error = None
        self._publish_roll(saved)
        return saved

    def _redrawn(self, roll: dict) -> tuple[bytes, bytes] | None:
        """The roll's photo and its annotation drawn again with the values the rules use: a
        corrected die labelled "4->6 red corrected" (read -> corrected), the principal die as
        marked; None without a photo."""
        path = self._history.photo_path(roll["id"], annotated=False) if roll.get("photo") else None
        if path is None or not roll["readings"]:
            return None
        photo = path.read_bytes()
        frame: np.ndarray | None = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_COLOR)
        if frame is None:  # a damaged photo
            return None
        shown = roll["readings"][-1]  # the photo is the frame of the last reading
        dice = {tuple(die["box"]): die for die in roll["dice"] if die.get("box")}
        reading = TrayReading(dice=[DieReading(
            value=d["value"], sides=d["sides"], box=tuple(d["box"]), center=(0.0, 0.0), color=d["color"],
            confidence=d["confidence"], unreadable=d["unreadable"],
            principal=dice[tuple(d["box"])]["principal"] if tuple(d["box"]) in dice else d["principal"])
            for d in shown["dice"]], size=tuple(shown["size"]))
        labels: list[str | None] = []
        for read in shown["dice"]:
            die = dice.get(tuple(read["box"]))
            if die is None or not die["corrected"]:
                labels.append(None)
                continue
            before = "?" if read["value"] is None else read["value"]
            now = "cocked" if die.get("unreadable") == "cocked" else "?" if die["natural"] is None else die["natural"]
            labels.append(f"{before}->{now} {read['color']} corrected")  # the photo's font is ASCII
        ok, annotated = cv2.imencode(".jpg", self.annotate(frame, reading, labels=labels),
                                     [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        return (photo, annotated.tobytes()) if ok else None

    def _take_up(self, resume_seconds: float) -> None:
        """At start: the newest roll left waiting for dice is resumed when its last step
        (a throw, a correction) is younger than ``resume_seconds`` and its preset still
        exists; every other one left waiting is closed as abandoned, with a note."""
        waiting = self._history.unfinished()
        for roll in waiting:
            for die in roll["dice"]:
                die.setdefault("principal", die.get("role") == "principal")
            idle = (datetime.now(UTC) - _last_step(roll)).total_seconds()
            preset = next((p for p in self._presets if p.name == roll["preset"]), None)
            if roll is waiting[-1] and preset is not None and idle < resume_seconds:
                self._preset, self._roller, self._roll = preset, roll["roller"], roll
                walk = self._resolve(roll)
                needs = walk.outcome.needs if walk.outcome is not None else None
                self._needs = None if needs is None else needs.to_dict()
                self._state = "prompting" if roll["dice"] else "armed"
                self._prompt = self._request()
                problem = self._request_problem()
                self._problem = None if problem is None else problem.to_dict()
                log.info("roll %d taken up again: %s", roll["id"], self._prompt)
                continue
            why = (f"its preset {roll['preset']} is no more" if preset is None else
                   "a newer roll was started" if roll is not waiting[-1] else
                   f"dicelens restarted {idle / 60:.0f} minutes after its last step "
                   f"(a roll is taken up again within {resume_seconds / 60:g})")
            roll.update(finished=_now(), note=ABANDONED_NOTE + why)
            self._history.save(roll)
            log.info("roll %d closed as abandoned: %s", roll["id"], why)
        if waiting:
            self._latest = self._history.latest()

    def _abandon(self, why: str) -> None:
        roll = self._roll
        if roll is None or roll.get("id") is None or roll["finished"] is not None:
            return
        roll.update(finished=_now(), note=ABANDONED_NOTE + why)
        self._save()

    def _save(self, photos: tuple[bytes, bytes] | None = None) -> None:
        photo, annotated = photos if photos else (None, None)
        roll = cast(dict, self._roll)  # only the armed preset's roll is saved here
        saved = self._history.save(roll, photo=photo, annotated=annotated)
        self._save_error = None  # saving works again
        roll.update(id=saved["id"], seq=saved["seq"], photo=saved["photo"])
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
            "odds": self._preset_odds(preset) if preset else None,
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

    def _find_preset(self, name: str) -> Preset:
        for preset in self._presets:
            if preset.name == name:
                return preset
        raise KeyError(f"no preset {name!r}; presets: {', '.join(p.name for p in self._presets)}")

    def _presets_from(self, tables: list) -> list[Preset]:
        if not isinstance(tables, list) or not tables:
            raise ValueError("presets must be a non-empty list")
        presets, names = [], set()
        for number, table in enumerate(tables):
            if not isinstance(table, dict):
                raise ValueError(f"presets[{number}] must be an object")
            table = _flatten_preset(table)
            preset = preset_from_table(table, self._house_rules, where=f"presets[{number}]")
            if preset.name in names:
                raise PresetError(f"presets[{number}].name {preset.name!r} is used twice")
            names.add(preset.name)
            presets.append(preset)
        return presets


# --- helpers ----------------------------------------------------------------------
def throw_problem(system: str, step: int, dice: list[dict], principal_note: str | None = None,
                  cocked: str = cocked_policy.DEFAULT) -> Problem | None:
    """What stops one throw of a roll from being resolved, or None (RULES T-1, T-3, D6-2a): an
    unreadable die, or in the first throw of a D6 or free roll of several dice no single
    principal die. ``system`` is the roll's ("d6", "free", "pool"), ``step`` the throw's
    number (0 the first), ``dice`` its die dicts, ``principal_note`` vision's reason why no
    principal die was marked, ``cocked`` the cocked-die policy (RULES T-5): a cocked die is
    thrown again, voids its throw, or leans and asks for its top face by hand."""
    for die in dice:
        if die["natural"] is None:
            why = die.get("unreadable") or "unreadable"
            n, colour = die["index"] + 1, die["color"]  # no colour: a die entered by hand
            if why == "cocked" and cocked == "accept_leaning":
                return Problem("leaning", die=n, color=colour, why=why)
            if why == "cocked" and cocked == "rethrow_set":
                return Problem("void", die=n, color=colour, why=why, seen=len(dice))
            return Problem("unreadable", die=n, color=colour, why=why, asks="throw it again or correct it on the page")
    # RULES D6-2a: a free roll too asks which die is the principal one, never drops the check
    if step == 0 and system in ("d6", "free") and len(dice) > 1 and sum(die["principal"] for die in dice) != 1:
        return Problem("no principal", why=principal_note)
    return None


def _faces(sides: int) -> Phrase:
    """The faces a die of a roll is entered as: "1 to 6", or "0 to 10 (0 is 10)" (RULES P-1)."""
    return Phrase("0 to 10 (0 is 10)") if sides == 10 else Phrase("1 to {sides}", sides=sides)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _last_step(roll: dict) -> datetime:
    """When a roll last changed: its start, its last reading or its last correction."""
    times = [roll["started"], *(r.get("at") for r in roll["readings"]), *(c["at"] for c in roll["corrections"])]
    return max(datetime.fromisoformat(at) for at in times if at)


def _die(natural: int | None, source: str, *, principal: bool = False, color: str | None = None,
         box: list[int] | None = None, unreadable: str | None = None) -> dict:
    return {"index": None, "step": None, "natural": natural, "value": None, "role": None,
            "source": source, "color": color, "box": box, "corrected": False,
            "unreadable": unreadable, "principal": principal}


def _reading_of(die: dict) -> DieReading:
    """A die of a roll as a reading again, for the moved-dice filter (RULES T-2): its face,
    colour and box (none for a die entered by hand: it matches no die of the tray)."""
    box = tuple(die["box"]) if die.get("box") else None
    center = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2) if box else (0.0, 0.0)
    return DieReading(value=die["natural"], sides=6, box=box, center=center, color=die["color"],  # type: ignore[arg-type]
                      confidence=1.0, unreadable=die.get("unreadable"), principal=bool(die.get("principal")))


def _die_from_reading(reading) -> dict:
    unreadable = None if reading.value is not None else (reading.unreadable or "unreadable")
    return _die(reading.value, "camera", principal=bool(reading.principal), color=reading.color,
                box=[int(v) for v in reading.box], unreadable=unreadable)


def _die_at(roll: dict, index: int) -> dict:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(roll["dice"]):
        raise ValueError(f"roll {roll['id']} has no die {index}")
    return roll["dice"][index]


def _with_house_rules(preset: Preset, options: PoolOptions) -> Preset:
    """A pool preset under other house rules (RULES P-5b); its label follows when the rules
    wrote it. Other presets as they are."""
    if not isinstance(preset.spec, PoolSpec) or preset.spec.options == options:
        return preset
    spec = replace(preset.spec, options=options)
    label = rules.describe(spec) if preset.label == rules.describe(preset.spec) else preset.label
    return replace(preset, spec=spec, label=label)


def _flatten_preset(table: dict) -> dict:
    """A preset as :meth:`Controller.presets` gives it → a config-style table."""
    if "spec" not in table:
        return table
    flat = {key: table[key] for key in ("name", "label", "system") if key in table}
    spec = dict(table["spec"])
    spec.pop("system", None)
    spec.pop("options", None)
    if flat.get("system") == "d6":
        spec.pop("principal_known", None)
    flat.update(spec)
    return flat
