"""What a Destiny Dice fight keeps (RULES.md §3): its participants, initiative order,
round, turn and log, as plain JSON both ways, with one undo.

:class:`EncounterState` is the state and its reading; :func:`step` makes a method of
:class:`rules.encounter.Encounter` (the fight's steps) one undoable step that happens
whole or raises and changes nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Concatenate, ParamSpec, Self, TypeVar

from rules.destiny_spec import CHARACTERISTIC_SIDES, DestinyOptions
from rules.errors import InvalidRoll, InvalidStep
from rules.outcome import Needs
from rules.participant import Participant, check_count
from rules.phrase import Phrase

FORMAT_VERSION = 1

P = ParamSpec("P")
R = TypeVar("R")
E = TypeVar("E", bound="EncounterState")


def step(method: Callable[Concatenate[E, P], R]) -> Callable[Concatenate[E, P], R]:
    """Make a public method one undoable step: it happens whole or not at all."""

    @functools.wraps(method)
    def run(self: E, /, *args: P.args, **kwargs: P.kwargs) -> R:
        before = self.state()
        try:
            result = method(self, *args, **kwargs)
        except Exception:
            self._load(before)
            raise
        self._undo = before
        return result

    return run


class EncounterState:
    """The state of a fight (see :class:`rules.encounter.Encounter`, its steps).

    :param participants: the fighters, in the order they were added.
    :param options: house rules for the attacks, :class:`rules.destiny.DestinyOptions`.
    """

    def __init__(self, participants: Sequence[Participant] = (), options: DestinyOptions | None = None) -> None:
        self.options = options or DestinyOptions()
        self.participants: list[Participant] = []
        self.order: list[str] = []  # acting order once initiative is rolled (RULES DD-1)
        self.groups: dict[str, int] = {}  # tie group of each name in the order
        self.round = 0  # 0: initiative not rolled yet
        self.current: str | None = None  # whose turn it is
        self.turn_effects: list[str] = []  # what happened at the start of the current turn
        self.turn_lost = False  # RULES DD-11 Paralizado: the current turn is lost
        self.pending_poison: dict[str, Any] | None = None  # {"name", "sides"}: a poison die to throw
        self.log: list[dict[str, Any]] = []
        self._undo: dict[str, Any] | None = None
        for participant in participants:
            self._add(participant)

    def _add(self, participant: Participant) -> None:
        if not isinstance(participant, Participant):
            raise InvalidStep("a participant must be a Participant")
        if any(p.name == participant.name for p in self.participants):
            raise InvalidStep(Phrase("there is already a participant called {name}", name=participant.name))
        self.participants.append(participant)

    # ------------------------------------------------------------ reading

    def get(self, name: str) -> Participant:
        """The participant called ``name``.

        :raises InvalidStep: when there is none.
        """
        for participant in self.participants:
            if participant.name == name:
                return participant
        raise InvalidStep(f"no participant called {name!r}")

    @property
    def started(self) -> bool:
        """Initiative has been rolled and the fight is on."""
        return self.round > 0

    @property
    def over(self) -> bool:
        """Every enemy is defeated, or every hero is out of combat (RULES DD-9)."""
        sides = {p.side for p in self.participants if p.status == "active"}
        return self.started and len(sides) < 2

    @property
    def needs(self) -> Needs | None:
        """The die the players must throw before the fight goes on (a poison die), else ``None``."""
        if self.pending_poison is None:
            return None
        name, sides = self.pending_poison["name"], self.pending_poison["sides"]
        return Needs(count=1, sides=sides, kind=f"d{sides}",
                     reason=Phrase("{name} is Envenenado (1d{sides}): roll the d{sides} for the poison damage",
                                   name=name, sides=sides))

    @property
    def can_undo(self) -> bool:
        """A step can be undone (once)."""
        return self._undo is not None

    def initiative_groups(self) -> list[list[str]]:
        """The acting order in tie groups: names within a group may be reordered (RULES DD-1)."""
        groups: list[list[str]] = []
        for name in self.order:
            if groups and self.groups[groups[-1][0]] == self.groups[name]:
                groups[-1].append(name)
            else:
                groups.append([name])
        return groups

    # ------------------------------------------------------------ undo and JSON

    def undo(self) -> None:
        """Undo the last step; it cannot be undone twice.

        :raises InvalidStep: when there is nothing to undo.
        """
        if self._undo is None:
            raise InvalidStep(Phrase("nothing to undo: only the last step can be undone, once"))
        self._load(self._undo)
        self._undo = None

    def state(self) -> dict[str, Any]:
        """The encounter as JSON, without the undo slot."""
        return {
            "version": FORMAT_VERSION,
            "options": self.options.to_dict(),
            "participants": [p.to_dict() for p in self.participants],
            "order": list(self.order),
            "groups": dict(self.groups),
            "round": self.round,
            "current": self.current,
            "turn_effects": list(self.turn_effects),
            "turn_lost": self.turn_lost,
            "pending_poison": None if self.pending_poison is None else dict(self.pending_poison),
            "log": [dict(entry) for entry in self.log],
        }

    def to_dict(self) -> dict[str, Any]:
        """The whole encounter as JSON, the undo slot included, for saving: :meth:`state`
        plus ``"undo"`` (the state before the last step, or ``None``) and derived
        ``"needs"`` and ``"over"`` for the page."""
        data = self.state()
        data["needs"] = None if self.needs is None else self.needs.to_dict()
        data["over"] = self.over
        data["undo"] = self._undo
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The inverse of :meth:`to_dict` (a saved fight after a restart).

        :raises InvalidStep: for a document that is not a saved encounter.
        """
        encounter = cls()
        encounter._load(data)
        undo = data.get("undo")
        if undo is not None:
            cls()._load(undo)  # a broken undo slot is refused now, not at undo time
        encounter._undo = undo
        return encounter

    def _load(self, data: Mapping[str, Any]) -> None:
        if not isinstance(data, Mapping) or data.get("version") != FORMAT_VERSION:
            raise InvalidStep(f"not a saved encounter of format {FORMAT_VERSION}")
        try:
            options = DestinyOptions(**data.get("options", {}))
            participants = [Participant.from_dict(p) for p in data["participants"]]
            names = [p.name for p in participants]
            if len(set(names)) != len(names):
                raise InvalidStep("a saved encounter names a participant twice")
            order, groups = list(data["order"]), dict(data["groups"])
            if set(order) - set(names) or set(order) != set(groups) or len(set(order)) != len(order):
                raise InvalidStep("the saved order does not match the participants")
            current = data["current"]
            if current is not None and current not in order:
                raise InvalidStep(f"the saved turn is {current}'s, who is not in the order")
            pending = data["pending_poison"]
            if pending is not None and (pending.get("name") not in names
                                        or pending.get("sides") not in CHARACTERISTIC_SIDES):
                raise InvalidStep("the saved poison die does not match the participants")
            fields = (check_count(data["round"], "round"), list(data["turn_effects"]), bool(data["turn_lost"]),
                      pending, [dict(entry) for entry in data["log"]])
        except (KeyError, TypeError) as exc:
            raise InvalidStep(f"a saved encounter is missing or has a bad {exc}") from None
        except InvalidRoll as exc:
            raise InvalidStep(str(exc)) from None
        self.options, self.participants, self.order, self.groups, self.current = (
            options, participants, order, groups, current)
        self.round, self.turn_effects, self.turn_lost, self.pending_poison, self.log = fields

    # ------------------------------------------------------------ helpers

    def _note(self, kind: str, text: str, **data: Any) -> None:
        """A log entry: ``text`` in English, and for a sentence of :func:`_said` its
        ``template`` and ``values`` too (a page words it in its own language)."""
        worded = {"template": text.template, "values": dict(text.values)} if isinstance(text, Phrase) else {}
        self.log.append({"round": self.round, "kind": kind, "text": str(text), **worded, **data})
    def _winner(self) -> Phrase:
        if any(p.side == "enemy" and p.status == "active" for p in self.participants):
            return Phrase("every hero is out of combat")
        return Phrase("every enemy is defeated")


def said(template: str, **values: Any) -> Phrase:
    """A sentence of the fight's log or turn effects: its English text (a ``str``) keeping
    ``template`` and ``values`` (``rules.phrase.Phrase``), so a page can word it in its own
    language (``web/messages.py`` ``log_text``) and the log's English stays as it is."""
    return Phrase(template, **values)
