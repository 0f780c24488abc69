"""Point queries for the window's tools (tabletop.geometry.probe).

32mm round radius 16 / 25.4 = 0.629921"; a "25x50mm" rectangle facing 90
degrees is 25 mm (0.984252") across x and 50 mm (1.968504") along y.
"""

from __future__ import annotations

import math
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.board import mapfile
from tabletop.geometry import snapshot
from tabletop.geometry.probe import closest_points, models_at, overlaps_at

R32 = 16 / 25.4

MAP = """\
[map]
name = "probe"
ruleset = "fight-phase"
width = 30.0
depth = 20.0

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "a"
player = "red"
base = "32mm"
models = [[5, 5], [5, 7]]

[[units]]
id = "cav"
player = "blue"
base = "25x50mm"
models = [[10, 5, 90]]

[[units]]
id = "bike"
player = "blue"
base = "60x35mm oval"
models = [[15, 12, 0]]
"""


STATE = mapfile.from_dict(tomllib.loads(MAP), path="probe.toml")


@pytest.fixture
def state():
    return STATE


def test_models_at_finds_the_base_under_a_point(state):
    geo = snapshot(state)
    assert models_at(geo, 5.3, 5.2) == ["a/1"]
    assert models_at(geo, 7.0, 5.0) == []
    # 0.1" outside a/1's edge: picked only with at least that much slop
    assert models_at(geo, 5 + R32 + 0.1, 5, slop=0.05) == []
    assert models_at(geo, 5 + R32 + 0.1, 5, slop=0.11) == ["a/1"]
    # the rectangle: x half-width 0.492126, so x = 10.45 is inside, 10.55 outside
    assert models_at(geo, 10.45, 5.9) == ["cav/1"]
    assert models_at(geo, 10.55, 5.0) == []


def test_closest_points_round_to_rectangle(state):
    geo = snapshot(state)
    # a/1 centre (5, 5) to cav/1's left edge x = 10 - 0.492126: 5 - 0.492126 - 0.629921
    a, b, d = closest_points(geo, "a/1", "cav/1")
    assert d == pytest.approx(5 - 12.5 / 25.4 - R32, abs=1e-9)
    assert d == pytest.approx(geo.distance("a/1", "cav/1"), abs=1e-12)
    assert a == pytest.approx((5 + R32, 5), abs=1e-9)
    assert b == pytest.approx((10 - 12.5 / 25.4, 5), abs=1e-9)


def test_closest_points_point_to_round_and_point_to_point(state):
    geo = snapshot(state)
    # (8, 9) to a/2 (5, 7): hypot(3, 2) = 3.605551 - 0.629921
    a, b, d = closest_points(geo, (8.0, 9.0), "a/2")
    assert d == pytest.approx(math.hypot(3, 2) - R32, abs=1e-9)
    assert a == (8.0, 9.0)
    assert math.dist(b, (5, 7)) == pytest.approx(R32, abs=1e-9)
    assert closest_points(geo, (1.0, 1.0), (4.0, 5.0))[2] == pytest.approx(5.0)


def test_closest_points_of_touching_bases_is_zero(state):
    # a/1 moved into contact with a/2 (centres 1.259843 apart)
    s = state.with_positions({"a/1": (5, 7 - 2 * R32)})
    a, b, d = closest_points(snapshot(s), "a/1", "a/2")
    assert d == pytest.approx(0.0, abs=1e-9) and a == pytest.approx(b)


def test_overlaps_at(state):
    # a/1 onto cav/1 (10, 5): overlapping; 2" further right of cav/1's edge: clear
    assert overlaps_at(state, "a/1", 10, 5) == ["cav/1"]
    assert overlaps_at(state, "a/1", 10 + 12.5 / 25.4 + R32 + 0.01, 5) == []
    # into a/2 by 0.01" (within the 0.02" tolerance): base contact, not overlap
    assert overlaps_at(state, "a/1", 5, 7 - 2 * R32 + 0.01) == []
    assert overlaps_at(state, "a/1", 5, 7 - 2 * R32 + 0.05) == ["a/2"]
    # its own place never counts
    assert overlaps_at(state, "a/1", 5, 5) == []


@settings(max_examples=60, deadline=None)
@given(mid=st.sampled_from(["a/1", "cav/1", "bike/1"]),
       x=st.floats(3, 18, allow_nan=False), y=st.floats(3, 14, allow_nan=False))
def test_overlaps_at_agrees_with_the_snapshot(mid, x, y):
    # the drop test and `tabletop check` must never disagree
    state = STATE
    moved = snapshot(state.with_positions({mid: (x, y)}))
    expect = sorted({b if a == mid else a for a, b in moved.overlaps if mid in (a, b)})
    assert overlaps_at(state, mid, x, y) == expect


@settings(max_examples=40, deadline=None)
@given(x=st.floats(3, 18, allow_nan=False), y=st.floats(3, 14, allow_nan=False),
       other=st.sampled_from(["a/2", "cav/1", "bike/1"]))
def test_ruler_length_matches_distance_and_its_drawn_line(x, y, other):
    state = STATE
    geo = snapshot(state.with_positions({"a/1": (x, y)}))
    a, b, d = closest_points(geo, "a/1", other)
    assert d == pytest.approx(geo.distance("a/1", other), abs=1e-12)
    if d > 1e-6:
        assert math.dist(a, b) == pytest.approx(d, abs=1e-6)
