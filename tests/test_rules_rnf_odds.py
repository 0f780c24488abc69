"""Odds of a round from the same rules code (rules/rank_and_flank/odds.py), worked by hand.

a (red): one model, Skill 4, Wounds 2.  b (blue): one model, Skill 3,
Wounds 2.  Both Power 3, Defense 3, Attacks 1, Discipline 7, no ranks.
a hits on 3+ (Skill higher) and b saves on 4+: a wounds with 2/3 x 1/2 = 1/3.
b hits on 4+ and a saves on 4+: b wounds with 1/2 x 1/2 = 1/4.
Nobody dies (Wounds 2), so the side that wounds alone wins by 1:
  red wins 1/3 x 3/4 = 1/4, blue wins 2/3 x 1/4 = 1/6, tie 1/12 + 1/2 = 7/12.
The loser tests on 2D6 <= 7 + 0 - 1 = 6 (15 of 36): it breaks with 21/36 = 7/12,
so red loses and breaks 1/6 x 7/12 = 7/72, blue 1/4 x 7/12 = 7/48.
"""

from __future__ import annotations

from rnf_maps import rnf_map, unit

from tabletop.rules.rank_and_flank import odds as O
from tabletop.rules.rank_and_flank.round import BASE_ROUND_STEPS
from tabletop.rules.rank_and_flank.steps import PLAN, RoundStep


def duel_map():
    return rnf_map(unit("a", "red", (24, 24), 90, 1, 1, profile={"Skill": 4, "Wounds": 2}),
                   unit("b", "blue", (24, 24), 270, 1, 1, profile={"Wounds": 2}))


def test_exact_odds_worked_by_hand():
    r = O.engagement_odds(duel_map(), ["a", "b"])
    assert r["method"] == "exact"
    assert r["exact"]["win"] == {"red": "1/4", "blue": "1/6"}
    assert r["exact"]["tie"] == "7/12"
    assert r["exact"]["loser_breaks"] == {"red": "7/72", "blue": "7/48"}
    assert r["exact"]["breaks"] == {"a": "7/72", "b": "7/48"}


def test_monte_carlo_agrees_within_its_stated_error():
    r = O.engagement_odds(duel_map(), ["a", "b"], exact=False, runs=3000, seed=5)
    assert r["method"] == "monte carlo" and r["runs"] == 3000
    for got, se, want in ((r["win"]["red"], r["se"]["win"]["red"], 1 / 4),
                          (r["tie"], r["se"]["tie"], 7 / 12),
                          (r["loser_breaks"]["blue"], r["se"]["loser_breaks"]["blue"], 7 / 48)):
        assert abs(got - want) < 4 * se + 1e-9


def test_big_engagements_fall_back_to_a_stated_estimate():
    big = rnf_map(unit("a", "red", (24, 24), 90, 5, 4), unit("b", "blue", (24, 24), 270, 5, 4))
    r = O.engagement_odds(big, ["a", "b"], max_paths=50, runs=200)
    assert r["method"] == "monte carlo" and "states to weigh" in r["why"] and "se" in r
    text = O.format_odds([r])
    assert "Monte Carlo estimate, 200 runs" in text and "+/-" in text


def test_a_plan_row_after_who_attacks_sees_the_planned_round():
    from tabletop.geometry import snapshot
    from tabletop.rules.decisions import Decisions
    from tabletop.rules.rank_and_flank.round import plan_round
    seen = []

    def row(ctx):
        seen.append(sorted(a.model for a in ctx.attacks))
        ctx.excluded.add("a/1")          # e.g. a character refusing a challenge

    state = duel_map()
    steps = BASE_ROUND_STEPS + (RoundStep("test_row", PLAN, "test", "test", row),)
    ctx = plan_round(state, snapshot(state), ["a", "b"], Decisions([]), steps=steps)
    assert seen == [["a/1", "b/1"]] and ctx.excluded == {"a/1"}
    from tabletop.rules.rank_and_flank.round import roll_groups
    assert [m.model for ms in roll_groups(ctx).values() for m in ms] == ["b/1"]
