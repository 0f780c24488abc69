"""``terrain_gaps`` finds its pairs with one STRtree query (issue 11: ``check`` on 500
pieces of 250 points): the gaps are those of the plain every-pair loop it replaced, and
``errors.printable`` (which every printed byte of a 20 MB report passes) escapes as before."""

from __future__ import annotations

import math
import random

import pytest
from shapely.geometry import LineString, Polygon
from shapely.ops import nearest_points

from tabletop.board.mapfile import from_dict
from tabletop.errors import printable
from tabletop.geometry.terrain_report import GAP_REPORT_RANGE, terrain_gaps


def _blob(cx: float, cy: float, r: float, n: int, rng: random.Random) -> list[list[float]]:
    """A star-shaped outline of ``n`` points around (cx, cy), radius r to 1.3 r (inches)."""
    return [[cx + r * (1 + 0.3 * rng.random()) * math.cos(2 * math.pi * k / n),
             cy + r * (1 + 0.3 * rng.random()) * math.sin(2 * math.pi * k / n)] for k in range(n)]


def _table(pieces: list[list[list[float]]], width: float = 24, depth: float = 18):
    return from_dict({"map": {"name": "gaps", "ruleset": "fight-phase", "width": width, "depth": depth},
                      "terrain": [{"id": f"t{i}", "kind": "ruin", "polygon": p}
                                  for i, p in enumerate(pieces)]})


def _every_pair(state):
    """The oracle: the every-pair loop ``terrain_gaps`` used before its STRtree query."""
    pieces = [(t.id, Polygon(t.polygon)) for t in state.terrain if Polygon(t.polygon).is_valid]
    w, d = state.table.width, state.table.depth
    edges = [("left edge", LineString([(0, 0), (0, d)])), ("bottom edge", LineString([(0, 0), (w, 0)])),
             ("right edge", LineString([(w, 0), (w, d)])), ("top edge", LineString([(0, d), (w, d)]))]
    out = []
    for i, (a, pa) in enumerate(pieces):
        for b, pb in pieces[i + 1:] + edges:
            g = pa.distance(pb)
            if state.rules.tol < g <= GAP_REPORT_RANGE:
                p, q = nearest_points(pa, pb)
                out.append((g, a, b, ((p.x, p.y), (q.x, q.y))))
    return sorted(out)


def test_two_squares_two_inches_apart():
    # squares x 2..4 and x 6..8 (y 2..4): 6 - 4 = 2" between them; each is 2" from the left
    # or bottom edge as well; the right square is 6" from the left edge (x = 6), exactly the
    # 6" range, which is listed (width <= range); the right edge is 24 - 8 = 16" off and the
    # top 18 - 4 = 14" off: beyond the range, not listed.
    sq = [[[2, 2], [4, 2], [4, 4], [2, 4]], [[6, 2], [8, 2], [8, 4], [6, 4]]]
    gaps = {(g.a, g.b): g.width for g in terrain_gaps(_table(sq))}
    assert gaps == {("t0", "t1"): pytest.approx(2.0), ("t0", "left edge"): pytest.approx(2.0),
                    ("t0", "bottom edge"): pytest.approx(2.0),
                    ("t1", "bottom edge"): pytest.approx(2.0),
                    ("t1", "left edge"): pytest.approx(6.0)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_indexed_gaps_equal_the_every_pair_loop(seed):
    # 40 blobs of 60 points on a 24" x 18" table, scattered (some overlap, some touch the
    # edges, many are more than 6" apart): every width and end exactly the oracle's
    rng = random.Random(seed)
    pieces = [_blob(rng.uniform(0, 24), rng.uniform(0, 18), rng.uniform(0.3, 1.5), 60, rng)
              for _ in range(40)]
    state = _table(pieces)
    got = [(g.width, g.a, g.b, g.ends) for g in terrain_gaps(state)]
    want = _every_pair(state)
    assert len(got) > 40
    assert got == want


def test_printable_escapes_control_codes_but_keeps_what_it_is_told():
    # ESC (0x1b), a C1 code (0x85), DEL (0x7f) and a bidi override (U+202E) become \uXXXX text
    assert printable("a\x1bb\x85c\x7fd\u202e") == "a\\u001bb\\u0085c\\u007fd\\u202e"
    assert printable("line\nnext\ttab", keep="\n\t") == "line\nnext\ttab"
    assert printable("line\nnext") == "line\\u000anext"
    assert printable("plain é text") == "plain é text"


def _square(x0: float, y0: float, side: float, per_side: int) -> list[list[float]]:
    """A square outline with ``per_side`` points along each side (4 * per_side points)."""
    pts = []
    for e in range(4):
        for k in range(per_side):
            f = k / per_side
            pts.append([[x0 + side * f, y0], [x0 + side, y0 + side * f],
                        [x0 + side - side * f, y0 + side], [x0, y0 + side - side * f]][e])
    return pts


def test_parallel_sides_many_equal_nearest_pairs_same_ends():
    # squares of 40 and 48 points: facing sides parallel, so many segment pairs are equally
    # near (ties); the ends chosen are still the every-pair loop's.  Hand-worked: the 2"
    # squares at x 2..4 and 5..7 (y 2..4) are 5 - 4 = 1" apart.
    rng = random.Random(5)
    pieces = [_square(rng.uniform(0, 22), rng.uniform(0, 16), rng.uniform(0.5, 2), 12)
              for _ in range(30)]
    pieces += [_square(2, 2, 2, 10), _square(5, 2, 2, 10)]
    state = _table(pieces)
    got = terrain_gaps(state)
    assert [(g.width, g.a, g.b, g.ends) for g in got] == _every_pair(state)
    pair = next(g for g in got if (g.a, g.b) == ("t30", "t31"))
    assert pair.width == pytest.approx(1.0)


@pytest.mark.parametrize("seed", [1, 2])
def test_terrain_overlaps_from_the_index_equal_the_every_pair_loop(seed):
    # 40 scattered blobs, many overlapping: the same pairs, in map order, with the same areas
    from tabletop.geometry.layout_checks import terrain_overlaps

    rng = random.Random(seed)
    state = _table([_blob(rng.uniform(0, 24), rng.uniform(0, 18), rng.uniform(0.5, 2.5), 24, rng)
                    for _ in range(40)])
    polys = [(t.id, Polygon(t.polygon)) for t in state.terrain]
    want = [(a, b, pa.intersection(pb).area)
            for k, (a, pa) in enumerate(polys) for b, pb in polys[k + 1:]
            if pa.intersects(pb) and pa.intersection(pb).area > state.rules.terrain_overlap_area]
    got = terrain_overlaps(state)
    assert len(got) > 5 and got == want


def test_two_squares_overlapping_by_one_square_inch():
    # x 0..2 and x 1..3 (y 0..1): they share x 1..2, y 0..1 = 1 sq in
    from tabletop.geometry.layout_checks import terrain_overlaps

    state = _table([[[0, 0], [2, 0], [2, 1], [0, 1]], [[1, 0], [3, 0], [3, 1], [1, 1]]])
    assert terrain_overlaps(state) == [("t0", "t1", pytest.approx(1.0))]
