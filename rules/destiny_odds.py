"""Exact odds of a Destiny Dice attack (RULES DD-4 … DD-8), for the page.

The dice are few and small (at most d12 × d12 faces, the two d20s only matter
through one face each), so the odds are a plain exact enumeration in fractions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules.destiny import DESTINY_SIDES, damage_parts
from rules.destiny_spec import AttackSpec


def attack_odds(spec: AttackSpec) -> dict[str, Any]:
    """Exact chances of an attack before any die is thrown.

    # RULES DD-5 (hit, with ``ties_favour_defender``), DD-6 (a Destiny 20 or 1 of
    # the defender when the defence wins), DD-7 (a Destiny 1 when shooting), DD-8
    # (damage; the defender's 1 on a hit too with ``defensive_fumble_on_hit``).

    :param spec: the attack.
    :returns: ``{"system": "destiny", "p_hit", "p_miss", "p_automatic_miss",
        "p_perfect_defence", "p_defensive_slip", "mean_damage" (damage the defender
        takes, Fallo Defensivo included), "damage_on_hit": {damage: probability}}``;
        probabilities as floats in [0, 1].
    """
    one_face = Fraction(1, DESTINY_SIDES)
    shoots = one_face if spec.ranged else Fraction(0)  # RULES DD-7: a Destiny 1 when shooting
    wins = sum(
        (attack + spec.attack_bonus > defence + spec.defence_modifier)
        if spec.options.ties_favour_defender
        else (attack + spec.attack_bonus >= defence + spec.defence_modifier)
        for attack in range(1, spec.attacker_die + 1)
        for defence in range(1, spec.defence_die + 1)
    )
    p_opposed_hit = Fraction(wins, spec.attacker_die * spec.defence_die)
    p_hit = (1 - shoots) * p_opposed_hit
    p_defence_wins = (1 - shoots) * (1 - p_opposed_hit)

    on_hit: dict[int, Fraction] = {}
    for face in range(1, spec.attacker_die + 1):
        total = damage_parts(spec, face).total
        on_hit[total] = on_hit.get(total, Fraction(0)) + Fraction(1, spec.attacker_die)
    mean_on_hit = sum(damage * p for damage, p in on_hit.items())
    p_perfect = p_defence_wins * one_face  # the defender's Destiny 20 (RULES DD-6)
    slips_on_hit = spec.options.defensive_fumble_on_hit  # RULES DD-8 option
    p_slip = (p_defence_wins + (p_hit if slips_on_hit else 0)) * one_face  # the defender's Destiny 1 (DD-6)
    if slips_on_hit:  # a hit's damage is 1 more when the defender's d20 shows 1
        shifted: dict[int, Fraction] = {}
        for damage, p in on_hit.items():
            for more, share in ((0, 1 - one_face), (1, one_face)):
                shifted[damage + more] = shifted.get(damage + more, Fraction(0)) + p * share
        on_hit = shifted
    return {
        "system": "destiny",
        "p_hit": float(p_hit),
        "p_miss": float(1 - p_hit),
        "p_automatic_miss": float(shoots),
        "p_perfect_defence": float(p_perfect),
        "p_defensive_slip": float(p_slip),
        "mean_damage": float(p_hit * mean_on_hit + p_slip),  # each slip adds 1
        "damage_on_hit": {str(damage): float(p) for damage, p in sorted(on_hit.items())},
    }
