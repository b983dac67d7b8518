"""The roll's history: the saved rolls as the web reads them, clearing them, the health of
saving, and the rolls a restart left waiting for dice (taken up again or closed as abandoned).
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from typing import Any

from device.roll.core import TAKING, RollCore, all_or_nothing, log
from device.roll.record import Roll, abandoned_note, last_step, now
from rules.phrase import Phrase


class RollKeeping(RollCore):
    """The history's side of the controller."""

    def rolls(self, limit: int = 20, offset: int = 0, player: str | None = None,
              preset: str | None = None) -> list[dict]:
        return self._history.rolls(limit=limit, offset=offset, player=player, preset=preset)

    def roll(self, roll_id: int) -> dict:
        return self._history.roll(roll_id)

    def rolls_since(self, seq: int) -> list[dict]:
        return self._history.rolls_since(seq)

    def photo_path(self, roll_id: int, annotated: bool = True):
        return self._history.photo_path(roll_id, annotated)


    @all_or_nothing
    def clear_history(self) -> None:
        """Remove every saved roll and photo (seq keeps counting up)."""
        with self._lock:
            self._history.clear()
            self._save_error = None
            self._latest = None
            if self._roll is not None and self._roll.id is not None:
                self._roll = None
                if self._state in TAKING:
                    self._set_state("armed", prompt=self._first_prompt())
            self._publish_state()

    def health(self) -> dict:
        """What ``/healthz`` judges: the camera, the age of its last frame, free disk, the
        database, and whether rolls and photos can be saved.

        :returns: ``{"camera": {"status", "message", "last_frame_seconds"}, "disk":
            {"free_bytes", "error"}, "database": {"ok", "error"}, "saving": {"ok", "error"}}``;
            ``saving.error`` is why the last save failed (until one succeeds) or the folder
            that cannot be written; ``last_frame_seconds``
            is the time since the camera loop last got a frame (None before the first),
            ``free_bytes`` the space left in the data folder (None when it cannot be
            measured, ``error`` then says why).
        """
        with self._lock:
            camera: dict[str, Any] = {"status": self._camera["status"], "message": self._camera["message"]}
            last_frame_at = self._last_frame_at()
        camera["last_frame_seconds"] = (None if last_frame_at is None
                                        else round(max(self._clock() - last_frame_at, 0.0), 3))
        try:
            disk: dict[str, Any] = {"free_bytes": shutil.disk_usage(self._history.folder).free, "error": None}
        except OSError as exc:
            disk = {"free_bytes": None, "error": Phrase("the data folder cannot be measured: {error}", error=str(exc))}
        problem = self._history.check()  # its own lock: a slow check holds up no roll
        with self._lock:
            saving = self._save_error or self._history.unwritable()
        return {"camera": camera, "disk": disk, "database": {"ok": problem is None, "error": problem},
                "saving": {"ok": saving is None, "error": saving}}

    def _take_up(self, resume_seconds: float) -> None:
        """At start: the newest roll left waiting for dice is resumed when its last step
        (a throw, a correction) is younger than ``resume_seconds`` and its preset still
        exists; every other one left waiting is closed as abandoned, with a note."""
        waiting = [Roll.from_dict(roll) for roll in self._history.unfinished()]
        for roll in waiting:
            idle = (datetime.now(UTC) - last_step(roll)).total_seconds()
            preset = next((p for p in self._presets if p.name == roll.preset), None)
            if roll is waiting[-1] and preset is not None and idle < resume_seconds:
                self._preset, self._roller, self._roll = preset, roll.roller, roll
                walk = self._resolve(roll)
                needs = walk.outcome.needs if walk.outcome is not None else None
                self._needs = None if needs is None else needs.to_dict()
                self._state = "prompting" if roll.dice else "armed"
                self._prompt = self._request()
                problem = self._request_problem()
                self._problem = None if problem is None else problem.to_dict()
                log.info("roll %d taken up again: %s", roll.id, self._prompt)
                continue
            why = (Phrase("its preset {preset} is no more", preset=roll.preset) if preset is None else
                   Phrase("a newer roll was started") if roll is not waiting[-1] else
                   Phrase("dicelens restarted {minutes:.0f} minutes after its last step "
                          "(a roll is taken up again within {limit:g})",
                          minutes=idle / 60, limit=resume_seconds / 60))
            roll.finished, roll.note = now(), abandoned_note(why)
            self._history.save(roll)
            log.info("roll %d closed as abandoned: %s", roll.id, why)
        if waiting:
            self._latest = self._history.latest()

