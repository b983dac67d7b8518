"""Cameras that replay throws: a folder of tray photos, one photo per throw.

A throw shows a few frames of motion (the previous tray sliding away as the
new one slides in, blurred), then the new tray held still, so the settle
detector sees the same thing it sees from a real camera. Throws start on
request (:meth:`ReplayCamera.throw`) or every ``auto_throw`` seconds.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from device.cameras.base import Camera, shrink
from device.errors import CameraUnavailable
from rules.phrase import Phrase
from vision.image import MAX_PIXELS, DamagedImage, ImageTooLarge, read_image

log = logging.getLogger(__name__)

#: the still formats ``cv2.imread`` reads (its documentation's list), by the name's suffix, any case
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff", ".jpe", ".jp2", ".dib", ".pbm",
                  ".pgm", ".ppm", ".pxm", ".pnm", ".pfm", ".sr", ".ras", ".exr", ".hdr", ".pic", ".avif")


class ReplayCamera(Camera):
    """A camera whose throws are made, not seen: subclasses say what a throw looks like.

    Each :meth:`capture_preview` call shows the next frame of the throw under
    way, then the settled tray for as long as no new throw starts;
    :meth:`capture` gives the frame last shown, at full resolution.

    :param moving_frames: frames of motion at the start of each throw.
    :param auto_throw: seconds between throws made without being asked; None for none.
    :param clock: monotonic seconds, for ``auto_throw``.
    :param seed: seed of the random motion.
    """

    can_throw = True

    def __init__(self, *, moving_frames: int = 4, auto_throw: float | None = None,
                 clock: Callable[[], float] = time.monotonic, seed: int = 0) -> None:
        if moving_frames < 1:
            raise ValueError(f"moving_frames must be 1 or more, got {moving_frames}")
        if auto_throw is not None and auto_throw <= 0:
            raise ValueError(f"auto_throw must be a number of seconds above 0, got {auto_throw}")
        self._moving_frames = moving_frames
        self._auto_throw = auto_throw
        self._clock = clock
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._queue: deque[Callable[[], np.ndarray]] = deque()
        self._shown: np.ndarray | None = None
        self._still: np.ndarray | None = None
        self._next_auto_throw = clock() if auto_throw else None  # the first throw comes at once
        self.throws = 0  #: throws started so far

    # -- what subclasses provide -------------------------------------------
    def _empty_tray(self) -> np.ndarray:
        """The tray before the first throw: H×W×3 uint8 BGR."""
        raise NotImplementedError

    def _next_tray(self, count: int | None) -> np.ndarray:
        """The settled tray of the next throw: H×W×3 uint8 BGR."""
        raise NotImplementedError

    def _moving(self, before: np.ndarray, after: np.ndarray) -> list[Callable[[], np.ndarray]]:
        """Frames of the throw in motion between two settled trays, each made when shown.

        The default slides and blurs one tray into the other.
        """
        return [partial(_slide, before, after, (k + 1) / (self._moving_frames + 1), self._rng)
                for k in range(self._moving_frames)]

    # -- the camera ----------------------------------------------------------
    def throw(self, count: int | None = None) -> None:
        with self._lock:
            self._start_throw(count)

    def _start_throw(self, count: int | None) -> None:
        before = self._current()
        after = self._next_tray(count)
        if after.shape != before.shape:
            # A photo is shown at its own size (a folder may mix portrait and landscape photos):
            # resized, its dice would be squashed out of reading. Only the motion frames, made
            # at its size, show the tray before fitted in; the settle detector passes over the
            # one frame that changes size and sees the motion in the next ones.
            before = letterboxed(before, (after.shape[1], after.shape[0]))
        self._queue = deque(self._moving(before, after))
        self._still = after
        self.throws += 1
        if self._auto_throw:
            self._next_auto_throw = self._clock() + self._auto_throw

    def _current(self) -> np.ndarray:
        if self._shown is None:
            self._shown = self._still = self._empty_tray()
        return self._shown

    def capture_preview(self) -> np.ndarray:
        with self._lock:
            if self._next_auto_throw is not None and self._clock() >= self._next_auto_throw:
                self._start_throw(None)
            current = self._current()  # makes the still tray when there is none yet
            shown = self._queue.popleft()() if self._queue else self._still
            self._shown = shown = current if shown is None else shown
            return shrink(shown)

    def capture(self) -> np.ndarray:
        with self._lock:
            return self._current().copy()


def letterboxed(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` scaled to fit in ``size`` (width, height) pixels keeping its proportions, centred
    on its median colour."""
    width, height = size
    scale = min(width / image.shape[1], height / image.shape[0])
    inner = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
    canvas = np.empty((height, width, 3), np.uint8)
    canvas[:] = np.median(image.reshape(-1, 3), axis=0).astype(np.uint8)
    x, y = (width - inner[0]) // 2, (height - inner[1]) // 2
    canvas[y:y + inner[1], x:x + inner[0]] = cv2.resize(image, inner, interpolation=cv2.INTER_AREA)
    return canvas


