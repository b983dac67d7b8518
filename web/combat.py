"""The combat page and its JSON API (blueprint ``combat``): a Destiny Dice fight (RULES.md §3)
run from every phone at the table.

The fight itself is the device's combat session (``device/combat/``), handed to the
app with :func:`attach` and kept in ``app.extensions["dicelens.combat"]``; without one
every route answers 404. Every answer of a POST is the whole state (as ``GET
/api/combat``); failures are ``{"error": reason}``: 400 malformed input or a step the
rules refuse, 409 a step the fight's state does not allow now (the fight is over,
another fighter's turn, an attack under way: ``rules.errors.NotNow``), 404 an unknown
fighter or sheet, 401 PIN (every POST is *PIN*, see :mod:`web.security`).

=======================================  ==============================================
``GET  /combat``                         the page (combat.html, :mod:`web.pages`)
``GET  /api/combat``                     state: ``{"log_size", "seq", "encounter", "groups", "attack",
                                         "last_attack", "can_undo", "heroes", "bestiary",
                                         "conditions", "options", "tray",
                                         "last_attack_correctable", "from_sheets",
                                         "names_shown"}`` (the page's words:
                                         :func:`web.messages.shown_fight`)
``GET  /api/combat/events``              server-sent events: ``event: combat``, ``id:`` seq,
                                         ``data:`` the state; first one at once, then one
                                         per step; a heartbeat comment when idle
``POST /api/combat/heroes``              ``{"sheet": saved hero name, "initiative"?}``
``POST /api/combat/enemies``             ``{"sheet": bestiary name, "count"?: 1–10, "initiatives"?: [int]}``
``POST /api/combat/participants``        ``{"sheet": {name, body, mind, soul, pv, ...}, "side",
                                         "initiative"?, "save"?: bool}``
``POST /api/combat/saved-heroes``        ``{"sheet": {...}}`` keep a hero for the next fights
``POST /api/combat/remove``              ``{"name"}``
``POST /api/combat/initiative/tap``      ``{"name", "value": Mind die | null}`` one fighter's Mind die tapped
                                         before the fight starts, in every phone's state
                                         (``tray.tapped``); null takes it back
``POST /api/combat/initiative``          ``{"values": {name: Mind die}}`` starts the fight
``POST /api/combat/reorder``             ``{"order": [names]}`` within tie groups
``POST /api/combat/next-turn``           ``{}``
``POST /api/combat/poison``              ``{"value"}`` the poison die at the start of a turn
``POST /api/combat/attack``              ``{"attacker", "defender", "ranged"?, "attack_modifier"?,
                                         "damage_bonus"?}`` begins an attack
``POST /api/combat/attack/dice``         ``{"values": [int]}`` the throw ``attack.needs`` asks for
``POST /api/combat/attack/correct``      ``{"throw": "attack"|"defence"|"damage", "index": 0|1, "value"}`` one die
                                         of the attack under way, or of the last one right after it
``POST /api/combat/attack/cancel``       ``{}``
``POST /api/combat/tray``                ``{"step": "attack"}`` or ``{"step": "initiative", "name"}``: the
                                         next throw settled in the tray fills the step
``POST /api/combat/tray/cancel``         ``{}`` stop waiting for the tray
``POST /api/combat/tray/top``            ``{"value"}`` the top face of the die the last throw showed
                                         leaning (RULES T-5 accept_leaning); 400 when none leans
``POST /api/combat/help``                ``{"helper", "ally", "bonus"?: 1|2}``
``POST /api/combat/damage``, ``/heal``   ``{"name", "amount", "reason"?}``
``POST /api/combat/conditions``          ``{"name", "condition": {"name", "duration"?, "poison"?,
                                         "poison_die"?, "source"?}}``
``POST /api/combat/cure``                ``{"name", "condition"}``
``POST /api/combat/energy``              ``{"name", "energy": "EC"|"EM"|"EA", "amount"?}``
``POST /api/combat/rest``                ``{"name", "kind": "short"|"long", "roll"?: d4 (short)}``
``POST /api/combat/end-scene``           ``{}``  heroes out of combat wake with 1 PV, the defeated leave
``POST /api/combat/new-fight``           ``{}``  forget the fight and its log
``POST /api/combat/undo``                ``{}``  the last step, once
``POST /api/combat/options``             *PIN* ``{"ties_favour_defender"?, "defensive_fumble_on_hit"?}``: the
                                         fight's house rules (RULES DD-5, DD-8)
=======================================  ==============================================
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify
from flask_babel import gettext as _

from . import combat_inputs as check
from . import security
from .controller import Fight
from .errors import BadRequest, NotFound, Unavailable, refusals
from .events import StreamCounter, format_event, sse_response
from .inputs import json_body, name_text, only_keys, whole_number
from .messages import fighter_names, in_request_language, shown_fight

bp = Blueprint("combat", __name__)

EXTENSION = "dicelens.combat"
MAX_FIGHTERS = 40


def attach(app: Flask, session: Fight) -> Flask:
    """Give ``app`` the combat session (``device.combat.CombatSession``); returns ``app``."""
    app.extensions[EXTENSION] = session
    return app


def session() -> Fight:
    """The combat session, or 404 when the app was built without one."""
    found = current_app.extensions.get(EXTENSION)
    if found is None:
        raise NotFound(_("no fight is kept on this companion"))
    return found


def _step(action: Callable[..., dict], *args: Any, **kwargs: Any):
    with refusals(unknown=NotFound, names=fighter_names(session().from_sheets())):
        result = action(*args, **kwargs)
    return jsonify(shown_fight(result) if isinstance(result, dict) and "tray" in result else result)


def _fighter(body: dict, key: str = "name") -> str:
    """A fighter's name from the body: 400 malformed, 404 no such fighter."""
    name = name_text(body.get(key), key, optional=False)
    if name not in session().names():
        raise NotFound(_("no fighter called %(name)s", name=name))
    return name


