"""The time figures the vision benchmarks print (imported as ``benchmarks.timing``)."""

from __future__ import annotations

import os
import statistics


def print_times(wall: list[float], cpu: list[float]) -> None:
    """Print the load average, then the median and p95 milliseconds per photo of ``wall``
    (seconds of each reading, wall clock) and ``cpu`` (seconds of process time)."""
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} (wall-clock times are only meaningful near 0)")
    for name, values in (("time per photo (one core, wall clock)", wall), ("CPU time per photo (one thread)", cpu)):
        ms = sorted(1000 * t for t in values)
        if not ms:
            print(f"{name}: no photo read")
            continue
        print(f"{name}: median {statistics.median(ms):.1f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.1f} ms "
              f"over {len(ms)} photos")
