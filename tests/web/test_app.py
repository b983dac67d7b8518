"""The app factory's configuration and the waitress settings of ``web.serve``."""

from __future__ import annotations

import waitress

import web
from web import create_app


def test_config_order_defaults_then_environment_then_argument(controller, monkeypatch):
    monkeypatch.setenv("DICE_HEARTBEAT_SECONDS", "5")
    monkeypatch.setenv("DICE_MAX_STREAMS", "10")
    app = create_app(controller, {"MAX_STREAMS": 3})
    assert app.config["HEARTBEAT_SECONDS"] == 5
    assert app.config["MAX_STREAMS"] == 3
    assert app.config["SSE_RETRY_MS"] == web.DEFAULTS["SSE_RETRY_MS"]
    assert app.extensions["dicelens.streams"].limit == 3


def test_secret_key_is_random_per_app_unless_given(controller):
    assert create_app(controller).secret_key != create_app(controller).secret_key
    assert create_app(controller, {"SECRET_KEY": "kept"}).secret_key == "kept"


def test_serve_gives_every_stream_a_thread_and_spares(controller, monkeypatch):
    calls = []
    monkeypatch.setattr(waitress, "serve", lambda app, **kw: calls.append((app, kw)))
    app = create_app(controller, {"MAX_STREAMS": 50, "HEARTBEAT_SECONDS": 15})
    web.serve(app, host="127.0.0.1", port=8123, ident="x")
    served, options = calls[0]
    assert served is app
    assert options["threads"] == 50 + web.SPARE_THREADS
    assert options["connection_limit"] > options["threads"]
    assert options["channel_timeout"] > 15 and (options["host"], options["port"], options["ident"]) == ("127.0.0.1", 8123, "x")
