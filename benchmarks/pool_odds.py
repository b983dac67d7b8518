"""Print how long the dice pool rules take: exact odds per pool size, resolution, virtual rolls.

Run: ``.venv/bin/python benchmarks/pool_odds.py [--icepool]``. Prints figures; asserts nothing.
``--icepool`` also times the same odds written with icepool (a die per kind of face,
summed, then mapped over the reroll of the 10s), the reason rules/pool_odds.py has
its own count programme: icepool needs seconds for a pool of 30.
"""

import argparse
import random
import time

import icepool

from rules.pool import PoolOptions, PoolSpec, resolve_pool
from rules.pool_odds import pool_odds
from rules.virtual import roll_pool


def _seconds(action, repeat):
    start = time.perf_counter()
    for _ in range(repeat):
        action()
    return (time.perf_counter() - start) / repeat


def _icepool_odds(dice):
    kinds = icepool.Die({icepool.Vector((1, 0, 0)): 1, icepool.Vector((0, 0, 0)): 4,
                         icepool.Vector((0, 1, 0)): 4, icepool.Vector((0, 0, 1)): 1})
    reroll = icepool.Die({1: 5, 0: 5})

    def resolve(ones, hits, tens):
        left = max(0, ones - tens)
        net = tens + max(0, hits - left)
        return (tens @ reroll + net).map(lambda s: (s, net == 0 and left > hits))

    return (dice @ kinds).map(lambda v: resolve(*v))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--icepool", action="store_true", help="also time icepool (about 5 s)")
    args = parser.parse_args()

    print("exact odds (rule of ten's reroll included), ms per call:")
    print(" dice    seed rules   no ten/one   target 8    P(success)  P(botch)")
    variants = (PoolOptions(), PoolOptions(rule_of_ten=False, rule_of_one=False), PoolOptions(target_number=8))
    for dice in range(1, 31):
        times = [_seconds(lambda o=o, dice=dice: pool_odds(PoolSpec(dice, options=o)), 5 if dice > 20 else 20) * 1000
                 for o in variants]
        odds = pool_odds(PoolSpec(dice))
        print(f"{dice:5d} {times[0]:11.2f} {times[1]:12.2f} {times[2]:10.2f}"
              f"   {float(odds.success):10.6f} {float(odds.botch):9.6f}")
    for dice in (50, 100):
        print(f"{dice:5d} {_seconds(lambda dice=dice: pool_odds(PoolSpec(dice)), 2) * 1000:11.2f}")

    spec = PoolSpec(10, difficulty=3)
    first = [1, 1, 3, 5, 6, 7, 8, 9, 10, 10]
    print(f"resolve a pool of 10 with 2 rerolls: "
          f"{_seconds(lambda: resolve_pool(spec, first, [10, 2]), 10_000) * 1e6:6.1f} µs")
    rng = random.Random(1)
    print(f"virtual roll, pool of 10: {_seconds(lambda: roll_pool(spec, rng), 10_000) * 1e6:6.1f} µs")

    if args.icepool:
        print("icepool, same odds, ms per call:")
        for dice in (5, 10, 20, 30):
            print(f"{dice:5d} {_seconds(lambda dice=dice: _icepool_odds(dice), 1) * 1000:11.1f}")


if __name__ == "__main__":
    main()
