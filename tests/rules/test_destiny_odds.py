"""Exact attack odds (RULES DD-5 … DD-8) against an enumeration of the resolver, and the virtual roller."""

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from rules.destiny import resolve_attack
from rules.destiny_odds import attack_odds
from rules.destiny_spec import AttackSpec, DestinyOptions
from rules.virtual import roll_attack

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples

SPECS = [
    AttackSpec(attacker_die=4, defence_die=6, ranged=True, weapon="light", shield=1),
    AttackSpec(attacker_die=6, defence_die=4, weapon="unarmed", attack_bonus=1,
               options=DestinyOptions(ties_favour_defender=True)),
    AttackSpec(attacker_die=8, defence_die=6, weapon="medium", armour=1,  # RULES DD-8 option
               options=DestinyOptions(defensive_fumble_on_hit=True)),
]


def enumerate_attack(spec):
    """Every throw of every step, weighted by its probability, through resolve_attack."""
    chances = Counter()
    faces = lambda sides: range(1, sides + 1)  # noqa: E731
    for attack in itertools.product(faces(spec.attacker_die), faces(20)):
        p_attack = Fraction(1, spec.attacker_die * 20)
        outcome = resolve_attack(spec, attack)
        if outcome.complete:
            chances[("auto", outcome.damage)] += p_attack
            continue
        for defence in itertools.product(faces(spec.defence_die), faces(20)):
            p = p_attack * Fraction(1, spec.defence_die * 20)
            outcome = resolve_attack(spec, attack, defence)
            if outcome.complete:
                key = "perfect" if outcome.perfect_defence else "slip" if outcome.defensive_slip else "miss"
                chances[(key, outcome.damage)] += p
                continue
            for damage in faces(spec.attacker_die):
                hit = resolve_attack(spec, attack, defence, (damage,))
                chances[("hit", hit.damage)] += p / spec.attacker_die
                if hit.defensive_slip:  # a Fallo Defensivo on a hit (defensive_fumble_on_hit)
                    chances[("slip on a hit", 0)] += p / spec.attacker_die
    return chances


@pytest.mark.parametrize("spec", SPECS, ids=AttackSpec.label)
def test_odds_equal_the_enumerated_resolver(spec):
    chances = enumerate_attack(spec)
    odds = attack_odds(spec)
    p_hit = sum(p for (kind, _), p in chances.items() if kind == "hit")
    assert odds["p_hit"] == pytest.approx(float(p_hit), abs=1e-12)
    assert odds["p_automatic_miss"] == pytest.approx(float(sum(p for (k, _), p in chances.items() if k == "auto")))
    assert odds["p_perfect_defence"] == pytest.approx(float(sum(p for (k, _), p in chances.items() if k == "perfect")))
    assert odds["p_defensive_slip"] == pytest.approx(
        float(sum(p for (k, _), p in chances.items() if k in ("slip", "slip on a hit"))))
    assert odds["mean_damage"] == pytest.approx(float(sum(d * p for (_, d), p in chances.items())))
    for damage, p in odds["damage_on_hit"].items():
        assert p == pytest.approx(float(chances[("hit", int(damage))] / p_hit))


def test_seeded_virtual_attacks_match_the_odds():
    spec, rolls = SPECS[0], 20_000
    rng = random.Random(2026)
    outcomes = [roll_attack(spec, rng) for _ in range(rolls)]
    assert all(outcome.complete for outcome in outcomes)
    p = attack_odds(spec)["p_hit"]
    hits = sum(outcome.hit for outcome in outcomes) / rolls
    assert abs(hits - p) <= 5 * math.sqrt(p * (1 - p) / rolls)  # 5 standard errors, seeded
