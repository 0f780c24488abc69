"""Issue 9 (audit 9, finding 1): the fight odds weigh the fights an engaging consolidation
starts (fight-phase.txt 12.07-12.08), worked out by hand; and the test that decides where
the consolidation moves must be solved (``odds_consolidation``) says "could" when a fight
could follow and "cannot" when the geometry forbids it."""

from __future__ import annotations

import importlib
import tomllib
from fractions import Fraction
from pathlib import Path

from tabletop.board.mapfile import from_dict
from tabletop.geometry.consolidation_reach import can_end_engaged as _can_reach

odds_mod = importlib.import_module("tabletop.rules.fight_phase.odds")

# 32mm bases (radius 0.63"), engagement range 2".  Red's turn.  R charged and touches B (W1,
# no weapons).  C stands 8.74 - 4.98 - 1.26 = 2.5" from R: within 3", not engaged.
MAP = """
[map]
name = "one kill, one new foe"
ruleset = "fight-phase"
width = 24.0
depth = 18.0

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "R"
player = "red"
base = "32mm"
charged = true
profile = { T = 4, Sv = 6, W = 1 }
weapons = [{ name = "Blade", A = 1, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[8.74, 10]]

[[units]]
id = "B"
player = "blue"
base = "32mm"
profile = { T = 4, Sv = 6, W = 1 }
weapons = []
models = [[10, 10]]

[[units]]
id = "C"
player = "blue"
base = "32mm"
profile = { T = 4, Sv = 6, W = 5 }
weapons = [{ name = "Claw", A = 1, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[4.98, 10]]
"""


def loads(text: str):
    return from_dict(tomllib.loads(text))


def test_a_fight_started_by_an_engaging_consolidation_is_weighed():
    # R's one attack kills B: hits on 3+ (4/6), wounds S4 v T4 on 4+ (1/2), B's 6+ save fails
    # 5/6: 5/18.  B has no weapons.  Then R is not engaged, C (not selected to fight) is within
    # 3": R makes an engaging consolidation into C, and C fights at once (12.08 AFTER MOVING):
    # its one attack kills R (W1) with the same 5/18.  So P(R destroyed) = 5/18 x 5/18 =
    # 25/324 (0 while the odds stopped before Consolidation), P(B destroyed) = 5/18, and C
    # loses nothing.
    o = odds_mod.odds(loads(MAP))
    assert o["method"] == "exact"
    assert o["steps"] == ["fight", "consolidation"]
    got = {r["unit"]: r for r in o["units"]}
    assert Fraction(got["R"]["p_destroyed_exact"]) == Fraction(25, 324)
    assert Fraction(got["B"]["p_destroyed_exact"]) == Fraction(5, 18)
    assert got["C"]["p_destroyed"] == 0 and got["C"]["targets"] == ["R"]
    assert abs(got["C"]["expected_models_removed"] - 25 / 324) < 1e-12
    assert "over the whole phase" in o["text"]


def test_no_fight_when_c_is_out_of_reach():
    # C 5.5" away (8.74 - 1.98 - 1.26): R may not select it (beyond 3"), nothing is within 3"
    # once B is gone: R makes no engaging consolidation, and C never fights.
    o = odds_mod.odds(loads(MAP.replace("[[4.98, 10]]", "[[1.98, 10]]")))
    got = {r["unit"]: r for r in o["units"]}
    assert Fraction(got["R"]["p_destroyed_exact"]) == 0
    assert "C" not in got


def _m(x, y, r=0.63):
    return ((x, y, r, r),)


def test_can_reach_needs_a_point_closer_to_the_selected_unit_and_engaged_with_both():
    # U (r 0.63) at the origin; X 2.5" from its edge to the east (centre 3.76, 0).  Moving at
    # most 3", U must end closer to X and within 2" of it (single model: at the same point).
    x = [(_m(3.76, 0), 0.0)]
    # E 4.0" to the north-east beyond X: reachable (stand next to both)
    assert _can_reach(_m(0, 0), x, [(_m(5.0, 2.5), 0.0)], 3.0, 2.0)
    # E 4.0" to the west (centre -5.26): ending within 2" of it takes a move west, away from X
    assert not _can_reach(_m(0, 0), x, [(_m(-5.26, 0), 0.0)], 3.0, 2.0)
    # E 4.0" due north (centre 0, 5.26): within 2" of E means y >= 1.26 + ... the point must
    # also be within 2" of X's edge (centre within 3.26 of (3.76, 0)) and 3" of U: (2.2, 2.2)
    # is 3.11 from U - too far; none is within reach
    assert not _can_reach(_m(0, 0), x, [(_m(0, 6.5), 0.0)], 3.0, 2.0)
    # ... unless E may have moved 3" first (the active player's unit, U not)
    assert _can_reach(_m(0, 0), x, [(_m(0, 6.5), 3.0)], 3.0, 2.0)


def test_sampled_odds_run_consolidation_where_a_fight_can_follow():
    # the overrun lesson: R1 is destroyed only by C, a new foe its engaging consolidation
    # brings in (775/5832 exact); 400 sampled runs (each running Consolidation only when the
    # check says a fight can follow) agree within 4 standard errors, and the no-fight map
    # above samples R's 25/324 as well
    from tabletop.board.mapfile import load
    lesson = load(str(Path(__file__).resolve().parents[1] / "maps" / "lessons" / "overrun.toml"))
    for state, unit, exact in ((lesson, "R1", Fraction(775, 5832)), (loads(MAP), "R", Fraction(25, 324))):
        o = odds_mod.odds(state, exact=False, runs=400)
        got = {r["unit"]: r for r in o["units"]}[unit]["p_destroyed"]
        p = float(exact)
        assert abs(got - p) < 4 * (p * (1 - p) / 400) ** 0.5, (unit, got, p)


def test_runs_on_exact_odds_is_said_to_be_unused(capsys):
    # audit 9: `--odds --runs 5` on a map whose odds come out exact ignored --runs silently
    from tabletop.cli import main
    lesson = str(Path(__file__).resolve().parents[1] / "maps" / "lessons" / "overrun.toml")
    assert main(["fight", lesson, "--odds", "--runs", "5"]) == 0
    err = capsys.readouterr().err
    assert "tabletop fight: --runs 5: not used: the odds are exact" in err
    assert main(["fight", lesson, "--odds", "--runs", "5", "--sample"]) == 0
    assert "not used" not in capsys.readouterr().err


def test_engagements_list_the_pairs_joined_during_the_phase():
    # audit 9: R1 v C (the new foe C fights R1, 12.08) was missing from "engagements", so
    # R1's 13.3% showed only under B v R1
    o = odds_mod.odds(loads(MAP))
    got = {tuple(e["units"]): e for e in o["engagements"]}
    assert got[("B", "R")]["formed"] == "pile-in"
    joined = got[("C", "R")]
    assert joined["formed"] == "during the phase"
    assert abs(joined["p_wiped_out"]["R"] - 25 / 324) < 1e-12 and joined["p_wiped_out"]["C"] == 0
    assert "C v R: C 0.0%, R 7.7% (joined during the phase)" in o["text"]
