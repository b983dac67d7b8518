"""The history of rolls: SQLite (WAL) in the data folder, photos beside it.

Layout of the data folder::

    history.sqlite3          rolls, corrections, settings, the seq counter
    photos/<stem>.jpg        the frame a roll was read from (JPEG)
    photos/<stem>.annotated.jpg   the same frame with the readings drawn

Durability: photos are written to a temporary name and renamed before the
transaction that names them commits; each save is one transaction with
``synchronous=FULL``, so a kill -9 (or a power cut) at any moment loses no
roll whose save returned and leaves a database that opens. Photo files no
row names (a save cut short) are removed when the history is next opened.

Failures: a save that fails (a full disk, a read-only folder) changes nothing, removes
the photo files it wrote, and raises :class:`SaveFailed` saying why; the same save
succeeds once the cause is gone. Opening checks the database first (SQLite's
``quick_check``, the schema, every row's JSON) and raises :class:`HistoryDamaged`
naming the file and the row, writing and deleting nothing: the photos of a database
that could not be read (a zero-byte file among them) are never removed.

``seq`` (CONTRACTS.md) is a counter in the database: a roll gets the next
number each time it is saved (a roll in progress at each step, then finished,
then at every correction), so ``rolls_since(seq)`` gives an event stream
client what it missed. A roll in progress has ``finished`` None.

The SQL itself (the tables, the check at opening, the migration of a history an earlier
version wrote, a roll's row written and read back) is in :mod:`device.history_schema`.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import sqlite3
import threading
import uuid
from collections.abc import Callable
from pathlib import Path

from device.errors import HistoryDamaged, RollNotFound, SaveFailed
from device.history_schema import Transaction, check_database, load_roll, migrate, write_row
from device.roll.record import Roll
from rules.phrase import Phrase

log = logging.getLogger(__name__)

DATABASE = "history.sqlite3"
PHOTOS = "photos"
#: The most rolls one call of :meth:`History.rolls` gives (the API's largest page).
MAX_PAGE = 500

def _why(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc)


def _saving(method):
    """A write of the history: SQLite's and the disk's errors become :class:`SaveFailed`."""

    @functools.wraps(method)
    def write(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except (sqlite3.Error, OSError) as exc:
            if isinstance(exc, (SaveFailed, HistoryDamaged)):
                raise
            raise SaveFailed(Phrase("the history could not be saved ({why}): nothing was changed; "
                                    "try again once that is fixed", why=_why(exc))) from exc

    return write


def _reading(method):
    """A read of the history: a damaged page or row becomes :class:`HistoryDamaged`."""

    @functools.wraps(method)
    def read(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except (sqlite3.DatabaseError, json.JSONDecodeError) as exc:
            raise HistoryDamaged(Phrase("the history database {file} cannot be read ({why})",
                                        file=str(self.folder / DATABASE), why=_why(exc))) from exc

    return read


class History:
    """Rolls in SQLite, photos on disk; thread-safe (one connection behind a lock).

    :param folder: the data folder; created when missing.
    :param photo_cap_bytes: total size of photo files kept; the oldest rolls'
        photos are removed first when a new photo goes over it.
    """

    def __init__(self, folder: str | os.PathLike, photo_cap_bytes: int = 500 * 2**20):
        self.folder = Path(folder)
        self.photos = self.folder / PHOTOS
        self.folder.mkdir(parents=True, exist_ok=True)  # photos/ once the database is known sound
        self.photo_cap_bytes = photo_cap_bytes
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.folder / DATABASE, check_same_thread=False,
                                   isolation_level=None, timeout=10)
        self._db.row_factory = sqlite3.Row
        self._closed = False
        self._beside: list[Callable[[], None]] = []  # closed with it (close_with)
        # SQLite's own lower() and NOCASE fold ASCII only: "ágata" would not find "Ágata".
        self._db.create_function("casefold", 1, lambda text: text.casefold() if isinstance(text, str) else text,
                                 deterministic=True)
        try:
            check_database(self._db, self.folder / DATABASE, self.photos)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            with self._transaction():
                migrate(self._db)
        except (sqlite3.Error, HistoryDamaged):  # not a history (or a damaged one): leave it as it is
            self._db.close()
            raise
        self.photos.mkdir(exist_ok=True)
        self._remove_orphan_photos()
        self._photo_bytes = sum(path.stat().st_size for path in self.photos.glob("*.jpg"))

    # --- writing -----------------------------------------------------------
    @_saving
    def save(self, roll: Roll | dict, *, photo: bytes | None = None,
             annotated: bytes | None = None) -> dict:
        """Insert or update one roll in one transaction; returns it as stored.

        :param roll: a :class:`~device.roll.record.Roll` (the controller's) or its dict
            (README's API section) plus ``"spec"``; no ``"id"`` (or ``None``) inserts a new row.
        :param photo: the frame as JPEG bytes, with ``annotated`` the frame with the
            readings drawn; replaces the roll's earlier photos.
        :returns: the roll dict as :meth:`roll` gives it (``id``, ``seq``, ``photo``).
        :raises SaveFailed: when the photo or the row cannot be written (nothing changed).
        """
        stem = None
        try:
            if photo is not None:
                stem = f"{uuid.uuid4().hex}"
                self._write_photo(stem, ".jpg", photo)
                self._write_photo(stem, ".annotated.jpg", annotated if annotated is not None else photo)
            roll_id = self._save_row(roll.to_dict() if isinstance(roll, Roll) else roll, stem)
        except BaseException:
            if stem is not None:  # no row names these photos: they would only take space
                self._delete_photo(stem)
            raise
        return self.roll(roll_id)

    def _save_row(self, roll: dict, stem: str | None) -> int:
        """Write the row in one transaction; returns its id."""
        with self._lock:
            removed: list[str] = []
            with self._transaction():
                row = dict(roll)
                old_stem = None
                if row.get("id") is not None:
                    old = self._db.execute("SELECT photo FROM rolls WHERE id = ?", (row["id"],)).fetchone()
                    if old is None:
                        raise RollNotFound(row["id"])
                    old_stem = old["photo"]
                if stem is not None:
                    row["photo_stem"] = stem
                    if old_stem:
                        removed.append(old_stem)
                else:
                    row["photo_stem"] = old_stem
                self._db.execute("UPDATE counters SET value = value + 1 WHERE name = 'seq'")
                row["seq"] = self._db.execute(
                    "SELECT value FROM counters WHERE name = 'seq'").fetchone()[0]
                roll_id = write_row(self._db, row)
                self._db.execute("DELETE FROM corrections WHERE roll_id = ?", (roll_id,))
                self._db.executemany(
                    "INSERT INTO corrections VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(roll_id, n, c["index"], json.dumps(c["from"]), json.dumps(c["to"]),
                      c.get("who"), c["at"]) for n, c in enumerate(roll.get("corrections", ()))])
                if stem is not None:
                    removed += self._prune(keep=stem)
            for old_stem in removed:
                self._delete_photo(old_stem)
            return roll_id

    @_saving
    def delete(self, roll_id: int) -> None:
        """Remove one roll and its photos (a roll abandoned before any die was read)."""
        with self._lock:
            with self._transaction():
                row = self._db.execute("SELECT photo FROM rolls WHERE id = ?", (roll_id,)).fetchone()
                if row is None:
                    raise RollNotFound(roll_id)
                self._db.execute("DELETE FROM rolls WHERE id = ?", (roll_id,))
            if row["photo"]:
                self._delete_photo(row["photo"])

    @_saving
    def clear(self) -> None:
        """Remove every roll and photo; ``seq`` keeps counting up.

        :raises SaveFailed: when the photos folder or the database cannot be written
            (nothing is removed).
        """
        if not os.access(self.photos, os.W_OK | os.X_OK):  # its photos could not go: keep all
            raise SaveFailed(Phrase("the photos folder {folder} is not writable: nothing was cleared",
                                    folder=str(self.photos)))
        with self._lock:
            with self._transaction():
                self._db.execute("DELETE FROM corrections")
                self._db.execute("DELETE FROM rolls")
            for path in self.photos.glob("*.jpg"):
                _unlink(path)
            self._photo_bytes = sum(path.stat().st_size for path in self.photos.glob("*.jpg"))

    # --- reading -----------------------------------------------------------
    @_reading
    def roll(self, roll_id: int) -> dict:
        """One roll (finished or in progress). :raises RollNotFound:"""
        with self._lock:
            return load_roll(self._db, roll_id)

    @_reading
    def rolls(self, limit: int = 20, offset: int = 0, player: str | None = None,
              preset: str | None = None) -> list[dict]:
        """Rolls, newest first, optionally of one player (roller, in any case: "nara" finds
        Nara's) or preset.

        :raises ValueError: for a limit outside 1..:data:`MAX_PAGE` or a negative offset.
        """
        if not 1 <= limit <= MAX_PAGE or offset < 0:
            raise ValueError(f"limit must be 1 to {MAX_PAGE} and offset at least 0")
        where, args = ["1"], []
        if player is not None:
            where.append("casefold(roller) = ?")
            args.append(player.casefold())
        if preset is not None:
            where.append("preset = ?")
            args.append(preset)
        query = f"SELECT id FROM rolls WHERE {' AND '.join(where)} ORDER BY id DESC LIMIT ? OFFSET ?"
        with self._lock:
            ids = [row[0] for row in self._db.execute(query, (*args, limit, offset))]
            return [load_roll(self._db, roll_id) for roll_id in ids]

    @_reading
    def rolls_since(self, seq: int, limit: int = 500) -> list[dict]:
        """Rolls saved after ``seq``, in ascending seq (event stream catch-up)."""
        with self._lock:
            ids = [row[0] for row in self._db.execute(
                "SELECT id FROM rolls WHERE seq > ? ORDER BY seq LIMIT ?", (seq, limit))]
            return [load_roll(self._db, roll_id) for roll_id in ids]

    @_reading
    def dice_of_rolls(self, player: str | None = None) -> list[dict]:
        """Every roll's system and dice, ``[{"system", "dice"}]`` oldest first, of one player
        (as :meth:`rolls`) or all: what :func:`device.dice_stats.dice_stats` counts, read in
        one query (years of rolls, without their corrections and readings)."""
        where, args = ("WHERE casefold(roller) = ?", (player.casefold(),)) if player is not None else ("", ())
        with self._lock:
            return [{"system": row[0], "dice": json.loads(row[1])}
                    for row in self._db.execute(f"SELECT system, dice FROM rolls {where} ORDER BY id", args)]

    def unfinished(self) -> list[dict]:
        """Rolls still waiting for dice (``finished`` None), oldest first: at most the one a
        restart interrupted, or more left by an older version."""
        with self._lock:
            ids = [row[0] for row in self._db.execute("SELECT id FROM rolls WHERE finished IS NULL ORDER BY id")]
            return [load_roll(self._db, roll_id) for roll_id in ids]

    def latest(self) -> dict | None:
        """The newest roll, or ``None``."""
        found = self.rolls(limit=1)
        return found[0] if found else None

    @_reading
    def photo_path(self, roll_id: int, annotated: bool = True) -> Path | None:
        """The roll's photo file, ``None`` when it has none (or it was pruned).

        :raises RollNotFound:
        """
        with self._lock:
            row = self._db.execute("SELECT photo FROM rolls WHERE id = ?", (roll_id,)).fetchone()
        if row is None:
            raise RollNotFound(roll_id)
        if not row["photo"]:
            return None
        path = self.photos / (row["photo"] + (".annotated.jpg" if annotated else ".jpg"))
        return path if path.exists() else None

    @_reading
    def setting(self, name: str, default: object = None) -> object:
        """A setting changed on the page (JSON value), or ``default``."""
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
        return default if row is None else json.loads(row[0])

    def set_setting(self, name: str, value: object) -> None:
        """Store a setting changed on the page (JSON-able). :raises SaveFailed:"""
        self.set_settings({name: value})

    @_saving
    def set_settings(self, values: dict[str, object]) -> None:
        """Store several settings (JSON-able) in one transaction: all or none.

        :raises SaveFailed: when the database cannot be written (none is stored).
        """
        with self._lock, self._transaction():
            self._db.executemany("INSERT OR REPLACE INTO settings VALUES (?, ?)",
                                 [(name, json.dumps(value)) for name, value in values.items()])

    def check(self) -> str | None:
        """Ask SQLite whether the database is sound (``PRAGMA quick_check``), for /healthz.

        :returns: None when it is, else what is wrong in one line (SQLite's words).
        """
        with self._lock:
            if self._closed:
                return Phrase("the history database is closed")
            try:
                problems = [row[0] for row in self._db.execute("PRAGMA quick_check(3)")]
            except sqlite3.Error as exc:
                return Phrase("the history database fails: {error}", error=str(exc))
        return None if problems == ["ok"] else Phrase("the history database is damaged: {problems}",
                                                      problems="; ".join(problems))

    def unwritable(self) -> str | None:
        """Why a roll or photo could not be saved now (a read-only folder), or None."""
        for folder in (self.folder, self.photos):
            if not os.access(folder, os.W_OK | os.X_OK):
                return Phrase("{folder} is not writable: rolls and photos cannot be saved", folder=str(folder))
        return None

    def close_with(self, close: Callable[[], None]) -> None:
        """Call ``close`` when the history closes: a connection kept beside it
        (:meth:`device.examples.Examples.beside`) lives no longer than it."""
        with self._lock:
            self._beside.append(close)

    def close(self) -> None:
        """Close the database, and what was kept beside it (:meth:`close_with`); idempotent."""
        with self._lock:
            if not self._closed:
                for close in self._beside:
                    close()
                self._db.close()
                self._closed = True

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- inside ------------------------------------------------------------
    def _transaction(self):
        return Transaction(self._db)

    def _write_photo(self, stem: str, suffix: str, data: bytes) -> None:
        path = self.photos / (stem + suffix)
        temporary = path.with_name(path.name + ".tmp")
        try:
            with open(temporary, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except BaseException:
            _unlink(temporary)
            raise
        self._photo_bytes += len(data)

    def _prune(self, keep: str) -> list[str]:
        """Drop the oldest rolls' photos until under the cap; returns the stems to delete."""
        if self._photo_bytes <= self.photo_cap_bytes:
            return []
        stems = []
        excess = self._photo_bytes - self.photo_cap_bytes
        for row in self._db.execute("SELECT id, photo FROM rolls WHERE photo IS NOT NULL ORDER BY id"):
            if excess <= 0:
                break
            if row["photo"] == keep:
                continue
            excess -= self._stem_bytes(row["photo"])
            stems.append(row["photo"])
            self._db.execute("UPDATE rolls SET photo = NULL WHERE id = ?", (row["id"],))
        return stems

    def _stem_bytes(self, stem: str) -> int:
        return sum(path.stat().st_size for path in self.photos.glob(stem + "*.jpg"))

    def _delete_photo(self, stem: str) -> None:
        # After a commit: a photo that cannot go is logged, not raised (the change is saved).
        for path in self.photos.glob(stem + "*.jpg"):
            try:
                size = path.stat().st_size
            except OSError:
                continue
            if _unlink(path):
                self._photo_bytes -= size

    def _remove_orphan_photos(self) -> None:
        named = {row[0] for row in self._db.execute("SELECT photo FROM rolls WHERE photo IS NOT NULL")}
        for path in self.photos.iterdir():
            if path.name.endswith(".tmp") or path.name.split(".", 1)[0] not in named:
                path.unlink(missing_ok=True)


def _unlink(path: Path) -> bool:
    """Remove a file; False (logged) when it cannot be removed."""
    try:
        path.unlink(missing_ok=True)
        return True
    except OSError as exc:
        log.warning("could not remove %s: %s", path, _why(exc))
        return False
