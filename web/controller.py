"""What the web part calls on the device: the roll controller and the fight, as ``Protocol``s.

:func:`web.create_app` is handed a :class:`Controller` (``device.controller.Controller``)
and :func:`web.combat.attach` a :class:`Fight` (``device.combat.CombatSession``); the web
calls nothing else on them. The tests' fake (``tests/fakes/controller.py``) is typed
against these, and one contract suite (``tests/web/test_controller_contract.py``) runs on
it and on the real ones alike, so neither side can drift (the fight has no fake: the
tests use the real session, which needs only a folder). Rolls, states and settings are the JSON-ready dicts the
API sends (README, :mod:`web.api`).

Errors the web turns into answers (:func:`web.errors.refusals`): ``LookupError`` (an unknown
roll, preset or fighter), ``ValueError`` (a refusal of the rules or the controller: 400),
``RuntimeError`` (not possible now, e.g. a throw on a real camera: 409), ``OSError`` worded
as a :class:`rules.phrase.Phrase` (the history could not save or read: 503).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable


class Event(Protocol):
    """One change: ``kind`` (``"roll"``, ``"state"``, ``"camera"``; the fight's ``"combat"``),
    the roll's or the fight's ``seq`` (None for a state or camera event), and ``data``."""

    @property
    def kind(self) -> str: ...
    @property
    def seq(self) -> int | None: ...
    @property
    def data(self) -> Any: ...


class Subscription(Protocol):
    """One open page's queue of events. The event streams also read, when there, ``ended``
    (True once the server is stopping: no event will come) and ``dropped`` (how many events
    a full queue lost: the roll stream fetches the lost rolls with ``rolls_since``)."""

    def get(self, timeout: float) -> Event | None:
        """The next event, or None after ``timeout`` seconds without one."""

    def close(self) -> None:
        """Stop receiving; the publisher forgets this queue."""


@runtime_checkable
class Controller(Protocol):
    """The roll controller, as the API, the pages, the event stream and ``/healthz`` use it."""

    def state(self) -> dict:
        """``{"state", "preset", "label", "roller", "prompt", "problem", "needs", "camera": {"status",
        "message", "reason", "can_throw", "by_hand"}, "latest_roll", "odds", "teaching"}`` (``problem``: a
        :class:`device.tray.problems.Problem` as a dict, or None; the page words it;
        ``teaching``: the teaching round is on and takes every throw)."""

    def presets(self) -> list[dict]:
        """``[{"name", "label", "system", "sides", "count", "spec"}]``."""

    def arm(self, preset: str, roller: str | None = None) -> dict:
        """Arm the preset of that name; the state. :raises LookupError: an unknown preset."""

    def throw(self) -> None:
        """Start a throw (sim, file cameras), the teaching round's while it is on.
        :raises RuntimeError: a camera that cannot."""

    def read_now(self) -> None:
        """Read the tray now."""

    def enter_dice(self, values: list[int], roller: str | None = None) -> dict:
        """Dice by hand for the current step (a d10's 0 is 10, RULES P-1); the state.

        :raises ValueError: a face the armed dice do not show, or no roll armed."""

    def correct(self, roll_id: int, index: int, *, value: int | None = None,
                cocked: bool = False, who: str | None = None, more: list[int] | None = None) -> dict:
        """Correct die ``index`` of a roll (RULES T-1); the roll. :raises LookupError: unknown
        roll. :raises ValueError: no change, or one needing dice (its ``needs``)."""

    def set_principal(self, roll_id: int, index: int, who: str | None = None) -> dict:
        """Make die ``index`` of the first throw the principal die (RULES D6-2); the roll."""

    def add_die(self, roll_id: int, x: float, y: float, value: int, *, kind: str | None = None,
                who: str | None = None) -> dict:
        """Add a die the reader missed, tapped at (x, y) photo pixels (RULES T-3); the roll.
        :raises LookupError: unknown roll. :raises ValueError: outside the photo, on a die,
        an unknown kind or one the roll is not thrown with, or where the rules take no die more."""

    def examples(self) -> dict:
        """``{"examples": [{"id", "kind", "value", "box", "roll", "who", "at"}], "counts": {kind: n},
        "adaptation": {"used", "examples", "right", "shipped", "why"} | None}``."""

    def example_crop(self, example_id: int) -> bytes:
        """One example's crop (PNG). :raises LookupError: no such example."""

    def remove_example(self, example_id: int) -> None:
        """Forget one example (its roll stays as it is). :raises LookupError: no such example."""

    def rolls(self, limit: int = 20, offset: int = 0, player: str | None = None,
              preset: str | None = None) -> list[dict]:
        """A page of the history, newest first."""

    def roll(self, roll_id: int) -> dict:
        """One roll. :raises LookupError: an unknown id."""

    def rolls_since(self, seq: int) -> list[dict]:
        """Every roll with a seq above ``seq``, in seq order (may come in batches)."""

    def photo_path(self, roll_id: int, annotated: bool = True) -> Path | None:
        """The roll's photo file, or None. :raises LookupError: an unknown id."""

    def setup_view(self) -> dict | None:
        """The latest frame for the camera's setup: ``{"jpeg" (bytes), "width", "height" (pixels),
        "die_px", "fit", "advice" (a Phrase)}``, or None before the first frame.
        :raises ValueError: the frame could not be encoded."""

    def latest_frame(self) -> tuple[Any, dict | None]:
        """The last frame (a BGR image array) and its tray reading, or ``(None, None)``."""

    def latest_frame_jpeg(self, max_side: int) -> tuple[bytes, dict] | None:
        """The last frame as a JPEG of at most ``max_side`` pixels a side, and ``{"width",
        "height"}`` (the full frame's pixels) and ``"reading"``; None before the first frame
        (the web encodes no image itself). :raises ValueError: it could not be encoded."""

    def settings(self) -> dict:
        """``{"principal_color", "principal_measured" (``{"name", "lab"}`` or None), "presets",
        "pin" (a hash or None), "house_rules"}``."""

    def update_settings(self, **changes: Any) -> dict:
        """Change and keep some settings; the settings. :raises ValueError, TypeError: a bad one."""

    def principal_from_tray(self) -> dict:
        """Measure the principal die's colour on the one die of the latest frame and keep it;
        the settings. :raises RuntimeError: no die or several dice in sight (409)."""

    def clear_history(self) -> None:
        """Forget every roll and photo."""

    def dice_stats(self, player: str | None = None) -> dict:
        """The table's dice per kind (of ``player``'s rolls, or everyone's): ``{"kinds": [{"kind",
        "sides", "dice", "read", "right", "corrected", "unreadable", "by_hand", "faces",
        "taught", "fairness": {"test", "p", "face", "more", "detectable", "few"} or None}],
        "alpha", "power"}`` (``device.dice_stats.dice_stats``)."""

    def health(self) -> dict:
        """What ``/healthz`` judges (:mod:`web.health`)."""

    # The teaching round (``device/teach_round.py``): each answers ``{"on", "dice": [{"index",
    # "kind", "sides", "read", "value", "fixed", "crop"}], "examples": {kind: {value: count}},
    # "lacking": {kind: [values]}, "can_throw"}`` (``can_throw``: :meth:`throw` throws the set).
    def teaching(self) -> dict:
        """The round's state; ``why_not``: why no round can start (a Phrase: no camera), or None."""

    def start_teaching(self) -> dict:
        """Every settled throw is the round's, read without rules, until :meth:`stop_teaching`;
        a RuntimeError (409) while no camera reads the tray."""

    def stop_teaching(self) -> dict:
        """Back to the preset armed before; a throw held is dropped."""

    def fix_taught_die(self, index: int, value: int) -> dict:
        """Die ``index`` of the throw held shows ``value``. :raises LookupError: no such die.
        :raises ValueError: a value not on it."""

    def confirm_taught_throw(self, who: str | None = None) -> dict:
        """The throw held is right: its dice become examples. :raises LookupError: none held.
        :raises ValueError: a die without a value. :raises OSError: not saved (a Phrase)."""

    def skip_taught_throw(self) -> dict:
        """Drop the throw held, if any: the next one is read."""

    def subscribe(self) -> Subscription:
        """A queue of ``roll``, ``state`` and ``camera`` events for one open page."""

    def end_streams(self) -> None:
        """End every open page's stream, and any opened later: the server is stopping."""


@runtime_checkable
class Fight(Protocol):
    """The Destiny Dice fight (RULES.md §3), as the combat API uses it. Every step returns
    the whole state (:meth:`state`). :raises KeyError: an unknown fighter or sheet (404).
    :raises ValueError: a step the rules refuse (400)."""

    def state(self) -> dict:
        """``{"log_size", "seq", "encounter", "groups", "attack", "last_attack", "can_undo",
        "heroes", "bestiary", "conditions", "options", "tray", "last_attack_correctable"}``."""

    def names(self) -> list[str]:
        """The fighters' names, in the order they were added."""

    def from_sheets(self) -> dict[str, str]:
        """The fighters made from a bestiary sheet: fighter name → the sheet's name."""

    def subscribe(self) -> Subscription:
        """A queue of ``combat`` events (the whole state, its seq) for one open page."""

    def end_streams(self) -> None:
        """End every open page's stream: the server is stopping."""

    def add_hero(self, sheet: str, initiative: int | None = None) -> dict: ...
    def add_enemy(self, sheet: str, count: int = 1, initiatives: Sequence[int] | None = None) -> dict: ...
    def add_participant(self, sheet: Mapping, side: str, initiative: int | None = None,
                        save: bool = False) -> dict: ...
    def save_hero(self, sheet: Mapping) -> dict: ...
    def remove(self, name: str) -> dict: ...
    def roll_initiative(self, values: Mapping[str, int]) -> dict: ...
    def reorder(self, names: Sequence[str]) -> dict: ...
    def next_turn(self) -> dict: ...
    def poison_roll(self, value: int) -> dict: ...
    def start_attack(self, attacker: str, defender: str, *, ranged: bool | None = None,
                     attack_modifier: int = 0, damage_bonus: int = 0) -> dict: ...
    def attack_dice(self, values: Sequence[int]) -> dict: ...
    def correct_attack(self, throw: str, index: int, value: int) -> dict: ...
    def cancel_attack(self) -> dict: ...
    def read_tray(self, step: str, name: str | None = None) -> dict: ...
    def tap_initiative(self, name: str, value: int | None) -> dict: ...
    def cancel_tray(self) -> dict: ...
    def enter_top_face(self, value: int) -> dict: ...
    def help(self, helper: str, ally: str, bonus: int = 1) -> dict: ...
    def damage(self, name: str, amount: int, reason: str | None = None) -> dict: ...
    def heal(self, name: str, amount: int, reason: str | None = None) -> dict: ...
    def add_condition(self, name: str, condition: Mapping) -> dict: ...
    def cure(self, name: str, condition: str) -> dict: ...
    def spend_energy(self, name: str, energy: str, amount: int = 1) -> dict: ...
    def short_rest(self, name: str, roll: int) -> dict: ...
    def long_rest(self, name: str) -> dict: ...
    def end_scene(self) -> dict: ...
    def new_fight(self) -> dict: ...
    def set_options(self, **changes: bool) -> dict: ...
    def undo(self) -> dict: ...
