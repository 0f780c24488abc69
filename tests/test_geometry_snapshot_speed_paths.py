"""The snapshot's fast paths (issue 11 item 2) give the answers of the slow ones: the
cell grid written into per-thread scratch arrays (``near_pairs.circle_pairs``), the
footprint polygons of ovals and rectangles built only when a pair needs them, the
circumradius read off the base's template (``convex.template_reach``).  Hand-worked
positions state their arithmetic; the hypothesis tests compare with brute force.

32mm = 1.259843" (radius 0.629921"); 60x35mm oval: semi-axes 1.181102" along the facing,
0.688976" across; 25x50mm: 0.984252" frontage across the facing, 1.968504" deep along
it; 75x42mm oval: semi-axes 1.476378" and 0.826772".  Fight-phase defaults: engagement
1", coherency 2", tolerance 0.02", so pairs are kept within 2.02".
"""

from __future__ import annotations

import math
import threading
import tracemalloc

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.bench.layout import random_battlefield
from tabletop.bench.snapshot_bench import _answers, with_objectives
from tabletop.board.bases import parse_base
from tabletop.geometry import convex, near_pairs, snapshot
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.footprints import core_and_pad
from tests.test_geometry_snapshot_derive import make

MM = 1 / 25.4


# ---------------------------------------------------------------- worked by hand

def test_circle_pairs_by_hand_then_again_after_a_bigger_table():
    # radii 0.5: (0, 0)-(3, 0) circle gap 3 - 1 = 2.0 <= 2.02 kept; (0, 0)-(0, 3.1)
    # 3.1 - 1 = 2.1 dropped; (3, 0)-(0, 3.1) 4.313931 - 1 dropped; (40, 40) near nothing
    c = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.1], [40.0, 40.0]])
    r = np.full(4, 0.5)
    i, j, g = near_pairs.circle_pairs(c, r, 2.02)
    assert (i.tolist(), j.tolist()) == ([0], [1])
    assert g.tolist() == [2.0]
    # a table of 3,000 bases grows the scratch arrays; the small one reads the same after
    big = np.random.default_rng(1).uniform(0, 60, (3000, 2))
    near_pairs.circle_pairs(big, np.full(3000, 0.63), 2.02)
    i, j, g = near_pairs.circle_pairs(c, r, 2.02)
    assert (i.tolist(), j.tolist(), g.tolist()) == ([0], [1], [2.0])


def test_oval_polygons_are_built_only_when_a_pair_needs_them():
    # a 60x35mm oval facing 0 at (20, 5), a 32mm model at (5, 5): 15" apart, no pair
    # near enough to measure, so the snapshot answers everything from circles and forms
    s = make([("bike", "red", "60x35mm oval", [(20, 5, 0)]),
              ("foot", "blue", "32mm", [(5, 5)])])
    g = snapshot(s)
    _answers(g)
    assert "_polys" not in g.__dict__
    # asked for the distance, it measures the oval's form against the round centre
    # (convex.point_distances), still with no Shapely polygon: the oval's tip at
    # 20 - 1.181102 = 18.818898, the round edge at 5 + 0.629921 = 5.629921: 13.188976"
    assert g.distance("bike/1", "foot/1") == pytest.approx(15 - 30 * MM - 16 * MM, abs=1e-12)
    assert "_polys" not in g.__dict__


def test_a_round_base_beside_an_oval_is_measured_on_its_polygon():
    # the 32mm centre 2" above the oval's centre (oval facing 0): the flat side at
    # y = 0.688976 + 5, the round edge at 7 - 0.629921: gap 2 - 0.688976 - 0.629921 =
    # 0.681103" (the 256-gon has a vertex at t = pi / 2, so exactly)
    s = make([("bike", "red", "60x35mm oval", [(5, 5, 0)]),
              ("foot", "blue", "32mm", [(5, 7)])])
    g = snapshot(s)
    assert g.gap("bike/1", "foot/1") == pytest.approx(2 - 17.5 * MM - 16 * MM, abs=1e-12)
    assert g.engaged_unit_pairs == [("bike", "foot")]         # 0.681103 <= 1 + 0.02


def test_touching_and_overlapping_rectangles_still_tell_apart():
    # 25x50mm facing 0: frontage 0.984252" along y.  Centres 0.984252" apart along y:
    # edges touch (gap 0, in base contact); centres 0.9" apart: they share a strip
    # 0.084252" wide, more than the 0.02" tolerance (an overlap, the shrunk test)
    touch = make([("a", "red", "25x50mm", [(5, 5, 0)]),
                  ("b", "blue", "25x50mm", [(5, 5 + 25 * MM, 0)])])
    g = snapshot(touch)
    assert g.base_contacts == [("a/1", "b/1")] and g.overlaps == []
    over = make([("a", "red", "25x50mm", [(5, 5, 0)]),
                 ("b", "blue", "25x50mm", [(5, 5.9, 0)])])
    g = snapshot(over)
    assert g.overlaps == [("a/1", "b/1")] and g.base_contacts == []


def test_template_reach_bounds_every_placed_outline():
    # 75x42mm oval: the farthest vertices are the tips, 37.5mm = 1.476378" out
    oval = parse_base("75x42mm oval")
    assert convex.template_reach(oval) == pytest.approx(37.5 * MM, abs=1e-8)
    # 25x50mm: the corners, sqrt(0.492126^2 + 0.984252^2) = 1.100425"
    rect = parse_base("25x50mm")
    assert convex.template_reach(rect) == pytest.approx(math.hypot(12.5 * MM, 25 * MM),
                                                        abs=1e-8)
    rng = np.random.default_rng(3)
    for base in (oval, rect):
        xs, ys = rng.uniform(-100, 100, 50), rng.uniform(-100, 100, 50)
        outlines, _ = convex.placed_outlines(base, xs, ys, rng.uniform(-720, 720, 50))
        assert (convex.reaches(outlines, xs, ys) <= convex.template_reach(base)).all()


