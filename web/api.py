"""The JSON API (blueprint ``api``, under ``/api``): everything the page does.

Answers are JSON; failures are ``{"error": reason}`` (see :mod:`web.errors`); a save
that failed or a history that cannot be read is 503 with the reason, nothing changed.
Control actions (marked *PIN*) need the PIN when one is set (see :mod:`web.security`);
every POST must be same-origin.

=======================================  ==============================================
``GET  /api/state``                      controller state: state, preset, roller, prompt,
                                         needs, camera {status, message, reason, text (its
                                         words: web.messages.shown_camera), can_throw},
                                         latest_roll, current_roll (the id of the roll
                                         under way, the one that takes throws; null), odds
``GET  /api/presets``                    ``{"presets": [{name, label, system, sides, count, spec}]}``
``POST /api/arm``                        *PIN* ``{"preset": name, "roller"?: str}`` → state
``POST /api/throw``                      *PIN* the next throw (sim/file cameras; the teaching
                                         round's while it is on) → state; 409 on a real camera
``POST /api/read``                       *PIN* read the tray now → state
``POST /api/dice``                       *PIN* dice by hand ``{"values": [int], "roller"?}`` → state;
                                         400 a face the armed preset's dice do not show, 409 none armed
``GET  /api/rolls``                      ``?limit=20&offset=0&player=&preset=`` →
                                         ``{"rolls": [roll, newest first], "limit", "offset",
                                         "next_offset": int|null}``
``GET  /api/rolls/<id>``                 one roll; 404 unknown
``POST /api/rolls/<id>/dice/<index>``    *PIN* correction ``{"value": n}`` or ``{"cocked": true}``,
                                         ``"who"?: str`` → the updated roll; 400 for no change, or
                                         a change that would leave a finished past roll waiting
                                         for dice (only the current roll asks for them)
``POST /api/rolls/<id>/principal``       *PIN* ``{"index": i, "who"?}`` → the updated roll; 400 as
                                         above, or when die ``i`` is already the principal die
``GET  /api/rolls/<id>/photo``           the annotated photo (``?annotated=0``: as taken)
``GET  /api/rolls.csv``, ``.json``       the whole history (same filters), as a download; each
                                         roll's ``label``, the one it was rolled under; in
                                         the JSON each roll has its ``examples`` (issue 17:
                                         the dice its corrections taught, :mod:`web.examples`)
``POST /api/history/clear``              *PIN* forget every roll → ``{"cleared": true}``
``GET  /api/dice-stats``                 ``?kind=&player=`` the table's dice per kind ("Your dice",
                                         :mod:`web.dice_stats`): ``{"kinds": [{"kind", "sides",
                                         "dice", "read", "right", "corrected", "unreadable",
                                         "by_hand", "faces", "taught", "fairness", "words"}],
                                         "alpha", "power"}``; 400 an unknown kind or parameter
``GET  /api/frame/latest``               latest frame ``{"image": JPEG data URL, "width",
                                         "height", "reading": tray reading|null}``; 404 none yet;
                                         width/height: the frame's pixels (the space of the
                                         reading's boxes); the image is scaled to ≤ 1280 px
``GET  /api/setup``                      the camera's setup: the latest frame with its dice's boxes
                                         ``{"image": JPEG data URL, "width", "height", "die_px":
                                         int|null, "fit": "ok"|"small"|"large"|"none", "advice"}``;
                                         404 no frame yet (the controller's ``setup_view``)
``GET  /api/events``                     server-sent events (:mod:`web.events`)
=======================================  ==============================================

The settings and the PIN (``/api/settings``, ``/api/login``, ``/api/logout``) are
:mod:`web.settings`'s; the table's dice :mod:`web.examples`'s; the teaching round
:mod:`web.teach`'s.
"""

from __future__ import annotations

import base64
import csv
import io
import json
from collections.abc import Iterator

from flask import Blueprint, current_app, jsonify, request, send_file
from flask_babel import gettext as _

from . import security
from .controller import Controller
from .dice_stats import shown_dice_stats
from .errors import BadRequest, Conflict, NotFound, refusals
from .export import CSV_COLUMNS, all_rolls, csv_row, download, examples_by_roll, first_checked
from .inputs import (
    MAX_ID,
    face_value,
    json_body,
    name_text,
    only_keys,
    only_query,
    query_flag,
    query_name,
    query_number,
    whole_number,
)
from .messages import needs_text, reason, roll_label, shown_roll, shown_state, translated

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_PAGE = 500          # the history's own bound on one page (device/history.py)
MAX_OFFSET = 10**12
MAX_DICE = 100          # dice in one throw; no roll asks for more (rules MAX_DICE, MAX_POOL: RULES P-11)
FRAME_MAX_SIDE = 1280   # pixels of the latest-frame picture sent to a phone


