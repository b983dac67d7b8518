"""``GET /healthz`` (blueprint ``health``): is the companion fit to read dice? For systemd,
a monitor, or a player wondering why nothing happens.

200 with the controller's :meth:`health` figures when everything is fine; 503 with the
same figures and ``reasons`` (plain English lines) when something is not. A client that
asks for HTML before JSON (a browser: Settings' link) gets the health page instead, its
reasons in the page's language, with the same status:

* the camera is not ``ok`` (none found yet, or lost and being opened again);
* the camera is ok but its last frame is older than ``HEALTH_FRAME_SECONDS``
  (a camera loop that hangs);
* the data folder has less than ``HEALTH_MIN_FREE_MB`` megabytes free (rolls and
  photos would soon fail to save), or it cannot be measured;
* the history database fails SQLite's quick check;
* the last save of a roll or photo failed (a full disk...), until one succeeds, or the
  data or photos folder cannot be written.

Body: ``{"healthy": bool, "reasons": [str], "camera": {"status", "message",
"last_frame_seconds"}, "disk": {"free_bytes", "error"}, "database": {"ok", "error"},
"saving": {"ok", "error"}}``.
Thresholds come from the app config (``DICE_HEALTH_FRAME_SECONDS`` … in the environment,
checked when ``dicelens serve`` starts: web/environment.py).
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, make_response, render_template, request

from rules.phrase import Phrase

from .api import controller
from .messages import translated

bp = Blueprint("health", __name__)

#: Seconds without a frame before a camera that says ok counts as hung.
FRAME_SECONDS = 10.0
#: Megabytes the data folder must keep free.
MIN_FREE_MB = 100.0


@bp.get("/healthz")
def healthz():
    report = controller().health()
    reasons = problems(report, float(current_app.config.get("HEALTH_FRAME_SECONDS", FRAME_SECONDS)),
                       float(current_app.config.get("HEALTH_MIN_FREE_MB", MIN_FREE_MB)))
    # A browser (Settings' link) asks for HTML first: a page in its language; a monitor, curl
    # or systemd (*/*, JSON) gets the JSON, with the same status.
    if request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html":
        response = make_response(render_template("health.html", healthy=not reasons,
                                                 reasons=[translated(r) for r in reasons]))
    else:
        response = jsonify(healthy=not reasons, reasons=reasons, **report)
    response.status_code = 503 if reasons else 200
    response.headers["Cache-Control"] = "no-store"
    return response


#: The camera loop's statuses (``device.tray.loop``) as the health page words them.
_STATUS_WORDS = {"no camera": Phrase("no camera"), "reconnecting": Phrase("reconnecting")}


def problems(report: dict, frame_seconds: float, min_free_mb: float) -> list[str]:
    """What is wrong in ``report`` (as ``controller.health()`` gives it), one plain line each:
    a :class:`Phrase` (English, a ``str``) the health page words in its language.

    :param frame_seconds: the oldest last frame, in seconds, of a camera counted as working.
    :param min_free_mb: the free space, in megabytes (2**20 bytes), the data folder needs.
    :returns: an empty list when healthy.
    """
    reasons: list[str] = []
    camera = report["camera"]
    if camera["status"] != "ok":
        reasons.append(Phrase("camera unavailable ({status}): {message}", status=_STATUS_WORDS.get(
                              camera["status"], camera["status"]),
                              message=camera["message"] or Phrase("no reason given")))
    elif camera["last_frame_seconds"] is None:
        reasons.append(Phrase("the camera has given no frame yet"))
    elif camera["last_frame_seconds"] > frame_seconds:
        reasons.append(Phrase("the camera's last frame is {age} s old (more than {most} s): the camera loop is stuck",
                              age=f"{camera['last_frame_seconds']:.0f}", most=f"{frame_seconds:g}"))
    disk = report["disk"]
    if disk["free_bytes"] is None:
        reasons.append(disk["error"] or Phrase("the free space of the data folder is unknown"))
    elif disk["free_bytes"] < min_free_mb * 2**20:
        reasons.append(Phrase("only {free} MB free in the data folder (less than {most} MB): rolls and photos "
                              "may fail to save", free=f"{disk['free_bytes'] / 2**20:.0f}", most=f"{min_free_mb:g}"))
    if not report["database"]["ok"]:
        reasons.append(report["database"]["error"] or Phrase("the history database fails"))
    saving = report.get("saving") or {"ok": True}
    if not saving["ok"]:
        reasons.append(saving["error"] or Phrase("rolls cannot be saved"))
    return reasons