def _slide(before: np.ndarray, after: np.ndarray, progress: float, rng: random.Random) -> np.ndarray:
    """A frame part way (``progress`` in (0, 1)) from one tray to the next, shaken and blurred."""
    height, width = after.shape[:2]
    reach = 0.25 * (1 - progress)
    dx = rng.uniform(-reach, reach) * width
    dy = rng.uniform(-reach, reach) * height
    shift = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
    moved = cv2.warpAffine(after, shift, (width, height), borderMode=cv2.BORDER_REFLECT)
    length = max(3, int(15 * (1 - progress)) | 1)
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length  # horizontal motion blur
    moved = cv2.filter2D(moved, -1, kernel)
    return cv2.addWeighted(before, 1 - progress, moved, progress, 0)


def is_photo(path: Path) -> bool:
    """Whether ``path`` is a file to replay as a photo: one of :data:`PHOTO_SUFFIXES`, whatever
    its content (a photo renamed ``a.bak`` is put aside, not replayed)."""
    return path.is_file() and path.suffix.lower() in PHOTO_SUFFIXES


class PhotoFolderCamera(ReplayCamera):
    """Replays photos of a tray (a folder, sorted by name, or one photo), one per throw.

    Each photo is shown at its own size, never resized (portrait and landscape photos may
    mix). After the last photo it starts again from the first. A photo that cannot be
    read (damaged, cut short, or larger than ``vision.image.MAX_PIXELS``) is left
    out, with one warning naming it and why. Once none is left (photos deleted or
    damaged while it runs, or the folder itself gone: one line for it), :meth:`capture_preview` raises
    :class:`~device.errors.CameraUnavailable` saying so: the tray loop reports the
    camera not ok and opens it again, listing the folder anew, until a photo reads.

    :param path: a folder of photos or one photo.
    :raises ValueError: if the path holds no photo, or none that can be read.
    """

    def __init__(self, path: str | Path, **options) -> None:
        self.path = Path(path)
        self._folder = self.path.is_dir()
        if self._folder:
            self.photos = sorted(p for p in self.path.iterdir() if is_photo(p))
        elif is_photo(self.path):
            self.photos = [self.path]
        else:
            raise ValueError(Phrase("file camera: {path} is neither a folder of photos nor a photo",
                                    path=str(self.path)))
        if not self.photos:
            raise ValueError(Phrase("file camera: no photos ({suffixes}, the other stills OpenCV reads) in {path}",
                                    suffixes=", ".join(PHOTO_SUFFIXES[:7]), path=str(self.path)))
        self._next_index = 0
        self._gone: str | None = None  # why no photo is left, once none is
        self.photo: Path | None = None  #: the photo of the current throw
        # An empty tray of the first readable photo's size and overall colour.
        image = self._read_next()[1]
        self._next_index = 0
        self._empty = np.full_like(image, np.median(image.reshape(-1, 3), axis=0).astype(np.uint8))
        super().__init__(**options)

    def __str__(self) -> str:
        return f"file camera {self.path}"

    def _read_next(self) -> tuple[Path, np.ndarray]:
        """The next readable photo; unreadable ones are dropped from :attr:`photos`.

        :raises ValueError: when no photo is left.
        """
        reason: str = ""
        if self._folder and not self.path.is_dir():  # one line for the folder, not one per photo
            self.photos = []
            self._gone = Phrase("file camera: the folder {path} is gone", path=str(self.path))
            raise ValueError(self._gone)
        while self.photos:
            self._next_index %= len(self.photos)
            path = self.photos[self._next_index]
            try:
                image = read_image(path)
                reason = (Phrase("not a readable photo") if path.exists()
                          else Phrase("gone (deleted or moved since it was listed)"))
            except (ImageTooLarge, DamagedImage) as exc:
                image, reason = None, _unreadable(exc)
            if image is not None:
                self._next_index += 1
                return path, image
            log.warning("file camera: skipping %s: %s", path, reason)
            del self.photos[self._next_index]
        if self.path.is_dir():
            self._gone = Phrase("file camera: none of the photos in {path} can be read (each is named in the log)",
                                path=str(self.path))
        else:
            self._gone = Phrase("file camera: {path}: {reason}", path=str(self.path), reason=reason)
        raise ValueError(self._gone)

    def capture_preview(self) -> np.ndarray:
        if self._gone is not None:
            raise CameraUnavailable(self._gone)
        return super().capture_preview()

    def _empty_tray(self) -> np.ndarray:
        return self._empty

    def _next_tray(self, count: int | None) -> np.ndarray:
        self.photo, image = self._read_next()
        return image


def _unreadable(error: ImageTooLarge | DamagedImage) -> Phrase:
    """Why vision refused a photo (its English, ``vision.image``), as a phrase the page words."""
    if isinstance(error, DamagedImage):
        return Phrase("damaged image (the file is cut short)")
    most = MAX_PIXELS // 1_000_000
    if error.size is None:
        return Phrase("image too large (at most {most} megapixels)", most=most)
    return Phrase("image too large ({width}×{height} pixels; at most {most} megapixels)",
                  width=error.size[0], height=error.size[1], most=most)
