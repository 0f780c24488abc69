"""Geometry values worked out by hand (docs/design.md conventions: edge to edge, one tolerance).

32 mm = 1.259843" (radius 0.629921"); 60 mm = 2.362205"; 35 mm = 1.377953";
25 mm = 0.984252"; 50 mm = 1.968504"; 40 mm = 1.574803".
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.board.mapfile import from_dict
from tabletop.geometry import snapshot

MM = 1 / 25.4


def make(units, rules=None, ruleset="fight-phase", objectives=(), terrain=(), width=60, depth=44):
    """A state from a compact description: units = [(id, player, base, models)]."""
    data = {
        "map": {"name": "t", "ruleset": ruleset, "width": width, "depth": depth},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [{"id": uid, "player": p, "base": base, "models": [list(m) for m in models]}
                  for uid, p, base, models in units],
        "objectives": list(objectives),
        "terrain": list(terrain),
    }
    if rules:
        data["rules"] = rules
    return from_dict(data)


def test_round_to_round_is_centre_distance_minus_radii():
    s = make([("a", "red", "32mm", [(10, 10)]), ("b", "blue", "32mm", [(13, 14)])])
    g = snapshot(s)
    # centres 5" apart (3-4-5); minus 2 x 0.629921 = 3.740157
    assert g.distance("a/1", "b/1") == pytest.approx(5 - 32 * MM, abs=1e-9)
    assert g.distance("b/1", "a/1") == g.distance("a/1", "b/1")


def test_oval_facing_along_and_across():
    # two 60x35mm ovals with centres 4" apart on the x axis
    along = make([("a", "red", "60x35mm oval", [(10, 10, 0)]), ("b", "blue", "60x35mm oval", [(14, 10, 0)])])
    across = make([("a", "red", "60x35mm oval", [(10, 10, 90)]), ("b", "blue", "60x35mm oval", [(14, 10, 90)])])
    # facing along x: the long axes meet: 4 - 2 x 30mm = 4 - 2.362205 = 1.637795
    assert snapshot(along).distance("a/1", "b/1") == pytest.approx(4 - 60 * MM, abs=1e-3)
    # facing across: the short axes meet: 4 - 2 x 17.5mm = 4 - 1.377953 = 2.622047
    assert snapshot(across).distance("a/1", "b/1") == pytest.approx(4 - 35 * MM, abs=1e-3)


def test_oval_to_round_at_an_angle_matches_the_true_ellipse():
    # oval at the origin facing +x; a 32mm round base centred at (3, 2)
    s = make([("a", "red", "60x35mm oval", [(10, 10, 0)]), ("b", "blue", "32mm", [(13, 12)])])
    a, b = 30 * MM, 17.5 * MM
    # exact: min over the ellipse boundary of the distance to the centre, minus the radius
    best = min(math.hypot(a * math.cos(t) - 3, b * math.sin(t) - 2)
               for t in (k * 2 * math.pi / 200000 for k in range(200000)))
    assert snapshot(s).distance("a/1", "b/1") == pytest.approx(best - 16 * MM, abs=1e-3)


def test_rectangle_frontage_across_and_depth_along_the_facing():
    # 25x50mm: 25mm frontage across the facing, 50mm deep along it; facing +y (90)
    side = make([("a", "red", "25x50mm", [(10, 10, 90)]), ("b", "blue", "25x50mm", [(11, 10, 90)])])
    # side by side 1" apart: 1 - 0.984252 = 0.015748 <= 0.02: base contact
    g = snapshot(side)
    assert g.distance("a/1", "b/1") == pytest.approx(1 - 25 * MM, abs=1e-9)
    assert g.in_base_contact("a/1", "b/1")
    behind = make([("a", "red", "25x50mm", [(10, 10, 90)]), ("b", "blue", "25x50mm", [(10, 12, 90)])])
    # one behind the other 2" apart: 2 - 1.968504 = 0.031496 > 0.02: not in contact
    g = snapshot(behind)
    assert g.distance("a/1", "b/1") == pytest.approx(2 - 50 * MM, abs=1e-9)
    assert not g.in_base_contact("a/1", "b/1")


def test_contact_at_exactly_the_tolerance():
    r2 = 32 * MM
    at = make([("a", "red", "32mm", [(10, 10)]), ("b", "blue", "32mm", [(10 + r2 + 0.02, 10)])])
    g = snapshot(at)
    assert g.gap("a/1", "b/1") == pytest.approx(0.02, abs=1e-12)
    assert g.in_base_contact("a/1", "b/1")
    past = make([("a", "red", "32mm", [(10, 10)]), ("b", "blue", "32mm", [(10 + r2 + 0.021, 10)])])
    assert not snapshot(past).in_base_contact("a/1", "b/1")


def test_overlap_only_beyond_the_tolerance():
    r2 = 32 * MM
    slight = make([("a", "red", "32mm", [(10, 10)]), ("b", "blue", "32mm", [(10 + r2 - 0.015, 10)])])
    g = snapshot(slight)
    assert g.in_base_contact("a/1", "b/1") and not g.overlapping("a/1", "b/1")
    deep = make([("a", "red", "32mm", [(10, 10)]), ("b", "blue", "32mm", [(10 + r2 - 0.1, 10)])])
    g = snapshot(deep)
    assert g.overlaps == [("a/1", "b/1")] and not g.in_base_contact("a/1", "b/1")


def test_rectangles_overlap_found_without_an_analytic_gap():
    # two 25x25mm squares, centres 0.5" apart: they intersect by 0.484" > tol
    s = make([("a", "red", "25x25mm", [(10, 10, 90)]), ("b", "blue", "25x25mm", [(10.5, 10, 90)])])
    assert snapshot(s).overlaps == [("a/1", "b/1")]
    # flush: centres exactly one frontage apart -> base contact, no overlap
    s = make([("a", "red", "25x25mm", [(10, 10, 90)]), ("b", "blue", "25x25mm", [(10 + 25 * MM, 10, 90)])])
    g = snapshot(s)
    assert g.overlaps == [] and g.in_base_contact("a/1", "b/1")


def test_floating_point_3_26_inches_apart_is_within_2_inches():
    # 32mm bases with centres 3.26" apart: 3.26 - 1.259843 = 2.000157, within 2" with the tolerance
    s = make([("a", "red", "32mm", [(10, 10)]), ("b", "blue", "32mm", [(13.26, 10)])])
    g = snapshot(s)
    assert g.within("a/1", "b/1", 2.0)
    assert g.engaged_unit_pairs == [("a", "b")]          # 11th: engagement range 2"
    g10 = snapshot(make([("a", "red", "32mm", [(10, 10)]), ("b", "blue", "32mm", [(13.26, 10)])],
                        rules={"edition": "10th"}))
    assert g10.engaged_unit_pairs == []                   # 10th: 1"


def line(n, spacing, base="32mm"):
    return [(5 + spacing * k, 10) for k in range(n)]


def test_coherency_6_and_7_models_in_a_line_10th():
    # 32mm bases 3" centre to centre: gaps 1.740157 <= 2": neighbours within 2"
    rules = {"edition": "10th"}
    six = snapshot(make([("u", "red", "32mm", line(6, 3.0))], rules=rules))
    assert six.coherency == {}                             # 2-6 models: 1 other is enough
    seven = snapshot(make([("u", "red", "32mm", line(7, 3.0))], rules=rules))
    # 7+: two others needed; the two ends have only one neighbour
    assert seven.coherency["u"].models == ("u/1", "u/7")


def test_coherency_spread_9_inches_11th():
    # 7 models 3" apart: u/1 to u/5 is 12 - 1.259843 = 10.74" > 9"; u/4 is at most 7.74" from all
    g = snapshot(make([("u", "red", "32mm", line(7, 3.0))]))
    assert g.coherency["u"].models == ("u/1", "u/2", "u/3", "u/5", "u/6", "u/7")
    # 7 models 1.5" apart: ends 9 - 1.26 = 7.74" apart: coherent
    assert snapshot(make([("u", "red", "32mm", line(7, 1.5))])).coherency == {}
    # a model 2.5" (edge) from the rest breaks the 2" rule even in a small unit
    g = snapshot(make([("u", "red", "32mm", [(5, 10), (6.5, 10), (6.5 + 32 * MM + 2.5, 10)])]))
    assert g.coherency["u"].models == ("u/3",)


def test_rank_and_flank_coherency_is_formation_contact():
    data = {
        "map": {"name": "t", "ruleset": "rank-and-flank", "width": 72, "depth": 48},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [{"id": "s", "player": "red", "base": "25x25mm",
                   "formation": {"front_centre": [30, 20], "facing": 90, "files": 5, "ranks": 2}},
                  {"id": "t", "player": "red", "base": "25x25mm", "models": [[10, 10], [11.5, 10]]}],
    }
    g = snapshot(from_dict(data))
    assert "s" not in g.coherency
    assert g.coherency["t"].models == ("t/1", "t/2")


def test_engagements_are_connected_groups():
    # a-b engaged, b-c engaged (c is a second red unit), d alone
    s = make([("a", "red", "32mm", [(10, 10)]), ("b", "blue", "32mm", [(11.5, 10)]),
              ("c", "red", "32mm", [(13, 10)]), ("d", "blue", "32mm", [(40, 40)])])
    g = snapshot(s)
    assert g.engaged_unit_pairs == [("a", "b"), ("b", "c")]
    assert g.engagements == [["a", "b", "c"]]
    assert g.engaged_units("b") == ["a", "c"]


def test_off_table_and_objective_range_per_player():
    objective = {"id": "A", "at": [30, 22]}
    s = make([("a", "red", "32mm", [(0.5, 10), (30, 22 + 20 * MM + 3 + 16 * MM)]),
              ("b", "blue", "32mm", [(30, 22 - 20 * MM - 3.1 - 16 * MM)])], objectives=[objective])
    g = snapshot(s)
    # a/1's base reaches x = 0.5 - 0.629921 = -0.13 < -0.02: off the table
    assert g.off_table == ["a/1"]
    # a/2 is exactly 3" from the 40mm marker's edge (in range); b/1 is 3.1" (out)
    assert g.distance("a/2", "A") == pytest.approx(3.0, abs=1e-9)
    assert g.objective_ranges == {"A": {"red": ["a/2"], "blue": []}}


def test_terrain_distance_and_unit_distance():
    terrain = {"id": "ruin", "kind": "ruin", "polygon": [[20, 0], [30, 0], [30, 10], [20, 10]]}
    s = make([("a", "red", "32mm", [(15, 5), (10, 5)]), ("b", "blue", "32mm", [(35, 5)])],
             terrain=[terrain])
    g = snapshot(s)
    assert g.distance("a/1", "ruin") == pytest.approx(5 - 16 * MM)
    assert g.distance("a", "b") == pytest.approx(20 - 32 * MM)       # closest models a/1, b/1
    assert g.distance("b", "ruin") == pytest.approx(5 - 16 * MM)


BASES = st.sampled_from(["25mm", "32mm", "40mm", "60x35mm oval", "25x50mm", "25x25mm", "75x42mm oval"])
POS = st.tuples(st.floats(5, 15), st.floats(5, 15), st.floats(0, 359))


@settings(max_examples=60, deadline=None)
@given(BASES, POS, BASES, POS)
def test_distance_symmetric_and_non_negative(base_a, pa, base_b, pb):
    g = snapshot(make([("a", "red", base_a, [pa]), ("b", "blue", base_b, [pb])]))
    d_ab, d_ba = g.distance("a/1", "b/1"), g.distance("b/1", "a/1")
    assert d_ab >= 0
    assert d_ab == pytest.approx(d_ba, abs=1e-9)
    assert g.distance("a", "b") == pytest.approx(d_ab, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(BASES, POS, BASES, POS)
def test_contact_iff_gap_within_tolerance(base_a, pa, base_b, pb):
    g = snapshot(make([("a", "red", base_a, [pa]), ("b", "blue", base_b, [pb])]))
    gap = g.gap("a/1", "b/1")
    assert g.in_base_contact("a/1", "b/1") == (gap <= g.tol + 1e-9 and not g.overlapping("a/1", "b/1"))
    assert (("a/1", "b/1") in g.base_contacts) == g.in_base_contact("a/1", "b/1")
