"""The whole history as a download (``GET /api/rolls.csv``, ``.json``, :mod:`web.api`):
read page by page, so years of rolls never sit in memory."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import UTC, datetime

from flask import Response

from .messages import roll_label

EXPORT_PAGE = 200
CSV_COLUMNS = (
    "id", "seq", "started", "finished", "roller", "preset", "label", "system", "complete",
    "total", "successes", "outcome", "perfect", "botch", "naturals", "values", "roles",
    "sources", "corrected", "note",
)


def all_rolls(ctl, player: str | None, preset: str | None) -> Iterator[dict]:
    """Every roll of the history (the filters applied), newest first, asked for
    :data:`EXPORT_PAGE` at a time; a roll added meanwhile shifts the pages by one, so
    ids already given are skipped."""
    seen, offset = set(), 0
    while True:
        page = ctl.rolls(limit=EXPORT_PAGE, offset=offset, player=player, preset=preset)
        for item in page:
            if item["id"] not in seen:
                seen.add(item["id"])
                yield item
        if len(page) < EXPORT_PAGE:
            return
        offset += EXPORT_PAGE


def examples_by_roll(ctl) -> dict[int, list[dict]]:
    """The examples the page's corrections made (``ctl.examples()``), by the roll they came
    from: ``{roll id: [{"id", "kind", "value", "box", "who", "at"}]}`` (the JSON export's)."""
    out: dict[int, list[dict]] = {}
    for item in ctl.examples()["examples"]:
        if item.get("roll") is not None:
            out.setdefault(item["roll"], []).append({key: item.get(key) for key in ("id", "kind", "value", "box",
                                                                                     "who", "at")})
    return out


def _spreadsheet_safe(text: object) -> object:
    # A name starting with = + - @ would run as a formula in a spreadsheet.
    if isinstance(text, str) and text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + text
    return text


def csv_row(roll: dict) -> list:
    """One CSV line of a roll, in :data:`CSV_COLUMNS` order; dice lists space-separated, ``-``
    where a die has none (an unread die's natural value, a die without a role: an empty item
    would vanish between two spaces), and roles, which may hold spaces ("one left over"),
    separated by ``|``; a die a correction made surplus has the role
    ``surplus`` (it does not count); ``corrected`` numbers the corrected dice from 1, as the
    page does (a 0 read as "not corrected"; a die a correction added is by hand, not
    corrected, in the roll's record); ``label`` is the one it was rolled under
    (:func:`web.messages.roll_label`, as the table or the rules wrote it)."""
    dice = roll.get("dice") or []
    joined = lambda key: " ".join("-" if d.get(key) is None else str(d[key]) for d in dice)  # noqa: E731
    return [
        roll["id"], roll.get("seq"), roll.get("started"), roll.get("finished"),
        _spreadsheet_safe(roll.get("roller")), _spreadsheet_safe(roll.get("preset")),
        _spreadsheet_safe(roll_label(roll)), roll.get("system"), roll.get("complete"), roll.get("total"),
        roll.get("successes"), roll.get("outcome"), roll.get("perfect"), roll.get("botch"),
        joined("natural"), joined("value"),
        "|".join("surplus" if d.get("surplus") else "-" if d.get("role") is None else str(d["role"]) for d in dice),
        joined("source"),
        " ".join(str(d["index"] + 1) for d in dice if d.get("corrected")),
        _spreadsheet_safe(roll.get("note")),
    ]


def _download_name(extension: str) -> str:
    return f"dicelens-rolls-{datetime.now(UTC):%Y%m%d-%H%M%S}.{extension}"


def download(mimetype: str, extension: str, chunks: Iterator[str]) -> Response:
    """``chunks`` streamed as an attachment named ``dicelens-rolls-<UTC time>.<extension>``."""
    response = Response(chunks, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{_download_name(extension)}"'
    return response


def first_checked(rolls: Iterator[dict]) -> Iterator[dict]:
    """``rolls`` with its first page read now: a history that cannot be read answers 503
    before the download starts, not a cut-off file."""
    first = next(rolls, None)
    return iter(()) if first is None else itertools.chain([first], rolls)
