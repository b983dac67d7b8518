"""The table's dice taught from the page (issue 17): every die a player corrects to a value, or
taps in on a roll's photo where the reader missed it, becomes a labelled example
(:mod:`device.examples`) cut from the roll's stored photo; examples can be listed and removed;
each change asks the background fit (:mod:`device.adapting`) for a new adaptation.

The roll comes first: its example is written right after the roll is saved, and a failure to
write it is logged and leaves the roll saved. A die nobody corrected is no example (no
correction is not a confirmation), and no rule reads an example: a roll's result never
depends on them.
"""

from __future__ import annotations

import copy
import logging
import sqlite3
import statistics
from collections import Counter

import cv2
import numpy as np

from device.adapting import Refitter
from device.errors import HistoryDamaged, SaveFailed
from device.examples import Examples, TaughtFile
from device.roll.core import all_or_nothing
from device.roll.edits import RollEdits
from device.roll.record import Correction, Die, Roll, faces, now
from rules.phrase import Phrase
from vision import adapt
from vision.numerals import KINDS

log = logging.getLogger("device.controller")

#: The kinds of die a roll of each system is thrown with (a pool's d10s, RULES P-1; else six-sided).
ROLL_KINDS = {"pool": ("d10",), "d6": ("d6-pips", "d6"), "free": ("d6-pips", "d6")}


