"""40K: a charge path keeps out of the engagement range of enemy units that were not
declared targets (named default ``[rules] charge_avoid_undeclared`` = true, rules/charge.py
CHARGE_AVOID_UNDECLARED; measurements.csv 40K Charge: a charge may not end within it, and
a charging model may not move within it).  Worked by hand below.

32mm bases: r = 0.629921".  11th preset: engagement range 2", so a charger's centre keeps
more than rho = 2r + 2 = 3.259843" from an undeclared model's centre, and it is engaged
with a target model whose centre is within the same 3.259843".  2D6: P(>= 7) = 21/36,
P(>= 9) = 10/36 = 5/18.
"""

from __future__ import annotations

import math

from test_charge_plan import fp_map

from tabletop.board.mapfile import load as load_map
from tabletop.rules.charge_plan import plan_charge

R = 32 / 25.4 / 2
RHO = 2 * R + 2.0
TOL = 0.02

# c (10, 20) charges t (20, 20).  Undeclared n: a wall of 5 models at x = 15 from y = 20
# down to 14.8 (1.3" apart: nothing passes between them), 3.74" from both (not engaged).
WALL = [(15, 20), (15, 18.7), (15, 17.4), (15, 16.1), (15, 14.8)]
UNITS = [("c", "red", [(10, 20)]), ("t", "blue", [(20, 20)]), ("n", "blue", WALL)]


def _length(points) -> float:
    return sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(points, points[1:]))


def test_the_path_goes_round_the_undeclared_wall(write_map):
    # Round the top of the zone: the circle of radius rho about n/1 (15, 20), 5" from both
    # c's centre and t's.  Tangent from (10, 20): sqrt(25 - rho^2) = 3.7911, touching at
    # 180 - acos(rho / 5) = 180 - 49.31 = 130.69 degrees; along the circle to 49.31 degrees
    # (where the line to t's centre leaves it tangentially): 81.38 deg = 1.4203 rad x rho
    # = 4.6300; then straight towards t until within rho of it: 3.7911 - rho = 0.5313.
    # 3.7911 + 4.6300 + 0.5313 = 8.9524" (the arena's circles are polygons drawn round the
    # true circles, 0.5% wider: a few hundredths more).  Needs a 9: P = 10/36 = 5/18.
    # (Before: the path only went round n/1's base, 7.06" (next test): an 8, 5/12.)
    st = load_map(fp_map(write_map, UNITS))
    p = plan_charge(st, "c", ["t"], 1, fight=False)
    assert abs(p["needs"] - 8.9524) < 0.08
    assert p["needed"] == 9 and p["odds_fraction"] == "5/18"
    assert p["distance"] == round(p["needs"] + 2.0, 4)
    assert abs(_length(p["path"]) - p["needs"]) < 1e-3
    # every point of the path (its corners and each leg's points a tenth of an inch apart)
    # keeps more than the engagement range from every model of n
    pts = p["path"]
    for a, b in zip(pts, pts[1:]):
        n = max(1, int(math.hypot(b[0] - a[0], b[1] - a[1]) / 0.1))
        for k in range(n + 1):
            x, y = a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n
            assert min(math.hypot(x - wx, y - wy) for wx, wy in WALL) >= RHO - TOL
    assert p["path_warnings"] == []


def test_the_option_off_measures_past_them_and_warns(write_map):
    # charge_avoid_undeclared = false: round n/1's base only, the circle of radius 2r =
    # 1.2598 about (15, 20): tangent sqrt(25 - 2r^2) = 4.8387 (touching at 180 - acos(2r / 5)
    # = 104.60 degrees), along it to 75.40 degrees (29.19 deg = 0.5095 rad x 2r = 0.6419),
    # tangent on towards t's centre 4.8387 less rho: 1.5789.  7.0595": an 8 (P 15/36 = 5/12).
    # Its end: from the tangent point (15 + 2r cos 75.40, 20 + 2r sin 75.40) = (15.318, 21.219)
    # towards (20, 20), rho short of it: (16.846, 20.821), hypot(1.846, 0.821) - 2r = 0.76"
    # from n/1: within engagement range of n, so the end is warned about
    st = load_map(fp_map(write_map, UNITS, rules="charge_avoid_undeclared = false"))
    p = plan_charge(st, "c", ["t"], 1, landing=False)
    assert abs(p["needs"] - 7.0595) < 0.03 and p["needed"] == 8 and p["odds_fraction"] == "5/12"
    assert any("n, which was not declared" in w for w in p["path_warnings"])


def test_no_path_round_them_keeps_the_warning(write_map):
    # n is a wall across the whole 40" table at x = 15, models 3" apart (y 0.65 .. 39.65):
    # a base passes between two of them (3 - 2r = 1.74" > 2r) but their zones (radius
    # rho = 3.26 > 3 / 2) overlap and reach both edges, so no path keeps out of them;
    # path_warnings says so (the way past them is warned about) and there are no odds
    wall = [(15, 0.65 + 3 * k) for k in range(14)]
    st = load_map(fp_map(write_map, [("c", "red", [(10, 20)]), ("t", "blue", [(20, 20)]),
                                     ("n", "blue", wall)]))
    p = plan_charge(st, "c", ["t"], 1, landing=False)
    assert p["probability"] == 0.0 and p["needs"] is None
    assert p["path_warnings"] and "keeps out of the engagement range of n" in p["path_warnings"][0]
