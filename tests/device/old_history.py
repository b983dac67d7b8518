"""A history file as the versions before the history's migrations (``user_version`` 0) wrote
it: their tables, verbatim, and a free roll of theirs whose dice a correction added are kept
as corrected (device/history_schema.py migrates it when it is opened)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

from device.history import DATABASE

#: The tables before the history's migrations (device/history_schema.py SCHEMA of then).
OLD_SCHEMA = """
CREATE TABLE rolls (
    id INTEGER PRIMARY KEY AUTOINCREMENT, seq INTEGER UNIQUE, preset TEXT NOT NULL, system TEXT NOT NULL,
    roller TEXT, started TEXT NOT NULL, finished TEXT, complete INTEGER NOT NULL, total INTEGER,
    successes INTEGER, outcome TEXT, perfect INTEGER NOT NULL, botch INTEGER NOT NULL, note TEXT,
    photo TEXT, spec TEXT NOT NULL, result TEXT, dice TEXT NOT NULL, readings TEXT NOT NULL
);
CREATE INDEX rolls_by_roller ON rolls (roller, id);
CREATE INDEX rolls_by_preset ON rolls (preset, id);
CREATE INDEX rolls_with_photo ON rolls (id) WHERE photo IS NOT NULL;
CREATE TABLE corrections (
    roll_id INTEGER NOT NULL REFERENCES rolls (id) ON DELETE CASCADE, position INTEGER NOT NULL,
    die INTEGER NOT NULL, from_value TEXT, to_value TEXT, who TEXT, at TEXT NOT NULL,
    PRIMARY KEY (roll_id, position)
);
CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT INTO counters VALUES ('seq', 1);
CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def _die(index: int, natural: int, source: str, principal: bool = False) -> dict:
    return {"index": index, "step": 0, "natural": natural, "value": natural, "role": None, "source": source,
            "color": None, "box": [100 * index, 0, 100 * index + 60, 60], "corrected": True, "unreadable": None,
            "principal": principal}


#: The old free roll's dice, every one kept as corrected: 1, a 3 the camera read, corrected
#: to 4; 2, a 5 tapped in; 3, a 6 tapped in, then corrected to 2; 4, a 6 tapped in, then
#: marked the principal die.
OLD_DICE = [_die(0, 4, "camera"), _die(1, 5, "hand"), _die(2, 2, "hand"), _die(3, 6, "hand", principal=True)]
#: Its corrections (die, from, to), in order.
OLD_CORRECTIONS = [(0, 3, 4), (1, None, 5), (2, None, 6), (2, 6, 2), (3, None, 6), (3, "secondary", "principal")]
#: Which of its dice a correction changed what it showed: the camera's 3, the tapped-in 6 corrected to 2.
CORRECTED = [True, False, True, False]


def write_old_history(folder: Path) -> Path:
    """The old history file in ``folder`` (made), holding the old free roll (id 1, preset
    "free", roller "ana"); returns the file."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / DATABASE
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.executescript(OLD_SCHEMA)
        db.execute("INSERT INTO rolls (seq, preset, system, roller, started, finished, complete, total, perfect, "
                   "botch, spec, result, dice, readings) VALUES (1, 'free', 'free', 'ana', ?, ?, 1, 17, 0, 0, ?, ?, ?, "
                   "'[]')", ("2026-11-30T20:00:00.000+00:00", "2026-11-30T20:00:09.000+00:00",
                             json.dumps({"count": 4, "kind": "D6", "modifier": 0, "random": False}),
                             json.dumps({"system": "d6", "total": 17, "label": "4D6"}), json.dumps(OLD_DICE)))
        db.executemany("INSERT INTO corrections VALUES (1, ?, ?, ?, ?, NULL, '2026-11-30T20:00:05.000+00:00')",
                       [(n, die, json.dumps(before), json.dumps(after))
                        for n, (die, before, after) in enumerate(OLD_CORRECTIONS)])
    return path
