"""Fight odds from the phase's own code (rules/fight_phase/odds.py), worked by hand.

The duel: red R (active, charged) and blue B, one 32mm model each in base contact
(centres 1.26" apart), each a Blade A1 WS3+ S4 AP0 D1, T4, W1, Sv 7 (a save
needing 7+ is not rolled: attacks.py SAVE_ROLL).  Red is the player whose turn
it is, so red selects first (fight-phase.txt 12.04 (2)); R hits on 3+ (4/6) and
wounds S4 v T4 on 4+ (3/6): P(B removed) = 4/6 * 3/6 = 1/3.  If B lives (2/3)
it fights back the same way: P(R removed) = 2/3 * 1/3 = 2/9.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from fightkit import HEADER, state_from, unit

from tabletop.cli import main
from tabletop.rules.fight_phase import odds as fight_odds
from tabletop.rules.fight_phase.odds import format_odds
from tabletop.rules.registry import find_ruleset

LESSON = str(Path(__file__).resolve().parents[1] / "maps" / "lessons/pile-in.toml")
DUEL_UNITS = unit("R", "red", [(10, 10)], charged=True, A=1, W=1, Sv=7) \
    + unit("B", "blue", [(11.26, 10)], A=1, W=1, Sv=7)


def duel():
    return state_from(DUEL_UNITS)


def test_exact_kill_odds_worked_by_hand():
    r = fight_odds(duel())
    assert r["method"] == "exact" and r["runs"] is None
    rows = {row["unit"]: row for row in r["units"]}
    assert Fraction(rows["B"]["p_destroyed_exact"]) == Fraction(4, 6) * Fraction(3, 6)   # 1/3
    assert Fraction(rows["R"]["p_destroyed_exact"]) == Fraction(2, 3) * Fraction(1, 3)   # 2/9
    assert rows["R"]["models_removed"] == {"0": 2 / 3, "1": 1 / 3}
    assert rows["R"]["targets"] == ["B"] and rows["B"]["targets"] == ["R"]
    assert r["engagements"] == [{"units": ["B", "R"], "p_wiped_out": {"B": 1 / 3, "R": 2 / 9},
                                 "formed": "pile-in"}]


def test_monte_carlo_kill_odds_within_three_standard_errors():
    r = fight_odds(duel(), runs=2000, seed=3, exact=False)
    assert r["method"] == "monte carlo" and r["runs"] == 2000
    b = next(row for row in r["units"] if row["unit"] == "B")
    se = b["p_destroyed_se"]
    assert 0 < se < 0.02        # sqrt(1/3 * 2/3 / 2000) = 0.0105
    assert abs(b["p_destroyed"] - 1 / 3) < 3 * se


def test_fixed_save_and_two_wounds_by_hand():
    """Sv 4+ against AP0: R's kill is 4/6 * 3/6 * 3/6 (the save fails on 1-3) = 1/6;
    a 2-wound B is never removed by one D1 attack, wounded with the same 1/6."""
    s = state_from(unit("R", "red", [(10, 10)], charged=True, A=1, W=1, Sv=4)
                   + unit("B", "blue", [(11.26, 10)], A=0, W=2, Sv=4))
    r = fight_odds(s)
    rows = {row["unit"]: row for row in r["units"]}
    assert r["method"] == "exact"
    assert rows["R"]["wounds_caused"] == {"0": 5 / 6, "1": 1 / 6}
    assert rows["B"]["p_destroyed"] == 0 and rows["R"]["expected_models_removed"] == 0


def test_units_neither_engaged_nor_charged_are_left_out():
    s = state_from(DUEL_UNITS + unit("N", "blue", [(20, 15)]))
    assert [row["unit"] for row in fight_odds(s)["units"]] == ["R", "B"]
    assert find_ruleset("fight-phase").odds is fight_odds


def test_text_names_method_and_units():
    text = format_odds(fight_odds(duel(), runs=50, exact=False))
    assert "Monte Carlo, 50 runs from seed 1" in text and "+/-" in text
    assert "B v R: B" in text and "P(destroyed)" in text


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_prints_the_table_on_the_pile_in_lesson(capsys):
    code, out, err = run(capsys, "fight", LESSON, "--odds", "--runs", "30")
    assert code == 0, err
    # the lesson is small enough to weigh exactly: --runs is for when it is not
    assert "Fight odds" in out and "P(destroyed)" in out and "exact" in out
    assert "intercessors" in out and "boyz v intercessors" in out


def test_cli_json_shape(write_map, capsys):
    path = write_map(HEADER.format(rules="") + DUEL_UNITS)
    code, out, _ = run(capsys, "fight", path, "--odds", "--json")
    assert code == 0
    d = json.loads(out)
    # no [rules] challenges: the phase's table has no Challenge Sub-phase or Resolution rows
    # (issue 9 item 1), so every history runs the Fight step and Consolidation only
    assert d["method"] == "exact" and d["steps"] == ["fight", "consolidation"]
    row = d["units"][1]
    assert set(row) >= {"unit", "player", "charged", "models", "targets", "expected_models_lost",
                        "p_destroyed", "expected_models_removed", "expected_wounds_caused",
                        "models_removed", "wounds_caused"}
    assert abs(row["p_destroyed"] - 1 / 3) < 1e-12
    assert d["engagements"][0]["units"] == ["B", "R"]


def test_cli_runs_must_be_positive(write_map, capsys):
    code, _, err = run(capsys, "fight", write_map(HEADER.format(rules="") + DUEL_UNITS), "--odds",
                       "--runs", "0")
    assert code == 2 and "--runs 0" in err


def test_two_engagements_exact_with_the_order_one_gives_the_other():
    """Two duels far apart, nobody charged: red (active) selects first (12.04), R before R2
    (file order), then blue, alternating.  Duel 1 as the module docstring: P(B removed) =
    1/3, P(R removed) = 2/3 * 1/3 = 2/9.  Duel 2 depends on duel 1: blue's first pick is B
    when B lives (2/3), and then R2 strikes before B2; when R killed B (1/3) blue's first
    pick is B2, which strikes first.  P(B2 removed) = 2/3 * 1/3 + 1/3 * (2/3 * 1/3) = 8/27;
    P(R2 removed) = 2/3 * (2/3 * 1/3) + 1/3 * 1/3 = 7/27.  The engagements are walked as
    parts (engine.walk.exact_parts) and must still see that."""
    s = state_from(unit("R", "red", [(10, 10)], A=1, W=1, Sv=7)
                   + unit("B", "blue", [(11.26, 10)], A=1, W=1, Sv=7)
                   + unit("R2", "red", [(30, 30)], A=1, W=1, Sv=7)
                   + unit("B2", "blue", [(31.26, 30)], A=1, W=1, Sv=7))
    r = fight_odds(s)
    assert r["method"] == "exact"
    rows = {row["unit"]: Fraction(row["p_destroyed_exact"]) for row in r["units"]}
    assert rows == {"B": Fraction(1, 3), "R": Fraction(2, 9), "B2": Fraction(8, 27),
                    "R2": Fraction(7, 27)}


def test_exact_flag_needs_odds_and_lifts_the_bound(write_map, capsys, monkeypatch):
    path = write_map(HEADER.format(rules="") + DUEL_UNITS)
    code, _, err = run(capsys, "fight", path, "--exact")
    assert code == 2 and "--exact: only with --odds" in err
    # with the usual bound at 0 states the duel is sampled; --exact weighs it (1/3 by hand)
    import importlib
    monkeypatch.setattr(importlib.import_module("tabletop.rules.fight_phase.odds"), "MAX_STATES", 0)
    code, out, _ = run(capsys, "fight", path, "--odds", "--json")
    assert json.loads(out)["method"] == "monte carlo"
    code, out, _ = run(capsys, "fight", path, "--odds", "--exact", "--json")
    d = json.loads(out)
    assert d["method"] == "exact"
    assert Fraction(next(r for r in d["units"] if r["unit"] == "B")["p_destroyed_exact"]) == Fraction(1, 3)


def test_odds_flags_that_do_not_go_together_are_refused(write_map, capsys):
    path = write_map(HEADER.format(rules="") + DUEL_UNITS)
    for argv, says in ((["--runs", "5"], "--runs: only with --odds"),
                       (["--sample"], "--sample: only with --odds"),
                       (["--odds", "--exact", "--sample"], "give one"),
                       (["--odds", "-o", "out.toml"], "-o: not with --odds"),
                       (["--odds", "--frames", "fr"], "--frames: not with --odds")):
        code, _, err = run(capsys, "fight", path, *argv)
        assert code == 2 and says in err and "Traceback" not in err, (argv, err)


def test_sample_skips_the_exact_walk(write_map, capsys):
    path = write_map(HEADER.format(rules="") + DUEL_UNITS)
    code, out, _ = run(capsys, "fight", path, "--odds", "--sample", "--runs", "40", "--json")
    d = json.loads(out)
    assert code == 0 and d["method"] == "monte carlo" and d["runs"] == 40
    assert "--sample" in d["why"]


def test_tiny_chances_are_not_printed_as_nothing():
    from tabletop.rules.fight_phase.odds import _dist_text
    # one decimal, as every line of the report (odds_summary.short_pct): 1/1000 is 0.1%;
    # 1/10,000 rounds to 0.0% and 0.9998 to 100.0%: said as what they are
    assert _dist_text({"0": 0.998, "1": 0.001, "2": 0.001, "3": 0.0}) == "0:99.8% 1:0.1% 2:0.1% 3:0.0%"
    assert _dist_text({"0": 0.9998, "1": 0.0001, "2": 0.0001}) == "0:>99.95% 1:<0.05% 2:<0.05%"
    assert _dist_text({"0": 0.25, "1": 0.75}) == "0:25.0% 1:75.0%"
