"""The event stream: ids, catch-up after a disconnect, no duplicates, heartbeats, freeing."""

from __future__ import annotations

import http.client
import json
import threading
import time

import pytest

from web import create_app

from .conftest import live_server


def parse(chunk: bytes | str) -> dict:
    """One SSE message as a dict of its fields (data decoded from JSON)."""
    text = chunk.decode() if isinstance(chunk, bytes) else chunk
    fields: dict = {}
    for line in text.strip("\n").split("\n"):
        name, _, value = line.partition(":")
        fields[name or "comment"] = value.strip()
    if "data" in fields:
        fields["data"] = json.loads(fields["data"])
    return fields


class Stream:
    """A test-client event stream read one message at a time."""

    def __init__(self, client, url="/api/events", **kwargs):
        self.response = client.get(url, **kwargs)
        self.chunks = iter(self.response.response)

    def next(self) -> dict:
        return parse(next(self.chunks))

    def next_event(self) -> dict:
        while True:
            message = self.next()
            if "comment" not in message:
                return message

    def close(self):
        self.response.close()


def _hand_roll(controller, values=(3, 4)):
    if controller.state()["preset"] is None:
        controller.arm("2d6")
    controller.enter_dice(list(values))
    return controller.state()["latest_roll"]


def test_fresh_stream_sends_retry_then_state_then_new_rolls(client, controller):
    first = _hand_roll(controller)
    stream = Stream(client)
    assert stream.response.mimetype == "text/event-stream"
    assert stream.next() == {"retry": "2000"}
    state = stream.next_event()
    assert state["event"] == "state" and state["id"] == str(first["seq"])
    assert state["data"]["latest_roll"]["id"] == first["id"]
    second = _hand_roll(controller, (6, 6))
    roll = stream.next_event()
    assert (roll["event"], roll["id"], roll["data"]["id"]) == ("roll", str(second["seq"]), second["id"])
    stream.close()


def test_reconnect_catches_up_every_missed_roll_in_order(client, controller):
    seen = _hand_roll(controller)
    missed = [_hand_roll(controller, (v, 1)) for v in (2, 5)]
    stream = Stream(client, headers={"Last-Event-ID": str(seen["seq"])})
    stream.next()  # retry
    assert stream.next_event()["event"] == "state"
    caught = [stream.next_event() for _ in missed]
    assert [m["data"]["id"] for m in caught] == [r["id"] for r in missed]
    assert [m["id"] for m in caught] == [str(r["seq"]) for r in missed]
    stream.close()


def test_query_last_event_id_works_like_the_header(client, controller):
    seen = _hand_roll(controller)
    missed = _hand_roll(controller)
    stream = Stream(client, url=f"/api/events?last_event_id={seen['seq']}")
    stream.next(), stream.next_event()
    assert stream.next_event()["data"]["id"] == missed["id"]
    stream.close()


def test_the_header_wins_over_the_query_on_a_browser_reconnect(client, controller):
    # EventSource reconnects to the URL it was opened with, sending the newer id as a header.
    opened_at = _hand_roll(controller)
    seen = _hand_roll(controller)
    missed = _hand_roll(controller)
    stream = Stream(client, url=f"/api/events?last_event_id={opened_at['seq']}",
                    headers={"Last-Event-ID": str(seen["seq"])})
    stream.next(), stream.next_event()
    assert stream.next_event()["data"]["id"] == missed["id"]
    stream.close()


def test_a_roll_published_during_catch_up_is_sent_once(client, controller):
    seen = _hand_roll(controller)
    rolls_since = controller.rolls_since

    def racing_rolls_since(seq):
        _hand_roll(controller, (1, 1))  # lands in the subscription and in the history
        return rolls_since(seq)

    controller.rolls_since = racing_rolls_since
    stream = Stream(client, headers={"Last-Event-ID": str(seen["seq"])})
    stream.next(), stream.next_event()
    raced = stream.next_event()
    assert raced["event"] == "roll"
    controller.rolls_since = rolls_since
    later = _hand_roll(controller, (2, 2))
    # The raced roll's event was still queued: skipped, the next one is the later roll.
    assert stream.next_event()["data"]["id"] == later["id"]
    stream.close()


def test_a_slow_client_gets_the_rolls_its_queue_dropped(client, controller):
    stream = Stream(client)
    stream.next(), stream.next_event()
    # the queue holds 8; no principal 6, which would make a perfect roll wait for its extra die
    rolls = [_hand_roll(controller, (1 + n % 5, 1)) for n in range(20)]
    received = []
    while len(received) < len(rolls):
        received.append(stream.next_event())
    assert [m["data"]["id"] for m in received] == [r["id"] for r in rolls]
    assert [m["event"] for m in received] == ["roll"] * 20
    stream.close()


