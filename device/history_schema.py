"""The history's SQLite side: its tables, the check a database passes before it is used,
a roll's row written and read back, and the transaction every write runs in.

:class:`device.history.History` holds the connection, the lock and the photos; this module
only speaks SQL to the connection it is given.

A history written by an earlier version is brought up to date when it is opened
(:func:`migrate`, in the opening transaction: all of it or nothing), its version kept in
SQLite's ``user_version``.

A roll's ``note`` is kept as a :class:`rules.phrase.Phrase` (its ``to_dict`` as JSON in the
``note`` column), so the page words it again in each phone's language; a note that is
plain text (a row written before notes were phrases) is read back as it is.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from device.errors import HistoryDamaged, RollNotFound
from device.roll.record import Correction, Die, corrects_reading
from rules.phrase import Phrase

SCHEMA = """
CREATE TABLE IF NOT EXISTS rolls (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    seq INTEGER UNIQUE,
    preset TEXT NOT NULL,
    label TEXT,
    system TEXT NOT NULL,
    roller TEXT,
    started TEXT NOT NULL,
    finished TEXT,
    complete INTEGER NOT NULL,
    total INTEGER,
    successes INTEGER,
    outcome TEXT,
    perfect INTEGER NOT NULL,
    botch INTEGER NOT NULL,
    note TEXT,
    photo TEXT,
    spec TEXT NOT NULL,
    result TEXT,
    dice TEXT NOT NULL,
    readings TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rolls_by_roller ON rolls (roller, id);
CREATE INDEX IF NOT EXISTS rolls_by_preset ON rolls (preset, id);
CREATE INDEX IF NOT EXISTS rolls_with_photo ON rolls (id) WHERE photo IS NOT NULL;
CREATE TABLE IF NOT EXISTS corrections (
    roll_id INTEGER NOT NULL REFERENCES rolls (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    die INTEGER NOT NULL,
    from_value TEXT,
    to_value TEXT,
    who TEXT,
    at TEXT NOT NULL,
    PRIMARY KEY (roll_id, position)
);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT OR IGNORE INTO counters VALUES ('seq', 0);
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

_COLUMNS = ("id", "seq", "preset", "label", "system", "roller", "started", "finished", "complete",
            "total", "successes", "outcome", "perfect", "botch", "note", "photo", "spec",
            "result", "dice", "readings")
_JSON = ("spec", "result", "dice", "readings")
#: The columns each table of a history must have when it is opened (before :func:`migrate`
#: adds the ones an earlier version lacked: ``label``).
_TABLES = {
    "rolls": set(_COLUMNS) - {"label"},
    "corrections": {"roll_id", "position", "die", "from_value", "to_value", "who", "at"},
    "counters": {"name", "value"},
    "settings": {"name", "value"},
}
#: Columns holding JSON, per table (a NULL ``result`` is a roll not resolved yet).
_JSON_COLUMNS = {"rolls": ("spec", "result", "dice", "readings"),
                 "corrections": ("from_value", "to_value"), "settings": ("value",)}
_KEYS = {"rolls": "id", "corrections": "roll_id", "settings": "name"}


def check_database(db: sqlite3.Connection, database: Path, photos_folder: Path) -> None:
    """Check an opened database before it is used: SQLite's ``quick_check``, the tables and
    their columns, every JSON cell (the module docstring of :mod:`device.history`).

    :param database: its file; ``photos_folder``, the photos beside it.
    :raises HistoryDamaged: for a database that is no sound history, naming the file and the row.
    """
    photos = any(photos_folder.glob("*.jpg"))
    if photos and database.exists() and database.stat().st_size == 0:
        raise HistoryDamaged(f"the history database {database} is empty (0 bytes) while {photos_folder} "
                             "holds photos: it is not the history they belong to")
    # Said at start-up, in the log: plain English, not a Phrase for the page.
    damaged = lambda why: HistoryDamaged(f"the history database {database} is damaged: {why}")  # noqa: E731
    try:
        problems = [row[0] for row in db.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise damaged("; ".join(problems))
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        tables.discard("sqlite_sequence")
        if not tables:
            return  # a new history
        for table, columns in _TABLES.items():
            found = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            if not columns <= found:
                missing = ", ".join(sorted(columns - found))
                raise damaged(f"table {table} lacks {missing}" if found else f"it has no table {table}")
        for table, json_columns in _JSON_COLUMNS.items():
            bad = " OR ".join(f"({name} IS NOT NULL AND NOT json_valid({name}))" for name in json_columns)
            row = db.execute(f"SELECT {_KEYS[table]} FROM {table} WHERE {bad} LIMIT 1").fetchone()
            if row is not None:
                raise damaged(f"the row {_KEYS[table]} = {row[0]!r} of {table} is not valid JSON")
    except sqlite3.DatabaseError as exc:
        raise damaged(str(exc)) from None


def migrate(db: sqlite3.Connection) -> None:
    """Make the tables a new history lacks, and bring one an earlier version wrote up to
    :data:`VERSION` step by step (:data:`_STEPS`). The caller holds the transaction."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'rolls'").fetchone():
        for step in _STEPS[version:]:
            step(db)
    for statement in SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)
    if version < VERSION:  # a newer version's history keeps its number (its steps were run)
        db.execute(f"PRAGMA user_version = {VERSION}")


def _by_hand_not_corrected(db: sqlite3.Connection) -> None:
    """Version 1: a die a correction added (tapped in, entered for a past roll) or a leaning
    die's top face, which earlier versions kept as corrected, is by hand only
    (:func:`device.roll.record.corrects_reading`)."""
    rows = db.execute("SELECT id, dice FROM rolls WHERE EXISTS (SELECT 1 FROM json_each(rolls.dice) "
                      "WHERE json_extract(value, '$.source') = 'hand' AND json_extract(value, '$.corrected'))")
    for roll_id, column in rows.fetchall():
        corrections = [Correction.from_dict(c) for c in _corrections(db, roll_id)]
        dice = json.loads(column)
        for die in dice:
            if die.get("source") == "hand":
                die["corrected"] = corrects_reading(Die.from_dict(die), corrections)
        db.execute("UPDATE rolls SET dice = ? WHERE id = ?", (json.dumps(dice), roll_id))


def _label_column(db: sqlite3.Connection) -> None:
    """Version 2: the preset's label a roll was made under (``label``; NULL in the rows
    before it, which the page names as it did)."""
    if "label" not in {row[1] for row in db.execute("PRAGMA table_info(rolls)")}:
        db.execute("ALTER TABLE rolls ADD COLUMN label TEXT")


#: The steps from each version to the next: ``_STEPS[n]`` brings version n to n + 1.
_STEPS = (_by_hand_not_corrected, _label_column)
#: The version :func:`migrate` brings a history to (SQLite's ``user_version``).
VERSION = len(_STEPS)


def write_row(db: sqlite3.Connection, row: dict) -> int:
    """Insert the roll row (no ``"id"``) or update it; returns its id. The caller holds the
    transaction and sets ``row["seq"]`` and ``row["photo_stem"]``."""
    values = {
        "seq": row["seq"], "preset": row["preset"], "label": row.get("label"), "system": row["system"],
        "roller": row.get("roller"), "started": row["started"], "finished": row.get("finished"),
        "complete": int(bool(row.get("complete"))), "total": row.get("total"),
        "successes": row.get("successes"), "outcome": row.get("outcome"),
        "perfect": int(bool(row.get("perfect"))), "botch": int(bool(row.get("botch"))),
        "note": _note_column(row.get("note")), "photo": row["photo_stem"],
        "spec": json.dumps(row["spec"]), "result": json.dumps(row.get("result")),
        "dice": json.dumps(row.get("dice") or []), "readings": json.dumps(row.get("readings") or []),
    }
    if row.get("id") is None:
        names = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        cursor = db.execute(f"INSERT INTO rolls ({names}) VALUES ({marks})", tuple(values.values()))
        if cursor.lastrowid is None:  # set by every INSERT
            raise sqlite3.DatabaseError("the new roll got no id")
        return cursor.lastrowid
    sets = ", ".join(f"{name} = ?" for name in values)
    db.execute(f"UPDATE rolls SET {sets} WHERE id = ?", (*values.values(), row["id"]))
    return row["id"]


def load_roll(db: sqlite3.Connection, roll_id: int) -> dict:
    """The roll dict (CONTRACTS.md) of one row, its corrections with it. :raises RollNotFound:"""
    row = db.execute(f"SELECT {', '.join(_COLUMNS)} FROM rolls WHERE id = ?", (roll_id,)).fetchone()
    if row is None:
        raise RollNotFound(roll_id)
    roll = {name: row[name] for name in _COLUMNS}
    for key in _JSON:
        roll[key] = json.loads(roll[key]) if roll[key] is not None else None
    for key in ("complete", "perfect", "botch"):
        roll[key] = bool(roll[key])
    roll["photo"] = bool(roll["photo"])
    roll["note"] = _note_of(roll["note"])
    roll["corrections"] = _corrections(db, roll_id)
    return roll


def _corrections(db: sqlite3.Connection, roll_id: int) -> list[dict]:
    """A roll's corrections, in order, as :meth:`device.roll.record.Correction.to_dict` gives them."""
    return [{"index": c["die"], "from": json.loads(c["from_value"]), "to": json.loads(c["to_value"]),
             "who": c["who"], "at": c["at"]}
            for c in db.execute("SELECT * FROM corrections WHERE roll_id = ? ORDER BY position", (roll_id,))]


def _note_column(note: str | None) -> str | None:
    """A note as its column keeps it: a :class:`Phrase` as its dict in JSON, other text as it is."""
    return json.dumps(note.to_dict()) if isinstance(note, Phrase) else note


def _note_of(column: str | None) -> str | None:
    """A note column read back: the :class:`Phrase` it keeps, or its plain text (an older row's)."""
    if column is None or not column.startswith("{"):  # no plain English note begins with "{"
        return column
    try:
        return Phrase.from_dict(json.loads(column))
    except (ValueError, KeyError, TypeError, AttributeError, IndexError):
        return column  # a plain note after all


class Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT``, or ``ROLLBACK`` on an error."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, value, traceback) -> None:
        if kind:
            self.db.execute("ROLLBACK")
            return
        try:
            self.db.execute("COMMIT")
        except sqlite3.Error:  # a full disk at the commit: the transaction is still open
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
