"""Speed of the synthetic tray renderer (what the simulated camera draws every frame).

Run by hand from the repository root: ``.venv/bin/python benchmarks/vision_synthetic.py``.
Prints the median and 95th percentile CPU milliseconds (process time, so other load on the
machine counts less) per 640×640 frame on one core
(``cv2.setNumThreads(1)``; start it with ``OMP_NUM_THREADS=1`` too) for a few looks.
"""

from __future__ import annotations

import time

import cv2
import numpy as np

from vision.synthetic import render_motion, render_tray

LOOKS = {
    "8 dice, plain": dict(count=8),
    "8 dice, sim camera look (noise 2, shadow 0.3)": dict(count=8, noise=2.0, shadow=0.3),
    "12 dice, every effect": dict(count=12, noise=5.0, shadow=0.6, glare=0.5, blur=1.0,
                                 perspective=0.5, marbled=0.5, rim=True, cocked=1, touching=True),
    "25 dice of 36-44 px": dict(count=25, die_px=(36, 44)),
}


def timed(draw, frames: int = 40) -> np.ndarray:
    times = []
    for seed in range(frames):
        start = time.process_time()
        draw(seed)
        times.append(1000 * (time.process_time() - start))
    return np.array(times)


def main() -> None:
    cv2.setNumThreads(1)
    for name, options in LOOKS.items():
        ms = timed(lambda seed, options=options: render_tray(seed, **options))
        print(f"render_tray   {name:48s} median {np.median(ms):5.1f} ms, "
              f"p95 {np.percentile(ms, 95):5.1f} ms")
    ms = timed(lambda seed: render_motion(seed, 0.5, count=8, noise=2.0, shadow=0.3))
    print(f"render_motion {'8 dice mid-throw (motion blur)':48s} median {np.median(ms):5.1f} ms, "
          f"p95 {np.percentile(ms, 95):5.1f} ms")


if __name__ == "__main__":
    main()
