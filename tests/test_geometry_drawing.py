"""The snapshot's drawing helpers: unit_outline, contact_point, contact_stretch,
overlap_region, and footprints.reach_polygon (hand-worked values)."""

from __future__ import annotations

import math

import pytest

from tabletop.board import mapfile
from tabletop.board.bases import parse_base
from tabletop.geometry import snapshot
from tabletop.geometry.footprints import reach_polygon


def state_of(units, ruleset="fight-phase"):
    return mapfile.from_dict({
        "map": {"name": "t", "ruleset": ruleset, "width": 24.0, "depth": 24.0},
        "players": [{"id": "a", "active": True}, {"id": "b"}],
        "units": units,
    })


def test_unit_outline_joins_near_models_and_splits_stragglers():
    # 32mm bases (r 0.63"): 1.5" apart centre to centre (gap 0.24") share one outline;
    # a third model 6" away gets its own part
    st = state_of([{"id": "u", "player": "a", "base": "32mm", "models": [[5, 5], [6.5, 5], [12.5, 5]]}])
    geo = snapshot(st)
    outline = geo.unit_outline("u")
    assert outline.geom_type == "MultiPolygon" and len(outline.geoms) == 2
    # every base lies inside it, and it reaches 0.15" past the base edges (left of u/1: x = 4.22)
    for mid in geo.ids:
        assert outline.buffer(1e-6).contains(geo.footprint(mid))
    assert outline.bounds[0] == pytest.approx(5 - 0.63 - 0.15, abs=0.01)
    assert geo.unit_outline("nope") is None


def test_unit_outline_of_an_unmoved_unit_is_taken_from_the_step_before(monkeypatch):
    """A new snapshot (the next step of a phase) unions only the units that moved."""
    import importlib

    snap = importlib.import_module("tabletop.geometry.snapshot")   # the module, not the function
    monkeypatch.setattr(snap, "_OUTLINES", {}, raising=False)
    st = state_of([{"id": "u", "player": "a", "base": "32mm", "models": [[5, 5], [6.5, 5]]},
                   {"id": "v", "player": "b", "base": "32mm", "models": [[15, 5]]}])
    unions = []
    real = snap.shapely.union_all
    monkeypatch.setattr(snap.shapely, "union_all", lambda g: unions.append(1) or real(g))
    before = snapshot(st)
    first = {u: before.unit_outline(u) for u in ("u", "v")}
    assert len(unions) == 2                      # one union per unit
    moved = st.with_positions({"v/1": (16.0, 5.0)})
    after = snapshot(moved)
    assert after.unit_outline("u") is first["u"]         # u did not move: the same shape
    v = after.unit_outline("v")
    assert len(unions) == 3                      # only v, which moved 1", is unioned again
    # v/1 now at x = 16: its outline's left edge 16 - 0.63 - 0.15 = 15.22 (was 14.22)
    assert v.bounds[0] == pytest.approx(15.22, abs=0.01)
    assert first["v"].bounds[0] == pytest.approx(14.22, abs=0.01)
    # a single 32mm base: a disc of radius 0.63 + 0.15 = 0.78", area pi x 0.78^2 = 1.911
    assert v.area == pytest.approx(math.pi * 0.78 ** 2, rel=0.01)


def test_contact_point_of_round_bases():
    # centres 1.26" apart on y = 12.5: touching at x = 15 + 0.63
    st = state_of([{"id": "d", "player": "a", "base": "32mm", "models": [[15, 12.5]]},
                   {"id": "e", "player": "b", "base": "32mm", "models": [[16.26, 12.5]]}])
    x, y = snapshot(st).contact_point("d/1", "e/1")
    assert x == pytest.approx(15.63, abs=0.005) and y == pytest.approx(12.5, abs=0.005)


def test_contact_stretch_of_rectangles_front_to_front():
    # 25x25mm squares (0.984"): one facing up at (10, 10), the other facing down at
    # (10.5, 10.984) -> touching along y = 10.492 for x from 10.008 to 10.492 (0.484");
    # the ends may run up b's sides by the 0.02" tolerance
    side = 25 / 25.4
    st = state_of([{"id": "p", "player": "a", "base": "25x25mm", "models": [[10, 10, 90]]},
                   {"id": "q", "player": "b", "base": "25x25mm", "models": [[10.5, 10 + side, 270]]}],
                  ruleset="rank-and-flank")
    geo = snapshot(st)
    assert geo.in_base_contact("p/1", "q/1")
    (x1, y1), (x2, y2) = sorted(geo.contact_stretch("p/1", "q/1"))
    assert y1 == pytest.approx(10 + side / 2, abs=0.021) and y2 == pytest.approx(10 + side / 2, abs=0.021)
    assert x1 == pytest.approx(10.5 - side / 2, abs=0.03) and x2 == pytest.approx(10 + side / 2, abs=0.03)


def test_overlap_region_is_the_lens():
    # centres 0.8" apart, radii 0.63": the lens spans x 3.17 .. 3.63
    st = state_of([{"id": "f", "player": "a", "base": "32mm", "models": [[3.0, 13.5], [3.8, 13.5]]}])
    minx, _, maxx, _ = snapshot(st).overlap_region("f/1", "f/2").bounds
    assert minx == pytest.approx(3.17, abs=0.01) and maxx == pytest.approx(3.63, abs=0.01)


def test_reach_polygon():
    # a 32mm base reaching 3": a circle of radius 3.63"
    poly = reach_polygon(parse_base("32mm"), 0, 0, 90, 3.0)
    assert poly.area == pytest.approx(math.pi * 3.63 ** 2, rel=0.002)
    # a 25x50mm rectangle (0.984 x 1.969) grown by 1": its box is 2.984 x 3.969
    rect = reach_polygon(parse_base("25x50mm"), 0, 0, 0, 1.0)
    minx, miny, maxx, maxy = rect.bounds
    assert maxx - minx == pytest.approx(50 / 25.4 + 2, abs=1e-6)
    assert maxy - miny == pytest.approx(25 / 25.4 + 2, abs=1e-6)
