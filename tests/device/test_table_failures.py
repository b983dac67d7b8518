"""What tables do to a roll's state, through the API: the failure reports of users of other
dice readers and smart dice, run against dicelens (issue #24; #19 item 2). Each row is a
report, its source, and the test here that keeps it fixed.

=====  ===========================================================  ==========================================  ===============================================
item   the report                                                   source                                      test
=====  ===========================================================  ==========================================  ===============================================
1      a roll waiting for its next dice when the server restarts    issue #24 item 1, #19 item 2 (a run of      test_a_waiting_roll_is_taken_up_after_a_restart,
       comes back as nothing: idle, ``complete: false`` for ever    the peers' reports by the lead)             test_an_old_waiting_roll_is_closed_as_abandoned
2      an abandoned roll is shown as waiting; a correction          issue #24 item 2                            test_a_correction_that_completes_an_abandoned_roll_clears_its_note,
       completes it and the note still says abandoned                                                           tests/browser/test_table_failures.py
3      a follow-up request lost when the tray settles with no die   issue #24 item 3 (prompts lost on drops:    test_the_request_survives_a_throw_with_no_die_moved,
       moved ("…: None")                                            GoDiceJavaScriptAPI pull request #9,        tests/browser/test_table_failures.py
                                                                    ParticulaCode, auto reconnect)
4      after a correction the annotated photo shows the camera's    issue #24 item 4                            test_the_photo_shows_the_corrected_value
       value
5      a refused ``POST /api/dice`` arms the preset again: the      issue #24 item 5                            test_refused_dice_after_a_resolved_roll_change_nothing,
       finished roll is no longer the current one                                                               test_a_refused_throw_after_a_resolved_roll_changes_nothing
6      a phone waking after a minute gets every queued event at     issue #24 item 6 (sleeping phones;          tests/browser/test_table_failures.py::test_a_phone_that_slept_announces_only_the_newest_roll,
       once, each roll announced; a fresh page is sent an older     duplicated roll messages after reconnects:  tests/web/test_events.py::test_a_slow_streams_queued_states_are_sent_once_the_newest,
       roll's correction again on every load                        ArtemGr/Sidekick issue #249)                test_a_fresh_page_is_not_sent_an_older_rolls_correction_again
7      after a new, empty history no roll events reach a page       issue #24 item 7                            test_a_page_of_an_old_history_is_told_to_reload,
       until the seq passes the old one                                                                         tests/browser/test_live_page.py::test_a_page_of_an_old_history_reloads_its_rolls
8      a printed 0 on a d10 accepted by one part and refused by     issue #24 item 8; Humblemonk/DiceMaiden     tests/web/test_combat_api.py::test_a_d10_shows_0_as_10
       another                                                      issue #214, space-wizards/space-station-14
                                                                    issue #22826 (d10s printed 0–9)
=====  ===========================================================  ==========================================  ===============================================

The seven reports issue #24 found dicelens already holding (no duplicate roll after a
reconnect, a prompt that survives a dropped phone and a second phone, one of two identical
corrections, surplus dice, out-of-range faces) are not repeated here.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import cv2
import numpy as np
import pytest

import vision
from device.controller import JPEG_QUALITY, Controller
from device.history import History
from device.presets import build_presets
from vision.reading import TrayReading
from web import create_app

from .controller_fakes import Clock, FakeReader, die, fakes, settle


def start(folder, reader, clock, **options):
    """A controller over the history in ``folder`` (a start of the server) and its API client."""
    history = History(folder)
    controller = Controller(build_presets(), history, **fakes(reader), clock=clock, **options)
    client = create_app(controller, {"TESTING": True, "SECRET_KEY": "t"}).test_client()
    return history, controller, client


def perfect_roll_waiting(folder):
    """A 2D6 whose principal die showed 6, waiting for its extra D3 when the server stops."""
    reader, clock = FakeReader(), Clock()
    history, controller, client = start(folder, reader, clock)
    controller.arm("2d6", roller="Nara")
    state = settle(controller, clock, reader.frame(die(6, "red", 100, 100, principal=True),
                                                   die(4, "white", 300, 300)))
    assert state["state"] == "prompting" and state["needs"]["kind"] == "D3"
    history.close()
    return state["latest_roll"]


def age(folder, roll_id, minutes):
    """Make the stored roll's steps ``minutes`` old."""
    with History(folder) as history:
        roll = history.roll(roll_id)
        then = (datetime.now(UTC) - timedelta(minutes=minutes)).isoformat()
        roll["started"] = then
        for reading in roll["readings"]:
            reading["at"] = then
        history.save(roll)


