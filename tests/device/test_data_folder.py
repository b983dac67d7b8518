"""device/data_folder.py: one ``dicelens serve`` a data folder, each replay its own history,
and the history every replay shared before taken over, not lost."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace

import pytest

from device.config import config_from_dict, default_data_folder
from device.data_folder import LOCK, StartupError, adopt_shared_replay, held
from device.history import History
from device.serve import build


def test_each_replayed_folder_keeps_its_own_history(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    replays = tmp_path / "share" / "dicelens-replay"
    assert default_data_folder(f"file:{tmp_path / 'byler'}") == replays / "byler"
    assert default_data_folder(f"file:{tmp_path / 'mine'}/") == replays / "mine"
    assert default_data_folder(f"file:{tmp_path / 'one.jpg'}") == replays / "one.jpg"
    (tmp_path / "byler").mkdir()
    monkeypatch.chdir(tmp_path / "byler")
    assert default_data_folder("file:.") == replays / "byler"


def test_a_second_server_on_one_data_folder_stops_at_start_naming_the_first(tmp_path):
    with held(tmp_path):
        with pytest.raises(StartupError) as raised, held(tmp_path):
            pass
        assert str(raised.value).startswith(f"data folder {tmp_path} is in use by another dicelens serve (pid ")
        assert str(raised.value).endswith(f"{tmp_path / LOCK}): stop it, or give this one another --data")
        with held(tmp_path / "other"):  # another folder: no matter
            pass
    with held(tmp_path):  # the first one stopped
        pass


def test_serve_holds_its_data_folder(tmp_path, real_photos):
    photos = real_photos.folder("real-dice/byler-tray-d6")
    config = replace(config_from_dict({"camera": {"source": f"file:{photos}"}}), data_folder=tmp_path / "data")
    with contextlib.ExitStack() as stack:
        build(config, stack)
        with pytest.raises(StartupError, match="is in use by another dicelens serve"):
            build(config, stack)
    with contextlib.ExitStack() as stack:  # stopped: the next start opens it
        build(config, stack)


def test_the_history_every_replay_shared_is_taken_over_by_the_first_replay_started(tmp_path, caplog):
    shared = tmp_path / "dicelens-replay"
    shared.mkdir()
    with History(shared, 2**20):  # an earlier version's replay history: one database, photos beside
        pass
    (shared / "photos" / "1.jpg").write_bytes(b"a roll's photo")
    (shared / "secret_key").write_text("key")
    before = sorted(p.relative_to(shared) for p in shared.rglob("*"))
    mine = shared / "photos"  # a replay of a folder named as the old layout's photos folder
    with caplog.at_level(logging.WARNING):
        adopt_shared_replay(mine)
    assert sorted(p.relative_to(mine) for p in mine.rglob("*")) == before
    assert [p.name for p in shared.iterdir()] == ["photos"]
    assert caplog.messages == [f"dicelens: the history every replay shared is now this one's, in {mine}; "
                               f"each other replay keeps its rolls in {shared}/<its folder's name>"]
    adopt_shared_replay(shared / "other")  # taken over once: the next replay starts its own
    assert not (shared / "other").exists() and (mine / "history.sqlite3").is_file()


def test_a_shared_history_a_server_runs_on_is_not_moved(tmp_path):
    shared = tmp_path / "dicelens-replay"
    with History(shared, 2**20), held(shared):
        with pytest.raises(StartupError, match="is in use by another dicelens serve"):
            adopt_shared_replay(shared / "byler")
    assert (shared / "history.sqlite3").is_file() and not (shared / "byler").exists()
