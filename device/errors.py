"""Errors raised by device/: one base class, concrete errors also inherit a builtin."""

from __future__ import annotations

from rules.phrase import Phrase


class DeviceError(Exception):
    """Base class of every error raised by device/."""


class CameraUnavailable(DeviceError, RuntimeError):
    """The camera cannot be opened or stopped giving frames; the message says why in one line."""


class ThrowUnsupported(DeviceError, RuntimeError):
    """A throw was asked of a camera that cannot throw dice itself (only file and sim cameras can)."""


def said(error: BaseException) -> str:
    """Why ``error`` happened: its :class:`Phrase` as it is (a page words it in its language),
    else its English (``str(error)`` would turn a Phrase into plain English)."""
    return error.args[0] if error.args and isinstance(error.args[0], Phrase) else str(error)


class RollNotFound(DeviceError, KeyError):
    """No roll with that id in the history."""


class SaveFailed(DeviceError, OSError):
    """The history could not save a change (a full disk, a read-only folder); nothing was
    changed, and the same request succeeds once the cause is gone. The message says why."""


class HistoryDamaged(DeviceError, OSError):
    """The history database cannot be read as a history (damaged pages, a foreign schema,
    a row that is not JSON); the message names the file and, where known, the row."""


class RollFinished(DeviceError, RuntimeError):
    """A change that would leave a finished past roll waiting for a throw (a die corrected
    to cocked, a principal die that voids it): only the current roll takes throws, so the
    roll's state refuses it (the web answers 409); nothing was changed."""


class RollNeedsDice(DeviceError, ValueError):
    """A correction would leave a finished past roll waiting for dice (a 6 on an extra die
    asks for the next one, RULES D6-4): ``needs`` (``{"count", "sides", "kind", "reason"}``)
    says which, to give with the correction (``Controller.correct(..., more=[...])``)."""

    def __init__(self, message: object, needs: dict):
        super().__init__(message)
        self.needs = needs