# --- the page and the state ------------------------------------------------------------

@bp.get("/api/combat")
def state():
    return jsonify(shown_fight(session().state()))


def stream(fight: Fight, heartbeat: float, retry_ms: int,
           shown: Callable[[dict], dict] = lambda state: state) -> Iterator[str]:
    """The event stream of one page: the state at once, then after every step (see the table
    above), each as ``shown`` puts it (the page's words added, in this phone's language)."""
    subscription = fight.subscribe()  # before the state: no step between them is lost
    try:
        yield f"retry: {retry_ms}\n\n"
        current = fight.state()
        sent = current["seq"]
        yield format_event("combat", shown(current), sent)
        while True:
            event = subscription.get(timeout=heartbeat)
            if getattr(subscription, "ended", False):  # the server is stopping
                return
            if event is None:
                yield ": heartbeat\n\n"
            elif event.seq > sent:  # every event is the whole state: a dropped one costs nothing
                sent = event.seq
                yield format_event("combat", shown(event.data), sent)
    finally:
        subscription.close()


@bp.get("/api/combat/events")
def events():
    fight = session()
    counter: StreamCounter = current_app.extensions["dicelens.streams"]
    if not counter.acquire():
        raise Unavailable(_("too many open pages; try again shortly"))
    config = current_app.config
    return sse_response(stream(fight, float(config["HEARTBEAT_SECONDS"]), int(config["SSE_RETRY_MS"]),
                               in_request_language(shown_fight)), counter.release)


# --- setting up --------------------------------------------------------------------------

@bp.post("/api/combat/heroes")
@security.requires_pin
def add_hero():
    body = json_body()
    only_keys(body, {"sheet", "initiative"})
    sheet = name_text(body.get("sheet"), "sheet", optional=False)
    return _step(session().add_hero, sheet, check.initiative(body))


@bp.post("/api/combat/enemies")
@security.requires_pin
def add_enemy():
    body = json_body()
    only_keys(body, {"sheet", "count", "initiatives"})
    sheet = name_text(body.get("sheet"), "sheet", optional=False)
    count = check.number(body, "count", 1, 10, 1)
    initiatives = body.get("initiatives")
    if initiatives is not None:
        if not isinstance(initiatives, list) or len(initiatives) != count:
            raise BadRequest(_("initiatives must be a list of one value per enemy"))
        # a d10's 0 (RULES P-1)
        initiatives = [whole_number(v, "initiatives", 0, check.highest_face()) for v in initiatives]
    return _step(session().add_enemy, sheet, count, initiatives)


@bp.post("/api/combat/participants")
@security.requires_pin
def add_participant():
    body = json_body()
    only_keys(body, {"sheet", "side", "initiative", "save"})
    side = body.get("side")
    if side not in ("hero", "enemy"):
        raise BadRequest(_("side must be hero or enemy"))
    return _step(session().add_participant, check.sheet(body.get("sheet")), side, check.initiative(body),
                 bool(check.flag(body, "save")))


@bp.post("/api/combat/saved-heroes")
@security.requires_pin
def save_hero():
    body = json_body()
    only_keys(body, {"sheet"})
    return _step(session().save_hero, check.sheet(body.get("sheet")))


@bp.post("/api/combat/remove")
@security.requires_pin
def remove():
    body = json_body()
    only_keys(body, {"name"})
    return _step(session().remove, _fighter(body))


