"""device/dice_stats.py against figures worked out by hand (the closed forms in each test)."""

from __future__ import annotations

import math

import pytest

from device.dice_stats import FEW_BIAS, KINDS, dice_stats, fairness, smallest_bias


def test_the_chi_square_of_sixty_pip_dice_is_pearsons():
    # expected 10 a face: (10² + 0 + 0 + 0 + 5² + 5²) / 10 = 15 on 5 degrees of freedom, whose
    # tail for odd df is 2·Q(√x) + √(2x/π)·e^(−x/2)·(1 + x/3) = 0.01036
    x = 15
    p = math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)
    test = fairness([20, 10, 10, 10, 5, 5])
    assert test.test == "chi-square"
    assert test.p == pytest.approx(p, rel=1e-9) and round(test.p, 4) == 0.0104
    assert (test.face, test.more) == (1, True)
    assert fairness([5, 15, 10, 10, 10, 10]).face == 2        # |−5| = |+5|: the face that came up more


def test_even_faces_are_no_sign_of_bias_at_all():
    test = fairness([10] * 6)
    assert test.test == "chi-square" and test.p == pytest.approx(1.0)


def test_a_face_coming_up_less_is_named_as_less():
    test = fairness([10, 10, 10, 10, 10, 0])
    assert (test.face, test.more) == (6, False)


def test_few_dice_take_the_exact_binomial_tests_with_bonferroni():
    # 3 dice, all sixes: P(X = 3) = (1/6)³ = 1/216, no other count is as unlikely, so the
    # face's two-sided p is 1/216; six faces tested: 6/216 = 1/36
    test = fairness([0, 0, 0, 0, 0, 3])
    assert test.test == "exact binomial"
    assert test.p == pytest.approx(1 / 36)
    assert (test.face, test.more, test.few) == (6, True, True)
    # a face expected 5 times or more is the chi-square's: 30 pip d6, 50 d10
    assert fairness([5] * 6).test == "chi-square" and fairness([4] * 5 + [5]).test == "exact binomial"
    assert fairness([5] * 10).test == "chi-square" and fairness([5] * 9 + [4]).test == "exact binomial"
    assert fairness([0] * 6) is None


def test_the_smallest_bias_240_pip_dice_show_is_one_in_four():
    # Cohen's tables: λ = 12.83 for 80 % power at α 5 % on 5 degrees of freedom; w = √(λ/n),
    # and one face at q (the rest alike) has w = (q − 1/6)·6/√5
    q = 1 / 6 + math.sqrt(12.83 / 240) * math.sqrt(5) / 6
    assert smallest_bias(240, 6) == pytest.approx(q, abs=1e-4)
    assert round(1 / smallest_bias(240, 6)) == 4
    # d10, 9 degrees of freedom: λ = 15.65
    assert smallest_bias(500, 10) == pytest.approx(0.1 + math.sqrt(15.65 / 500) * 3 / 10, abs=1e-4)


def test_a_bias_too_big_to_exist_is_none():
    assert smallest_bias(0, 6) is None
    assert smallest_bias(1, 6) is None          # 1/6 + √12.83·√5/6 = 1.5: no chance above 1 is one
    assert smallest_bias(3, 6) == pytest.approx(1 / 6 + math.sqrt(12.83 / 3) * math.sqrt(5) / 6, abs=1e-3)


def test_few_means_a_bias_of_a_fifth_would_go_unseen():
    # q = 1.2/6 = 0.2: (0.2 − 1/6)·6/√5 = 0.0894 = √(12.8276/n), n = 1603.4 pip d6
    assert FEW_BIAS == 1.2
    assert fairness([267] * 6).few is True                       # 1,602 dice
    assert fairness([268, 268, 267, 267, 267, 267]).few is False  # 1,604


def _die(natural, source="camera", corrected=False, unreadable=None):
    return {"natural": natural, "source": source, "corrected": corrected, "unreadable": unreadable}


