"""The pages phones open (blueprint ``pages``); the templates are in ``web/templates/``.

Every template also gets, from :mod:`web.i18n`: ``_``/``gettext``/``ngettext``,
``current_locale``, ``html_lang``, ``locales``; and from :func:`web.create_app`:
``pin_required`` (a PIN is set), ``authorized`` (this phone may run control
actions), ``heartbeat_seconds``, and ``api`` (a dict of API URLs:
``state``, ``events``, ``presets``, ``arm``, ``throw``, ``read``, ``dice``, ``rolls``,
``settings``, ``login``, ``logout``, ``frame``, ``clear``, ``export_csv``, ``export_json``,
``dice_stats``, ``teach``).

============  ===============  ==========================================================
route         template         context
============  ===============  ==========================================================
``/``         index.html       ``state`` (GET /api/state), ``presets`` (list)
``/history``  history.html     ``rolls`` (newest first, one page), ``problem`` (str|None),
                               ``player``, ``preset``
                               (the filters, str|None), ``limit``, ``offset``,
                               ``next_offset``/``prev_offset`` (int|None), ``presets``,
                               ``export_query`` (the filters as a query string, for the
                               CSV/JSON links)
``/settings`` settings.html    ``settings`` (as GET /api/settings, without the PIN),
                               ``presets``, ``has_frame`` (the camera has sent a frame:
                               only then does the page ask for its pictures)
``/dice``     dice.html        ``player`` (the filter, str|None); the figures are read from
                               ``GET /api/dice-stats`` ("Your dice", issue 17)
``/teach``    teach.html       none: the round's state is read from ``GET /api/teach``
``/combat``   combat.html      ``combat`` (GET /api/combat), ``combat_api`` (its URLs:
                               ``state``, ``events``, ``base``, ``login``),
                               ``characteristic_sides`` (a sheet's dice, RULES §3); 404
                               without a fight (:func:`web.combat.attach`)
============  ===============  ==========================================================

The history page takes ``?limit=&offset=&player=&preset=`` like ``GET /api/rolls``.
A number out of range is brought into it (``offset=-1`` is the first page); a value
that cannot be read is answered with the page itself (status 400), saying what was
wrong in ``problem`` and showing the first page without filters.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

from flask import Blueprint, render_template, request, url_for
from flask_babel import gettext as _

from rules import destiny_spec

from . import combat
from .api import MAX_OFFSET, controller, page_of_rolls
from .errors import BadRequest
from .inputs import query_name
from .messages import shown_fight, shown_presets, shown_state
from .settings import public_settings

bp = Blueprint("pages", __name__)

HISTORY_PAGE = 25


@bp.get("/")
def index():
    ctl = controller()
    return render_template("index.html", state=shown_state(ctl.state()), presets=shown_presets(ctl.presets()))


def _page_number(name: str, default: int, low: int, high: int) -> int:
    """A number of the history page's query, brought into ``[low, high]`` (a link a page
    made, or edited by hand, still lands on a page).

    :raises BadRequest: for text that is not a whole number.
    """
    raw = (request.args.get(name) or "").strip()
    if not raw:
        return default
    if not re.fullmatch(r"[+-]?[0-9]{1,19}", raw):
        raise BadRequest(_("%(name)s must be a whole number", name=name))
    return min(max(int(raw), low), high)


@bp.get("/history")
def history():
    problem = None
    try:
        limit = _page_number("limit", HISTORY_PAGE, 1, 200)
        offset = _page_number("offset", 0, 0, MAX_OFFSET)
        player, preset = query_name("player"), query_name("preset")
    except BadRequest as exc:
        problem, limit, offset, player, preset = str(exc), HISTORY_PAGE, 0, None, None
    ctl = controller()
    page, next_offset = page_of_rolls(limit, offset, player=player, preset=preset)
    filters = {key: value for key, value in (("player", player), ("preset", preset)) if value}
    return render_template(
        "history.html",
        problem=problem,
        rolls=page,
        player=player,
        preset=preset,
        limit=limit,
        offset=offset,
        next_offset=next_offset,
        prev_offset=max(0, offset - limit) if offset else None,
        presets=ctl.presets(),
        export_query=urlencode(filters),
    ), 400 if problem else 200


@bp.get("/settings")
def settings():
    ctl = controller()
    # Before the camera's first frame the pictures' routes can only answer 404: the page
    # says "no photo yet" instead of asking.
    has_frame = ctl.latest_frame()[0] is not None
    return render_template("settings.html", settings=public_settings(), presets=ctl.presets(), has_frame=has_frame)


@bp.get("/dice")
def dice():
    """ "Your dice": the page reads its figures from GET /api/dice-stats (``?player=`` passed on)."""
    try:
        player = query_name("player")
    except BadRequest:
        player = None  # the API says why, on the page
    return render_template("dice.html", player=player)


@bp.get("/teach")
def teach():
    """The teaching round: the page reads and drives it through ``/api/teach`` (:mod:`web.teach`)."""
    return render_template("teach.html")


@bp.get("/combat")
def combat_page():
    state = shown_fight(combat.session().state())
    urls = {"state": url_for("combat.state"), "events": url_for("combat.events"),
            "base": url_for("combat.state"), "login": url_for("settings.login")}
    return render_template("combat.html", combat=state, combat_api=urls,
                           characteristic_sides=destiny_spec.CHARACTERISTIC_SIDES)
