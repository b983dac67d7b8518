"""A history database that cannot be read is refused at start, naming the file (and the row),
and nothing in the data folder is written or deleted: its photos may be its rolls'."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from device.errors import HistoryDamaged
from device.history import DATABASE, History
from device.serve import StartupError, open_history


def roll(number: int) -> dict:
    return {"preset": "2d6", "system": "d6", "roller": f"player {number}",
            "started": "2026-11-30T20:00:00Z", "finished": "2026-11-30T20:00:01Z",
            "complete": True, "total": 7, "perfect": False, "botch": False,
            "spec": {"system": "d6", "count": 2}, "result": {"total": 7},
            "dice": [{"index": 0, "natural": 3}, {"index": 1, "natural": 4}],
            "readings": [], "corrections": [], "note": "x" * 1500}


@pytest.fixture
def folder(tmp_path) -> Path:
    """A data folder with 40 rolls, each with a photo; closing checkpoints the WAL."""
    folder = tmp_path / "data"
    with History(folder) as history:
        for number in range(40):
            history.save(roll(number), photo=b"\xff\xd8 photo", annotated=b"\xff\xd8 annotated")
    return folder


def contents(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def refused(folder: Path) -> str:
    before = contents(folder)
    with pytest.raises(StartupError) as caught:
        open_history(folder, 2**30)
    assert contents(folder) == before  # nothing written, no photo deleted
    message = str(caught.value)
    assert f"history database {folder / DATABASE} cannot be used" in message and "move it aside" in message
    return message


@pytest.mark.slow
def test_a_page_overwritten_in_the_middle_is_refused(folder):
    path = folder / DATABASE
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 8 * page
    data[4 * page:6 * page] = b"\xa5" * (2 * page)  # two pages of the rolls table scribbled over
    path.write_bytes(bytes(data))
    assert "btreeInitPage" in refused(folder)  # SQLite's own words on the bad page


@pytest.mark.slow
def test_a_zero_byte_database_beside_photos_is_refused_and_the_photos_kept(folder):
    (folder / DATABASE).write_bytes(b"")
    assert len(list((folder / "photos").glob("*.jpg"))) == 80
    assert "is empty (0 bytes)" in refused(folder)


def test_a_zero_byte_database_with_no_photos_starts_a_new_history(tmp_path):
    (tmp_path / DATABASE).write_bytes(b"")
    with History(tmp_path) as history:
        assert history.rolls() == []


@pytest.mark.parametrize("newest", [True, False])
@pytest.mark.slow
def test_a_row_with_bad_json_is_refused_naming_the_row(folder, newest):
    with sqlite3.connect(folder / DATABASE) as db:
        row = 40 if newest else 17
        db.execute("UPDATE rolls SET dice = '[{\"index\": 0' WHERE id = ?", (row,))
    db.close()
    message = refused(folder)
    assert f"the row id = {row} of rolls is not valid JSON" in message


def test_a_database_of_another_program_is_refused(tmp_path):
    with sqlite3.connect(tmp_path / DATABASE) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
        db.execute("INSERT INTO notes VALUES ('mine')")
    db.close()
    assert "it has no table rolls" in refused(tmp_path)


@pytest.mark.slow
def test_a_table_lacking_columns_is_refused(folder):
    with sqlite3.connect(folder / DATABASE) as db:
        db.execute("ALTER TABLE rolls DROP COLUMN readings")
    db.close()
    assert "table rolls lacks readings" in refused(folder)


def test_a_roll_damaged_after_the_start_is_a_history_error_naming_the_file(tmp_path):
    with History(tmp_path) as history:
        saved = history.save(roll(1))
        history._db.execute("UPDATE rolls SET spec = 'not json' WHERE id = ?", (saved["id"],))
        with pytest.raises(HistoryDamaged) as caught:
            history.rolls()
        assert str(tmp_path / DATABASE) in str(caught.value)