def test_every_kind_counts_the_cameras_dice_apart_from_the_corrected_and_the_typed():
    rolls = [
        {"system": "d6", "dice": [_die(6), _die(2), _die(1, corrected=True)]},
        {"system": "free", "dice": [_die(None, unreadable="cocked"), _die(5, "hand")]},
        {"system": "pool", "dice": [_die(10), _die(3, "hand", corrected=True), _die(None, corrected=True)]},
        {"system": "d6", "dice": [_die(7), _die(0)]},            # no face of a d6: no face read right
        {"system": "chess", "dice": [_die(1)]},                  # a system not known: left out
    ]
    stats = dice_stats(rolls, {"d6-pips": 4, "d20": 3})
    assert [k["kind"] for k in stats["kinds"]] == list(KINDS) == ["d6-pips", "d10"]
    d6, d10 = stats["kinds"]
    assert {key: d6[key] for key in ("rolled", "dice", "read", "right", "corrected", "unreadable", "by_hand",
                                     "taught")} == \
        {"rolled": 7, "dice": 4, "read": 6, "right": 2, "corrected": 1, "unreadable": 3, "by_hand": 1, "taught": 4}
    assert d6["faces"] == [1, 1, 0, 0, 1, 1]
    # a d10 corrected to cocked has no face; a 10 is face 10 (RULES P-1)
    assert {key: d10[key] for key in ("dice", "read", "right", "corrected", "by_hand", "taught")} == \
        {"dice": 2, "read": 2, "right": 1, "corrected": 1, "by_hand": 1, "taught": 0}
    assert d10["faces"] == [0, 0, 1, 0, 0, 0, 0, 0, 0, 1]
    assert d6["fairness"]["test"] == "exact binomial" and stats["alpha"] == 0.05 and stats["power"] == 0.8


def test_no_rolls_are_every_kind_at_zero():
    stats = dice_stats([])
    assert [(k["dice"], k["fairness"]) for k in stats["kinds"]] == [(0, None), (0, None)]


def test_the_taught_examples_are_counted_per_kind_and_value(tmp_path):
    import numpy as np

    from device.examples import Examples, TaughtFile, taught_by_kind
    from vision import adapt

    assert taught_by_kind(tmp_path) == {}                        # no database yet
    image = np.zeros((100, 100, 3), np.uint8)
    dice = [adapt.Example("d6-pips", 3, (10, 10, 40, 40)), adapt.Example("d6-pips", 3, (50, 50, 80, 80)),
            adapt.Example("d10", 10, (10, 50, 40, 80))]
    with Examples(tmp_path) as examples:
        assert taught_by_kind(tmp_path) == {}                    # the table, empty
        examples.add([TaughtFile(b"photo", ".png", image, "a.png", dice)])
        assert taught_by_kind(tmp_path) == {"d6-pips": {3: 2}, "d10": {10: 1}}


def test_only_the_taught_examples_count_as_taught_not_the_rolls_corrected_or_tapped_in_dice(tmp_path):
    """A roll's corrected or tapped-in die is an example too, but it is counted among the
    roll's dice: 'taught' counts only `dicelens teach` and the teaching round (no roll)."""
    import numpy as np

    from device.examples import Examples, TaughtFile, taught_by_kind
    from vision import adapt

    image = np.zeros((100, 100, 3), np.uint8)
    tapped = [adapt.Example("d6-pips", v, (10 * v, 10, 10 * v + 8, 18)) for v in range(1, 6)]
    with Examples(tmp_path) as examples:
        examples.add([TaughtFile(b"throw", ".png", image, "teaching round",
                                 [adapt.Example("d6-pips", 2, (10, 50, 40, 80))])])
        examples.add([TaughtFile(b"roll photo", ".jpg", image, "roll 7", tapped, roll=7)])
        assert taught_by_kind(tmp_path) == {"d6-pips": {2: 1}}
        assert sum(taught_by_kind(tmp_path, from_rolls=True)["d6-pips"].values()) == 6


def test_dice_rolled_are_those_read_and_those_entered_by_hand_whatever_their_face():
    """Trial fault 19: a die entered by hand and later marked cocked counted in "entered by hand"
    but not in "dice rolled", so 38 read + 9 by hand showed 46 rolled."""
    rolls = [{"system": "d6", "dice": [_die(3), _die(None, unreadable="cocked"), _die(4, "hand"),
                                       _die(None, "hand", corrected=True)]}]
    d6 = dice_stats(rolls)["kinds"][0]
    assert (d6["rolled"], d6["read"], d6["by_hand"]) == (4, 2, 2)
    assert d6["rolled"] == d6["read"] + d6["by_hand"] and d6["read"] == d6["right"] + d6["corrected"] + d6["unreadable"]
    assert d6["dice"] == sum(d6["faces"]) == 2  # the faces counted: the dice whose face is known
