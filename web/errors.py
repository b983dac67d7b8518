"""Errors of the web part, and the JSON answers every failed API request gets.

Every API error is ``{"error": reason}`` with a 4xx status: 400 malformed input,
401 PIN needed or wrong, 403 cross-site request, 429 too many wrong PINs, 404 unknown id, 405 wrong method,
409 not possible now (a throw on a real camera), 503 too many open event streams, or the
history could not save or read (a full disk, a damaged database: the device's
``SaveFailed``/``HistoryDamaged``, OSErrors worded as a Phrase; nothing was changed).
Nothing answers 500 for bad input; an unexpected failure is logged and answered
as a JSON 500 so a page never receives an HTML error.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from rules.errors import NotNow
from rules.phrase import Phrase

from .messages import reason

logger = logging.getLogger(__name__)


class WebError(Exception):
    """Base class of every error raised by ``web``; answered with its ``status``."""

    status = 500


class BadRequest(WebError, ValueError):
    """Malformed input: the message is the reason shown to the player (400)."""

    status = 400


class NotFound(WebError, LookupError):
    """An unknown roll, die or file (404)."""

    status = 404


class Unauthorized(WebError, PermissionError):
    """A control action without the PIN, or with a wrong one (401)."""

    status = 401


class Forbidden(WebError, PermissionError):
    """A state-changing request from another site (403)."""

    status = 403


class Conflict(WebError, RuntimeError):
    """Not possible in the present state, e.g. a throw on a real camera (409)."""

    status = 409


class TooManyAttempts(WebError, PermissionError):
    """Too many wrong PINs from one address; try again in a minute (429)."""

    status = 429


class Unavailable(WebError, RuntimeError):
    """The server has no room for one more event stream now (503)."""

    status = 503


@contextmanager
def refusals(not_found: str | None = None, unknown: type[WebError] = BadRequest,
             names: Mapping[str, str] | None = None) -> Iterator[None]:
    """The device's and the rules' refusals (the controller's, the fight's) as answers, with
    their reason in the phone's language (:func:`web.messages.reason`; the fighters named as
    ``names`` words them): ValueError → 400, RuntimeError and :class:`rules.errors.NotNow`
    (the fight's state) → 409, LookupError → 404 ``not_found`` when the unknown thing is named
    by the URL (a roll id), else ``unknown`` with the error's reason: 400 for a name in the body
    of a roll request, 404 for a fight's unknown fighter or sheet. A :class:`WebError` passes."""
    try:
        yield
    except WebError:
        raise
    except NotNow as exc:  # a refusal of the fight's state (a ValueError too): 409 as every other
        raise Conflict(reason(exc, names)) from exc
    except LookupError as exc:
        if not_found is not None:
            raise NotFound(not_found) from exc
        raise unknown(reason(exc, names) if exc.args else _("not found")) from exc
    except ValueError as exc:
        raise BadRequest(reason(exc, names)) from exc
    except RuntimeError as exc:
        raise Conflict(reason(exc, names)) from exc


def error_response(reason: str, status: int):
    """A JSON error answer ``{"error": reason}`` with its status."""
    response = jsonify(error=reason)
    response.status_code = status
    return response


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def register_error_handlers(app: Flask) -> None:
    """Answer errors as JSON on the API, and as a page in the phone's language elsewhere
    (error.html: the reason and a link to the live page)."""

    @app.errorhandler(WebError)
    def _web_error(exc: WebError):
        return error_response(str(exc), exc.status)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        if exc.code is None or exc.code < 400:
            return exc  # a redirect, not an error
        reasons = {
            400: _("malformed request"),
            404: _("not found"),
            405: _("method not allowed"),
            413: _("request too large"),
            415: _("unsupported media type"),
        }
        code = exc.code
        if not _wants_json():  # a page in the phone's language with a way home, not Werkzeug's English
            # a description of the raiser's own ("the table's own Wi-Fi is not on"), not Werkzeug's
            detail = exc.description if exc.description != type(exc).description else None
            return render_template("error.html", code=code, reason=reasons.get(code, exc.name), detail=detail), code
        response = error_response(reasons.get(code, exc.name), code)
        if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
            response.headers["Allow"] = ", ".join(exc.valid_methods)
        return response

    @app.errorhandler(OSError)
    def _storage_error(exc: OSError):
        if exc.args and isinstance(exc.args[0], Phrase):  # the history's own words
            logger.warning("%s %s: %s", request.method, request.path, exc)
            return error_response(reason(exc), 503)
        return _unexpected(exc)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        logger.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(_("internal error"), 500)
