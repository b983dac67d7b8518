"""One table over every tray case the roll and the fight meet: a reading and what the step
wants → the dice taken, or the problem's code and today's exact English (the wording the
CLI and the README show; RULES T-1, T-2, T-3, D6-2a, DD-1)."""

from __future__ import annotations

import pytest

from device.controller import throw_problem
from device.roll.record import Die
from device.tray.match import Match, Wanted, match
from device.tray.problems import Problem
from tests.device.controller_fakes import die, numbered
from vision.reading import TrayReading

ATTACK = "this attack needs a d8 and a d20"
#: What a pool of five d10s, a 2D6 and a fight's attack ask of the tray.
POOL = Wanted(reader="numbered", count=5, kind="d10", asks="pool 5: throw 5 ten-sided dice", label="pool 5")
TWO_D6 = Wanted(count=2, moved_only=True, label="2D6", asks="2D6: throw 2 six-sided dice")
FOLLOW_UP = Wanted(count=1, moved_only=True, follow_up=True, asks="roll the principal die again")
FIGHT = Wanted(reader="numbered", sides=(8, 20), asks=ATTACK)


def pool(**kinds):
    """Five d10s at their places, some of another kind: ``{place: kind}``."""
    return [numbered(3 + i, kinds.get(f"at{i}", "d10"), x=100 * i) for i in range(5)]


def read(*dice):
    return TrayReading(dice=list(dice), size=(640, 480))


TABLE = [
    # the roll: dice of another kind than the preset's (a pool reads d10s)
    ("a d8 among d10s", pool(at4="d8"), POOL, None,
     "wrong dice", "a d8 is in the tray: throw only d10s"),
    ("a d8 and a pip d6 among d10s", pool(at3="d8", at4="d6-pips"), POOL, None,
     "wrong dice", "a d8 and a pip d6 are in the tray: throw only d10s"),
    ("pip d6s among d10s", pool(at0="d6-pips", at4="d6-pips"), POOL, None,
     "wrong dice", "2 pip d6s are in the tray: throw only d10s"),
    ("a percentile d10 among d10s", pool(at4="d10-percentile"), POOL, None,
     "wrong dice", "a percentile d10 is in the tray: throw only d10s"),
    ("three kinds among d10s", pool(at1="d12", at2="d20", at3="d6"), POOL, None,
     "wrong dice", "a d12, a d20 and a numbered d6 are in the tray: throw only d10s"),
    # the roll: counts (RULES T-3)
    ("too many", [die(5, "red", principal=True), die(2, x=300), die(3, x=500)], TWO_D6, None,
     "too many", "3 dice seen, 2D6 takes 2: take 1 die out and throw again"),
    ("too few", [die(5, "red", principal=True)], TWO_D6, None,
     "too few", "1 die seen, 2D6 takes 2: throw all 2 again"),
    ("none", [], TWO_D6, None, "no dice", "no dice seen: 2D6: throw 2 six-sided dice"),
    # the roll: RULES T-2, only dice that moved were thrown
    ("none moved", [die(4, "red", 104, 98)], TWO_D6, [die(4, "red", 100, 100)],
     "not moved", "no die has moved since the last reading: 2D6: throw 2 six-sided dice"),
    ("two moved of a follow-up of one", [die(4, x=0), die(6, "red", 300), die(2, x=500)], FOLLOW_UP,
     [die(4, x=0)], "moved",
     "3 dice seen, 2 of them moved; 1 die needed: throw only that die (or clear the tray first)"),
    ("three moved of a follow-up of two", [die(4, x=0), die(6, "red", 300), die(2, x=500)],
     Wanted(count=2, moved_only=True, follow_up=True), [], "moved",
     "3 dice seen, 3 of them moved; 2 dice needed: throw only those dice (or clear the tray first)"),
    # the fight: the wrong die for a Destiny step, dice missing, unreadable ones (RULES DD-1, T-1)
    ("a numbered d6 for a d8", [numbered(3, "d6"), numbered(14, "d20", x=300)], FIGHT, None,
     "wrong dice", f"a numbered d6 is in the tray: {ATTACK}"),
    ("a pip d6 too many", [numbered(3, "d6-pips"), numbered(7, "d8", x=200), numbered(14, "d20", x=300)],
     FIGHT, None, "wrong dice", f"a pip d6 is in the tray: {ATTACK}"),
    ("two d20s", [numbered(7, "d8"), numbered(14, "d20", x=200), numbered(2, "d20", x=300)], FIGHT, None,
     "wrong dice", f"2 d20s are in the tray: {ATTACK}"),
    ("a d20 missing", [numbered(7, "d8")], FIGHT, None, "missing", f"a d20 is missing: {ATTACK}"),
    ("no dice for a fight", [], FIGHT, None, "no dice", f"no dice seen: {ATTACK}"),
    ("a cocked d20", [numbered(7, "d8"), numbered(None, "d20", x=300, unreadable="cocked")], FIGHT, None,
     "unreadable", "the d20: it is cocked — throw it again"),
    ("an ambiguous d8", [numbered(None, "d8", unreadable="ambiguous numeral"), numbered(14, "d20", x=300)],
     FIGHT, None, "unreadable", "the d8: its numeral is ambiguous — throw it again"),
    ("a percentile d10 for a d10", [numbered(3, "d10-percentile")],
     Wanted(reader="numbered", sides=(10,), asks="Nara's initiative needs a d10"), None,
     "wrong dice", "a percentile d10 is in the tray: Nara's initiative needs a d10"),
    # RULES T-5: the cocked-die policy of a fight step, and the dice of a voided throw
    ("a cocked d20 voids the step", [numbered(7, "d8"), numbered(None, "d20", x=300, unreadable="cocked")],
     Wanted(reader="numbered", sides=(8, 20), asks=ATTACK, cocked="rethrow_set"), None,
     "void", "the d20: it is cocked — throw all the dice of this step again"),
    ("a cocked d8 leans", [numbered(None, "d8", unreadable="cocked"), numbered(14, "d20", x=300)],
     Wanted(reader="numbered", sides=(8, 20), asks=ATTACK, cocked="accept_leaning"), None,
     "leaning", "the d8 leans: enter its top face"),
    ("an ambiguous d8 under accept_leaning", [numbered(None, "d8", unreadable="ambiguous numeral"),
                                              numbered(14, "d20", x=300)],
     Wanted(reader="numbered", sides=(8, 20), asks=ATTACK, cocked="accept_leaning"), None,
     "unreadable", "the d8: its numeral is ambiguous — throw it again"),
    ("a voided fight throw's die that did not move", [numbered(7, "d8"), numbered(14, "d20", x=300)],
     Wanted(reader="numbered", sides=(8, 20), asks=ATTACK, voided=(numbered(7, "d8"),)), None,
     "unmoved", "1 of the voided throw's dice did not move: throw all the dice of this step again"),
    ("a voided roll throw's die that did not move", [die(6, "red", 100, 100), die(3, x=400)],
     Wanted(count=2, moved_only=True, voided=(die(6, "red", 100, 100), die(None, x=300, unreadable="cocked"))),
     [], "unmoved", "1 die of the voided throw did not move: throw all 2 again"),
    ("a d8 for initiative", [numbered(7, "d8")],
     Wanted(reader="numbered", sides=(6,), asks="Brann's initiative needs a d6"), None,
     "wrong dice", "a d8 is in the tray: Brann's initiative needs a d6"),
]


