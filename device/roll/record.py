"""A roll's dice and records as the controller keeps them (the dicts the history saves and
the API sends): a die made from a reading or by hand, the notes a roll may carry, times.
"""

from __future__ import annotations

from datetime import UTC, datetime

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


def faces(sides: int) -> Phrase:
    """The faces a die of a roll is entered as: "1 to 6", or "0 to 10 (0 is 10)" (RULES P-1)."""
    return Phrase("0 to 10 (0 is 10)") if sides == 10 else Phrase("1 to {sides}", sides=sides)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def last_step(roll: dict) -> datetime:
    """When a roll last changed: its start, its last reading or its last correction."""
    times = [roll["started"], *(r.get("at") for r in roll["readings"]), *(c["at"] for c in roll["corrections"])]
    return max(datetime.fromisoformat(at) for at in times if at)


def make_die(natural: int | None, source: str, *, principal: bool = False, color: str | None = None,
         box: list[int] | None = None, unreadable: str | None = None) -> dict:
    return {"index": None, "step": None, "natural": natural, "value": None, "role": None,
            "source": source, "color": color, "box": box, "corrected": False,
            "unreadable": unreadable, "principal": principal}


def reading_of(die: dict) -> DieReading:
    """A die of a roll as a reading again, for the moved-dice filter (RULES T-2): its face,
    colour and box (none for a die entered by hand: it matches no die of the tray)."""
    box = tuple(die["box"]) if die.get("box") else None
    center = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2) if box else (0.0, 0.0)
    return DieReading(value=die["natural"], sides=6, box=box, center=center, color=die["color"],  # type: ignore[arg-type]
                      confidence=1.0, unreadable=die.get("unreadable"), principal=bool(die.get("principal")))


def die_from_reading(reading) -> dict:
    unreadable = None if reading.value is not None else (reading.unreadable or "unreadable")
    return make_die(reading.value, "camera", principal=bool(reading.principal), color=reading.color,
                box=[int(v) for v in reading.box], unreadable=unreadable)


def die_at(roll: dict, index: int) -> dict:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(roll["dice"]):
        raise ValueError(f"roll {roll['id']} has no die {index}")
    return roll["dice"][index]
