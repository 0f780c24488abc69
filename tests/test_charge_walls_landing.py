"""An infantry charge crosses a ruin's walls but does not end on them (issue 10, audit-uses
finding 8; named default CHARGE_LAND_ON_WALLS, [rules] charge_land_on_walls = false).

32mm bases: r = 0.629921"; the landing ring round a target sits 2r + tol/2 = 1.2698" from its
centre.  Charger a/1 (10, 20), infantry; target t/1 (16.3, 20): gap 6.3 - 2r = 5.04", the roll
must reach 3.04" (2" engagement range): rolls 4..12; their median (3+4+5+6 = 18 of 33) is 7",
enough for base contact (5.03" along the straight line).  A ruin (x 13..18, y 16..24) has
its wall, tall_part, at x 14.5..15, y 17..23: infantry passes it (charge_ruin_walls
"non-infantry").  The nearest contact spot is west of t: (16.3 - 1.2698, 20) = (15.03, 20),
whose base spans x 14.40..15.66: on the wall.
"""

from __future__ import annotations

from test_charge_plan import R, fp_map

from tabletop.board.mapfile import load as load_map
from tabletop.rules.charge_plan import plan_charge

RUIN = """
[[terrain]]
id = "ruin"
kind = "ruin"
polygon = [[13, 16], [18, 16], [18, 24], [13, 24]]
tall_part = [[14.5, 17], [15, 17], [15, 23], [14.5, 23]]
"""
TOL = 0.02


def _on_wall(x, y) -> bool:
    """The 32mm base at (x, y) overlaps the wall x 14.5..15, y 17..23 by more than the
    tolerance (its bounding square is enough here: the landing spots lie level with the
    wall or beyond its ends)."""
    return (x + R > 14.5 + TOL and x - R < 15 - TOL and y + R > 17 + TOL and y - R < 23 - TOL)


def test_the_landing_keeps_off_the_wall(write_map):
    path = fp_map(write_map, [("a", "red", [(10, 20)]), ("t", "blue", [(16.3, 20)])],
                  terrain=RUIN)
    p = plan_charge(load_map(path), "a", ["t"], 1, fight=False)
    assert p["needed"] == 4 and p["landing_roll"]["inches"] == 7.0
    x, y = p["landing"]["a/1"]
    assert not _on_wall(x, y), (x, y)
    assert ((x - 16.3) ** 2 + (y - 20) ** 2) ** 0.5 - 2 * R <= 2.0 + TOL      # engaged with t
    assert p["landing_legal"]


def test_a_map_may_let_models_end_on_walls(write_map):
    path = fp_map(write_map, [("a", "red", [(10, 20)]), ("t", "blue", [(16.3, 20)])],
                  rules="charge_land_on_walls = true", terrain=RUIN)
    p = plan_charge(load_map(path), "a", ["t"], 1, fight=False)
    x, y = p["landing"]["a/1"]
    # the nearest contact spot, (15.03, 20), on the wall
    assert abs(x - (16.3 - 2 * R - TOL / 2)) < 1e-3 and abs(y - 20) < 1e-3
    assert _on_wall(x, y)