@pytest.mark.parametrize(("dice", "wanted", "before", "code", "english"),
                         [row[1:] for row in TABLE], ids=[row[0] for row in TABLE])
def test_a_tray_that_cannot_fill_the_step_says_why(dice, wanted, before, code, english):
    found = match(read(*dice), wanted, before)
    assert found.dice is None
    assert found.problem.code == code and found.problem.english() == english
    assert found.problem.to_dict()["code"] == code and found.problem.to_dict()["text"] == english


TAKEN = [
    ("a pool of d10s", pool(), POOL, None, [3, 4, 5, 6, 7]),
    ("the fight's dice in the step's order", [numbered(14, "d20"), numbered(7, "d8", x=300)], FIGHT, None, [7, 14]),
    ("a d10 reads its 0 as 10", [numbered(20, "d20"), numbered(10, "d10")],
     Wanted(reader="numbered", sides=(10, 20), asks="x"), None, [10, 20]),
    ("a pip d6 or a numbered d6 for a d6", [numbered(5, "d6-pips")], Wanted(reader="numbered", sides=(6,)), None, [5]),
    ("the moved die of a follow-up", [die(4, x=0), die(2, "red", 300)], FOLLOW_UP, [die(4, x=0)], [2]),
    ("read now: the whole tray, unmoved", [die(4, x=0)],
     Wanted(count=1, moved_only=True, follow_up=True, as_is=True), [die(4, x=0)], [4]),
    ("a first throw: one die out of the tray is fine", [die(5, "red", 200, principal=True), die(2, x=400)], TWO_D6,
     [die(5, "red", principal=True), die(2, x=300), die(6, x=500)], [5, 2]),
    ("a roll's cocked die is taken, for the roll to name", [die(6, "red", principal=True),
                                                             die(None, "white", 300, unreadable="cocked")],
     TWO_D6, None, [6, None]),
    ("a free roll: any count", [die(1), die(2, x=300), die(3, x=500)], Wanted(moved_only=True), None, [1, 2, 3]),
]


