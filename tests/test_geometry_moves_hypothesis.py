"""Invariants of the pile-in solver on random layouts (fight-phase.txt 12.03):
no pile-in ever overlaps bases, moves more than 3", passes through a base that
stays put, moves a model in base contact with an enemy, or leaves an engaged
model unengaged from the enemy unit it started engaged with."""

from __future__ import annotations

import itertools
import math

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from moves_support import min_gap_along

from tabletop.board.mapfile import from_dict
from tabletop.geometry import snapshot
from tabletop.geometry.moves import PILE_IN_RULE, MoveSpec, pile_in_targets, solve_move

BASES = {"25mm": 25 / 25.4 / 2, "32mm": 32 / 25.4 / 2, "40mm": 40 / 25.4 / 2}
coord = st.floats(min_value=14.0, max_value=30.0, allow_nan=False).map(lambda v: round(v, 2))
spot = st.tuples(coord, coord)


def place(points, radius, taken):
    """Keep the points whose base overlaps none already placed (greedy)."""
    kept = []
    for p in points:
        if all(math.dist(p, q) >= radius + r + 0.05 for q, r in taken):
            kept.append(list(p))
            taken.append((p, radius))
    return kept


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(red=st.lists(spot, min_size=1, max_size=6), blue=st.lists(spot, min_size=1, max_size=6),
       red_base=st.sampled_from(sorted(BASES)), blue_base=st.sampled_from(sorted(BASES)),
       edition=st.sampled_from(["11th", "10th"]), rock=st.booleans())
def test_random_pile_in_keeps_the_hard_clauses(red, blue, red_base, blue_base, edition, rock):
    taken: list = []
    terrain = []
    if rock:                                   # an impassable block in the middle
        terrain = [{"id": "rock", "kind": "impassable",
                    "polygon": [[21, 21], [23, 21], [23, 22.5], [21, 22.5]]}]
        taken.append(((22.0, 21.75), 1.25))
    reds = place(red, BASES[red_base], taken)
    blues = place(blue, BASES[blue_base], taken)
    assume(reds and blues)
    state = from_dict({
        "map": {"name": "random", "ruleset": "fight-phase", "width": 44, "depth": 44},
        "rules": {"edition": edition},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "terrain": terrain,
        "units": [{"id": "r", "player": "red", "base": red_base, "charged": True, "models": reds},
                  {"id": "b", "player": "blue", "base": blue_base, "models": blues}],
    })
    geo = snapshot(state)
    targets, _ = pile_in_targets(state, geo, "r")
    assume(targets)
    tol = state.rules.tol
    plan = solve_move(state, geo, MoveSpec("pile_in", "r", tuple(targets), 3.0, PILE_IN_RULE))
    after = snapshot(plan.state_after(state))
    moved = set(plan.positions)
    # never more than 3" along its path
    for path in plan.paths.values():
        assert sum(math.dist(a, b) for a, b in itertools.pairwise(path)) <= 3.0 + tol
    # no base overlapping at the end
    assert not [pair for pair in after.overlaps if moved & set(pair)]
    # no path through a base that stays put
    for m, path in plan.paths.items():
        r = state.model(m).base.radius
        for other in state.models():
            if other.id != m and other.id not in moved:
                assert min_gap_along(path, r, other.at, other.base.radius) >= -tol
    # a model in base contact with an enemy is not moved
    for m in geo.unit_models("r"):
        if geo.contacts_of(m):
            assert m not in moved
    # every model that started engaged with an enemy unit is still engaged with it
    for m in geo.unit_models("r"):
        for e in geo.engaged_models(m):
            assert after.model_engaged_with_unit(m, e.rsplit("/", 1)[0])
