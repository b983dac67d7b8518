"""The teaching round (issue 17 item 2, Settings → "Teach dicelens your dice"): while it is
on, every settled throw is read without rules — every kind, as the pool reads — and held
for the page: each die's crop with the value read; a tap fixes a value; "All right"
confirms the throw and its dice become examples of the data folder
(:mod:`device.examples`, origin ``"teaching round"``), the photo kept with them.

:class:`TeachingRound` is a tray consumer (:class:`device.tray.dispatch.TrayConsumer`) asked
before the roll: while it is on, the roll never sees a frame, so the preset armed before
stays armed and its next throw must settle after the round ends (RULES T-2). A throw is
held until it is confirmed or skipped; throws settling meanwhile are not taken. A round
whose page stopped asking for its state (closed without "Done") ends by itself
:data:`ALIVE_SECONDS` later: whoever asks whether it is on is told it is not, and a watcher
thread ends it on time when nobody asks (the live pages get the state event).
"""

from __future__ import annotations

import base64
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from device.tray.dispatch import Taken
from device.tray.match import Wanted, die_kind
from device.tray.problems import kind_name
from rules.phrase import Phrase
from vision.numerals import SIDES
from vision.reading import DieReading

if TYPE_CHECKING:
    from device.examples import Examples

#: A round whose state nobody asked for this long ends (its page was closed without "Done":
#: the table's rolls must not stay swallowed by it); the page asks every 1.5 s.
ALIVE_SECONDS = 60.0
WATCH_SECONDS = 1.0  # how often, in real seconds, the watcher looks whether the round's page is gone


def lacking(by_value: dict[str, dict[Any, int]]) -> dict[str, list[int]]:
    """The values of each taught kind that have no example yet: ``{kind: [value, …]}`` from
    ``{kind: {value: count}}`` (values as ints or their text, as an adaptation keeps them)."""
    return {kind: [v for v in range(1, SIDES[kind] + 1) if str(v) not in {str(k) for k in values}]
            for kind, values in by_value.items() if kind in SIDES}


#: Why a round cannot start: it learns from the camera's photos (dice by hand teach nothing).
NO_CAMERA_TO_TEACH = Phrase("teaching needs the camera, and none is reading the tray: connect it, "
                            "or start dicelens with it")


