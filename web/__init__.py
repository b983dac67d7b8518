"""The table page for phones: Flask app, JSON API and live events.

``create_app(controller, config=None)`` builds the app around the controller
(device/controller.py; what the web calls on it: :class:`web.controller.Controller`). Parts:

* :mod:`web.pages` — blueprint ``pages``: ``/`` (index.html), ``/history``
  (history.html), ``/settings`` (settings.html), ``/dice`` (dice.html, "Your dice"),
  ``/teach`` (teach.html, the teaching round), ``/combat`` (combat.html); template
  context documented there.
* :mod:`web.combat` — blueprint ``combat``: the fight's JSON API and its event stream.
* :mod:`web.api` — blueprint ``api``: the JSON API under ``/api`` (route table there);
  :mod:`web.dice_stats` words its ``/api/dice-stats``.
* :mod:`web.settings` — blueprint ``settings``: ``/api/settings`` and the PIN's ``/api/login``,
  ``/api/logout``.
* :mod:`web.teach` — blueprint ``teach``: the teaching round's API under ``/api/teach``.
* :mod:`web.events` — ``GET /api/events``, server-sent events.
* :mod:`web.security` — PIN for control actions, same-origin check for POSTs.
* :mod:`web.i18n` — Flask-Babel, locale from ``?lang=`` → cookie → Accept-Language.
* :mod:`web.health` — ``GET /healthz``: 200 or 503 with the reasons.
* :mod:`web.join` — ``GET /join.svg``: a QR code of the page's address for phones.
* ``GET /manifest.webmanifest`` — the web-app manifest (icons listed when
  ``static/icons/icon-192.png``, ``icon-512.png`` or ``icon.svg`` exist).

Configuration: :data:`DEFAULTS`, then ``DICE_*`` environment variables (JSON
values, e.g. ``DICE_HEARTBEAT_SECONDS=5``), then ``config``. Serve it with
:func:`serve` (waitress with a thread per open page plus spare ones).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from flask import Flask, current_app, jsonify, url_for
from flask.json.provider import DefaultJSONProvider

from . import api, combat, events, examples, health, join, pages, security, settings, teach
from .controller import Controller
from .errors import register_error_handlers
from .events import StreamCounter
from .i18n import init_i18n
from .messages import label_text

DEFAULTS = {
    "HEARTBEAT_SECONDS": 15.0,       # SSE comment when nothing happens; keeps Wi-Fi and proxies open
    "SSE_RETRY_MS": 2000,            # reconnect delay suggested to browsers
    "MAX_STREAMS": 64,               # open event streams (phones) at once
    "STREAM_SECONDS": 300.0,         # an event stream ends after this; the browser reconnects
    "PIN_ATTEMPTS": 5,               # wrong PINs per address before a lock-out
    "PIN_LOCKOUT_SECONDS": 60.0,
    "MAX_CONTENT_LENGTH": 256 * 1024,   # bytes of a request body (waitress refuses more by Content-Length)
    "MAX_CONNECTIONS_PER_ADDRESS": 16,   # a phone's browser opens 6 at most, plus its stream
    "REQUEST_SECONDS": 10.0,             # from a request's first byte to its last
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
    "PERMANENT_SESSION_LIFETIME": timedelta(days=30),
}
_ICONS = (("icon-192.png", "192x192", "image/png"), ("icon-512.png", "512x512", "image/png"),
          ("icon.svg", "any", "image/svg+xml"))


def create_app(controller: Controller, config: dict | None = None) -> Flask:
    """Build the web app around ``controller``.

    :param controller: the roll controller (state, presets, arm, throw, rolls,
        subscribe, ...), kept in ``app.extensions["dicelens.controller"]``.
    :param config: Flask config overriding :data:`DEFAULTS` and ``DICE_*`` variables;
        ``SECRET_KEY`` defaults to a random key per start (phones log in again
        after a restart).
    :returns: the Flask app.
    """
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.from_prefixed_env("DICE")
    app.config.update(config or {})
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secrets.token_hex(32)
    if isinstance(app.json, DefaultJSONProvider):  # Flask's own, always here
        app.json.sort_keys = False  # the order the API builds its objects in

    app.extensions["dicelens.controller"] = controller
    app.extensions["dicelens.streams"] = StreamCounter(int(app.config["MAX_STREAMS"]))
    app.extensions["dicelens.pin_attempts"] = security.PinAttempts(
        int(app.config["PIN_ATTEMPTS"]), float(app.config["PIN_LOCKOUT_SECONDS"])
    )

    app.extensions["dicelens.logins"] = security.Logins()

    init_i18n(app)
    register_error_handlers(app)
    app.before_request(security.check_same_origin)
    app.register_blueprint(api.bp)
    app.register_blueprint(examples.bp)  # /api/examples, dice tapped in (issue 17)
    app.register_blueprint(settings.bp)  # /api/settings, /api/login, /api/logout
    app.register_blueprint(events.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(combat.bp)  # /combat; its session comes from web.combat.attach
    app.register_blueprint(teach.bp)  # /api/teach, the teaching round
    app.register_blueprint(health.bp)  # /healthz
    app.register_blueprint(join.bp)  # /join.svg
    app.context_processor(_page_context)
    app.add_template_global(label_text)  # a preset label in the page's language (web/messages.py)
    app.add_url_rule("/manifest.webmanifest", "manifest", _manifest)
    return app


def _page_context() -> dict:
    return {
        "pin_required": security.stored_pin() is not None,
        "authorized": security.is_authorized(),
        "heartbeat_seconds": current_app.config["HEARTBEAT_SECONDS"],
        "api": {
            "state": url_for("api.state"),
            "events": url_for("events.events"),
            "presets": url_for("api.presets"),
            "arm": url_for("api.arm"),
            "throw": url_for("api.throw"),
            "read": url_for("api.read_now"),
            "dice": url_for("api.dice_by_hand"),
            "rolls": url_for("api.rolls"),
            "examples": url_for("examples.examples"),
            "settings": url_for("settings.get_settings"),
            "principal_from_tray": url_for("settings.principal_from_tray"),
            "login": url_for("settings.login"),
            "logout": url_for("settings.logout"),
            "frame": url_for("api.latest_frame"),
            "setup": url_for("api.camera_setup"),
            "clear": url_for("api.clear_history"),
            "export_csv": url_for("api.export_csv"),
            "export_json": url_for("api.export_json"),
            "dice_stats": url_for("api.dice_stats"),
            "teach": url_for("teach.teaching"),
        },
    }


def _manifest():
    icons_dir = Path(current_app.static_folder or "") / "icons"
    icons = [
        {"src": url_for("static", filename=f"icons/{name}"), "sizes": sizes, "type": kind,
         "purpose": "any maskable" if kind == "image/png" else "any"}
        for name, sizes, kind in _ICONS
        if (icons_dir / name).is_file()
    ]
    response = jsonify(
        name="dicelens",
        short_name="dicelens",
        description="Dice read by the camera, shown live at the table.",
        start_url="/",
        scope="/",
        display="standalone",
        orientation="portrait",
        background_color="#111418",
        theme_color="#111418",
        icons=icons,
    )
    response.mimetype = "application/manifest+json"
    return response


def end_streams(app: Flask) -> None:
    """End every open page's event stream (the roll's and the fight's), and any opened
    later: on SIGTERM or Ctrl-C, before waitress stops, so that it need not wait for the
    threads that hold them (5 s)."""
    for owner in (app.extensions["dicelens.controller"], app.extensions.get(combat.EXTENSION)):
        if owner is not None:
            owner.end_streams()


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8000, *,
          listening: Callable[[int], None] | None = None, **options) -> None:
    """Serve ``app`` with waitress until interrupted (:func:`web.server.make_server`: its
    limits per client address, request deadline and body cap). ``options`` go to waitress.

    :param listening: called with the port listened on (the one picked for port 0) once
        the socket is bound, before the first request is taken.
    """
    from .server import bound_port, make_server  # only the server needs waitress, not the tests

    server = make_server(app, host=host, port=port, **options)
    server.print_listen("Serving on http://{}:{}")  # as waitress.serve says it
    if listening is not None:
        listening(bound_port(server))
    server.run()
