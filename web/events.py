"""Live updates: ``GET /api/events``, a server-sent event stream per open page.

Wire format (``text/event-stream``)::

    retry: 2000                     reconnect hint in milliseconds, sent first
    event: state                    then the controller state, with the id of the
    id: 41                          last roll the page is up to date with
    data: {...controller.state()}

    event: roll                     every roll with a seq above that id: first the
    id: 42                          ones missed (controller.rolls_since), then new
    data: {...roll dict}            ones as they come; a corrected roll comes again
                                    with its new seq. Never the same seq twice.
    event: state / event: camera    controller state changes, camera status (no id)
    data: {...}

    : heartbeat                     a comment every HEARTBEAT_SECONDS (15 s)

The id is the roll ``seq``. A page that reconnects sends it back (the browser's
``Last-Event-ID`` header, which wins, or ``?last_event_id=`` for a fresh EventSource) and gets
every roll it missed. Without one, the stream starts from the newest seq of the history
(a correction of an older roll is not sent again on every page load). An id above every
seq of the history is one of another history (started anew after a damaged database):
instead of the state the page gets ``event: reload`` with the state and the newest id, and
loads its rolls again. Events queued for a slow stream are sent coalesced: every roll,
then only the newest state and camera status.

Each stream holds one server thread and one controller subscription; both are
freed within a second of the client going away (waitress's ``client_disconnected``,
asked every :data:`TICK_SECONDS`), and every stream ends after ``STREAM_SECONDS``
(5 minutes): a client that stopped reading holds its slot no longer, and a browser
simply reconnects with its Last-Event-ID, missing nothing. When the controller's
subscription reports events it dropped for a slow client (its ``dropped`` count grows),
the stream fetches the lost rolls with ``rolls_since``. At most ``MAX_STREAMS`` streams
are open at once, so page loads and API calls always find a free thread; one more gets
a short stream that says so and ends (the page then polls ``/api/state``)::

    retry: 30000                    when to try for a stream again, milliseconds
    event: full
    data: {"error": "too many open pages; ..."}
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator

from flask import Blueprint, Response, current_app, request
from flask_babel import gettext as _

from .controller import Controller
from .errors import BadRequest
from .inputs import MAX_ID, only_query
from .messages import in_request_language, shown_camera, shown_roll, shown_state

bp = Blueprint("events", __name__, url_prefix="/api")

#: Seconds between two looks at whether the client is still there.
TICK_SECONDS = 1.0
#: Milliseconds a page told the streams are full waits before asking again.
FULL_RETRY_MS = 30_000


def format_event(kind: str | None, data: object = None, event_id: int | None = None) -> str:
    """One SSE message: ``event:``, ``id:`` and ``data:`` lines (JSON), ended by a blank line."""
    lines = []
    if kind:
        lines.append(f"event: {kind}")
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append("data: " + json.dumps(data, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


def sse_response(messages: Iterable[str], on_close: Callable[[], None] | None = None) -> Response:
    """A ``text/event-stream`` answer of ``messages``, never cached nor buffered by a proxy in
    front; ``on_close`` runs once the server lets go of it (the page left, the stream ended):
    both event streams (this one and the fight's, :mod:`web.combat`) free their slot there."""
    response = Response(messages, mimetype="text/event-stream")
    if on_close is not None:
        response.call_on_close(on_close)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy in front must not buffer the stream
    return response


class StreamCounter:
    """How many event streams are open, within a limit."""

    def __init__(self, limit: int):
        self.limit, self.open = limit, 0
        self._lock = threading.Lock()

    def acquire(self) -> bool:
        with self._lock:
            if self.open >= self.limit:
                return False
            self.open += 1
            return True

    def release(self) -> None:
        with self._lock:
            self.open -= 1


def _last_event_id() -> int | None:
    # The header wins: the browser's own reconnects send the newest id in it,
    # while the query keeps the id the page opened the stream with.
    raw = request.headers.get("Last-Event-ID")
    if raw is None:
        raw = request.args.get("last_event_id")
    if raw is None or not raw.strip():
        return None
    raw = raw.strip()
    # The length first: int() of more than 4,300 digits raises (and the id is 19 at most).
    if not (raw.isascii() and raw.isdigit() and len(raw) <= len(str(MAX_ID)) and int(raw) <= MAX_ID):
        raise BadRequest(_("last_event_id must be a roll seq (a whole number)"))
    return int(raw)


def _catch_up(controller: Controller, seq: int,
              shown_roll: Callable[[dict], dict] = lambda roll: roll) -> Generator[str, None, int]:
    """Roll events for every roll with a seq above ``seq``; returns the highest seq sent.

    ``rolls_since`` may answer in batches (the history's is 500 rolls), so it is
    asked again until it has nothing newer.
    """
    while True:
        batch = [roll for roll in controller.rolls_since(seq) if roll["seq"] > seq]
        if not batch:
            return seq
        for roll in batch:
            yield format_event("roll", shown_roll(roll), roll["seq"])
        seq = max(roll["seq"] for roll in batch)


def _newest_seq(controller: Controller, state: dict) -> int:
    """The highest seq in the history: the latest roll's, or a later correction's of an older roll."""
    latest = state.get("latest_roll")
    seq = latest["seq"] if latest else 0
    while True:
        later = [roll["seq"] for roll in controller.rolls_since(seq) if roll["seq"] > seq]
        if not later:
            return seq
        seq = max(later)


def _coalesced(first, subscription) -> list:
    """``first`` and every event already queued behind it, in order, with only the newest
    state and the newest camera status kept (a phone that slept gets the latest state once,
    not every one it missed); every roll is kept."""
    events = [first]
    while (event := subscription.get(timeout=0)) is not None:
        events.append(event)
    last = {event.kind: number for number, event in enumerate(events)}
    return [event for number, event in enumerate(events) if event.kind == "roll" or last[event.kind] == number]


def stream(controller: Controller, last_id: int | None, heartbeat: float, retry_ms: int,
           gone: Callable[[], bool] = lambda: False, lifetime: float = float("inf"),
           clock: Callable[[], float] = time.monotonic,
           shown: Callable[[dict], dict] = lambda state: state,
           shown_roll: Callable[[dict], dict] = lambda roll: roll,
           shown_camera: Callable[[dict], dict] = lambda camera: camera) -> Iterator[str]:
    """The messages of one event stream (see the module docstring), until closed.

    :param last_id: the seq the client has seen up to, or None for a fresh client.
    :param heartbeat: seconds between heartbeat comments when nothing happens.
    :param retry_ms: the reconnect delay suggested to the browser, milliseconds.
    :param gone: whether the client went away (asked every :data:`TICK_SECONDS`).
    :param lifetime: seconds after which the stream ends (the browser reconnects).
    :param shown: the controller's state → the state sent (the page's words added, in this
        phone's language: ``web.messages.shown_state``); ``shown_roll``, a roll → the roll
        sent (its note in this phone's language: ``web.messages.shown_roll``);
        ``shown_camera``, the camera's status → the one sent (``web.messages.shown_camera``).
    """
    # Subscribe before reading state and history: nothing published in between is lost,
    # and what was already sent is recognised by its seq and skipped.
    subscription = controller.subscribe()
    try:
        yield f"retry: {retry_ms}\n\n"
        state = controller.state()
        latest = state.get("latest_roll")
        reload = False
        if last_id is None or last_id > (latest["seq"] if latest else 0):
            newest = _newest_seq(controller, state)
            # A fresh page has the history as it is now: nothing to replay. An id above
            # every seq is one of another history (a new one, after a damaged database).
            reload = last_id is not None and last_id > newest
            last_id = newest if last_id is None or reload else last_id
        yield format_event("reload" if reload else "state", shown(state), last_id)
        sent = yield from _catch_up(controller, last_id, shown_roll)
        dropped = getattr(subscription, "dropped", 0)
        started = written = clock()
        while not gone() and clock() - started < lifetime:
            event = subscription.get(timeout=min(heartbeat, TICK_SECONDS))
            if getattr(subscription, "ended", False):  # the server is stopping
                return
            if getattr(subscription, "dropped", 0) != dropped:
                # The queue overflowed while this client was slow: fetch the rolls it lost.
                dropped = getattr(subscription, "dropped", 0)
                sent = yield from _catch_up(controller, sent, shown_roll)
            if event is None:
                if clock() - written < heartbeat:  # a tick, not yet a heartbeat
                    continue
                yield ": heartbeat\n\n"
                written = clock()
                continue
            for item in _coalesced(event, subscription):
                if item.kind == "roll":
                    # Rolls up to ``sent`` went out already (with the state or a catch-up).
                    if item.seq is not None and item.seq > sent:
                        yield format_event("roll", shown_roll(item.data), item.seq)
                        sent = item.seq
                else:
                    yield format_event(item.kind, shown(item.data) if item.kind == "state"
                                       else shown_camera(item.data) if item.kind == "camera" else item.data)
            written = clock()
    finally:
        subscription.close()


@bp.get("/events")
def events():
    only_query("last_event_id")
    last_id = _last_event_id()
    if request.method == "HEAD":  # no stream: nothing would ever notice the client leaving
        return sse_response([])
    counter: StreamCounter = current_app.extensions["dicelens.streams"]
    if not counter.acquire():  # the page is told, in a stream it can read, and polls instead
        return sse_response([f"retry: {FULL_RETRY_MS}\n\n",
                             format_event("full", {"error": _("too many open pages; try again shortly")})])
    config = current_app.config
    disconnected = request.environ.get("waitress.client_disconnected") or (lambda: False)
    return sse_response(
        stream(
            current_app.extensions["dicelens.controller"],
            last_id,
            float(config["HEARTBEAT_SECONDS"]),
            int(config["SSE_RETRY_MS"]),
            gone=disconnected,
            lifetime=float(config["STREAM_SECONDS"]),
            shown=in_request_language(shown_state),  # the page's words, in this phone's language
            shown_roll=in_request_language(shown_roll),
            shown_camera=in_request_language(shown_camera),
        ),
        counter.release,
    )
