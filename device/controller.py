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
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence

from device.adapting import QUIET_SECONDS, Refitter
from device.errors import CameraUnavailable, DeviceError, SaveFailed, ThrowUnsupported
from device.events import EventHub, Subscription
from device.examples import Examples, taught_by_kind
from device.history import History
from device.presets import Preset
from device.roll.camera import CameraSide, camera_status
from device.roll.core import STATES, TAKING, RollStateError, all_or_nothing
from device.roll.edits import JPEG_QUALITY
from device.roll.frames import NUMBERED_KINDS, FrameSide
from device.roll.keeping import RollKeeping
from device.roll.record import ABANDONED_NOTE, WAITING_NOTE, Die, faces
from device.roll.settings import RollSettings, SettingLocked, _with_house_rules, stored_measure
from device.roll.teaching import RollTeaching
from device.roll.walk import SURPLUS_NOTE, throw_problem
from device.teach_round import NO_CAMERA_TO_TEACH, TeachingRound
from device.tray.dispatch import TrayDispatcher
from device.tray.readers import adapted
from device.tray.readers import reader as tray_reader
from rules import cocked as cocked_policy
from rules.phrase import Phrase
from rules.pool import PoolOptions

# The names tests, the CLI and serve import from here (the parts live in device/roll/).
__all__ = ["ABANDONED_NOTE", "JPEG_QUALITY", "NUMBERED_KINDS", "STATES", "SURPLUS_NOTE", "WAITING_NOTE",
           "Controller", "RollStateError", "SettingLocked", "throw_problem"]


