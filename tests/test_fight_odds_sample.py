"""``fight --odds --sample`` on a fight-phase map runs until the standard errors are under half a
percentage point (or a stated cap) and prints them; a figure never seen says so.

Issue 9 audit, finding 4: ``--sample`` stopped at 100 runs (about +/- 4 points), the count
distributions carried no standard error and a figure never seen printed "(no run)".
"""

from __future__ import annotations

import math

from fightkit import state_from, unit

from tabletop.rules.fight_phase.odds import SAMPLE_MAX_RUNS, TARGET_SE, format_odds, odds

# R (charged) touches B (32mm bases 1.26" apart).  R: one Blade attack, WS 3+, S4 v T4 (4+),
# AP0 v Sv 6+.  B has no weapons (A=0), W1.
UNITS = unit("R", "red", [(10, 10)], charged=True, A=1) + unit("B", "blue", [(11.26, 10)], A=0)


def test_sample_runs_until_the_standard_errors_are_under_half_a_point():
    got = odds(state_from(UNITS), exact=False)
    rows = {r["unit"]: r for r in got["units"]}
    # exact: P(B destroyed) = 2/3 x 1/2 x 5/6 = 10/36 = 0.2778; its standard error is under
    # 0.005 only past 0.2778 x 0.7222 / 0.005^2 = 8,025 runs (so far more than the old 100)
    n = got["runs"]
    assert 8_000 <= n < SAMPLE_MAX_RUNS
    assert got["max_se"] < TARGET_SE and got["stopped"].startswith("every probability's")
    p = rows["B"]["p_destroyed"]
    assert abs(p - 10 / 36) < 4 * math.sqrt((10 / 36) * (26 / 36) / n)
    # the count distribution carries its standard errors: R removes 1 model with p
    se = rows["R"]["models_removed_se"]["1"]
    assert abs(se - math.sqrt(p * (1 - p) / n)) < 1e-12
    text = format_odds(got)
    assert "stopped: every probability's standard error is under 0.5 percentage points" in text
    # R is never attacked (B has no weapons): 0 in every run, said so with the runs
    assert f"0.0% (not seen in {n:,} runs)" in text and "(no run)" not in text


def test_a_fixed_number_of_runs_says_so():
    got = odds(state_from(UNITS), exact=False, runs=50)
    assert got["runs"] == 50 and got["stopped"] == "50 runs asked for (--runs)"