def test_a_correction_comes_again_with_its_new_seq(client, controller):
    roll = _hand_roll(controller)
    stream = Stream(client)
    stream.next(), stream.next_event()
    controller.correct(roll["id"], 0, value=6, who="Lia")
    corrected = stream.next_event()
    assert corrected["data"]["id"] == roll["id"] and int(corrected["id"]) > roll["seq"]
    assert corrected["data"]["dice"][0]["natural"] == 6
    stream.close()


def test_state_events_have_no_id(client, controller):
    stream = Stream(client)
    stream.next(), stream.next_event()
    controller.arm("pool5", roller="Nara")
    state = stream.next_event()
    assert state["event"] == "state" and "id" not in state and state["data"]["preset"] == "pool5"
    stream.close()


def test_heartbeat_when_nothing_happens(client):
    stream = Stream(client)
    stream.next(), stream.next_event()
    assert stream.next() == {"comment": "heartbeat"}
    stream.close()


def test_closing_the_stream_frees_the_subscription(client, controller):
    streams = [Stream(client) for _ in range(3)]
    for stream in streams:
        stream.next()
    assert controller.subscribers == 3
    for stream in streams:
        stream.close()
    assert controller.subscribers == 0


@pytest.mark.parametrize("bad", ["abc", "-1", "1.5", str(2**64), "٣"])
def test_malformed_last_event_id_is_400(client, bad):
    response = client.get("/api/events", headers={"Last-Event-ID": bad})
    assert response.status_code == 400 and "last_event_id" in response.get_json()["error"]
    assert client.get("/api/events", query_string={"last_event_id": bad}).status_code == 400


def test_streams_beyond_the_limit_are_told_so_and_end(controller):
    client = create_app(controller, {"TESTING": True, "MAX_STREAMS": 1}).test_client()
    first = Stream(client)
    first.next()
    refused = Stream(client)
    assert refused.response.status_code == 200
    assert refused.next() == {"retry": "30000"}
    full = refused.next()
    assert full["event"] == "full" and "too many open pages" in full["data"]["error"]
    with pytest.raises(StopIteration):
        refused.next()
    assert client.application.extensions["dicelens.streams"].open == 1
    first.close()
    second = Stream(client)
    assert second.next() == {"retry": "2000"}
    second.close()


def test_an_open_stream_does_not_block_a_page_load(controller):
    app = create_app(controller, {"HEARTBEAT_SECONDS": 0.1})
    with live_server(app, threads=3) as port:
        streams = [http.client.HTTPConnection("127.0.0.1", port, timeout=5) for _ in range(2)]
        for connection in streams:
            connection.request("GET", "/api/events")
            response = connection.getresponse()
            assert response.status == 200 and response.readline() == b"retry: 2000\n"
        api = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        api.request("GET", "/api/state")
        assert api.getresponse().status == 200
        api.close()
        for connection in streams:
            connection.close()


def test_a_phone_walking_away_frees_its_subscription_on_a_real_server(controller):
    app = create_app(controller, {"HEARTBEAT_SECONDS": 0.05})
    with live_server(app, threads=3) as port:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/api/events")
        assert connection.getresponse().readline() == b"retry: 2000\n"
        assert controller.subscribers == 1
        connection.close()
        freed = threading.Event()

        streams = app.extensions["dicelens.streams"]

        def watch():
            while controller.subscribers or streams.open:
                time.sleep(0.01)
            freed.set()

        threading.Thread(target=watch, daemon=True).start()
        assert freed.wait(10)  # noticed at the next heartbeat write


def test_head_opens_no_stream(client, controller):
    response = client.head("/api/events")
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    assert controller.subscribers == 0 and client.application.extensions["dicelens.streams"].open == 0


def test_a_slow_streams_queued_states_are_sent_once_the_newest(client, controller):
    """A phone that slept gets every roll it missed, then the newest state once, not every
    state queued meanwhile (issue #24 item 6; the table: tests/device/test_table_failures.py)."""
    stream = Stream(client)
    stream.next(), stream.next_event()
    made = [_hand_roll(controller, (v, 1)) for v in (2, 3, 4, 5, 6)]  # each a roll and states, queued
    controller.arm("2d6", roller="Lia")
    events = [stream.next_event() for _ in range(len(made) + 1)]
    assert [e["event"] for e in events] == ["roll"] * len(made) + ["state"]
    assert [e["data"]["id"] for e in events[:-1]] == [r["id"] for r in made]
    assert events[-1]["data"]["roller"] == "Lia"  # the newest state
    assert "comment" in stream.next()  # and no older state after it: a heartbeat
    stream.close()
