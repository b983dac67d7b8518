"""The sheets a fight is set up from: the saved heroes and the bestiary of ``[combat]``
(RULES.md §3), checked by building a fighter from them.

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

import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

from rules.destiny_spec import OPTION_NAMES, DestinyOptions
from rules.errors import InvalidStep
from rules.participant import ENERGY, Participant
from rules.phrase import Phrase

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
        return Participant(name=fighter_name(name or template["name"]),  # Participant checks the side
                           side=cast(Literal["hero", "enemy"], side), body=template["body"],
                           mind=template["mind"], soul=template["soul"], pv=template["pv"], pv_max=template["pv"],
                           energy=dict(energy) if isinstance(energy, Mapping) else energy,
                           energy_max=dict(energy) if isinstance(energy, Mapping) else energy, **fields)
    except (TypeError, ValueError) as exc:  # InvalidRoll from a die, TypeError from a bad energy table
        raise InvalidStep(exc.args[0] if exc.args and isinstance(exc.args[0], Phrase) else str(exc)) from None


def fighter_name(name: object) -> str:
    """``name`` stripped, when it is 1 to 40 printable characters.

    :raises InvalidStep: otherwise.
    """
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 40 or not name.strip().isprintable():
        raise InvalidStep(f"a name is 1 to 40 printable characters, not {name!r}")
    return name.strip()


def checked_sheet(template: Mapping, side: str) -> dict:
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
                sheets.append(checked_sheet(entry, side))
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


def find_sheet(sheets: Sequence[Mapping], name: object, missing: Callable[[str], Phrase]) -> Mapping:
    """The sheet called ``name``; ``missing(name)`` is the error's :class:`Phrase` (the
    page words it in its language).

    :raises KeyError: for no sheet of that name.
    """
    for sheet in sheets:
        if sheet["name"] == name:
            return sheet
    raise KeyError(missing(str(name)))


def free_name(base: str, taken: Collection[str]) -> str:
    """``base``, or numbered when it is taken ("Saqueador 2")."""
    if base not in taken:
        return base
    stem = re.sub(r" \d+$", "", base)
    number = 2
    while f"{stem} {number}" in taken:
        number += 1
    return f"{stem} {number}"
