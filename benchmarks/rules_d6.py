"""Print how long the D6 rules take: exact odds by dice count, and virtual rolls.

Run: ``.venv/bin/python benchmarks/rules_d6.py``. Prints figures; asserts nothing.
"""

import random
import time

from rules.d6 import D6Spec, resolve_d6
from rules.d6_odds import odds_d6
from rules.virtual import roll_d6


def _seconds(action, repeat):
    start = time.perf_counter()
    for _ in range(repeat):
        action()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    for count in (1, 2, 5, 10, 30, 100):
        spec = D6Spec(count)
        print(f"odds {spec.label():>6}: {_seconds(lambda spec=spec: odds_d6(spec), 3) * 1000:8.1f} ms")
    spec = D6Spec(2)
    print(f"resolve 2D6 with 2 extra dice: {_seconds(lambda: resolve_d6(spec, [6, 4], [6, 2]), 10_000) * 1e6:6.1f} µs")
    rng = random.Random(1)
    print(f"virtual roll 2D6: {_seconds(lambda: roll_d6(spec, rng), 10_000) * 1e6:6.1f} µs")


if __name__ == "__main__":
    main()