@pytest.mark.parametrize(("dice", "wanted", "before", "values"), [row[1:] for row in TAKEN],
                         ids=[row[0] for row in TAKEN])
def test_a_tray_that_fills_the_step_gives_its_dice(dice, wanted, before, values):
    found = match(read(*dice), wanted, before)
    assert found == Match(found.dice) and found.values == values


def roll_die(index, natural, color, unreadable=None, principal=False):
    return Die(natural, "camera", index=index, color=color, unreadable=unreadable, principal=principal)


THROWS = [
    ("a cocked die with a colour", "d6", 0, [roll_die(0, 6, "red", principal=True),
                                            roll_die(1, None, "white", "cocked")], None,
     "unreadable", "die 2 (white): it is cocked — throw it again or correct it on the page"),
    ("a cocked die without a colour", "d6", 0, [roll_die(0, 6, None, principal=True),
                                               roll_die(1, None, None, "cocked")], None,
     "unreadable", "die 2: it is cocked — throw it again or correct it on the page"),
    ("an ambiguous numeral", "pool", 0, [roll_die(0, 3, "blue"), roll_die(1, 4, "blue"),
                                         roll_die(2, None, "blue", "ambiguous numeral")], None,
     "unreadable", "die 3 (blue): its numeral is ambiguous — throw it again or correct it on the page"),
    ("unreadable, no reason", "d6", 0, [roll_die(0, 6, "red", principal=True), roll_die(1, None, "black")], None,
     "unreadable", "die 2 (black): it cannot be read — throw it again or correct it on the page"),
    ("unreadable, a reason vision does not word", "d6", 0,
     [roll_die(0, 6, "red", principal=True), roll_die(1, None, "black", "glare")], None,
     "unreadable", "die 2 (black): it cannot be read (glare) — throw it again or correct it on the page"),
    ("no principal die", "d6", 0, [roll_die(0, 2, "white"), roll_die(1, 6, "white")], "no die of colour red",
     "no principal", "no principal die found (no die of colour red): tap the principal die on the page"),
    ("no principal die in a free roll, no note", "free", 0, [roll_die(0, 2, "white"), roll_die(1, 6, "white")],
     None, "no principal", "no principal die found: tap the principal die on the page"),
]


@pytest.mark.parametrize(("system", "step", "dice", "note", "code", "english"), [row[1:] for row in THROWS],
                         ids=[row[0] for row in THROWS])
def test_a_roll_throw_the_rules_cannot_take_says_why(system, step, dice, note, code, english):
    problem = throw_problem(system, step, dice, note)
    assert problem.code == code and problem.english() == english


def test_a_throw_the_rules_can_take_has_no_problem():
    assert throw_problem("pool", 0, [roll_die(0, 3, "blue"), roll_die(1, 4, "blue")]) is None
    assert throw_problem("d6", 1, [roll_die(2, 5, "red")]) is None  # a later throw has no principal die


@pytest.mark.parametrize(("problem", "english"), [
    (Problem("no reading", why="not an image", asks="throw again"),
     "could not read the tray (not an image): throw again"),
    (Problem("refused", why="a d20 shows 1 to 20, not 21", asks="throw again"),
     "a d20 shows 1 to 20, not 21: throw again"),
])
def test_a_reader_or_rules_refusal_is_worded_with_its_reason(problem, english):
    assert problem.english() == english and problem.to_dict()["why"] == problem.why


def test_a_cocked_die_under_rethrow_set_voids_the_roll_throw():
    dice = [roll_die(0, 6, "red", principal=True), roll_die(1, None, None, "cocked"), roll_die(2, 2, "blue")]
    problem = throw_problem("d6", 0, dice, None, "rethrow_set")
    assert problem.code == "void" and problem.english() == "die 2: it is cocked — throw all 3 dice of this throw again"


def test_a_cocked_die_under_accept_leaning_asks_for_its_top_face():
    dice = [roll_die(0, 6, "red", principal=True), roll_die(1, None, "white", "cocked")]
    problem = throw_problem("d6", 0, dice, None, "accept_leaning")
    assert problem.code == "leaning" and problem.english() == "die 2 (white) leans: enter its top face"
    ambiguous = [roll_die(0, 6, "red", principal=True), roll_die(1, None, "white", "ambiguous pips")]
    assert throw_problem("d6", 0, ambiguous, None, "accept_leaning").code == "unreadable"