# ---------------------------------------------------------------- against brute force

@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 30), st.floats(0, 20),
                          st.sampled_from([0.49, 0.63, 0.79, 1.48, 2.1, 3.4])),
                min_size=0, max_size=60),
       st.floats(0.0, 3.0))
def test_circle_pairs_equal_the_brute_force_circle_gaps(points, limit):
    # every pair i < j whose circle gap is within the limit, with that gap to the bit
    # (the big radii 2.1 and 3.4 go through the every-base test, the rest the grid)
    n = len(points)
    c = np.array([(x, y) for x, y, _ in points], dtype=float).reshape(-1, 2)
    r = np.array([q for _, _, q in points], dtype=float)
    i, j, g = near_pairs.circle_pairs(c, r, limit)
    got = {(a, b): v for a, b, v in zip(i.tolist(), j.tolist(), g.tolist())}
    want = {}
    for a in range(n):
        for b in range(a + 1, n):
            dx, dy = c[a, 0] - c[b, 0], c[a, 1] - c[b, 1]
            v = float(np.sqrt(dx * dx + dy * dy) - r[a] - r[b])
            if v <= limit:
                want[(a, b)] = v
    assert got == want


@st.composite
def mixed_tables(draw):
    bases = ["25mm", "32mm", "40mm", "60x35mm oval", "75x42mm oval", "25x50mm", "100x50mm"]
    units = []
    for k in range(draw(st.integers(2, 6))):
        base = draw(st.sampled_from(bases))
        x0, y0 = draw(st.floats(3, 27)), draw(st.floats(3, 17))
        ms = [(x0 + draw(st.floats(-3, 3)), y0 + draw(st.floats(-3, 3)),
               draw(st.sampled_from([0.0, 90.0, 45.0, 200.0])))
              for _ in range(draw(st.integers(1, 5)))]
        units.append((f"u{k}", "red" if k % 2 == 0 else "blue", base, ms))
    return make(units)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_tables())
def test_the_pairs_kept_are_every_pair_within_reach_on_the_exact_shapes(state):
    # every pair of round, oval and rectangular bases whose gap on the exact shapes
    # (Shapely: centre points padded by the radius, footprint polygons else) is within
    # the snapshot's reach is kept, with that gap, and no other pair is
    g = snapshot(state)
    parts = [core_and_pad(m.base, m.x, m.y, m.facing_deg) for m in state.models()]
    limit = g.near + tolmod.EPS
    got = dict(zip(zip(g._pi.tolist(), g._pj.tolist()), g._pg.tolist()))
    n = len(parts)
    for a in range(n):
        for b in range(a + 1, n):
            want = float(shapely.distance(parts[a][0], parts[b][0])) - parts[a][1] - parts[b][1]
            if abs(want - limit) < 1e-9:
                continue                               # on the edge of reach: either way
            assert ((a, b) in got) == (want <= limit), (a, b, want)
            if (a, b) in got:
                assert got[(a, b)] == pytest.approx(want, abs=1e-12)


def test_snapshots_built_in_two_threads_at_once_agree_with_one_thread():
    # the scratch arrays are per thread: two tables built side by side, many times,
    # give the answers each gives alone
    tables = [with_objectives(random_battlefield(n, seed)) for n, seed in ((400, 1), (600, 2))]
    alone = [_answers(snapshot(t)) for t in tables]
    seen: list[list] = [[], []]

    def work(k: int) -> None:
        for _ in range(15):
            seen[k].append(_answers(snapshot(tables[k])))

    threads = [threading.Thread(target=work, args=(k,)) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(got == alone[k] for k in (0, 1) for got in seen[k])
    assert [len(s) for s in seen] == [15, 15]


def test_the_grid_keeps_no_candidate_length_arrays_of_its_own():
    # a 1,000-model table has some 8,500 candidate pairs (one such float array: 68 KB).
    # Each was allocated afresh, a dozen at once (about 900 KB at the peak), and freed
    # again at every snapshot, which made the C library hand the memory back to the
    # system and fault it in again (about 150 page faults a snapshot in the benchmark);
    # now they are written into scratch arrays kept between calls: what is left is the
    # per-base arrays and the pairs kept (2,800 of them), well under 400 KB
    state = with_objectives(random_battlefield(1000, 0))
    g = snapshot(state)
    near_pairs.circle_pairs(g.centres, g._reach, g.near)          # scratch grown
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        i, j, gaps = near_pairs.circle_pairs(g.centres, g._reach, g.near)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert len(i) > 2000
    assert peak < 400 * 1024


def test_a_first_snapshot_with_no_candidate_pairs_on_a_new_thread():
    # the pair search's scratch arrays are per thread; a thread whose first table has no
    # two bases near each other (two 32mm bases 20" apart: no candidate pair) asked them for
    # none and found them unmade (AttributeError before the fix)
    import threading
    import tomllib

    from tabletop.board import mapfile
    from tabletop.geometry import snapshot
    text = """
[map]
name = "far"
ruleset = "fight-phase"
width = 44
depth = 30
[[players]]
id = "red"
active = true
[[players]]
id = "blue"
[[units]]
id = "red"
player = "red"
base = "32mm"
models = [[2, 2]]
[[units]]
id = "blue"
player = "blue"
base = "32mm"
models = [[22, 2]]
"""
    got: list = []

    def run() -> None:
        try:
            got.append(snapshot(mapfile.from_dict(tomllib.loads(text))).base_contacts)
        except Exception as e:  # noqa: BLE001 - the failure is what this test reports
            got.append(e)
    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert got == [[]], got