def controller() -> Controller:
    """The controller handed to :func:`web.create_app`."""
    return current_app.extensions["dicelens.controller"]


def _roll_or_404(roll_id: int) -> dict:
    message = _("no roll %(id)d", id=roll_id)
    if roll_id > MAX_ID:
        raise NotFound(message)
    with refusals(not_found=message):
        return controller().roll(roll_id)


# --- state and presets -------------------------------------------------------------

@bp.get("/state")
def state():
    return jsonify(shown_state(controller().state()))


@bp.get("/presets")
def presets():
    return jsonify(presets=controller().presets())


@bp.post("/arm")
@security.requires_pin
def arm():
    body = json_body()
    only_keys(body, {"preset", "roller"})
    preset = body.get("preset")
    if not isinstance(preset, str) or not preset.strip() or len(preset) > 200:
        raise BadRequest(_("preset must be the name of a preset"))
    roller = name_text(body.get("roller"), "roller")
    known = {p["name"] for p in controller().presets()}
    if preset not in known:
        raise BadRequest(_("unknown preset: %(name)s", name=preset))
    with refusals():
        return jsonify(shown_state(controller().arm(preset, roller)))


@bp.post("/throw")
@security.requires_pin
def throw():
    only_keys(json_body(), set())
    with refusals():
        controller().throw()
    return jsonify(shown_state(controller().state()))


@bp.post("/read")
@security.requires_pin
def read_now():
    only_keys(json_body(), set())
    with refusals():
        controller().read_now()
    return jsonify(shown_state(controller().state()))


@bp.post("/dice")
@security.requires_pin
def dice_by_hand():
    body = json_body()
    only_keys(body, {"values", "roller"})
    values = body.get("values")
    if not isinstance(values, list) or not 1 <= len(values) <= MAX_DICE:
        raise BadRequest(_("values must be a list of 1 to %(count)d face values", count=MAX_DICE))
    ctl = controller()
    armed = next((p for p in ctl.presets() if p["name"] == ctl.state()["preset"]), None)
    if armed is None:
        raise Conflict(_("no roll armed: choose a preset first"))
    values = [face_value(v, armed["sides"]) for v in values]
    roller = name_text(body.get("roller"), "roller")
    with refusals():
        return jsonify(shown_state(controller().enter_dice(values, roller=roller)))


# --- history -----------------------------------------------------------------------

FILTERS = ("player", "preset")  # the history's filters, as query parameters


def _filters() -> dict:
    return {name: query_name(name) for name in FILTERS}


def page_of_rolls(limit: int, offset: int, **filters) -> tuple[list[dict], int | None]:
    """One page of the history, newest first, and the offset of the next page (None: last).

    Asks the controller for exactly ``limit`` rolls (≤ :data:`MAX_PAGE`, the history's
    own bound) and probes one roll further, so a page as large as the API allows is
    never more than the history accepts. The controller's errors become 4xx answers.
    """
    ctl = controller()
    with refusals():
        page = ctl.rolls(limit=limit, offset=offset, **filters)
        more = len(page) == limit and bool(ctl.rolls(limit=1, offset=offset + limit, **filters))
    return [shown_roll(roll) for roll in page], offset + limit if more else None


@bp.get("/rolls")
def rolls():
    only_query("limit", "offset", *FILTERS)
    limit = query_number("limit", 20, 1, MAX_PAGE)
    offset = query_number("offset", 0, 0, MAX_OFFSET)
    page, next_offset = page_of_rolls(limit, offset, **_filters())
    return jsonify(rolls=page, limit=limit, offset=offset, next_offset=next_offset)


@bp.get("/rolls/<int:roll_id>")
def roll(roll_id: int):
    return jsonify(shown_roll(_roll_or_404(roll_id)))


def _die_index(roll: dict, index: int) -> int:
    if index >= len(roll["dice"]):
        raise NotFound(_("roll %(id)d has no die %(index)d", id=roll["id"], index=index))
    return index


