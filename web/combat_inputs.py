"""Reading the fight's request input (:mod:`web.combat`): sheets, dice and numbers, each
malformed value a 400 with its reason (:class:`web.errors.BadRequest`); the rules check the rest.
"""

from __future__ import annotations

from typing import Any

from babel.lists import format_list
from flask_babel import get_locale
from flask_babel import gettext as _

from rules import destiny_spec

from .errors import BadRequest
from .inputs import name_text, only_keys, whole_number

MAX_NUMBER = 100        # PV, damage, bonuses: no sheet of the seed comes near
SHEET_KEYS = {"name", "body", "mind", "soul", "pv", "defence", "armour", "shield", "weapon", "ranged", "energy"}
WEAPONS = (*destiny_spec.WEAPONS, destiny_spec.UNARMED)  # RULES DD-8


def highest_face() -> int:
    """The highest face of a sheet's dice (``rules.destiny_spec.CHARACTERISTIC_SIDES``): of a
    Mind die's initiative, a poison die."""
    return max(destiny_spec.CHARACTERISTIC_SIDES)


def number(body: dict, key: str, low: int, high: int, default: int | None = None) -> int | None:
    if body.get(key) is None:
        return default
    return whole_number(body[key], key, low, high)


def flag(body: dict, key: str) -> bool | None:
    value = body.get(key)
    if value is not None and not isinstance(value, bool):
        raise BadRequest(_("%(name)s must be true or false", name=key))
    return value


def die(value: Any, key: str) -> int:
    sides = destiny_spec.CHARACTERISTIC_SIDES
    if value not in sides or isinstance(value, bool):
        listed = format_list([str(n) for n in sides], style="or", locale=get_locale() or "en")
        raise BadRequest(_("%(name)s must be a die: %(sides)s", name=key, sides=listed))
    return value


def sheet(value: Any) -> dict:
    """A sheet typed on the page, its shape checked (the rules check the rest)."""
    if not isinstance(value, dict):
        raise BadRequest(_("sheet must be an object"))
    only_keys(value, SHEET_KEYS)
    checked: dict = {"name": name_text(value.get("name"), "name", optional=False)}
    for key in ("body", "mind", "soul"):
        checked[key] = die(value.get(key), key)
    checked["pv"] = whole_number(value.get("pv"), "pv", 1, MAX_NUMBER)
    if value.get("defence") is not None:
        checked["defence"] = die(value["defence"], "defence")
    for key in ("armour", "shield"):
        checked[key] = number(value, key, 0, MAX_NUMBER, 0)
    weapon = value.get("weapon")
    if weapon is not None and weapon not in WEAPONS:
        raise BadRequest(_("weapon must be light, medium, heavy, unarmed or null"))
    checked["weapon"] = weapon
    checked["ranged"] = bool(flag(value, "ranged"))
    energy = value.get("energy")
    if energy is not None:
        if not isinstance(energy, dict) or set(energy) != {"EC", "EM", "EA"}:
            raise BadRequest(_("energy must be an object of EC, EM and EA"))
        checked["energy"] = {key: whole_number(energy[key], key, 0, MAX_NUMBER) for key in ("EC", "EM", "EA")}
    return checked


def initiative(body: dict) -> int | None:
    return number(body, "initiative", 0, highest_face())  # a d10's 0 (RULES P-1)


def face(value: Any, sides: int) -> int:
    """A die's face as thrown: 1 to ``sides``; a d10 also takes its printed 0, which is 10
    as everywhere (RULES P-1). The session's rules read the 0 as 10.

    :raises BadRequest: naming the die and its faces.
    """
    low = 0 if sides == 10 else 1
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= sides:
        if sides == 10:
            raise BadRequest(_("a d10 shows 0 to 10 (0 is 10)"))
        raise BadRequest(_("a d%(sides)d shows 1 to %(sides)d", sides=sides))
    return value
