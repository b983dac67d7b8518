"""A fake controller with the interface of CONTRACTS.md (device/controller.py), and app fixtures.

The fake keeps rolls in memory with the same shapes, seq numbering, errors and
event feed as the real controller; its arithmetic is the plain sum (D6) or count of
6+ (pool), enough for the web part, which never does rules itself.
"""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest
import waitress
from waitress import wasyncore

from device.tray.dispatch import frame_jpeg
from web import create_app


class RollNotFound(KeyError):
    """As device.errors.RollNotFound: an unknown roll id."""


class ThrowUnsupported(RuntimeError):
    """As device.errors.ThrowUnsupported: the camera cannot start a throw."""


@dataclass
class Event:
    kind: str
    seq: int | None
    data: dict


class Subscription:
    def __init__(self, owner: "FakeController"):
        self.owner = owner
        self.queue: queue.Queue[Event] = queue.Queue(maxsize=8)
        self.closed = False
        self.dropped = 0

    def get(self, timeout: float) -> Event | None:
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self.closed = True
        self.owner._unsubscribe(self)


PRESETS = [
    {"name": "2d6", "label": "2D6", "system": "d6", "sides": 6, "count": 2,
     "spec": {"count": 2, "kind": "D6", "modifier": 0}},
    {"name": "1d3+1", "label": "1D3+1", "system": "d6", "sides": 6, "count": 1,
     "spec": {"count": 1, "kind": "D3", "modifier": 1}},
    {"name": "pool5", "label": "pool 5 · difficulty 2", "system": "pool", "sides": 10, "count": 5,
     "spec": {"size": 5, "difficulty": 2}},
]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class FakeController:
    data_dir: Path
    can_throw: bool = True
    seed: int = 1
    _rolls: dict = field(default_factory=dict)
    _subs: list = field(default_factory=list)
    _settings: dict = field(default_factory=lambda: {"principal_color": "red", "presets": list(PRESETS), "pin": None,
                                                     "house_rules": {"rule_of_ten": True, "rule_of_one": True, "target_number": 6},
                                                     "cocked_dice": "rethrow_die"})
    _state: dict = field(default_factory=lambda: {"state": "idle", "preset": None, "roller": None, "prompt": None, "needs": None})
    _seq: int = 0
    _next_id: int = 1
    frame: np.ndarray | None = None

    def __post_init__(self):
        self._lock = threading.RLock()
        self._rng = random.Random(self.seed)

    # --- feed
    def subscribe(self) -> Subscription:
        sub = Subscription(self)
        with self._lock:
            self._subs.append(sub)
        return sub

    def _unsubscribe(self, sub) -> None:
        with self._lock:
            if sub in self._subs:
                self._subs.remove(sub)

    @property
    def subscribers(self) -> int:
        with self._lock:
            return len(self._subs)

    def _publish(self, kind: str, data: dict, seq: int | None = None) -> None:
        # As the real hub: a full queue loses its oldest event and counts it.
        for sub in list(self._subs):
            while True:
                try:
                    sub.queue.put_nowait(Event(kind, seq, data))
                    break
                except queue.Full:
                    sub.queue.get_nowait()
                    sub.dropped += 1

    # --- state
    def state(self) -> dict:
        with self._lock:
            latest = max(self._rolls.values(), key=lambda r: r["id"], default=None)
            preset = self._preset(self._state["preset"]) if self._state["preset"] else None
            return {
                **self._state,
                "camera": {"status": "ok", "message": None, "can_throw": self.can_throw},
                "latest_roll": dict(latest) if latest else None,
                "odds": {"mean": 7.0} if preset and preset["system"] == "d6" else None,
            }

    def presets(self) -> list[dict]:
        return [dict(p) for p in self._settings["presets"]]

    def _preset(self, name: str) -> dict:
        for preset in self._settings["presets"]:
            if preset["name"] == name:
                return preset
        raise KeyError(name)

    def arm(self, preset: str, roller: str | None = None) -> dict:
        with self._lock:
            self._preset(preset)
            self._state.update(state="armed", preset=preset, roller=roller, prompt="throw the dice")
        self._publish("state", self.state())
        return self.state()

    def throw(self) -> None:
        if not self.can_throw:
            raise ThrowUnsupported("this camera cannot start a throw; throw the dice in the tray")
        with self._lock:
            preset = self._preset(self._state["preset"] or "2d6")
            values = [self._rng.randint(1, preset["sides"]) for _ in range(preset["count"])]
        self._record(preset, values, "camera", self._state["roller"])

    def read_now(self) -> None:
        self._publish("state", self.state())

    def enter_dice(self, values: list[int], roller: str | None = None) -> dict:
        with self._lock:
            if self._state["preset"] is None:
                raise ValueError("arm a preset before entering dice")
            preset = self._preset(self._state["preset"])
            for value in values:
                if not 1 <= value <= preset["sides"] and not (preset["sides"] == 10 and value == 0):
                    raise ValueError(f"a d{preset['sides']} has no face {value}")
            values = [10 if v == 0 and preset["sides"] == 10 else v for v in values]
        self._record(preset, values, "hand", roller or self._state["roller"])
        return self.state()

    def _resolve(self, roll: dict) -> None:
        naturals = [d["natural"] for d in roll["dice"]]
        readable = all(v is not None for v in naturals)
        roll["complete"] = readable
        if roll["system"] == "d6":
            roll["total"] = sum(naturals) if readable else None
            roll["perfect"] = readable and naturals[0] == 6
            for die in roll["dice"]:
                die["value"] = die["natural"]
            roll["result"] = {"system": "d6", "complete": readable, "total": roll["total"],
                              "perfect": roll["perfect"], "needs": None,
                              "dice": [{"natural": d["natural"], "value": d["value"], "role": d["role"]} for d in roll["dice"]]}
        else:
            roll["successes"] = sum(1 for v in naturals if v is not None and v >= 6)
            roll["outcome"] = "success" if roll["successes"] >= 2 else "failure"
            roll["result"] = {"system": "pool", "complete": readable, "successes": roll["successes"],
                              "outcome": roll["outcome"], "needs": None}

    def _record(self, preset: dict, values: list[int], source: str, roller: str | None) -> dict:
        with self._lock:
            self._seq += 1
            roll_id, self._next_id = self._next_id, self._next_id + 1
            roll = {
                "id": roll_id, "seq": self._seq, "preset": preset["name"], "system": preset["system"],
                "roller": roller, "started": _now(), "finished": _now(), "complete": True,
                "result": {}, "total": None, "successes": None, "outcome": None,
                "perfect": False, "botch": False,
                "dice": [{"index": i, "natural": v, "value": v,
                          "role": ("principal" if i == 0 else "secondary") if preset["system"] == "d6" else "pool",
                          "source": source, "color": "red" if i == 0 else "white",
                          "box": [10 * i, 0, 10 * i + 9, 9], "corrected": False}
                         for i, v in enumerate(values)],
                "readings": [], "corrections": [], "note": None, "photo": source == "camera",
            }
            self._resolve(roll)
            self._rolls[roll_id] = roll
            if roll["photo"]:
                (self.data_dir / f"{roll_id}.jpg").write_bytes(b"\xff\xd8annotated")
                (self.data_dir / f"{roll_id}-raw.jpg").write_bytes(b"\xff\xd8raw")
            self._state.update(state="resolved", prompt=None)
            snapshot = dict(roll)
        self._publish("roll", snapshot, snapshot["seq"])
        return snapshot

    # --- history
    def _get(self, roll_id: int) -> dict:
        try:
            return self._rolls[roll_id]
        except KeyError:
            raise RollNotFound(roll_id) from None

    def correct(self, roll_id: int, index: int, *, value: int | None = None, cocked: bool = False,
                who: str | None = None) -> dict:
        with self._lock:
            roll = self._get(roll_id)
            if not 0 <= index < len(roll["dice"]):
                raise ValueError(f"roll {roll_id} has no die {index}")
            sides = self._preset(roll["preset"])["sides"]
            if not cocked and (value is None or not 1 <= value <= sides):
                raise ValueError(f"a d{sides} has no face {value}")
            die = roll["dice"][index]
            roll["corrections"].append({"index": index, "from": die["natural"], "to": None if cocked else value,
                                        "who": who, "at": _now()})
            die.update(natural=None if cocked else value, corrected=True)
            roll["note"] = "die cocked: throw it again" if cocked else None
            self._resolve(roll)
            self._seq += 1
            roll["seq"] = self._seq
            snapshot = dict(roll)
        self._publish("roll", snapshot, snapshot["seq"])
        return snapshot

    def set_principal(self, roll_id: int, index: int, who: str | None = None) -> dict:
        with self._lock:
            roll = self._get(roll_id)
            if roll["system"] != "d6" or not 0 <= index < len(roll["dice"]):
                raise ValueError("no such die to be principal")
            for i, die in enumerate(roll["dice"]):
                die["role"] = "principal" if i == index else "secondary"
            self._resolve(roll)
            self._seq += 1
            roll["seq"] = self._seq
            snapshot = dict(roll)
        self._publish("roll", snapshot, snapshot["seq"])
        return snapshot

    def rolls(self, limit: int = 20, offset: int = 0, player: str | None = None, preset: str | None = None) -> list[dict]:
        with self._lock:
            chosen = [r for r in sorted(self._rolls.values(), key=lambda r: -r["id"])
                      if (player is None or r["roller"] == player) and (preset is None or r["preset"] == preset)]
            return [dict(r) for r in chosen[offset:offset + limit]]

    def roll(self, roll_id: int) -> dict:
        with self._lock:
            return dict(self._get(roll_id))

    def rolls_since(self, seq: int) -> list[dict]:
        with self._lock:
            return [dict(r) for r in sorted(self._rolls.values(), key=lambda r: r["seq"]) if r["seq"] > seq]

    def photo_path(self, roll_id: int, annotated: bool = True) -> Path | None:
        with self._lock:
            roll = self._get(roll_id)
        if not roll["photo"]:
            return None
        return self.data_dir / (f"{roll_id}.jpg" if annotated else f"{roll_id}-raw.jpg")

    def latest_frame(self):
        if self.frame is None:
            return None, None
        return self.frame, {"dice": [{"value": 6, "sides": 6, "box": [2, 2, 12, 12], "color": "red",
                                      "principal": True, "confidence": 0.9, "unreadable": None}],
                            "size": [self.frame.shape[1], self.frame.shape[0]], "seconds": 0.01,
                            "principal_note": None}

    def latest_frame_jpeg(self, max_side: int):
        image, reading = self.latest_frame()
        return None if image is None else frame_jpeg(image, reading, max_side)

    def settings(self) -> dict:
        with self._lock:
            return dict(self._settings)

    def update_settings(self, **changes) -> dict:
        with self._lock:
            unknown = set(changes) - set(self._settings)
            if unknown:
                raise ValueError(f"unknown setting {sorted(unknown)[0]}")
            for preset in changes.get("presets", []):
                if not {"name", "label", "system", "sides", "count", "spec"} <= set(preset):
                    raise ValueError("a preset needs name, label, system, sides, count and spec")
            self._settings.update(changes)
            return dict(self._settings)

    def clear_history(self) -> None:
        with self._lock:
            self._rolls.clear()


@pytest.fixture
def controller(tmp_path) -> FakeController:
    return FakeController(data_dir=tmp_path)


@pytest.fixture
def app(controller):
    return create_app(controller, {"TESTING": True, "HEARTBEAT_SECONDS": 0.05, "SECRET_KEY": "test"})


@pytest.fixture
def client(app):
    return app.test_client()


@contextmanager
def running(server) -> Iterator[int]:
    """Run a waitress ``server`` (made on port 0) until the block ends; yields its port.

    The server loop runs in a thread this helper stops and closes itself, so no
    socket is closed under a running loop.
    """
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            wasyncore.loop(timeout=0.05, map=server._map, count=1)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield server.effective_port
    finally:
        stop.set()
        thread.join()
        wasyncore.close_all(server._map)  # streams notice at their next write and end
        server.task_dispatcher.shutdown()


def live_server(app, threads: int = 4):
    """Serve ``app`` with plain waitress on a free loopback port (:func:`running`)."""
    return running(waitress.create_server(app, host="127.0.0.1", port=0, threads=threads))
