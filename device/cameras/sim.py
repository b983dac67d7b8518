"""The simulated camera: synthetic throws of six-sided dice with known faces."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from device.cameras.replay import ReplayCamera
from vision.colors import PALETTE
from vision.synthetic import render_motion, render_tray

# How the simulated tray looks: a little sensor noise and soft shadows, like a lit tray.
_LOOK: dict[str, Any] = {"noise": 2.0, "shadow": 0.3}


class SimCamera(ReplayCamera):
    """Throws dice drawn by ``vision.synthetic``: a few frames of dice rolling in, then at rest.

    Everything comes from ``seed``, so a run is repeatable. :attr:`truth` holds
    the dice of the last throw (``render_tray``'s truth dicts) for checking readings.

    :param seed: seed of the whole sequence of throws.
    :param count: dice per throw when :meth:`throw` is not told how many (1–8).
    :param principal_color: palette colour of the first die (the principal die,
        RULES D6-2); the others get other colours. None: any colours.
    :param size: (width, height) of frames in pixels.
    :param options: ``moving_frames``, ``auto_throw`` and ``clock`` as :class:`ReplayCamera`.
    :raises ValueError: for a count out of range or a colour not in the palette.
    """

    throw_sides = frozenset({6})  # vision.synthetic draws pip d6 only

    def __init__(self, *, seed: int = 0, count: int = 2, principal_color: str | None = "red",
                 size: tuple[int, int] = (640, 640), **options) -> None:
        _check_count(count)
        if principal_color is not None and principal_color not in PALETTE:
            raise ValueError(f"sim camera: principal_color must be one of {', '.join(PALETTE)}, "
                             f"got {principal_color!r}")
        self.count = count
        self.principal_color = principal_color
        width, height = size
        self.size = (width, height)
        self.truth: list[dict] = []  #: the dice of the last throw, as render_tray gives them
        self._throw_options: dict = {}
        super().__init__(seed=seed, **options)

    def __str__(self) -> str:
        return "simulated camera"

    def _empty_tray(self) -> np.ndarray:
        return render_tray(self._rng.randrange(2**31), count=0, size=self.size, **_LOOK)[0]

    def _next_tray(self, count: int | None) -> np.ndarray:
        count = self.count if count is None else count
        _check_count(count)
        colors = None
        if self.principal_color is not None:
            others = [c for c in PALETTE if c != self.principal_color]
            colors = [self.principal_color] + [self._rng.choice(others) for _ in range(count - 1)]
        self._throw_options = dict(seed=self._rng.randrange(2**31), count=count, colors=colors,
                                   size=self.size, **_LOOK)
        image, self.truth = render_tray(**self._throw_options)
        return image

    def _moving(self, before: np.ndarray, after: np.ndarray) -> list[Callable[[], np.ndarray]]:
        # The end of render_motion's one-second roll, when the dice are in view (at most
        # ~60 px from where they land): every frame shows them elsewhere, so no two frames
        # of a throw look still.
        n = self._moving_frames
        times = [0.8] if n == 1 else [0.72 + 0.2 * k / (n - 1) for k in range(n)]
        return [partial(_motion_frame, t, self._throw_options) for t in times]


def _motion_frame(t: float, options: dict) -> np.ndarray:
    return render_motion(t=t, throw_seconds=1.0, **options)[0]


def _check_count(count: int) -> None:
    if not 1 <= count <= 8:
        raise ValueError(f"sim camera: dice per throw must be 1 to 8, got {count}")
