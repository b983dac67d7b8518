"""The camera loop's costs and margins: settle detection, preview frames, throw-to-frame time.

Run by hand from the repository root: ``.venv/bin/python benchmarks/camera_loop.py``.
Prints:

* the settle detector's cost per preview frame (what it adds to every loop turn);
* how close sensor noise comes to counting as motion: the largest changed fraction
  between two frames of a still tray, per noise level, against the threshold;
* the cost of a preview frame from the simulated and the file camera (rendering or
  blending a moving frame, and a still one);
* simulated throws through the real tray loop thread: how long from ``throw()`` to the
  settled frame, and whether every frame handed on was the settled tray (never mid-roll).
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from pathlib import Path

import numpy as np

from device.cameras import open_camera
from device.tray.loop import TrayLoop
from device.tray.settle import SettleDetector, changed_fraction, prepare

# The tests' sample of real photos: the file camera needs a folder of photos, not the datasets.
BYLER = Path(__file__).resolve().parents[1] / "tests" / "data" / "real-dice" / "byler-tray-d6"


def ms(samples: list[float]) -> str:
    return f"median {1000 * statistics.median(samples):6.2f} ms, max {1000 * max(samples):6.2f} ms"


def timed(call, n: int) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter()
        call()
        out.append(time.perf_counter() - start)
    return out


def settle_cost(n: int) -> None:
    rng = np.random.default_rng(0)
    frames = [rng.integers(0, 256, (240, 320, 3), dtype=np.uint8) for _ in range(20)]
    detector = SettleDetector()
    i = iter(range(10**9))
    print(f"settle detector, 320×240 preview: {ms(timed(lambda: detector.update(frames[next(i) % 20], 0.0), n))}")


def noise_margin() -> None:
    detector = SettleDetector()
    rng = np.random.default_rng(1)
    base = np.full((240, 320, 3), (40, 110, 30), np.float32)
    base[100:130, 150:180] = 235
    print(f"sensor noise on a still tray (threshold {detector.motion_fraction}):")
    for sigma in (2, 4, 8, 12, 16, 24):
        worst = 0.0
        for _ in range(50):
            a, b = (prepare(np.clip(base + rng.normal(0, sigma, base.shape), 0, 255).astype(np.uint8))
                    for _ in range(2))
            worst = max(worst, changed_fraction(a, b, detector.pixel_threshold))
        print(f"  noise σ {sigma:2d} grey levels: largest changed fraction {worst:.5f}")


def preview_cost(n: int) -> None:
    for name, options in (("sim", {"seed": 1}), (f"file:{BYLER}", {})):
        camera = open_camera(name, moving_frames=4, **options)
        moving, still = [], []
        for _ in range(n):
            camera.throw()
            moving += timed(camera.capture_preview, 4)
            still += timed(camera.capture_preview, 2)
        label = name.split(":")[0]
        print(f"{label:4s} camera preview: moving {ms(moving)}; still {ms(still)}")
        camera.close()


def sim_throws(n: int, interval: float, still_seconds: float) -> None:
    camera = open_camera("sim", seed=3)
    settled = threading.Event()
    handed: list[bool] = []

    def on_settled(frame, t):
        handed.append(np.array_equal(frame, camera._still))  # the throw's settled tray, not a moving frame
        settled.set()

    waits = []
    with TrayLoop(lambda: camera, on_settled, camera=camera, interval=interval,
                  detector=SettleDetector(still_seconds)) as loop:
        for k in range(n):
            settled.clear()
            start = time.perf_counter()
            loop.throw(count=k % 3 + 1)
            if not settled.wait(10):
                print("  a throw never settled")
                return
            waits.append(time.perf_counter() - start)
    print(f"sim throws through the loop (interval {interval} s, still {still_seconds} s, 4 moving frames): "
          f"{n} throws, throw → settled frame {ms(waits)}, "
          f"{sum(handed)}/{len(handed)} frames were the settled tray")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--throws", type=int, default=20)
    args = parser.parse_args()
    settle_cost(500)
    noise_margin()
    preview_cost(10)
    sim_throws(args.throws, 0.2, 0.4)


if __name__ == "__main__":
    main()
