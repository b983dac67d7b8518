"""Settle detection: has the tray gone still after the dice were thrown?

Motion is measured between small, grey, blurred copies of the preview frames:
the fraction of pixels whose brightness changed by more than a threshold. The
blur and the threshold keep sensor noise from counting as motion; a fraction
(not a sum) keeps the measure independent of the preview size.
"""

from __future__ import annotations

import cv2
import numpy as np

# Motion is judged on frames this wide; enough for a die of ~10 px in a tray.
_WORK_WIDTH = 160


def prepare(frame: np.ndarray, width: int = _WORK_WIDTH) -> np.ndarray:
    """Shrink a frame to ``width`` pixels wide, grey and blurred, for comparing.

    :param frame: H×W×3 uint8 BGR or H×W uint8 grey image.
    :returns: h×width uint8 grey image.
    :raises ValueError: if ``frame`` is not a 2-D or 3-channel uint8 image.
    """
    if frame.dtype != np.uint8 or frame.ndim not in (2, 3) or (frame.ndim == 3 and frame.shape[2] != 3):
        raise ValueError(f"a preview frame must be H×W or H×W×3 uint8, got {frame.shape} {frame.dtype}")
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    height = max(1, round(grey.shape[0] * width / grey.shape[1]))
    small = cv2.resize(grey, (width, height), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (5, 5), 0)


def changed_fraction(a: np.ndarray, b: np.ndarray, pixel_threshold: int) -> float:
    """Fraction in [0, 1] of pixels differing by more than ``pixel_threshold`` grey levels."""
    return float(np.count_nonzero(cv2.absdiff(a, b) > pixel_threshold)) / a.size


class SettleDetector:
    """Says once per throw when the tray has been still long enough after moving.

    Feed it every preview frame with its time; :meth:`update` answers True once,
    on the first frame at which the tray has been still for ``still_seconds``
    after some movement. It then needs fresh movement (a new throw) before it
    answers True again, so one throw never gives two results.

    Stillness is checked against the previous frame and against the first
    still frame, so dice creeping slowly (a die rocking on an edge) are still
    seen as moving.

    :param still_seconds: how long the tray must stay still, in seconds.
    :param motion_fraction: fraction of the frame that must change to count as
        movement (0.002 is ~40 px of a 160×120 working frame: a small die).
    :param pixel_threshold: grey levels (0–255) a pixel must change by to count
        as changed; well above blurred sensor noise.
    """

    def __init__(self, still_seconds: float = 0.4, *, motion_fraction: float = 0.002,
                 pixel_threshold: int = 25) -> None:
        if still_seconds < 0:
            raise ValueError(f"still_seconds must be 0 or more, got {still_seconds}")
        if not 0 < motion_fraction < 1:
            raise ValueError(f"motion_fraction must be between 0 and 1, got {motion_fraction}")
        if not 0 < pixel_threshold < 255:
            raise ValueError(f"pixel_threshold must be between 1 and 254, got {pixel_threshold}")
        self.still_seconds = still_seconds
        self.motion_fraction = motion_fraction
        self.pixel_threshold = pixel_threshold
        self.reset()

    def reset(self) -> None:
        """Forget the frames seen and any movement: the next result needs a new throw."""
        self._previous: np.ndarray | None = None
        self._previous_t = 0.0
        self._still_reference: np.ndarray | None = None
        self._still_since: float | None = None
        self._moved = False
        self._read_already = False

    def mark_read(self) -> None:
        """The throw under way was read on request: its settling gives no result of its own.

        When the tray is already still this changes nothing: the next throw
        gives a result as usual.
        """
        self._read_already = self._moved

    @property
    def moving(self) -> bool:
        """True while movement was seen and the tray has not yet been still since."""
        return self._moved and self._still_since is None

    def update(self, frame: np.ndarray, t: float) -> bool:
        """Take one preview frame; True once when the tray has settled after movement.

        :param frame: preview image, H×W×3 uint8 BGR or H×W uint8 grey.
        :param t: the frame's time in seconds (any monotonic clock).
        :returns: True on the first frame still for ``still_seconds`` after movement.
        :raises ValueError: if ``frame`` is not an image.
        """
        current = prepare(frame)
        previous, self._previous = self._previous, current
        previous_t, self._previous_t = self._previous_t, t
        if previous is None or previous.shape != current.shape:
            return False  # nothing to compare with (first frame, or the camera changed size)
        if self._is_motion(previous, current) or (
                self._still_reference is not None and self._is_motion(self._still_reference, current)):
            self._moved = True
            self._still_since = None
            self._still_reference = None
            return False
        if not self._moved:
            return False
        if self._still_since is None:
            # Unchanged since the previous frame: the tray has been still since then.
            self._still_since = previous_t
            self._still_reference = previous
        if t - self._still_since >= self.still_seconds - 1e-9:  # frame times add up in floats
            read_already, self._read_already = self._read_already, False
            self._moved = False
            self._still_since = None
            self._still_reference = None
            return not read_already
        return False

    def _is_motion(self, a: np.ndarray, b: np.ndarray) -> bool:
        return changed_fraction(a, b, self.pixel_threshold) > self.motion_fraction
