"""A charge against several spread targets (issue 10 item 1 leftovers, 1): the landing
search grows the unit from the first target it engages towards the targets still left,
so it finds a landing that needs the unit to spread (measurements.csv 40K Charge: end
engaged with every target, in coherency; 03.03).

32mm bases: r = 0.629921", two in base contact 2r = 1.259843" centre to centre.
11th preset: engagement range 2" (centres within 2r + 2 = 3.26"), coherency 2" to one
other model (centres within 3.26"), every model within 9" of every other; tol 0.02".
"""

from __future__ import annotations

import math

from test_charge_plan import fp_map

from tabletop.board.mapfile import load as load_map
from tabletop.rules.charge_plan import landing_problems, plan_charge

R = 32 / 25.4 / 2
TOL = 0.02

# Charger a: a column at x = 16 (y 3.35 .. 8.75).  A friendly unit f (a column at x = 11,
# y 2 .. 7.2, bases 0.04" apart: nothing passes between them) stands between it and its two
# targets, t1 (8.74, 2) and t2 (8.74, 8): 6" apart.
UNITS = [("a", "red", [(16, 3.35), (16, 4.7), (16, 6.05), (16, 7.4), (16, 8.75)]),
         ("f", "red", [(11, 2), (11, 3.3), (11, 4.6), (11, 5.9), (11, 7.2)]),
         ("t1", "blue", [(8.74, 2)]), ("t2", "blue", [(8.74, 8)])]

# A landing worked by hand (each model moves at most 7", the landing roll):
#   a/1 -> (10.0, 0.70): t1 gap hypot(1.26, 1.30) - 2r = 0.55 <= 2 (engaged); f/1 centre
#          hypot(1.0, 1.3) = 1.64 >= 2r; path (16,3.35)->(11.9,0.9)->(10,0.7) = 4.78 + 1.91
#          = 6.69 <= 7 (clears f/1: hypot(0.9, 1.1) = 1.42 >= 2r)
#   a/2 -> (12.3, 1.6): a/1 gap hypot(2.3, 0.9) - 2r = 1.21 <= 2; moves hypot(3.7, 3.1) = 4.83
#   a/3 -> (12.3, 4.2): a/2 gap 2.6 - 2r = 1.34; f/3 hypot(1.3, 0.4) = 1.36 >= 2r; moves 4.14
#   a/4 -> (12.3, 6.8): a/3 gap 1.34; f/5 1.36, f/4 hypot(1.3, 0.9) = 1.58; moves 3.75
#   a/5 -> (10.4, 8.9): t2 gap hypot(1.66, 0.9) - 2r = 0.63 <= 2 (engaged); f/5 hypot(0.6, 1.7)
#          = 1.80; a/4 gap hypot(1.9, 2.1) - 2r = 1.57; moves hypot(5.6, 0.15) = 5.60
#   spread: a/1 to a/5 hypot(0.4, 8.2) - 2r = 6.95 <= 9.
BY_HAND = {"a/1": (10.0, 0.70), "a/2": (12.3, 1.6), "a/3": (12.3, 4.2), "a/4": (12.3, 6.8),
           "a/5": (10.4, 8.9)}


def _gap(a, b) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1]) - 2 * R


def test_a_spread_landing_exists_by_hand(write_map):
    state = load_map(fp_map(write_map, UNITS))
    landed = state.with_positions(BY_HAND)
    assert landing_problems(landed, "a", ["t1", "t2"], 2.0) == []


def test_the_landing_search_finds_a_spread_landing(write_map):
    # the closest model (a/5, 3.0" path to t2's reach) engages t2 first; before this fix the
    # others followed their own paths to t2 and t1 was reached by a/1 alone, out of coherency
    state = load_map(fp_map(write_map, UNITS))
    p = plan_charge(state, "a", ["t1", "t2"], 1, fight=False)
    assert p["landing_roll"]["inches"] == 7.0          # needs 5: rolls 5..12, median 7
    assert p["landing_problems"] == [] and p["landing_legal"]
    assert p["landing_engaged"] == ["t1", "t2"]
    spots = p["landing"]
    assert min(_gap(xy, (8.74, 2)) for xy in spots.values()) <= 2.0 + TOL
    assert min(_gap(xy, (8.74, 8)) for xy in spots.values()) <= 2.0 + TOL
    for m, xy in spots.items():                         # every model within 2" of another
        assert min(_gap(xy, o) for k, o in spots.items() if k != m) <= 2.0 + TOL
