"""Print what a step of the combat page costs on this machine: the step with its
atomic save (temp file, fsync, rename), the state every phone receives, and the
file in the data folder, as a fight's log grows.

Run: ``.venv/bin/python benchmarks/combat_session.py``. Prints figures; asserts nothing.
"""

import json
import tempfile
import time
from pathlib import Path

from device.combat import CombatSession


def one_round(session: CombatSession) -> None:
    """Brann attacks and hits, then every fighter's turn passes (7 steps in all)."""
    session.start_attack("Brann", "Saqueador")
    session.attack_dice([7, 14])
    session.attack_dice([4, 9])
    session.attack_dice([1])
    for _ in range(len(session.names())):
        session.next_turn()
    session.heal("Saqueador", 3)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        session = CombatSession(folder)
        session.add_hero("Brann")
        session.add_hero("Nara")
        session.add_enemy("Saqueador", 3)
        session.roll_initiative({"Brann": 5, "Nara": 7, "Saqueador": 4, "Saqueador 2": 3, "Saqueador 3": 1})
        print("rounds  step ms (mean)  state KiB  file KiB  load ms")
        rounds = 0
        for target in (1, 10, 50, 100):
            steps, start = 0, time.perf_counter()
            while rounds < target:
                one_round(session)
                rounds, steps = rounds + 1, steps + 4 + len(session.names()) + 1
            step_ms = (time.perf_counter() - start) / steps * 1000
            state_kib = len(json.dumps(session.state())) / 1024
            file_kib = (Path(folder) / "combat.json").stat().st_size / 1024
            start = time.perf_counter()
            CombatSession(folder)
            load_ms = (time.perf_counter() - start) * 1000
            print(f"{rounds:6d}  {step_ms:14.2f}  {state_kib:9.1f}  {file_kib:8.1f}  {load_ms:7.1f}")


if __name__ == "__main__":
    main()
