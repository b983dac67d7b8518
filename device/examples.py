"""The table's labelled dice (issue 17): every die taught (``dicelens teach``; later a
correction or a confirmed throw on the page) is an example — its crop, kind, value, the photo
it is in, who taught it and when — in the data folder's history database, table ``examples``.

The photos are kept beside it, ``examples/<digest>.<suffix>`` (the bytes as given, named by
their SHA-256, so a photo taught twice is kept once), written and synced before the
transaction that names them commits. A die taught again as it was is left as it was (its who
and at too); taught again with the same box and another kind or value it is a correction
(kind, value, who and at replaced, not doubled); a die whose box lies on another die of the
same photo (each box holds the other's centre, as :mod:`vision.scoring` matches dice) with
another kind or value contradicts it and is refused. One call of :meth:`Examples.add` is one
transaction: all of it or, on any error, nothing, and the examples already there are kept as
they were.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np

from device.history import DATABASE, PHOTOS, History
from device.history_schema import Transaction, check_database
from rules.phrase import Phrase
from vision import adapt

FOLDER = "examples"
CROP_SIDE = 64  # pixels: the crop kept with each example (for the page and for retraining)
SCHEMA = """
CREATE TABLE IF NOT EXISTS examples (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    photo TEXT NOT NULL,
    kind TEXT NOT NULL,
    value INTEGER NOT NULL,
    box TEXT NOT NULL,
    crop BLOB NOT NULL,
    origin TEXT,
    who TEXT,
    at TEXT NOT NULL,
    UNIQUE (photo, box)
)
"""
#: The roll an example of the page comes from (a correction, a die tapped in; None: taught).
ROLL_COLUMN = "ALTER TABLE examples ADD COLUMN roll INTEGER"
#: 1: its photo has dice that are no example (taught from an export's partial photo).
PARTIAL_COLUMN = "ALTER TABLE examples ADD COLUMN partial INTEGER NOT NULL DEFAULT 0"


@dataclass
class TaughtFile:
    """A photo to teach: its bytes, file suffix (".jpg"), decoded image (H×W×3 uint8 BGR),
    where it came from (shown back), its dice, the roll it is the photo of (None: taught), and
    whether it has dice that are not among ``dice`` (``partial``; a roll's photo tells by its
    roll's dice)."""

    data: bytes
    suffix: str
    image: np.ndarray
    origin: str
    dice: list[adapt.Example]
    roll: int | None = None
    partial: bool = False


@dataclass(frozen=True)
class Added:
    """What one :meth:`Examples.add` did with its dice: ``new`` ones, ``corrected`` ones (taught
    before with the same box and another kind or value: kind, value, who and at replaced) and
    ``unchanged`` ones (taught before as they are, or twice in the call: nothing written)."""

    new: int = 0
    corrected: int = 0
    unchanged: int = 0


class ExampleConflict(ValueError):
    """A die whose box lies on another die of its photo (taught before, or in the same call)
    that has another kind or value: one die shows one face. The message (a :class:`Phrase`)
    names the die (``origin`` die ``n``, counted from 1 in its file) and the one it lies on."""


def same_die(a: Sequence[float], b: Sequence[float]) -> bool:
    """Whether two boxes ([x0, y0, x1, y1] pixels) are one die: each holds the other's centre
    (the measure :func:`vision.scoring.score_photo` matches readings to labels by)."""
    def holds(box: Sequence[float], other: Sequence[float]) -> bool:
        cx, cy = (other[0] + other[2]) / 2, (other[1] + other[3]) / 2
        return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]
    return holds(a, b) and holds(b, a)


