"""Destiny Dice combat of seed 002 (RULES.md §3): initiative and the opposed attack.

An attack is resolved in up to three throws, each asked for by the outcome's
``needs`` (RULES T-2, T-3): the attacker's characteristic die with the Destiny
d20, then the defender's defence die with the Destiny d20, then, on a hit, the
characteristic die again for damage. :func:`resolve_attack` takes the natural
values seen so far and answers the result or the dice it still needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Final, Literal, TypeGuard

from rules.errors import InvalidRoll
from rules.outcome import Needs

Side = Literal["hero", "enemy"]
Weapon = Literal["light", "medium", "heavy", "unarmed"]

CHARACTERISTIC_SIDES: tuple[int, ...] = (4, 6, 8, 10, 12)
DESTINY_SIDES = 20
# RULES DD-8: weapon class → (damage bonus, smallest characteristic die that wields it).
WEAPONS: dict[str, tuple[int, int]] = {"light": (1, 4), "medium": (2, 6), "heavy": (3, 8)}
UNARMED: Final = "unarmed"
UNARMED_PENALTY = 1
POINTS_ON_HIT = 2
PERFECT_DEFENCE = 20  # RULES DD-6 Defensa Perfecta
DEFENSIVE_SLIP = 1  # RULES DD-6 Fallo Defensivo: the defender's Destiny face
DEFENSIVE_SLIP_DAMAGE = 1  # RULES DD-6: what it costs the defender
SHOOTING_JAM = 1  # RULES DD-7

# Effect codes of an attack outcome (``effects``), in the order they can appear.
EFFECTS = ("hit", "miss", "automatic miss", "Defensa Perfecta", "Fallo Defensivo", "unarmed minimum")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def check_characteristic(sides: object, what: str) -> int:
    """A characteristic or defence die's sides: d4, d6, d8, d10 or d12 (RULES §3).

    :raises InvalidRoll: for any other die.
    """
    if not _is_int(sides) or sides not in CHARACTERISTIC_SIDES:
        raise InvalidRoll(f"{what} must be a d4, d6, d8, d10 or d12, not {sides!r}")
    return sides


def check_face(value: object, sides: int, what: str) -> int:
    """A natural value a die of ``sides`` can show: 1 to ``sides``; a d10's printed 0 is
    10, as everywhere (RULES P-1).

    :returns: the value, 1 to ``sides`` (a d10's 0 as 10).
    :raises InvalidRoll: for anything else, in one sentence naming the die.
    """
    if sides == 10 and _is_int(value) and value == 0:
        return 10
    if not _is_int(value) or not 1 <= value <= sides:
        faces = "0 to 10 (0 is 10)" if sides == 10 else f"1 to {sides}"
        raise InvalidRoll(f"{what} is a d{sides}: it shows {faces}, not {value!r}")
    return value


def check_weapon(weapon: object, die: int, ranged: bool, who: str = "the attacker") -> None:
    """A weapon class the attacking die can wield (RULES DD-8): light needs d4,
    medium d6, heavy d8; unarmed is melee only; ``None`` is no weapon class.

    :param die: the sides of the attacking characteristic (Body melee, Mind ranged).
    :raises InvalidRoll: for an unknown class or one the die cannot wield.
    """
    if weapon is not None and weapon != UNARMED and weapon not in WEAPONS:
        raise InvalidRoll(f"unknown weapon {weapon!r}: light, medium, heavy or unarmed")
    if weapon in WEAPONS and die < WEAPONS[weapon][1]:
        characteristic = "Mind" if ranged else "Body"
        raise InvalidRoll(f"a {weapon} weapon needs a {characteristic} die of at least d{WEAPONS[weapon][1]}: "
                          f"{who} has d{die}")
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
            if not _is_int(value) or value < 0:
                raise InvalidRoll(f"{name.replace('_', ' ')} must be a whole number of at least 0, not {value!r}")
        for name in ("attack_bonus", "defence_bonus"):
            if not _is_int(getattr(self, name)):
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


@dataclass(frozen=True)
class AttackNeeds(Needs):
    """:class:`Needs` of an attack step, which may ask for two different dice at once.

    ``sides`` is the first die to throw (the characteristic, defence or damage
    die); ``dice`` lists the sides of every die asked for, in the order the
    values are given: ``(8, 20)`` for a d8 and the Destiny d20. ``who`` is
    ``"attacker"`` or ``"defender"``: the player who throws.
    """

    dice: tuple[int, ...] = ()
    who: str = "attacker"

    def to_dict(self) -> dict[str, Any]:
        """``{"count", "sides", "kind", "reason", "dice", "who"}``."""
        data = super().to_dict()  # asdict: every field, this class's too
        data["dice"] = list(self.dice)
        return data


@dataclass(frozen=True)
class DamageParts:
    """How the damage of a hit is made (RULES DD-8).

    :param die: the characteristic die rolled again, its natural value.
    :param weapon_bonus: light +1, medium +2, heavy +3, else 0.
    :param unarmed: −1 for an unarmed attack, else 0.
    :param minimum_applied: the unarmed result was raised to 1.
    :param extra: magic weapons and active skills, added last.
    :param total: the damage dealt, at least 1.
    """

    die: int
    weapon_bonus: int
    unarmed: int
    minimum_applied: bool
    extra: int
    total: int

    def to_dict(self) -> dict[str, Any]:
        """``{"die", "weapon_bonus", "unarmed", "minimum_applied", "extra", "total"}``."""
        return asdict(self)


def damage_parts(spec: AttackSpec, die: int) -> DamageParts:
    """The damage of a hit from the characteristic die rolled again (RULES DD-8).

    Damage = die + weapon bonus; unarmed = die − 1, at least 1; magic and skills after.

    :raises InvalidRoll: for a value the attacker's die does not show.
    """
    die = check_face(die, spec.attacker_die, "the damage die")
    if spec.weapon == UNARMED:
        base = max(die - UNARMED_PENALTY, 1)
        minimum = die - UNARMED_PENALTY < 1
        return DamageParts(die, 0, -UNARMED_PENALTY, minimum, spec.damage_bonus, base + spec.damage_bonus)
    bonus = spec.weapon_bonus
    return DamageParts(die, bonus, 0, False, spec.damage_bonus, die + bonus + spec.damage_bonus)


@dataclass(frozen=True)
class AttackOutcome:
    """What an attack means so far.

    :param spec: the attack asked for.
    :param attack: natural values seen of the attacker's throw: (characteristic, Destiny d20).
    :param defence: natural values seen of the defender's throw: (defence die, Destiny d20).
    :param damage: the damage die, once thrown.
    :param needs: the dice still to throw, ``None`` when complete.
    """

    spec: AttackSpec
    attack: tuple[int, ...]
    defence: tuple[int, ...]
    damage_die: int | None
    needs: AttackNeeds | None

    @property
    def complete(self) -> bool:
        """True once no more dice are needed."""
        return self.needs is None

    @property
    def attack_total(self) -> int | None:
        """Characteristic die + attack bonus, once thrown (RULES DD-4)."""
        return self.attack[0] + self.spec.attack_bonus if self.attack else None

    @property
    def defence_total(self) -> int | None:
        """Defence die + armour + shield + defence bonus, once thrown (RULES DD-4)."""
        return self.defence[0] + self.spec.defence_modifier if self.defence else None

    @property
    def automatic_miss(self) -> bool:
        """A ranged attack whose Destiny d20 shows 1 (RULES DD-7)."""
        return self.spec.ranged and len(self.attack) == 2 and self.attack[1] == SHOOTING_JAM

    @property
    def hit(self) -> bool | None:
        """Attack ≥ defence, or > with ``ties_favour_defender`` (RULES DD-5); ``None`` until known."""
        if self.automatic_miss:
            return False
        attack, defence = self.attack_total, self.defence_total
        if len(self.attack) < 2 or len(self.defence) < 2 or attack is None or defence is None:
            return None
        if self.spec.options.ties_favour_defender:
            return attack > defence
        return attack >= defence

    @property
    def perfect_defence(self) -> bool:
        """Defensa Perfecta: the defence won with a Destiny 20 (RULES DD-6)."""
        return self.hit is False and not self.automatic_miss and self.defence[1] == PERFECT_DEFENCE

    @property
    def defensive_slip(self) -> bool:
        """Fallo Defensivo: the defence won with a Destiny 1, the defender takes 1 (RULES DD-6);
        on a hit too with ``defensive_fumble_on_hit`` (RULES DD-8)."""
        if self.hit is None or self.automatic_miss or self.defence[1] != DEFENSIVE_SLIP:
            return False
        return not self.hit or self.spec.options.defensive_fumble_on_hit

    @property
    def damage_parts(self) -> DamageParts | None:
        """The parts of a hit's damage, once its die is thrown (RULES DD-8)."""
        return None if self.damage_die is None else damage_parts(self.spec, self.damage_die)

    @property
    def damage(self) -> int | None:
        """Damage the defender takes: the hit's damage, plus 1 on Fallo Defensivo (a miss's
        only damage; a hit's only with ``defensive_fumble_on_hit``); ``None`` until complete
        (RULES DD-6, DD-8)."""
        if not self.complete:
            return None
        slip = DEFENSIVE_SLIP_DAMAGE if self.defensive_slip else 0
        parts = self.damage_parts  # thrown once a hit is complete
        return (parts.total if self.hit and parts is not None else 0) + slip

    @property
    def points(self) -> int:
        """Points the attacker earns: 2 on a hit (RULES DD-8), else 0."""
        return POINTS_ON_HIT if self.hit else 0

    @property
    def offers(self) -> tuple[str, ...]:
        """What the defender may do at once after Defensa Perfecta (RULES DD-6)."""
        return ("counter-attack", "reposition") if self.perfect_defence else ()

    @property
    def effects(self) -> tuple[str, ...]:
        """Effect codes (:data:`EFFECTS`) of the attack so far."""
        found = []
        if self.hit is not None:
            found.append("hit" if self.hit else "miss")
        if self.automatic_miss:
            found.append("automatic miss")
        if self.perfect_defence:
            found.append("Defensa Perfecta")
        if self.defensive_slip:
            found.append("Fallo Defensivo")
        parts = self.damage_parts
        if parts is not None and parts.minimum_applied:
            found.append("unarmed minimum")
        return tuple(found)

    @property
    def summary(self) -> str:
        """One plain English sentence for the players."""
        if self.needs is not None:  # not complete
            return self.needs.reason
        attacker = self.spec.attacker_name or "the attacker"
        defender = self.spec.defender_name or "the defender"
        if self.automatic_miss:
            return (f"automatic miss: a Destiny 1 when shooting; the narrator may rule {attacker}'s "
                    "weapon out of ammunition or jammed (an action to reload or clear)")
        versus = f"{self.attack_total} against {self.defence_total}"
        parts = self.damage_parts
        if self.hit and parts is not None:
            sum_text = _damage_sum(parts)
            slip = " + 1 Fallo Defensivo" if self.defensive_slip else ""
            return (f"hit, {versus}: {defender} takes {self.damage} damage ({sum_text}{slip}); "
                    f"{attacker} earns {POINTS_ON_HIT} {self.spec.points_name}")
        text = f"miss, {versus}"
        if self.perfect_defence:
            text += f": Defensa Perfecta, {defender} may counter-attack at once for free or move to another zone"
        if self.defensive_slip:
            text += f": Fallo Defensivo, {defender} still takes 1 damage"
        return text

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON form used by the CLI, the history and the page.

        :returns: ``{"system": "destiny", "label", "complete", "hit": bool | None,
            "damage": int | None, "effects": [str], "offers": [str], "needs": dict | None,
            "attack": {"die", "natural", "bonus", "total", "destiny"},
            "defence": {"die", "natural", "armour", "shield", "bonus", "total", "destiny"},
            "damage_parts": {...} | None, "points": int, "points_name", "summary", "spec"}``;
            values not yet thrown are ``None``.
        """
        spec = self.spec
        parts = self.damage_parts
        return {
            "system": "destiny",
            "label": spec.label(),
            "complete": self.complete,
            "hit": self.hit,
            "damage": self.damage,
            "effects": list(self.effects),
            "offers": list(self.offers),
            "needs": None if self.needs is None else self.needs.to_dict(),
            "attack": {"die": spec.attacker_die, "characteristic": spec.characteristic,
                       "natural": _at(self.attack, 0), "bonus": spec.attack_bonus,
                       "total": self.attack_total, "destiny": _at(self.attack, 1)},
            "defence": {"die": spec.defence_die, "natural": _at(self.defence, 0), "armour": spec.armour,
                        "shield": spec.shield, "bonus": spec.defence_bonus, "total": self.defence_total,
                        "destiny": _at(self.defence, 1)},
            "damage_parts": None if parts is None else parts.to_dict(),
            "points": self.points,
            "points_name": spec.points_name,
            "summary": self.summary,
            "spec": spec.to_dict(),
        }


def _at(values: tuple[int, ...], index: int) -> int | None:
    return values[index] if len(values) > index else None


def _signed(value: int) -> str:
    return f"{value:+d}" if value else ""


def _damage_sum(parts: DamageParts) -> str:
    if parts.unarmed:
        text = f"unarmed {parts.die} − 1" + (", at least 1" if parts.minimum_applied else "")
    else:
        text = f"{parts.die} + {parts.weapon_bonus}" if parts.weapon_bonus else f"{parts.die}"
    return text + (f" + {parts.extra}" if parts.extra else "")


def _who(spec: AttackSpec, role: str) -> str:
    name = spec.attacker_name if role == "attacker" else spec.defender_name
    return f"{role.capitalize()} ({name})" if name else role.capitalize()


def _throw_needs(spec: AttackSpec, role: str, seen: int) -> AttackNeeds:
    """The missing dice of the attacker's or the defender's throw (RULES DD-4, T-3)."""
    if role == "attacker":
        name, sides = spec.characteristic, spec.attacker_die
    else:
        name, sides = spec.defence_name, spec.defence_die
    dice: tuple[int, ...]
    if seen == 0:
        dice, kind = (sides, DESTINY_SIDES), f"d{sides}+d{DESTINY_SIDES}"
        text = f"roll {name} d{sides} and the Destiny d20"
    else:
        dice, kind = (DESTINY_SIDES,), f"d{DESTINY_SIDES}"
        text = "roll the Destiny d20"
    return AttackNeeds(count=len(dice), sides=dice[0], kind=kind, reason=f"{_who(spec, role)}: {text}",
                       dice=dice, who=role)


def _damage_needs(spec: AttackSpec) -> AttackNeeds:
    sides = spec.attacker_die
    text = f"hit! roll {spec.characteristic} d{sides} again for damage"
    return AttackNeeds(count=1, sides=sides, kind=f"d{sides}", reason=f"{_who(spec, 'attacker')}: {text}",
                       dice=(sides,), who="attacker")


def _check_throw(values: Sequence[int], sides: int, name: str, role: str) -> tuple[int, ...]:
    values = tuple(values)
    if len(values) > 2:
        raise InvalidRoll(f"the {role} throws 2 dice ({name} d{sides} and the Destiny d20), not {len(values)}")
    dice = ((sides, f"the {role}'s {name} die"), (DESTINY_SIDES, f"the {role}'s Destiny die"))
    return tuple(check_face(value, die, what) for value, (die, what) in zip(values, dice, strict=False))


def resolve_attack(
    spec: AttackSpec,
    attack: Sequence[int] = (),
    defence: Sequence[int] = (),
    damage: Sequence[int] = (),
) -> AttackOutcome:
    """Resolve an attack from the natural values seen so far.

    # RULES DD-4 … DD-8, T-3.

    :param spec: the attack asked for.
    :param attack: the attacker's throw: characteristic die first, then the
        Destiny d20. Fewer values is not an error: the outcome asks for the rest.
    :param defence: the defender's throw: defence die first, then the Destiny d20.
    :param damage: on a hit, the characteristic die rolled again (one value).
    :returns: a complete outcome, or one whose ``needs`` says who rolls which dice.
    :raises InvalidRoll: for a face a die does not have, more dice than a step
        takes, or a later step's dice given before an earlier step is complete.
        Dice thrown that no rule then asks for are a game result, not an error
        (tables throw together): after an automatic miss the defender's throw
        is kept as thrown but does not count, and a damage die after a miss is
        not used.
    """
    attack = _check_throw(attack, spec.attacker_die, spec.characteristic, "attacker")
    defence = _check_throw(defence, spec.defence_die, spec.defence_name, "defender")
    damage = tuple(damage)
    if len(damage) > 1:
        raise InvalidRoll(f"damage is one die (d{spec.attacker_die}), not {len(damage)}")
    damage = tuple(check_face(value, spec.attacker_die, "the damage die") for value in damage)

    if len(attack) < 2:
        if defence or damage:
            raise InvalidRoll("the defender's or damage dice given before the attacker's throw is complete")
        return AttackOutcome(spec, attack, (), None, _throw_needs(spec, "attacker", len(attack)))
    so_far = AttackOutcome(spec, attack, (), None, None)
    if so_far.automatic_miss:  # RULES DD-7: whatever the defender threw, it is a miss
        return AttackOutcome(spec, attack, defence, None, None)
    if len(defence) < 2:
        if damage:
            raise InvalidRoll("the damage die given before the defender's throw is complete")
        return AttackOutcome(spec, attack, defence, None, _throw_needs(spec, "defender", len(defence)))
    judged = AttackOutcome(spec, attack, defence, None, None)
    if not judged.hit:  # a damage die thrown early does not count (RULES DD-8: only on a hit)
        return judged
    if not damage:
        return AttackOutcome(spec, attack, defence, None, _damage_needs(spec))
    return AttackOutcome(spec, attack, defence, damage[0], None)


# ---------------------------------------------------------------- initiative, RULES DD-1


@dataclass(frozen=True)
class InitiativeEntry:
    """One participant's initiative: their Mind die result (RULES DD-1).

    :param name: who.
    :param side: ``"hero"`` or ``"enemy"``.
    :param value: the Mind die's result.
    :param group: index of the tie group: entries of the same side and value,
        which the players (heroes) or the narrator (enemies) may reorder.
    """

    name: str
    side: Side
    value: int
    group: int = 0

    def to_dict(self) -> dict[str, Any]:
        """``{"name", "side", "value", "group"}``."""
        return asdict(self)


def initiative_order(entries: Sequence[tuple[str, Side, int | None]]) -> tuple[InitiativeEntry, ...]:
    """Order participants by initiative (RULES DD-1).

    Highest first; a hero acts before an enemy with the same value; heroes tied
    among themselves, or enemies, keep the order given (stable) and form a tie
    group the page may reorder.

    :param entries: ``(name, side, value)`` per participant; names unique.
    :returns: entries in acting order, ``group`` numbered from 0 in that order.
    :raises InvalidRoll: for a duplicate name, an unknown side or a value below 1.
    """
    seen = set()
    checked: list[tuple[str, Side, int]] = []
    for name, side, value in entries:
        if name in seen:
            raise InvalidRoll(f"{name} appears twice in the initiative")
        seen.add(name)
        if side not in ("hero", "enemy"):
            raise InvalidRoll(f"{name} is a hero or an enemy, not {side!r}")
        if not _is_int(value) or value < 1:
            raise InvalidRoll(f"{name}'s initiative must be a whole number of at least 1, not {value!r}")
        checked.append((name, side, value))
    ranked = sorted(checked, key=lambda entry: (-entry[2], entry[1] != "hero"))  # sorted() is stable
    ordered: list[InitiativeEntry] = []
    group = -1
    for name, side, value in ranked:
        if not ordered or (ordered[-1].side, ordered[-1].value) != (side, value):
            group += 1
        ordered.append(InitiativeEntry(name, side, value, group))
    return tuple(ordered)
