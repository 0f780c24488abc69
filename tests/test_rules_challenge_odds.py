"""Exact odds of a gambit round (odds.py) against a hand calculation and against the real
sub-phase dice code run many times (Monte Carlo, 4 standard errors)."""

from __future__ import annotations

from fractions import Fraction

from challengekit import duellist_for
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.rules.challenges.duellist import Weapon
from tabletop.rules.challenges.gambits import GAMBIT_NAMES, GUARD, TEST, allowed, gambit, precedence
from tabletop.rules.challenges.odds import (
    DuelSetup,
    best_gambit,
    odds_summary,
    pair_odds,
    policy_pair,
)
from tabletop.rules.challenges.strike import (
    focus_modifiers,
    focus_step,
    glory,
    strike_profiles,
    strike_step,
)
from tabletop.rules.dice import monte_carlo

BLADE = Weapon("Blade")




def D(player, **kw):
    return duellist_for(player, **{"w": 1, "a": 1, **kw})


SETUP = DuelSetup(("red", "blue"), {"red": D("red"), "blue": D("blue")}, {"red": BLADE, "blue": BLADE},
                  active="red")


def test_exact_odds_by_hand():
    # Focus: D6 + 4 each (Test the Foe keeps the Initiative): each takes the advantage half the time.
    # red, Guard Up: WS 5, one attack: hits 3+ (4/6), wounds 4+ (1/2), save 3+ fails 2/6: 1/9.
    # blue, Test the Foe: WS 4 v 5, one attack (no +1 for the advantage): 4+ (1/2) x 1/2 x 1/3 = 1/12.
    # red first: red wins 1/9; else blue wins 1/12.  blue first: blue wins 1/12; else red 1/9.
    # P(red) = 1/2 * 1/9 + 1/2 * 11/12 * 1/9 = 23/216; P(blue) = 1/2 * 8/9 * 1/12 + 1/2 * 1/12 = 17/216
    o = pair_odds(SETUP, {"red": GUARD, "blue": TEST})
    assert o.win == {"red": Fraction(23, 216), "blue": Fraction(17, 216)}
    assert o.draw == Fraction(176, 216)
    assert o.points == {"red": Fraction(23, 216), "blue": Fraction(17, 216)}   # base Wounds 1 each


def _one_round(dice, gambits):
    ds, gs = SETUP.duellists, {p: gambit(g) for p, g in gambits.items()}
    sides = [(p, gs[p], focus_modifiers(ds[p], BLADE, gs[p], 0)[0]) for p in ("red", "blue")]
    first, _, _ = focus_step(dice, sides)
    flurry = {p: dice.d3(purpose="flurry") for p in ("red", "blue") if gs[p].attacks_d3}
    # round 1: nobody held the advantage at the Face-Off, so the Active Player (red) has precedence
    profs = strike_profiles({p: (ds[p], BLADE, gs[p]) for p in ds}, first, precedence(None, "red"), flurry)
    res = strike_step(dice, profs, ds, first, log=False)
    caused = {p: b.damage for p, b in res.blows.items()}
    return glory(ds, res.removed, caused, {}).winner


def test_exact_odds_agree_with_the_real_dice_code():
    pair = {"red": "Seize the Initiative", "blue": "Flurry of Blows"}
    exact = pair_odds(SETUP, pair)
    est = monte_carlo(lambda d: _one_round(d, pair), runs=6000, seed=7)
    for who, p in (("red", exact.win["red"]), ("blue", exact.win["blue"]), (None, exact.draw)):
        got, se = est.get(who, (0.0, 0.0))
        assert abs(got - float(p)) <= 4 * max(se, 0.003), (who, got, float(p))


def test_policy_is_minimax_over_the_table():
    memo = {}
    best, banned = policy_pair(SETUP, memo=memo)
    g1 = dict(best.gambits)["red"]

    def worst(g):
        return min(pair_odds(SETUP, {"red": g, "blue": r}).value("red") for r in allowed(False, [g], []))

    others = [g for g in allowed(True, [], []) if g != "Feint and Riposte"]
    if g1 != "Feint and Riposte":
        assert worst(g1) == max(worst(g) for g in others)
    # the second chooser's reply is its best reply to what it saw
    g2 = dict(best.gambits)["blue"]
    replies = allowed(False, [g1], banned)
    assert g2 == best_gambit(SETUP, "blue", replies, {"red": g1}, banned)
    assert pair_odds(SETUP, {"red": g1, "blue": g2}).value("blue") == max(
        pair_odds(SETUP, {"red": g1, "blue": r}).value("blue") for r in replies)


def test_summary_lists_every_allowed_pair():
    s = odds_summary(SETUP)
    # 8 first gambits x 7 replies (not the same one, not Feint and Riposte) + Feint and Riposte x 8
    assert len(s["pairs"]) == 8 * 7 + 8
    for row in s["pairs"]:
        assert abs(row["win"]["red"] + row["win"]["blue"] + row["draw"] - 1.0) < 1e-9


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 7), st.integers(2, 7), st.integers(1, 3), st.integers(1, 3), st.integers(2, 6),
       st.sampled_from(GAMBIT_NAMES), st.sampled_from(GAMBIT_NAMES))
def test_odds_are_a_distribution(ws_a, ws_b, w_a, a_b, sv, g1, g2):
    if g1 == g2 or g2 == "Feint and Riposte":
        return
    setup = DuelSetup(("red", "blue"), {"red": D("red", ws=ws_a, w=w_a), "blue": D("blue", ws=ws_b, a=a_b, sv=sv)},
                      {"red": BLADE, "blue": BLADE}, support={"red": 1}, active="blue")
    o = pair_odds(setup, {"red": g1, "blue": g2})
    assert o.win["red"] + o.win["blue"] + o.draw == 1
    assert all(v >= 0 for v in o.points.values())
