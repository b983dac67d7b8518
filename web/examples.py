"""The table's dice on the page (issue 17, blueprint ``examples``, under ``/api``): a die the
reader missed tapped in on a roll's photo, and the examples the corrections made (listed,
their crops, removed). Answers and failures as :mod:`web.api`'s.

=======================================  ==============================================
``POST /api/rolls/<id>/dice``            *PIN* a die the reader missed ``{"x", "y"}`` (photo
                                         pixels), ``"value"``, ``"kind"?``, ``"who"?`` → the
                                         updated roll; 400 with the reason outside the photo,
                                         on a die there, an unknown kind or one the roll is not
                                         thrown with, or where the rules take no die more
``GET  /api/examples``                   ``{"examples": [{id, kind, name, value, box, roll, who,
                                         at}], "counts": {kind: n}, "names": {kind: name},
                                         "adaptation": {used, examples, right, shipped,
                                         why}|null}``: ``name``, the kind as the page names
                                         it in the request's language ("pip d6"); ``why``,
                                         vision's reason in that language
``GET  /api/examples/<id>/crop``         the example's crop (PNG); 404 none
``DELETE /api/examples/<id>``            *PIN* forget it (its roll stays as it is) →
                                         ``{"removed": id}``; 404 none
=======================================  ==============================================
"""

from __future__ import annotations

import io
from typing import Any

from flask import Blueprint, jsonify, send_file
from flask_babel import gettext as _

from . import security
from .api import controller
from .dice_stats import kind_word
from .errors import BadRequest, NotFound, refusals
from .inputs import MAX_ID, face_value, json_body, name_text, only_keys
from .messages import N_, shown_roll

bp = Blueprint("examples", __name__, url_prefix="/api")

MAX_PIXEL = 100_000  # no camera's photo is wider
#: vision.adapt's reasons for not using the examples (its English) → the page's words; a
#: reason not here is passed on as vision says it.
ADAPTATION_WHY = {
    "fewer than two labelled photos": N_("fewer than two labelled photos"),
    "it reads the taught photos held out no better than the shipped reader":
        N_("it reads the taught photos held out no better than the shipped reader"),
}


def _pixel(value: Any, name: str) -> float:
    """A photo coordinate: a number (whole or not) from -MAX_PIXEL to MAX_PIXEL; the controller
    says whether it is inside the photo."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not -MAX_PIXEL <= value <= MAX_PIXEL:
        raise BadRequest(_("%(name)s must be a number of photo pixels", name=name))
    return float(value)


@bp.post("/rolls/<int:roll_id>/dice")
@security.requires_pin
def add_die(roll_id: int):
    body = json_body()
    only_keys(body, {"x", "y", "value", "kind", "who"})
    not_found = _("no roll %(id)d", id=roll_id)
    if roll_id > MAX_ID:
        raise NotFound(not_found)
    with refusals(not_found=not_found):
        roll = controller().roll(roll_id)
    x, y = _pixel(body.get("x"), "x"), _pixel(body.get("y"), "y")
    value = face_value(body.get("value"), 10 if roll["system"] == "pool" else 6)
    kind = body.get("kind")
    if kind is not None and (not isinstance(kind, str) or not 0 < len(kind) <= 20):
        raise BadRequest(_("kind must be the name of a kind of die, as d6-pips or d10"))
    who = name_text(body.get("who"), "who")
    with refusals(not_found=not_found):
        return jsonify(shown_roll(controller().add_die(roll_id, x, y, value, kind=kind, who=who)))


@bp.get("/examples")
def examples():
    with refusals():
        listed = controller().examples()
    examples = [{**example, "name": kind_word(example["kind"])} for example in listed["examples"]]
    names = {kind: kind_word(kind) for kind in {*listed["counts"], *(e["kind"] for e in examples)}}
    fitted = listed["adaptation"]
    if fitted and fitted.get("why") in ADAPTATION_WHY:
        fitted = {**fitted, "why": _(ADAPTATION_WHY[fitted["why"]])}
    return jsonify({**listed, "examples": examples, "names": names, "adaptation": fitted})


def _no_example(example_id: int) -> str:
    message = _("no example %(id)d", id=example_id)
    if example_id > MAX_ID:
        raise NotFound(message)
    return message


@bp.get("/examples/<int:example_id>/crop")
def example_crop(example_id: int):
    with refusals(not_found=_no_example(example_id)):
        crop = controller().example_crop(example_id)
    return send_file(io.BytesIO(crop), mimetype="image/png", max_age=3600)


@bp.delete("/examples/<int:example_id>")
@security.requires_pin
def remove_example(example_id: int):
    with refusals(not_found=_no_example(example_id)):
        controller().remove_example(example_id)
    return jsonify(removed=example_id)
