"""Destiny Dice combat of seed 002 (RULES.md §3): the opposed attack resolved.

An attack is resolved in up to three throws, each asked for by the outcome's
``needs`` (RULES T-2, T-3): the attacker's characteristic die with the Destiny
d20, then the defender's defence die with the Destiny d20, then, on a hit, the
characteristic die again for damage. :func:`resolve_attack` takes the natural
values seen so far and answers the result or the dice it still needs.

What an attack is before a die is thrown (the sheet's dice, weapons, house rules, the
:class:`~rules.destiny_spec.AttackSpec`) is :mod:`rules.destiny_spec`'s; who acts first
(DD-1) :mod:`rules.initiative`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from rules.destiny_spec import CHARACTERISTIC_WORDS, UNARMED, AttackSpec, check_face
from rules.errors import InvalidRoll
from rules.outcome import Needs
from rules.phrase import Phrase

DESTINY_SIDES = 20
UNARMED_PENALTY = 1
POINTS_ON_HIT = 2
PERFECT_DEFENCE = 20  # RULES DD-6 Defensa Perfecta
DEFENSIVE_SLIP = 1  # RULES DD-6 Fallo Defensivo: the defender's Destiny face
DEFENSIVE_SLIP_DAMAGE = 1  # RULES DD-6: what it costs the defender
SHOOTING_JAM = 1  # RULES DD-7

# Effect codes of an attack outcome (``effects``), in the order they can appear.
EFFECTS = ("hit", "miss", "automatic miss", "Defensa Perfecta", "Fallo Defensivo", "unarmed minimum")


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

def _damage_sum(parts: DamageParts) -> str:
    if parts.unarmed:
        text = f"unarmed {parts.die} − 1" + (", at least 1" if parts.minimum_applied else "")
    else:
        text = f"{parts.die} + {parts.weapon_bonus}" if parts.weapon_bonus else f"{parts.die}"
    return text + (f" + {parts.extra}" if parts.extra else "")


def _who(spec: AttackSpec, role: str) -> Phrase:
    """The player who throws, named as the page names the fighter (``name``: web/messages.py)."""
    name = spec.attacker_name if role == "attacker" else spec.defender_name
    if role == "attacker":
        return Phrase("Attacker ({name})", name=name) if name else Phrase("Attacker")
    return Phrase("Defender ({name})", name=name) if name else Phrase("Defender")


def _throw_needs(spec: AttackSpec, role: str, seen: int) -> AttackNeeds:
    """The missing dice of the attacker's or the defender's throw (RULES DD-4, T-3)."""
    if role == "attacker":
        name, sides = spec.characteristic, spec.attacker_die
    else:
        name, sides = spec.defence_name, spec.defence_die
    dice: tuple[int, ...]
    if seen == 0:
        dice, kind = (sides, DESTINY_SIDES), f"d{sides}+d{DESTINY_SIDES}"
        text = Phrase("roll {characteristic} d{n} and the Destiny d20", characteristic=CHARACTERISTIC_WORDS[name],
                      n=sides)
    else:
        dice, kind = (DESTINY_SIDES,), f"d{DESTINY_SIDES}"
        text = Phrase("roll the Destiny d20")
    return AttackNeeds(count=len(dice), sides=dice[0], kind=kind, reason=_needs_reason(spec, role, text),
                       dice=dice, who=role)


def _damage_needs(spec: AttackSpec) -> AttackNeeds:
    sides = spec.attacker_die
    text = Phrase("hit! roll {characteristic} d{n} again for damage",
                  characteristic=CHARACTERISTIC_WORDS[spec.characteristic], n=sides)
    return AttackNeeds(count=1, sides=sides, kind=f"d{sides}", reason=_needs_reason(spec, "attacker", text),
                       dice=(sides,), who="attacker")


def _needs_reason(spec: AttackSpec, role: str, text: Phrase) -> Phrase:
    """"Defender (Saqueador): roll Defence d6 and the Destiny d20": who throws, then what."""
    return Phrase("{who}: {what}", who=_who(spec, role), what=text)


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
