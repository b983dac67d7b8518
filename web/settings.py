"""The settings and the PIN (blueprint ``settings``, under ``/api``): what Settings shows and
changes, and a phone logging in with the PIN. Answers and failures as :mod:`web.api`'s.

=======================================  ==============================================
``GET  /api/settings``                   ``{"principal_color", "principal_measured" (or null), "presets",
                                         "pin_set", "authorized", "pin_from_page" (the page may set
                                         the PIN), "pin_in_config" (the config sets it),
                                         "preset_labels": {name: {"text", "made"}} (messages.preset_labels),
                                         "house_rules": {"rule_of_ten", "rule_of_one", "target_number"},
                                         "cocked_dice": "rethrow_die" | "rethrow_set" | "accept_leaning"}``
``POST /api/settings/principal-from-tray`` *PIN* the principal die's colour measured on the one die
                                         of the latest frame (RULES D6-2a; the light does not change
                                         it) and kept with its name → settings as in GET, with
                                         ``principal_measured`` ``{"name", "lab": [L*, a*, b*]}``;
                                         409 with the reason when no die or several dice are in sight
``POST /api/settings``                   *PIN* any of ``principal_color`` (str|null),
                                         ``presets`` (list, or null: the config's), ``pin`` (4–12 digits, or null/""
                                         to clear; 409 when the config decides the PIN:
                                         ``pin`` set, or ``pin_from_page`` off),
                                         ``house_rules`` (any of its keys, RULES P-5b),
                                         ``cocked_dice`` (RULES T-5)
                                         → settings as in GET
``POST /api/login``                      ``{"pin"}`` → ``{"authorized": true}``; 400 no PIN, 401 wrong, 429
                                         after 5 wrong PINs in a minute (counted before checking)
``POST /api/logout``                     → ``{"authorized": bool}``
=======================================  ==============================================
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext

from rules.cocked import POLICIES as COCKED_POLICIES

from . import security
from .api import controller
from .errors import BadRequest, Unauthorized, refusals
from .inputs import json_body, only_keys, whole_number
from .messages import preset_labels, reason

bp = Blueprint("settings", __name__, url_prefix="/api")

MAX_PRESETS = 100
# No table rolls more than 100 dice or adds more than 100; bigger numbers in a preset
# would only make the exact odds take minutes.
MAX_PRESET_NUMBER = 100


def public_settings() -> dict:
    """The controller's settings without the PIN hash, plus ``pin_set``, ``authorized`` and
    the presets' labels as the page shows them (``preset_labels``)."""
    settings = dict(controller().settings())
    pin_set = bool(settings.pop("pin", None))
    return {**settings, "pin_set": pin_set, "authorized": security.is_authorized(),
            "preset_labels": preset_labels(settings["presets"])}


#: A preset's numbers and their own ranges (RULES P-6, P-8, P-11; D6-1), each named as the
#: settings page names it, each by a word of the page, one wording for all: a pool's by its
#: stepper, a d6 roll's count and modifier (its JSON's keys) by what they are.
_FIELDS = {"size": (lazy_gettext("Dice"), 0, MAX_PRESET_NUMBER),
           "difficulty": (lazy_gettext("Difficulty"), 1, MAX_PRESET_NUMBER),
           "penalty": (lazy_gettext("Penalty (dice)"), 0, MAX_PRESET_NUMBER),
           "bonus": (lazy_gettext("Bonus (dice)"), 0, MAX_PRESET_NUMBER),
           "count": (lazy_gettext("Dice"), 1, MAX_PRESET_NUMBER),
           "modifier": (lazy_gettext("Modifier"), -MAX_PRESET_NUMBER, MAX_PRESET_NUMBER)}


