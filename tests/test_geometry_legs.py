"""Straight legs (tabletop/geometry/legs.py, issue 11 item 1): a pile-in route takes
the straight segment when the way is clear, with no steering; the clearance is a
swept circle against each obstacle circle, worked by hand here.

32mm bases: 1.25984" across, radius 0.62992"; the fight-phase tolerance is 0.02",
so a leg may graze a base by a quarter of it, 0.005".
"""

from __future__ import annotations

import math

import pytest

from tabletop.board.bases import parse_base
from tabletop.board.mapfile import from_dict
from tabletop.geometry import paths
from tabletop.geometry.legs import leg_clear, round_leg_gaps, segment_distances
from tabletop.geometry.paths import Arena, Obstacle, find_routes

R32 = 1.25984 / 2.0
TOL = 0.02


def _ob(x, y, oid="o"):
    return Obstacle(oid, parse_base("32mm"), x, y, 90.0)


def test_a_leg_passing_exactly_at_the_sum_of_the_radii_is_clear():
    base = parse_base("32mm")
    r = base.radius
    # leg (0, 0) -> (10, 0); an obstacle centred at (5, 2r): its centre is 2r from the
    # segment (the foot of the perpendicular, (5, 0), lies inside the leg), so the gap is
    # 2r - r - r = 0: touching, not overlapping -> clear
    ob = _ob(5.0, 2 * r)
    assert segment_distances((0, 0), (10, 0), [(5.0, 2 * r)])[0] == pytest.approx(2 * r)
    assert round_leg_gaps((0, 0), (10, 0), r, [(5.0, 2 * r, r)])[0] == pytest.approx(0.0,
                                                                                     abs=1e-12)
    assert leg_clear(base, 90.0, (0.0, 0.0), (10.0, 0.0), [ob], [], TOL)
    # 0.004" nearer: a 0.004" graze, within a quarter of the tolerance (0.005") -> clear
    assert leg_clear(base, 90.0, (0.0, 0.0), (10.0, 0.0), [_ob(5.0, 2 * r - 0.004)], [], TOL)
    # 0.006" nearer: 0.006 > 0.005 -> blocked
    assert not leg_clear(base, 90.0, (0.0, 0.0), (10.0, 0.0), [_ob(5.0, 2 * r - 0.006)], [],
                         TOL)


def test_the_nearest_point_may_be_an_end_of_the_leg():
    base = parse_base("32mm")
    r = base.radius
    # leg (0, 0) -> (3, 0); obstacle at (3 + 2r + 0.1, 0) beyond the end: the nearest
    # point is the end (3, 0), 2r + 0.1 from the centre: gap 0.1 -> clear
    assert leg_clear(base, 90.0, (0, 0), (3, 0), [_ob(3 + 2 * r + 0.1, 0.0)], [], TOL)
    # the same obstacle at (3 + 2r - 0.1, 0): the base ends 0.1" into it -> blocked
    assert not leg_clear(base, 90.0, (0, 0), (3, 0), [_ob(3 + 2 * r - 0.1, 0.0)], [], TOL)


def test_a_base_that_starts_into_a_neighbour_may_leave_it():
    base = parse_base("32mm")
    r = base.radius
    # the mover starts 0.01" into a base at (2r - 0.01, 0) and moves away west, to
    # (-3, 0): the gap grows from -0.01 at once -> clear; moving east, into it -> blocked
    ob = _ob(2 * r - 0.01, 0.0)
    assert leg_clear(base, 90.0, (0, 0), (-3, 0), [ob], [], TOL)
    assert not leg_clear(base, 90.0, (0, 0), (3, 0), [ob], [], TOL)


def test_rect_bases_and_terrain_use_the_footprint():
    rect = parse_base("25x50mm")
    mover = parse_base("32mm")
    # a 25x50mm rectangle facing 90 degrees (its long side along y: 50mm = 1.9685" deep,
    # 25mm = 0.98425" wide) at (5, 2): its nearest edge is y = 2 - 0.98425 = 1.01575 at
    # the widest; the 32mm mover sliding along y = 0 has its top at 0.62992: gap 0.386 -> clear
    ob = Obstacle("rect", rect, 5.0, 2.0, 90.0)
    assert leg_clear(mover, 90.0, (0, 0), (10, 0), [ob], [], TOL)
    # along y = 0.5 the top is at 1.12992, 0.11" past the rectangle's edge -> blocked
    assert not leg_clear(mover, 90.0, (0, 0.5), (10, 0.5), [ob], [], TOL)
    from shapely.geometry import Polygon
    wall = Polygon([(4, 1), (6, 1), (6, 3), (4, 3)])
    # the wall's bottom edge is y = 1; along y = 0 the base's top is 0.63 -> 0.37 clear
    assert leg_clear(mover, 90.0, (0, 0), (10, 0), [], [wall], TOL)
    assert not leg_clear(mover, 90.0, (0, 0.5), (10, 0.5), [], [wall], TOL)


