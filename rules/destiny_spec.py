"""What a Destiny Dice attack is before a die is thrown (RULES.md §3, DD-4 … DD-8): the
dice a sheet may have, the weapons they wield, the table's house rules (:class:`DestinyOptions`)
and one attack's :class:`AttackSpec`, as plain JSON both ways. Resolving it is
:mod:`rules.destiny`'s.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Final, Literal, TypeGuard

from rules.errors import InvalidRoll
from rules.phrase import Phrase

Side = Literal["hero", "enemy"]
Weapon = Literal["light", "medium", "heavy", "unarmed"]

CHARACTERISTIC_SIDES: tuple[int, ...] = (4, 6, 8, 10, 12)
# RULES DD-8: weapon class → (damage bonus, smallest characteristic die that wields it).
WEAPONS: dict[str, tuple[int, int]] = {"light": (1, 4), "medium": (2, 6), "heavy": (3, 8)}
UNARMED: Final = "unarmed"


def is_int(value: object) -> TypeGuard[int]:
    """A whole number, not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_characteristic(sides: object, what: str) -> int:
    """A characteristic or defence die's sides: one of :data:`CHARACTERISTIC_SIDES`, d4, d6,
    d8, d10 or d12 (RULES §3).

    :raises InvalidRoll: for any other die, naming the dice it may be.
    """
    if not is_int(sides) or sides not in CHARACTERISTIC_SIDES:
        *most, last = (f"d{n}" for n in CHARACTERISTIC_SIDES)
        raise InvalidRoll(f"{what} must be a {', '.join(most)} or {last}, not {sides!r}")
    return sides


def initiative_of(name: str) -> Phrase:
    """How a refusal names a fighter's initiative die (RULES DD-1: the Mind die)."""
    return Phrase("{name}'s initiative (Mind)", name=name)


def check_face(value: object, sides: int, what: str) -> int:
    """A natural value a die of ``sides`` can show: 1 to ``sides``; a d10's printed 0 is
    10, as everywhere (RULES P-1).

    :returns: the value, 1 to ``sides`` (a d10's 0 as 10).
    :raises InvalidRoll: for anything else, in one sentence naming the die.
    """
    if sides == 10 and is_int(value) and value == 0:
        return 10
    if not is_int(value) or not 1 <= value <= sides:
        faces = Phrase("0 to 10 (0 is 10)") if sides == 10 else Phrase("1 to {n}", n=sides)
        raise InvalidRoll(Phrase("{what} is a d{sides}: it shows {faces}, not {value}", what=what, sides=sides,
                                 faces=faces, value=value if is_int(value) else repr(value)))
    return value


#: A weapon class and a characteristic (or the enemy's Defence die) as a refusal or a prompt
#: names them (``web`` words them in the page's language).
_WEAPON_WORDS = {"light": Phrase("light"), "medium": Phrase("medium"), "heavy": Phrase("heavy")}
CHARACTERISTIC_WORDS = {"Body": Phrase("Body"), "Mind": Phrase("Mind"), "Defence": Phrase("Defence")}


def check_weapon(weapon: object, die: int, ranged: bool, who: str = "the attacker") -> None:
    """A weapon class the attacking die can wield (RULES DD-8): light needs d4,
    medium d6, heavy d8; unarmed is melee only; ``None`` is no weapon class.

    :param die: the sides of the attacking characteristic (Body melee, Mind ranged).
    :raises InvalidRoll: for an unknown class or one the die cannot wield.
    """
    if weapon is not None and weapon != UNARMED and weapon not in WEAPONS:
        raise InvalidRoll(f"unknown weapon {weapon!r}: light, medium, heavy or unarmed")
    if weapon in WEAPONS and die < WEAPONS[weapon][1]:
        raise InvalidRoll(Phrase("a {weapon} weapon needs a {characteristic} die of at least d{n}: {who} has d{die}",
                                 weapon=_WEAPON_WORDS[weapon], characteristic=CHARACTERISTIC_WORDS[
                                     "Mind" if ranged else "Body"], n=WEAPONS[weapon][1], who=who, die=die))
    if weapon == UNARMED and ranged:
        raise InvalidRoll("an unarmed attack is melee: it cannot be ranged")


@dataclass(frozen=True)
class DestinyOptions:
    """House rules a table may choose; the defaults are RULES.md's readings.

    :param ties_favour_defender: RULES DD-5 option: an attack equal to the
        defence is blocked (the seed's Zara example) instead of a hit.
    :param defensive_fumble_on_hit: RULES DD-8 option: the defender's Destiny 1
        (Fallo Defensivo) adds its 1 damage on a hit too, not only when the defence wins.
    :raises InvalidRoll: for a non-boolean switch.
    """

    ties_favour_defender: bool = False
    defensive_fumble_on_hit: bool = False

    def __post_init__(self) -> None:
        for name in OPTION_NAMES:
            if not isinstance(getattr(self, name), bool):
                raise InvalidRoll(f"{name} must be true or false, not {getattr(self, name)!r}")

    def to_dict(self) -> dict[str, Any]:
        """``{"ties_favour_defender", "defensive_fumble_on_hit"}``."""
        return asdict(self)


#: The house rules of :class:`DestinyOptions`, as config keys and JSON name them.
OPTION_NAMES = ("ties_favour_defender", "defensive_fumble_on_hit")


