"""The table's Destiny Dice fight (RULES.md §3), kept on disk and shared by every phone.

:class:`CombatSession` wraps :class:`rules.encounter.Encounter` with what the
appliance adds: a lock (page requests come on many threads), a file in the data
folder written after every step (temp file + ``os.replace``: a crash or a power
cut loses no step, a fight resumes after a restart), the attack being resolved
step by step (``rules.destiny.resolve_attack``), the saved heroes and the
bestiary to set a fight up quickly, and change events for the page's stream.

Dice are thrown by the players and tapped in on the page, or read from the tray:
a step asked to (:meth:`CombatSession.read_tray`) takes the next throw that settles
after the asking (RULES T-2), read by the numbered reader, when it shows exactly the
dice the step needs (``device/tray/match.py``); otherwise it says what is wrong and
waits for another throw. Dice by hand stay available, and a die read can be corrected
(:meth:`CombatSession.correct_attack`).

Config (``[combat]`` in the TOML file, see :func:`roster_from_config`)::

    [combat]
    ties_favour_defender = false    # RULES DD-5 option: an attack equal to the defence is blocked
    defensive_fumble_on_hit = false # RULES DD-8 option: the defender's Destiny 1 costs 1 on a hit too

    [[combat.heroes]]               # the saved heroes (the page can save more)
    name = "Brann"
    body = 8                        # Cuerpo, Mente, Alma: die sides 4–12
    mind = 6
    soul = 6
    pv = 16                         # maximum PV
    weapon = "medium"               # light | medium | heavy | unarmed; optional
    ranged = false
    armour = 0
    shield = 0
    energy = { EC = 2, EM = 2, EA = 2 }

    [[combat.bestiary]]             # enemies: the same keys plus their Defence die
    name = "Saqueador"
    body = 6
    mind = 6
    soul = 4
    defence = 6
    armour = 1
    pv = 8
    weapon = "medium"
"""

from __future__ import annotations

import functools
import json
import logging
import os
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, cast

from device.events import EventHub, Subscription
from device.tray.dispatch import Taken, TrayDispatcher
from device.tray.match import Wanted
from device.tray.problems import Problem, leaning, listing
from rules import cocked
from rules.destiny import OPTION_NAMES, AttackSpec, DestinyOptions, resolve_attack
from rules.encounter import CONDITIONS, ENERGY, Condition, Encounter, Participant
from rules.errors import InvalidStep
from rules.phrase import Phrase

log = logging.getLogger(__name__)

FILE_NAME = "combat.json"
FORMAT_VERSION = 1
MAX_PARTICIPANTS = 40   # a table's fight; keeps every phone's page small
MAX_SAVED_HEROES = 40
#: The throws of an attack, as refusals name them (translated with them: rules.phrase).
_THROW_WORDS = {"attack": Phrase("attack"), "defence": Phrase("defence"), "damage": Phrase("damage")}
LOG_SHOWN = 100         # newest log entries in the state sent to phones (the file keeps all)
_TEMPLATE_KEYS = ("name", "body", "mind", "soul", "pv", "defence", "armour", "shield", "weapon", "ranged", "energy")

# Seed 002's people (RULES §3 worked examples); the seed gives only the dice its
# examples use, the rest is a plain adventurer's sheet.
DEFAULT_HEROES: tuple[dict, ...] = (
    {"name": "Brann", "body": 8, "mind": 6, "soul": 6, "pv": 16, "weapon": "medium",
     "energy": {"EC": 2, "EM": 2, "EA": 2}},
    {"name": "Nara", "body": 6, "mind": 8, "soul": 8, "pv": 12, "weapon": "light", "ranged": True,
     "energy": {"EC": 2, "EM": 2, "EA": 2}},
    {"name": "Zara", "body": 8, "mind": 6, "soul": 6, "pv": 14, "weapon": "medium", "shield": 2,
     "energy": {"EC": 2, "EM": 2, "EA": 2}},
    {"name": "Rex", "body": 8, "mind": 6, "soul": 4, "pv": 14, "weapon": "unarmed",
     "energy": {"EC": 2, "EM": 2, "EA": 2}},
)
DEFAULT_BESTIARY: tuple[dict, ...] = (
    {"name": "Saqueador", "body": 6, "mind": 6, "soul": 4, "defence": 6, "armour": 1, "pv": 8, "weapon": "medium"},
    {"name": "Rival", "body": 6, "mind": 6, "soul": 6, "defence": 6, "pv": 6, "weapon": "light"},
    {"name": "Androide", "body": 8, "mind": 6, "soul": 4, "defence": 8, "armour": 1, "pv": 10, "weapon": "medium"},
    {"name": "Mutante", "body": 8, "mind": 4, "soul": 4, "defence": 6, "pv": 8},
)


