"""A Destiny Dice fight (RULES.md §3, DD-1 … DD-11): who is in it, whose turn it is, what wears off.

:class:`Encounter` holds the participants, the initiative order, the round and the
turn, and takes one step at a time (roll initiative, next turn, apply an attack,
help, damage, heal, conditions, rests). Every step either happens whole or raises
and changes nothing; the last step can be undone once. The state is plain JSON
(:meth:`Encounter.to_dict`, :meth:`Encounter.from_dict`) so a fight survives a
restart; reading and writing the file is the device's job. Dice are never drawn
here: a value the players throw (a poison die, the short rest's d4) is handed in.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Concatenate, Literal, ParamSpec, TypeGuard, TypeVar

from rules.destiny import (
    CHARACTERISTIC_SIDES,
    UNARMED,
    AttackOutcome,
    AttackSpec,
    DestinyOptions,
    Weapon,
    check_characteristic,
    check_face,
    check_weapon,
    initiative_order,
)
from rules.errors import InvalidRoll, InvalidStep
from rules.outcome import Needs
from rules.phrase import Phrase

Duration = Literal["temporary", "persistent"]
ENERGY = ("EC", "EM", "EA")  # RULES DD-10: energy of Body, Mind, Soul
SHORT_REST_DIE = 4  # RULES DD-10: +1d4 PV
FORMAT_VERSION = 1

# RULES DD-11: the seed's conditions, their duration and what they do.
CONDITIONS: dict[str, tuple[Duration, str]] = {
    "Derribado": ("temporary", "prone: can't change zone; standing up costs the main action"),
    "Ciego": ("persistent", "blinded: −2 or a harder difficulty on anything that needs sight"),
    "Inmóvil": ("temporary", "immobilised: can't move or change zone, may still act"),
    "Paralizado": ("temporary", "paralysed: loses the next turn, still rolls defence"),
    "Asustado": ("persistent", "frightened: can't approach the source; Soul (will) difficulty 5 to do so"),
    "Desarmado": ("temporary", "disarmed: weapon dropped; taking it back or drawing another costs the main action"),
    "Envenenado": ("persistent", "poisoned: takes X damage at the start of each own turn"),
}
POISON = "Envenenado"
PRONE = "Derribado"
PARALYSED = "Paralizado"
DISARMED = "Desarmado"


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_count(value: object, what: str, lowest: int = 0) -> int:
    if not _is_int(value) or value < lowest:
        raise InvalidStep(f"{what} must be a whole number of at least {lowest}, not {value!r}")
    return value


@dataclass
class Condition:
    """A condition a participant bears (RULES DD-11).

    :param name: the seed's name (``"Derribado"``, ``"Envenenado"``…) or any other.
    :param duration: ``"temporary"`` (ends at the start of the bearer's next turn)
        or ``"persistent"`` (until cured or a long rest). ``None`` takes the seed's
        duration for a known name, else temporary (unknown duration is temporary).
    :param poison: Envenenado X with a fixed X: damage at the start of each own turn.
    :param poison_die: Envenenado with X a die (1d4, 1d6…): its sides; the players
        throw it at the start of each of the bearer's turns.
    :param source: what it is about, e.g. the source of fear of Asustado.
    :raises InvalidStep: for an Envenenado without exactly one X, an X on another
        condition, or an unknown duration.
    """

    name: str
    duration: Duration | None = None
    poison: int | None = None
    poison_die: int | None = None
    source: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidStep(f"a condition needs a name, not {self.name!r}")
        if self.duration is None:
            self.duration = CONDITIONS.get(self.name, ("temporary", ""))[0]
        if self.duration not in ("temporary", "persistent"):
            raise InvalidStep(f"a condition is temporary or persistent, not {self.duration!r}")
        if self.name == POISON:
            if (self.poison is None) == (self.poison_die is None):
                raise InvalidStep("Envenenado needs its X: a fixed damage or a die (1d4, 1d6…), one of them")
            if self.poison is not None:
                _check_count(self.poison, "the poison damage", 1)
            else:
                check_characteristic(self.poison_die, "the poison die")
        elif self.poison is not None or self.poison_die is not None:
            raise InvalidStep(f"only Envenenado deals poison damage, not {self.name}")

    @property
    def label(self) -> str:
        """``"Envenenado 2"``, ``"Envenenado 1d4"``, ``"Derribado"``."""
        if self.poison is not None:
            return f"{self.name} {self.poison}"
        if self.poison_die is not None:
            return f"{self.name} 1d{self.poison_die}"
        return self.name

    @property
    def effect(self) -> str | None:
        """What it does, in English, for a condition of the seed; else ``None``."""
        return CONDITIONS[self.name][1] if self.name in CONDITIONS else None

    def to_dict(self) -> dict[str, Any]:
        """``{"name", "duration", "poison", "poison_die", "source", "label", "effect"}``."""
        return {"name": self.name, "duration": self.duration, "poison": self.poison,
                "poison_die": self.poison_die, "source": self.source, "label": self.label, "effect": self.effect}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Condition:
        """The inverse of :meth:`to_dict` (``label`` and ``effect`` are ignored)."""
        return cls(**_fields(data, ("name", "duration", "poison", "poison_die", "source"), ("label", "effect")))


@dataclass
class Participant:
    """One fighter (RULES §3).

    :param name: unique in the encounter.
    :param side: ``"hero"`` or ``"enemy"``.
    :param body: Cuerpo die sides (4–12): melee attacks, damage, a hero's defence.
    :param mind: Mente die sides: initiative and ranged attacks.
    :param soul: Alma die sides.
    :param pv: hit points now (0 ≤ pv ≤ pv_max).
    :param pv_max: hit points at full health (≥ 1).
    :param defence: an enemy's bestiary Defence die; a hero has none (defends with Body).
    :param armour: added to the defence result.
    :param shield: added to the defence result.
    :param weapon: ``"light"``, ``"medium"``, ``"heavy"``, ``"unarmed"`` or ``None`` (no weapon class).
    :param ranged: the weapon shoots: attacks use Mind (RULES DD-4, DD-7).
    :param energy: EC, EM, EA now (energy of Body, Mind, Soul, RULES DD-10).
    :param energy_max: EC, EM, EA at full.
    :param conditions: conditions borne (RULES DD-11).
    :param help_bonus: an ally's help carried to the next roll (RULES DD-2).
    :param points: points earned by hits, ``{"PC", "PM"}`` (RULES DD-8).
    :param initiative: the Mind die result of this fight, ``None`` before.
    :raises InvalidStep: for a bad value, in one sentence.
    :raises InvalidRoll: for a die that is not d4–d12 or a weapon the die cannot wield.
    """

    name: str
    side: Literal["hero", "enemy"]
    body: int
    mind: int
    soul: int
    pv: int
    pv_max: int
    defence: int | None = None
    armour: int = 0
    shield: int = 0
    weapon: Weapon | None = None
    ranged: bool = False
    energy: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ENERGY, 0))
    energy_max: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ENERGY, 0))
    conditions: list[Condition] = field(default_factory=list)
    help_bonus: int = 0
    points: dict[str, int] = field(default_factory=lambda: {"PC": 0, "PM": 0})
    initiative: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidStep(f"a participant needs a name, not {self.name!r}")
        if self.side not in ("hero", "enemy"):
            raise InvalidStep(f"{self.name} is a hero or an enemy, not {self.side!r}")
        for die in ("body", "mind", "soul"):
            check_characteristic(getattr(self, die), f"{self.name}'s {die.capitalize()} die")
        if self.side == "enemy":
            if self.defence is None:
                raise InvalidStep(f"{self.name} is an enemy: give its bestiary Defence die")
            check_characteristic(self.defence, f"{self.name}'s Defence die")
        elif self.defence is not None:
            raise InvalidStep(f"{self.name} is a hero: a hero defends with Body, not a Defence die")
        _check_count(self.pv_max, f"{self.name}'s maximum PV", 1)
        _check_count(self.pv, f"{self.name}'s PV", 0)
        if self.pv > self.pv_max:
            raise InvalidStep(f"{self.name} has {self.pv} PV, more than the maximum {self.pv_max}")
        _check_count(self.armour, f"{self.name}'s armour")
        _check_count(self.shield, f"{self.name}'s shield")
        if not isinstance(self.ranged, bool):
            raise InvalidStep(f"ranged must be true or false, not {self.ranged!r}")
        check_weapon(self.weapon, self.attack_die(), self.ranged, self.name)
        for name in ("energy", "energy_max"):
            values = getattr(self, name)
            if not isinstance(values, Mapping) or set(values) != set(ENERGY):
                raise InvalidStep(f"{self.name}'s {name.replace('_', ' ')} needs EC, EM and EA")
            for key in ENERGY:
                _check_count(values[key], f"{self.name}'s {key}")
        for key in ENERGY:
            if self.energy[key] > self.energy_max[key]:
                raise InvalidStep(f"{self.name}'s {key} {self.energy[key]} is above its maximum {self.energy_max[key]}")
        self.energy, self.energy_max = dict(self.energy), dict(self.energy_max)
        _check_count(self.help_bonus, f"{self.name}'s help bonus")
        if not isinstance(self.points, Mapping) or set(self.points) != {"PC", "PM"}:
            raise InvalidStep(f"{self.name}'s points need PC and PM")
        self.points = dict(self.points)
        if self.initiative is not None:
            check_face(self.initiative, self.mind, f"{self.name}'s initiative (Mind)")
        self.conditions = [c if isinstance(c, Condition) else Condition.from_dict(c) for c in self.conditions]

    def attack_die(self, ranged: bool | None = None) -> int:
        """Body for melee, Mind for ranged (RULES DD-4)."""
        return self.mind if (self.ranged if ranged is None else ranged) else self.body

    @property
    def defence_die(self) -> int:
        """A hero defends with Body, an enemy with its Defence die (RULES DD-4)."""
        if self.side == "hero" or self.defence is None:  # an enemy has one (checked on creation)
            return self.body
        return self.defence

    @property
    def status(self) -> str:
        """``"active"``; at 0 PV an enemy is ``"defeated"``, a hero ``"out of combat"`` (RULES DD-9)."""
        if self.pv > 0:
            return "active"
        return "defeated" if self.side == "enemy" else "out of combat"

    def condition(self, name: str) -> Condition | None:
        """The borne condition called ``name``, or ``None``."""
        return next((c for c in self.conditions if c.name == name), None)

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON, conditions as :meth:`Condition.to_dict`, plus ``"status"``."""
        data = {name: getattr(self, name) for name in _PARTICIPANT_FIELDS}
        data["energy"], data["energy_max"], data["points"] = dict(self.energy), dict(self.energy_max), dict(self.points)
        data["conditions"] = [c.to_dict() for c in self.conditions]
        data["status"] = self.status
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Participant:
        """The inverse of :meth:`to_dict` (``status`` is ignored; missing optional keys take defaults).

        :raises InvalidStep: for unknown keys or bad values.
        """
        return cls(**_fields(data, _PARTICIPANT_FIELDS, ("status",)))


_PARTICIPANT_FIELDS = ("name", "side", "body", "mind", "soul", "pv", "pv_max", "defence", "armour", "shield",
                       "weapon", "ranged", "energy", "energy_max", "conditions", "help_bonus", "points", "initiative")


def _fields(data: Mapping[str, Any], known: Sequence[str], derived: Sequence[str]) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise InvalidStep(f"expected an object, not {type(data).__name__}")
    unknown = sorted(set(data) - set(known) - set(derived))
    if unknown:
        raise InvalidStep(f"unknown key: {', '.join(unknown)}")
    return {key: data[key] for key in known if key in data}


P = ParamSpec("P")
R = TypeVar("R")


def _step(method: Callable[Concatenate[Encounter, P], R]) -> Callable[Concatenate[Encounter, P], R]:
    """Make a public method one undoable step: it happens whole or not at all."""

    @functools.wraps(method)
    def run(self: Encounter, /, *args: P.args, **kwargs: P.kwargs) -> R:
        before = self.state()
        try:
            result = method(self, *args, **kwargs)
        except Exception:
            self._load(before)
            raise
        self._undo = before
        return result

    return run


class Encounter:
    """A fight: participants, initiative order, round and turn, and its log.

    Steps (each undoable once, see :meth:`undo`): :meth:`add`, :meth:`remove`,
    :meth:`roll_initiative`, :meth:`reorder`, :meth:`next_turn`, :meth:`poison_roll`,
    :meth:`apply_attack`, :meth:`help`, :meth:`use_help`, :meth:`damage`, :meth:`heal`,
    :meth:`add_condition`, :meth:`cure`, :meth:`spend_energy`, :meth:`short_rest`, :meth:`long_rest`,
    :meth:`end_scene`. Errors are :class:`rules.errors.InvalidStep` or
    :class:`rules.errors.InvalidRoll` (both ``ValueError``) with one plain sentence.

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
                     reason=f"{name} is Envenenado (1d{sides}): roll the d{sides} for the poison damage")

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

    def attack_spec(self, attacker: str, defender: str, *, ranged: bool | None = None,
                    attack_modifier: int = 0, damage_bonus: int = 0) -> AttackSpec:
        """The attack of ``attacker`` on ``defender`` from their sheets (RULES DD-2, DD-4, DD-8).

        The help bonus each carries is added to their roll; it is spent when the
        attack is applied. A Desarmado attacker attacks unarmed, in melee, while it
        lasts (RULES DD-11, DD-8): the weapon lies on the ground.

        :param ranged: override the attacker's weapon (``None``: the weapon decides;
            a Desarmado attacker cannot shoot).
        :param attack_modifier: the narrator's modifier to the attack, e.g. −2 for
            a Ciego attacker who shoots (RULES DD-11).
        :param damage_bonus: magic weapons and active skills (RULES DD-8).
        :raises InvalidStep: for an unknown name, an attack on oneself, a fighter
            out of the fight, or a ranged attack by a Desarmado attacker.
        :raises InvalidRoll: for a weapon the attacking die cannot wield.
        """
        hitter, target = self.get(attacker), self.get(defender)
        if attacker == defender:
            raise InvalidStep(f"{attacker} cannot attack themselves")
        for participant in (hitter, target):
            if participant.status != "active":
                raise InvalidStep(f"{participant.name} is {participant.status}")
        weapon = hitter.weapon
        shoots = hitter.ranged if ranged is None else ranged
        if hitter.condition(DISARMED) is not None:  # RULES DD-11: unarmed (DD-8) while it lasts
            if ranged:
                raise InvalidStep(Phrase("{name} is Desarmado: no weapon to shoot with, only an unarmed attack",
                                         name=attacker))
            weapon, shoots = UNARMED, False
        return AttackSpec(
            attacker_die=hitter.attack_die(shoots), defence_die=target.defence_die, ranged=shoots,
            weapon=weapon, armour=target.armour, shield=target.shield,
            attack_bonus=hitter.help_bonus + attack_modifier, defence_bonus=target.help_bonus,
            damage_bonus=damage_bonus,
            defender=target.side, attacker_name=attacker, defender_name=defender, options=self.options)

    # ------------------------------------------------------------ setting up

    def _add(self, participant: Participant) -> None:
        if not isinstance(participant, Participant):
            raise InvalidStep("a participant must be a Participant")
        if any(p.name == participant.name for p in self.participants):
            raise InvalidStep(f"there is already a participant called {participant.name}")
        self.participants.append(participant)

    @_step
    def add(self, participant: Participant, initiative: int | None = None) -> None:
        """Add a fighter; once the fight is on, with their initiative: they join the
        order after everyone already tied with them (RULES DD-1).

        :raises InvalidStep: for a duplicate name, or no initiative in a fight that is on.
        """
        self._add(participant)
        if self.started:
            if initiative is None:
                raise InvalidStep(f"the fight is on: {participant.name} needs an initiative (their Mind die)")
            participant.initiative = check_face(initiative, participant.mind, f"{participant.name}'s initiative (Mind)")
            self._set_order(self.order + [participant.name])
        self._note("add", _said("{name} joins the fight", name=participant.name))

    @_step
    def remove(self, name: str) -> None:
        """Take a fighter out of the encounter (not the one whose turn it is)."""
        participant = self.get(name)
        if name == self.current:
            raise InvalidStep(f"it is {name}'s turn: end it before removing them")
        self.participants.remove(participant)
        if name in self.order:
            self.order.remove(name)
            del self.groups[name]
        self._note("remove", _said("{name} leaves the fight", name=name))

    @_step
    def roll_initiative(self, values: Mapping[str, int]) -> None:
        """Start the fight: each participant's Mind die result, highest first,
        heroes before enemies on a tie (RULES DD-1); round 1 begins with the first.

        :param values: name → the Mind die's natural value, for every participant.
        :raises InvalidStep: for a missing or unknown name, a fight already on, or no hero or no enemy.
        :raises InvalidRoll: for a value the Mind die does not show.
        """
        if self.started:
            raise InvalidStep(Phrase("initiative is already rolled: end the scene to start another fight"))
        names = {p.name for p in self.participants}
        unknown = sorted(set(values) - names)
        if unknown:
            raise InvalidStep(f"no participant called {', '.join(unknown)}")
        missing = [p.name for p in self.participants if p.name not in values]
        if missing:
            raise InvalidStep(f"initiative missing for {', '.join(missing)}: everyone rolls their Mind die")
        if {p.side for p in self.participants} != {"hero", "enemy"}:
            raise InvalidStep(Phrase("a fight needs at least one hero and one enemy"))
        for participant in self.participants:
            participant.initiative = check_face(values[participant.name], participant.mind,
                                                f"{participant.name}'s initiative (Mind)")
        self._set_order([p.name for p in self.participants])
        self.round = 1
        self._note("initiative", _said("initiative: {list}", list=", ".join(
            f"{name} {self.get(name).initiative}" for name in self.order)))
        self._advance(first=True)

    @_step
    def reorder(self, names: Sequence[str]) -> None:
        """Reorder participants tied on initiative: the players order tied heroes,
        the narrator tied enemies (RULES DD-1). Nobody may leave their tie group.

        :param names: the whole acting order, as it should be.
        :raises InvalidStep: for another set of names, or a name moved out of its group.
        """
        names = list(names)
        if sorted(names) != sorted(self.order) or len(set(names)) != len(names):
            raise InvalidStep(Phrase("give every participant of the order once, and no one else"))
        for old, new in zip(self.order, names, strict=True):
            if self.groups[old] != self.groups[new]:
                raise InvalidStep(f"{new} is not tied with {old}: only tied participants change places")
        self.order = names
        self._note("reorder", _said("order: {list}", list=", ".join(names)))

    def _set_order(self, names: Sequence[str]) -> None:
        entries = [(name, self.get(name).side, self.get(name).initiative) for name in names]
        ordered = initiative_order(entries)
        self.order = [entry.name for entry in ordered]
        self.groups = {entry.name: entry.group for entry in ordered}

    # ------------------------------------------------------------ turns

    @_step
    def next_turn(self) -> None:
        """End the current turn and start the next fighter's: temporary conditions
        end, poison deals its X, a paralysed fighter loses the turn (RULES DD-2, DD-11).
        Defeated enemies and heroes out of combat are passed over (RULES DD-9).

        :raises InvalidStep: before initiative, while a poison die is awaited, or when the fight is over.
        """
        if not self.started:
            raise InvalidStep(Phrase("roll initiative first"))
        if self.needs is not None:  # a poison die is awaited
            raise InvalidStep(self.needs.reason + " first")
        self._advance(first=False)

    def _advance(self, first: bool) -> None:
        if self.over:
            raise InvalidStep("the fight is over: " + self._winner())
        position = -1 if first or self.current is None else self.order.index(self.current)
        for _ in range(len(self.order)):
            position += 1
            if position == len(self.order):
                position = 0
                self.round += 1
            if self.get(self.order[position]).status == "active":
                break
        self.current = self.order[position]
        self._begin_turn(self.get(self.current))

    def _begin_turn(self, fighter: Participant) -> None:
        """RULES DD-11: temporary conditions end at the start of the bearer's turn;
        Derribado and Desarmado say what that turn's main action goes on; Paralizado
        makes that turn lost; Envenenado deals X."""
        effects: list[str] = []
        self.turn_lost = fighter.condition(PARALYSED) is not None
        for condition in [c for c in fighter.conditions if c.duration == "temporary"]:
            fighter.conditions.remove(condition)
            if condition.name == PRONE:
                effects.append(_said(PRONE + " ends: standing up costs {name}'s main action this turn",
                                     name=fighter.name))
            elif condition.name == DISARMED:  # RULES DD-11
                effects.append(_said(DISARMED + " ends: taking the weapon back costs {name}'s main action this turn",
                                     name=fighter.name))
            else:
                effects.append(_said("{condition} ends", condition=condition.label))
        if self.turn_lost:
            effects.append(_said(PARALYSED + ": {name} loses this turn (still rolls defence)", name=fighter.name))
        self.turn_effects = effects
        self._note("turn", _said("round {n}: {name}'s turn", n=self.round, name=fighter.name))
        for effect in effects:
            self._note("condition", effect)
        poison = fighter.condition(POISON)
        if poison is not None and poison.poison is not None:
            self._poison(fighter, poison.poison)
        elif poison is not None:
            self.pending_poison = {"name": fighter.name, "sides": poison.poison_die}

    @_step
    def poison_roll(self, value: int) -> None:
        """The poison die thrown at the start of the bearer's turn (RULES DD-11 Envenenado 1dX).

        :raises InvalidStep: when no poison die is awaited.
        :raises InvalidRoll: for a value the die does not show.
        """
        if self.pending_poison is None:
            raise InvalidStep(Phrase("no poison die is awaited"))
        fighter = self.get(self.pending_poison["name"])
        value = check_face(value, self.pending_poison["sides"], "the poison die")
        self.pending_poison = None
        self._poison(fighter, value)

    def _poison(self, fighter: Participant, amount: int) -> None:
        text = _said(POISON + ": {name} takes {n} damage", name=fighter.name, n=amount)
        self.turn_effects.append(text)
        self._note("poison", text)
        self._hurt(fighter, amount)
        if fighter.status != "active":
            self.turn_lost = True

    # ------------------------------------------------------------ actions

    @_step
    def apply_attack(self, outcome: AttackOutcome) -> None:
        """Apply a complete attack built by :meth:`attack_spec`: damage (or Fallo
        Defensivo's 1) off the defender's PV, 2 points to the attacker on a hit, and
        the help bonus of each side spent on the roll they made (RULES DD-2, DD-6, DD-8, DD-9).

        :raises InvalidStep: for an incomplete outcome, an unnamed or unknown side,
            or a fighter out of the fight.
        """
        if not isinstance(outcome, AttackOutcome) or not outcome.complete:
            raise InvalidStep(Phrase("only a complete attack can be applied: throw the dice it still needs"))
        spec = outcome.spec
        if spec.attacker_name is None or spec.defender_name is None:
            raise InvalidStep("the attack must name its attacker and defender (use attack_spec)")
        attacker, defender = self.get(spec.attacker_name), self.get(spec.defender_name)
        for participant in (attacker, defender):
            if participant.status != "active":
                raise InvalidStep(f"{participant.name} is {participant.status}")
        attacker.help_bonus = 0
        if not outcome.automatic_miss:  # RULES DD-7: the defender did not roll
            defender.help_bonus = 0
        if outcome.hit:
            attacker.points[spec.points_name] += outcome.points
        self._note("attack", f"{attacker.name} attacks {defender.name}: {outcome.summary}",
                   outcome=outcome.to_dict())
        self._hurt(defender, outcome.damage or 0)  # None only while incomplete, refused above

    @_step
    def help(self, helper: str, ally: str, bonus: int = 1) -> None:
        """``helper`` helps ``ally``: +1, or +2 for a clever description, to the
        ally's next roll, with no roll by the helper (RULES DD-2). Bonuses add up.

        :raises InvalidStep: for a bonus other than 1 or 2, helping oneself, or a helper out of the fight.
        """
        giver, receiver = self.get(helper), self.get(ally)
        if bonus not in (1, 2) or not _is_int(bonus):
            raise InvalidStep(f"help gives +1, or +2 for a clever description, not {bonus!r}")
        if helper == ally:
            raise InvalidStep(f"{helper} cannot help themselves")
        if giver.status != "active":
            raise InvalidStep(f"{helper} is {giver.status}")
        receiver.help_bonus += bonus
        self._note("help", _said("{helper} helps {ally}: +{n} to {ally}'s next roll",
                                 helper=helper, ally=ally, n=bonus))

    @_step
    def use_help(self, name: str) -> int:
        """Spend the help bonus on a roll made outside an attack (a skill, a spell).

        :returns: the bonus to add to that roll (0 when none is carried).
        """
        participant = self.get(name)
        bonus, participant.help_bonus = participant.help_bonus, 0
        if bonus:
            self._note("help", _said("{name} uses +{n} from help", name=name, n=bonus))
        return bonus

    @_step
    def damage(self, name: str, amount: int, reason: str | None = None) -> None:
        """Take ``amount`` PV off (not below 0) (RULES DD-9)."""
        participant = self.get(name)
        _check_count(amount, "damage")
        self._note("damage", _said("{name} takes {n} damage ({reason})", name=name, n=amount, reason=reason) if reason
                   else _said("{name} takes {n} damage", name=name, n=amount))
        self._hurt(participant, amount)

    @_step
    def heal(self, name: str, amount: int, reason: str | None = None) -> None:
        """Give ``amount`` PV back (not above the maximum). A hero out of combat
        stands at once and acts on their next turn (RULES DD-9)."""
        participant = self.get(name)
        _check_count(amount, "healing", 1)
        self._restore(participant, amount, reason or "healed")

    @_step
    def add_condition(self, name: str, condition: Condition) -> None:
        """``name`` now bears ``condition``; one of the same name is replaced (RULES DD-11)."""
        participant = self.get(name)
        if not isinstance(condition, Condition):
            raise InvalidStep("a condition must be a Condition")
        participant.conditions = [c for c in participant.conditions if c.name != condition.name] + [condition]
        self._note("condition", _said("{name} is {condition} ({duration})", name=name, condition=condition.label,
                                      duration=condition.duration))

    @_step
    def cure(self, name: str, condition: str) -> None:
        """End a condition by magic, a specific potion or a rest (RULES DD-11)."""
        participant = self.get(name)
        borne = participant.condition(condition)
        if borne is None:
            raise InvalidStep(f"{name} is not {condition}")
        participant.conditions.remove(borne)
        self._note("condition", _said("{name} is no longer {condition}", name=name, condition=borne.label))
        if borne.name == DISARMED:  # RULES DD-11
            self._note("condition", _said("taking the weapon back costs {name}'s next main action", name=name))

    @_step
    def spend_energy(self, name: str, energy: str, amount: int = 1) -> None:
        """Spend EC, EM or EA (energy of Body, Mind, Soul) on a skill or a spell.

        :raises InvalidStep: for an unknown energy or more than is left.
        """
        participant = self.get(name)
        if energy not in ENERGY:
            raise InvalidStep(f"energy is EC, EM or EA, not {energy!r}")
        _check_count(amount, "energy spent", 1)
        if amount > participant.energy[energy]:
            raise InvalidStep(f"{name} has {participant.energy[energy]} {energy}, not {amount}")
        participant.energy[energy] -= amount
        self._note("energy", _said("{name} spends {n} {energy}: {left} left", name=name, n=amount, energy=energy,
                                   left=participant.energy[energy]))

    # ------------------------------------------------------------ rests and the end of a scene

    @_step
    def short_rest(self, name: str, roll: int) -> None:
        """A short rest: +1d4 PV (not above the maximum) and +1 EC, EM and EA (RULES DD-10).

        :param roll: the d4 the player threw.
        :raises InvalidRoll: for a value a d4 does not show.
        """
        participant = self.get(name)
        check_face(roll, SHORT_REST_DIE, "the short rest's die")
        for key in ENERGY:
            participant.energy[key] = min(participant.energy[key] + 1, participant.energy_max[key])
        self._restore(participant, roll, d4=roll)

    @_step
    def long_rest(self, name: str) -> None:
        """A long rest: all PV and all energy back; conditions end (RULES DD-10, DD-11)."""
        participant = self.get(name)
        participant.pv = participant.pv_max
        participant.energy = dict(participant.energy_max)
        participant.conditions = []
        self._note("rest", _said("{name} takes a long rest: {n} PV, full energy, no conditions",
                                 name=name, n=participant.pv))

    @_step
    def end_scene(self) -> None:
        """End the fight: heroes out of combat wake with 1 PV (RULES DD-9),
        temporary conditions end, and the next fight rolls initiative anew."""
        for participant in self.participants:
            if participant.side == "hero" and participant.pv == 0:
                participant.pv = 1
                self._note("wake", _said("{name} wakes with 1 PV", name=participant.name))
            participant.conditions = [c for c in participant.conditions if c.duration == "persistent"]
            participant.initiative = None
        self.order, self.groups, self.round, self.current = [], {}, 0, None
        self.turn_effects, self.turn_lost, self.pending_poison = [], False, None
        self._note("scene", _said("the scene ends"))

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
    def from_dict(cls, data: Mapping[str, Any]) -> Encounter:
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
            fields = (_check_count(data["round"], "round"), list(data["turn_effects"]), bool(data["turn_lost"]),
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

    def _hurt(self, participant: Participant, amount: int) -> None:
        if amount <= 0:
            return
        participant.pv = max(participant.pv - amount, 0)
        if participant.pv == 0:
            # RULES DD-9: an enemy at 0 is defeated, a hero is out of combat.
            self._note("down", _said("{name} is defeated", name=participant.name) if participant.status == "defeated"
                       else _said("{name} is out of combat", name=participant.name))

    def _restore(self, participant: Participant, amount: int, reason: str = "healed", d4: int | None = None) -> None:
        was_down = participant.status != "active"
        participant.pv = min(participant.pv + amount, participant.pv_max)
        name, pv = participant.name, participant.pv
        self._note("heal", _said("{name} recovers up to {n} PV (short rest, d4 {d4}): {pv} PV",
                                 name=name, n=amount, d4=d4, pv=pv) if d4 is not None else
                   _said("{name} recovers up to {n} PV ({reason}): {pv} PV", name=name, n=amount, reason=reason, pv=pv))
        if was_down and participant.status == "active":
            self._note("stand", _said("{name} stands and acts on their next turn", name=name))

    def _winner(self) -> str:
        if any(p.side == "enemy" and p.status == "active" for p in self.participants):
            return "every hero is out of combat"
        return "every enemy is defeated"


def _said(template: str, **values: Any) -> Phrase:
    """A sentence of the fight's log or turn effects: its English text (a ``str``) keeping
    ``template`` and ``values`` (``rules.phrase.Phrase``), so a page can word it in its own
    language (``web/messages.py`` ``log_text``) and the log's English stays as it is."""
    return Phrase(template, **values)
