"""Reading request input strictly: every malformed value becomes a 400 with its reason.

Numbers are bounded before they reach the controller, so huge values never get
as far as SQLite (whose integers stop at 2**63 - 1).
"""

from __future__ import annotations

import json
from typing import Any

from flask import request
from flask_babel import gettext as _

from .errors import BadRequest

# The largest id SQLite stores; bigger ids in a URL are simply unknown.
MAX_ID = 2**63 - 1
MAX_NAME = 40


def json_body() -> dict[str, Any]:
    """The request body as a JSON object; an empty body is ``{}``.

    The Content-Type is not trusted either way: the body must parse as JSON.

    :raises BadRequest: for a body that is not a JSON object.
    """
    raw = request.get_data(cache=True)
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        raise BadRequest(_("the body is not valid JSON")) from None
    if not isinstance(body, dict):
        raise BadRequest(_("the body must be a JSON object"))
    return body


def only_keys(body: dict, allowed: set[str]) -> None:
    """:raises BadRequest: when ``body`` has a key outside ``allowed``."""
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise BadRequest(_("unknown field: %(name)s", name=unknown[0][:MAX_NAME]))


def whole_number(value: Any, name: str, low: int, high: int) -> int:
    """``value`` as an int within ``[low, high]`` (booleans and floats refused).

    :raises BadRequest: for anything else.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(
            _("%(name)s must be a whole number from %(low)d to %(high)d", name=name, low=low, high=high)
        )
    return value


def face_value(value: Any, sides: int) -> int:
    """``value`` as the face of a die of ``sides`` sides: 1 to ``sides``; a d10 also takes
    its printed 0 (which is 10, RULES P-1).

    :raises BadRequest: saying it must be a whole number, for anything else (a string "3",
        a float, a boolean); naming the faces these dice show, for a number they do not show.
    """
    low = 0 if sides == 10 else 1
    if isinstance(value, bool) or not isinstance(value, int):  # "3", 3.5, true: not a face, whatever it says
        raise BadRequest(_("a die's value must be a whole number, such as 3 (got %(got)s)",
                           got=json.dumps(value, ensure_ascii=False)[:20]))
    if not low <= value <= sides:
        if sides == 10:
            raise BadRequest(_("the dice of this roll show 0 to 10 (0 is 10)"))
        raise BadRequest(_("the dice of this roll show 1 to %(sides)d", sides=sides))
    return value


def only_query(*names: str) -> None:
    """Refuse a query parameter that is none of ``names`` (``lang``, any page's, always
    allowed: web/i18n.py), as :func:`only_keys` refuses a body's unknown field.

    :raises BadRequest: naming the first unknown one, in alphabetical order.
    """
    unknown = sorted(set(request.args) - {*names, "lang"})
    if unknown:
        raise BadRequest(_("unknown query parameter: %(name)s", name=unknown[0][:MAX_NAME]))


def query_number(name: str, default: int, low: int, high: int) -> int:
    """The query parameter ``name`` as an int within ``[low, high]``, or ``default``.

    :raises BadRequest: for a value that is not such a number.
    """
    raw = request.args.get(name)
    if raw is None:
        return default
    raw = raw.strip()
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 19):
        raise BadRequest(
            _("%(name)s must be a whole number from %(low)d to %(high)d", name=name, low=low, high=high)
        )
    return whole_number(int(raw), name, low, high)


def query_flag(name: str, default: bool) -> bool:
    """The query parameter ``name`` as a flag: 1/0, true/false, yes/no, on/off.

    :raises BadRequest: for another value.
    """
    raw = request.args.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise BadRequest(_("%(name)s must be 1 or 0", name=name))


def name_text(value: Any, name: str, *, optional: bool = True) -> str | None:
    """A short name typed by a player (a roller, who corrected): trimmed, at most 40 characters.

    :returns: the text, or None when optional and empty or missing.
    :raises BadRequest: for a non-string, one too long, or control characters.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        if optional:
            return None
        raise BadRequest(_("%(name)s is required", name=name))
    if not isinstance(value, str):
        raise BadRequest(_("%(name)s must be text", name=name))
    text = value.strip()
    if len(text) > MAX_NAME:
        raise BadRequest(_("%(name)s must be at most %(count)d characters", name=name, count=MAX_NAME))
    if not text.isprintable():
        raise BadRequest(_("%(name)s must not hold control characters (tab, new line, NUL…)", name=name))
    return text


def query_name(name: str) -> str | None:
    """An optional name filter from the query string (see :func:`name_text`)."""
    return name_text(request.args.get(name), name)