def test_a_waiting_roll_is_taken_up_after_a_restart(tmp_path):
    waiting = perfect_roll_waiting(tmp_path)
    reader, clock = FakeReader(), Clock()
    history, controller, client = start(tmp_path, reader, clock)
    state = client.get("/api/state").get_json()
    assert (state["state"], state["preset"], state["roller"]) == ("prompting", "2d6", "Nara")
    assert state["needs"]["kind"] == "D3" and state["prompt"] == state["needs"]["reason"]
    assert state["latest_roll"]["id"] == waiting["id"]
    # the extra die from the tray, as any follow-up throw
    state = settle(controller, clock, reader.frame(die(2, "red", 500, 300)))
    roll = client.get(f"/api/rolls/{waiting['id']}").get_json()
    assert state["state"] == "resolved" and roll["complete"] and roll["total"] == 6 + 4 + 1
    assert roll["note"] is None
    history.close()


def test_a_waiting_roll_taken_up_takes_the_extra_die_by_hand(tmp_path):
    waiting = perfect_roll_waiting(tmp_path)
    history, controller, client = start(tmp_path, FakeReader(), Clock())
    answer = client.post("/api/dice", json={"values": [5]})
    assert answer.status_code == 200, answer.get_json()
    roll = client.get(f"/api/rolls/{waiting['id']}").get_json()
    assert roll["complete"] and roll["total"] == 6 + 4 + 3
    history.close()


def test_an_old_waiting_roll_is_closed_as_abandoned(tmp_path):
    waiting = perfect_roll_waiting(tmp_path)
    age(tmp_path, waiting["id"], 31)
    history, controller, client = start(tmp_path, FakeReader(), Clock(), resume_seconds=30 * 60)
    state = client.get("/api/state").get_json()
    roll = client.get(f"/api/rolls/{waiting['id']}").get_json()
    assert state["state"] == "idle" and state["latest_roll"]["id"] == waiting["id"]
    assert roll["finished"] and not roll["complete"]
    assert roll["note"].startswith("abandoned: dicelens restarted 31 minutes after its last step")
    assert client.post("/api/dice", json={"values": [5]}).status_code == 409  # nothing armed: said so
    history.close()
    # and it stays closed at the next start
    history, controller, client = start(tmp_path, FakeReader(), Clock())
    assert client.get("/api/state").get_json()["state"] == "idle"
    history.close()


def test_the_request_survives_a_throw_with_no_die_moved(tmp_path):
    reader, clock = FakeReader(), Clock()
    history, controller, client = start(tmp_path, reader, clock)
    controller.arm("2d6")
    tray = (die(6, "red", 100, 100, principal=True), die(4, "white", 300, 300))
    asked = settle(controller, clock, reader.frame(*tray))["prompt"]
    for _ in range(2):  # every refusal keeps the request, the second as the first
        state = settle(controller, clock, reader.frame(*tray))
        assert state["prompt"] == f"no die has moved since the last reading: {asked}"
        assert state["needs"]["kind"] == "D3"
    controller.attach_camera(throw=lambda count: None, can_throw=True)
    controller.on_status("ok")
    client.post("/api/throw")  # the file camera: waiting for its throw
    state = settle(controller, clock, reader.frame(*tray))
    assert state["state"] == "waiting" and state["prompt"] == f"no die has moved since the last reading: {asked}"
    history.close()


def test_refused_dice_after_a_resolved_roll_change_nothing(tmp_path):
    history, controller, client = start(tmp_path, FakeReader(), Clock())
    client.post("/api/arm", json={"preset": "2d6"})
    done = client.post("/api/dice", json={"values": [3, 4]}).get_json()
    assert done["state"] == "resolved"
    refused = client.post("/api/dice", json={"values": [3]})  # 2D6 takes two
    assert refused.status_code == 400 and "2 dice needed" in refused.get_json()["error"]
    assert client.get("/api/state").get_json() == done
    # the finished roll is still the current one: a correction that asks for a die is taken
    roll = done["latest_roll"]
    fixed = client.post(f"/api/rolls/{roll['id']}/dice/0", json={"value": 6})
    assert fixed.status_code == 200, fixed.get_json()
    state = client.get("/api/state").get_json()
    assert state["state"] == "prompting" and state["needs"]["kind"] == "D3"
    history.close()


def test_a_refused_throw_after_a_resolved_roll_changes_nothing(tmp_path):
    history, controller, client = start(tmp_path, FakeReader(), Clock())

    def throw(count):
        raise ValueError("the sim camera throws at most 10 dice")

    controller.attach_camera(throw=throw, can_throw=True)
    controller.on_status("ok")
    client.post("/api/arm", json={"preset": "2d6"})
    done = client.post("/api/dice", json={"values": [3, 4]}).get_json()
    assert client.post("/api/throw").status_code == 409
    assert client.get("/api/state").get_json() == done
    history.close()