@bp.post("/rolls/<int:roll_id>/dice/<int:index>")
@security.requires_pin
def correct_die(roll_id: int, index: int):
    body = json_body()
    only_keys(body, {"value", "cocked", "who", "more"})
    roll = _roll_or_404(roll_id)
    index = _die_index(roll, index)
    who = name_text(body.get("who"), "who")
    cocked = body.get("cocked", False)
    if not isinstance(cocked, bool):
        raise BadRequest(_("cocked must be true or false"))
    if cocked == ("value" in body and body["value"] is not None):
        raise BadRequest(_("give either a value or cocked: true"))
    sides = 10 if roll["system"] == "pool" else 6
    value = None if cocked else face_value(body["value"], sides)
    # The dice a finished roll asks for after this correction (an extra die corrected to 6, RULES D6-4).
    more = body.get("more")
    if more is not None:
        if not isinstance(more, list) or not 1 <= len(more) <= MAX_DICE:
            raise BadRequest(_("more must be a list of 1 to %(count)d face values", count=MAX_DICE))
        more = [face_value(v, sides) for v in more]
    with refusals(not_found=_("no roll %(id)d", id=roll_id)):
        try:
            extra = {"more": more} if more else {}
            return jsonify(shown_roll(controller().correct(roll_id, index, value=value, cocked=cocked, who=who,
                                                           **extra)))
        except ValueError as exc:
            needs = getattr(exc, "needs", None)
            if not isinstance(needs, dict):
                raise
            # 409 with what it needs: the page asks for those dice and sends them with the correction
            return jsonify(error=reason(exc), needs=needs, needs_text=needs_text(needs)), 409


@bp.post("/rolls/<int:roll_id>/principal")
@security.requires_pin
def set_principal(roll_id: int):
    body = json_body()
    only_keys(body, {"index", "who"})
    roll = _roll_or_404(roll_id)
    index = whole_number(body.get("index"), "index", 0, MAX_DICE)
    index = _die_index(roll, index)
    who = name_text(body.get("who"), "who")
    with refusals(not_found=_("no roll %(id)d", id=roll_id)):
        return jsonify(shown_roll(controller().set_principal(roll_id, index, who=who)))


@bp.get("/rolls/<int:roll_id>/photo")
def photo(roll_id: int):
    only_query("annotated", "seq")  # seq: the live page's, a new URL for each version of the roll
    annotated = query_flag("annotated", True)
    if roll_id > MAX_ID:
        raise NotFound(_("no roll %(id)d", id=roll_id))
    with refusals(not_found=_("no roll %(id)d", id=roll_id)):
        path = controller().photo_path(roll_id, annotated=annotated)
    # The path comes from the controller, by id: nothing in the request names a file.
    if path is None or not path.is_file():
        raise NotFound(_("roll %(id)d has no photo", id=roll_id))
    return send_file(path, max_age=3600)


@bp.post("/history/clear")
@security.requires_pin
def clear_history():
    only_keys(json_body(), set())
    controller().clear_history()
    return jsonify(cleared=True)


@bp.get("/rolls.csv")
def export_csv():
    only_query(*FILTERS)
    rolls = first_checked(all_rolls(controller(), **_filters()))

    def lines() -> Iterator[str]:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(CSV_COLUMNS)
        for item in rolls:
            writer.writerow(csv_row(item))
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
        yield buffer.getvalue()

    return download("text/csv", "csv", lines())


@bp.get("/rolls.json")
def export_json():
    only_query(*FILTERS)
    rolls = first_checked(all_rolls(controller(), **_filters()))
    with refusals():
        taught = examples_by_roll(controller())

    def chunks() -> Iterator[str]:
        yield "["
        for number, item in enumerate(rolls):
            yield ("," if number else "") + "\n" + json.dumps({**item, "label": roll_label(item),
                                                                  "examples": taught.get(item["id"], [])})
        yield "\n]\n"

    return download("application/json", "json", chunks())


# --- the table's dice, in numbers -------------------------------------------------

@bp.get("/dice-stats")
def dice_stats():
    only_query("kind", "player")
    player = query_name("player")
    with refusals():
        stats = shown_dice_stats(controller().dice_stats(player=player))
    kind = request.args.get("kind")
    if kind is not None:
        known = [k["kind"] for k in stats["kinds"]]
        if kind not in known:
            raise BadRequest(_("kind must be one of %(kinds)s", kinds=", ".join(known)))
        stats["kinds"] = [k for k in stats["kinds"] if k["kind"] == kind]
    return jsonify(stats)


# --- the latest frame, for picking the principal colour ----------------------------

@bp.get("/frame/latest")
def latest_frame():
    try:  # scaled down: a full-resolution Pi frame would be megabytes on a phone
        latest = controller().latest_frame_jpeg(FRAME_MAX_SIDE)
    except ValueError:
        raise Conflict(_("the latest frame could not be encoded")) from None
    if latest is None:
        raise NotFound(_("no frame from the camera yet"))
    jpeg, frame = latest
    return jsonify(image="data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii"), **frame)


@bp.get("/setup")
def camera_setup():
    try:
        view = controller().setup_view()
    except ValueError as exc:
        raise Conflict(_("the latest frame could not be encoded")) from exc
    if view is None:
        raise NotFound(_("no frame from the camera yet"))
    return jsonify(image="data:image/jpeg;base64," + base64.b64encode(view["jpeg"]).decode("ascii"),
                   width=view["width"], height=view["height"], die_px=view["die_px"], fit=view["fit"],
                   advice=translated(view["advice"]))
