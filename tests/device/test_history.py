"""History in a real SQLite file: saving, paging, seq, photos and their cap."""

from __future__ import annotations

import contextlib
import sqlite3

import pytest

from device.errors import RollNotFound, SaveFailed
from device.history import DATABASE, History
from rules.phrase import Phrase


def make_roll(preset="2d6", roller="ana", total=7, **extra) -> dict:
    roll = {"preset": preset, "system": "d6", "roller": roller, "started": "2026-01-01T20:00:00Z",
            "finished": "2026-01-01T20:00:02Z", "complete": True, "total": total,
            "successes": None, "outcome": None, "perfect": False, "botch": False, "note": None,
            "spec": {"count": 2}, "result": {"system": "d6", "total": total},
            "dice": [{"index": 0, "natural": 4}], "readings": [{"dice": []}], "corrections": []}
    roll.update(extra)
    return roll


def test_saved_roll_comes_back_with_id_and_seq(history):
    saved = history.save(make_roll())
    assert saved["id"] == 1 and saved["seq"] == 1
    again = history.roll(saved["id"])
    assert again == saved
    assert again["result"] == {"system": "d6", "total": 7} and again["photo"] is False


def test_wal_mode_and_indexes(history, tmp_path):
    with contextlib.closing(sqlite3.connect(tmp_path / DATABASE)) as db:  # 3.13 warns of one left open
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        indexes = {row[1] for row in db.execute("SELECT * FROM sqlite_master WHERE type = 'index'")}
    assert {"rolls_by_roller", "rolls_by_preset"} <= indexes


def test_paging_and_filters_newest_first(history):
    for n in range(7):
        history.save(make_roll(preset="2d6" if n % 2 else "1d6", roller=["ana", "bo"][n % 2],
                               total=n))
    assert [r["total"] for r in history.rolls(limit=3)] == [6, 5, 4]
    assert [r["total"] for r in history.rolls(limit=3, offset=3)] == [3, 2, 1]
    assert [r["total"] for r in history.rolls(player="bo")] == [5, 3, 1]
    assert [r["total"] for r in history.rolls(player="BO", limit=1)] == [5]   # any case
    assert [r["total"] for r in history.rolls(preset="1d6", limit=2)] == [6, 4]
    with pytest.raises(ValueError):
        history.rolls(limit=0)


def test_each_save_of_a_roll_in_progress_renews_its_seq(history):
    pending = history.save(make_roll(complete=False, finished=None))
    assert pending["seq"] == 1 and pending["finished"] is None
    done = history.save({**pending, "complete": True, "finished": "2026-01-01T20:00:09Z"})
    assert done["id"] == pending["id"] and done["seq"] == 2
    assert [r["seq"] for r in history.rolls_since(0)] == [2]


def test_corrections_renew_seq_and_are_kept_with_who_and_when(history):
    first = history.save(make_roll())
    history.save(make_roll())
    correction = {"index": 0, "from": 4, "to": 5, "who": "gm", "at": "2026-01-01T20:01:00Z"}
    corrected = history.save({**first, "corrections": [correction]})
    assert corrected["seq"] == 3 and corrected["corrections"] == [correction]
    assert [r["id"] for r in history.rolls_since(1)] == [2, 1]


def test_seq_keeps_counting_after_clear(history, tmp_path):
    history.save(make_roll(), photo=b"x" * 10)
    history.clear()
    assert history.rolls() == [] and not list((tmp_path / "photos").iterdir())
    assert history.save(make_roll())["seq"] == 2


def test_unknown_roll(history):
    with pytest.raises(RollNotFound):
        history.roll(99)
    with pytest.raises(KeyError):
        history.photo_path(99)


def test_photos_beside_the_database_and_oldest_pruned_over_the_cap(tmp_path):
    with History(tmp_path, photo_cap_bytes=2500) as history:
        ids = [history.save(make_roll(), photo=b"p" * 500, annotated=b"a" * 500)["id"]
               for _ in range(4)]
        kept = [history.photo_path(roll_id) for roll_id in ids]
        assert kept[0] is None and kept[1] is None
        assert kept[2].read_bytes() == b"a" * 500
        assert history.photo_path(ids[3], annotated=False).read_bytes() == b"p" * 500
        assert [history.roll(i)["photo"] for i in ids] == [False, False, True, True]
        assert sum(p.stat().st_size for p in (tmp_path / "photos").iterdir()) <= 2500


def test_new_photo_of_a_roll_replaces_the_old_one(history, tmp_path):
    saved = history.save(make_roll(), photo=b"1" * 10)
    history.save(saved, photo=b"2" * 10)
    assert len(list((tmp_path / "photos").iterdir())) == 2
    assert history.photo_path(saved["id"], annotated=False).read_bytes() == b"2" * 10


def test_orphan_photos_are_removed_on_open(tmp_path):
    History(tmp_path).close()
    (tmp_path / "photos" / "deadbeef.jpg").write_bytes(b"x")
    (tmp_path / "photos" / "cafe.jpg.tmp").write_bytes(b"x")
    with History(tmp_path):
        assert list((tmp_path / "photos").iterdir()) == []


def test_settings_survive_reopening(tmp_path):
    with History(tmp_path) as history:
        history.set_setting("principal_color", "gold")
    with History(tmp_path) as history:
        assert history.setting("principal_color") == "gold"
        assert history.setting("pin", "none") == "none"


def test_the_player_filter_folds_case_beyond_ascii(history):
    for roller in ("Nara", "Ágata", "nara", "Zara"):
        history.save(make_roll(roller=roller))
    assert [r["roller"] for r in history.rolls(player="nara")] == ["nara", "Nara"]
    assert [r["roller"] for r in history.rolls(player="ÁGATA")] == ["Ágata"]
    assert [r["roller"] for r in history.rolls(player="ágata")] == ["Ágata"]


def test_a_save_after_close_fails_as_a_save_and_changes_nothing(tmp_path):
    history = History(tmp_path)
    history.close()
    history.close()  # idempotent
    with pytest.raises(SaveFailed, match="could not be saved"):
        history.save(make_roll())
    assert history.check() == "the history database is closed"
    with History(tmp_path) as again:
        assert again.rolls() == []


def test_a_note_is_kept_as_its_phrase_and_an_older_plain_note_as_it_is(history, tmp_path):
    """A roll's note is kept as its template and values (the page words it in each phone's
    language, #18); a note kept as plain English (an older row) comes back as that text."""
    note = Phrase("abandoned: {why}", why=Phrase("its preset {preset} is no more", preset="2d6"))
    saved = history.save(make_roll(note=note))
    with History(tmp_path) as reopened:
        kept = reopened.roll(saved["id"])["note"]
    assert isinstance(kept, Phrase) and kept == "abandoned: its preset 2d6 is no more"
    assert kept.template == "abandoned: {why}" and kept.values["why"].template == "its preset {preset} is no more"
    plain = history.save(make_roll(note="abandoned: {this} was armed"))  # braces: not read as a phrase
    assert history.roll(plain["id"])["note"] == "abandoned: {this} was armed"
    assert not isinstance(history.roll(plain["id"])["note"], Phrase)
