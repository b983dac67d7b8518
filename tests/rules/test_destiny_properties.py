"""Hypothesis properties of Destiny Dice attacks and initiative (RULES DD-1, DD-4 … DD-8)."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules.destiny import EFFECTS, resolve_attack
from rules.destiny_spec import CHARACTERISTIC_SIDES, AttackSpec, DestinyOptions
from rules.initiative import initiative_order

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples

relaxed = settings(deadline=None)


@st.composite
def attacks(draw):
    """A valid spec and a full set of throws for it (the damage die only on a hit)."""
    attacker = draw(st.sampled_from(CHARACTERISTIC_SIDES))
    ranged = draw(st.booleans())
    weapons = [w for w, need in (("light", 4), ("medium", 6), ("heavy", 8)) if attacker >= need] + [None]
    if not ranged:
        weapons.append("unarmed")
    spec = AttackSpec(
        attacker_die=attacker, defence_die=draw(st.sampled_from(CHARACTERISTIC_SIDES)), ranged=ranged,
        weapon=draw(st.sampled_from(weapons)), armour=draw(st.integers(0, 3)), shield=draw(st.integers(0, 2)),
        attack_bonus=draw(st.integers(-2, 2)), defence_bonus=draw(st.integers(-2, 2)),
        damage_bonus=draw(st.integers(0, 2)), defender=draw(st.sampled_from(["hero", "enemy"])),
        options=DestinyOptions(draw(st.booleans())))
    attack = (draw(st.integers(1, attacker)), draw(st.integers(1, 20)))
    defence = (draw(st.integers(1, spec.defence_die)), draw(st.integers(1, 20)))
    damage = (draw(st.integers(1, attacker)),)
    return spec, attack, defence, damage


def full(spec, attack, defence, damage):
    """Feed the throws one step at a time, as the players would, until complete."""
    throws = [attack]
    outcome = rules.resolve(spec, throws)
    for later in (defence, damage):
        if outcome.complete:
            break
        throws.append(later)
        outcome = rules.resolve(spec, throws)
    return outcome


@relaxed
@given(attacks())
def test_a_hit_deals_at_least_1(case):  # RULES DD-8
    outcome = full(*case)
    assert outcome.complete
    assert set(outcome.effects) <= set(EFFECTS)
    if outcome.hit:
        assert outcome.damage >= 1 and outcome.points == 2


@relaxed
@given(attacks())
def test_a_miss_never_deals_attack_damage(case):  # RULES DD-5, DD-6
    outcome = full(*case)
    if not outcome.hit:
        assert outcome.damage_parts is None and outcome.points == 0
        assert outcome.damage == (1 if outcome.defensive_slip else 0)


@relaxed
@given(attacks())
def test_every_incomplete_step_says_what_is_missing_and_nothing_is_guessed(case):  # RULES T-3
    spec, attack, defence, damage = case
    for cut in range(2):
        outcome = resolve_attack(spec, attack[:cut])
        assert outcome.needs.who == "attacker" and len(outcome.needs.dice) == 2 - cut
        assert outcome.hit is None and outcome.damage is None
    after_attack = resolve_attack(spec, attack)
    if not after_attack.complete:
        assert after_attack.needs.who == "defender" and after_attack.needs.dice == (spec.defence_die, 20)
        assert after_attack.hit is None and after_attack.damage is None


@relaxed
@given(attacks())
def test_ties_favour_defender_only_changes_exact_ties(case):  # RULES DD-5
    spec, attack, defence, damage = case
    base = AttackSpec.from_dict({**spec.to_dict(), "options": {"ties_favour_defender": False}})
    option = AttackSpec.from_dict({**spec.to_dict(), "options": {"ties_favour_defender": True}})
    plain, strict = full(base, attack, defence, damage), full(option, attack, defence, damage)
    if plain.hit != strict.hit:
        assert plain.hit and plain.attack_total == plain.defence_total


@relaxed
@given(attacks())
def test_json_round_trip_of_the_spec(case):
    spec = case[0]
    assert AttackSpec.from_dict(full(*case).to_dict()["spec"]) == spec


entries = st.lists(
    st.tuples(st.sampled_from(["hero", "enemy"]), st.integers(1, 12)), min_size=1, max_size=10,
).map(lambda rows: [(f"p{i}", side, value) for i, (side, value) in enumerate(rows)])


@given(entries)
def test_a_hero_never_acts_after_an_enemy_with_the_same_initiative(rows):  # RULES DD-1
    order = initiative_order(rows)
    values = [entry.value for entry in order]
    assert values == sorted(values, reverse=True)
    position = {entry.name: i for i, entry in enumerate(order)}
    for hero in (e for e in order if e.side == "hero"):
        for enemy in (e for e in order if e.side == "enemy" and e.value == hero.value):
            assert position[hero.name] < position[enemy.name]


@given(entries)
def test_tie_groups_hold_exactly_the_same_side_and_value_in_the_given_order(rows):  # RULES DD-1
    order = initiative_order(rows)
    given_position = {name: i for i, (name, _, _) in enumerate(rows)}
    for a, b in itertools.pairwise(order):
        same = (a.side, a.value) == (b.side, b.value)
        assert (a.group == b.group) is same
        if same:
            assert given_position[a.name] < given_position[b.name]