def participant_from_template(template: Mapping, side: str, name: str | None = None) -> Participant:
    """A fighter at full PV and energy from a sheet of the roster.

    :param template: ``{"name", "body", "mind", "soul", "pv" (maximum), "defence"?,
        "armour"?, "shield"?, "weapon"?, "ranged"?, "energy"? {"EC", "EM", "EA"}}``.
    :param side: ``"hero"`` or ``"enemy"``.
    :param name: the fighter's name in the fight (default: the sheet's).
    :raises InvalidStep: (a ValueError) for an unknown key or a bad value, in one sentence.
    """
    if not isinstance(template, Mapping):
        raise InvalidStep(f"a sheet is a table of {', '.join(_TEMPLATE_KEYS)}")
    unknown = sorted(set(template) - set(_TEMPLATE_KEYS))
    if unknown:
        raise InvalidStep(f"unknown key {unknown[0]!r}: a sheet has {', '.join(_TEMPLATE_KEYS)}")
    missing = [key for key in ("name", "body", "mind", "soul", "pv") if key not in template]
    if missing:
        raise InvalidStep(f"the sheet {template.get('name', '?')!r} needs {', '.join(missing)}")
    energy = template.get("energy") or dict.fromkeys(ENERGY, 0)
    fields = {key: template[key] for key in ("defence", "armour", "shield", "weapon", "ranged") if key in template}
    try:
        return Participant(name=_fighter_name(name or template["name"]),  # Participant checks the side
                           side=cast(Literal["hero", "enemy"], side), body=template["body"],
                           mind=template["mind"], soul=template["soul"], pv=template["pv"], pv_max=template["pv"],
                           energy=dict(energy) if isinstance(energy, Mapping) else energy,
                           energy_max=dict(energy) if isinstance(energy, Mapping) else energy, **fields)
    except (TypeError, ValueError) as exc:  # InvalidRoll from a die, TypeError from a bad energy table
        raise InvalidStep(str(exc)) from None


def _wanted_text(sides: Sequence[int]) -> str:
    """ "a d8 and a d20" for ``[8, 20]``."""
    return listing([(f"d{n}", count) for n, count in Counter(sides).items()])


def _fighter_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 40 or not name.strip().isprintable():
        raise InvalidStep(f"a name is 1 to 40 printable characters, not {name!r}")
    return name.strip()


def _sheet(template: Mapping, side: str) -> dict:
    """The template checked (by building a fighter from it), as plain JSON."""
    participant_from_template(template, side)
    return json.loads(json.dumps(dict(template)))


@dataclass(frozen=True)
class Roster:
    """The sheets a fight is set up from: saved heroes and the bestiary, plus house rules.

    :param heroes: hero sheets (see :func:`participant_from_template`), names unique.
    :param bestiary: enemy sheets, each with its Defence die, names unique.
    :param options: RULES DD-5 option for every attack of the fight.
    """

    heroes: tuple[dict, ...] = DEFAULT_HEROES
    bestiary: tuple[dict, ...] = DEFAULT_BESTIARY
    options: DestinyOptions = field(default_factory=DestinyOptions)


def roster_from_config(table: Mapping) -> Roster:
    """The ``[combat]`` table of the config (module docstring); the seed's sheets for
    a list it leaves out.

    :raises ValueError: naming the bad entry, for an unknown key or a bad sheet.
    """
    if not isinstance(table, Mapping):
        raise ValueError("combat must be a table")
    keys = ("heroes", "bestiary", *OPTION_NAMES)
    unknown = sorted(set(table) - set(keys))
    if unknown:
        raise ValueError(f"combat.{unknown[0]} is not a key ({', '.join(keys)})")
    lists = {}
    for key, side, default in (("heroes", "hero", DEFAULT_HEROES), ("bestiary", "enemy", DEFAULT_BESTIARY)):
        entries = table.get(key, default)
        if not isinstance(entries, list | tuple):
            raise ValueError(f"combat.{key} must be an array of tables: [[combat.{key}]]")
        sheets = []
        for number, entry in enumerate(entries, 1):
            try:
                sheets.append(_sheet(entry, side))
            except ValueError as exc:
                raise ValueError(f"combat.{key} entry {number}: {exc}") from None
        names = [sheet["name"] for sheet in sheets]
        if len(set(names)) != len(names):
            raise ValueError(f"combat.{key}: a name appears twice")
        lists[key] = tuple(sheets)
    options = {name: table.get(name, False) for name in OPTION_NAMES}
    for name, value in options.items():
        if not isinstance(value, bool):
            raise ValueError(f"combat.{name} must be true or false (got {value!r})")
    return Roster(lists["heroes"], lists["bestiary"], DestinyOptions(**options))


# The steps after which the last attack can still be corrected (a throw that ended it, a correction).
_CORRECTABLE_AFTER = ("attack_dice", "_tray_throw", "correct_attack")