class RollTeaching(RollEdits):
    """The examples' side of the controller (set up by ``Controller.__init__``): corrections
    (:meth:`RollEdits.correct`) that also keep their die as an example, and dice tapped in."""

    _examples: Examples
    _refitter: Refitter

    def examples(self) -> dict:
        """``{"examples": [{"id", "kind", "value", "box", "roll", "who", "at"}], "counts": {kind: n},
        "adaptation": {"used", "examples", "right", "shipped", "why"} | None}``: every example,
        oldest first (``box``: [x0, y0, x1, y1] pixels of its photo); ``right`` and ``shipped``
        the shares (0..1) of the taught dice read right held out by photo with the last fitted
        adaptation and without (None before a fit of two photos), ``why`` vision's reason when
        it is not used.

        :raises HistoryDamaged: the examples cannot be read.
        """
        try:
            with self._examples.lock:
                listed, counts = self._examples.export(), self._examples.counts()
        except sqlite3.Error as exc:
            raise HistoryDamaged(Phrase("the examples cannot be read ({why})", why=str(exc))) from exc
        fitted = self._refitter.adaptation
        shown = None
        if fitted is not None:
            held, shipped = adapt.Figures(**fitted.held_out), adapt.Figures(**fitted.shipped)
            shown = {"used": fitted.used, "why": fitted.why or None,
                     "examples": sum(n for values in fitted.examples.values() for n in values.values()),
                     "right": held.share if fitted.held_out else None,
                     "shipped": shipped.share if fitted.shipped else None}
        return {"examples": [{key: item[key] for key in ("id", "kind", "value", "box", "roll", "who", "at")}
                             for item in listed], "counts": counts, "adaptation": shown}

    def example_crop(self, example_id: int) -> bytes:
        """One example's crop, PNG. :raises KeyError: no such example."""
        with self._examples.lock:
            return self._examples.crop(example_id)

    def remove_example(self, example_id: int) -> None:
        """Forget one example; the roll it came from is left as it is, and the reader refitted.

        :raises KeyError: no such example. :raises SaveFailed: it could not be removed.
        """
        try:
            with self._examples.lock:
                self._examples.remove(example_id)
        except sqlite3.Error as exc:
            raise SaveFailed(Phrase("the example could not be removed ({why}): nothing was changed",
                                    why=str(exc))) from exc
        self._refitter.request()

    def correct(self, roll_id: int, index: int, *, value: int | None = None,
                cocked: bool = False, who: str | None = None, more: list[int] | None = None) -> dict:
        """:meth:`RollEdits.correct`, then the die corrected to a value kept as an example."""
        saved = super().correct(roll_id, index, value=value, cocked=cocked, who=who, more=more)
        if not cocked:
            self._corrected_example(saved, index, who)
        return saved

    def add_die(self, roll_id: int, x: float, y: float, value: int, *, kind: str | None = None,
                who: str | None = None) -> dict:
        """Add a die the reader missed, tapped at (``x``, ``y``) photo pixels on the roll's
        photo, with the face ``value`` the player gives (a d10's 0 is 10): a box of the side the
        reader measured of the photo's dice, centred there, in the throw the photo is of. The
        rules take it as any die of that throw, where they allow it (RULES T-3: a die missing
        from a throw; a free roll takes any number, D6-2a); it is kept as a correction adding
        a die and becomes an example.

        :param kind: the die's kind (:data:`vision.numerals.KINDS`); None: the kind the
            photo's dice were read as, else the roll's first of :data:`ROLL_KINDS`.
        :returns: the roll as saved.
        :raises RollNotFound: no such roll.
        :raises ValueError: the roll has no photo or no die read in it (no size to give the
            box), the point is outside the photo or on a die there, an unknown kind or one
            the roll is not thrown with, a face the die does not have, a finished past roll
            that has every die it takes (a third die for a 2D6: said without "throw again",
            RULES T-3 adds only a die missing from a throw), or one the rules would then
            leave waiting (as :meth:`RollEdits.correct`).
        """
        saved, index, kind = self._tapped_in(roll_id, x, y, value, kind, who)
        self._keep_examples(saved, [(index, kind)], who)  # after the save, outside the roll's lock
        return saved

    @all_or_nothing
    def _tapped_in(self, roll_id: int, x: float, y: float, value: int, kind: str | None,
                   who: str | None) -> tuple[dict, int, str]:
        with self._lock:
            roll = self._editable(roll_id)
            shown = roll.readings[-1] if roll.photo and roll.readings else None  # the photo's reading
            if shown is None:
                raise ValueError(Phrase("roll {id} has no photo to tap a die on", id=roll_id))
            width, height = shown["size"]
            if not (0 <= x < width and 0 <= y < height):
                raise ValueError(Phrase("the point {x}, {y} is outside the photo ({width}×{height} pixels)",
                                        x=round(x), y=round(y), width=width, height=height))
            kind = self._kind_to_add(roll, shown, kind)
            sides = 10 if roll.system == "pool" else 6
            if isinstance(value, bool) or not isinstance(value, int) or not (0 if sides == 10 else 1) <= value <= sides:
                raise ValueError(Phrase("a die of this roll shows {faces}", faces=faces(sides)))
            boxes = [d["box"] for d in shown["dice"]] + [die.box for die in roll.dice if die.box]
            for box in boxes:
                if box[0] <= x <= box[2] and box[1] <= y <= box[3]:
                    raise ValueError(Phrase("a die is already there: tap the place of the die the reader missed"))
            read = [max(d["box"][2] - d["box"][0], d["box"][3] - d["box"][1]) for d in shown["dice"]]
            if not read:
                raise ValueError(Phrase("no die was read in this photo, so the size of its dice is not known: "
                                        "enter the die by hand"))
            half = statistics.median(read) / 2
            box = [max(0, round(x - half)), max(0, round(y - half)),
                   min(width, round(x + half)), min(height, round(y + half))]
            was_complete = roll.complete
            die = Die(value or 10, "hand", step=shown.get("step", 0), index=len(roll.dice), box=box)
            roll.dice.append(die)  # RULES T-3: the die the throw was missing, its face by the player
            roll.corrections.append(Correction(die.index, None, die.natural, who, now()))
            if was_complete and not self._is_current(roll):
                refused = self._resolve(copy.deepcopy(roll)).problem  # a finished past roll: no "throw again"
                if refused is not None and refused.code == "refused":  # the rules' why counts the die added
                    had = len(roll.dice) - 1
                    raise ValueError(Phrase.ngettext("roll {id} is finished and has the {n} die it takes: "
                                                     "no die is missing from it",
                                                     "roll {id} is finished and has the {n} dice it takes: "
                                                     "no die is missing from it", had, id=roll_id, n=had))
            saved = self._after_edit(roll, was_complete)
            return saved, die.index, kind

    def _kind_to_add(self, roll: Roll, shown: dict, kind: str | None) -> str:
        allowed = ROLL_KINDS.get(roll.system, ("d6-pips",))
        if kind is None:
            read = Counter(d.get("kind", "d6-pips") for d in shown["dice"] if d.get("kind", "d6-pips") in allowed)
            return read.most_common(1)[0][0] if read else allowed[0]
        if kind not in KINDS:
            raise ValueError(Phrase("unknown kind of die {kind}: the reader knows {kinds}",
                                    kind=kind, kinds=", ".join(KINDS)))
        if kind not in allowed:
            raise ValueError(Phrase("a {kind} is not a die of this roll: it is thrown with {kinds}",
                                    kind=kind, kinds=", ".join(allowed)))
        return kind

    def _corrected_example(self, saved: dict, index: int, who: str | None) -> None:
        """After a correction to a value: that die, with its box, as an example of the kind it was read as."""
        die = saved["dice"][index]
        if not die.get("box") or die.get("natural") is None:
            return  # a die entered by hand (no place on the photo), or corrected to cocked
        kind = next((d.get("kind", "d6-pips") for reading in reversed(saved.get("readings") or ())
                     for d in reading["dice"] if d["box"] == die["box"]), None)
        if kind is None:
            return  # not a die of the photo's readings
        if saved["system"] == "pool" and kind == "d6-pips":
            kind = "d10"  # a reading of the pool's d10s names no kind: a d10 (RULES P-1)
        self._keep_examples(saved, [(index, kind)], who)

    def _keep_examples(self, saved: dict, dice: list[tuple[int, str]], who: str | None) -> None:
        """The saved roll's dice (index, kind) as examples cut from its photo, then a refit.
        Never raises: the roll is saved already, and a failure here is logged."""
        try:
            path = self._history.photo_path(saved["id"], annotated=False)
            if path is None:
                return  # its photo was pruned: nothing to cut the die from
            data = path.read_bytes()
            image: np.ndarray | None = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            if image is None:
                return  # a damaged photo
            height, width = image.shape[:2]
            taught = [adapt.example(kind, saved["dice"][i]["natural"], saved["dice"][i]["box"], width, height)
                      for i, kind in dice]
            with self._examples.lock:
                self._examples.add([TaughtFile(data, ".jpg", image, f"roll {saved['id']}", taught,
                                               roll=saved["id"])], who=who)
        except Exception:  # noqa: BLE001 - whatever failed, the roll is saved: say so and go on
            log.exception("roll %s: its corrected dice were not kept as examples (the roll is saved)", saved["id"])
            return
        self._refitter.request()