@bp.post("/api/combat/initiative")
@security.requires_pin
def initiative():
    body = json_body()
    only_keys(body, {"values"})
    values = body.get("values")
    if not isinstance(values, dict) or not 1 <= len(values) <= MAX_FIGHTERS:
        raise BadRequest(_("values must be an object of fighter name: Mind die"))
    checked = {}
    for name, value in values.items():
        # a d10's 0 (RULES P-1)
        checked[_fighter({"name": name})] = whole_number(value, "values", 0, check.highest_face())
    return _step(session().roll_initiative, checked)


@bp.post("/api/combat/initiative/tap")
@security.requires_pin
def tap_initiative():
    body = json_body()
    only_keys(body, {"name", "value"})
    if "value" not in body:
        raise BadRequest(_("value is missing: the Mind die tapped, or null to take it back"))
    value = body["value"]
    if value is not None:  # a d10's 0 (RULES P-1); the fighter's own die is checked by the session
        value = whole_number(value, "value", 0, check.highest_face())
    return _step(session().tap_initiative, _fighter(body), value)


@bp.post("/api/combat/reorder")
@security.requires_pin
def reorder():
    body = json_body()
    only_keys(body, {"order"})
    order = body.get("order")
    if not isinstance(order, list) or not 1 <= len(order) <= MAX_FIGHTERS:
        raise BadRequest(_("order must be the list of every fighter's name"))
    return _step(session().reorder, [_fighter({"name": name}) for name in order])


# --- turns and attacks -------------------------------------------------------------------

@bp.post("/api/combat/next-turn")
@security.requires_pin
def next_turn():
    only_keys(json_body(), set())
    return _step(session().next_turn)


@bp.post("/api/combat/poison")
@security.requires_pin
def poison():
    body = json_body()
    only_keys(body, {"value"})
    return _step(session().poison_roll, whole_number(body.get("value"), "value", 0, check.highest_face()))  # a d10's 0


@bp.post("/api/combat/attack")
@security.requires_pin
def start_attack():
    body = json_body()
    only_keys(body, {"attacker", "defender", "ranged", "attack_modifier", "damage_bonus"})
    attacker, defender = _fighter(body, "attacker"), _fighter(body, "defender")
    return _step(session().start_attack, attacker, defender, ranged=check.flag(body, "ranged"),
                 attack_modifier=check.number(body, "attack_modifier", -check.MAX_NUMBER, check.MAX_NUMBER, 0),
                 damage_bonus=check.number(body, "damage_bonus", 0, check.MAX_NUMBER, 0))


@bp.post("/api/combat/attack/dice")
@security.requires_pin
def attack_dice():
    body = json_body()
    only_keys(body, {"values"})
    values = body.get("values")
    if not isinstance(values, list) or not 1 <= len(values) <= 2:
        raise BadRequest(_("values must be a list of the 1 or 2 dice asked for"))
    attack = session().state()["attack"]
    sides = attack["needs"]["dice"] if attack and attack["needs"] else []
    if len(sides) == len(values):
        values = [check.face(value, die) for value, die in zip(values, sides, strict=True)]
    else:  # no attack, or the wrong number of dice: the session says which
        values = [whole_number(v, "values", 1, 20) for v in values]
    return _step(session().attack_dice, values)


@bp.post("/api/combat/attack/correct")
@security.requires_pin
def correct_attack():
    body = json_body()
    only_keys(body, {"throw", "index", "value"})
    throw = body.get("throw")
    if throw not in ("attack", "defence", "damage"):
        raise BadRequest(_("throw must be attack, defence or damage"))
    index = whole_number(body.get("index"), "index", 0, 1)
    state = session().state()
    attack = state["attack"] or (state["last_attack"] if state["last_attack_correctable"] else None)
    if attack is None:  # nothing to correct: the session says so
        value = whole_number(body.get("value"), "value", 1, 20)
    else:
        spec = attack["spec"]
        value = check.face(body.get("value"), 20 if index else
                      spec["defence_die"] if throw == "defence" else spec["attacker_die"])
    return _step(session().correct_attack, throw, index, value)


@bp.post("/api/combat/tray")
@security.requires_pin
def read_tray():
    body = json_body()
    only_keys(body, {"step", "name"})
    step = body.get("step")
    if step == "attack":
        if body.get("name") is not None:
            raise BadRequest(_("an attack is read from the tray without a name"))
        return _step(session().read_tray, "attack")
    if step != "initiative":
        raise BadRequest(_("step must be attack or initiative"))
    return _step(session().read_tray, "initiative", _fighter(body))


