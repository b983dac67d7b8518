"""The roll's side of the tray: what it asks of a settled frame, and taking the dice read.

The tray dispatcher (:mod:`device.tray.dispatch`) asks :meth:`FrameSide.wanted` and hands
the matched reading to :meth:`FrameSide.take` (RULES T-1, T-2, T-3, T-5); the latest frame
read serves the colour picker and the camera's setup view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Literal, cast

import numpy as np

from device.errors import SaveFailed
from device.presets import Preset
from device.roll.core import TAKING, RollCore
from device.roll.record import Die, Void, now
from device.setup_view import setup_view
from device.tray.dispatch import Taken, TrayDispatcher
from device.tray.match import Wanted
from device.tray.problems import Problem
from rules.phrase import Phrase
from vision.reading import DieReading

#: The numbered reader's kind (``vision.numerals.KINDS``) of a preset's dice, by sides;
#: six-sided presets are read by the pip reader (``Wanted.reader``; device.tray.readers).
NUMBERED_KINDS = {10: "d10"}


class FrameSide(RollCore):
    """Settled frames for the roll (the controller is a ``TrayConsumer``)."""

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
            if self._closed or self._state not in TAKING or preset is None or t < self._fresh_after:
                return Wanted(reader=reader, color=self._principal_color, measured=self._principal_measured,
                              take=False)
            step, expected, _ = self._open_step()
            # RULES T-2: the first throw is compared with the tray when the roll was armed
            # (taking a die out of it is fine), each later throw with the frame before it;
            # RULES T-5 rethrow_set: a voided step is thrown again from the tray before it,
            # and none of the voided throw's dice counts unless it moved.
            void = self._void if self._void is not None and self._void.step == step else None
            before: Literal["last"] | Sequence[DieReading] | None = (
                void.reference if void is not None else "last" if step > 0 else self._armed_before)
            wanted = Wanted(reader=reader, count=expected, kind=NUMBERED_KINDS.get(preset.sides),
                            moved_only=True, follow_up=step > 0, as_is=self._read_requested,
                            label=preset.label, asks=self._request(), color=self._principal_color,
                            measured=self._principal_measured,
                            photos=True, token=(self._generation, self._state, step), before=before,
                            voided=void.dice if void is not None else ())
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
        dice = [Die.from_reading(d) for d in found.dice or ()]
        if step == 0 and problem is None:
            principals = [die for die in dice if die.principal]
            system = cast(Preset, self._preset).system  # a frame is taken for an armed preset only
            if len(dice) == 1 and system in ("d6", "free"):  # RULES D6-2a: a lone die
                dice[0].principal = True
            elif len(principals) > 1 or system == "pool":  # a pool has no principal die
                for die in dice:
                    die.principal = False
        if self._roll is None:
            self._roll = self._new_roll()
        self._roll.readings.append({**(taken.reading_dict or {}), "step": step,
                                    "problem": problem and problem.english(), "at": now()})
        self._fresh_after = self._clock()
        if problem is not None:
            self._save(taken.photos)
            self._set_state("prompting", prompt=problem.english(), problem=problem.to_dict())
            return
        voids = self._cocked_dice == "rethrow_set" and any(die.unreadable == "cocked" for die in dice)
        self._void = Void(step, taken.before, tuple(found.dice or ())) if voids else None
        before = self._walk(self._roll).problem if self._roll.dice else None
        self._store_step(dice, step)
        self._advance(taken.photos, principal_note=taken.reading.principal_note if taken.reading else None)
        if (before is not None and before.code == "no principal" and self._state == "prompting"
                and self._problem is not None and self._problem["code"] == "no principal"):
            # a throw while the page asked for a tap replaced the dice: say so (RULES D6-2a)
            replaced = Problem("new throw", asks=self._prompt or "", then=self._request_problem())
            self._set_state("prompting", prompt=replaced.english(), problem=replaced.to_dict())
