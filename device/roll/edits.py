"""Corrections of a roll: a die's face, a cocked die, the principal die, dice added by hand
(RULES T-1, D6-2, D6-4, P-3), for the current roll or a past one, resolved again and saved
with the photo's annotation drawn again.
"""

from __future__ import annotations

import copy
from typing import cast

import cv2
import numpy as np

from device.errors import RollFinished, RollNeedsDice
from device.roll.core import RollCore, all_or_nothing
from device.roll.record import (
    ABANDONED_NOTE,
    WAITING_NOTE,
    Correction,
    Die,
    Roll,
    corrects_reading,
    faces,
    now,
    waiting_note,
)
from device.roll.walk import problem_phrase
from rules.phrase import Phrase
from vision.reading import DieReading, TrayReading

JPEG_QUALITY = 85


class RollEdits(RollCore):
    """What the table changes in a roll after it was read."""

    @all_or_nothing
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
        :raises RollFinished: a finished past roll this would leave waiting for a throw (a die
            corrected to cocked).
        :raises ValueError: no such die, or a face the die does not have, or neither
            or both of ``value`` and ``cocked``, or no change (the die already shows it), or
            ``more`` for the current roll or beyond what the roll asks for.
        """
        with self._lock:
            roll = self._editable(roll_id)
            was_complete = roll.complete
            die = roll.die_at(index)
            if (value is None) == (not cocked):
                raise ValueError("give either a value or cocked=True")
            sides = 10 if roll.system == "pool" else 6
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not (0 if sides == 10 else 1) <= value <= sides):
                raise ValueError(Phrase("a die of this roll shows {faces}", faces=faces(sides)))
            new = None if cocked else (value or 10)
            if new == die.natural and (new is not None or die.unreadable == "cocked"):
                raise ValueError(Phrase("die {n} already shows cocked: nothing to correct", n=index + 1)
                                 if new is None else
                                 Phrase("die {n} already shows {value}: nothing to correct", n=index + 1, value=new))
            roll.corrections.append(Correction(index, die.natural, new if not cocked else "cocked", who, now()))
            leaning = die.unreadable == "cocked" and self._cocked_dice == "accept_leaning"
            die.natural, die.unreadable = new, "cocked" if cocked else None
            if leaning and not cocked:  # RULES T-5: its top face, entered by hand
                die.source = "hand"
            die.corrected = corrects_reading(die, roll.corrections)
            if more:
                if self._is_current(roll):
                    raise ValueError(Phrase("the current roll asks for its dice itself: "
                                            "throw them or enter them by hand"))
                self._add_dice(roll, list(more), who)
            return self._after_edit(roll, was_complete)

    def _add_dice(self, roll: Roll, values: list[int], who: str | None) -> None:
        """Add to a past roll, step by step, the dice its outcome asks for, by hand."""
        sides = 10 if roll.system == "pool" else 6
        while values:
            walk = self._resolve(roll)
            if walk.problem is not None or roll.complete:
                raise ValueError(Phrase("this roll needs no more dice"))
            count = walk.outcome.needs.count
            if len(values) < count:
                return  # _after_edit says what is still needed
            step = max(die.step for die in roll.dice) + 1
            for value in values[:count]:
                lowest = 0 if sides == 10 else 1
                if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= sides:
                    raise ValueError(Phrase("a die of this roll shows {faces}", faces=faces(sides)))
                die = Die(value or 10, "hand", step=step, index=len(roll.dice))  # by hand: not corrected
                roll.dice.append(die)
                roll.corrections.append(Correction(die.index, None, value or 10, who, now()))
            values = values[count:]

    @all_or_nothing
    def set_principal(self, roll_id: int, index: int, who: str | None = None) -> dict:
        """Mark which die of the first throw is the principal die (RULES D6-2) and resolve again.

        :raises RollNotFound: no such roll.
        :raises ValueError: not a six-sided roll, or the die is not of the first throw, or
            it is already the principal die, or a finished past roll this would leave waiting
            for dice.
        """
        with self._lock:
            roll = self._editable(roll_id)
            die = roll.die_at(index)
            if roll.system not in ("d6", "free"):
                raise ValueError(Phrase("only a six-sided roll has a principal die"))
            if die.step != 0:
                raise ValueError(Phrase("the principal die is one of the first throw"))
            if die.principal:
                raise ValueError(Phrase("die {n} is already the principal die: nothing to change", n=index + 1))
            was_complete = roll.complete
            for other in roll.dice:
                other.principal = other is die
            roll.corrections.append(Correction(index, "secondary", "principal", who, now()))
            return self._after_edit(roll, was_complete)

    def _editable(self, roll_id: int) -> Roll:
        """A copy of the roll to edit, the current roll's or one from the history: a refused
        edit leaves the roll as it was (:meth:`_after_edit` puts an accepted one in place)."""
        if self._roll is not None and self._roll.id == roll_id:
            return copy.deepcopy(self._roll)
        return Roll.from_dict(self._history.roll(roll_id))

    def _is_current(self, roll: Roll) -> bool:
        """Whether ``roll`` (from :meth:`_editable`) is a copy of the current roll."""
        return self._roll is not None and roll.id is not None and roll.id == self._roll.id

    def _after_edit(self, roll: Roll, was_complete: bool) -> dict:
        """Resolve an edited roll and save it. An edit whose dice the rules refuse (a third
        die for a 2D6) is refused, the roll left as it was (ValueError, nothing saved): a
        finished result is never undone by dice the rules do not take (RULES T-3, T-4). The
        current roll asks for what it now needs (a die to throw again, RULES T-1; the next
        of a chain, D6-4); a past roll cannot take dice any more, so an edit that would leave
        a finished one waiting for dice is refused too (:class:`RollNeedsDice` when dice by hand
        given with it would complete it, else :class:`RollFinished`)."""
        if self._is_current(roll):
            refused = self._resolve(copy.deepcopy(roll)).problem
            if refused is not None and refused.code == "refused":
                raise ValueError(Phrase("the rules take no such change to roll {id} ({why}): nothing was changed",
                                        id=roll.id, why=problem_phrase(refused)))
            self._roll = roll
            self._generation += 1  # a reading in flight was for the roll before the edit
            self._void = None  # the table fixed the throw by hand
            self._advance(self._redrawn(roll))
            return copy.deepcopy(cast(dict, self._latest))  # _advance saved it
        walk = self._resolve(roll)
        waiting = problem_phrase(walk.problem) if walk.problem else None if roll.complete else walk.outcome.needs.reason
        if waiting is not None and was_complete:
            refusal = Phrase("roll {id} is finished and can take no more dice, but this change would "
                             "leave it waiting for them ({waiting}): only the current roll can ask "
                             "for dice", id=roll.id, waiting=waiting)
            if walk.problem is not None:  # a throw, which a past roll cannot take
                raise RollFinished(refusal)
            raise RollNeedsDice(refusal, walk.outcome.needs.to_dict())  # given with ``more``, it takes them
        note = roll.note or ""
        if waiting is None and note.startswith((ABANDONED_NOTE, WAITING_NOTE)):
            roll.note = None  # complete now: no longer abandoned nor waiting
        elif waiting is not None and not note.startswith(ABANDONED_NOTE):
            roll.note = waiting_note(waiting)
        photo, annotated = self._redrawn(roll) or (None, None)
        saved = self._history.save(roll, photo=photo, annotated=annotated)
        self._save_error = None
        self._publish_roll(saved)
        return saved

    def _redrawn(self, roll: Roll) -> tuple[bytes, bytes] | None:
        """The roll's photo and its annotation drawn again with the values the rules use: a
        corrected die labelled "4->6 red corrected" (read -> corrected), the principal die as
        marked, a die tapped in "?->5 added"; None without a photo."""
        path = self._history.photo_path(roll.id, annotated=False) if roll.photo else None
        if path is None or not roll.readings:
            return None
        photo = path.read_bytes()
        frame: np.ndarray | None = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_COLOR)
        if frame is None:  # a damaged photo
            return None
        shown = roll.readings[-1]  # the photo is the frame of the last reading
        dice = {tuple(die.box): die for die in roll.dice if die.box}
        reading = TrayReading(dice=[DieReading(
            value=d["value"], sides=d["sides"], box=tuple(d["box"]), center=(0.0, 0.0), color=d["color"],
            confidence=d["confidence"], unreadable=d["unreadable"],
            principal=dice[tuple(d["box"])].principal if tuple(d["box"]) in dice else d["principal"])
            for d in shown["dice"]], size=tuple(shown["size"]))
        labels: list[str | None] = []
        for read in shown["dice"]:
            die = dice.get(tuple(read["box"]))
            if die is None or not (die.corrected or die.source == "hand"):  # "hand": a leaning die's top face
                labels.append(None)
                continue
            before = "?" if read["value"] is None else read["value"]
            after = "?" if die.natural is None else die.natural  # no words: every phone shows this photo
            labels.append(f"{before}->{after}")  # the photo's font is ASCII
        read_boxes = {tuple(d["box"]) for d in shown["dice"]}
        for die in roll.dice:  # a die tapped in where the reader missed it (device/roll/teaching.py)
            if die.box and tuple(die.box) not in read_boxes and die.step == shown.get("step", 0):
                x0, y0, x1, y1 = die.box
                reading.dice.append(DieReading(value=die.natural, sides=6, box=(x0, y0, x1, y1),
                                               center=((x0 + x1) / 2, (y0 + y1) / 2), color="", confidence=1.0))
                labels.append(f"+{die.natural}")
        ok, annotated = cv2.imencode(".jpg", self.annotate(frame, reading, labels=labels),
                                     [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        return (photo, annotated.tobytes()) if ok else None