class Controller(FrameSide, CameraSide, RollTeaching, RollSettings, RollKeeping):
    """The roll controller handed to ``web.create_app`` (interface: ``web/controller.py`` ``Controller``);
    its parts, one job each, are its bases in :mod:`device.roll`.

    :param presets: the presets, in the order the page lists them.
    :param history: where rolls are saved.
    :param reader: ``(image BGR H×W×3 uint8, principal_color) -> TrayReading``;
        default ``vision.read_dice`` of pip d6 alone (``device.tray.readers``): six-sided presets.
    :param numbered_reader: ``(image, principal_color) -> TrayReading`` of
        ``NumberedReading`` dice (``kind``, ``sides``, ``value``: a d10's 0 is 10);
        default ``vision.read_dice`` of every kind: the reader of d10 presets (the pool),
        so a d8 among the d10s is named, not dropped.
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
        older one is closed as abandoned, with a note (:meth:`RollKeeping._take_up`).

    :param refit_seconds: the table's examples (corrections, dice tapped in) refit the reader
        in the background once none has come for this long (:class:`device.adapting.Refitter`);
        the default readers read with the data folder's adaptation when it is used.
    """

    def __init__(self, presets: Sequence[Preset], history: History, *,
                 reader: Callable | None = None, numbered_reader: Callable | None = None,
                 annotate: Callable | None = None,
                 principal_color: str | None = "red", pin: str | None = None,
                 pin_from_page: bool = True,
                 chain_limit: int = 100, house_rules: PoolOptions = PoolOptions(),
                 cocked_dice: str = cocked_policy.DEFAULT,
                 clock: Callable[[], float] = time.monotonic, queue_size: int = 100,
                 resume_seconds: float = 30 * 60, refit_seconds: float = QUIET_SECONDS):
        if annotate is None:  # the page's photos, shown to phones of every language: no words on them
            import vision
            annotate = functools.partial(vision.annotate, words=False)
        self.annotate = annotate
        self._examples = Examples.beside(history)
        self._refitter = Refitter(history.folder, self._examples, quiet_seconds=refit_seconds)
        self.readers = {"pips": reader or adapted("pips", tray_reader("pips"), self._refitter.adaptation_for),
                        "numbered": numbered_reader or adapted("numbered", tray_reader("numbered"),
                                                               self._refitter.adaptation_for)}
        #: Settings → "Teach dicelens your dice": asked for frames before the roll.
        self.teaching_round = TeachingRound(history.folder, clock, self._examples, lambda: self._refitter.request(),
                                            self._teaching_changed)
        self._tray = TrayDispatcher([self.teaching_round, self], self.readers, annotate)
        self._history = history
        self._clock = clock
        self._chain_limit = chain_limit
        stored_rules = history.setting("house_rules")
        self._house_rules = PoolOptions.from_dict(stored_rules) if stored_rules else house_rules
        self._cocked_dice = cocked_policy.check_policy(history.setting("cocked_dice", cocked_dice))
        self._hub = EventHub(queue_size)
        self._lock = threading.RLock()
        self._config_presets = [_with_house_rules(preset, self._house_rules) for preset in presets]
        stored = history.setting("presets")
        self._presets = self._presets_from(stored) if stored else list(presets)
        self._principal_color = history.setting("principal_color", principal_color)
        self._principal_measured = stored_measure(history.setting("principal_measured"))
        self._pin_from_page = pin_from_page and pin is None
        self._config_pin = pin
        self._pin = history.setting("pin", None) if self._pin_from_page else pin
        self._camera = {**camera_status("no camera", Phrase("no camera attached")), "can_throw": False}
        self._throw_fn = None
        self._read_now_fn = None
        self._can_throw = lambda: False
        self._can_throw_dice = lambda sides: True
        self._last_frame_at = lambda: None
        self._state = "idle"
        self._preset = None
        self._roller = None
        self._prompt = None
        self._problem = None
        self._needs = None
        self._roll = None
        self._latest = history.latest()
        self._fresh_after = 0.0
        self._generation = 0
        self._read_requested = False
        self._armed_before = None
        self._void = None
        self._odds = {}
        self._closed = False
        self._save_error = None
        self._take_up(resume_seconds)

    # --- the interface the web app and buttons use -------------------------------
    def state(self) -> dict:
        """The whole state (CONTRACTS.md), plus ``label`` of the armed preset."""
        with self._lock:
            return copy.deepcopy(self._state_dict())


    @all_or_nothing
    def arm(self, preset: str, roller: str | None = None) -> dict:
        """Choose the roll; the next fresh throw (or dice by hand) is its first throw.

        :raises KeyError: for an unknown preset name.
        """
        with self._lock:
            chosen = self._find_preset(preset)
            self._abandon(Phrase("{label} was armed before this roll was complete", label=chosen.label))
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
        roll wants now; after a finished roll, the same preset is armed again. While the
        teaching round is on, the throw is the round's: the camera's own set, with or without
        a roll armed, and the roll is left as it is (RULES T-2: it waits for the round).

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
            count, before, teaching = None, self._snapshot(), self.teaching_round.on
            if not teaching:
                if self._preset is None:
                    raise RollStateError(Phrase("no roll armed: choose a preset first"))
                if not self._can_throw_dice(self._preset.sides):
                    raise ThrowUnsupported(Phrase("this camera cannot throw d{sides}s: enter them by hand on the page",
                                                  sides=self._preset.sides))
                if self._state == "resolved":
                    self.arm(self._preset.name, self._roller)
                if self._state in TAKING:
                    count = self._open_step()[1]
                    self._set_state("waiting", prompt=self._prompt, problem=self._problem)
        try:
            throw(count)
        except (ValueError, DeviceError) as exc:  # e.g. more dice than the sim camera throws
            with self._lock:
                if not teaching and self._state == "waiting":  # nothing thrown: back as it was (a finished roll too)
                    self._restore(before)
            if isinstance(exc, ThrowUnsupported):
                raise
            raise ThrowUnsupported(f"the camera cannot throw these dice ({exc}): "
                                   "throw them by hand or enter them on the page") from exc

    @all_or_nothing
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
                raise ValueError(Phrase("each die must show {faces}", faces=faces(sides)))
            if expected is not None and len(values) != expected:
                raise ValueError(Phrase.ngettext("{count} die needed here, got {got}",
                                                 "{count} dice needed here, got {got}",
                                                 expected, count=expected, got=len(values)))
            if not values:
                raise ValueError(Phrase("no dice given"))
            if again:  # only now: a refused request leaves the finished roll the current one
                self.arm(self._preset.name, roller or self._roller)
            if roller:
                self._roller = roller
            self._generation += 1
            d6_principal = self._preset.system in ("d6", "free") and step == 0  # RULES D6-2a: the first typed
            dice = [Die(v or 10, "hand", principal=d6_principal and i == 0)
                    for i, v in enumerate(values)]
            if self._roll is None:
                self._roll = self._new_roll()
            self._roll.roller = self._roller
            self._void = None  # typed dice: no throw is voided
            self._store_step(dice, step)
            self._advance()
            self._tray.forget()  # the tray holds dice nobody saw: no comparison
            return copy.deepcopy(self._state_dict())


    def dice_stats(self, player: str | None = None) -> dict:
        """The table's dice in numbers (:func:`device.dice_stats.dice_stats`): every roll of the
        history (of ``player``, any case, or everyone's) and the examples taught (by ``player``
        when given), per kind."""
        from device.dice_stats import dice_stats  # scipy only when asked: `dicelens serve` starts without it

        taught = {kind: sum(values.values())
                  for kind, values in taught_by_kind(self._history.folder, who=player).items()}
        return dice_stats(self._history.dice_of_rolls(player), taught)

    # --- the teaching round (device/teach_round.py) -----------------------------------
    def teaching(self) -> dict:
        """The round's state (:meth:`TeachingRound.state`), ``can_throw``: whether the
        camera throws the set itself (sim, file; :meth:`throw`), whatever roll is armed, and
        ``why_not``: why no round can start (a :class:`Phrase`: no camera reads the tray), or None."""
        with self._lock:
            camera = self._camera_dict(None)
        return {**self.teaching_round.state(), "can_throw": camera["can_throw"],
                "why_not": None if camera["status"] == "ok" else NO_CAMERA_TO_TEACH}

    def _teaching_changed(self) -> None:
        with self._lock:
            self._publish_state()  # the live page says the round is on, or is no longer

    def start_teaching(self) -> dict:
        """Every throw is the round's until :meth:`stop_teaching`; the armed preset waits.

        :raises CameraUnavailable: no camera is there (none attached, or away): a round
            learns from the camera's photos, so it would never get a throw.
        """
        with self._lock:
            if self._camera["status"] != "ok":
                raise CameraUnavailable(NO_CAMERA_TO_TEACH)
        self.teaching_round.start()
        return self.teaching()

    def stop_teaching(self) -> dict:
        """Back to the preset armed before: its next throw settles after now (RULES T-2)."""
        self.teaching_round.stop()
        with self._lock:
            self._fresh_after = max(self._fresh_after, self._clock())
        return self.teaching()

    def fix_taught_die(self, index: int, value: int) -> dict:
        """Die ``index`` of the throw held shows ``value``. :raises LookupError, ValueError:"""
        self.teaching_round.fix(index, value)
        return self.teaching()

    def confirm_taught_throw(self, who: str | None = None) -> dict:
        """The throw held is right: its dice become examples.

        :raises LookupError: none held. :raises ValueError: a die without a value.
        :raises SaveFailed: the examples could not be saved (the throw stays held).
        """
        try:
            self.teaching_round.confirm(who)
        except (sqlite3.Error, OSError) as exc:
            raise SaveFailed(Phrase("the examples could not be saved ({why}): nothing was changed; "
                                    "try again once that is fixed",
                                    why=getattr(exc, "strerror", None) or str(exc))) from exc
        return self.teaching()

    def skip_taught_throw(self) -> dict:
        """Drop the throw held: the next one is read."""
        self.teaching_round.skip()
        return self.teaching()

    def subscribe(self) -> Subscription:
        """A queue of events (``.get(timeout)``, ``.close()``) for one open page."""
        return self._hub.subscribe()

    def end_streams(self) -> None:
        """End every open page's event stream, and any opened later: the server is stopping."""
        self._hub.close()

    def close(self) -> None:
        """Stop taking frames (the camera loop may still deliver one) and fitting; idempotent."""
        with self._lock:
            self._closed = True
        self._refitter.close()
        self.teaching_round.close()
