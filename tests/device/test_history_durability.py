"""A kill -9 at any moment loses no saved roll and leaves a database that opens."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from device.history import DATABASE, History

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples

REPO = Path(__file__).resolve().parents[2]

# Saves rolls as fast as it can (with photos and corrections, so a kill lands in
# every part of a save) and prints each id once save() has returned.
WRITER = textwrap.dedent("""
    import sys
    from device.history import History
    history = History(sys.argv[1], photo_cap_bytes=40_000)
    n = 0
    while True:
        n += 1
        roll = {"preset": "2d6", "system": "d6", "roller": f"p{n % 3}",
                "started": "2026-01-01T20:00:00Z", "finished": "2026-01-01T20:00:01Z",
                "complete": True, "total": n, "perfect": False, "botch": False,
                "spec": {"count": 2}, "result": {"total": n}, "dice": [{"index": 0, "natural": 3}],
                "readings": [{"dice": [], "n": "x" * 500}],
                "corrections": [{"index": 0, "from": 2, "to": 3, "who": "gm", "at": "t"}]}
        saved = history.save(roll, photo=b"j" * 3000, annotated=b"a" * 3000)
        print(saved["id"], saved["total"], flush=True)
""")


@pytest.mark.parametrize("kill_after", [1, 17, 60])
def test_kill_9_mid_stream_loses_no_saved_roll(tmp_path, kill_after):
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)], cwd=REPO,
                              stdout=subprocess.PIPE, text=True)
    reported = []
    try:
        for line in writer.stdout:
            reported.append(tuple(int(word) for word in line.split()))
            if len(reported) == kill_after:
                writer.send_signal(signal.SIGKILL)  # mid-stream: the next save is under way
                break
    finally:
        writer.kill()
        writer.wait()
        writer.stdout.close()
    assert writer.returncode == -signal.SIGKILL and len(reported) == kill_after

    db = sqlite3.connect(tmp_path / DATABASE)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    with History(tmp_path) as history:
        for roll_id, total in reported:
            roll = history.roll(roll_id)
            assert roll["total"] == total and roll["seq"] is not None
            assert roll["corrections"][0]["who"] == "gm"
        for roll in history.rolls(limit=500):
            if roll["photo"]:
                assert history.photo_path(roll["id"]).read_bytes() == b"a" * 3000
        # still writable after the crash
        assert history.save(dict(history.roll(reported[-1][0]), id=None))["id"]
