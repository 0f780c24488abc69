"""Pile-in speed (issue 11 item 1, round four): the round clearance cut down to the
obstacles near the points asked about (``paths._RoundClearance.within``), and the
repair spots' ring crossings of round bases worked out all at once
(``cohere._crossings``), give the answers of the full measure."""

from __future__ import annotations

import math

import numpy as np

from tabletop.board.bases import parse_base
from tabletop.board.mapfile import from_dict
from tabletop.geometry import paths
from tabletop.geometry.cohere import _crossings
from tabletop.geometry.paths import Arena, Obstacle, clearance, ring_crossings

ONE = parse_base("50.8mm")          # radius exactly 1"


def _arena():
    return Arena(from_dict({
        "map": {"name": "taut", "ruleset": "fight-phase", "width": 40, "depth": 40},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [{"id": "r", "player": "red", "base": "50.8mm", "models": [[5, 5]]}]}))


def _obstacles():
    # one base near the mover (start (5, 5)): centre (5, 8), edges 3 - 1 - 1 = 1" apart;
    # nine more from (15, 15) on, 2.5" apart: more than NEAR_FROM, so they are cut away
    near = [Obstacle("n", ONE, 5.0, 8.0, 90.0)]
    far = [Obstacle(f"f{i}", ONE, 15.0 + 2.5 * i, 15.0, 90.0) for i in range(9)]
    assert len(near) + len(far) > paths.NEAR_FROM
    return near + far


def test_a_round_clearance_within_a_box_keeps_only_the_obstacles_that_can_touch_it():
    arena = _arena()
    clear = clearance(arena, ONE, 90.0, (5.0, 5.0), _obstacles(), 10.0)
    # points (5, 5)..(5, 6.5): the box is x 5..5, y 5..6.5; the near base's centre is
    # 8 - 6.5 = 1.5" from it, under the two radii (2"): kept; the first far base is
    # hypot(10, 8.5) = 13.1" away: left out, like every other far one
    box = clear.within([(5.0, 5.0), (5.0, 6.5)])
    assert box.c.tolist() == [[5.0, 8.0, 1.0]]
    # the tolerance is 0.02" (fight-phase): a quarter of it, 0.005", may be grazed.
    # (5, 5.95): centres 2.05" apart, gap +0.05: clear.  (5, 6.05): gap -0.05: not
    # clear.  (5, 6.0): touching, gap 0: clear.  The same answers as the full test.
    pts = [(5.0, 5.95), (5.0, 6.05), (5.0, 6.0)]
    assert box.clear_at(pts).tolist() == [True, False, True]
    assert clear.clear_at(pts).tolist() == [True, False, True]
    # legs from the start: to (5, 6.0) the leg ends touching (clear); to (8, 8) the
    # leg passes the near centre (5, 8) at distance |(0,3) x (3,3)| / |(3,3)| =
    # 9 / 4.243 = 2.121": gap 0.121, clear; to (5, 7) the end is 1" from the centre:
    # gap -1, not clear
    legs = [(5.0, 6.0), (8.0, 8.0), (5.0, 7.0)]
    assert clear.clear_from((5.0, 5.0), legs).tolist() == [True, True, False]
    assert clear.within([(5.0, 5.0), *legs]).clear_from((5.0, 5.0), legs).tolist() \
        == [True, True, False]


def test_the_ring_crossings_of_round_bases_all_at_once_are_those_pair_by_pair():
    # mover radius 1; friend at (0, 0) 1" off its edge: ring radius 1 + 1 + 1 = 3;
    # target at (5, 0) at gaps 1 and 0.5: rings 3 and 2.5.
    # gap 1:   along = (9 - 9 + 25) / 10 = 2.5, h = sqrt(9 - 6.25) = 1.6583
    # gap 0.5: along = (9 - 6.25 + 25) / 10 = 2.775, h = sqrt(9 - 7.7006) = 1.1399
    # a second target at (7, 0) is 7" off: over 3 + 3, the rings do not cross
    friend = [Obstacle("f", ONE, 0.0, 0.0, 90.0)]
    targets = [Obstacle("t", ONE, 5.0, 0.0, 90.0), Obstacle("u", ONE, 7.0, 0.0, 90.0)]
    got = _crossings(ONE, 90.0, friend, 1.0, targets, [0.5, 1.0])
    h1, h2 = math.sqrt(9 - 2.775 ** 2), math.sqrt(9 - 6.25)
    want = [(2.775, h1), (2.775, -h1), (2.5, h2), (2.5, -h2)]
    assert np.allclose(got, want, atol=1e-12)
    pair = [p for t in targets for g in (0.5, 1.0)
            for p in ring_crossings(ONE, 90.0, friend[0], 1.0, t, g)]
    assert np.allclose(got, pair, atol=1e-12)
    assert _crossings(ONE, 90.0, friend, 1.0, [], [1.0]).shape == (0, 2)


def test_a_steered_route_among_round_bases_is_clear_leg_by_leg_and_point_by_point():
    # the mover (radius 1) at (5, 5) aims at (5, 11): the base at (5, 8) stands in the
    # way (its edge 1" off the mover's), so the route is steered round it (slides).
    # Pulled tight and cut at its first unclear leg, every leg is clear (measured as
    # the greedy pass kept it), so every point on it is: the route says so
    # (``legs_clear``) and the full measure agrees at points 0.05" apart along it
    arena = _arena()
    obstacles = _obstacles()
    routes = paths.find_routes(arena, ONE, 90.0, (5.0, 5.0), obstacles, (5.0, 11.0), set(), 6.0)
    full = clearance(arena, ONE, 90.0, (5.0, 5.0), obstacles, 10.0)
    assert routes and all(r.legs_clear for r in routes)
    for r in routes:
        assert len(r.path) > 2                      # round the base, not straight
        assert full.clear_legs(r.path).all()
        pts = [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
               for a, b in zip(r.path, r.path[1:]) for t in np.linspace(0, 1, 21)]
        assert full.clear_at(pts).all()
        assert paths.clear_prefix(paths.pull_tight(r.path, full), full) == r.path
