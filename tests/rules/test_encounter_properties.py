"""Hypothesis properties of an encounter over random sequences of steps (RULES DD-1 … DD-11)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.destiny import resolve_attack
from rules.encounter import Encounter
from rules.errors import InvalidRoll, InvalidStep
from rules.participant import Condition, Participant

pytestmark = pytest.mark.slow  # every test here runs a subprocess, a server or many examples

relaxed = settings(deadline=None, max_examples=60)
NAMES = ("Nara", "Brann", "Rival 1", "Rival 2")
dice = st.sampled_from((4, 6, 8, 10, 12))


@st.composite
def encounters(draw):
    """Two heroes and two enemies with random sheets, initiative rolled."""
    fighters = []
    for name in NAMES:
        body, mind = draw(dice), draw(dice)
        pv_max = draw(st.integers(1, 20))
        enemy = name.startswith("Rival")
        fighters.append(Participant(
            name, "enemy" if enemy else "hero", body=body, mind=mind, soul=draw(dice), pv=pv_max, pv_max=pv_max,
            defence=draw(dice) if enemy else None, armour=draw(st.integers(0, 2)),
            weapon=draw(st.sampled_from(["light", "unarmed", None])),
            energy={"EC": 0, "EM": 1, "EA": 2}, energy_max={"EC": 2, "EM": 2, "EA": 2}))
    encounter = Encounter(fighters)
    encounter.roll_initiative({p.name: draw(st.integers(1, p.mind)) for p in fighters})
    return encounter


conditions = st.one_of(
    st.sampled_from(["Derribado", "Ciego", "Inmóvil", "Paralizado", "Asustado", "Desarmado", "Mareado"]).map(Condition),
    st.integers(1, 3).map(lambda x: Condition("Envenenado", poison=x)),
    dice.map(lambda sides: Condition("Envenenado", poison_die=sides)),
)
names = st.sampled_from(NAMES)
steps = st.one_of(
    st.tuples(st.just("next_turn")),
    st.tuples(st.just("poison_roll"), st.integers(1, 12)),
    st.tuples(st.just("attack"), names, names, st.lists(st.integers(1, 20), min_size=5, max_size=5)),
    st.tuples(st.just("help"), names, names, st.integers(1, 2)),
    st.tuples(st.just("damage"), names, st.integers(0, 12)),
    st.tuples(st.just("heal"), names, st.integers(1, 12)),
    st.tuples(st.just("add_condition"), names, conditions),
    st.tuples(st.just("cure"), names, st.sampled_from(["Ciego", "Envenenado", "Derribado"])),
    st.tuples(st.just("short_rest"), names, st.integers(1, 4)),
    st.tuples(st.just("long_rest"), names),
    st.tuples(st.just("spend_energy"), names, st.sampled_from(["EC", "EM", "EA"]), st.integers(1, 2)),
)


def take(encounter, step):
    """Take one step; steps the rules refuse are part of the game, not failures."""
    kind, *args = step
    try:
        if kind == "attack":
            attacker, defender, values = args
            spec = encounter.attack_spec(attacker, defender)
            a, d = spec.attacker_die, spec.defence_die
            outcome = resolve_attack(spec, (values[0] % a + 1, values[1]), (values[2] % d + 1, values[3]),
                                     (values[4] % a + 1,))
            encounter.apply_attack(outcome)
        else:
            getattr(encounter, kind)(*args)
    except (InvalidStep, InvalidRoll):
        return False
    return True


@relaxed
@given(encounters(), st.lists(steps, max_size=25))
def test_undo_restores_the_exact_prior_state_and_a_refused_step_changes_nothing(encounter, plan):
    for step in plan:
        before = encounter.state()
        saved = encounter.to_dict()
        if take(encounter, step):
            copy = Encounter.from_dict(encounter.to_dict())
            copy.undo()
            assert copy.state() == before
        else:
            assert encounter.to_dict() == saved


@relaxed
@given(encounters(), st.lists(steps, max_size=25))
def test_json_round_trip_after_any_steps(encounter, plan):
    for step in plan:
        take(encounter, step)
    text = json.dumps(encounter.to_dict())
    assert Encounter.from_dict(json.loads(text)).to_dict() == encounter.to_dict()


@relaxed
@given(encounters(), st.lists(steps, max_size=25))
def test_pv_stay_within_bounds_and_status_follows_pv(encounter, plan):  # RULES DD-9, DD-10
    for step in plan:
        take(encounter, step)
        for fighter in encounter.participants:
            assert 0 <= fighter.pv <= fighter.pv_max
            assert (fighter.status == "active") == (fighter.pv > 0)
            assert all(0 <= fighter.energy[k] <= fighter.energy_max[k] for k in fighter.energy)


@relaxed
@given(encounters(), st.lists(steps, max_size=25))
def test_no_temporary_condition_outlives_the_start_of_its_bearers_turn(encounter, plan):  # RULES DD-11
    for step in plan:
        took = take(encounter, step)
        if took and step[0] == "next_turn":
            bearer = encounter.get(encounter.current)
            assert all(c.duration == "persistent" for c in bearer.conditions)


@relaxed
@given(encounters(), st.lists(steps, max_size=25))
def test_the_turn_never_falls_to_someone_out_of_the_fight(encounter, plan):  # RULES DD-9
    for step in plan:
        current_before = encounter.current
        if take(encounter, step) and step[0] == "next_turn":
            assert encounter.current != current_before or len(encounter.order) == 1
            fighter = encounter.get(encounter.current)
            assert fighter.status == "active" or encounter.turn_lost
