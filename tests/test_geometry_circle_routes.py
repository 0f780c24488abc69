"""Shortest paths round circles (tabletop/geometry/circle_routes.py), worked by hand,
and the analytic clearance of round bases (paths._RoundClearance) against Shapely's."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop.board.bases import parse_base
from tabletop.geometry.circle_routes import ARC_STEP_DEG, shortest_path
from tabletop.geometry.paths import Arena, Obstacle, _Clearance, _RoundClearance, clearance


def _legs_clear(points, circles) -> bool:
    """Every leg of the polyline stays out of every circle (to 1e-6")."""
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        for cx, cy, r in circles:
            dx, dy = bx - ax, by - ay
            ll = dx * dx + dy * dy
            t = 0.0 if ll == 0 else max(0.0, min(1.0, ((cx - ax) * dx + (cy - ay) * dy) / ll))
            if math.hypot(ax + t * dx - cx, ay + t * dy - cy) < r - 1e-6:
                return False
    return True


def _length(points) -> float:
    return sum(math.dist(a, b) for a, b in zip(points, points[1:]))


def test_clear_way_is_one_straight_leg():
    # nothing in the way: (0, 0) -> (3, 4) is 5" straight
    p = shortest_path((0.0, 0.0), (3.0, 4.0), [(10.0, 10.0, 1.0)])
    assert p.points == [(0.0, 0.0), (3.0, 4.0)]
    assert p.length == pytest.approx(5.0)


def test_round_one_circle_tangents_and_arc():
    # start (0, 0), goal (0, 4), a circle of radius 1 at (0, 2) right between them.
    # Each tangent leg: sqrt(h^2 - R^2) = sqrt(2^2 - 1^2) = sqrt(3) = 1.7320508
    # (h = 2, the centre's distance from each end).  The tangent point sits acos(R/h) =
    # acos(1/2) = 60 degrees off the line to each end, so the arc between them spans
    # 180 - 2 x 60 = 60 degrees = pi/3 rad, R x pi/3 = 1.0471976.
    # Length: 2 sqrt(3) + pi/3 = 3.4641016 + 1.0471976 = 4.5112992"
    p = shortest_path((0.0, 0.0), (0.0, 4.0), [(0.0, 2.0, 1.0)])
    assert p.length == pytest.approx(2 * math.sqrt(3) + math.pi / 3, abs=1e-9)
    assert p.points[0] == (0.0, 0.0) and p.points[-1] == (0.0, 4.0)
    # the first tangent point: 60 degrees from the centre's line to the start, on
    # the circle: (-sin 60, 2 - cos 60) = (-0.8660254, 1.5) (or its mirror image)
    assert abs(p.points[1][0]) == pytest.approx(math.sqrt(3) / 2, abs=1e-9)
    assert p.points[1][1] == pytest.approx(1.5, abs=1e-9)
    # the drawn polyline stays outside the circle and is at most 0.13% longer
    # (legs of at most 8 degrees of arc, each 1/cos(4 deg) outside: tan(4)/rad(4) = 1.0016)
    assert _legs_clear(p.points, [(0.0, 2.0, 1.0)])
    assert p.length <= _length(p.points) <= p.length * (1 + 0.0013 * 1.3)
    assert ARC_STEP_DEG == 8.0


def test_model_behind_a_base_of_known_radius():
    # a 32mm model (radius 0.6299213") 4" behind the centre of another 32mm model's
    # goal: start (0, 0), goal (0, 4), the other base at (0, 2).  Its centre must stay
    # R = 0.6299213 + 0.6299213 = 1.2598425" from (0, 2).
    # tangents: sqrt(2^2 - 1.2598425^2) = sqrt(4 - 1.5872032) = sqrt(2.4127968) = 1.5533180
    # each; acos(1.2598425 / 2) = acos(0.6299213) = 0.8893445 rad, arc = pi - 2 x 0.8893445
    # = 1.3629036 rad, x R = 1.7170440.  Length: 2 x 1.5533180 + 1.7170440 = 4.8236800"
    r = parse_base("32mm").radius
    p = shortest_path((0.0, 0.0), (0.0, 4.0), [(0.0, 2.0, 2 * r)])
    assert 2 * r == pytest.approx(1.2598425, abs=1e-6)
    assert p.length == pytest.approx(4.8236800, abs=1e-6)
    assert _legs_clear(p.points, [(0.0, 2.0, 2 * r)])


def test_a_gap_wide_enough_is_taken_straight():
    # circles of radius 1 at (-1.5, 2) and (1.5, 2): the line x = 0 passes 1.5 > 1 from
    # both, so the way (0, 0) -> (0, 4) is clear: 4" straight
    p = shortest_path((0.0, 0.0), (0.0, 4.0), [(-1.5, 2.0, 1.0), (1.5, 2.0, 1.0)])
    assert p.points == [(0.0, 0.0), (0.0, 4.0)] and p.length == pytest.approx(4.0)


def test_a_wall_of_overlapping_circles_is_gone_round_at_its_end():
    # three circles of radius 1 at (-1.5, 2), (0, 2), (1.5, 2) overlap (centres 1.5 < 2
    # apart): no way between them, so round an end (by symmetry either, the same length).
    # Round the right end, the circle C = (1.5, 2):
    # - each leg: C is h = sqrt(1.5^2 + 2^2) = 2.5 from the start and from the goal, so a
    #   tangent leg is sqrt(2.5^2 - 1^2) = sqrt(5.25) = 2.2912878;
    # - C -> start points at atan2(-2, -1.5) = -(pi - 0.9272952) = -2.2142974 rad; the
    #   tangent point lies acos(1/2.5) = 1.1592795 rad round from it, on the outside:
    #   at -2.2142974 + 1.1592795 = -1.0550180 rad, i.e. (1.9928, 1.1298); by symmetry the
    #   goal's at +1.0550180 rad: the arc between spans 2 x 1.0550180 = 2.1100359 rad, x 1.
    # Length: 2 x 2.2912878 + 2.1100359 = 6.6926116"
    circles = [(-1.5, 2.0, 1.0), (0.0, 2.0, 1.0), (1.5, 2.0, 1.0)]
    p = shortest_path((0.0, 0.0), (0.0, 4.0), circles)
    assert p.length == pytest.approx(6.6926116, abs=1e-6)
    assert _legs_clear(p.points, circles)
    # its first corner is the tangent point (1.9928, 1.1298) or the mirror (-1.9928, 1.1298)
    assert abs(p.points[1][0]) == pytest.approx(1.5 + math.cos(1.0550180), abs=1e-6)
    assert p.points[1][1] == pytest.approx(2.0 - math.sin(1.0550180), abs=1e-6)


def test_walled_in_has_no_path():
    # eight circles of radius 1 on a ring of radius 1.5 round the start: neighbours
    # 2 x 1.5 x sin(22.5 deg) = 1.148 < 2 apart, so they overlap all round
    ring = [(1.5 * math.cos(k * math.pi / 4), 1.5 * math.sin(k * math.pi / 4), 1.0)
            for k in range(8)]
    assert shortest_path((0.0, 0.0), (5.0, 0.0), ring) is None


def test_the_box_keeps_the_path_on_the_table():
    # the circle at (0.5, 2), radius 1, leaves the left way round needing x down to
    # -0.5; with the box's left edge at x = -0.2 the path must go round the right
    circles = [(0.5, 2.0, 1.0)]
    free = shortest_path((0.0, 0.0), (0.0, 4.0), circles)
    boxed = shortest_path((0.0, 0.0), (0.0, 4.0), circles, box=(-0.2, -1.0, 5.0, 5.0))
    assert min(x for x, _ in free.points) < -0.2          # left is shorter when allowed
    assert min(x for x, _ in boxed.points) >= -0.2 - 1e-9
    assert boxed.length > free.length


def test_the_same_case_moved_gives_the_same_path_moved():
    circles = [(0.0, 2.0, 1.0), (1.2, 3.1, 0.7)]
    a = shortest_path((0.0, 0.0), (0.3, 5.0), circles)
    b = shortest_path((10.0, 7.0), (10.3, 12.0),
                      [(x + 10.0, y + 7.0, r) for x, y, r in circles])
    assert b.length == pytest.approx(a.length, abs=1e-9)
    assert len(a.points) == len(b.points)
    for (x, y), (u, v) in zip(a.points, b.points):
        assert (u, v) == pytest.approx((x + 10.0, y + 7.0), abs=1e-9)


def test_a_start_a_hair_into_a_circle_never_goes_deeper():
    # the start (0, 0) is 0.99 from the circle's centre (0.99, 0), radius 1: the circle
    # is shrunk to pass through the start, so the path may leave but not go deeper
    p = shortest_path((0.0, 0.0), (-3.0, 0.0), [(0.99, 0.0, 1.0)])
    assert p.points == [(0.0, 0.0), (-3.0, 0.0)] and p.length == pytest.approx(3.0)


ROUND = parse_base("32mm")          # radius 0.6299213"


def _arena(tol=0.02):
    class _S:                                      # the little Arena reads
        class table:
            width, depth = 30.0, 30.0

        class rules:
            pass

        terrain = ()
    _S.rules.tol = tol
    return Arena(_S)


def test_round_clearance_by_hand_and_as_shapely_says():
    # a 32mm base moving from (5, 5) to (8, 5) past another 32mm base: centres must stay
    # 2 x 0.6299213 = 1.2598425" apart, less a quarter of the tolerance (0.005)
    arena = _arena()
    near = [Obstacle("o", ROUND, 6.5, 5.0 + 1.27, 0.0)]      # 1.27 - 1.2598 = 0.0102" gap
    touch = [Obstacle("o", ROUND, 6.5, 5.0 + 1.25, 0.0)]     # -0.0098": into it by more than 0.005
    for obs, ok in ((near, True), (touch, False)):
        rc = _RoundClearance(arena, ROUND, (5.0, 5.0), obs)
        sc = _Clearance(arena, ROUND, 0.0, (5.0, 5.0), obs, 10.0)
        assert bool(rc.clear_from((5.0, 5.0), [(8.0, 5.0)])[0]) is ok
        assert bool(sc.clear_from((5.0, 5.0), [(8.0, 5.0)])[0]) is ok
        # standing at (6.5, 5): the same gaps as the closest point of the move
        assert bool(rc.clear_at([(6.5, 5.0)])[0]) is ok
        assert bool(sc.clear_at([(6.5, 5.0)])[0]) is ok
    assert isinstance(clearance(arena, ROUND, 0.0, (5.0, 5.0), near, 10.0), _RoundClearance)


def test_round_clearance_agrees_with_shapely_on_random_cases():
    rng = np.random.default_rng(7)
    arena = _arena()
    for _ in range(20):
        obs = [Obstacle(f"o{k}", ROUND, *rng.uniform(2, 8, 2), 0.0) for k in range(6)]
        start = tuple(rng.uniform(2, 8, 2))
        pts = [tuple(p) for p in rng.uniform(2, 8, (15, 2))]
        rc = _RoundClearance(arena, ROUND, start, obs)
        sc = _Clearance(arena, ROUND, 0.0, start, obs, 20.0)
        assert (rc.clear_at(pts) == sc.clear_at(pts)).all()
        assert (rc.clear_from(start, pts) == sc.clear_from(start, pts)).all()
