"""Ovals and rectangles measured in their template's frame (issue 11 item 2, second
round): a polygon against a point (a round base's centre, an objective's centre) by
``convex.point_distances``, two copies of one symmetric base facing one way as a point
against the base doubled (``convex.twin_gaps``), every such pair of a snapshot in one
computation (``convex.odd_gaps``), and outlines built only when read
(``convex.LazyForm``).  Hand-worked positions state their arithmetic; the hypothesis
tests compare with Shapely on the exact shapes and with the all-pairs baseline.

60x35mm oval: semi-axes 30 mm = 1.181102" along the facing, 17.5 mm = 0.688976" across.
75x42mm oval: 37.5 mm = 1.476378" along, 21 mm = 0.826772" across.  25x50mm: 25 mm =
0.984252" frontage across the facing, 50 mm = 1.968504" deep along it.  32mm round:
radius 16 mm = 0.629921".  40mm marker: radius 20 mm = 0.787402".  Fight-phase
defaults: objective range 3", tolerance 0.02".  The ovals are 256-gons with a vertex at
each tip and at the middle of each flat side, so those distances are exact.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.bench.snapshot_bench import _answers
from tabletop.board.bases import parse_base
from tabletop.geometry import convex, snapshot
from tabletop.geometry.footprints import base_polygon, core_and_pad
from tabletop.geometry.naive import exact_answers
from tests.test_geometry_snapshot_derive import make

MM = 1 / 25.4
OVAL = parse_base("60x35mm oval")
BIKE = parse_base("75x42mm oval")
RECT = parse_base("25x50mm")


def forms_of(*placed):
    """An object array of ``convex_form``s of (base, x, y, facing) each."""
    out = np.empty(len(placed), dtype=object)
    for k, (base, x, y, facing) in enumerate(placed):
        outlines, thetas = convex.placed_outlines(base, [x], [y], [facing])
        out[k] = convex.convex_form(base, outlines[0], thetas[0], x, y)
    return out


def twin(a, b):
    fa, fb = forms_of(a, b)
    assert convex._are_twins(fa, fb)
    return float(convex.twin_gaps([fa], [fb])[0])


# ---------------------------------------------------------------- worked by hand

def test_a_point_against_an_oval_in_its_frame():
    # 60x35mm oval at (5, 5): facing 0, the point (5, 8) faces the flat side's middle,
    # 3 - 0.688976 = 2.311024"; facing 90 it faces the tip, 3 - 1.181102 = 1.818898";
    # (5.5, 5.2) lies inside: 0
    forms = forms_of((OVAL, 5, 5, 0), (OVAL, 5, 5, 90), (OVAL, 5, 5, 0))
    got = convex.point_distances(forms, np.arange(3), np.array([5.0, 5.0, 5.5]),
                                 np.array([8.0, 8.0, 5.2]))
    assert got[0] == pytest.approx(3 - 17.5 * MM, abs=1e-12)
    assert got[1] == pytest.approx(3 - 30 * MM, abs=1e-12)
    assert got[2] == 0.0


def test_a_point_against_a_turned_rectangle():
    # 25x50mm facing 90 at (0, 0): 1.968504" deep along y, 0.984252" across x.  The
    # point (2, 0) is 2 - 0.492126 = 1.507874" off the long side; (1, 2) is past the
    # corner (0.492126, 0.984252): sqrt(0.507874^2 + 1.015748^2) = 1.135637"
    forms = forms_of((RECT, 0, 0, 90), (RECT, 0, 0, 90))
    got = convex.point_distances(forms, np.arange(2), np.array([2.0, 1.0]), np.array([0.0, 2.0]))
    assert got[0] == pytest.approx(2 - 12.5 * MM, abs=1e-12)
    assert got[1] == pytest.approx(math.hypot(1 - 12.5 * MM, 2 - 25 * MM), abs=1e-12)


def test_twin_bases_are_a_point_against_the_base_doubled():
    # two 75x42mm ovals facing 90, centres 3.5" apart along y: tip to tip,
    # 3.5 - 2 x 1.476378 = 0.547244"; facing 0, flat side to flat side,
    # 3.5 - 2 x 0.826772 = 1.846456"
    assert twin((BIKE, 5, 5, 90), (BIKE, 5, 8.5, 90)) == pytest.approx(3.5 - 75 * MM, abs=1e-12)
    assert twin((BIKE, 5, 5, 0), (BIKE, 5, 8.5, 0)) == pytest.approx(3.5 - 42 * MM, abs=1e-12)
    # 25x50mm facing 0 side by side, 1.5" apart along y: 1.5 - 0.984252 = 0.515748";
    # facing 90 end to end, 3" apart along y: 3 - 1.968504 = 1.031496"
    assert twin((RECT, 0, 0, 0), (RECT, 0, 1.5, 0)) == pytest.approx(1.5 - 25 * MM, abs=1e-12)
    assert twin((RECT, 0, 0, 90), (RECT, 0, 3, 90)) == pytest.approx(3 - 50 * MM, abs=1e-12)
    # overlapping (centres 1" apart, tips 2.952756" long together): 0
    assert twin((BIKE, 0, 0, 90), (BIKE, 0, 1, 90)) == 0.0


def test_only_one_base_facing_one_way_makes_twins():
    a, b, c, d = forms_of((BIKE, 0, 0, 30), (BIKE, 4, 0, 30), (BIKE, 8, 0, 31), (OVAL, 0, 4, 30))
    assert convex._are_twins(a, b)
    assert not convex._are_twins(a, c)        # turned another way
    assert not convex._are_twins(a, d)        # another base


def test_a_squad_of_ovals_is_measured_without_building_an_outline():
    # three 75x42mm ovals facing 90 in a column 3.5" apart (tip to tip 0.547244", in
    # coherency within 2"), a 32mm enemy at (8, 5) beside the first: the oval's flat side
    # at x = 5 + 0.826772, the round edge at 8 - 0.629921: 3 - 0.826772 - 0.629921 =
    # 1.543307" (engaged within 2")
    s = make([("bikes", "red", "75x42mm oval", [(5, 5, 90), (5, 8.5, 90), (5, 12, 90)]),
              ("foot", "blue", "32mm", [(8, 5)])])
    g = snapshot(s)
    _answers(g)
    assert g.gap("bikes/1", "bikes/2") == pytest.approx(3.5 - 75 * MM, abs=1e-12)
    assert g.gap("bikes/2", "bikes/3") == pytest.approx(3.5 - 75 * MM, abs=1e-12)
    assert g.gap("bikes/1", "foot/1") == pytest.approx(3 - 21 * MM - 16 * MM, abs=1e-12)
    assert g.coherency == {}
    assert g.engaged_unit_pairs == [("bikes", "foot")]
    forms = [g._forms[g.index_of(m)] for m in g.unit_models("bikes")]
    assert all(f._outline is None for f in forms)       # no outline, no Shapely polygon
    assert "_polys" not in g.__dict__
    # a drawing still gets base_polygon's very coordinates
    assert np.array_equal(np.asarray(g.footprint("bikes/2").exterior.coords),
                          shapely.get_coordinates(base_polygon(BIKE, 5, 8.5, 90)))


@pytest.mark.parametrize("gap, holds", [(3.01, True), (3.03, False)])
def test_an_oval_tip_near_an_objective_is_measured(gap, holds):
    # 40mm marker at (10, 5); a 75x42mm oval facing 90 straight above it, its lower tip
    # ``gap`` inches from the marker's edge: centre y = 5 + 0.787402 + gap + 1.476378.
    # Centre distance less the inradius and the marker is 3.66" (> 3.02, not sure), less
    # the circumradius ``gap`` (open), so the tip is measured: 3.01 <= 3 + 0.02 holds,
    # 3.03 does not
    y = 5 + 20 * MM + gap + 37.5 * MM
    s = make([("bike", "red", "75x42mm oval", [(10, y, 90)]), ("foot", "blue", "32mm", [(25, 15)])],
             [{"id": "o", "at": [10, 5], "marker": "40mm"}])
    got = snapshot(s).objective_ranges
    assert got == {"o": {"red": ["bike/1"] if holds else [], "blue": []}}


def test_an_oval_whose_inradius_is_in_range_counts_unmeasured():
    # a 75x42mm oval facing 0 above the marker, its flat side 2.5" from the marker's edge:
    # centre distance 2.5 + 0.787402 + 0.826772 less the inradius and the marker is
    # 2.5 <= 3.02, so it counts whatever its turn, and nothing is measured
    y = 5 + 20 * MM + 2.5 + 21 * MM
    s = make([("bike", "red", "75x42mm oval", [(10, y, 0)])],
             [{"id": "o", "at": [10, 5], "marker": "40mm"}])
    seen = []
    real = convex.point_distances

    def spy(*a):
        seen.append(a)
        return real(*a)

    convex.point_distances, saved = spy, convex.point_distances
    try:
        assert snapshot(s).objective_ranges == {"o": {"red": ["bike/1"], "blue": []}}
    finally:
        convex.point_distances = saved
    assert seen == []


# ---------------------------------------------------------------- against Shapely

facings = st.one_of(st.sampled_from([0.0, 90.0, 45.0, 180.0, -90.0]),
                    st.floats(-720, 720, allow_nan=False))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([OVAL, BIKE, RECT, parse_base("100x50mm"), parse_base("170x105mm oval")]),
       st.floats(-40, 60), st.floats(-40, 60), facings, st.floats(0, 2 * math.pi), st.floats(0, 8))
def test_twins_and_points_equal_shapely(base, x, y, facing, angle, apart):
    xb, yb = x + apart * math.cos(angle), y + apart * math.sin(angle)
    a, b = forms_of((base, x, y, facing), (base, xb, yb, facing))
    want = shapely.distance(base_polygon(base, x, y, facing), base_polygon(base, xb, yb, facing))
    assert float(convex.twin_gaps([a], [b])[0]) == pytest.approx(want, abs=1e-12)
    point = shapely.distance(base_polygon(base, x, y, facing), shapely.Point(xb, yb))
    got = convex.point_distances(np.array([a, b], dtype=object)[:1], np.array([0]),
                                 np.array([xb]), np.array([yb]))
    assert float(got[0]) == pytest.approx(point, abs=1e-12)


@st.composite
def squads(draw):
    bases = ["32mm", "40mm", "60x35mm oval", "75x42mm oval", "25x50mm", "100x50mm"]
    units = []
    for k in range(draw(st.integers(2, 5))):
        base = draw(st.sampled_from(bases))
        facing = draw(st.floats(-360, 360))         # a squad faces one way (a map's bounds)
        x0, y0 = draw(st.floats(3, 17)), draw(st.floats(3, 12))
        ms = [(x0 + draw(st.floats(-3, 3)), y0 + draw(st.floats(-3, 3)), facing)
              for _ in range(draw(st.integers(1, 4)))]
        units.append((f"u{k}", "red" if k % 2 == 0 else "blue", base, ms))
    objs = [{"id": f"o{k}", "at": [draw(st.floats(1, 19)), draw(st.floats(1, 14))],
             "marker": "40mm"} for k in range(draw(st.integers(1, 3)))]
    return make(units, objs, width=20, depth=15)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(squads())
def test_squads_facing_one_way_equal_the_all_pairs_loop(state):
    g = snapshot(state)
    n = len(g.ids)
    i, j = np.triu_indices(n, 1)
    got = g._gaps_between(i, j)
    parts = [core_and_pad(m.base, m.x, m.y, m.facing_deg) for m in state.models()]
    want = [shapely.distance(parts[a][0], parts[b][0]) - parts[a][1] - parts[b][1]
            for a, b in zip(i.tolist(), j.tolist())]
    assert got.tolist() == pytest.approx(want, abs=1e-12)
    for (a, b), v in g._gap.items():
        assert v == pytest.approx(want[a * n - a * (a + 1) // 2 + b - a - 1], abs=1e-12)
    base = exact_answers(state)
    assert base.base_contacts == g.base_contacts
    assert base.engaged_unit_pairs == g.engaged_unit_pairs
    assert base.incoherent == {u: list(b.models) for u, b in g.coherency.items()}
    assert base.objective_ranges == g.objective_ranges
