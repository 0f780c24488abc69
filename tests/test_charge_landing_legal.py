"""A charge's landing and paths keep the charge's clauses (issue 10 item 1 (b)):
the table's edges bound paths and landings, the landing keeps out of engagement range
of enemy units that were not declared, and the unit ends in coherency
(measurements.csv 40K 10th Charge; 03.03).  Worked by hand below.

32mm bases: r = 32 / 25.4 / 2 = 0.629921"; two in base contact stand 2r = 1.259843"
centre to centre (the landing's ring adds tol / 2 = 0.01": 1.2698").  Engagement range
2" (11th preset), coherency 2" to one other model, 9" spread; tolerance 0.02".
"""

from __future__ import annotations

import math

from test_charge_plan import fp_map

from tabletop.board.mapfile import load as load_map
from tabletop.geometry import snapshot
from tabletop.rules.charge_plan import plan_charge

R = 32 / 25.4 / 2
TOL = 0.02


def _gap(a, b) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1]) - 2 * R


def test_a_path_may_not_leave_the_table(write_map):
    # A wall x 8..9 from the bottom edge (y 0) to y 10.  Charger (5, 2), target (12, 2).
    # Below the wall is off the table, so the path must go over its top (centre at y >= 10 + r):
    # at least (5,2)->(8,10.63) 9.137 + 1 + (9,10.63)->goal hypot(3, 8.63) - (2r + 2) = 9.137
    # - 3.26: 16.01" > 12, no 2D6 makes it.  (Before: the path went under the wall, off the
    # table, about 3.7".)
    wall = """
[[terrain]]
id = "wall"
kind = "impassable"
polygon = [[8, 0], [9, 0], [9, 10], [8, 10]]
"""
    path = fp_map(write_map, [("a", "red", [(5, 2)]), ("t", "blue", [(12, 2)])], terrain=wall)
    p = plan_charge(load_map(path), "a", ["t"], 1)
    row = p["targets"][0]
    assert row["needs"] is None or row["needs"] > 12.0
    assert p["probability"] == 0.0
    assert all(y >= R - 1e-6 for _, y in row["path"])


def test_the_landing_keeps_the_table(write_map):
    # Target (16, 1.0); chargers (11, 0.64) and (10, 0.64).  The first takes the contact spot
    # at 180 degrees, (14.73, 1.0).  For the second the nearest contact spot clear of it is at
    # 240 degrees, (15.37, -0.10): its base would reach y = -0.73, off the table, so it must
    # take one above instead (120 degrees, (15.37, 2.10), or further round).
    path = fp_map(write_map, [("a", "red", [(11, 0.64), (10, 0.64)]),
                              ("t", "blue", [(16, 1.0)])])
    p = plan_charge(load_map(path), "a", ["t"], 1, fight=False)
    for x, y in p["landing"].values():
        assert y - R >= -TOL and x - R >= -TOL
    assert p["landing_problems"] == []


def test_the_landing_keeps_out_of_range_of_an_undeclared_unit(write_map):
    # Charger (10, 20); target t (16, 20); n (16, 22.5) not declared.  The nearest contact
    # spot (14.73, 20) is hypot(1.27, 2.5) - 2r = 1.54" from n: within 2", not allowed.  A spot
    # below t, e.g. 240 degrees (15.37, 18.90), is hypot(0.63, 3.60) - 2r = 2.40" from n.
    path = fp_map(write_map, [("a", "red", [(10, 20)]), ("t", "blue", [(16, 20)]),
                              ("n", "blue", [(16, 22.5)])])
    p = plan_charge(load_map(path), "a", ["t"], 1, fight=False)
    at = p["landing"]["a/1"]
    assert _gap(at, (16, 22.5)) > 2.0 + TOL          # not within engagement range of n
    assert _gap(at, (16, 20)) <= 2.0 + TOL           # engaged with t
    assert p["landing_problems"] == [] and p["landing_legal"]


def test_the_landing_keeps_coherency(write_map):
    # Chargers a/1 (10, 20), a/2 (4, 20); target (16.5, 20).  a/1's gap 6.5 - 2r = 5.24",
    # needs 3.24": rolls 4..12; their median (3+4+5+6 = 18 of 33 by 7) is 7".  a/2 gets at most
    # 7" along, to (11, 20).  Were a/1 in base contact (x = 15.23) the gap between them would
    # be 4.23 - 2r = 2.97" > 2": out of coherency.  Legal: a/1 only within engagement range
    # (centre x >= 16.5 - (2r + 2) = 13.24) and within 2" of a/2 (x <= 11 + 2r + 2 = 14.26).
    path = fp_map(write_map, [("a", "red", [(10, 20), (4, 20)]), ("t", "blue", [(16.5, 20)])])
    state = load_map(path)
    p = plan_charge(state, "a", ["t"], 1, fight=False)
    assert p["landing_roll"]["inches"] == 7.0
    a1, a2 = p["landing"]["a/1"], p["landing"]["a/2"]
    assert _gap(a1, a2) <= 2.0 + TOL
    assert _gap(a1, (16.5, 20)) <= 2.0 + TOL
    assert math.hypot(a2[0] - 4, a2[1] - 20) <= 7.0 + TOL
    landed = state.with_positions({m: tuple(xy) for m, xy in p["landing"].items()})
    assert "a" not in snapshot(landed).coherency
    assert p["landing_problems"] == []


def test_no_fight_skips_the_preview(write_map, capsys):
    from tabletop.cli import main
    path = fp_map(write_map, [("a", "red", [(10, 20)]), ("t", "blue", [(16, 20)])])
    assert main(["charge", path, "a", "t", "--no-fight", "--json"]) == 0
    import json
    out = json.loads(capsys.readouterr().out)
    assert "fight" not in out and "landing" in out
