"""The Fight phase on the rules engine (issue 9): count chances worked by hand, replay, odds
against a seeded Monte Carlo of the real resolver, probabilities summing to 1.

The duel is ``test_rules_fight_odds``' : red R (charged, active) and blue B, one 32mm model each
in base contact, Blade WS3+ S4 AP0, T4, Sv 7 (no save), W1 unless said.
"""

from __future__ import annotations

import importlib
from fractions import Fraction

from fightkit import state_from, unit

from tabletop.rules.dice import Dice
from tabletop.rules.engine import driver
from tabletop.rules.fight_phase import fight, phase
from tabletop.rules.fight_phase.attacks import amount_dist, roll_dist
from tabletop.rules.fight_phase.profiles import DiceExpr

fp_odds = importlib.import_module("tabletop.rules.fight_phase.odds")


def _duel(weapon_r: str, w_b: int = 1, a_b: int = 1):
    red = unit("R", "red", [(10, 10)], charged=True, A=1, W=1, Sv=7).replace(
        'weapons = [{ name = "Blade", A = 1, WS = 3, S = 4, AP = 0, D = 1 }]', f"weapons = [{weapon_r}]")
    return state_from(red + unit("B", "blue", [(11.26, 10)], A=a_b, W=w_b, Sv=7))


def test_hit_roll_chance_is_the_joint_count_with_rerolls():
    # 1 die at 3+, re-roll failed: crit 1/6 + 2/6*1/6 = 8/36; plain hit 3/6 + 2/6*3/6 = 24/36
    d = dict(roll_dist(1, 3, 0, 6, "failed"))
    assert d == {(0, 0): Fraction(4, 36), (1, 0): Fraction(24, 36), (1, 1): Fraction(8, 36)}
    assert sum(dict(roll_dist(4, 3, 0, 6, "ones")).values()) == 1
    assert dict(amount_dist(DiceExpr(1, 3))) == {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}


def test_sustained_hits_d3_duel_is_exact():
    # R: A1 WS3+ with Sustained Hits D3 against a W3 B.  P(B destroyed) needs 3 wounds: only a
    # critical hit (1/6) with D3 = 2 or 3 extra hits (2/3 for >= 2), then every wound roll 4+.
    s = _duel('{ name = "Blade", A = 1, WS = 3, S = 4, AP = 0, D = 1, rules = ["Sustained Hits D3"] }',
              w_b=3, a_b=0)
    r = fp_odds.odds(s)
    assert r["method"] == "exact"
    b = next(row for row in r["units"] if row["unit"] == "B")
    # crit, D3=2: 3 wound rolls all 4+ (1/8); crit, D3=3: 4 rolls, >= 3 of 4 succeed (5/16)
    assert Fraction(b["p_destroyed_exact"]) == Fraction(1, 6) * (Fraction(1, 3) * Fraction(1, 8)
                                                                  + Fraction(1, 3) * Fraction(5, 16))


def test_a2_damage_d3_duel_is_exact_and_sums_to_one():
    s = _duel('{ name = "Blade", A = 2, WS = 3, S = 4, AP = 0, D = "D3" }', w_b=3, a_b=0)
    r = fp_odds.odds(s)
    assert r["method"] == "exact"
    for row in r["units"]:
        assert abs(sum(row["models_removed"].values()) - 1) < 1e-12
        assert abs(sum(row["wounds_caused"].values()) - 1) < 1e-12
    # B (W3) dies only when both attacks hit and wound (4/6*3/6 each = 1/9) and D3+D3 >= 3
    # (8/9), or one wounds with a 3 on its D3 (1/3): 1/9*8/9 + 2*(1/3*2/3)*1/3
    b = next(row for row in r["units"] if row["unit"] == "B")
    assert Fraction(b["p_destroyed_exact"]) == Fraction(1, 9) * Fraction(8, 9) \
        + 2 * Fraction(1, 3) * Fraction(2, 3) * Fraction(1, 3)


def test_a_run_replayed_from_its_answers_gives_the_same_events():
    s = _duel('{ name = "Blade", A = 3, WS = 3, S = 4, AP = 0, D = 1 }', w_b=2)
    first = fight(s, Dice(7))
    machine, start = phase(s)
    from tabletop.rules.events import EventLog
    log = EventLog()
    again = driver.run(machine, start, dice=Dice(7, log), scripted=first.extra["answers"], log=log)
    assert [e.to_dict() for e in log.events] == [e.to_dict() for e in first.log.events]
    assert again.state.battlefield == first.state


def test_exact_odds_agree_with_a_seeded_monte_carlo_of_the_resolver():
    s = _duel('{ name = "Blade", A = 2, WS = 3, S = 4, AP = 0, D = 1 }', w_b=2)
    exact = fp_odds.odds(s)
    p = next(row for row in exact["units"] if row["unit"] == "B")["p_destroyed"]
    runs = 600
    dead = sum(not fight(s, Dice(seed)).state.has_unit("B") for seed in range(runs))
    se = (p * (1 - p) / runs) ** 0.5
    assert abs(dead / runs - p) < 4 * se


def test_monte_carlo_says_why_and_one_run_has_no_standard_error():
    s = _duel('{ name = "Blade", A = 1, WS = 3, S = 4, AP = 0, D = 1 }')
    r = fp_odds.odds(s, runs=1, exact=False)
    assert r["method"] == "monte carlo" and r["why"]
    assert "fewer than 2 runs" in r["text"] and "+/- 0.00" not in r["text"]
    assert r["steps"] == ["fight", "consolidation"]
