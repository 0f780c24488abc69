"""The analytic slide round round bases (geometry/slides.py), worked by hand.

Each case has circles already grown (the mover's radius and the margin added):
the centre must stay out of them.  HEAD_ON is the steering's 0.25."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.board.mapfile import from_dict
from tabletop.geometry import paths
from tabletop.geometry.paths import Arena, Obstacle, find_routes
from tabletop.geometry.slides import slide

HEAD_ON = 0.25


def _run(circles, aim, goal=None, side=1, limit=10.0, stop=None, start=(0.0, 0.0)):
    c = np.array(circles, dtype=float).reshape(-1, 3)
    g = np.zeros(len(c), dtype=bool) if goal is None else np.array(goal, dtype=bool)
    return slide(start, aim, c, g, stop, limit, side, HEAD_ON, 9, 0.005)


def _length(route):
    return sum(math.dist(a, b) for a, b in zip(route, route[1:]))


def test_a_clear_way_is_one_straight_leg():
    route, reached, turned, wedge = _run([], (3.0, 0.0))
    assert route == [(0.0, 0.0), (3.0, 0.0)] and reached and not turned and wedge is None


def test_a_glancing_circle_is_slid_round_to_the_tangent():
    # circle (2, 0.5) R 1 across the way east to (4, 0): met at x = 2 - sqrt(1 - 0.25) = 1.1340;
    # the pull (1, 0) against the normal (0.866, 0.5) leaves 0.5 along the circle (> 0.25: not
    # head-on), so it slides round below it (counter-clockwise, from -150 deg) to the tangent from
    # the aim: w = (2, -0.5), |w| = 2.0616, beta = acos(1 / 2.0616) = 60.98 deg, at -14.04 - 60.98
    # = -75.02 deg: (2 + cos, 0.5 + sin) = (2.2585, -0.4660); then straight on to the aim
    route, reached, turned, _ = _run([(2.0, 0.5, 1.0)], (4.0, 0.0))
    assert reached and not turned
    assert route[0] == (0.0, 0.0) and route[-1] == (4.0, 0.0)
    assert math.isclose(route[1][0], 2.0 - math.sqrt(0.75), abs_tol=1e-9)
    assert math.isclose(route[-2][0], 2.2585, abs_tol=1e-4)
    assert math.isclose(route[-2][1], -0.4660, abs_tol=1e-4)
    # length: 1.1340 to the circle + arc 75.02 deg = 1.3093 + tangent sqrt(2.0616^2 - 1) = 1.8028
    # = 4.2461 (the arc drawn as chords: a hair shorter)
    assert math.isclose(_length(route), 4.2461, abs_tol=2e-3)


def test_head_on_it_keeps_the_circle_on_the_hand_side_gives():
    # circle (2, 0) R 1 dead ahead of the way east to (4, 0): met at (1, 0) head-on (nothing
    # along the circle); side +1 turns left, as the steering (pymunk) does: round the top,
    # clockwise from 180 deg to the tangent from the aim at 60 deg (w = (2, 0), beta = 60),
    # (2.5, 0.866); length 1 + 2 pi / 3 + sqrt(4 - 1) = 1 + 2.0944 + 1.7321 = 4.8265
    route, reached, turned, _ = _run([(2.0, 0.0, 1.0)], (4.0, 0.0), side=1)
    assert reached and turned
    assert all(y >= -1e-9 for _, y in route)
    assert math.isclose(route[-2][0], 2.5, abs_tol=1e-6)
    assert math.isclose(route[-2][1], math.sqrt(3) / 2, abs_tol=1e-6)
    assert math.isclose(_length(route), 4.8265, abs_tol=2e-3)
    # side -1: the mirror image, round the bottom
    route, reached, turned, _ = _run([(2.0, 0.0, 1.0)], (4.0, 0.0), side=-1)
    assert reached and turned and all(y <= 1e-9 for _, y in route)
    assert math.isclose(route[-2][1], -math.sqrt(3) / 2, abs_tol=1e-6)


def test_touching_a_goal_base_ends_the_route_reached():
    # the goal circle (2, 0) R 1: met at (1, 0), 1" from the start
    route, reached, _, _ = _run([(2.0, 0.0, 1.0)], (2.0, 0.0), goal=[True])
    assert reached and route == [(0.0, 0.0), (1.0, 0.0)]


def test_the_first_pocket_is_kept_as_a_wedge():
    # two circles (2, +-0.8) R 1 overlap across the way east; they cross at x = 2 - sqrt(1 -
    # 0.64) = 1.4 on the axis, where the pull (1, 0) presses into both: a pocket.  The route
    # notes it (the points up to (1.4, 0)) and, head-on there, goes round on the side's hand
    route, reached, turned, wedge = _run([(2.0, 0.8, 1.0), (2.0, -0.8, 1.0)], (4.0, 0.0))
    assert wedge is not None and turned
    assert math.isclose(route[wedge - 1][0], 1.4, abs_tol=1e-9)
    assert math.isclose(route[wedge - 1][1], 0.0, abs_tol=1e-9)


def test_a_stop_test_ends_the_route_where_it_first_holds():
    # the way east to (4, 0) is clear; stop when x >= 2.5: ends at (2.5, 0) to 0.05 / 2^12
    route, reached, _, _ = _run([], (4.0, 0.0), stop=lambda p: p[0] >= 2.5)
    assert reached and math.isclose(route[-1][0], 2.5, abs_tol=1e-4)


def test_the_limit_cuts_the_route():
    route, reached, _, _ = _run([], (4.0, 0.0), limit=1.5)
    assert not reached and route[-1] == (1.5, 0.0)


def test_a_table_edge_is_slid_along():
    # a 32mm base (r 0.63) 0.7" from the left edge of a 30x30 table, aim 3" to the west-north-west
    # beyond the edge: the centre may not pass x = r + margin = 0.64 (margin half the 0.02
    # tolerance); it slides north along that line
    state = from_dict({
        "map": {"name": "edge", "ruleset": "fight-phase", "width": 30, "depth": 30},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [{"id": "r", "player": "red", "base": "32mm", "models": [[0.7, 10]]},
                  {"id": "e", "player": "blue", "base": "32mm", "models": [[20, 20]]}]})
    m = state.model("r/1")
    arena = Arena(state)
    circles, goal = paths._slide_circles(arena, m.base, (0.7, 10.0), [], set(), 8.0)
    route, _, _, _ = slide((0.7, 10.0), (-2.0, 11.0), circles, goal, None, 3.0, 1, HEAD_ON, 9,
                           0.005)
    r = m.base.radius + arena.margin
    # the edge is a circle of radius 1e6 touching the line at y = 10: 3" along it departs
    # 3^2 / 2e6 = 4.5e-6" from the line
    assert all(x >= r - 5e-6 for x, _ in route)
    assert route[-1][1] > 10.9                  # it went on north along the edge


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(-3, 3), st.floats(-3, 3), st.floats(0.3, 1.5)),
                min_size=1, max_size=8),
       st.tuples(st.floats(-4, 4), st.floats(-4, 4)), st.sampled_from([1, -1]))
def test_a_slide_never_enters_a_circle_and_keeps_to_its_limit(circles, aim, side):
    c = np.array(circles, dtype=float)
    d0 = np.hypot(c[:, 0], c[:, 1])
    route, _, _, wedge = _run(circles, aim, side=side, limit=6.0)
    pts = np.array(route)
    # every point stays out of every circle (a circle the start stands in: as far as the start)
    dist = np.hypot(pts[:, None, 0] - c[None, :, 0], pts[:, None, 1] - c[None, :, 1])
    assert (dist >= np.minimum(c[:, 2], d0)[None, :] - 1e-6).all()
    assert _length(route) <= 6.0 + 1e-6
    assert wedge is None or 1 <= wedge <= len(route)


def test_round_bases_route_without_pymunk(monkeypatch):
    # find_routes for a 32mm base with a 32mm base dead ahead: a slide, no physics space
    state = from_dict({
        "map": {"name": "slide", "ruleset": "fight-phase", "width": 30, "depth": 30},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [{"id": "r", "player": "red", "base": "32mm", "models": [[10, 10]]},
                  {"id": "e", "player": "blue", "base": "32mm", "models": [[10, 11.5]]}]})
    m = state.model("r/1")
    built = []
    monkeypatch.setattr(paths, "_Sim", lambda *a, **k: built.append(1))
    obs = [Obstacle("e/1", m.base, 10.0, 11.5, 90.0)]
    routes = find_routes(Arena(state), m.base, m.facing_deg, (10.0, 10.0), obs, (10.0, 13.5),
                         set(), 3.0)
    assert built == [] and len(routes[0].path) > 2


def test_a_rear_model_slides_round_its_friend_without_pymunk(monkeypatch):
    # 32mm bases (r = 0.62992"), margin 0.01 (half the 0.02 tolerance): r/1 at (10, 10) is 0.54"
    # from e/1 at (10, 11.8) (gap 1.8 - 1.2598); r/2 right behind r/1 at (10, 8.6).  r/1 piles in
    # straight to base contact: 0.5302" north, to (10, 10.5302) (gap = the margin, 0.01).
    # r/2's way north is blocked by r/1, so it goes round r/1's grown circle (R = 2r + 0.01 =
    # 1.2698).  The nearest spot touching e/1 (centre 1.2698 from e/1) and clear of r/1 is where
    # the two circles cross, (11.0997, 11.1651); the shortest way there from (10, 8.6) is the
    # tangent to r/1's circle, sqrt(1.9302^2 - 1.2698^2) = 1.4536, then round the arc, 1.5767:
    # 3.0303" in all, 0.0303 more than the 3" move.  So r/2 moves the whole 3", bent round r/1,
    # and ends short of base contact (gap over the 0.02 tolerance) by no more than the 0.0303
    # it lacks: gap <= 0.01 + 0.0303 = 0.0403 (the pymunk steering left 0.0456).  No pymunk
    # space is built: round bases slide round analytically.
    from tabletop.geometry import snapshot
    from tabletop.geometry.moves import PILE_IN_RULE, MoveSpec, pile_in_targets, solve_move

    def no_physics(*a, **k):
        raise AssertionError("pymunk steering used for round bases")
    monkeypatch.setattr(paths, "_Sim", no_physics)
    state = from_dict({
        "map": {"name": "behind", "ruleset": "fight-phase", "width": 30, "depth": 30},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [{"id": "r", "player": "red", "base": "32mm", "models": [[10, 10], [10, 8.6]]},
                  {"id": "e", "player": "blue", "base": "32mm", "models": [[10, 11.8]]}]})
    geo = snapshot(state)
    targets, _ = pile_in_targets(state, geo, "r")
    plan = solve_move(state, geo, MoveSpec("pile_in", "r", tuple(targets), 3.0, PILE_IN_RULE))
    assert plan.violations == []
    after = snapshot(state.with_positions(plan.positions))
    tol = state.rules.tol
    assert math.isclose(plan.positions["r/1"][1], 10.5302, abs_tol=1e-4)
    assert after.gap("r/1", "e/1") <= tol                    # base contact
    assert len(plan.paths["r/2"]) > 2                         # bent round r/1
    assert math.isclose(_length(plan.paths["r/2"]), 3.0, abs_tol=1e-6)
    assert tol < after.gap("r/2", "e/1") <= 0.0403
    assert after.gap("r/1", "r/2") >= -tol                    # no overlap


def test_the_other_hand_goes_on_from_where_the_first_asked_which_hand():
    # circle (2, 0) R 1 dead ahead (as above): both hands walk the same leg to (1, 0), where the
    # walk first asks which hand to keep; the first walk leaves that point in ``handoff`` and
    # the second goes on from it, round the bottom to (2.5, -0.866) and on to the aim: the
    # route a walk from the start draws, to the last bit
    c = np.array([(2.0, 0.0, 1.0)])
    g = np.zeros(1, dtype=bool)
    handoff: dict = {}
    first = slide((0.0, 0.0), (4.0, 0.0), c, g, None, 10.0, 1, HEAD_ON, 9, 0.005, {}, handoff)
    fork = handoff["fork"][2]
    assert fork[5] == (1.0, 0.0)                    # the route so far ends where it met the circle
    second = slide((0.0, 0.0), (4.0, 0.0), c, g, None, 10.0, -1, HEAD_ON, 9, 0.005, {}, handoff)
    fresh = slide((0.0, 0.0), (4.0, 0.0), c, g, None, 10.0, -1, HEAD_ON, 9, 0.005)
    assert second == fresh and second != first
    assert math.isclose(second[0][-2][1], -math.sqrt(3) / 2, abs_tol=1e-6)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(-3, 3), st.floats(-3, 3), st.floats(0.3, 1.5)),
                min_size=1, max_size=10),
       st.tuples(st.floats(-4, 4), st.floats(-4, 4)), st.booleans())
def test_the_handed_over_walk_is_the_walk_from_the_start(circles, aim, stops):
    c = np.array(circles, dtype=float)
    g = np.zeros(len(c), dtype=bool)

    def stop(p):
        return math.dist(p, aim) < 0.5
    handoff: dict = {}
    for side in (1, -1):
        got = slide((0.0, 0.0), aim, c, g, stop if stops else None, 6.0, side, HEAD_ON, 9, 0.005,
                    {}, handoff)
        fresh = slide((0.0, 0.0), aim, c, g, stop if stops else None, 6.0, side, HEAD_ON, 9, 0.005)
        assert got == fresh