def _state():
    # the mover r/1 at (10, 10); an enemy base at (13, 10.5)
    return from_dict({
        "map": {"name": "legs", "ruleset": "fight-phase", "width": 30, "depth": 30},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [{"id": "r", "player": "red", "base": "32mm", "models": [[10, 10]]},
                  {"id": "e", "player": "blue", "base": "32mm",
                   "models": [[13, 12], [10, 11.5]]}]})


def test_a_clear_way_is_one_straight_leg_without_pymunk(monkeypatch):
    state = _state()
    mover = state.model("r/1")
    obs = [Obstacle(m.id, m.base, m.x, m.y, m.facing_deg) for m in state.models() if m.id != "r/1"]
    built = []
    real = paths._Sim.__init__

    def spy(self, *a, **k):
        built.append(1)
        real(self, *a, **k)
    monkeypatch.setattr(paths._Sim, "__init__", spy)
    arena = Arena(state)
    # aim (12, 10): east along y = 10; the nearest obstacle e/2 at (10, 11.5) is 1.5" from
    # the start (the foot of its perpendicular is the start itself): gap 1.5 - 2r = 0.24 -> clear
    routes = find_routes(arena, mover.base, mover.facing_deg, (10.0, 10.0), obs, (12.0, 10.0),
                         set(), 3.0)
    assert [r.path for r in routes] == [[(10.0, 10.0), (12.0, 10.0)]]
    assert routes[0].reached                      # 2" <= 3"
    assert built == []                            # no physics space
    # aim (14, 10): 4" away, cut at 3": ends at (13, 10), not reached
    far = find_routes(arena, mover.base, mover.facing_deg, (10.0, 10.0), obs, (14.0, 10.0),
                      set(), 3.0)
    assert far[0].path == [(10.0, 10.0), (13.0, 10.0)] and not far[0].reached
    # aim (10, 13.5): straight north runs into e/2 at (10, 11.5): it goes round it -
    # round bases among round bases slide round analytically (slides.py), still no pymunk
    round_ = find_routes(arena, mover.base, mover.facing_deg, (10.0, 10.0), obs,
                         (10.0, 13.5), set(), 3.0)
    assert built == [] and len(round_[0].path) > 2


def test_a_route_asked_again_is_remembered(monkeypatch):
    state = _state()
    mover = state.model("r/1")
    obs = [Obstacle(m.id, m.base, m.x, m.y, m.facing_deg) for m in state.models() if m.id != "r/1"]
    arena = Arena(state)
    first = find_routes(arena, mover.base, mover.facing_deg, (10.0, 10.0), obs, (10.0, 13.5),
                        set(), 3.0)
    steered = []
    monkeypatch.setattr(paths._Sim, "steer", lambda *a, **k: steered.append(1))
    monkeypatch.setattr(paths, "slide", lambda *a, **k: steered.append(1))
    again = find_routes(arena, mover.base, mover.facing_deg, (10.0, 10.0), obs, (10.0, 13.5),
                        set(), 3.0)
    assert [r.path for r in again] == [r.path for r in first] and steered == []


def test_every_leg_of_a_steered_route_is_clear():
    state = _state()
    mover = state.model("r/1")
    obs = [Obstacle(m.id, m.base, m.x, m.y, m.facing_deg) for m in state.models() if m.id != "r/1"]
    arena = Arena(state)
    for aim in ((10.0, 13.5), (13.0, 13.5), (8.0, 13.0)):
        for r in find_routes(arena, mover.base, mover.facing_deg, (10.0, 10.0), obs, aim,
                             set(), 3.0):
            for a, b in zip(r.path, r.path[1:]):
                for ob in obs:
                    # centre to leg less both radii: never deeper than a quarter tolerance
                    d = segment_distances(a, b, [(ob.x, ob.y)])[0]
                    assert d - 2 * R32 >= -TOL / 4 - 1e-9
            assert sum(math.dist(a, b) for a, b in zip(r.path, r.path[1:])) <= 3.0 + 1e-9
