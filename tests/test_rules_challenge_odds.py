"""The gambit Challenge Sub-phase on the rules engine (gambit_rows): exact odds of a round
walked over the rows, against hand calculations and against the real resolver run many times
(seeded, 4 standard errors); probabilities summing to 1; a run replayed from its answers; the
Strike Step's order; where a duellist's Attacks and Strength come from."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

from challengekit import battlefield, events, harness, model, unit
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.board import mapfile
from tabletop.board.state import Decision
from tabletop.geometry import snapshot
from tabletop.rules.challenges.duellist import Weapon, duellist
from tabletop.rules.challenges.gambit import challenge_subphase
from tabletop.rules.challenges.gambit_rows import (
    GambitOnly,
    best_gambit,
    duel_start,
    machine,
    odds_summary,
    pair_odds,
    policy_pair,
    state_key,
)
from tabletop.rules.challenges.gambits import FLURRY, GUARD, SEIZE, TEST, allowed
from tabletop.rules.challenges.report import challenge_odds
from tabletop.rules.dice import Dice
from tabletop.rules.engine import driver, walk
from tabletop.rules.engine.machine import PhaseState
from tabletop.rules.events import EventLog

HERO = {"WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 8, "Sv": 3}
BLADE = [{"name": "Blade"}]


def lone_pair(red=None, blue=None, **kw):
    """Two lone champions in base contact (no outside support: their units leave with them)."""
    a = unit("a", "red", [model(10.0, 10.0, role="champion")], profile={**HERO, **(red or {})}, weapons=BLADE)
    b = unit("b", "blue", [model(10.0, 11.26, role="champion")], profile={**HERO, **(blue or {})},
             weapons=BLADE)
    return battlefield([a, b], **kw)


def start_of(s):
    return duel_start(s, tuple(snapshot(s).engagements[0]), "red", "a/1", "b/1")


def test_exact_odds_by_hand():
    # Focus: D6 + 4 each (Test the Foe keeps the Initiative): each takes the advantage half the time.
    # red, Guard Up: WS 5, one attack: hits 3+ (4/6), wounds 4+ (1/2), save 3+ fails 2/6: 1/9.
    # blue, Test the Foe: WS 4 v 5, one attack (no +1 for the advantage): 4+ (1/2) x 1/2 x 1/3 = 1/12.
    # red first: red wins 1/9; else blue wins 1/12.  blue first: blue wins 1/12; else red 1/9.
    # P(red) = 1/2 * 1/9 + 1/2 * 11/12 * 1/9 = 23/216; P(blue) = 1/2 * 8/9 * 1/12 + 1/2 * 1/12 = 17/216
    o = pair_odds(start_of(lone_pair()), {"red": GUARD, "blue": TEST})
    assert o.win == {"red": Fraction(23, 216), "blue": Fraction(17, 216)}
    assert o.draw == Fraction(176, 216)
    assert o.points == {"red": Fraction(23, 216), "blue": Fraction(17, 216)}   # base Wounds 1 each


def test_seize_the_initiative_by_hand():
    # red Seize the Initiative (highest of 2D6, + 4) v blue Guard Up (D6 + 4): P(red's kept > blue's)
    # = sum_k P(kept = k) (k - 1)/6 with P(kept = k) = (2k - 1)/36: 125/216; ties (sum (2k-1)/216 =
    # 36/216) re-rolled: red 125/180, blue 55/180.
    # red first: 2 attacks (A 1 + 1 for the advantage) v WS 5 (Guard Up): hits 4+, wounds 4+, save
    # 3+ fails 1/3: 1/12 each: red wins 1 - (11/12)^2 = 23/144; else blue strikes: one attack (Guard
    # Up), WS 5 v 4 hits 3+: 2/3 x 1/2 x 1/3 = 1/9.  blue first: blue wins 1/9; else red, now without
    # the advantage, makes its one attack: 1/12.
    o = pair_odds(start_of(lone_pair()), {"red": SEIZE, "blue": GUARD})
    pr, pb = Fraction(125, 180), Fraction(55, 180)
    red = pr * Fraction(23, 144) + pb * Fraction(8, 9) * Fraction(1, 12)
    blue = pr * Fraction(121, 144) * Fraction(1, 9) + pb * Fraction(1, 9)
    assert o.win == {"red": red, "blue": blue} and o.draw == 1 - red - blue


def _resolve(start, gambits, seed):
    """The real resolver: the rows driven from the Face-Off with seeded dice (each roll drawn as
    the sub-phase draws it), the gambits scripted, one round."""
    script = [Decision(p, "gambit", g) for p, g in gambits.items()]
    script += [Decision(p, "prolong", False) for p in ("red", "blue")]
    run = driver.run(machine(), start, dice=Dice(seed), scripted=script)
    ch = run.state.memo.challenge.challenges[-1]
    return ch.winner


def test_exact_odds_agree_with_the_real_resolver():
    s = lone_pair(red={"A": 2, "W": 2}, blue={"A": 2, "WS": 5})
    pair = {"red": SEIZE, "blue": FLURRY}
    start = start_of(s)
    exact = pair_odds(start, pair)
    runs = 1500
    seen: dict = {}
    for seed in range(runs):
        w = _resolve(start, pair, seed)
        seen[w] = seen.get(w, 0) + 1
    for who, p in (("red", exact.win["red"]), ("blue", exact.win["blue"]), (None, exact.draw)):
        got = seen.get(who, 0) / runs
        se = math.sqrt(float(p) * (1 - float(p)) / runs)
        assert abs(got - float(p)) <= 4 * max(se, 0.003), (who, got, float(p))


def test_walked_odds_agree_with_the_walks_own_monte_carlo():
    s = lone_pair(red={"A": 3}, blue={"A": 2, "W": 2})
    start = start_of(s)
    script = [Decision("red", "gambit", GUARD), Decision("blue", "gambit", FLURRY)]
    script += [Decision(p, "prolong", False) for p in ("red", "blue")]

    def out(st_):
        return st_.memo.challenge.challenges[-1].winner

    ex = walk.exact(machine(), start, outcome=out, key=state_key, scripted=script)
    assert sum(ex.dist.values()) == 1
    mc = walk.monte_carlo(machine(), start, outcome=out, scripted=script, seed=3, min_runs=500, max_runs=1000)
    for who, p in ex.dist.items():
        se = math.sqrt(float(p) * (1 - float(p)) / mc.runs)
        assert abs(mc.dist.get(who, 0.0) - float(p)) <= 4 * max(se, 0.003)


def test_policy_is_minimax_over_the_table():
    start = start_of(lone_pair())
    best, banned = policy_pair(start)
    g1 = dict(best.gambits)["red"]

    def worst(g):
        return min(pair_odds(start, {"red": g, "blue": r}).value("red") for r in allowed(False, [g], []))

    others = [g for g in allowed(True, [], []) if g != "Feint and Riposte"]
    if g1 != "Feint and Riposte":
        assert worst(g1) == max(worst(g) for g in others)
    g2 = dict(best.gambits)["blue"]
    replies = allowed(False, [g1], banned)
    assert g2 == best_gambit(start, "blue", replies, {"red": g1}, banned)


def test_summary_lists_every_allowed_pair():
    s = odds_summary(start_of(lone_pair()))
    # 8 first gambits x 7 replies (not the same one, not Feint and Riposte) + Feint and Riposte x 8
    assert len(s["pairs"]) == 8 * 7 + 8
    for row in s["pairs"]:
        assert abs(row["win"]["red"] + row["win"]["blue"] + row["draw"] - 1.0) < 1e-9


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 7), st.integers(2, 7), st.integers(1, 3), st.integers(1, 3), st.integers(2, 6),
       st.sampled_from(allowed(True, [], [])), st.sampled_from(allowed(False, [], [])))
def test_odds_are_a_distribution(ws_a, ws_b, w_a, a_b, sv, g1, g2):
    if g1 == g2:
        return
    s = lone_pair(red={"WS": ws_a, "W": w_a}, blue={"WS": ws_b, "A": a_b, "Sv": sv}, active="blue")
    o = pair_odds(start_of(s), {"red": g1, "blue": g2})
    assert o.win["red"] + o.win["blue"] + o.draw == 1
    assert all(v >= 0 for v in o.points.values())


def test_the_lesson_table_is_walked_exactly_and_sums_to_one():
    s = mapfile.load("maps/lessons/gambit-challenge.toml")
    rep = challenge_odds(s)
    (rec,) = rep["combats"]
    assert len(rec["pairs"]) == 64
    for row in rec["pairs"]:
        assert abs(row["win"]["red"] + row["win"]["blue"] + row["draw"] - 1.0) < 1e-9


def test_a_run_replayed_from_its_answers_gives_the_same_events():
    s = mapfile.load("maps/lessons/gambit-challenge.toml")
    first = EventLog()
    run = driver.run(machine(), PhaseState(s, GambitOnly(), "challenge"), dice=Dice(11, first), log=first)
    assert run.answers and any(a.choice == "gambit" for a in run.answers)

    def nobody(q):
        raise AssertionError(f"the replay asked {q.choice!r}")

    again = EventLog()
    replay = driver.run(machine(), PhaseState(s, GambitOnly(), "challenge"), dice=Dice(11, again),
                        scripted=run.answers, policy=nobody, log=again)
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in first.events]
    assert [st_.title for st_ in again.steps] == [st_.title for st_ in first.steps]
    assert replay.state.battlefield == run.state.battlefield


def test_the_advantage_holder_strikes_first_and_a_removed_model_does_not_strike():
    s = lone_pair(red={"A": 1}, blue={"W": 1})
    script = [("red", "issue_challenge", "a/1"), ("blue", "accept_challenge", "b/1"),
              ("red", "gambit", GUARD), ("blue", "gambit", SEIZE)]
    # Focus: red [6] + 4 = 10, blue [1, 1] + 4 = 5: red.  red 1 attack (Guard Up): hit [6], wound [6],
    # save [1]: blue (W 1) removed; blue does not strike: no dice left over.
    log, dice, dec = harness(s, [6, 1, 1, 6, 6, 1], script)
    _, sub = challenge_subphase(s, dice, dec, log)
    assert dice.remaining == []
    hits = [e["player"] for e in events(log, "roll") if e["purpose"] == "Hit Test"]
    assert hits == ["red"] and [e["model"] for e in events(log, "removed")] == ["b/1"]
    assert sub.challenges[0].winner == "red"


def test_attacks_come_from_the_profile_and_strength_from_the_hits():
    # gambit-challenge.txt reads the model's Attacks characteristic; a weapon's plain A (the
    # fight-phase format) counts only where the profile has none, or with gambit_attacks = "weapon".
    # Strength is the hits' (Finishing Blow: "the Strength and Damage characteristics of all hits"):
    # the weapon's plain S, else the model's S with the weapon's modifier.
    wp = {"name": "Axe", "A": 1, "S": 6, "AP": -1}
    s = battlefield(_units(wp))
    m = s.model("a/1")
    d = duellist(m, "red", s.unit("a"))
    axe = Weapon.from_dict(wp)
    assert (d.attacks_with(axe), d.strength_with(axe)) == (5, 6)
    old = duellist(m, "red", s.unit("a"), "weapon")
    assert (old.attacks_with(axe), old.strength_with(axe)) == (1, 6)
    plus = Weapon.from_dict({"name": "Sword", "A": "+1", "S": "x2"})
    assert (d.attacks_with(plus), d.strength_with(plus)) == (6, 8)
    assert (d.attacks_with(Weapon("Blade")), d.strength_with(Weapon("Blade"))) == (5, 4)
    bare = duellist(replace(m, profile={k: v for k, v in HERO.items() if k != "A"}), "red")
    assert bare.attacks_with(axe) == 1
    # and the map option reaches the Strike Step (red's Seize the Initiative adds no attack)
    s2 = battlefield(_units(wp), rules={"gambit_attacks": "weapon"})
    for bf, base in ((s, 5), (s2, 1)):
        log, _, dec = harness(bf, [], [("red", "issue_challenge", "a/1"), ("blue", "accept_challenge", "b/1"),
                                       ("red", "gambit", SEIZE), ("blue", "gambit", GUARD),
                                       ("red", "prolong", False), ("blue", "prolong", False)])
        challenge_subphase(bf, Dice(1, log), dec, log)
        prof = next(e for e in events(log, "strike_profile") if e["player"] == "red")
        advantage = "Challenge Advantage: +1 attack" in prof["notes"]
        assert (prof["A"], prof["S"]) == (base + advantage, 6)


def _units(wp):
    return [unit("a", "red", [model(10.0, 10.0, role="champion")], profile={**HERO, "A": 5}, weapons=[wp]),
            unit("b", "blue", [model(10.0, 11.26, role="champion")], profile=HERO)]
