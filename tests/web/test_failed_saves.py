"""A save that fails (a full disk, a read-only folder) changes nothing, says why, and works when
retried once the cause is gone; the config's PIN wins over the page's. Over the real controller
and history (SQLite): the disk's failures are injected where the history writes (the tests run
as root too, where a read-only folder would not stop a write)."""

from __future__ import annotations

import errno
import os
import sqlite3

import pytest

from tests.device.controller_fakes import die, settle
from web import create_app
from web.security import hash_pin

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


class Disk:
    """The history's connection, whose writes fail like a full disk while ``full``; photo
    files fail at their fsync (made, then refused) while ``photos_full``."""

    def __init__(self, db, monkeypatch):
        self.db, self.full, self.photos_full = db, False, False
        real_fsync = os.fsync

        def fsync(fd):
            if self.photos_full:
                raise OSError(errno.ENOSPC, "No space left on device")
            return real_fsync(fd)

        monkeypatch.setattr("device.history.os.fsync", fsync)

    def _check(self, sql: str) -> None:
        if self.full and sql.lstrip().split()[0].upper() in WRITES:
            raise sqlite3.OperationalError("database or disk is full")

    def execute(self, sql, *args):
        self._check(sql)
        return self.db.execute(sql, *args)

    def executemany(self, sql, *args):
        self._check(sql)
        return self.db.executemany(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


@pytest.fixture
def disk(history, monkeypatch):
    history._db = Disk(history._db, monkeypatch)
    return history._db


@pytest.fixture
def real(disk, real_controller, clock):  # made over the disk's failing connection
    return real_controller(camera={"read_now": lambda: None, "last_frame_at": lambda: clock.t})


def client_for(controller, lang="en"):
    app = create_app(controller, {"TESTING": True, "SECRET_KEY": "t"})
    client = app.test_client()
    client.set_cookie("lang", lang) if lang != "en" else None
    return client


@pytest.fixture
def client(real):
    return client_for(real)


def test_dice_by_hand_on_a_full_disk_change_nothing_and_work_once_freed(client, real, disk, history):
    assert client.post("/api/arm", json={"preset": "2d6"}).status_code == 200
    before = client.get("/api/state").get_json()
    disk.full = True
    failed = client.post("/api/dice", json={"values": [3, 4]})
    assert failed.status_code == 503
    assert "could not be saved (the disk is full)" in failed.get_json()["error"]  # SQLite's words: the log's
    assert client.get("/api/state").get_json() == before
    health = client.get("/healthz").get_json()
    assert health["saving"]["ok"] is False and "database or disk is full" in health["saving"]["error"]
    disk.full = False
    done = client.post("/api/dice", json={"values": [3, 4]})
    assert done.status_code == 200 and done.get_json()["state"] == "resolved"
    assert done.get_json()["latest_roll"]["total"] == 7
    assert client.get("/healthz").get_json()["saving"] == {"ok": True, "error": None}
    assert [r["total"] for r in history.rolls()] == [7]


def test_a_correction_on_a_full_disk_changes_nothing(client, real, disk):
    client.post("/api/arm", json={"preset": "2d6"})
    roll = client.post("/api/dice", json={"values": [3, 4]}).get_json()["latest_roll"]
    disk.full = True
    assert client.post(f"/api/rolls/{roll['id']}/dice/1", json={"value": 6}).status_code == 503
    assert client.get(f"/api/rolls/{roll['id']}").get_json() == roll
    assert client.get("/api/state").get_json()["latest_roll"] == roll
    disk.full = False
    assert client.post(f"/api/rolls/{roll['id']}/dice/1", json={"value": 6}).get_json()["total"] == 9


@pytest.mark.parametrize(("lang", "words"), [("en", "could not be saved"), ("pt-BR", "não pôde ser salvo"),
                                              ("es", "no se pudo guardar")])
def test_the_refusal_is_in_the_pages_language(real, disk, lang, words):
    client = client_for(real, lang)
    client.post("/api/arm", json={"preset": "2d6"})
    disk.full = True
    failed = client.post("/api/dice", json={"values": [3, 4]})
    assert failed.status_code == 503 and words in failed.get_json()["error"]


def test_settings_on_a_full_disk_change_nothing(client, real, disk):
    disk.full = True
    assert client.post("/api/settings", json={"principal_color": "green"}).status_code == 503
    assert client.get("/api/settings").get_json()["principal_color"] == "red"
    assert real.settings()["principal_color"] == "red"
    disk.full = False
    assert client.post("/api/settings", json={"principal_color": "green"}).get_json()["principal_color"] == "green"


def test_clearing_with_the_photos_folder_read_only_changes_nothing(client, real, history, reader, clock,
                                                                   monkeypatch):
    real.arm("2d6")
    settle(real, clock, reader.frame(die(3, "red", principal=True), die(4, x=300)))
    latest = client.get("/api/state").get_json()["latest_roll"]
    assert latest["photo"] is True
    photos = sorted(history.photos.iterdir())
    real_access = os.access
    monkeypatch.setattr("device.history.os.access",
                        lambda path, mode: False if path == history.photos else real_access(path, mode))
    failed = client.post("/api/history/clear")
    assert failed.status_code == 503 and "not writable" in failed.get_json()["error"]
    assert client.get("/api/rolls").get_json()["rolls"] == [latest]
    assert client.get("/api/state").get_json()["latest_roll"] == latest
    assert sorted(history.photos.iterdir()) == photos
    assert "not writable" in client.get("/healthz").get_json()["saving"]["error"]


def test_a_photo_that_cannot_be_saved_says_so_and_leaves_no_temporary_file(client, real, disk, history,
                                                                           reader, clock):
    real.arm("2d6")
    disk.photos_full = True
    state = settle(real, clock, reader.frame(die(3, "red", principal=True), die(4, x=300)))
    assert state["state"] == "armed" and state["latest_roll"] is None
    assert "could not be saved (No space left on device)" in state["prompt"]
    assert list(history.photos.iterdir()) == []  # no *.jpg.tmp, no photo without its roll
    health = client.get("/healthz")
    assert health.status_code == 503 and "No space left on device" in " ".join(health.get_json()["reasons"])
    disk.photos_full = False
    state = settle(real, clock, reader.frame(die(3, "red", principal=True, x=120), die(4, x=320)))
    assert state["state"] == "resolved" and state["latest_roll"]["total"] == 7
    assert client.get("/healthz").get_json()["saving"]["ok"] is True


def test_a_roll_damaged_while_serving_answers_503_naming_the_file(client, real, history):
    client.post("/api/arm", json={"preset": "2d6"})
    roll = client.post("/api/dice", json={"values": [3, 4]}).get_json()["latest_roll"]
    history._db.execute("UPDATE rolls SET dice = '[' WHERE id = ?", (roll["id"],))
    for url in ("/api/rolls", f"/api/rolls/{roll['id']}", "/api/rolls.csv", "/api/rolls.json", "/history"):
        response = client.get(url)
        assert response.status_code == 503, url
        assert str(history.folder / "history.sqlite3") in response.get_json()["error"], url


@pytest.mark.slow
def test_the_configs_pin_wins_over_one_set_on_the_page(real_controller):
    page = real_controller(pin_from_page=True)
    page.update_settings(pin=hash_pin("1111"))
    owner = real_controller(pin=hash_pin("2468"))
    client = client_for(owner)
    assert client.post("/api/login", json={"pin": "1111"}).status_code == 401
    assert client.post("/api/login", json={"pin": "2468"}).status_code == 200
    refused = client.post("/api/settings", json={"pin": "3333"})
    assert refused.status_code == 409 and "config file" in refused.get_json()["error"]


def test_with_no_pin_in_the_config_the_page_cannot_set_one(real_controller):
    owner = real_controller(pin_from_page=False)
    client = client_for(owner)
    refused = client.post("/api/settings", json={"pin": "1234"})
    assert refused.status_code == 409 and "pin_from_page" in refused.get_json()["error"]
    assert client.get("/api/settings").get_json()["pin_set"] is False
    restarted = real_controller(pin_from_page=False)
    assert restarted.settings()["pin"] is None