def _crop_png(image: np.ndarray, box: Sequence[float]) -> bytes:
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0) * 1.2
    half = side / 2
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    scale = CROP_SIDE / max(side, 1.0)
    matrix = np.array([[scale, 0, CROP_SIDE / 2 - cx * scale], [0, scale, CROP_SIDE / 2 - cy * scale]])
    crop = cv2.warpAffine(image, matrix, (CROP_SIDE, CROP_SIDE), flags=cv2.INTER_AREA if half > CROP_SIDE / 2
                          else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.imencode(".png", crop)[1].tobytes()


class Examples:
    """The examples of one data folder (made, with its history database, when missing).

    :raises HistoryDamaged: the folder's database is no sound history (see :class:`History`).
    """

    def __init__(self, folder: str | os.PathLike) -> None:
        History(folder).close()  # the history's own tables and checks come first
        self._open(Path(folder))

    @classmethod
    def beside(cls, history: History) -> Examples:
        """The examples of an open history's folder (checked when it opened), for the
        controller's threads: one connection, callers take turns (:attr:`lock`), closed with
        the history."""
        examples = cls.__new__(cls)
        examples._open(history.folder)
        history.close_with(examples.close)
        return examples

    @classmethod
    def reading(cls, folder: str | os.PathLike) -> Examples:
        """The examples of a data folder's history database, read only (``dicelens
        export-examples``): nothing in the folder is made, migrated or removed. A history an
        earlier version wrote, without the ``examples`` table or its later columns, reads as
        its examples are (none, no roll, not partial). Only :meth:`export`, :meth:`crop` and the
        other reads work on it.

        :raises FileNotFoundError: the folder holds no history database.
        :raises HistoryDamaged: it is no sound history (the checks of :class:`History`).
        """
        examples = cls.__new__(cls)
        examples.folder = Path(folder)
        examples.photos = examples.folder / FOLDER
        examples.lock = threading.Lock()
        database = examples.folder / DATABASE
        if not database.is_file():
            raise FileNotFoundError(database)
        # immutable when no server has it open (no -wal file): otherwise SQLite leaves a -wal
        # and a -shm file in the folder, even for a read-only connection
        wal = database.with_name(DATABASE + "-wal")
        uri = f"{database.resolve().as_uri()}?mode=ro{'' if wal.exists() else '&immutable=1'}"
        db = examples._db = sqlite3.connect(uri, uri=True, timeout=10, check_same_thread=False)
        db.row_factory = sqlite3.Row
        try:
            check_database(db, database, examples.folder / PHOTOS)
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            # temp objects shadow main's of the same name, and are no write to the folder
            if "examples" not in tables:
                db.execute(SCHEMA.replace("CREATE TABLE", "CREATE TEMP TABLE"))
                for column in (ROLL_COLUMN, PARTIAL_COLUMN):
                    db.execute(column.replace("TABLE examples", "TABLE temp.examples"))
            elif missing := {"roll", "partial"} - {row["name"] for row in db.execute("PRAGMA table_info(examples)")}:
                defaults = ", ".join(f"{'NULL' if name == 'roll' else 0} AS {name}" for name in sorted(missing))
                db.execute(f"CREATE TEMP VIEW examples AS SELECT *, {defaults} FROM main.examples")
            if "rolls" not in tables:
                db.execute("CREATE TEMP TABLE rolls (id INTEGER PRIMARY KEY, dice TEXT)")
        except BaseException:
            db.close()
            raise
        return examples

    def _open(self, folder: Path) -> None:
        self.folder = folder
        self.photos = self.folder / FOLDER
        self.photos.mkdir(exist_ok=True)
        self.lock = threading.Lock()
        self._db = sqlite3.connect(self.folder / DATABASE, isolation_level=None, timeout=10,
                                   check_same_thread=False)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute(SCHEMA)
        columns = {row["name"] for row in self._db.execute("PRAGMA table_info(examples)")}
        if "roll" not in columns:
            self._db.execute(ROLL_COLUMN)
        if "partial" not in columns:
            self._db.execute(PARTIAL_COLUMN)

    def add(self, files: Sequence[TaughtFile], who: str | None = None, at: datetime | None = None) -> Added:
        """Add every die of ``files`` in one transaction: a die new to its photo is added, one
        taught before with the same box and another kind or value is corrected (kind, value,
        who and at replaced), one taught as it is changes nothing (module docstring).

        :raises ExampleConflict: a die lies on another die of its photo, taught or in
            ``files``, of another kind or value (nothing added).
        :raises sqlite3.Error, OSError: nothing was added (the photos this call wrote are removed).
        """
        when = (at or datetime.now(UTC)).isoformat(timespec="seconds")
        written: list[Path] = []
        try:
            names = []
            for file in files:
                name = hashlib.sha256(file.data).hexdigest()[:32] + file.suffix.lower()
                names.append(name)
                path = self.photos / name
                if not path.exists():
                    self._write(path, file.data)
                    written.append(path)
            new = corrected = unchanged = 0
            with Transaction(self._db):
                taught: dict[str, list[tuple[str, int, list[float], int | None]]] = {}
                for name, file in zip(names, files, strict=True):
                    if name not in taught:
                        taught[name] = [(row["kind"], int(row["value"]), json.loads(row["box"]), None) for row in
                                        self._db.execute("SELECT kind, value, box FROM examples WHERE photo = ?",
                                                         (name,))]
                    for n, die in enumerate(file.dice, 1):
                        box = [round(v, 1) for v in die.box]
                        before = self._before(taught[name], die, box, file.origin, n)
                        if before == "unchanged":
                            unchanged += 1
                            continue
                        if before == "corrected":
                            self._db.execute("UPDATE examples SET kind = ?, value = ?, who = ?, at = ? "
                                             "WHERE photo = ? AND box = ?",
                                             (die.kind, die.value, who, when, name, json.dumps(box)))
                            corrected += 1
                        else:
                            self._db.execute(
                                "INSERT INTO examples (photo, kind, value, box, crop, origin, who, at, roll, partial) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                (name, die.kind, die.value, json.dumps(box), _crop_png(file.image, die.box),
                                 file.origin, who, when, file.roll, file.partial))
                            new += 1
                        taught[name] = [t for t in taught[name] if t[2] != box]
                        taught[name].append((die.kind, die.value, box, n))
            return Added(new, corrected, unchanged)
        except BaseException:
            for path in written:
                path.unlink(missing_ok=True)
            raise

    @staticmethod
    def _before(taught: list[tuple[str, int, list[float], int | None]], die: adapt.Example,
                box: list[float], origin: str, n: int) -> str:
        """``"new"``, ``"corrected"`` or ``"unchanged"``: what ``die`` (die ``n`` of ``origin``,
        its ``box`` as stored) is to its photo's dice ``(kind, value, box, n in this call or
        None: taught before)``.

        :raises ExampleConflict: it lies on one of them of another kind or value."""
        same = [t for t in taught if t[2] == box] or [t for t in taught if same_die(box, t[2])]
        for kind, value, _, given in same:
            if (kind, value) == (die.kind, die.value):
                return "unchanged"
            if given is None and same[0][2] == box:
                return "corrected"
            where = Phrase("die {n} of the same photo", n=given) if given else Phrase("a die taught before")
            raise ExampleConflict(Phrase(
                "{photo} die {n} lies on {where}, a {kind} showing {value}, and says a {die_kind} "
                "showing {die_value}: one die shows one face", photo=origin, n=n, where=where, kind=kind,
                value=value, die_kind=die.kind, die_value=die.value))
        return "new"

    def _write(self, path: Path, data: bytes) -> None:
        temporary = path.with_name(path.name + ".tmp")
        with temporary.open("wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        temporary.replace(path)

    def count(self) -> int:
        """How many dice are taught."""
        return int(self._db.execute("SELECT count(*) FROM examples").fetchone()[0])

    def taught_photos(self) -> list[adapt.TaughtPhoto]:
        """Every photo with its examples, as :func:`vision.adapt.fit` learns from them (a photo
        whose file is gone or no longer decodes is left out)."""
        by_photo: dict[str, list[adapt.Example]] = {}
        for row in self._db.execute("SELECT photo, kind, value, box FROM examples ORDER BY id"):
            by_photo.setdefault(row["photo"], []).append(
                adapt.Example(row["kind"], int(row["value"]), tuple(json.loads(row["box"]))))
        partial = self.partial_photos()
        out = []
        for name, dice in by_photo.items():
            image = cv2.imread(str(self.photos / name), cv2.IMREAD_COLOR)
            if image is not None:
                out.append(adapt.TaughtPhoto(image, dice, partial=name in partial))
        return out

    def partial_photos(self) -> set[str]:
        """The photos (file names under ``examples/``) with dice that are no example: a roll's
        photo whose roll saved more dice on a photo (with a box) than it has examples, or whose
        roll is gone from the history (cleared: its dice are not known), and a photo taught as
        partial (an export's, ``TaughtFile.partial``)."""
        partial = {row[0] for row in self._db.execute("SELECT DISTINCT photo FROM examples WHERE partial")}
        for name, examples, dice in self._db.execute(
                "SELECT e.photo, count(*), r.dice FROM examples e LEFT JOIN rolls r ON r.id = e.roll "
                "WHERE e.roll IS NOT NULL GROUP BY e.photo, e.roll"):
            if dice is None or sum(1 for die in json.loads(dice) if die.get("box")) > examples:
                partial.add(name)
        return partial

    def export(self) -> list[dict]:
        """Every example as JSON: id, photo (file under ``examples/``), kind, value, box
        ([x0, y0, x1, y1] photo pixels), origin, who, at (ISO 8601 UTC), roll (the roll's id
        for a die corrected or tapped in on the page, else None), partial (its photo has dice
        that are no example: :meth:`partial_photos`)."""
        partial = self.partial_photos()
        return [{"id": row["id"], "photo": f"{FOLDER}/{row['photo']}", "kind": row["kind"], "value": row["value"],
                 "box": json.loads(row["box"]), "origin": row["origin"], "who": row["who"], "at": row["at"],
                 "roll": row["roll"], "partial": row["photo"] in partial}
                for row in self._db.execute("SELECT id, photo, kind, value, box, origin, who, at, roll "
                                            "FROM examples ORDER BY id")]

    def counts(self) -> dict[str, int]:
        """How many dice are taught of each kind."""
        return {row[0]: int(row[1]) for row in
                self._db.execute("SELECT kind, count(*) FROM examples GROUP BY kind ORDER BY kind")}

    def remove(self, example_id: int) -> None:
        """Forget one example (its photo file too once no example is in it); the roll it came
        from is left as it is.

        :raises KeyError: no such example. :raises sqlite3.Error: nothing was removed.
        """
        with Transaction(self._db):
            row = self._db.execute("SELECT photo FROM examples WHERE id = ?", (example_id,)).fetchone()
            if row is None:
                raise KeyError(example_id)
            self._db.execute("DELETE FROM examples WHERE id = ?", (example_id,))
            still = self._db.execute("SELECT 1 FROM examples WHERE photo = ?", (row["photo"],)).fetchone()
        if still is None:  # after the commit: a photo left behind only takes space
            (self.photos / row["photo"]).unlink(missing_ok=True)

    def crop(self, example_id: int) -> bytes:
        """The PNG crop kept with one example (:data:`CROP_SIDE` pixels square)."""
        row = self._db.execute("SELECT crop FROM examples WHERE id = ?", (example_id,)).fetchone()
        if row is None:
            raise KeyError(example_id)
        return bytes(row[0])

    def close(self) -> None:
        """Close the connection once no caller holds :attr:`lock`: a request still reading the
        examples when the server stops ends first (closed under it, the process crashed)."""
        with self.lock:
            self._db.close()

    def __enter__(self) -> Examples:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def crop_png(image: np.ndarray, box: Sequence[float]) -> bytes:
    """The crop an example keeps of the die in ``box`` ([x0, y0, x1, y1] pixels of ``image``,
    H×W×3 uint8 BGR): a PNG of :data:`CROP_SIDE` pixels square."""
    return _crop_png(image, box)


def add_throw(store: Examples, photo: bytes, image: np.ndarray,
              dice: Sequence[tuple[str, int, Sequence[float]]], who: str | None = None) -> int:
    """One throw of the teaching round (:mod:`device.teach_round`) confirmed: each die
    ``(kind, value, box)`` becomes an example of ``photo`` (its JPEG bytes; ``image`` decoded),
    origin ``"teaching round"``, in one transaction of ``store`` (the controller's, taken in
    turn: :attr:`Examples.lock`); returns how many were new.

    :raises vision.adapt.ExampleError: a kind the reader does not know, a value not on the
        die, a box outside the photo (nothing added).
    :raises ExampleConflict: two of its dice are one die with two values (nothing added).
    :raises sqlite3.Error, OSError: nothing was added.
    """
    height, width = image.shape[:2]
    examples = [adapt.example(kind, value, list(box), width, height) for kind, value, box in dice]
    with store.lock:
        return store.add([TaughtFile(photo, ".jpg", image, "teaching round", examples)], who=who).new


def taught_by_kind(folder: str | os.PathLike, *, from_rolls: bool = False,
                   who: str | None = None) -> dict[str, dict[int, int]]:
    """How many examples a data folder holds per kind and value, ``{kind: {value: count}}``;
    empty when nothing is taught. Only the taught ones (``dicelens teach``, the teaching round:
    no roll) unless ``from_rolls``, which adds the corrected and tapped-in dice of the rolls
    (already counted as the rolls' dice); only those ``who`` taught (any case, as the history
    matches a player) when given. Reads its own short-lived, read-only connection
    (callable from any thread while an :class:`Examples` or the history has the database open).

    :raises sqlite3.Error: a database that cannot be read.
    """
    database = Path(folder) / DATABASE
    if not database.exists():
        return {}
    db = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'examples'").fetchone() is None:
            return {}
        has_roll = "roll" in {row[1] for row in db.execute("PRAGMA table_info(examples)")}
        where, args = ["roll IS NULL"] if has_roll and not from_rolls else [], []
        if who is not None:
            db.create_function("casefold", 1, lambda text: text.casefold() if isinstance(text, str) else text,
                               deterministic=True)
            where.append("casefold(who) = ?")
            args.append(who.casefold())
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        counts: dict[str, dict[int, int]] = {}
        for kind, value, count in db.execute(f"SELECT kind, value, count(*) FROM examples{clause} GROUP BY kind, value",
                                             args):
            counts.setdefault(kind, {})[int(value)] = int(count)
        return counts
    finally:
        db.close()