def _check_preset_numbers(value: object, row: int, key: str | None = None, depth: int = 0) -> None:
    """:param row: the preset's row as the page numbers it (1 for the first).
    :raises BadRequest: naming the row and the field, with the field's own range, for a
        number beyond it (beyond ±100 for another); or nesting deeper than a preset's."""
    if depth > 3:
        raise BadRequest(_("Roll %(n)d: a preset is nested too deeply", n=row))
    if isinstance(value, dict):
        for name, item in value.items():
            _check_preset_numbers(item, row, str(name), depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_preset_numbers(item, row, key, depth + 1)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        field, low, high = _FIELDS.get(key or "", (key, -MAX_PRESET_NUMBER, MAX_PRESET_NUMBER))
        if not low <= value <= high:
            raise BadRequest(_("Roll %(n)d: %(field)s: from %(low)d to %(high)d (not %(got)s)",
                               n=row, field=str(field), low=low, high=high, got=value))


@bp.get("/settings")
def get_settings():
    return jsonify(public_settings())


@bp.post("/settings")
@security.requires_pin
def post_settings():
    body = json_body()
    only_keys(body, {"principal_color", "presets", "pin", "house_rules", "cocked_dice"})
    changes: dict = {}
    if "cocked_dice" in body:  # RULES T-5
        if body["cocked_dice"] not in COCKED_POLICIES:
            raise BadRequest(_("cocked_dice must be one of %(policies)s", policies=", ".join(COCKED_POLICIES)))
        changes["cocked_dice"] = body["cocked_dice"]
    if "house_rules" in body:  # RULES P-5b
        house = body["house_rules"]
        if not isinstance(house, dict):
            raise BadRequest(_("house_rules must be an object of rule_of_ten, rule_of_one and target_number"))
        only_keys(house, {"rule_of_ten", "rule_of_one", "target_number"})
        for key in ("rule_of_ten", "rule_of_one"):
            if key in house and not isinstance(house[key], bool):
                raise BadRequest(_("%(name)s must be true or false", name=key))
        if "target_number" in house:
            whole_number(house["target_number"], "target_number", 2, 10)
        changes["house_rules"] = house
    if "principal_color" in body:
        color = body["principal_color"]
        if color is not None and (not isinstance(color, str) or not 0 < len(color) <= 20):
            raise BadRequest(_("principal_color must be a colour name or null"))
        changes["principal_color"] = color
    if "presets" in body:
        presets = body["presets"]
        if presets is not None and (not isinstance(presets, list) or len(presets) > MAX_PRESETS or not all(
            isinstance(p, dict) for p in presets
        )):
            raise BadRequest(_("presets must be a list of at most %(count)d objects, or null "
                               "for the configured ones", count=MAX_PRESETS))
        for row, preset in enumerate(presets or (), start=1):
            _check_preset_numbers(preset, row)
        changes["presets"] = presets  # None: back to the config's presets
    new_pin = None
    if "pin" in body:
        pin = body["pin"]
        if pin is None or pin == "":
            changes["pin"] = None
        elif security.valid_pin_format(pin):
            new_pin = security.hash_pin(pin)
            changes["pin"] = new_pin
        else:
            raise BadRequest(_("the PIN must be 4 to 12 digits"))
    if changes:
        try:
            with refusals():
                controller().update_settings(**changes)
        except TypeError as exc:  # a preset of the wrong shape
            raise BadRequest(reason(exc)) from exc
    if new_pin:
        security.log_in(new_pin)  # whoever sets the PIN stays in control
    return jsonify(public_settings())


@bp.post("/settings/principal-from-tray")
@security.requires_pin
def principal_from_tray():
    with refusals():
        controller().principal_from_tray()
    return jsonify(public_settings())


@bp.post("/login")
def login():
    body = json_body()
    only_keys(body, {"pin"})
    pin = body.get("pin")
    if pin is not None and not isinstance(pin, str):
        raise BadRequest(_("the PIN must be 4 to 12 digits"))
    stored = security.stored_pin()
    if stored is None:
        return jsonify(authorized=True)
    if not pin:  # not a wrong PIN: no attempt is counted
        raise BadRequest(_("enter the PIN"))
    if not security.attempts().check_pin(request.remote_addr, pin, stored):
        raise Unauthorized(_("wrong PIN"))
    security.log_in(stored)
    return jsonify(authorized=True)


@bp.post("/logout")
def logout():
    security.log_out()
    return jsonify(authorized=security.is_authorized())