@dataclass(frozen=True)
class AttackSpec:
    """What was asked: one attack of an opposed roll (RULES DD-4 … DD-8).

    :param attacker_die: sides of the attacking characteristic: Body for melee,
        Mind for ranged (RULES DD-4), 4–12.
    :param defence_die: sides of the defender's die: a hero's Body, an enemy's
        bestiary Defence die (RULES DD-4), 4–12.
    :param ranged: a ranged weapon: the attack uses Mind and a Destiny 1 is an
        automatic miss (RULES DD-7).
    :param weapon: ``"light"`` +1, ``"medium"`` +2, ``"heavy"`` +3 (each needs a
        characteristic die of at least d4, d6, d8), ``"unarmed"`` (damage die − 1,
        at least 1, melee only), or ``None``: no weapon class, the damage die alone
        (RULES DD-8).
    :param armour: added to the defence result (RULES DD-4).
    :param shield: added to the defence result (RULES DD-4).
    :param attack_bonus: added to the attack result, e.g. an ally's help +1/+2 (RULES DD-2).
    :param defence_bonus: added to the defence result, e.g. an ally's help.
    :param damage_bonus: magic weapons and active skills, added after the
        weapon's damage (RULES DD-8), at least 0.
    :param defender: ``"hero"`` (defends with Body) or ``"enemy"`` (Defence die);
        only the players' prompts change.
    :param attacker_name: who attacks, named in the prompts; optional.
    :param defender_name: who defends, named in the prompts; optional.
    :param options: house rules, :class:`DestinyOptions`.
    :raises InvalidRoll: for a die that is not d4–d12, a weapon the attacking die
        cannot wield, an unarmed ranged attack, negative armour, shield or damage bonus.
    """

    attacker_die: int
    defence_die: int
    ranged: bool = False
    weapon: Weapon | None = None
    armour: int = 0
    shield: int = 0
    attack_bonus: int = 0
    defence_bonus: int = 0
    damage_bonus: int = 0
    defender: Side = "enemy"
    attacker_name: str | None = None
    defender_name: str | None = None
    options: DestinyOptions = field(default_factory=DestinyOptions)

    def __post_init__(self) -> None:
        check_characteristic(self.attacker_die, "the attacker's die")
        check_characteristic(self.defence_die, "the defender's die")
        if not isinstance(self.ranged, bool):
            raise InvalidRoll(f"ranged must be true or false, not {self.ranged!r}")
        check_weapon(self.weapon, self.attacker_die, self.ranged)
        for name in ("armour", "shield", "damage_bonus"):
            value = getattr(self, name)
            if not is_int(value) or value < 0:
                raise InvalidRoll(f"{name.replace('_', ' ')} must be a whole number of at least 0, not {value!r}")
        for name in ("attack_bonus", "defence_bonus"):
            if not is_int(getattr(self, name)):
                raise InvalidRoll(f"{name.replace('_', ' ')} must be a whole number, not {getattr(self, name)!r}")
        if self.defender not in ("hero", "enemy"):
            raise InvalidRoll(f"the defender is a hero or an enemy, not {self.defender!r}")
        if not isinstance(self.options, DestinyOptions):
            raise InvalidRoll("options must be DestinyOptions")

    @property
    def characteristic(self) -> str:
        """``"Body"`` for melee, ``"Mind"`` for ranged (RULES DD-4)."""
        return "Mind" if self.ranged else "Body"

    @property
    def defence_name(self) -> str:
        """``"Body"`` for a hero, ``"Defence"`` for an enemy (RULES DD-4)."""
        return "Body" if self.defender == "hero" else "Defence"

    @property
    def weapon_bonus(self) -> int:
        """The weapon class's damage bonus, 0 unarmed or without a class (RULES DD-8)."""
        return WEAPONS[self.weapon][0] if self.weapon in WEAPONS else 0

    @property
    def defence_modifier(self) -> int:
        """Armour + shield + other defence bonus, added to the defence die (RULES DD-4)."""
        return self.armour + self.shield + self.defence_bonus

    @property
    def points_name(self) -> str:
        """The seed's name of the points a hit earns: PC for Body, PM for Mind (RULES DD-8)."""
        return "PM" if self.ranged else "PC"

    def label(self) -> str:
        """Short label: ``"melee attack Body d8 vs Defence d6+1"``."""
        kind = "ranged" if self.ranged else "melee"
        attack = f"{self.characteristic} d{self.attacker_die}{_signed(self.attack_bonus)}"
        defence = f"{self.defence_name} d{self.defence_die}{_signed(self.defence_modifier)}"
        return f"{kind} attack {attack} vs {defence}"

    def to_dict(self) -> dict[str, Any]:
        """``{"system": "destiny", "attacker_die", "defence_die", "ranged", "weapon", "armour",
        "shield", "attack_bonus", "defence_bonus", "damage_bonus", "defender",
        "attacker_name", "defender_name", "options"}``."""
        data: dict[str, Any] = {"system": "destiny"}
        data.update({name: getattr(self, name) for name in _SPEC_KEYS})
        data["options"] = self.options.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AttackSpec:
        """The inverse of :meth:`to_dict` (``"system"`` optional, missing keys take defaults).

        :raises InvalidRoll: for unknown keys or invalid values.
        """
        data = dict(data)
        if data.pop("system", "destiny") != "destiny":
            raise InvalidRoll("not a Destiny Dice attack spec")
        options = data.pop("options", None) or {}
        unknown = sorted(set(data) - set(_SPEC_KEYS)) + sorted(set(options) - set(OPTION_NAMES))
        if unknown:
            raise InvalidRoll(f"unknown attack setting: {', '.join(unknown)}")
        missing = [name for name in ("attacker_die", "defence_die") if name not in data]
        if missing:
            raise InvalidRoll(f"an attack spec needs {' and '.join(missing)}")
        return cls(**data, options=DestinyOptions(**options))


_SPEC_KEYS = ("attacker_die", "defence_die", "ranged", "weapon", "armour", "shield", "attack_bonus",
              "defence_bonus", "damage_bonus", "defender", "attacker_name", "defender_name")


def _signed(value: int) -> str:
    return f"{value:+d}" if value else ""