def _step(method: Callable) -> Callable:
    """One step of the fight: under the lock, undoable once (undo goes back to the fight
    exactly as it was before the step), saved, then published."""

    @functools.wraps(method)
    def run(self: CombatSession, *args: Any, **kwargs: Any) -> dict:
        with self._lock:
            before, undo, last_step = self._document(with_undo=False), self._undo, self._last_step
            try:
                method(self, *args, **kwargs)
                if method.__name__ not in _CORRECTABLE_AFTER:
                    self._attack_base = None
                self._undo = before
                self._last_step = method.__name__
                self._follow_tray()
                self._save()
            except Exception:  # nothing changes, on disk or in memory
                self._load(before)
                self._undo, self._last_step = undo, last_step
                raise
            return self._publish()

    return run


class CombatSession:
    """The fight of the table, thread-safe; every method returns :meth:`state`.

    :param folder: the data folder; the fight is kept in ``combat.json`` there and
        taken up again from it. A file that cannot be read is kept aside as
        ``combat.json.broken-<time>`` and a new fight starts.
    :param roster: saved heroes, bestiary and house rules (:func:`roster_from_config`).
    :param queue_size: events kept per open page before its oldest are dropped.
    :param numbered_reader: ``(image BGR H×W×3 uint8, principal_color) -> TrayReading``
        of the tray's dice with their ``sides`` (and ``kind``); default ``vision.read_numbered``.
    :param clock: the clock of the ``t`` of settled frames, seconds.
    :param cocked_dice: ``cocked_dice()`` is the cocked-die policy now (RULES T-5,
        ``rules.cocked.POLICIES``): the roll controller's setting.
    :raises InvalidStep: (ValueError) from a step that cannot be taken, in one sentence;
        nothing changes then.
    :raises KeyError: for an unknown sheet name.
    """

    def __init__(self, folder: str | os.PathLike, roster: Roster | None = None, queue_size: int = 20, *,
                 numbered_reader: Callable | None = None, clock: Callable[[], float] = time.monotonic,
                 cocked_dice: Callable[[], str] = lambda: cocked.DEFAULT):
        self.path = Path(folder) / FILE_NAME
        self._reader, self._clock, self._cocked_dice = numbered_reader, clock, cocked_dice
        self._dispatcher = TrayDispatcher([self], {"numbered": self._read}, annotate=lambda image, reading: image)
        self.roster = roster or Roster()
        self._lock = threading.RLock()
        self._hub = EventHub(queue_size)
        self._encounter = Encounter(options=self.roster.options)
        self._attack: dict | None = None        # {"spec", "attack", "defence", "damage"} being thrown
        self._last_attack: dict | None = None   # the outcome of the last attack applied
        self._saved_heroes: list[dict] = []     # heroes saved on the page, beside the config's
        self._undo: dict | None = None
        # The fight before the last attack's last throw (its damage not applied), kept while
        # only corrections followed it: a correction of that attack resolves it again from there.
        self._attack_base: dict | None = None
        self._last_step: str | None = None      # the method of the last step (undo is of it)
        self._seq = 0
        # Reading from the tray (kept in the file, never in undo: asking is not a step of the fight).
        self._tray: dict | None = None          # the step waiting: {"step": "attack"} | {"step": "initiative", "name"}
        self._tray_problem: dict | None = None  # why the last throw read was not used (Problem.to_dict)
        self._initiative_read: dict[str, int] = {}  # Mind dice read before the fight starts
        self._tray_after = 0.0                  # frames settled before this are stale (RULES T-2)
        self._tray_stage: tuple | None = None   # the throw the wait is for: another throw is asked anew
        self._tray_void: list = []              # RULES T-5 rethrow_set: the dice of the throw a cocked die voided
        self._resume()

    # ------------------------------------------------------------ reading

    def state(self) -> dict:
        """Everything the page shows, as JSON::

            {"log_size": int, "seq": int, "encounter": Encounter.to_dict() without "undo"
             and with the newest LOG_SHOWN log entries,
             "groups": [[names]] (tie groups), "attack": attack outcome dict | None,
             "last_attack": outcome dict | None, "can_undo": bool,
             "heroes": [sheets], "bestiary": [sheets],
             "conditions": [{"name", "duration", "effect"}],
             "options": {"ties_favour_defender", "defensive_fumble_on_hit"},
             "tray": {"waiting": {"step": "attack" | "initiative", "name"? (initiative),
                                  "throw"? (attack: "attack" | "defence" | "damage"),
                                  "dice": [sides], "needs": English} | None,
                      "problem": device.tray.problems.Problem dict | None, "initiative": {name: Mind die read}},
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
                    **self._outcome().to_dict(), "sources": dict(self._attack.get("sources", {}))},
                "last_attack": self._last_attack,
                "can_undo": self._undo is not None,
                "heroes": self.heroes(),
                "bestiary": [dict(sheet) for sheet in self.roster.bestiary],
                "conditions": [{"name": name, "duration": duration, "effect": effect}
                               for name, (duration, effect) in CONDITIONS.items()],
                "options": self._encounter.options.to_dict(),
                "tray": {"waiting": self._tray_waiting(), "problem": self._tray_problem,
                         "initiative": dict(self._initiative_read)},
                "last_attack_correctable": self._last_attack_correctable(),
            }

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

    # ------------------------------------------------------------ setting up

    @_step
    def add_hero(self, sheet: str, initiative: int | None = None) -> None:
        """Add the saved hero called ``sheet`` at full PV (once the fight is on, with initiative).

        :raises KeyError: for no saved hero of that name.
        """
        template = self._find(self.heroes(), sheet, "saved hero")
        self._encounter.add(participant_from_template(template, "hero"), initiative)
        self._check_size()

    @_step
    def add_enemy(self, sheet: str, count: int = 1, initiatives: Sequence[int] | None = None) -> None:
        """Add ``count`` enemies of the bestiary's ``sheet``, numbered when the name is
        taken ("Saqueador 2"); once the fight is on, with one initiative each.

        :raises KeyError: for no such sheet in the bestiary.
        """
        template = self._find(self.roster.bestiary, sheet, "bestiary sheet")
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 10:
            raise InvalidStep(f"add 1 to 10 enemies at once, not {count!r}")
        if initiatives is not None and len(initiatives) != count:
            raise InvalidStep(f"give one initiative for each of the {count} enemies")
        for number in range(count):
            name = self._free_name(template["name"])
            initiative = None if initiatives is None else initiatives[number]
            self._encounter.add(participant_from_template(template, "enemy", name), initiative)
        self._check_size()

    @_step
    def add_participant(self, sheet: Mapping, side: str, initiative: int | None = None,
                        save: bool = False) -> None:
        """Add a fighter from a sheet typed on the page; ``save`` keeps a hero's sheet
        in the saved heroes for the next fights."""
        if side not in ("hero", "enemy"):
            raise InvalidStep(f"a fighter is a hero or an enemy, not {side!r}")
        self._encounter.add(participant_from_template(sheet, side), initiative)
        self._check_size()
        if save:
            if side != "hero":
                raise InvalidStep(Phrase("only heroes are saved; enemies come from the bestiary"))
            self._save_hero(sheet)

    @_step
    def save_hero(self, sheet: Mapping) -> None:
        """Keep a hero's sheet for the next fights (one of the same name is replaced)."""
        self._save_hero(sheet)

    @_step
    def remove(self, name: str) -> None:
        """Take a fighter out of the fight (not during an attack, not the one whose turn it is)."""
        self._no_attack(Phrase("removing a fighter"))
        self._encounter.remove(name)

    @_step
    def roll_initiative(self, values: Mapping[str, int]) -> None:
        """Start the fight: name → each fighter's Mind die (RULES DD-1)."""
        self._encounter.roll_initiative(values)

    @_step
    def reorder(self, names: Sequence[str]) -> None:
        """Reorder fighters tied on initiative (RULES DD-1): the whole order as it should be."""
        self._encounter.reorder(names)

    # ------------------------------------------------------------ turns

    @_step
    def next_turn(self) -> None:
        """End the turn and start the next fighter's (RULES DD-2, DD-11)."""
        self._no_attack(Phrase("the next turn"))
        self._encounter.next_turn()

    @_step
    def poison_roll(self, value: int) -> None:
        """The poison die thrown at the start of a poisoned fighter's turn (RULES DD-11)."""
        self._encounter.poison_roll(value)

    @_step
    def end_scene(self) -> None:
        """End the fight: heroes out of combat wake with 1 PV, defeated enemies leave,
        initiative is rolled anew for the next one (RULES DD-9)."""
        self._no_attack(Phrase("ending the scene"))
        self._encounter.end_scene()
        for participant in list(self._encounter.participants):
            if participant.status == "defeated":
                self._encounter.remove(participant.name)
        self._last_attack = None

    @_step
    def new_fight(self) -> None:
        """Forget the fight and its log (the saved heroes and the house rules stay)."""
        self._encounter = Encounter(options=self._encounter.options)
        self._attack = self._last_attack = None

    @_step
    def set_options(self, **changes: bool) -> None:
        """Change the fight's house rules (RULES DD-5 ``ties_favour_defender``, DD-8
        ``defensive_fumble_on_hit``); the config's are the defaults of a new file.

        :raises InvalidStep: while an attack is under way.
        :raises InvalidRoll: for a value that is not true or false (TypeError: an unknown option).
        """
        self._no_attack(Phrase("changing the house rules"))
        self._encounter.options = replace(self._encounter.options, **changes)

    # ------------------------------------------------------------ attacks, step by step

    @_step
    def start_attack(self, attacker: str, defender: str, *, ranged: bool | None = None,
                     attack_modifier: int = 0, damage_bonus: int = 0) -> None:
        """Begin ``attacker``'s attack on ``defender``; :meth:`attack_dice` then takes each
        throw the outcome's ``needs`` asks for (RULES DD-4 … DD-8)."""
        self._no_attack(Phrase("another attack"))
        if not self._encounter.started:
            raise InvalidStep(Phrase("roll initiative first"))
        if self._encounter.over:
            raise InvalidStep(Phrase("the fight is over"))
        spec = self._encounter.attack_spec(attacker, defender, ranged=ranged,
                                           attack_modifier=attack_modifier, damage_bonus=damage_bonus)
        self._attack = {"spec": spec.to_dict(), "attack": [], "defence": [], "damage": []}

    @_step
    def attack_dice(self, values: Sequence[int]) -> None:
        """The dice of the throw the attack asks for now, in the order of ``needs.dice``
        (``[8-sided value, d20]``…). The complete attack is applied to the fight at once.

        :raises InvalidStep: when no attack is being resolved.
        :raises InvalidRoll: (ValueError) for a face a die does not have, or the wrong number of dice.
        """
        self._throw(values, "hand")

    @_step
    def correct_attack(self, throw: str, index: int, value: int) -> None:
        """Correct one die (a misread one, RULES T-1) of the attack being resolved, or of
        the last attack while only its last throw and corrections of it (or an undo of one)
        came after it, and resolve it again: a miss that becomes a hit asks for damage, a
        hit that becomes a miss takes its damage back. Undo takes the correction back: the
        fight is again as it was just before it (the attack, its damage and its dice).

        :param throw: ``"attack"``, ``"defence"`` or ``"damage"``.
        :param index: 0 the characteristic (or defence, damage) die, 1 the Destiny d20.
        :raises InvalidStep: no such die thrown, the die already shows ``value`` (nothing to
            correct), or an attack older than the last step.
        :raises InvalidRoll: (ValueError) for a face the die does not have.
        """
        if throw not in ("attack", "defence", "damage"):
            raise InvalidStep(f"a throw is attack, defence or damage, not {throw!r}")
        if self._attack is None:
            done, base = self._last_attack, self._attack_base
            if done is None or base is None or not self._last_attack_correctable():
                raise InvalidStep("only the attack being resolved, or the last attack before any other "
                                  "step, can be corrected: change PV by hand for an older one")
            self._load(base)  # the fight before the attack's last throw: its damage not applied
            self._attack = {"spec": done["spec"], **done["throws"], "sources": dict(done["sources"])}
        else:
            base = self._document(with_undo=False, with_base=False)
        dice = self._attack[throw]
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(dice):
            raise InvalidStep(f"no die {index} in the {throw} throw")
        # A correction that changes nothing would only rewrite the record; dice counted from 1 as on the page.
        if dice[index] == value:
            raise InvalidStep(Phrase("die {n} of the {throw} throw already shows {value}: nothing to correct",
                                     n=index + 1, throw=_THROW_WORDS[throw], value=value))
        self._attack[throw] = dice[:index] + [value] + dice[index + 1:]
        self._attack["sources"] = {**self._attack.get("sources", {}), throw: "corrected"}
        outcome = self._outcome()  # raises InvalidRoll for a face the die does not have
        if outcome.needs is None:
            self._finish(outcome)
        self._attack_base = base if self._attack is None else None

    def _last_attack_correctable(self) -> bool:
        """Whether the last attack's dice can still be corrected: no attack under way, and
        nothing but its last throw and corrections of it came after it."""
        return (self._attack is None and self._attack_base is not None
                and self._last_attack is not None and "throws" in self._last_attack)

    def _throw(self, values: Sequence[int], source: str) -> None:
        if self._attack is None:
            raise InvalidStep(Phrase("no attack is being resolved: start one first"))
        base = self._document(with_undo=False, with_base=False)
        needs = self._outcome().needs
        values = list(values)
        if len(values) != len(needs.dice):
            raise InvalidStep(f"{needs.reason}: {len(needs.dice)} dice, not {len(values)}")
        # The outcome asks for the attacker's throw, then the defender's, then damage.
        key = next(key for key, full in (("attack", 2), ("defence", 2), ("damage", 1))
                   if len(self._attack[key]) < full)
        self._attack[key] = self._attack[key] + values
        self._attack["sources"] = {**self._attack.get("sources", {}), key: source}
        outcome = self._outcome()  # raises InvalidRoll for a face the die does not have
        if outcome.complete:
            self._finish(outcome)
        self._attack_base = base if self._attack is None else None

    def _finish(self, outcome) -> None:
        """Apply a complete attack to the fight."""
        attack = cast(dict, self._attack)  # called only while an attack is under way
        self._encounter.apply_attack(outcome)
        self._last_attack = {**outcome.to_dict(), "sources": dict(attack.get("sources", {})),
                             "throws": {key: list(attack[key]) for key in ("attack", "defence", "damage")}}
        self._attack = None

    # ------------------------------------------------------------ dice from the tray

    def read_tray(self, step: str, name: str | None = None) -> dict:
        """Take the dice of this step from the next throw that settles from now on (RULES T-2):
        ``"attack"`` (each throw of the attack being resolved, until it is complete or
        cancelled) or ``"initiative"`` of fighter ``name`` (their Mind die, before the
        fight starts). Asking again replaces the wait; dice by hand stay possible.

        :raises InvalidStep: no attack being resolved, the fight already started, a bad step.
        :raises KeyError: no fighter called ``name``.
        """
        with self._lock:
            if step == "attack":
                if self._attack is None:
                    raise InvalidStep(Phrase("no attack is being resolved: start one first"))
                wait = {"step": "attack"}
            elif step == "initiative":
                if self._encounter.started:
                    raise InvalidStep(Phrase("initiative was rolled: the fight has started"))
                if name not in self.names():
                    raise KeyError(f"no fighter called {name!r}")
                wait = {"step": "initiative", "name": name}
            else:
                raise InvalidStep(f"dice are read from the tray for attack or initiative, not {step!r}")
            self._tray, self._tray_problem, self._tray_void = wait, None, []
            self._tray_stage, self._tray_after = self._stage(), self._clock()
            return self._save_tray()

    def cancel_tray(self) -> dict:
        """Stop waiting for dice from the tray (nothing else changes)."""
        with self._lock:
            self._tray = self._tray_problem = None
            self._tray_void = []
            return self._save_tray()

    def enter_top_face(self, value: int) -> dict:
        """RULES T-5 accept_leaning: the top face of the die the last throw read showed leaning
        (the readers read none, T-1), entered by hand; once no die of the throw leans, it
        fills its step as a throw read does (an attack's throw then counts as corrected).

        :raises InvalidStep: no die leans, or a face the die does not have.
        """
        with self._lock:
            problem = self._tray_problem
            if self._tray is None or not problem or problem["code"] != "leaning":
                raise InvalidStep(Phrase("no die of the tray leans: there is no top face to enter"))
            values, sides = list(problem["values"]), problem["sides"]
            die = values.index(None)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides[die]:
                raise InvalidStep(Phrase("a d{sides} shows 1 to {sides}", sides=sides[die]))
            values[die] = value
            if None in values:  # another die leans: its top face next
                self._tray_problem = leaning(values, sides).to_dict()
                return self._save_tray()
            if self._tray["step"] == "attack":
                return self._tray_throw(values, "corrected")
            self._initiative_read[self._tray["name"]] = values[0]
            self._tray = self._tray_problem = None
            return self._save_tray()

    def on_settled(self, frame, t: float) -> bool:
        """A frame (H×W×3 uint8 BGR) of a tray that settled at ``t`` (seconds on ``clock``),
        through a :class:`~device.tray.dispatch.TrayDispatcher` of this fight alone (tests).

        :returns: True when the frame was taken (a step waited for it).
        """
        return self._dispatcher.on_settled(frame, t)

    def wanted(self, t: float) -> Wanted | None:
        """The dice a waiting step asks of a frame settled at ``t`` (the tray dispatcher's
        question): None when no step waits, or the frame settled before the step asked
        (RULES T-2). Read with the numbered reader, they fill the step when they are
        exactly the dice asked for (:func:`device.tray.match.match`), under the cocked-die
        policy now (RULES T-5)."""
        policy = self._cocked_dice()  # the controller's setting: asked outside this lock
        with self._lock:
            if self._tray is None or t < self._tray_after:
                return None
            sides, needs, _ = self._tray_wants()
            return Wanted(reader="numbered", sides=tuple(sides), asks=needs, cocked=policy,
                          voided=tuple(self._tray_void), token=(self._tray, self._tray_stage))

    def take(self, taken: Taken) -> bool:
        """The frame :meth:`wanted` asked for: its dice fill the step, else the problem is shown."""
        wait, stage = cast(tuple[dict, tuple | None], taken.wanted.token)
        with self._lock:
            if self._tray is not wait or self._tray_stage != stage:  # the step moved on meanwhile
                return True
            problem = taken.match.problem
            if taken.reading is None and problem is not None:
                log.warning("combat: could not read the tray: %s", problem.why)
                problem = replace(problem, asks="throw again")
            elif problem is not None and problem.code == "void" and taken.reading is not None:
                self._tray_void = list(taken.reading.dice)  # none of them counts again unless it moved
            elif problem is None:
                self._tray_void = []
            values = taken.match.values
            if values is not None:
                try:
                    if wait["step"] == "attack":
                        self._tray_throw(values)
                        return True
                    self._initiative_read[wait["name"]] = values[0]
                    self._tray = None
                except ValueError as exc:  # a face the die does not have: read wrong
                    problem = Problem("refused", why=str(exc), asks="throw again")
            self._tray_problem = None if problem is None else problem.to_dict()
            self._save_tray()
            return True

    def _read(self, image, color: str | None):
        if self._reader is None:
            import vision
            self._reader = vision.read_numbered
        return self._reader(image, color)

    @_step
    def _tray_throw(self, values: Sequence[int], source: str = "camera") -> None:
        """The attack's throw read from the tray: a step like dice tapped, undoable."""
        self._throw(values, source)

    def _tray_wants(self) -> tuple[list[int], str, str | None]:
        """The sides of the dice the waiting step asks for, the end of its sentences, and
        which throw of the attack it is ("attack", "defence", "damage"; None for initiative)."""
        tray = cast(dict, self._tray)  # called only while a step waits for the tray
        if tray["step"] == "initiative":
            name = tray["name"]
            sides = [self._encounter.get(name).mind]
            return sides, f"{name}'s initiative needs {_wanted_text(sides)}", None
        needs = self._outcome().needs
        throw = ("damage" if cast(dict, self._attack)["defence"] and needs.who == "attacker"
                 else "defence" if needs.who == "defender" else "attack")
        step = {"attack": "this attack", "defence": "the defence", "damage": "the damage"}[throw]
        return list(needs.dice), f"{step} needs {_wanted_text(needs.dice)}", throw

    def _tray_waiting(self) -> dict | None:
        if self._tray is None:
            return None
        dice, needs, throw = self._tray_wants()
        return {**self._tray, "dice": dice, "needs": needs, **({"throw": throw} if throw else {})}

    def _stage(self) -> tuple | None:
        attack = self._attack
        return None if attack is None else (len(attack["attack"]), len(attack["defence"]), len(attack["damage"]))

    def _follow_tray(self) -> None:
        """After a step: the wait ends with its step (attack over, fight started, fighter
        gone); a new throw of the attack is asked anew, so only a later frame counts (T-2)."""
        if self._encounter.started:
            self._initiative_read = {}
        else:
            names = set(self.names())
            self._initiative_read = {n: v for n, v in self._initiative_read.items() if n in names}
        wait = self._tray
        if wait is None:
            return
        if wait["step"] == "attack":
            still = self._attack is not None
        else:
            still = not self._encounter.started and wait.get("name") in self.names()
        if not still:
            self._tray = self._tray_problem = None
            self._tray_void = []
        elif self._stage() != self._tray_stage:
            self._tray_stage, self._tray_after, self._tray_problem = self._stage(), self._clock(), None
            self._tray_void = []

    def _save_tray(self) -> dict:
        """Save and publish a change of the tray's wait (not a step: undo is left as it is)."""
        self._save()
        return self._publish()

    @_step
    def cancel_attack(self) -> None:
        """Drop the attack being resolved (nothing is applied)."""
        if self._attack is None:
            raise InvalidStep(Phrase("no attack is being resolved"))
        self._attack = None

    # ------------------------------------------------------------ other actions

    @_step
    def help(self, helper: str, ally: str, bonus: int = 1) -> None:
        """+1 (or +2) to the ally's next roll (RULES DD-2)."""
        self._encounter.help(helper, ally, bonus)

    @_step
    def damage(self, name: str, amount: int, reason: str | None = None) -> None:
        """PV off a fighter (a spell, a fall…) (RULES DD-9)."""
        self._encounter.damage(name, amount, reason)

    @_step
    def heal(self, name: str, amount: int, reason: str | None = None) -> None:
        """PV back, not above the maximum; a hero out of combat stands (RULES DD-9)."""
        self._encounter.heal(name, amount, reason)

    @_step
    def add_condition(self, name: str, condition: Mapping) -> None:
        """``name`` bears ``condition`` ``{"name", "duration"?, "poison"?, "poison_die"?, "source"?}`` (RULES DD-11)."""
        self._encounter.add_condition(name, Condition.from_dict(condition))

    @_step
    def cure(self, name: str, condition: str) -> None:
        """End a condition (magic, a potion) (RULES DD-11)."""
        self._encounter.cure(name, condition)

    @_step
    def spend_energy(self, name: str, energy: str, amount: int = 1) -> None:
        """Spend EC, EM or EA on a skill or a spell (RULES DD-10)."""
        self._encounter.spend_energy(name, energy, amount)

    @_step
    def short_rest(self, name: str, roll: int) -> None:
        """+1d4 PV (the d4 thrown) and +1 of each energy (RULES DD-10)."""
        self._encounter.short_rest(name, roll)

    @_step
    def long_rest(self, name: str) -> None:
        """All PV and energy back, conditions end (RULES DD-10)."""
        self._encounter.long_rest(name)

    def undo(self) -> dict:
        """Undo the last step, once (an attack's last throw included).

        :raises InvalidStep: when there is nothing to undo.
        """
        with self._lock:
            if self._undo is None:
                raise InvalidStep(Phrase("nothing to undo: only the last step can be undone, once"))
            before, undo = self._document(with_undo=False), self._undo
            self._load(undo)
            self._undo, last_step, self._last_step = None, self._last_step, "undo"
            self._follow_tray()
            try:
                self._save()
            except Exception:
                self._load(before)
                self._undo, self._last_step = undo, last_step
                raise
            return self._publish()

    # ------------------------------------------------------------ inside

    def _outcome(self):
        attack = cast(dict, self._attack)  # called only while an attack is under way
        return resolve_attack(AttackSpec.from_dict(attack["spec"]), attack["attack"], attack["defence"],
                              attack["damage"])

    def _no_attack(self, what: Phrase) -> None:
        if self._attack is not None:
            raise InvalidStep(Phrase("finish or cancel the attack before {what}", what=what))

    def _check_size(self) -> None:
        if len(self._encounter.participants) > MAX_PARTICIPANTS:
            raise InvalidStep(Phrase("a fight has at most {count} fighters", count=MAX_PARTICIPANTS))

    def _free_name(self, base: str) -> str:
        taken = {p.name for p in self._encounter.participants}
        if base not in taken:
            return base
        stem = re.sub(r" \d+$", "", base)
        number = 2
        while f"{stem} {number}" in taken:
            number += 1
        return f"{stem} {number}"

    @staticmethod
    def _find(sheets: Sequence[Mapping], name: object, what: str) -> Mapping:
        for sheet in sheets:
            if sheet["name"] == name:
                return sheet
        raise KeyError(f"no {what} called {name!r}")

    def _save_hero(self, sheet: Mapping) -> None:
        checked = _sheet(sheet, "hero")
        checked["name"] = _fighter_name(checked["name"])
        others = [s for s in self._saved_heroes if s["name"] != checked["name"]]
        if len(others) >= MAX_SAVED_HEROES:
            raise InvalidStep(Phrase("at most {count} saved heroes", count=MAX_SAVED_HEROES))
        self._saved_heroes = others + [checked]

    def _document(self, with_undo: bool = True, with_base: bool = True) -> dict:
        """The fight as JSON; ``with_base``: with the last attack's base, which is itself a
        document without one (so undo slots never nest deeper)."""
        encounter = self._encounter.to_dict()
        encounter["undo"] = None  # the session keeps its own undo, which covers the attack's throws
        document = {"version": FORMAT_VERSION, "encounter": encounter,
                    "attack": json.loads(json.dumps(self._attack)), "last_attack": self._last_attack,
                    "saved_heroes": [dict(s) for s in self._saved_heroes]}
        if with_base:
            document["attack_base"] = self._attack_base
        if with_undo:  # the file: also what the tray waits for (asking is not a step, so not in undo)
            document["undo"] = self._undo
            document["last_step"] = self._last_step
            document["tray"] = {"waiting": self._tray, "problem": self._tray_problem,
                                "initiative": dict(self._initiative_read)}
        return document

    def _load(self, document: Mapping) -> None:
        if not isinstance(document, Mapping) or document.get("version") != FORMAT_VERSION:
            raise InvalidStep(f"not a saved fight of format {FORMAT_VERSION}")
        encounter = Encounter.from_dict(document["encounter"])
        saved = [_sheet(sheet, "hero") for sheet in document.get("saved_heroes", [])]
        attack = document.get("attack")
        self._encounter, self._attack, self._saved_heroes = encounter, attack, saved
        self._last_attack = document.get("last_attack")
        self._attack_base = self._readable_base(document.get("attack_base"))
        if attack is not None:
            self._outcome()  # a broken attack is refused on loading, not at the next throw

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
        self._write({**self._document(), "seq": self._seq + 1})
        self._seq += 1

    def _publish(self) -> dict:
        state = self.state()
        self._hub.publish("combat", state, self._seq)
        return state

    def _write(self, document: dict) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".tmp")
        with open(temporary, "w", encoding="utf-8") as file:
            json.dump(document, file, ensure_ascii=False)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, self.path)
        try:  # the rename itself reaches the disk with the folder's entry
            folder = os.open(self.path.parent, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(folder)
        finally:
            os.close(folder)

    def _check_undo(self, document: dict) -> None:
        """Refuse a broken undo slot now, not when undo is tapped: the fight goes on without it."""
        try:
            self._load(cast(dict, self._undo))  # None, as any broken slot, is a TypeError refused here
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("combat: the saved undo step cannot be read (%s); dropped", exc)
            self._undo = None
        self._load(document)

    def _resume_tray(self, tray: object) -> None:
        """The wait of the file, fresh from now: frames from before the restart are gone anyway
        (and so is the problem of the last one). A part that cannot be read is dropped."""
        tray = tray if isinstance(tray, Mapping) else {}
        waiting, read = tray.get("waiting"), tray.get("initiative")
        if isinstance(waiting, Mapping) and (waiting.get("step") == "attack" or (
                waiting.get("step") == "initiative" and waiting.get("name") in self.names())):
            self._tray = {key: waiting[key] for key in ("step", "name") if key in waiting}
        read = read if isinstance(read, Mapping) else {}
        self._initiative_read = {n: v for n, v in read.items() if type(v) is int and n in self.names()}
        self._tray_stage, self._tray_after = self._stage(), self._clock()
        self._follow_tray()

    def _resume(self) -> None:
        if not self.path.exists():
            return
        try:
            document = json.loads(self.path.read_text(encoding="utf-8"))
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
            self._resume_tray(document.get("tray"))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            broken = self.path.with_name(f"{self.path.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
            log.warning("combat: %s cannot be read (%s); kept as %s, a new fight starts", self.path, exc, broken)
            os.replace(self.path, broken)
            self._encounter = Encounter(options=self.roster.options)
            self._attack = self._last_attack = self._undo = self._attack_base = None
            self._saved_heroes = []
