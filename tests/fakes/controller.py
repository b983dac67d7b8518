"""The tests' one fake controller, typed against web.controller.Controller, the interface
`web.create_app` is handed (tests/web/test_controller_contract.py checks it against the
real one); tests/web and tests/browser both use it.

The tests drive it directly: `throw_dice([6, 4])` stands for the camera reading a settled
tray. It keeps rolls, corrections and sequence numbers the way the real controller does,
resolves them with the real rules, publishes "roll", "state" and "camera" events through
the real event hub (device/events.py), and draws a simple annotated photo so the page has
one to show. What is faked is the camera, the history store and the buttons.
"""

from __future__ import annotations

import copy
import itertools
import random
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np

import rules
from device.dice_stats import dice_stats
from device.errors import CameraUnavailable
from device.events import Event, EventHub
from device.events import Subscription as HubSubscription
from device.examples import Examples
from device.roll.camera import camera_status
from device.roll.settings import SettingLocked, principal_from_frame
from device.setup_view import setup_view
from device.teach_round import NO_CAMERA_TO_TEACH, TeachingRound
from device.tray.dispatch import frame_jpeg
from device.tray.problems import Problem
from rules.d6 import D6Spec
from rules.phrase import Phrase
from rules.pool import PoolSpec
from vision.numerals import SIDES, NumberedReading
from web.controller import Controller

PRESETS = [
    {"name": "2d6", "label": "2D6", "system": "d6", "sides": 6, "count": 2,
     "spec": {"count": 2, "kind": "D6"}},
    {"name": "1d3+1", "label": "1D3+1", "system": "d6", "sides": 6, "count": 1,
     "spec": {"count": 1, "kind": "D3", "modifier": 1}},
    {"name": "pool5", "label": "pool 5 · difficulty 2", "system": "pool", "sides": 10,
     "count": 5, "spec": {"size": 5, "difficulty": 2}},
]


PRESET_KEYS = {"name", "label", "system", "sides", "count", "spec"}


def _spec(preset: dict) -> D6Spec | PoolSpec:
    if preset["system"] == "pool":
        return PoolSpec(**preset["spec"])
    return D6Spec(**preset["spec"])


class RollNotFound(KeyError):
    """As device.errors.RollNotFound: an unknown roll id."""


class ThrowUnsupported(RuntimeError):
    """As device.errors.ThrowUnsupported: the camera cannot start a throw."""


class Subscription:
    """A subscription of the real event hub (device/events.py: its bounded queue that drops
    the oldest event and counts it), which a test can cut as a network drop does."""

    def __init__(self, inner: HubSubscription, owner: FakeController):
        self._inner, self._owner, self.cut = inner, owner, False

    @property
    def dropped(self) -> int:
        return self._inner.dropped

    @property
    def ended(self) -> bool:
        return self._inner.ended

    def get(self, timeout: float) -> Event | None:
        event = None if self.cut else self._inner.get(timeout)
        if self.cut:
            # What a write to a phone that left the Wi-Fi raises: the server ends the stream.
            raise ConnectionResetError("the test dropped this stream")
        return event

    def close(self) -> None:
        self._inner.close()
        self._owner._unsubscribe(self)


