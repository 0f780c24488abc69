"""Range rings: a base's outline grown by a distance (geometry/rings.py).

Every expected size is worked out by hand from the base as the hobby writes it
(25.4 mm = 1") and the distance: a ring at d inches is every point within d of
the base's edge, so it is d wider than the base on every side.
"""

from __future__ import annotations

import math

import pytest
from shapely.geometry import MultiPolygon, Point

from tabletop.board.bases import parse_base
from tabletop.board.state import Model
from tabletop.geometry.rings import grown_base, grown_models, ring_outlines

MM = 25.4


def _extent(shape) -> tuple[float, float]:
    x0, y0, x1, y1 = shape.bounds
    return x1 - x0, y1 - y0


def test_an_oval_grows_into_an_oval_not_a_circle():
    oval = parse_base("90x52mm oval")
    ring = grown_base(oval, 30.0, 22.0, 0.0, 1.0)
    w, d = _extent(ring)
    assert w == pytest.approx(90 / MM + 2, abs=1e-3)    # 3.5433 + 2 = 5.5433"
    assert d == pytest.approx(52 / MM + 2, abs=1e-3)    # 2.0472 + 2 = 4.0472"
    # a circle round the centre reaching as far along the long axis (radius 2.7717")
    # would reach 22 + 2.7717 = 24.77 up; the grown oval stops at 22 + 1.0236 + 1 = 24.02
    assert not ring.contains(Point(30.0, 24.5))
    assert ring.contains(Point(30.0, 24.0))
    # facing 90: the long axis runs along y
    w90, d90 = _extent(grown_base(oval, 30.0, 22.0, 90.0, 1.0))
    assert (w90, d90) == pytest.approx((52 / MM + 2, 90 / MM + 2), abs=1e-3)


def test_a_rectangle_grows_with_rounded_corners():
    rect = parse_base("25x50mm")        # frontage 25 mm across the facing, depth 50 mm along it
    ring = grown_base(rect, 10.0, 10.0, 0.0, 2.0)
    w, d = _extent(ring)
    assert w == pytest.approx(50 / MM + 4, abs=1e-6)    # depth along x (facing 0): 1.9685 + 4
    assert d == pytest.approx(25 / MM + 4, abs=1e-6)    # frontage along y: 0.9843 + 4
    # the corner (10 + 0.9843, 10 + 0.4921) grown: 1.9" out along the diagonal is in
    # (1.9 < 2), 2.1" out is not; a square grown with square corners would hold both
    cx, cy = 10 + 25 / MM, 10 + 12.5 / MM
    k = 1 / math.sqrt(2)
    assert ring.contains(Point(cx + 1.9 * k, cy + 1.9 * k))
    assert not ring.contains(Point(cx + 2.1 * k, cy + 2.1 * k))


def test_a_round_base_grows_by_the_distance_on_its_radius():
    ring = grown_base(parse_base("32mm"), 5.0, 5.0, 0.0, 3.0)
    w, _ = _extent(ring)
    assert w == pytest.approx(2 * (16 / MM + 3), abs=1e-6)     # 2 x 3.6299 = 7.2598"


def _m(n: int, x: float, y: float) -> Model:
    return Model(id=f"u/{n}", x=x, y=y, facing_deg=0.0, base=parse_base("32mm"))


def test_a_units_ring_is_the_union_of_its_models_grown_bases():
    a, b = _m(1, 10.0, 10.0), _m(2, 13.0, 10.0)
    # centres 3" apart, 32mm bases: the gap is 3 - 2 x 0.6299 = 1.7402"
    one = grown_models([a, b], 1.0)     # each grows 1": 2" > 1.74, the rings meet
    assert one.geom_type == "Polygon"
    assert _extent(one)[0] == pytest.approx(3 + 2 * (16 / MM + 1), abs=1e-6)   # 6.2598"
    half = grown_models([a, b], 0.5)    # 2 x 0.5 = 1" < 1.74: two separate rings
    assert isinstance(half, MultiPolygon) and len(half.geoms) == 2
    assert len(ring_outlines(half)) == 2
    with pytest.raises(ValueError):
        grown_models([], 1.0)


def test_long_rings_stay_within_a_thousandth_of_an_inch():
    # DESIGN: shapes other than round-to-round go through Shapely with an error under 0.001"
    oval = grown_base(parse_base("90x52mm oval"), 0.0, 0.0, 0.0, 12.0)
    w, d = _extent(oval)
    assert w == pytest.approx(90 / MM + 24, abs=1e-3)   # 3.5433 + 2 x 12 = 27.5433"
    assert d == pytest.approx(52 / MM + 24, abs=1e-3)   # 2.0472 + 24 = 26.0472"
    # every vertex of the outline is 12" from the ellipse (x/a)^2 + (y/b)^2 = 1, a = 1.7717,
    # b = 1.0236: checked against a fine polygon of the ellipse itself
    import numpy as np
    from shapely.geometry import Polygon
    t = np.linspace(0, 2 * np.pi, 20000, endpoint=False)
    ell = Polygon(np.column_stack([45 / MM * np.cos(t), 26 / MM * np.sin(t)]))
    gaps = [ell.exterior.distance(Point(x, y)) for x, y in list(oval.exterior.coords)[::7]]
    assert max(abs(g - 12.0) for g in gaps) < 1e-3
    ring = grown_base(parse_base("32mm"), 0.0, 0.0, 0.0, 12.0)
    assert _extent(ring)[0] == pytest.approx(2 * (16 / MM + 12), abs=1e-3)    # 25.2598"