def test_a_correction_that_completes_an_abandoned_roll_clears_its_note(tmp_path):
    reader, clock = FakeReader(), Clock()
    history, controller, client = start(tmp_path, reader, clock)
    client.post("/api/arm", json={"preset": "2d6"})
    waiting = client.post("/api/dice", json={"values": [6, 4]}).get_json()["latest_roll"]
    client.post("/api/arm", json={"preset": "1d6"})  # mid-chain: the 2D6 is abandoned
    abandoned = client.get(f"/api/rolls/{waiting['id']}").get_json()
    assert abandoned["note"].startswith("abandoned: 1D6 was armed") and abandoned["finished"]
    still = client.post(f"/api/rolls/{waiting['id']}/dice/1", json={"value": 5}).get_json()
    assert not still["complete"] and still["note"] == abandoned["note"]  # still waits: still abandoned
    fixed = client.post(f"/api/rolls/{waiting['id']}/dice/0", json={"value": 3}).get_json()
    assert fixed["complete"] and fixed["total"] == 3 + 5 and fixed["note"] is None
    assert client.get(f"/api/rolls/{waiting['id']}").get_json()["note"] is None
    history.close()


def open_stream(client, last_id=None):
    """The first messages of ``GET /api/events`` after its retry line, as (event, id, data) until a heartbeat."""
    headers = {} if last_id is None else {"Last-Event-ID": str(last_id)}
    response = client.get("/api/events", headers=headers)
    chunks = iter(response.response)
    messages = []
    for chunk in chunks:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith(": heartbeat"):
            break
        fields = dict(line.partition(": ")[::2] for line in text.strip().split("\n"))
        if "event" in fields:
            messages.append((fields["event"], int(fields["id"]) if "id" in fields else None, json.loads(fields["data"])))
    response.close()
    return messages


def stream_client(controller):
    return create_app(controller, {"TESTING": True, "SECRET_KEY": "t", "HEARTBEAT_SECONDS": 0.05}).test_client()


def test_a_fresh_page_is_not_sent_an_older_rolls_correction_again(tmp_path):
    history, controller, client = start(tmp_path, FakeReader(), Clock())
    client.post("/api/arm", json={"preset": "2d6"})
    older = client.post("/api/dice", json={"values": [3, 4]}).get_json()["latest_roll"]
    client.post("/api/dice", json={"values": [2, 2]})
    fixed = client.post(f"/api/rolls/{older['id']}/dice/1", json={"value": 5}).get_json()
    for _ in range(2):  # every page load
        messages = open_stream(stream_client(controller))
        assert [(event, seq) for event, seq, _ in messages] == [("state", fixed["seq"])]
    history.close()


@pytest.mark.slow
def test_a_page_of_an_old_history_is_told_to_reload(tmp_path):
    """The README's procedure for a damaged database: a new, empty history in its place."""
    history, controller, client = start(tmp_path / "old", FakeReader(), Clock())
    client.post("/api/arm", json={"preset": "2d6"})
    for values in ([3, 4], [2, 2], [1, 5]):
        client.post("/api/dice", json={"values": values})
    held = client.get("/api/state").get_json()["latest_roll"]["seq"]  # what an open page holds
    history.close()
    history, controller, client = start(tmp_path / "new", FakeReader(), Clock())
    client.post("/api/arm", json={"preset": "2d6"})
    new = client.post("/api/dice", json={"values": [6, 1]}).get_json()["latest_roll"]
    assert new["seq"] == 1  # sequence numbers start fresh with the history
    messages = open_stream(stream_client(controller), last_id=held)
    assert [(event, seq) for event, seq, _ in messages] == [("reload", new["seq"])]
    assert messages[0][2]["latest_roll"]["id"] == new["id"]
    # the page reloaded: from the id it was given, it is up to date
    assert [event for event, _, _ in open_stream(stream_client(controller), last_id=new["seq"])] == ["state"]
    history.close()


def test_the_photo_shows_the_corrected_value(tmp_path):
    reader, clock = FakeReader(), Clock()
    history = History(tmp_path)
    controller = Controller(build_presets(), history, reader=reader, numbered_reader=reader.numbered,
                            clock=clock)  # the default annotate: the page's photos, with no words
    client = create_app(controller, {"TESTING": True, "SECRET_KEY": "t"}).test_client()
    controller.arm("2d6")
    tray = [die(3, "red", 4, 4, principal=True, size=20), die(4, "white", 36, 20, size=20)]
    frame = reader.frame(*tray)
    roll = settle(controller, clock, frame)["latest_roll"]
    with client.get(f"/api/rolls/{roll['id']}/photo") as answer:
        as_read = answer.data
    fixed = client.post(f"/api/rolls/{roll['id']}/dice/1", json={"value": 1}).get_json()
    with client.get(f"/api/rolls/{roll['id']}/photo?seq={fixed['seq']}") as answer:
        shown = answer.data
    assert shown != as_read  # drawn again: the labels show the value the rules use
    with client.get(f"/api/rolls/{roll['id']}/photo?annotated=0") as answer:
        photo = cv2.imdecode(np.frombuffer(answer.data, np.uint8), cv2.IMREAD_COLOR)
    expected = vision.annotate(photo, TrayReading(dice=tray, size=(64, 48)), labels=[None, "4->1"],
                               words=False)
    assert shown == cv2.imencode(".jpg", expected, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])[1].tobytes()
    history.close()
