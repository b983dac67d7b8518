"""kill -9 during writes: of the rolls and corrections whose save returned, how many are found
after each kill, unchanged, and does the history still open (its start-up checks pass)?

A child process saves rolls (each with its photo) and corrections of earlier ones into a
history in a temporary folder, as fast as it can, printing an acknowledgement after every save
returns. The parent kills it with SIGKILL after a random 0.3–1.5 s (its start included), opens the history and checks
every acknowledged roll: present, with the seq and total it was acknowledged with (or a later
seq, for a roll corrected since), and its photo on disk. Then the next child goes on from there.

    .venv/bin/python benchmarks/kill9_rolls.py                 # 40 kills
    .venv/bin/python benchmarks/kill9_rolls.py --kills 80 --seed 3

Bounded: ``--kills`` children, each killed within 1.5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def roll(total: int) -> dict:
    return {"preset": "2d6", "system": "d6", "roller": "bench", "started": "2026-12-01T10:00:00Z",
            "finished": "2026-12-01T10:00:01Z", "complete": True, "total": total, "perfect": False,
            "botch": False, "spec": {"system": "d6", "count": 2}, "result": {"total": total},
            "dice": [{"index": 0, "natural": 1}, {"index": 1, "natural": total - 1}],
            "readings": [], "corrections": [], "note": None}


def write(folder: str, seed: int) -> None:
    """Child: save rolls and corrections until killed, acknowledging each on stdout."""
    from device.history import History

    rng = random.Random(seed)
    history = History(folder)
    mine: list[dict] = []
    while True:
        if mine and rng.random() < 0.25:
            saved = dict(rng.choice(mine))
            saved["total"] = rng.randint(2, 12)
            saved["corrections"] = [{"index": 1, "from": 1, "to": 2, "who": "bench", "at": "now"}]
            saved = history.save(saved)
            kind = "correction"
        else:
            photo = rng.randbytes(rng.randint(2_000, 6_000))  # far under the photo cap: none pruned
            saved = history.save(roll(rng.randint(2, 12)), photo=photo, annotated=photo)
            mine.append(saved)
            kind = "roll"
        print(json.dumps({"kind": kind, "id": saved["id"], "seq": saved["seq"], "total": saved["total"]}),
              flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write:
        write(args.write, args.seed)
        return 0
    from device.history import History

    rng = random.Random(args.seed)
    acked: dict[int, dict] = {}  # id → the last acknowledgement of it
    counts = {"roll": 0, "correction": 0}
    lost = changed = photos_missing = opened = 0
    with tempfile.TemporaryDirectory() as folder:
        for kill in range(args.kills):
            child = subprocess.Popen([sys.executable, __file__, "--write", folder, "--seed", str(kill)],
                                     stdout=subprocess.PIPE, text=True)
            lines: list[str] = []
            reader = threading.Thread(target=lines.extend, args=(child.stdout,), daemon=True)
            reader.start()
            timer = threading.Timer(0.3 + rng.random() * 1.2, os.kill, (child.pid, signal.SIGKILL))
            timer.start()
            child.wait(30)
            timer.join()
            reader.join(10)
            for line in lines:
                if line.endswith("\n"):  # a line cut by the kill was never acknowledged
                    ack = json.loads(line)
                    counts[ack["kind"]] += 1
                    acked[ack["id"]] = ack
            with History(folder) as history:  # start-up checks: quick_check, schema, JSON
                opened += 1
                for roll_id, ack in acked.items():
                    try:
                        found = history.roll(roll_id)
                    except KeyError:
                        lost += 1
                        continue
                    if found["seq"] < ack["seq"] or (found["seq"] == ack["seq"] and found["total"] != ack["total"]):
                        changed += 1
                    if history.photo_path(roll_id) is None:
                        photos_missing += 1
    print(f"kills {args.kills}: the history opened after {opened} of them")
    print(f"acknowledged: {counts['roll']} rolls, {counts['correction']} corrections")
    print(f"after the last kill: {len(acked)} rolls checked after every kill; lost {lost}, changed {changed}, "
          f"photo missing {photos_missing} (counted over every check)")
    return 0 if (lost, changed, photos_missing, opened) == (0, 0, 0, args.kills) else 1


if __name__ == "__main__":
    sys.exit(main())
