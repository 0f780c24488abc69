"""One physics space per mover and obstacles in a solve (issue 11 item 1):
``Arena.sim_for`` builds a pymunk space once and hands it out again; a route
steered in a reused space is the route a new space gives.

32mm bases are 1.25984" across (radius 0.62992"); the tolerance is 0.02", so
a base may end up to 0.005" (a quarter of it) into another.
"""

from __future__ import annotations

import math

from tabletop.board.mapfile import from_dict
from tabletop.geometry import paths
from tabletop.geometry.paths import Arena, Obstacle, find_routes


def _state():
    # the mover at (10, 10); a 32mm base straight ahead at (10, 11.5), centres 1.5"
    # apart (a 0.24" gap), so a route north must go round it; another at (12, 12)
    return from_dict({
        "map": {"name": "reuse", "ruleset": "fight-phase", "width": 30, "depth": 30},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [{"id": "r", "player": "red", "base": "32mm", "models": [[10, 10]]},
                  {"id": "e", "player": "blue", "base": "32mm",
                   "models": [[10, 11.5], [12, 12]]}]})


def _setup():
    state = _state()
    mover = state.model("r/1")
    obstacles = [Obstacle(m.id, m.base, m.x, m.y, m.facing_deg) for m in state.models()
                 if m.id != "r/1"]
    return state, mover, obstacles


def _route(arena, mover, obstacles, aim):
    return [r.path for r in find_routes(arena, mover.base, mover.facing_deg, (10.0, 10.0),
                                        obstacles, aim, set(), 3.0)]


def test_the_arena_builds_one_space_per_mover_and_obstacles():
    state, mover, obstacles = _setup()
    arena = Arena(state)
    a = arena.sim_for(mover.base, mover.facing_deg, (10.0, 10.0), obstacles, 5.0)
    b = arena.sim_for(mover.base, mover.facing_deg, (10.0, 10.0), obstacles, 5.0)
    assert a is b
    # an obstacle somewhere else is another space
    moved = [obstacles[0], Obstacle("e/2", obstacles[1].base, 13.0, 12.0, 0.0)]
    assert arena.sim_for(mover.base, mover.facing_deg, (10.0, 10.0), moved, 5.0) is not a


def test_a_reused_space_steers_the_route_a_new_space_steers():
    state, mover, obstacles = _setup()
    north, east = (10.0, 13.0), (13.5, 10.0)
    fresh = _route(Arena(state), mover, obstacles, north)
    arena = Arena(state)
    first = _route(arena, mover, obstacles, north)
    _route(arena, mover, obstacles, east)          # the same space, another run between
    again = _route(arena, mover, obstacles, north)
    assert first == fresh
    assert again == fresh
    # the route goes round e/1: its centre never comes nearer e/1's than
    # 2 x 0.62992 = 1.25984" less the 0.005" a base may graze (tolerance / 4)
    for path in again:
        for p, q in zip(path, path[1:]):
            assert _centre_gap(p, q, (10.0, 11.5)) >= 1.25984 - 0.005 - 1e-9
        # and it is no longer than the 3" move
        assert sum(math.dist(p, q) for p, q in zip(path, path[1:])) <= 3.0 + 1e-9


def test_spaces_kept_are_bounded():
    state, mover, obstacles = _setup()
    arena = Arena(state)
    for k in range(paths.SIMS_KEPT + 5):
        arena.sim_for(mover.base, mover.facing_deg, (10.0, 10.0 - 0.01 * k), obstacles, 5.0)
    assert len(arena._sims) == paths.SIMS_KEPT


def _centre_gap(a, b, c) -> float:
    """Distance from point ``c`` to segment a-b (inches)."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((c[0] - ax) * dx + (c[1] - ay) * dy) / ll))
    return math.hypot(c[0] - ax - t * dx, c[1] - ay - t * dy)