class TeachingRound:
    """The round of one data folder.

    :param folder: the data folder (its history database holds the examples).
    :param clock: the tray loop's clock (seconds): a throw counts once settled after the
        round started or its last throw was confirmed or skipped.
    :param examples: the folder's examples, which a confirmed throw joins.
    :param taught: called after a throw's dice became examples (the background refit).
    :param changed: called after the round turned on or off (the controller's state event).
    """

    def __init__(self, folder, clock: Callable[[], float], examples: Examples, taught: Callable[[], None],
                 changed: Callable[[], None] = lambda: None):
        self._folder = folder
        self._clock = clock
        self._examples = examples
        self._taught = taught
        self._changed = changed
        self._lock = threading.Lock()
        self._on = False
        self._since = 0.0
        self._asked = 0.0
        self._photo: bytes | None = None
        self._image: np.ndarray | None = None
        self._dice: list[dict[str, Any]] = []
        self._closed = threading.Event()
        self._watcher: threading.Thread | None = None

    # --- the tray's side ---------------------------------------------------------------
    def wanted(self, t: float) -> Wanted | None:
        """While on, every frame, read by every kind's reader (the roll sees none); None when off."""
        if not self.on:
            return None
        return Wanted(reader="numbered", as_is=True, before=None, photos=True, token="teach")

    def take(self, taken: Taken) -> bool:
        """Hold the throw read when it settled since the round started (or since the last
        throw was confirmed or skipped) and none is held; else (a frame with no die, none
        read) it is dropped: nothing to teach, and not the roll's either."""
        with self._lock:
            fresh = taken.t >= self._since and self._photo is None
        if fresh and taken.match.dice and taken.photos:
            self.hold(taken.photos[0], taken.match.dice)
        return True

    def hold(self, photo: bytes, dice: Sequence[DieReading]) -> None:
        """Hold one throw: its photo (JPEG bytes) and its dice as read (``kind`` by
        :func:`device.tray.match.die_kind`; a d10's 0 is 10, RULES P-1)."""
        from device.examples import crop_png  # OpenCV's crop, as the examples keep it

        image: np.ndarray | None = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_COLOR)
        if image is None:  # not a JPEG after all: nothing to show or teach
            return
        held = [{"kind": die_kind(die), "read": die.value, "value": die.value,
                 "box": [int(v) for v in die.box], "crop": crop_png(image, die.box)} for die in dice]
        with self._lock:
            if self._on and self._photo is None:
                self._photo, self._image, self._dice = photo, image, held

    # --- the page's side ---------------------------------------------------------------
    def start(self) -> None:
        """Turn the round on (again: the throw held stays)."""
        with self._lock:
            started = not self._on
            if started:
                self._on, self._since = True, self._clock()
            self._asked = self._clock()
            if started and not self._closed.is_set() and not (self._watcher and self._watcher.is_alive()):
                self._watcher = threading.Thread(target=self._watch, name="teaching-round", daemon=True)
                self._watcher.start()
        if started:
            self._changed()

    def close(self) -> None:
        """Stop the watcher (the server is stopping); idempotent."""
        self._closed.set()
        if self._watcher is not None and self._watcher is not threading.current_thread():
            self._watcher.join()

    def _watch(self) -> None:
        """Until the round is off: end it once its page is gone, though nobody asks."""
        while not self._closed.wait(WATCH_SECONDS) and self.on:
            pass

    def _expire(self) -> bool:
        """End a round nobody asked about for :data:`ALIVE_SECONDS` (its page is gone), telling
        the pages; returns whether the round is on."""
        with self._lock:
            ended = self._on and self._clock() - self._asked > ALIVE_SECONDS
            if ended:
                self._on = False
                self._drop()
            on = self._on
        if ended:
            self._changed()
        return on

    def stop(self) -> None:
        """Turn the round off; a throw not confirmed is dropped."""
        with self._lock:
            stopped, self._on = self._on, False
            self._drop()
        if stopped:
            self._changed()

    @property
    def on(self) -> bool:
        """Whether the round takes every throw (the live page says so, RULES T-2: the roll waits);
        asking ends a round whose page is gone."""
        return self._expire()

    def fix(self, index: int, value: int) -> None:
        """Die ``index`` of the held throw shows ``value`` (a d10's 0 is 10, RULES P-1).

        :raises LookupError: no throw held, or no such die.
        :raises ValueError: a value not on that die.
        """
        with self._lock:
            if self._photo is None or not 0 <= index < len(self._dice):
                raise LookupError(Phrase("no die {n} in the throw", n=index + 1))
            die = self._dice[index]
            sides = SIDES[die["kind"]]
            value = sides if value == 0 and sides == 10 else value
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
                # the kind's name as a Phrase: the page says it in its language (web/messages.py DEVICE_WORDS)
                raise ValueError(Phrase("a {kind} shows 1 to {sides}", kind=Phrase(kind_name(die["kind"])),
                                        sides=sides))
            die["value"] = value

    def confirm(self, who: str | None = None) -> int:
        """The held throw is right: its dice become examples; returns how many.

        :raises LookupError: no throw held.
        :raises ValueError: a die with no value yet (the page asks for it first).
        :raises sqlite3.Error, OSError: the examples could not be saved (the throw stays held).
        """
        with self._lock:
            if self._photo is None or self._image is None:
                raise LookupError(Phrase("no throw to confirm: throw the set into the tray"))
            missing = next((n for n, die in enumerate(self._dice) if die["value"] is None), None)
            if missing is not None:
                raise ValueError(Phrase("die {n} has no value: tap it and give its value", n=missing + 1))
            from device.examples import add_throw

            add_throw(self._examples, self._photo, self._image,
                      [(die["kind"], die["value"], die["box"]) for die in self._dice], who)
            count = len(self._dice)
            self._drop()
        self._taught()
        return count

    def skip(self) -> None:
        """Drop the held throw unconfirmed: the next one is read."""
        with self._lock:
            self._drop()

    def state(self) -> dict:
        """``{"on", "dice": [{"index", "kind", "sides", "read", "value", "fixed", "crop" (PNG data URL)}]
        (the throw held, [] for none), "examples": {kind: {value: count}}, "lacking": {kind:
        [values with no example]}}``. Asking keeps the round on (:data:`ALIVE_SECONDS`)."""
        from device.examples import taught_by_kind

        self._expire()  # a page back after the round ended finds it off
        with self._lock:
            self._asked = self._clock()
            dice = [{"index": n, "kind": die["kind"], "sides": SIDES[die["kind"]], "read": die["read"],
                     "value": die["value"], "fixed": die["value"] != die["read"],
                     "crop": "data:image/png;base64," + base64.b64encode(die["crop"]).decode("ascii")}
                    for n, die in enumerate(self._dice)]
            on = self._on
        examples = taught_by_kind(self._folder, from_rolls=True)  # every example teaches the reader
        return {"on": on, "dice": dice, "examples": {kind: {str(v): c for v, c in sorted(values.items())}
                                                      for kind, values in examples.items()},
                "lacking": lacking(examples)}

    def _drop(self) -> None:
        self._photo, self._image, self._dice = None, None, []
        self._since = self._clock()
