"""A fight's step waiting for dice from the tray: the attack's next throw, or a fighter's
initiative die before the fight starts (RULES T-2: only a throw that settles after the
asking counts). The tray dispatcher asks :meth:`TrayWait.wanted`, reads the frame with the
numbered reader (every kind: ``device.tray.readers``) and hands the match to
:meth:`TrayWait.take` (``device/tray/``); the wait is kept in the fight's file, never in
undo (asking is not a step of the fight)."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, cast

from device.combat import attack
from device.tray.dispatch import Taken, TrayDispatcher
from device.tray.match import Wanted
from device.tray.problems import Problem, leaning, listing
from device.tray.readers import reader as tray_reader
from rules.destiny_spec import check_face, initiative_of
from rules.errors import InvalidStep, NotNow
from rules.phrase import Phrase

if TYPE_CHECKING:
    from device.combat.session import CombatSession

log = logging.getLogger("device.combat")


def _wanted_text(sides: Sequence[int]) -> str:
    """ "a d8 and a d20" for ``[8, 20]``."""
    return listing([(f"d{n}", count) for n, count in Counter(sides).items()])


class TrayWait:
    """The tray's part of ``session``'s fight, under its lock.

    :param numbered_reader: ``(image BGR H×W×3 uint8, principal_color) -> TrayReading``
        of the tray's dice with their ``sides``; None: ``vision.read_dice`` of every kind
        (``device.tray.readers``), so a die of another kind is named.
    :param clock: the clock of the ``t`` of settled frames, seconds.
    :param cocked_dice: ``cocked_dice()`` is the cocked-die policy now (RULES T-5).
    """

    def __init__(self, session: CombatSession, numbered_reader: Callable | None,
                 clock: Callable[[], float], cocked_dice: Callable[[], str]):
        self._session, self._clock, self._cocked_dice = session, clock, cocked_dice
        self.dispatcher = TrayDispatcher([self], {"numbered": numbered_reader or tray_reader("numbered")},
                                         annotate=lambda image, reading: image)
        self._step: dict | None = None          # the step waiting: {"step": "attack"} | {"step": "initiative", "name"}
        self._problem: dict | None = None       # why the last throw read was not used (Problem.to_dict)
        self._initiative: dict[str, int] = {}   # Mind dice read before the fight starts
        self._tapped: dict[str, int] = {}       # Mind dice tapped on a phone (none also read: the later wins)
        self._after = 0.0                       # frames settled before this are stale (RULES T-2)
        self._stage: tuple | None = None        # the throw the wait is for: another throw is asked anew
        self._void: list = []                   # RULES T-5 rethrow_set: the dice of the throw a cocked die voided

    def ask(self, step: str, name: str | None = None) -> dict:
        """:meth:`CombatSession.read_tray`."""
        session = self._session
        with session._lock:
            if step == "attack":
                if session._attack is None:
                    raise NotNow(Phrase("no attack is being resolved: start one first"))
                wait = {"step": "attack"}
            elif step == "initiative":
                if session._encounter.started:
                    raise NotNow(Phrase("initiative was rolled: the fight has started"))
                if name not in session.names():
                    raise KeyError(Phrase("no fighter called {name}", name=name))
                wait = {"step": "initiative", "name": name}
            else:
                raise InvalidStep(Phrase("dice are read from the tray for attack or initiative, not {step}",
                                         step=repr(step)))
            self._step, self._problem, self._void = wait, None, []
            self._stage, self._after = attack.stage(session._attack), self._clock()
            return self._save()

    def tap(self, name: str, value: int | None) -> dict:
        """:meth:`CombatSession.tap_initiative`."""
        session = self._session
        with session._lock:
            if session._encounter.started:
                raise NotNow(Phrase("initiative was rolled: the fight has started"))
            if name not in session.names():
                raise KeyError(Phrase("no fighter called {name}", name=name))
            self._initiative.pop(name, None)
            if value is None:
                self._tapped.pop(name, None)
            else:
                mind = session._encounter.get(name).mind
                self._tapped[name] = check_face(value, mind, initiative_of(name))
            return self._save()

    def _read(self, name: str, value: int) -> None:
        """A Mind die read from the tray: it replaces a value tapped before."""
        self._initiative[name] = value
        self._tapped.pop(name, None)

    def cancel(self) -> dict:
        """:meth:`CombatSession.cancel_tray`."""
        with self._session._lock:
            self._step = self._problem = None
            self._void = []
            return self._save()

    def enter_top_face(self, value: int) -> dict:
        """:meth:`CombatSession.enter_top_face`."""
        with self._session._lock:
            problem = self._problem
            if self._step is None or not problem or problem["code"] != "leaning":
                raise NotNow(Phrase("no die of the tray leans: there is no top face to enter"))
            values, sides = list(problem["values"]), problem["sides"]
            die = values.index(None)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides[die]:
                raise InvalidStep(Phrase("a d{sides} shows 1 to {sides}", sides=sides[die]))
            values[die] = value
            if None in values:  # another die leans: its top face next
                self._problem = leaning(values, sides).to_dict()
                return self._save()
            if self._step["step"] == "attack":
                return self._session._tray_throw(values, "corrected")
            self._read(self._step["name"], values[0])
            self._step = self._problem = None
            return self._save()

    def wanted(self, t: float) -> Wanted | None:
        """:meth:`CombatSession.wanted`."""
        policy = self._cocked_dice()  # the controller's setting: asked outside this lock
        with self._session._lock:
            if self._step is None or t < self._after:
                return None
            sides, needs, _ = self._wants()
            return Wanted(reader="numbered", sides=tuple(sides), asks=needs, cocked=policy,
                          voided=tuple(self._void), token=(self._step, self._stage))

    def take(self, taken: Taken) -> bool:
        """:meth:`CombatSession.take`."""
        wait, stage = cast(tuple[dict, tuple | None], taken.wanted.token)
        with self._session._lock:
            if self._step is not wait or self._stage != stage:  # the step moved on meanwhile
                return True
            problem = taken.match.problem
            if taken.reading is None and problem is not None:
                log.warning("combat: could not read the tray: %s", problem.why)
                problem = replace(problem, asks="throw again")
            elif problem is not None and problem.code == "void" and taken.reading is not None:
                self._void = list(taken.reading.dice)  # none of them counts again unless it moved
            elif problem is None:
                self._void = []
            values = taken.match.values
            if values is not None:
                try:
                    if wait["step"] == "attack":
                        self._session._tray_throw(values)
                        return True
                    self._read(wait["name"], values[0])
                    self._step = None
                except ValueError as exc:  # a face the die does not have: read wrong
                    problem = Problem("refused", why=str(exc), asks="throw again")
            self._problem = None if problem is None else problem.to_dict()
            self._save()
            return True

    def shown(self) -> dict:
        """The state's ``"tray"`` (:meth:`CombatSession.state`)."""
        waiting = None
        if self._step is not None:
            dice, needs, throw = self._wants()
            waiting = {**self._step, "dice": dice, "needs": needs, **({"throw": throw} if throw else {})}
        return {"waiting": waiting, "problem": self._problem, "initiative": dict(self._initiative),
                "tapped": dict(self._tapped)}

    def to_dict(self) -> dict:
        """The wait as the fight's file keeps it (:meth:`resume` reads it back)."""
        return {"waiting": self._step, "problem": self._problem, "initiative": dict(self._initiative),
                "tapped": dict(self._tapped)}

    def follow(self) -> None:
        """After a step: the wait ends with its step (attack over, fight started, fighter
        gone); a new throw of the attack is asked anew, so only a later frame counts (T-2)."""
        session = self._session
        if session._encounter.started:
            self._initiative, self._tapped = {}, {}
        else:
            names = set(session.names())
            self._initiative = {n: v for n, v in self._initiative.items() if n in names}
            self._tapped = {n: v for n, v in self._tapped.items() if n in names}
        wait = self._step
        if wait is None:
            return
        if wait["step"] == "attack":
            still = session._attack is not None
        else:
            still = not session._encounter.started and wait.get("name") in session.names()
        if not still:
            self._step = self._problem = None
            self._void = []
        elif attack.stage(session._attack) != self._stage:
            self._stage, self._after, self._problem = attack.stage(session._attack), self._clock(), None
            self._void = []

    def resume(self, tray: object) -> None:
        """The wait of the file, fresh from now: frames from before the restart are gone anyway
        (and so is the problem of the last one). A part that cannot be read is dropped."""
        names = self._session.names()
        tray = tray if isinstance(tray, Mapping) else {}
        waiting, read, tapped = tray.get("waiting"), tray.get("initiative"), tray.get("tapped")
        if isinstance(waiting, Mapping) and (waiting.get("step") == "attack" or (
                waiting.get("step") == "initiative" and waiting.get("name") in names)):
            self._step = {key: waiting[key] for key in ("step", "name") if key in waiting}
        read = read if isinstance(read, Mapping) else {}
        self._initiative = {n: v for n, v in read.items() if type(v) is int and n in names}
        tapped = tapped if isinstance(tapped, Mapping) else {}
        self._tapped = {n: v for n, v in tapped.items() if type(v) is int and n in names and n not in self._initiative}
        self._stage, self._after = attack.stage(self._session._attack), self._clock()
        self.follow()

    def _wants(self) -> tuple[list[int], str, str | None]:
        """The sides of the dice the waiting step asks for, the end of its sentences, and
        which throw of the attack it is ("attack", "defence", "damage"; None for initiative)."""
        step, session = cast(dict, self._step), self._session  # called only while a step waits
        if step["step"] == "initiative":
            name = step["name"]
            sides = [session._encounter.get(name).mind]
            return sides, f"{name}'s initiative needs {_wanted_text(sides)}", None
        under_way = cast(dict, session._attack)
        needs, throw = attack.needs(under_way), attack.throw_asked(under_way)
        words = {"attack": "this attack", "defence": "the defence", "damage": "the damage"}[throw]
        return list(needs.dice), f"{words} needs {_wanted_text(needs.dice)}", throw

    def _save(self) -> dict:
        """Save and publish a change of the wait (not a step: undo is left as it is)."""
        self._session._save()
        return self._session._publish()
