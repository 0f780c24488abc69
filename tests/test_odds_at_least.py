""""At least k" figures and rank-and-flank per-unit losses (issue 9 item 3), worked by hand.

The derivation (rules/odds_summary.py) is checked on its own; the fight-phase duel is
tests/test_rules_fight_odds.py's (R and B, one model each, W1: P(B removed) = 1/3,
P(R removed) = 2/3 * 1/3 = 2/9); the rank-and-flank duel is tests/test_rules_rnf_odds.py's
with Wounds 1 instead of 2 (a wounds b with 2/3 x 1/2 = 1/3, b wounds a with 1/2 x 1/2 =
1/4; the blows are struck simultaneously, so each model's loss is its foe's wound alone).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from fightkit import state_from
from fightkit import unit as fp_unit
from rnf_maps import rnf_map, unit

from tabletop.cli import main
from tabletop.rules.fight_phase import odds as fight_odds
from tabletop.rules.odds_summary import at_least, at_least_keys, at_least_line, text_thresholds
from tabletop.rules.rank_and_flank import odds as O


def test_at_least_of_a_three_model_distribution():
    d = {0: Fraction(1, 2), 1: Fraction(1, 4), 2: Fraction(1, 8), 3: Fraction(1, 8)}
    # at least 1 = 1 - P(0) = 1/2; at least 2 = 1/8 + 1/8 = 1/4; at least 3 = 1/8
    assert at_least(d, 3) == {1: Fraction(1, 2), 2: Fraction(1, 4), 3: Fraction(1, 8)}
    keys = at_least_keys("models_lost", d, 3, exact=True)
    assert keys["models_lost_at_least"] == {"1": 0.5, "2": 0.25, "3": 0.125}
    assert keys["models_lost_at_least_exact"] == {"1": "1/2", "2": "1/4", "3": "1/8"}
    # up to n past the largest count seen: the tail there is 0
    assert at_least({0: Fraction(1, 2), 1: Fraction(1, 2)}, 3) == {1: Fraction(1, 2), 2: 0, 3: 0}
    # sampled: floats, with the standard error sqrt(p(1-p)/runs): sqrt(.25/100) = 0.05 at p 1/2
    mc = at_least_keys("x", {0: 0.5, 1: 0.5}, 1, exact=False, runs=100)
    assert mc["x_at_least"] == {"1": 0.5} and abs(mc["x_at_least_se"]["1"] - 0.05) < 1e-12


def test_text_line_reads_one_half_and_all():
    assert text_thresholds(5) == [1, 3, 5]       # half of 5 rounded up: 3
    assert text_thresholds(1) == [1]
    tail = {"1": 0.78, "2": 0.5, "3": 0.22, "4": 0.1, "5": 0.04}
    assert at_least_line(tail, 5) == "at least 1 lost 78.0%, half (3) 22.0%, all 5 4.0%"
    assert at_least_line({"1": 0.0}, 1) == "no model lost"


def test_fight_phase_duel_at_least_one_is_destroyed():
    r = fight_odds(state_from(fp_unit("R", "red", [(10, 10)], charged=True, A=1, W=1, Sv=7)
                              + fp_unit("B", "blue", [(11.26, 10)], A=1, W=1, Sv=7)))
    rows = {row["unit"]: row for row in r["units"]}
    # a one-model unit: at least 1 lost is being destroyed: B 1/3, R 2/9
    assert rows["B"]["models_lost_at_least_exact"] == {"1": "1/3"} == \
        {"1": rows["B"]["p_destroyed_exact"]}
    assert rows["R"]["models_lost_at_least_exact"] == {"1": "2/9"}
    assert rows["R"]["models_lost_at_least"] == {"1": 2 / 9}
    # R wounds B (1 wound) with 1/3: at least 1 wound caused 1/3
    assert rows["R"]["wounds_caused_at_least_exact"] == {"1": "1/3"}
    assert "R  at least 1 lost 22.2%" in r["text"]         # 2/9 = 22.2%


def rnf_duel():
    return rnf_map(unit("a", "red", (24, 24), 90, 1, 1, profile={"Skill": 4, "Wounds": 1}),
                   unit("b", "blue", (24, 24), 270, 1, 1, profile={"Wounds": 1}))


def test_rank_and_flank_models_lost_worked_by_hand():
    r = O.engagement_odds(rnf_duel(), ["a", "b"])
    assert r["method"] == "exact"
    # a hits on 3+ (4/6) and b saves on 4+ (fails 1/2): b loses its model with 1/3;
    # b hits on 4+ (1/2), a saves on 4+ (fails 1/2): a loses its model with 1/4
    assert r["exact"]["models_lost"] == {"a": {"0": "3/4", "1": "1/4"},
                                         "b": {"0": "2/3", "1": "1/3"}}
    assert r["exact"]["p_destroyed"] == {"a": "1/4", "b": "1/3"}
    assert r["exact"]["models_lost_at_least"] == {"a": {"1": "1/4"}, "b": {"1": "1/3"}}
    assert r["models_lost"]["b"] == {"0": 2 / 3, "1": 1 / 3}
    assert r["p_destroyed"] == {"a": 0.25, "b": 1 / 3}
    assert r["models"] == {"a": 1, "b": 1}
    text = O.format_odds([r])
    assert "  a: at least 1 lost 25.0%" in text and "  b: at least 1 lost 33.3%" in text


def test_rank_and_flank_monte_carlo_losses_within_their_error():
    r = O.engagement_odds(rnf_duel(), ["a", "b"], exact=False, runs=3000, seed=5)
    assert r["method"] == "monte carlo"
    got, se = r["p_destroyed"]["b"], r["se"]["p_destroyed"]["b"]
    assert abs(got - 1 / 3) < 4 * se + 1e-9
    assert r["models_lost_at_least"]["b"]["1"] == got


def test_rank_and_flank_json_has_per_unit_losses(capsys):
    path = str(Path(__file__).resolve().parents[1] / "maps" / "lessons" / "surrounded.toml")
    assert main(["fight", path, "--odds", "--json"]) == 0
    e = json.loads(capsys.readouterr().out)["engagements"][0]
    for u in e["units"]:
        dist = e["models_lost"][u]
        assert abs(sum(dist.values()) - 1) < 1e-9
        assert set(e["models_lost_at_least"][u]) == {str(k) for k in range(1, e["models"][u] + 1)}
        assert e["p_destroyed"][u] == e["models_lost_at_least"][u][str(e["models"][u])]
        assert Fraction(e["exact"]["p_destroyed"][u]) == Fraction(
            e["exact"]["models_lost_at_least"][u][str(e["models"][u])])


def test_one_chance_reads_the_same_on_every_line_of_the_report():
    # issue 11 leftover: a small chance printed 0.5% in a table and 1% in an "at least" line
    # (0.0054: one decimal there, whole percents here).  Every line now prints one decimal
    # (odds_summary.short_pct), and says "<0.05%" / ">99.95%" for a chance that rounds to
    # 0.0 or 100.0 without being it
    from tabletop.rules.challenges.report import _pct as challenge_pct
    from tabletop.rules.fight_phase.odds import _dist_text
    from tabletop.rules.fight_phase.odds import _pct as fight_pct
    from tabletop.rules.odds_summary import short_pct
    from tabletop.rules.rank_and_flank.odds import _pct as rnf_pct

    p = 0.0054                                          # 0.54% -> 0.5% everywhere
    assert short_pct(p) == "0.5%"
    assert at_least_line({"1": 0.5, "2": p}, 2) == "at least 1 lost 50.0%, all 2 0.5%"
    assert _dist_text({"0": 1 - p, "1": p}) == "0:99.5% 1:0.5%"     # 1 - 0.0054 = 0.9946
    assert fight_pct(p, None).strip() == rnf_pct(p).strip() == challenge_pct(p).strip() == "0.5%"
    assert short_pct(0.0004) == "<0.05%" and short_pct(0.9996) == ">99.95%"
    assert short_pct(0.0) == "0.0%" and short_pct(1.0) == "100.0%"
    assert short_pct(0.25, 6) == " 25.0%"               # the tables' column width