@bp.post("/api/combat/tray/top")
@security.requires_pin
def tray_top_face():  # RULES T-5 accept_leaning: the top face of the die the tray shows leaning
    body = json_body()
    only_keys(body, {"value"})
    return _step(session().enter_top_face, whole_number(body.get("value"), "value", 1, 20))


@bp.post("/api/combat/tray/cancel")
@security.requires_pin
def cancel_tray():
    only_keys(json_body(), set())
    return _step(session().cancel_tray)


@bp.post("/api/combat/attack/cancel")
@security.requires_pin
def cancel_attack():
    only_keys(json_body(), set())
    return _step(session().cancel_attack)


@bp.post("/api/combat/help")
@security.requires_pin
def help_ally():
    body = json_body()
    only_keys(body, {"helper", "ally", "bonus"})
    helper, ally = _fighter(body, "helper"), _fighter(body, "ally")
    return _step(session().help, helper, ally, check.number(body, "bonus", 1, 2, 1))


@bp.post("/api/combat/damage")
@security.requires_pin
def damage():
    body = json_body()
    only_keys(body, {"name", "amount", "reason"})
    name = _fighter(body)
    return _step(session().damage, name, whole_number(body.get("amount"), "amount", 1, check.MAX_NUMBER),
                 name_text(body.get("reason"), "reason"))


@bp.post("/api/combat/heal")
@security.requires_pin
def heal():
    body = json_body()
    only_keys(body, {"name", "amount", "reason"})
    name = _fighter(body)
    return _step(session().heal, name, whole_number(body.get("amount"), "amount", 1, check.MAX_NUMBER),
                 name_text(body.get("reason"), "reason"))


@bp.post("/api/combat/conditions")
@security.requires_pin
def add_condition():
    body = json_body()
    only_keys(body, {"name", "condition"})
    name = _fighter(body)
    given = body.get("condition")
    if not isinstance(given, dict):
        raise BadRequest(_("condition must be an object with a name"))
    only_keys(given, {"name", "duration", "poison", "poison_die", "source"})
    condition: dict[str, Any] = {"name": name_text(given.get("name"), "condition", optional=False),
                                 "source": name_text(given.get("source"), "source")}
    duration = given.get("duration")
    if duration is not None and duration not in ("temporary", "persistent"):
        raise BadRequest(_("duration must be temporary or persistent"))
    condition["duration"] = duration
    condition["poison"] = check.number(given, "poison", 1, check.MAX_NUMBER)
    condition["poison_die"] = None if given.get("poison_die") is None else check.die(given["poison_die"], "poison_die")
    return _step(session().add_condition, name, condition)


@bp.post("/api/combat/cure")
@security.requires_pin
def cure():
    body = json_body()
    only_keys(body, {"name", "condition"})
    name = _fighter(body)
    return _step(session().cure, name, name_text(body.get("condition"), "condition", optional=False))


@bp.post("/api/combat/energy")
@security.requires_pin
def spend_energy():
    body = json_body()
    only_keys(body, {"name", "energy", "amount"})
    name = _fighter(body)
    if body.get("energy") not in ("EC", "EM", "EA"):
        raise BadRequest(_("energy must be EC, EM or EA"))
    return _step(session().spend_energy, name, body["energy"], check.number(body, "amount", 1, check.MAX_NUMBER, 1))


@bp.post("/api/combat/rest")
@security.requires_pin
def rest():
    body = json_body()
    only_keys(body, {"name", "kind", "roll"})
    name = _fighter(body)
    kind = body.get("kind")
    if kind == "long":
        if body.get("roll") is not None:
            raise BadRequest(_("a long rest needs no die"))
        return _step(session().long_rest, name)
    if kind != "short":
        raise BadRequest(_("kind must be short or long"))
    return _step(session().short_rest, name, whole_number(body.get("roll"), "roll", 1, 4))


@bp.post("/api/combat/end-scene")
@security.requires_pin
def end_scene():
    only_keys(json_body(), set())
    return _step(session().end_scene)


@bp.post("/api/combat/new-fight")
@security.requires_pin
def new_fight():
    only_keys(json_body(), set())
    return _step(session().new_fight)


@bp.post("/api/combat/options")
@security.requires_pin
def options():
    body = json_body()
    only_keys(body, {"ties_favour_defender", "defensive_fumble_on_hit"})  # RULES DD-5, DD-8
    changes = {key: check.flag(body, key) for key in body}
    return _step(session().set_options, **{key: value for key, value in changes.items() if value is not None})


@bp.post("/api/combat/undo")
@security.requires_pin
def undo():
    only_keys(json_body(), set())
    return _step(session().undo)
