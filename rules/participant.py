"""A fighter of a Destiny Dice fight (RULES.md §3): their sheet, PV, energy, help bonus and
the conditions they bear (RULES DD-9 … DD-11), as plain JSON both ways. The fight they are
in is :class:`rules.encounter.Encounter`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeGuard

from rules.destiny_spec import Weapon, check_characteristic, check_face, check_weapon, initiative_of
from rules.errors import InvalidStep
from rules.phrase import Phrase

Duration = Literal["temporary", "persistent"]
ENERGY = ("EC", "EM", "EA")  # RULES DD-10: energy of Body, Mind, Soul
SHORT_REST_DIE = 4  # RULES DD-10: +1d4 PV

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


def is_int(value: object) -> TypeGuard[int]:
    """A whole number, not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_count(value: object, what: str, lowest: int = 0) -> int:
    """``value``, a whole number of at least ``lowest``.

    :raises InvalidStep: otherwise, naming ``what``.
    """
    if not is_int(value) or value < lowest:
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
                raise InvalidStep(Phrase("Envenenado needs its X: a fixed damage or a die (1d4, 1d6…), one of them"))
            if self.poison is not None:
                check_count(self.poison, "the poison damage", 1)
            else:
                check_characteristic(self.poison_die, "the poison die")
        elif self.poison is not None or self.poison_die is not None:
            raise InvalidStep(Phrase("only Envenenado deals poison damage, not {condition}", condition=self.name))

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
                raise InvalidStep(Phrase("{name} is an enemy: give its bestiary Defence die", name=self.name))
            check_characteristic(self.defence, f"{self.name}'s Defence die")
        elif self.defence is not None:
            raise InvalidStep(Phrase("{name} is a hero: a hero defends with Body, not a Defence die", name=self.name))
        check_count(self.pv_max, f"{self.name}'s maximum PV", 1)
        check_count(self.pv, f"{self.name}'s PV", 0)
        if self.pv > self.pv_max:
            raise InvalidStep(f"{self.name} has {self.pv} PV, more than the maximum {self.pv_max}")
        check_count(self.armour, f"{self.name}'s armour")
        check_count(self.shield, f"{self.name}'s shield")
        if not isinstance(self.ranged, bool):
            raise InvalidStep(f"ranged must be true or false, not {self.ranged!r}")
        check_weapon(self.weapon, self.attack_die(), self.ranged, self.name)
        for name in ("energy", "energy_max"):
            values = getattr(self, name)
            if not isinstance(values, Mapping) or set(values) != set(ENERGY):
                raise InvalidStep(f"{self.name}'s {name.replace('_', ' ')} needs EC, EM and EA")
            for key in ENERGY:
                check_count(values[key], f"{self.name}'s {key}")
        for key in ENERGY:
            if self.energy[key] > self.energy_max[key]:
                raise InvalidStep(f"{self.name}'s {key} {self.energy[key]} is above its maximum {self.energy_max[key]}")
        self.energy, self.energy_max = dict(self.energy), dict(self.energy_max)
        check_count(self.help_bonus, f"{self.name}'s help bonus")
        if not isinstance(self.points, Mapping) or set(self.points) != {"PC", "PM"}:
            raise InvalidStep(f"{self.name}'s points need PC and PM")
        self.points = dict(self.points)
        if self.initiative is not None:
            check_face(self.initiative, self.mind, initiative_of(self.name))
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
