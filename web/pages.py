"""The pages phones open (blueprint ``pages``); the templates are in ``web/templates/``.

Every template also gets, from :mod:`web.i18n`: ``_``/``gettext``/``ngettext``,
``current_locale``, ``html_lang``, ``locales``; and from :func:`web.create_app`:
``pin_required`` (a PIN is set), ``authorized`` (this phone may run control
actions), ``heartbeat_seconds``, and ``api`` (a dict of API URLs:
``state``, ``events``, ``presets``, ``arm``, ``throw``, ``read``, ``dice``, ``rolls``,
``settings``, ``login``, ``logout``, ``frame``, ``clear``, ``export_csv``, ``export_json``).

============  ===============  ==========================================================
route         template         context
============  ===============  ==========================================================
``/``         index.html       ``state`` (GET /api/state), ``presets`` (list)
``/history``  history.html     ``rolls`` (newest first, one page), ``player``, ``preset``
                               (the filters, str|None), ``limit``, ``offset``,
                               ``next_offset``/``prev_offset`` (int|None), ``presets``,
                               ``export_query`` (the filters as a query string, for the
                               CSV/JSON links)
``/settings`` settings.html    ``settings`` (as GET /api/settings, without the PIN),
                               ``presets``
============  ===============  ==========================================================

The history page takes ``?limit=&offset=&player=&preset=`` like ``GET /api/rolls``;
bad values answer 400.
"""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, render_template

from .api import MAX_OFFSET, controller, page_of_rolls, public_settings
from .inputs import query_name, query_number

bp = Blueprint("pages", __name__)

HISTORY_PAGE = 25


@bp.get("/")
def index():
    ctl = controller()
    return render_template("index.html", state=ctl.state(), presets=ctl.presets())


@bp.get("/history")
def history():
    limit = query_number("limit", HISTORY_PAGE, 1, 200)
    offset = query_number("offset", 0, 0, MAX_OFFSET)
    player, preset = query_name("player"), query_name("preset")
    ctl = controller()
    page, next_offset = page_of_rolls(limit, offset, player=player, preset=preset)
    filters = {key: value for key, value in (("player", player), ("preset", preset)) if value}
    return render_template(
        "history.html",
        rolls=page,
        player=player,
        preset=preset,
        limit=limit,
        offset=offset,
        next_offset=next_offset,
        prev_offset=max(0, offset - limit) if offset else None,
        presets=ctl.presets(),
        export_query=urlencode(filters),
    )


@bp.get("/settings")
def settings():
    return render_template("settings.html", settings=public_settings(), presets=controller().presets())
