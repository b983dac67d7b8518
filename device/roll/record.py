"""A roll's records as the controller keeps them: :class:`Roll`, its :class:`Die` dice and
:class:`Correction` s, each with ``to_dict()`` / ``from_dict()`` at the edge (the history's
rows, the JSON the API and the event stream send: the dicts of README's API section), and
the notes a roll may carry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from rules.phrase import Phrase
from vision.reading import DieReading

#: How the note of a roll closed before it was complete begins (the rest says why). Such a
#: roll has ``finished`` but not ``complete``: the pages show it as abandoned.
ABANDONED_NOTE = "abandoned: "
#: How the note of a past roll a correction left waiting for dice begins.
WAITING_NOTE = "it still waits for dice: "
# A roll's notes are Phrases (the history keeps their template and values, the page words
# them in each phone's language: web/messages.py note_text); their English begins as above.


def abandoned_note(why: Phrase) -> Phrase:
    """ "abandoned: {why}": the note of a roll closed before it was complete (RULES T-3)."""
    return Phrase("abandoned: {why}", why=why)


def waiting_note(waiting: str) -> Phrase:
    """ "it still waits for dice: {waiting}": a past roll a correction left waiting for dice;
    ``waiting`` is what it waits for (the rules' ``needs.reason``, or a problem's English)."""
    return Phrase("it still waits for dice: {waiting}", waiting=waiting)


@dataclass
class Die:
    """One die of a roll. Not frozen: the walk writes the role and value the rules give it
    (:func:`device.roll.walk.resolve`), and a correction its face.

    :param natural: the face read or entered (a d10's 0 is 10, RULES P-1); None: unreadable.
    :param source: ``"camera"`` or ``"hand"``.
    :param index: its place in the roll (0 the first); ``step``: its throw (0 the first); both
        set when the die is stored in its throw.
    :param value: what it counts for (RULES D6-1), None until the rules counted it.
    :param role: ``"principal"``, ``"secondary"``, ``"extra"`` (RULES D6-2, D6-4), None in a pool.
    :param color: its palette colour (None by hand); ``box``: ``[x0, y0, x1, y1]`` pixels in the photo.
    :param corrected: a correction changed what it showed (:func:`corrects_reading`); a die
        a correction added is by hand, not corrected.
    :param unreadable: why it has no face (vision's word, or ``"cocked"``), else None.
    :param principal: it is the principal die (RULES D6-2).
    :param surplus: kept but not counted: a correction made it surplus (RULES P-3, D6-4).
    """

    natural: int | None
    source: str
    index: int = 0
    step: int = 0
    value: int | None = None
    role: str | None = None
    color: str | None = None
    box: list[int] | None = None
    corrected: bool = False
    unreadable: str | None = None
    principal: bool = False
    surplus: bool = False

    @classmethod
    def from_reading(cls, reading: DieReading) -> Die:
        """A die the camera read (``vision.reading.DieReading``)."""
        unreadable = None if reading.value is not None else (reading.unreadable or "unreadable")
        return cls(reading.value, "camera", principal=bool(reading.principal), color=reading.color,
                   box=[int(v) for v in reading.box], unreadable=unreadable)

    def reading(self) -> DieReading:
        """The die as a reading again, for the moved-dice filter (RULES T-2): its face,
        colour and box (none for a die entered by hand: it matches no die of the tray)."""
        box = tuple(self.box) if self.box else None
        center = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2) if box else (0.0, 0.0)
        return DieReading(value=self.natural, sides=6, box=box, center=center, color=self.color,  # type: ignore[arg-type]
                          confidence=1.0, unreadable=self.unreadable, principal=self.principal)

    def to_dict(self) -> dict[str, Any]:
        """``{"index", "step", "natural", "value", "role", "source", "color", "box", "corrected",
        "unreadable", "principal"}``, and ``"surplus": true`` for a surplus die."""
        data = {"index": self.index, "step": self.step, "natural": self.natural, "value": self.value,
                "role": self.role, "source": self.source, "color": self.color, "box": self.box,
                "corrected": self.corrected, "unreadable": self.unreadable, "principal": self.principal}
        return {**data, "surplus": True} if self.surplus else data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Die:
        """The inverse of :meth:`to_dict`; a row kept without ``principal`` takes it from its role."""
        return cls(data.get("natural"), data.get("source") or "camera", index=data.get("index") or 0,
                   step=data.get("step") or 0, value=data.get("value"), role=data.get("role"),
                   color=data.get("color"), box=data.get("box"), corrected=bool(data.get("corrected")),
                   unreadable=data.get("unreadable"),
                   principal=bool(data.get("principal", data.get("role") == "principal")),
                   surplus=bool(data.get("surplus")))


@dataclass(frozen=True)
class Void:
    """RULES T-5 rethrow_set: the throw of a roll a cocked die voided (``step``), the tray it
    is thrown again from (``reference``: the readings before it, None when not known) and its
    ``dice`` as read: none of them counts again unless it moved."""

    step: int
    reference: Sequence[DieReading] | None
    dice: tuple[DieReading, ...]


@dataclass(frozen=True)
class Correction:
    """One change the table made to a roll (RULES T-1): die ``index`` from ``before`` to
    ``after`` (a face, ``"cocked"``, ``"principal"``/``"secondary"``; None: a die added by
    hand), by ``who``, ``at`` (ISO 8601, UTC)."""

    index: int
    before: int | str | None
    after: int | str | None
    who: str | None
    at: str

    def to_dict(self) -> dict[str, Any]:
        """``{"index", "from", "to", "who", "at"}``."""
        return {"index": self.index, "from": self.before, "to": self.after, "who": self.who, "at": self.at}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Correction:
        return cls(data["index"], data.get("from"), data.get("to"), data.get("who"), data["at"])


@dataclass
class Roll:
    """A roll as the controller makes and edits it. Not frozen: each step adds its dice and
    readings, the walk writes its result (:func:`device.roll.walk.resolve`).

    :param preset: the preset's name; ``system``: ``"d6"``, ``"free"`` or ``"pool"``.
    :param label: the preset's label when the roll was made (``"Free roll"``, ``"2D6"``, one
        the config gave it): what the roll is named by, whatever the preset is labelled
        later; None for a roll an earlier version kept.
    :param spec: the rules' spec as its dict (``D6Spec``/``PoolSpec.to_dict``; ``{"system":
        "free"}`` for a free roll until its principal die is known).
    :param started: ISO 8601, UTC; ``finished``: when complete or abandoned, else None.
    :param result: the rules' outcome as its dict, None while the roll cannot be resolved;
        ``total``, ``successes``, ``outcome``, ``perfect``, ``botch`` taken from it.
    :param readings: each reading of the tray for a step: the tray reading's dict plus
        ``"step"``, ``"problem"`` (English or None), ``"at"``.
    :param note: why it was abandoned, waits, or has surplus dice (a :class:`Phrase`), or None.
    :param id: its row (None before the first save); ``seq``: its last save's number;
        ``photo``: whether a photo is kept.
    """

    preset: str
    system: str
    spec: dict[str, Any]
    started: str
    roller: str | None = None
    label: str | None = None
    id: int | None = None
    seq: int | None = None
    finished: str | None = None
    complete: bool = False
    result: dict[str, Any] | None = None
    total: int | None = None
    successes: int | None = None
    outcome: str | None = None
    perfect: bool = False
    botch: bool = False
    dice: list[Die] = field(default_factory=list)
    readings: list[dict[str, Any]] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    note: str | None = None
    photo: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The roll dict the history saves and gives back (README's API section)."""
        return {"id": self.id, "seq": self.seq, "preset": self.preset, "label": self.label, "system": self.system,
                "roller": self.roller, "started": self.started, "finished": self.finished,
                "complete": self.complete, "result": self.result, "total": self.total,
                "successes": self.successes, "outcome": self.outcome, "perfect": self.perfect,
                "botch": self.botch, "dice": [die.to_dict() for die in self.dice],
                "readings": self.readings, "corrections": [c.to_dict() for c in self.corrections],
                "note": self.note, "spec": self.spec, "photo": self.photo}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Roll:
        """The inverse of :meth:`to_dict` (a roll as :meth:`device.history.History.roll` gives it)."""
        return cls(data["preset"], data["system"], data["spec"], data["started"], roller=data.get("roller"),
                   label=data.get("label"), id=data.get("id"), seq=data.get("seq"), finished=data.get("finished"),
                   complete=bool(data.get("complete")), result=data.get("result"), total=data.get("total"),
                   successes=data.get("successes"), outcome=data.get("outcome"),
                   perfect=bool(data.get("perfect")), botch=bool(data.get("botch")),
                   dice=[Die.from_dict(die) for die in data.get("dice") or ()],
                   readings=list(data.get("readings") or ()),
                   corrections=[Correction.from_dict(c) for c in data.get("corrections") or ()],
                   note=data.get("note"), photo=bool(data.get("photo")))

    def die_at(self, index: int) -> Die:
        """Die ``index``. :raises ValueError: no such die."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.dice):
            raise ValueError(f"roll {self.id} has no die {index}")
        return self.dice[index]


def corrects_reading(die: Die, corrections: Sequence[Correction]) -> bool:
    """Whether ``corrections`` changed what ``die`` showed (RULES T-1): the face or "cocked"
    of a die the camera read, or the face of one entered by hand. A die a correction added
    (tapped in where the reader missed it, entered for a past roll: ``before`` None), a
    leaning die's top face entered (RULES T-5: read as no face) or a die marked principal
    (RULES D6-2) corrects no reading: it is by hand, or as it was."""
    return any(c.index == die.index and c.after != "principal" and (die.source == "camera" or c.before is not None)
               for c in corrections)


def faces(sides: int) -> Phrase:
    """The faces a die of a roll is entered as: "1 to 6", or "0 to 10 (0 is 10)" (RULES P-1)."""
    return Phrase("0 to 10 (0 is 10)") if sides == 10 else Phrase("1 to {sides}", sides=sides)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def last_step(roll: Roll) -> datetime:
    """When a roll last changed: its start, its last reading or its last correction."""
    times = [roll.started, *(r.get("at") for r in roll.readings), *(c.at for c in roll.corrections)]
    return max(datetime.fromisoformat(at) for at in times if at)
