"""Print how long the Destiny Dice rules take: an attack, its odds, and encounter steps
as the fight's log grows (every step snapshots the state for undo).

Run: ``.venv/bin/python benchmarks/rules_destiny.py``. Prints figures; asserts nothing.
"""

import json
import random
import time

from rules.destiny import resolve_attack
from rules.destiny_odds import attack_odds
from rules.destiny_spec import AttackSpec
from rules.encounter import Encounter
from rules.participant import Participant
from rules.virtual import roll_attack


def _seconds(action, repeat):
    start = time.perf_counter()
    for _ in range(repeat):
        action()
    return (time.perf_counter() - start) / repeat


def _fight(fighters: int) -> Encounter:
    people = [Participant(f"H{i}" if i % 2 else f"E{i}", "hero" if i % 2 else "enemy", body=8, mind=8, soul=6,
                          pv=999, pv_max=999, defence=None if i % 2 else 6, weapon="medium")
              for i in range(fighters)]
    encounter = Encounter(people)
    encounter.roll_initiative({p.name: 1 + i % 8 for i, p in enumerate(people)})
    return encounter


def main() -> None:
    spec = AttackSpec(attacker_die=8, defence_die=6, weapon="medium", armour=1)
    per_attack = _seconds(lambda: resolve_attack(spec, (7, 14), (4, 9), (5,)), 10_000)
    print(f"resolve an attack (3 throws): {per_attack * 1e6:6.1f} µs")
    print(f"odds d8 vs d6+1:              {_seconds(lambda: attack_odds(spec), 1_000) * 1e6:6.1f} µs")
    print(f"odds d12 vs d12:              {_seconds(lambda: attack_odds(AttackSpec(12, 12)), 1_000) * 1e6:6.1f} µs")
    rng = random.Random(1)
    print(f"virtual attack:               {_seconds(lambda: roll_attack(spec, rng), 10_000) * 1e6:6.1f} µs")
    for fighters, steps in ((4, 100), (12, 100), (12, 1000)):
        encounter = _fight(fighters)
        rng = random.Random(2)

        def attack(encounter=encounter, rng=rng):
            hitter, target = rng.sample([p.name for p in encounter.participants], 2)
            attack_spec = encounter.attack_spec(hitter, target) if hitter[0] != target[0] else None
            if attack_spec is not None:
                encounter.apply_attack(roll_attack(attack_spec, rng))
            encounter.next_turn()

        per_step = _seconds(attack, steps)
        size = len(json.dumps(encounter.to_dict()))
        print(f"{fighters} fighters, {steps} turns: {per_step * 1000:6.2f} ms per turn (mean), "
              f"log {len(encounter.log)} entries, save {size / 1024:6.0f} KiB")


if __name__ == "__main__":
    main()
