"""The app factory's configuration and the waitress settings of ``web.serve``."""

from __future__ import annotations

import web
from web import create_app
from web.errors import WebError


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
    from web import server

    calls = []

    class Server:  # waitress's server, which would listen for ever
        effective_port = 8123

        def print_listen(self, format_string):
            calls.append(format_string)

        def run(self):
            calls.append("run")

    def create_server(app, **kw):
        calls.append((app, kw))
        return Server()

    monkeypatch.setattr(server, "create_server", create_server)
    app = create_app(controller, {"MAX_STREAMS": 50, "HEARTBEAT_SECONDS": 15})
    web.serve(app, host="127.0.0.1", port=8123, ident="x", listening=calls.append)
    (served, options), *rest = calls
    assert served is app
    assert rest == ["Serving on http://{}:{}", 8123, "run"]  # the port told before any request
    assert options["threads"] == 50 + server.SPARE_THREADS
    assert options["connection_limit"] > options["threads"]
    assert options["max_request_body_size"] == server.WAITRESS_BODY_FACTOR * app.config["MAX_CONTENT_LENGTH"]
    assert (options["host"], options["port"], options["ident"]) == ("127.0.0.1", 8123, "x")


def test_an_error_of_the_web_without_a_status_of_its_own_is_a_500_with_its_reason(controller):
    app = create_app(controller, {"TESTING": True, "SECRET_KEY": "t"})

    @app.get("/api/boom")
    def boom():
        raise WebError("something inside went wrong")

    response = app.test_client().get("/api/boom")
    assert response.status_code == 500 and response.get_json() == {"error": "something inside went wrong"}
