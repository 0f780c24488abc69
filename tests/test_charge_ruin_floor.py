"""An infantry charge lands on the floor of a ruin tall all over (issue 10 item 1, the
landing-fix audit; named default CHARGE_WALLS_MAX_SHARE, [rules] charge_walls_max_share).

32mm bases: r = 0.629921", 2r = 1.259843".  Fight-phase 11th: engagement range 2".
A ruin x 20..26, y 10..30 whose ``tall_part`` is its whole footprint (tall all over, as the
published layouts draw many ruins): infantry crosses it (charge_ruin_walls "non-infantry").
Charger a/1 (28, 20), a/2 (28, 21.3) (edge gap 1.3 - 2r = 0.04": in coherency); target
t/1 (18.5, 20), west of the ruin.  Straight path a/1 -> t/1 across the ruin floor: gap
28 - 18.5 - 2r = 8.240157"; the roll must reach 8.240157 - 2 = 6.240157": needs 7,
P(2D6 >= 7) = 21/36 = 7/12.  Going round the ruin (it spans y 10..30) is longer than 12".
The landing rolls the median of 7..12 (8").  Base contact east of t/1 (centre x 19.76) is
8.24" away, past 8"; a spot off the ruin within 2" of t/1 has its centre at x <= 20 - r =
19.37 and at least 2r from t/1's centre, over 8.6" from (28, 20) even going straight: every
spot the roll reaches within 2" of t/1 stands on the ruin's floor (centre x 20.76..21.76).
"""

from __future__ import annotations

import pytest
from test_charge_plan import R, fp_map

from tabletop.board.mapfile import load as load_map
from tabletop.rules.charge_plan import plan_charge

RUIN = """
[[terrain]]
id = "ruin"
kind = "ruin"
polygon = [[20, 10], [26, 10], [26, 30], [20, 30]]
tall_part = [[20, 10], [26, 10], [26, 30], [20, 30]]
"""
TOL = 0.02
UNITS = [("a", "red", [(28, 20), (28, 21.3)]), ("t", "blue", [(18.5, 20)])]


def _gap_to_t(x, y) -> float:
    return ((x - 18.5) ** 2 + (y - 20) ** 2) ** 0.5 - 2 * R


def test_infantry_lands_on_the_floor_of_a_ruin_tall_all_over(write_map):
    p = plan_charge(load_map(fp_map(write_map, UNITS, terrain=RUIN)), "a", ["t"], 1,
                    fight=False)
    assert p["distance"] == pytest.approx(28 - 18.5 - 2 * R, abs=1e-3)   # 8.240157"
    assert p["needed"] == 7 and p["odds_fraction"] == "7/12"            # 6.24" -> 7; 21/36
    assert p["landing_legal"], p["landing_problems"]
    x1, y1 = p["landing"]["a/1"]
    assert _gap_to_t(x1, y1) <= 2.0 + TOL                               # engaged with t
    assert 20 < x1 - R and x1 + R < 26                                  # wholly on the floor
    # the charge path runs straight west across the ruin floor: (28, 20) to the point
    # 2" + 2r from t/1's centre, (18.5 + 2 + 2r, 20) = (21.7598, 20)
    assert p["path"] == [[28.0, 20.0], [pytest.approx(21.7598, abs=1e-3), 20.0]]
    # a/1's landing path enters the ruin (x 26) and ends inside it
    lp = p["landing_paths"]["a/1"]
    assert lp[0] == [28.0, 20.0] and 20 < lp[-1][0] < 26
    for mid in ("a/1", "a/2"):                                          # engaged or cohering
        x, y = p["landing"][mid]
        other = p["landing"]["a/2" if mid == "a/1" else "a/1"]
        apart = ((x - other[0]) ** 2 + (y - other[1]) ** 2) ** 0.5 - 2 * R
        assert _gap_to_t(x, y) <= 2.0 + TOL or apart <= 2.0 + TOL


def test_a_map_may_keep_landings_off_a_ruin_tall_all_over(write_map):
    # charge_walls_max_share = 1.0: the whole footprint counts as walls again, and no spot
    # within 2" of t/1 is reached off it (round the ruin is over 12"): no legal landing
    path = fp_map(write_map, UNITS, terrain=RUIN, rules="charge_walls_max_share = 1.0")
    p = plan_charge(load_map(path), "a", ["t"], 1, fight=False)
    assert p["needed"] == 7
    assert not p["landing_legal"]
    assert any("not engaged" in s for s in p["landing_problems"])