class _ExamplesOpenedEachTime:
    """The calls the teaching round makes on a folder's :class:`Examples`, each on a connection
    of its own, closed after it (the fake has no history whose lifetime a connection could share)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.lock = threading.Lock()

    def add(self, *args, **kwargs) -> int:
        with Examples(self.folder) as examples:
            return examples.add(*args, **kwargs)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class FakeController(Controller):
    """Thread-safe stand-in for device.controller with the documented methods.

    Outcomes come from the real rules (``rules.resolve``); what is faked is the
    camera, the history store and the buttons.
    """

    def __init__(self, data_dir: Path, camera_status: str = "ok", *, queue_size: int = 100,
                 settles_on_throw: bool = False, draws: bool = True, seed: int = 1):
        """:param queue_size: events kept per open page (the real hub's, device/events.py).
        :param settles_on_throw: a throw (``POST /api/throw``) settles at once with random dice
            (seeded), as the simulated camera's; else it waits for :meth:`throw_dice`.
        :param draws: camera rolls get drawn photos of the tray; else two small files
            (``b"\\xff\\xd8annotated"``, ``b"\\xff\\xd8raw"``).
        """
        self._lock = threading.RLock()
        self._data_dir = Path(data_dir)
        self._rolls: dict[int, dict] = {}
        self._examples: list[dict] = []        # dice tapped in (the real controller's corrections too)
        self._throws: dict[int, list[list[int | None]]] = {}
        self._pending: int | None = None      # a roll waiting for the dice its outcome needs
        self._ids = itertools.count(1)
        self._seq = 0
        self._subs: list[Subscription] = []
        self._hub = EventHub(queue_size)
        self._rng = random.Random(seed)
        self.settles_on_throw, self.draws = settles_on_throw, draws
        self.can_throw = True   # False: a camera that cannot start a throw (a real one)
        self.frame: np.ndarray | None = None  # the latest frame, when a test sets one
        self.pin_from_page = True  # False: a config that decides the PIN (no pin, pin_from_page off)
        self._settings = {"principal_color": "red", "principal_measured": None, "presets": copy.deepcopy(PRESETS), "pin": None,
                          "house_rules": {"rule_of_ten": True, "rule_of_one": True, "target_number": 6},
                          "cocked_dice": "rethrow_die"}
        self._state = {"state": "idle", "preset": None, "roller": None, "prompt": None,
                       "problem": None, "needs": None,
                       "camera": {"status": camera_status, "message": None, "reason": None, "can_throw": True,
                                  "by_hand": False},
                       "latest_roll": None, "current_roll": None, "odds": None, "teaching": False}
        self.throw_sides: set[int] | None = None  # {6}: throws d6 only, as the simulated camera
        self.throws = 0
        self.caught_up_from: list[int] = []   # the seq of each rolls_since call (SSE catch-up)
        self.taught: dict[str, int] = {}      # examples taught per kind (device/examples.py's count)
        self.adaptation: dict | None = None   # what the table's adaptation reports (examples())
        # the real round, over the folder's real examples
        self.teaching_round = TeachingRound(self._data_dir, time.monotonic, _ExamplesOpenedEachTime(self._data_dir),
                                            lambda: None, self._teaching_changed)

    # --- what the tests drive -------------------------------------------------
    def new_history(self) -> None:
        """The README's procedure for a damaged database: a new, empty history, whose ids and
        seqs start again from 1 (the server restarted: the tests reopen the pages' streams)."""
        with self._lock:
            self._rolls.clear()
            self._throws.clear()
            self._pending = None
            self._ids = itertools.count(1)
            self._seq = 0
            self._state.update(state="idle", preset=None, latest_roll=None, current_roll=None, prompt=None, problem=None,
                               needs=None)

    def throw_dice(self, values: list[int], source: str = "camera",
                   principal_seen: bool = True) -> dict:
        """The tray settled showing these natural values (d6: principal first); a text
        instead of a value is a die vision could not read, and why ("cut off").

        Continues the roll that is waiting for more dice, else starts a roll of
        the armed preset (2D6 when none is armed). ``principal_seen=False``: no
        die had the principal colour, and the players must point at it.
        """
        with self._lock:
            if self._pending is not None:
                roll = self._rolls[self._pending]
                self._throws[roll["id"]].append(_naturals(values))
                self._add_dice(roll, values, source, step=len(self._throws[roll["id"]]) - 1)
            else:
                roll = self._new_roll(self._state["preset"] or "2d6", values,
                                      self._state["roller"], source)
                if not principal_seen:
                    roll["dice"][0]["principal"] = False
            self._resolve(roll)
            self._pending = None if roll["complete"] else roll["id"]
            self._store(roll)
            self._prompt_for(roll)
            return copy.deepcopy(roll)

    def teach_throw(self, dice: list[tuple[str, int | None]]) -> None:
        """A throw settled during the teaching round: ``(kind, value)`` per die as read (value
        None: unreadable), drawn as a tray photo, held by the real round."""
        laid = [{"natural": value if kind == "d6-pips" else None, "color": "white", "role": None,
                 "box": [40 + 110 * (n % 5), 120 + 130 * (n // 5), 140 + 110 * (n % 5), 220 + 130 * (n // 5)]}
                for n, (kind, value) in enumerate(dice)]
        image, _ = _draw_tray(laid, annotated=False)
        readings = [NumberedReading(value=value, sides=SIDES[kind], box=tuple(die["box"]),
                                    center=((die["box"][0] + die["box"][2]) / 2, (die["box"][1] + die["box"][3]) / 2),
                                    color="white", confidence=0.9, unreadable=None if value else "blurred", kind=kind)
                    for (kind, value), die in zip(dice, laid, strict=True)]
        self.teaching_round.hold(cv2.imencode(".jpg", image)[1].tobytes(), readings)

    def set_camera(self, status: str, message: str | None = None) -> None:
        with self._lock:
            self._state["camera"] = camera_status(status, message)  # its reason kept, as the device does
            self._update_camera()
            self._publish(Event("camera", None, copy.deepcopy(self._state["camera"])))

    def _update_camera(self) -> None:
        """can_throw and by_hand for the armed preset, as device.controller works them out."""
        camera = self._state["camera"]
        preset = self._state["preset"]
        these = preset is None or self.throw_sides is None or self._preset(preset)["sides"] in self.throw_sides
        camera.update(can_throw=camera["status"] == "ok" and these,
                      by_hand=camera["status"] == "no camera" or (camera["status"] == "ok" and not these))

    def drop_subscribers(self) -> None:
        """End every open event stream, as a network drop does; new ones are unaffected."""
        with self._lock:
            for sub in self._subs:
                sub.cut = True

    def subscriber_count(self) -> int:
        with self._lock:
            return len(self._subs)

    @property
    def subscribers(self) -> int:
        return self.subscriber_count()

    # --- the controller interface ----------------------------------------------
    def state(self) -> dict:
        with self._lock:
            state = copy.deepcopy(self._state)
        state["camera"]["can_throw"] = state["camera"].get("can_throw", True) and self.can_throw
        return state

    def presets(self) -> list[dict]:
        with self._lock:
            return copy.deepcopy(self._settings["presets"])

    def arm(self, preset: str, roller: str | None = None) -> dict:
        with self._lock:
            self._pending = None
            self._state.update(state="armed", preset=preset, label=self._preset(preset)["label"],
                               roller=roller, prompt=None, problem=None, current_roll=None,
                               needs=None, odds=rules.odds(_spec(self._preset(preset))))
            self._update_camera()
            self._publish_state()
            return copy.deepcopy(self._state)

    def throw(self) -> None:
        if not self.can_throw:
            raise ThrowUnsupported("this camera cannot start a throw; throw the dice in the tray")
        with self._lock:
            self.throws += 1
            self._state["state"] = "waiting"
            self._publish_state()
            if self.settles_on_throw:
                preset = self._preset(self._state["preset"] or "2d6")
                self.throw_dice([self._rng.randint(1, preset["sides"]) for _ in range(preset["count"])])

    def read_now(self) -> None:
        return None

    def enter_dice(self, values: list[int], roller: str | None = None) -> dict:
        with self._lock:
            if roller:
                self._state["roller"] = roller
            sides = self._preset(self._state["preset"] or "2d6")["sides"]
            if any(not 1 <= v <= sides for v in values):
                raise ValueError(f"a d{sides} shows 1 to {sides}")
            self.throw_dice(values, source="hand")
            return copy.deepcopy(self._state)

    def correct(self, roll_id: int, index: int, *, value: int | None = None,
                cocked: bool = False, who: str | None = None, more: list[int] | None = None) -> dict:
        with self._lock:
            if more:  # a correction here never leaves a roll waiting for dice
                raise ValueError("this roll needs no more dice")
            roll = self._get(roll_id)
            sides = self._preset(roll["preset"])["sides"]
            if not cocked and (value is None or not 1 <= value <= sides):
                raise ValueError(f"a d{sides} shows 1 to {sides}")
            die = roll["dice"][index]
            to = None if cocked else value
            roll["corrections"].append({"index": index, "from": die["natural"], "to": to,
                                        "who": who, "at": _now()})
            die.update(natural=to, corrected=True)
            flat = [d["natural"] for d in roll["dice"]]
            throws, at = [], 0
            for throw in self._throws[roll_id]:
                throws.append(flat[at:at + len(throw)])
                at += len(throw)
            self._throws[roll_id] = throws
            self._resolve(roll)
            self._store(roll)
            return copy.deepcopy(roll)

    def set_principal(self, roll_id: int, index: int, who: str | None = None) -> dict:
        with self._lock:
            roll = self._get(roll_id)
            if not 0 <= index < len(self._throws[roll_id][0]):
                raise ValueError("the principal die is one of the first throw")
            for die in roll["dice"]:
                die["principal"] = die["index"] == index
            roll["corrections"].append({"index": index, "from": "secondary", "to": "principal",
                                        "who": who, "at": _now()})
            self._resolve(roll)
            self._store(roll)
            if self._pending == roll_id:
                self._pending = None if roll["complete"] else roll_id
                self._prompt_for(roll)
            return copy.deepcopy(roll)

    def add_die(self, roll_id: int, x: float, y: float, value: int, *, kind: str | None = None,
                who: str | None = None) -> dict:
        """A die tapped in: a 60-pixel box there, kept as a correction and an example (the
        real controller's checks of the photo and the rules are its own tests')."""
        with self._lock:
            roll = self._get(roll_id)
            if kind is not None and kind not in ("d6-pips", "d10"):
                raise ValueError(f"unknown kind of die {kind}")
            box = [round(x) - 30, round(y) - 30, round(x) + 30, round(y) + 30]
            index = len(roll["dice"])
            roll["dice"].append({"index": index, "step": 0, "natural": value, "value": value, "role": None,
                                 "source": "hand", "color": None, "box": box, "corrected": True,
                                 "unreadable": None, "principal": False})
            roll["corrections"].append({"index": index, "from": None, "to": value, "who": who, "at": _now()})
            self._store(roll)
            self._examples.append({"id": len(self._examples) + 1, "kind": kind or "d6-pips", "value": value,
                                   "box": box, "roll": roll_id, "who": who, "at": _now()})
            return copy.deepcopy(roll)

    def examples(self) -> dict:
        with self._lock:
            counts: dict[str, int] = {}
            for item in self._examples:
                counts[item["kind"]] = counts.get(item["kind"], 0) + 1
            return {"examples": copy.deepcopy(self._examples), "counts": counts,
                    "adaptation": copy.deepcopy(self.adaptation)}

    def example_crop(self, example_id: int) -> bytes:
        with self._lock:
            if not any(item["id"] == example_id for item in self._examples):
                raise KeyError(example_id)
            return cv2.imencode(".png", np.full((64, 64, 3), 200, np.uint8))[1].tobytes()

    def remove_example(self, example_id: int) -> None:
        with self._lock:
            kept = [item for item in self._examples if item["id"] != example_id]
            if len(kept) == len(self._examples):
                raise KeyError(example_id)
            self._examples = kept

    def rolls(self, limit: int = 20, offset: int = 0, player: str | None = None,
              preset: str | None = None) -> list[dict]:
        with self._lock:
            rows = [r for r in sorted(self._rolls.values(), key=lambda r: -r["id"])
                    if (player is None or (r["roller"] or "").casefold() == player.casefold())
                    and (preset is None or r["preset"] == preset)]
            return copy.deepcopy(rows[offset:offset + limit])

    def roll(self, roll_id: int) -> dict:
        with self._lock:
            return copy.deepcopy(self._get(roll_id))

    def rolls_since(self, seq: int) -> list[dict]:
        with self._lock:
            self.caught_up_from.append(seq)
            return copy.deepcopy(sorted((r for r in self._rolls.values() if r["seq"] > seq),
                                        key=lambda r: r["seq"]))

    def photo_path(self, roll_id: int, annotated: bool = True) -> Path | None:
        with self._lock:
            self._get(roll_id)
            path = self._data_dir / f"roll-{roll_id}{'' if annotated else '-raw'}.jpg"
            return path if path.exists() else None

    def setup_view(self):
        return setup_view(self)  # the device's, on this controller's latest frame

    def latest_frame(self):
        if self.frame is not None:
            return self.frame, {"dice": [{"value": 6, "sides": 6, "box": [2, 2, 12, 12], "color": "red",
                                          "principal": True, "confidence": 0.9, "unreadable": None}],
                                "size": [self.frame.shape[1], self.frame.shape[0]], "seconds": 0.01,
                                "principal_note": None}
        with self._lock:
            latest = max(self._rolls.values(), key=lambda r: r["id"], default=None)
            if latest is None:
                return None, None
            return _draw_tray(latest["dice"], annotated=False)

    def latest_frame_jpeg(self, max_side: int):
        image, reading = self.latest_frame()
        return None if image is None else frame_jpeg(image, reading, max_side)

    def settings(self) -> dict:
        with self._lock:
            return {**copy.deepcopy(self._settings), "pin_from_page": self.pin_from_page, "pin_in_config": False}

    def update_settings(self, **changes) -> dict:
        with self._lock:
            unknown = set(changes) - set(self._settings)
            if unknown:
                raise ValueError(f"unknown settings: {', '.join(sorted(unknown))}")
            if "pin" in changes and not self.pin_from_page:  # the device's refusal
                raise SettingLocked(Phrase("the PIN cannot be set from the page: set pin in the config "
                                           "file (or pin_from_page = true)"))
            for preset in changes.get("presets") or []:
                if not PRESET_KEYS <= set(preset):
                    raise ValueError("a preset needs name, label, system, sides, count and spec")
            self._settings.update(copy.deepcopy(changes))
            if "principal_color" in changes:  # a name chosen drops a measured colour, as the device's
                self._settings["principal_measured"] = None
            if "presets" in changes and changes["presets"] is None:  # null: the configured ones, as the device's
                self._settings["presets"] = copy.deepcopy(PRESETS)
            return self.settings()

    def principal_from_tray(self) -> dict:
        measured = principal_from_frame(*self.latest_frame())  # the device's measure and refusals
        with self._lock:
            self._settings.update(principal_color=measured.name, principal_measured=measured.to_dict())
            return self.settings()

    def clear_history(self) -> None:
        with self._lock:
            self._rolls.clear()
            self._state["latest_roll"] = None
            self._publish_state()

    def dice_stats(self, player: str | None = None) -> dict:
        """The real figures (device/dice_stats.py) of the fake's rolls, oldest first."""
        with self._lock:
            rolls = [r for _, r in sorted(self._rolls.items())
                     if player is None or (r["roller"] or "").casefold() == player.casefold()]
            return dice_stats(rolls, self.taught)

    def teaching(self) -> dict:
        return {**self.teaching_round.state(), "can_throw": self.can_throw,
                "why_not": None if self._state["camera"]["status"] == "ok" else NO_CAMERA_TO_TEACH}

    def _teaching_changed(self) -> None:
        with self._lock:
            self._state["teaching"] = self.teaching_round.on
            self._publish_state()

    def start_teaching(self) -> dict:
        if self._state["camera"]["status"] != "ok":
            raise CameraUnavailable(NO_CAMERA_TO_TEACH)
        self.teaching_round.start()
        return self.teaching()

    def stop_teaching(self) -> dict:
        self.teaching_round.stop()
        return self.teaching()

    def fix_taught_die(self, index: int, value: int) -> dict:
        self.teaching_round.fix(index, value)
        return self.teaching()

    def confirm_taught_throw(self, who: str | None = None) -> dict:
        self.teaching_round.confirm(who)
        return self.teaching()

    def skip_taught_throw(self) -> dict:
        self.teaching_round.skip()
        return self.teaching()

    def health(self) -> dict:
        with self._lock:
            camera = {"status": self._state["camera"]["status"], "message": self._state["camera"]["message"],
                      "last_frame_seconds": 0.1}
        return {"camera": camera, "disk": {"free_bytes": 10**9, "error": None},
                "database": {"ok": True, "error": None}, "saving": {"ok": True, "error": None}}

    def end_streams(self) -> None:
        self._hub.close()

    def subscribe(self) -> Subscription:
        sub = Subscription(self._hub.subscribe(), self)
        with self._lock:
            self._subs.append(sub)
        return sub

    # --- inside ------------------------------------------------------------------
    def _unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            if sub in self._subs:
                self._subs.remove(sub)

    def _preset(self, name: str) -> dict:
        for preset in self._settings["presets"]:
            if preset["name"] == name:
                return preset
        raise KeyError(name)

    def _get(self, roll_id: int) -> dict:
        try:
            return self._rolls[roll_id]
        except KeyError:
            raise RollNotFound(roll_id) from None

    def _new_roll(self, preset: str, values: list[int], roller, source: str) -> dict:
        roll = {"id": next(self._ids), "seq": 0, "preset": preset,
                "label": self._preset(preset)["label"],
                "system": self._preset(preset)["system"], "roller": roller,
                "started": _now(), "finished": None, "dice": [], "readings": [],
                "corrections": [], "note": None, "photo": False}
        self._throws[roll["id"]] = [_naturals(values)]
        self._add_dice(roll, values, source, step=0)
        if roll["system"] == "d6":
            roll["dice"][0].update(color="red", principal=True)
        if source == "camera":
            for annotated, suffix in ((True, ""), (False, "-raw")):
                path = self._data_dir / f"roll-{roll['id']}{suffix}.jpg"
                if self.draws:
                    cv2.imwrite(str(path), _draw_tray(roll["dice"], annotated=annotated)[0])
                else:
                    path.write_bytes(b"\xff\xd8annotated" if annotated else b"\xff\xd8raw")
            roll["photo"] = True
        return roll

    @staticmethod
    def _add_dice(roll: dict, values: list[int], source: str, step: int) -> None:
        for value in values:
            index = len(roll["dice"])
            why = value if isinstance(value, str) else None
            value = None if why else value
            roll["dice"].append({"index": index, "step": step, "natural": value, "value": value, "unreadable": why,
                                 "role": None, "principal": False, "source": source, "color": "white",
                                 "box": [40 + 110 * (index % 5), 120 + 130 * (index // 5),
                                         140 + 110 * (index % 5), 220 + 130 * (index // 5)],
                                 "corrected": False})

    def _prompt_for(self, roll: dict) -> None:
        needs = (roll["result"] or {}).get("needs")
        problem = None if roll["complete"] or needs else Problem("no principal")
        prompt = None if roll["complete"] else needs["reason"] if needs else problem.english()
        self._state.update(state="resolved" if roll["complete"] else "prompting",
                           prompt=prompt, problem=problem and problem.to_dict(), needs=needs)
        self._publish_state()

    def _resolve(self, roll: dict) -> None:
        """Resolve with the real rules; a cocked die (no value) or a D6 roll without
        its principal die leaves the roll waiting."""
        throws = self._throws[roll["id"]]
        no_principal = roll["system"] in ("d6", "free") and len(throws[0]) > 1 and not any(
            d["principal"] for d in roll["dice"] if d["step"] == 0)
        if no_principal or any(v is None for throw in throws for v in throw):
            roll.update(complete=False, total=None, successes=None, outcome=None, result=None,
                        perfect=False, botch=False, finished=None)  # in progress again, as the real one
            return
        # The rules take the principal die first (RULES D6-2); the dice keep their order.
        ordered = sorted(roll["dice"], key=lambda d: (d["step"], not d["principal"]))
        throws = [[d["natural"] for d in ordered if d["step"] == step] for step in range(len(throws))]
        outcome = rules.resolve(_spec(self._preset(roll["preset"])), throws)
        result = outcome.to_dict()
        for die, ruled in zip(ordered, result["dice"], strict=True):
            die.update(value=ruled.get("value", die["natural"]), role=ruled["role"])
        roll.update(result=result, complete=result["complete"],
                    total=result.get("total"), successes=result.get("successes"),
                    outcome=result.get("outcome"), perfect=bool(result.get("perfect")),
                    botch=bool(result.get("botch")),
                    finished=_now() if result["complete"] else None)

    def _store(self, roll: dict) -> None:
        self._seq += 1
        roll["seq"] = self._seq
        self._rolls[roll["id"]] = roll
        latest = max(self._rolls.values(), key=lambda r: r["id"])
        self._state["latest_roll"] = copy.deepcopy(latest)
        self._state["current_roll"] = latest["id"]  # the roll just stored is the one under way
        self._publish(Event("roll", roll["seq"], copy.deepcopy(roll)))

    def _publish_state(self) -> None:
        self._publish(Event("state", None, copy.deepcopy(self._state)))

    def _publish(self, event: Event) -> None:
        self._hub.publish(event.kind, event.data, event.seq)


def _naturals(values: list) -> list[int | None]:
    """A throw's natural values: None for a die vision could not read (given as its reason)."""
    return [None if isinstance(v, str) else v for v in values]


def _draw_tray(dice: list[dict], annotated: bool):
    """A felt-green tray with square dice and their pips; boxes and values when annotated."""
    image = np.full((480, 640, 3), (40, 90, 30), np.uint8)
    pip_spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
                 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
                 5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
                 6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}
    readings = []
    for die in dice:
        x0, y0, x1, y1 = die["box"]
        body = (40, 40, 200) if die["color"] == "red" else (235, 235, 235)
        cv2.rectangle(image, (x0, y0), (x1, y1), body, -1)
        for row, col in pip_spots.get(die["natural"] or 0, []):
            cv2.circle(image, (x0 + 25 + 25 * col, y0 + 25 + 25 * row), 8, (20, 20, 20), -1)
        if annotated:
            cv2.rectangle(image, (x0 - 4, y0 - 4), (x1 + 4, y1 + 4), (0, 220, 255), 3)
            cv2.putText(image, str(die["natural"]), (x0, y0 - 12), cv2.FONT_HERSHEY_SIMPLEX,
                        1.2, (0, 220, 255), 3)
        readings.append({"value": die["natural"], "sides": 6, "box": die["box"],
                         "color": die["color"], "principal": die["role"] == "principal",
                         "confidence": 1.0, "unreadable": None})
    return image, {"dice": readings, "size": [640, 480], "seconds": 0.0,
                   "principal_note": None}
