"""The teaching round's JSON API (blueprint ``teach``, issue 17 item 2; the page is ``/teach``,
:mod:`web.pages`). Every answer is the round's state as ``GET /api/teach`` gives it; every
POST is *PIN* (:mod:`web.security`).

=======================================  ==============================================
``GET  /api/teach``                      ``{"on", "dice": [{"index", "kind", "name", "sides",
                                         "read", "value", "fixed", "crop"}] (the throw held),
                                         "kinds": [{"kind", "name", "examples": {value: count},
                                         "count", "count_text", "lacking": [values],
                                         "lacking_text"}], "can_throw", "why_not"}`` (the camera
                                         throws the set itself: ``POST /api/throw``, the round's;
                                         why no round can start, or null)
``POST /api/teach/start``                every throw is the round's (``{}``); 409 no camera
``POST /api/teach/stop``                 back to the preset armed before; a throw held is dropped
``POST /api/teach/dice/<index>``         ``{"value": n}`` the die shows n (a d10's 0 is 10); 400 a
                                         value not on that die, 404 no such die
``POST /api/teach/confirm``              ``{"who"?}`` the throw is right: its dice become examples;
                                         400 a die without a value, 409 no throw held, 503 not saved
``POST /api/teach/skip``                 drop the throw held, if any: the next one is read
=======================================  ==============================================
"""

from __future__ import annotations

from babel.lists import format_list
from flask import Blueprint, jsonify
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from . import security
from .api import controller
from .dice_stats import kind_word
from .errors import Conflict, refusals
from .inputs import json_body, name_text, only_keys, whole_number
from .messages import translated

bp = Blueprint("teach", __name__, url_prefix="/api/teach")

MAX_FACE = 20  # the highest face of any die the readers know (a d20)


def shown_teaching(state: dict) -> dict:
    """The round's state (``Controller.teaching``) with each kind's name, its examples
    counted and the values still lacking one in words, in the request's language."""
    kinds = []
    for kind, examples in sorted(state["examples"].items()):
        lacking = state["lacking"].get(kind, [])
        listed = format_list([str(v) for v in lacking], locale=get_locale() or "en")
        kinds.append({"kind": kind, "name": kind_word(kind), "examples": examples,
                      "count": sum(examples.values()),
                      "count_text": ngettext("%(num)d example", "%(num)d examples", sum(examples.values())),
                      "lacking": lacking,
                      "lacking_text": _("no example yet of %(values)s", values=listed) if lacking
                      else _("every value has an example")})
    dice = [{**die, "name": kind_word(die["kind"])} for die in state["dice"]]
    return {"on": state["on"], "dice": dice, "kinds": kinds, "can_throw": state["can_throw"],
            "why_not": state["why_not"] and translated(state["why_not"])}


def _answer(call) -> object:
    with refusals(unknown=Conflict):
        return jsonify(shown_teaching(call()))


@bp.get("")
def teaching():
    return jsonify(shown_teaching(controller().teaching()))


@bp.post("/start")
@security.requires_pin
def start():
    only_keys(json_body(), set())
    return _answer(controller().start_teaching)


@bp.post("/stop")
@security.requires_pin
def stop():
    only_keys(json_body(), set())
    return _answer(controller().stop_teaching)


@bp.post("/dice/<int:index>")
@security.requires_pin
def fix(index: int):
    body = json_body()
    only_keys(body, {"value"})
    value = whole_number(body.get("value"), "value", 0, MAX_FACE)
    with refusals(not_found=_("no die %(n)d in the throw", n=index + 1)):
        return jsonify(shown_teaching(controller().fix_taught_die(index, value)))


@bp.post("/confirm")
@security.requires_pin
def confirm():
    body = json_body()
    only_keys(body, {"who"})
    who = name_text(body.get("who"), "who")
    return _answer(lambda: controller().confirm_taught_throw(who=who))


@bp.post("/skip")
@security.requires_pin
def skip():
    only_keys(json_body(), set())
    return _answer(controller().skip_taught_throw)
