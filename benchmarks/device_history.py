"""History and controller figures: save latency (synchronous=FULL), paging over a long
history, and a settled frame's way through the controller with the real vision.

Run: .venv/bin/python benchmarks/device_history.py [ROLLS]   (default 5000)
Prints one line per figure; nothing is asserted.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from device.controller import Controller
from device.history import History
from device.presets import build_presets
from vision.synthetic import render_tray


def roll(n: int) -> dict:
    return {"preset": ("2d6", "1d6", "free")[n % 3], "system": "d6", "roller": f"player{n % 7}",
            "started": "2026-01-01T20:00:00Z", "finished": "2026-01-01T20:00:02Z", "complete": True,
            "total": n % 12, "perfect": n % 6 == 0, "botch": False, "spec": {"count": 2},
            "result": {"total": n % 12, "dice": [{"natural": 3, "value": 3, "role": "principal"}] * 2},
            "dice": [{"index": i, "natural": 3, "box": [1, 2, 3, 4], "color": "red"} for i in range(2)],
            "readings": [{"dice": [{"value": 3, "box": [1, 2, 3, 4]}] * 2, "size": [1280, 960]}],
            "corrections": []}


def timed(action, repeat: int = 1) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return times


def ms(values: list[float]) -> str:
    values = sorted(values)
    return (f"mean {statistics.mean(values) * 1e3:.2f} ms, p95 {values[int(len(values) * 0.95)] * 1e3:.2f} ms, "
            f"max {values[-1] * 1e3:.2f} ms")


def main(rolls: int) -> None:
    photo = b"j" * 60_000  # about one 1280×960 JPEG at quality 85 of a tray
    with tempfile.TemporaryDirectory() as folder, History(folder, photo_cap_bytes=50 * 2**20) as history:
        saves = [timed(lambda n=n: history.save(roll(n)))[0] for n in range(rolls)]
        print(f"save without photo ({rolls} rolls): {ms(saves)}")
        with_photo = [timed(lambda n=n: history.save(roll(n), photo=photo, annotated=photo))[0]
                      for n in range(200)]
        print(f"save with 2×60 kB photos (cap 50 MB, pruning on): {ms(with_photo)}")
        print(f"page of 20, newest: {ms(timed(lambda: history.rolls(limit=20), 50))}")
        print(f"page of 20 at offset {rolls // 2}: {ms(timed(lambda: history.rolls(limit=20, offset=rolls // 2), 50))}")
        print(f"page of 20 of one player: {ms(timed(lambda: history.rolls(limit=20, player='player3'), 50))}")
        print(f"rolls_since(seq - 100): {ms(timed(lambda: history.rolls_since(rolls - 100), 20))}")
        size = sum(p.stat().st_size for p in Path(folder).glob("history.sqlite3*"))
        print(f"database with {rolls + 200} rolls: {size / 2**20:.1f} MiB (with WAL)")

    with tempfile.TemporaryDirectory() as folder, History(folder) as history:
        controller = Controller(build_presets(), history)
        frames = [render_tray(seed, values=[seed % 5 + 1, 3], colors=["red", "white"], size=(1280, 960))[0]
                  for seed in range(10)]

        def one(frame):
            controller.arm("2d6")
            controller.on_settled(frame, time.monotonic() + 1)

        times = [timed(lambda f=f: one(f))[0] for f in frames]
        print(f"settled 1280×960 frame → saved roll (vision read, 2 JPEGs, SQLite): {ms(times)}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
