"""Oval and rectangle bases as convex polygons (``geometry.convex``) and the snapshot's
use of them: the footprints built numpy per base size are ``base_polygon``'s to the
bit, ``convex_gaps`` equals ``shapely.distance`` on them, and the snapshot measures
two ovals without Shapely's every-segment loop.  Hand-worked positions state their
arithmetic; the hypothesis tests compare every pair on random tables.

60x35mm oval: semi-axes 30 mm = 1.181102" along the facing, 17.5 mm = 0.688976" across.
25x50mm rectangle: 25 mm = 0.984252" frontage across the facing, 50 mm = 1.968504" deep
along it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.board.bases import parse_base
from tabletop.geometry import convex, near_pairs, snapshot
from tabletop.geometry.footprints import base_polygon, core_and_pad
from tabletop.geometry.naive import exact_answers
from tests.test_geometry_snapshot_derive import make

MM = 1 / 25.4
OVAL = parse_base("60x35mm oval")
RECT = parse_base("25x50mm")
SHAPES = [OVAL, RECT, parse_base("75x42mm oval"), parse_base("170x105mm oval"),
          parse_base("100x50mm")]


def form(base, x, y, facing):
    outlines, thetas = convex.placed_outlines(base, [x], [y], [facing])
    return convex.convex_form(base, outlines[0], thetas[0], x, y)


def gap(a, b):
    return float(convex.convex_gaps([form(*a)], [form(*b)])[0])


# ---------------------------------------------------------------- worked by hand

def test_two_ovals_end_to_end():
    # facing 0, centres 3" apart along x: the tips (vertices at t = 0 and t = pi) face
    # each other, 3 - 2 x 1.181102 = 0.637795"
    assert gap((OVAL, 0, 0, 0), (OVAL, 3, 0, 0)) == pytest.approx(3 - 60 * MM, abs=1e-12)


def test_two_ovals_side_by_side_and_turned():
    # facing 0, centres 2" apart along y: the flat sides (t = pi/2, 3 pi/2) face each
    # other, 2 - 2 x 0.688976 = 0.622047"
    assert gap((OVAL, 0, 0, 0), (OVAL, 0, 2, 0)) == pytest.approx(2 - 35 * MM, abs=1e-12)
    # both turned to face 90 (long axis along y), centres 3" apart along y: the tips
    # again, 0.637795"
    assert gap((OVAL, 5, 5, 90), (OVAL, 5, 8, 90)) == pytest.approx(3 - 60 * MM, abs=1e-12)


def test_overlapping_and_touching_ovals_read_zero():
    # centres 1" apart along x: 1 < 2.362205, the tips overlap
    assert gap((OVAL, 0, 0, 0), (OVAL, 1, 0, 0)) == 0.0
    # one on top of the other
    assert gap((OVAL, 0, 0, 30), (OVAL, 0, 0, 120)) == 0.0


def test_rectangles_front_to_front_and_oval_to_rectangle():
    # 25x50mm facing 0 (1.968504" deep along x), centres 3" apart along x:
    # 3 - 1.968504 = 1.031496"
    assert gap((RECT, 0, 0, 0), (RECT, 3, 0, 0)) == pytest.approx(3 - 50 * MM, abs=1e-12)
    # side by side along y (frontage 0.984252"), centres 1.5" apart: 1.5 - 0.984252 =
    # 0.515748"
    assert gap((RECT, 0, 0, 0), (RECT, 0, 1.5, 0)) == pytest.approx(1.5 - 25 * MM, abs=1e-12)
    # oval tip to the rectangle's back edge: 3 - 1.181102 - 0.984252 = 0.834646"
    assert gap((OVAL, 0, 0, 0), (RECT, 3, 0, 0)) == pytest.approx(3 - 30 * MM - 25 * MM,
                                                                  abs=1e-12)


def test_the_snapshot_measures_two_ovals_without_shapely(monkeypatch):
    # two 60x35mm ovals of one unit end to end, 3" apart (gap 0.637795", coherent within
    # 2"), and a 32mm model 5" off (its pairs with the ovals: circumcircles only)
    seen = []
    real = near_pairs.shapely.distance

    def spy(a, b):
        seen.append((np.atleast_1d(shapely.get_type_id(a)), np.atleast_1d(shapely.get_type_id(b))))
        return real(a, b)

    monkeypatch.setattr(near_pairs.shapely, "distance", spy)
    s = make([("bikes", "red", "60x35mm oval", [(5, 5, 0), (8, 5, 0)]),
              ("foot", "blue", "32mm", [(5, 12)])])
    g = snapshot(s)
    assert g.gap("bikes/1", "bikes/2") == pytest.approx(3 - 60 * MM, abs=1e-12)
    assert g.coherency == {}
    polygon = shapely.GeometryType.POLYGON
    assert not any((a == polygon).any() and (b == polygon).any() for a, b in seen)


# ---------------------------------------------------------------- against Shapely

coords = st.floats(-20, 20, allow_nan=False)
facings = st.one_of(st.sampled_from([0.0, 90.0, 180.0, 270.0, 45.0, -90.0, 720.0]),
                    st.floats(-720, 720, allow_nan=False))


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SHAPES), coords, coords, facings)
def test_placed_outlines_are_base_polygon_to_the_bit(base, x, y, facing):
    outlines, _ = convex.placed_outlines(base, [x], [y], [facing])
    assert np.array_equal(outlines[0], shapely.get_coordinates(base_polygon(base, x, y, facing)))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SHAPES), st.sampled_from(SHAPES), facings, facings,
       st.floats(0, 2 * math.pi), st.floats(0, 6))
def test_convex_gaps_equal_shapely_distance(a, b, fa, fb, angle, apart):
    xb, yb = apart * math.cos(angle), apart * math.sin(angle)
    want = shapely.distance(base_polygon(a, 0, 0, fa), base_polygon(b, xb, yb, fb))
    assert gap((a, 0, 0, fa), (b, xb, yb, fb)) == pytest.approx(want, abs=1e-12)


@st.composite
def mixed_tables(draw):
    bases = ["32mm", "40mm", "60x35mm oval", "75x42mm oval", "25x50mm"]
    units = []
    for k in range(draw(st.integers(2, 5))):
        base = draw(st.sampled_from(bases))
        x0, y0 = draw(st.floats(3, 17)), draw(st.floats(3, 12))
        ms = [(x0 + draw(st.floats(-3, 3)), y0 + draw(st.floats(-3, 3)),
               draw(st.floats(0, 360))) for _ in range(draw(st.integers(1, 4)))]
        units.append((f"u{k}", "red" if k % 2 == 0 else "blue", base, ms))
    return make(units, [{"id": "o", "at": [draw(st.floats(1, 19)), draw(st.floats(1, 14))],
                         "marker": "40mm"}], width=20, depth=15)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_tables())
def test_every_pair_and_answer_equals_the_all_pairs_loop(state):
    # every pair of models measured by the snapshot equals Shapely on the exact shapes
    # (centre points padded by the radius for round bases, footprint polygons else)
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
