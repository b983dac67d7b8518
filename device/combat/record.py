"""The fight's record: what is kept of it, in memory and in its file, with one undo.

:class:`FightRecord` holds the encounter, the attack being thrown, the last one, the saved
heroes and the tray's wait, writes them to ``combat.json`` after every step
(:mod:`device.combat.store`) and takes them up again after a restart; :func:`step` makes
a method of the session an undoable, saved and published step. The session's actions
are :class:`device.combat.session.CombatSession`'s.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from device.combat import attack, store
from device.combat.roster import Roster, checked_sheet
from device.combat.tray import TrayWait
from device.events import EventHub, Subscription
from rules import cocked
from rules.encounter import Encounter
from rules.errors import InvalidStep, NotNow
from rules.participant import CONDITIONS
from rules.phrase import Phrase

if TYPE_CHECKING:
    from device.combat.session import CombatSession

log = logging.getLogger("device.combat")

FILE_NAME = "combat.json"
FORMAT_VERSION = 1
LOG_SHOWN = 100         # newest log entries in the state sent to phones (the file keeps all)

# The steps after which the last attack can still be corrected (a throw that ended it, a correction).
_CORRECTABLE_AFTER = ("attack_dice", "_tray_throw", "correct_attack")


def step(method: Callable) -> Callable:
    """One step of the fight: under the lock, undoable once (undo goes back to the fight
    exactly as it was before the step), saved, then published."""

    @functools.wraps(method)
    def run(self: FightRecord, *args: Any, **kwargs: Any) -> dict:
        with self._lock:
            before, undo, last_step = self._document(with_undo=False), self._undo, self._last_step
            try:
                method(self, *args, **kwargs)
                if method.__name__ not in _CORRECTABLE_AFTER:
                    self._attack_base = None
                self._undo = before
                self._last_step = method.__name__
                self._tray.follow()
                self._save()
            except Exception:  # nothing changes, on disk or in memory
                self._load(before)
                self._undo, self._last_step = undo, last_step
                raise
            return self._publish()

    return run


class FightRecord:
    """The state of the fight and its file (see :class:`~device.combat.session.CombatSession`)."""

    def __init__(self, folder: str | os.PathLike, roster: Roster | None = None, queue_size: int = 20, *,
                 numbered_reader: Callable | None = None, clock: Callable[[], float] = time.monotonic,
                 cocked_dice: Callable[[], str] = lambda: cocked.DEFAULT):
        self.path = Path(folder) / FILE_NAME
        # The tray's wait: kept in the file, never in undo; it fills a step as the session's.
        self._tray = TrayWait(cast("CombatSession", self), numbered_reader, clock, cocked_dice)
        self.roster = roster or Roster()
        self._lock = threading.RLock()
        self._hub = EventHub(queue_size)
        self._encounter = Encounter(options=self.roster.options)
        self._attack: dict | None = None        # {"spec", "attack", "defence", "damage"} being thrown
        self._last_attack: dict | None = None   # the outcome of the last attack applied
        self._saved_heroes: list[dict] = []     # heroes saved on the page, beside the config's
        # Fighter name → the bestiary sheet it was made from (add_enemy), so a page can word the
        # seed's sheet names in its language; a typed fighter has none. Kept after a fighter
        # leaves: the log still names it.
        self._from_sheets: dict[str, str] = {}
        self._undo: dict | None = None
        # The fight before the last attack's last throw (its damage not applied), kept while
        # only corrections followed it: a correction of that attack resolves it again from there.
        self._attack_base: dict | None = None
        self._last_step: str | None = None      # the method of the last step (undo is of it)
        self._seq = 0
        self._resume()

    # ------------------------------------------------------------ reading

    def state(self) -> dict:
        """Everything the page shows, as JSON::

            {"log_size": int, "seq": int, "encounter": Encounter.to_dict() without "undo"
             and with the newest LOG_SHOWN log entries,
             "groups": [[names]] (tie groups), "attack": attack outcome dict | None,
             "last_attack": outcome dict | None, "can_undo": bool,
             "heroes": [sheets], "bestiary": [sheets],
             "from_sheets": {fighter name: the bestiary sheet's name it was made from},
             "conditions": [{"name", "duration", "effect"}],
             "options": {"ties_favour_defender", "defensive_fumble_on_hit"},
             "tray": {"waiting": {"step": "attack" | "initiative", "name"? (initiative),
                                  "throw"? (attack: "attack" | "defence" | "damage"),
                                  "dice": [sides], "needs": English} | None,
                      "problem": device.tray.problems.Problem dict | None, "initiative": {name: Mind die read},
                      "tapped": {name: Mind die tapped on a phone} (none of them also read)},
             "last_attack_correctable": bool (see :meth:`correct_attack`)}

        An attack (and the last one) carries ``"sources"``: throw → ``"camera"``, ``"hand"``
        or ``"corrected"``; the last attack also its ``"throws"`` (natural values).
        """
        with self._lock:
            encounter = self._encounter.to_dict()
            encounter.pop("undo")
            log_size = len(encounter["log"])
            encounter["log"] = encounter["log"][-LOG_SHOWN:]
            return {
                "log_size": log_size,
                "seq": self._seq,
                "encounter": encounter,
                "groups": self._encounter.initiative_groups(),
                "attack": None if self._attack is None else {
                    **attack.outcome(self._attack).to_dict(), "sources": dict(self._attack.get("sources", {}))},
                "last_attack": self._last_attack,
                "can_undo": self._undo is not None,
                "heroes": self.heroes(),
                "bestiary": [dict(sheet) for sheet in self.roster.bestiary],
                "from_sheets": dict(self._from_sheets),
                "conditions": [{"name": name, "duration": duration, "effect": effect}
                               for name, (duration, effect) in CONDITIONS.items()],
                "options": self._encounter.options.to_dict(),
                "tray": self._tray.shown(),
                "last_attack_correctable": self._last_attack_correctable(),
            }

    def from_sheets(self) -> dict[str, str]:
        """The fighters made from a bestiary sheet: fighter name → the sheet's name."""
        with self._lock:
            return dict(self._from_sheets)

    def names(self) -> list[str]:
        """The fighters' names, in the order they were added."""
        with self._lock:
            return [p.name for p in self._encounter.participants]

    def heroes(self) -> list[dict]:
        """The hero sheets: the config's, then those saved on the page (a saved sheet
        replaces the config's of the same name)."""
        with self._lock:
            saved = {sheet["name"]: sheet for sheet in self._saved_heroes}
            config = [dict(saved.pop(sheet["name"], sheet)) for sheet in self.roster.heroes]
            return config + [dict(sheet) for sheet in saved.values()]

    def subscribe(self) -> Subscription:
        """A queue of ``Event("combat", seq, state)`` for one open page (``.get(timeout)``, ``.close()``)."""
        return self._hub.subscribe()

    def end_streams(self) -> None:
        """End every open page's event stream, and any opened later: the server is stopping."""
        self._hub.close()

    def undo(self) -> dict:
        """Undo the last step, once (an attack's last throw included).

        :raises InvalidStep: when there is nothing to undo.
        """
        with self._lock:
            if self._undo is None:
                raise NotNow(Phrase("nothing to undo: only the last step can be undone, once"))
            before, undo = self._document(with_undo=False), self._undo
            self._load(undo)
            self._undo, last_step, self._last_step = None, self._last_step, "undo"
            self._tray.follow()
            try:
                self._save()
            except Exception:
                self._load(before)
                self._undo, self._last_step = undo, last_step
                raise
            return self._publish()

    def _last_attack_correctable(self) -> bool:
        """Whether the last attack's dice can still be corrected: no attack under way, and
        nothing but its last throw and corrections of it came after it."""
        return (self._attack is None and self._attack_base is not None
                and self._last_attack is not None and "throws" in self._last_attack)

    def _document(self, with_undo: bool = True, with_base: bool = True) -> dict:
        """The fight as JSON; ``with_base``: with the last attack's base, which is itself a
        document without one (so undo slots never nest deeper)."""
        encounter = self._encounter.to_dict()
        encounter["undo"] = None  # the session keeps its own undo, which covers the attack's throws
        document = {"version": FORMAT_VERSION, "encounter": encounter,
                    "attack": json.loads(json.dumps(self._attack)), "last_attack": self._last_attack,
                    "saved_heroes": [dict(s) for s in self._saved_heroes], "from_sheets": dict(self._from_sheets)}
        if with_base:
            document["attack_base"] = self._attack_base
        if with_undo:  # the file: also what the tray waits for (asking is not a step, so not in undo)
            document["undo"] = self._undo
            document["last_step"] = self._last_step
            document["tray"] = self._tray.to_dict()
        return document

    def _load(self, document: Mapping) -> None:
        if not isinstance(document, Mapping) or document.get("version") != FORMAT_VERSION:
            raise InvalidStep(f"not a saved fight of format {FORMAT_VERSION}")
        encounter = Encounter.from_dict(document["encounter"])
        saved = [checked_sheet(sheet, "hero") for sheet in document.get("saved_heroes", [])]
        under_way = document.get("attack")
        self._encounter, self._attack, self._saved_heroes = encounter, under_way, saved
        self._last_attack = document.get("last_attack")
        self._from_sheets = _from_sheets(document.get("from_sheets", {}))  # a file of before: none
        self._attack_base = self._readable_base(document.get("attack_base"))
        if under_way is not None:
            attack.outcome(under_way)  # a broken attack is refused on loading, not at the next throw

    @staticmethod
    def _readable_base(base: object) -> dict | None:
        """The last attack's base, or None when it cannot be read (dropped now, not at the
        next correction: the fight goes on, that attack is no longer correctable)."""
        if base is None:
            return None
        try:
            if not isinstance(base, dict) or base.get("version") != FORMAT_VERSION or "attack_base" in base:
                raise InvalidStep(f"not a saved fight of format {FORMAT_VERSION}")
            Encounter.from_dict(base["encounter"])
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("combat: the last attack's saved base cannot be read (%s); dropped", exc)
            return None
        return base

    def _save(self) -> None:
        """Write the fight with the next seq; the caller holds the lock."""
        store.write(self.path, {**self._document(), "seq": self._seq + 1})
        self._seq += 1

    def _publish(self) -> dict:
        state = self.state()
        self._hub.publish("combat", state, self._seq)
        return state

    def _check_undo(self, document: dict) -> None:
        """Refuse a broken undo slot now, not when undo is tapped: the fight goes on without it."""
        try:
            self._load(cast(dict, self._undo))  # None, as any broken slot, is a TypeError refused here
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("combat: the saved undo step cannot be read (%s); dropped", exc)
            self._undo = None
        self._load(document)

    def _resume(self) -> None:
        if not self.path.exists():
            return
        try:
            document = store.read(self.path)
            self._load(document)
            self._seq = int(document.get("seq", 0))
            self._undo = document.get("undo")
            self._last_step = document.get("last_step")
            if self._undo is not None:
                self._check_undo(document)
            if ("attack_base" not in document and self._last_step in _CORRECTABLE_AFTER
                    and self._undo is not None and self._undo.get("attack") is not None):
                # a file written before the base was kept: its undo slot was that base
                self._attack_base = self._readable_base(dict(self._undo))
            self._tray.resume(document.get("tray"))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            broken = store.set_aside(self.path)
            log.warning("combat: %s cannot be read (%s); kept as %s, a new fight starts", self.path, exc, broken)
            self._encounter = Encounter(options=self.roster.options)
            self._attack = self._last_attack = self._undo = self._attack_base = None
            self._saved_heroes = []
            self._from_sheets = {}


def _from_sheets(kept: object) -> dict[str, str]:
    """A document's ``from_sheets`` (fighter name → bestiary sheet name), checked."""
    if not isinstance(kept, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in kept.items()):
        raise InvalidStep("from_sheets must map fighter names to sheet names")
    return dict(kept)
