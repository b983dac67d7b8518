"""Presets: the named rolls a button press or a tap on the page arms.

A preset is a rules spec with a name and a label. "Free roll" has no fixed
spec: it reads any number of six-sided dice and builds a D6 spec from what
the camera saw, with the D6 rules whole (RULES D6-2a: a lone die or the first
typed is the principal die; when the camera cannot tell, the page asks which).

Presets come from the built-in list below, then from the config's
``[[presets]]`` tables (a table with a built-in name replaces it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import rules
from rules.d6 import D6Spec
from rules.errors import InvalidRoll
from rules.phrase import Phrase
from rules.pool import PoolOptions, PoolSpec

#: The systems a preset may name: "free" (any number of six-sided dice), "d6", "pool".
SYSTEMS = ("free", "d6", "pool")
#: Sides of the physical dice each system throws.
SIDES = {"free": 6, "d6": 6, "pool": 10}

#: What a preset table may hold, per system (besides name, label, system).
TABLE_KEYS = {
    "free": (),
    "d6": ("count", "kind", "modifier", "random"),
    "pool": ("size", "difficulty", "penalty", "bonus", "mismatch"),
}
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,39}$")

BUILT_IN: tuple[dict, ...] = (
    {"name": "free", "label": "Free roll", "system": "free"},
    {"name": "1d6", "system": "d6", "count": 1},
    {"name": "2d6", "system": "d6", "count": 2},
    {"name": "1d3", "system": "d6", "count": 1, "kind": "D3"},
    {"name": "1d2", "system": "d6", "count": 1, "kind": "D2"},
    {"name": "2d6-random", "system": "d6", "count": 2, "random": True},
    {"name": "pool5", "system": "pool", "size": 5, "difficulty": 1},
)


class PresetError(ValueError):
    """A preset table that cannot be used; the message names the key and what is allowed."""


@dataclass(frozen=True)
class Preset:
    """A named roll.

    :param name: identifier used by buttons, the config and the page (``"2d6"``).
    :param label: what the page shows (``"2D6"``, ``"Free roll"``).
    :param system: one of :data:`SYSTEMS`.
    :param spec: the rules spec; ``None`` for a free roll (built from the dice seen).
    """

    name: str
    label: str
    system: str
    spec: D6Spec | PoolSpec | None

    @property
    def sides(self) -> int:
        """Sides of the physical dice: 6 or 10."""
        return SIDES[self.system]

    @property
    def count(self) -> int | None:
        """Dice of the first throw; ``None`` for a free roll (any number)."""
        if isinstance(self.spec, D6Spec):
            return self.spec.count
        if isinstance(self.spec, PoolSpec):
            return max(self.spec.pool_size, 0)
        return None

    def make_spec(self, dice: int, *, roller: str | None = None) -> D6Spec | PoolSpec:
        """The spec to resolve a throw of ``dice`` dice with.

        :param dice: dice seen in the first throw (only a free roll uses it).
        :param roller: the player who rolls (D6 records it, RULES D6-7).
        """
        if self.spec is None:
            return D6Spec(count=dice, roller=roller)
        if isinstance(self.spec, D6Spec):
            return replace(self.spec, roller=roller)
        return self.spec

    def odds(self) -> dict | None:
        """Exact odds for the page, ``None`` for a free roll (its dice are not known yet)."""
        return None if self.spec is None else rules.odds(self.spec)

    def to_dict(self) -> dict:
        """``{"name", "label", "system", "sides", "count", "spec"}`` (CONTRACTS.md)."""
        if isinstance(self.spec, D6Spec):
            spec = {"count": self.spec.count, "kind": self.spec.kind,
                    "modifier": self.spec.modifier, "random": self.spec.random}
        elif isinstance(self.spec, PoolSpec):
            spec = self.spec.to_dict()
        else:
            spec = {}
        return {"name": self.name, "label": self.label, "system": self.system,
                "sides": self.sides, "count": self.count, "spec": spec}


def preset_from_table(table: dict, options: PoolOptions = PoolOptions(),
                      where: str | Phrase = "presets") -> Preset:
    """Build a preset from a config table (or a built-in entry).

    :param table: ``{"name", "system", "label"?, ...}`` with the keys of
        :data:`TABLE_KEYS` for its system.
    :param options: house rules for pool presets (RULES P-3, P-4, P-2).
    :param where: the table's place, for messages: in the config (``"presets[2]"``), or the
        row of the settings page (``Phrase("Roll {n}")``).
    :raises PresetError: naming the key and the allowed values, its message a
        :class:`Phrase` (the page translates it).
    """
    if not isinstance(table, dict):
        raise PresetError(Phrase("{where} must be a table with name and system", where=where))
    system = table.get("system", "d6")
    if system not in SYSTEMS:
        raise PresetError(Phrase("{where}: system must be one of {systems} (got {got})", where=where,
                                 systems=", ".join(SYSTEMS), got=repr(system)))
    allowed = ("name", "label", "system") + TABLE_KEYS[system]
    for key in table:
        if key not in allowed:
            raise PresetError(Phrase("{where}: unknown key {key} for a {system} preset; allowed: {allowed}",
                                     where=where, key=repr(key), system=system, allowed=", ".join(allowed)))
    name = table.get("name")
    if name is None:  # said so, not as Python's "None"
        raise PresetError(Phrase("{where}: name is missing: 1-40 letters, digits or . _ + - "
                                 "starting with a letter or digit", where=where))
    if not isinstance(name, str) or not _NAME.match(name):
        raise PresetError(Phrase("{where}: name must be 1-40 letters, digits or . _ + - "
                                 "starting with a letter or digit (got {got})", where=where, got=repr(name)))
    label = table.get("label")
    if label is not None and (not isinstance(label, str) or not label.strip()):
        raise PresetError(Phrase("{where}: label must be a non-empty string (got {got})", where=where, got=repr(label)))
    fields = {key: table[key] for key in TABLE_KEYS[system] if key in table}
    spec: D6Spec | PoolSpec | None
    try:
        if system == "free":
            spec = None
        elif system == "d6":
            if "count" not in fields:
                raise PresetError(Phrase("{where}: count is required for a d6 preset (a whole number ≥ 1)",
                                         where=where))
            spec = D6Spec(**fields)
        else:
            if "size" not in fields:
                raise PresetError(Phrase("{where}: size is required for a pool preset (a whole number ≥ 0)",
                                         where=where))
            spec = PoolSpec(**fields, options=options)
    except InvalidRoll as exc:
        raise PresetError(Phrase("{where}: {why}", where=where, why=exc.args[0] if exc.args else str(exc))) from None
    if isinstance(spec, D6Spec) and not isinstance(spec.random, bool):
        raise PresetError(Phrase("{where}: random must be true or false (got {got})", where=where,
                                 got=repr(spec.random)))
    if label is None:
        label = "Free roll" if spec is None else rules.describe(spec)
    return Preset(name=name, label=label, system=system, spec=spec)


def build_presets(tables: Sequence[dict] = (), options: PoolOptions = PoolOptions()) -> list[Preset]:
    """The built-in presets, then the config's; a config table replaces a built-in of its name.

    :raises PresetError: for a bad table or two config presets of one name.
    """
    presets = {entry["name"]: preset_from_table(entry, options) for entry in BUILT_IN}
    seen: set[str] = set()
    for number, table in enumerate(tables):
        preset = preset_from_table(table, options, where=f"presets[{number}]")
        if preset.name in seen:
            raise PresetError(Phrase("{where}: name {name} is used twice", where=f"presets[{number}]",
                                     name=repr(preset.name)))
        seen.add(preset.name)
        presets[preset.name] = preset
    return list(presets.values())
