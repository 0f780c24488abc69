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
from tabletop.geometry.moves import (
    CONSOLIDATE_RULE,
    PILE_IN_RULE,
    MoveSpec,
    consolidation_options,
    pile_in_targets,
    solve_move,
)

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
    # what cannot be met is the unit's (engaged), or coherency it did not have to begin with
    for v in plan.violations:
        assert v.model is None or ("coherency" in v.message and not geo.in_coherency("r"))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(red=st.lists(spot, min_size=1, max_size=5), blue=st.lists(spot, min_size=1, max_size=5),
       more=st.lists(spot, max_size=3), edition=st.sampled_from(["11th", "10th"]))
def test_random_consolidation_keeps_the_hard_clauses(red, blue, more, edition):
    taken: list = []
    r32 = BASES["32mm"]
    reds, blues, greens = place(red, r32, taken), place(blue, r32, taken), place(more, r32, taken)
    assume(reds and blues)
    units = [{"id": "r", "player": "red", "base": "32mm", "models": reds},
             {"id": "b", "player": "blue", "base": "32mm", "models": blues}]
    if greens:
        units.append({"id": "g", "player": "blue", "base": "32mm", "models": greens})
    state = from_dict({
        "map": {"name": "random", "ruleset": "fight-phase", "width": 44, "depth": 44},
        "rules": {"edition": edition},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "objectives": [{"id": "A", "at": [22, 22]}],
        "units": units,
    })
    geo = snapshot(state)
    mode, options = consolidation_options(state, geo, "r")
    assume(mode is not None)
    targets = tuple(options[:1]) if mode == "objective" else tuple(options)
    spec = MoveSpec(mode, "r", targets, 3.0, CONSOLIDATE_RULE)
    plan = solve_move(state, geo, spec)
    after = snapshot(plan.state_after(state))
    moved = set(plan.positions)
    for path in plan.paths.values():
        assert sum(math.dist(a, b) for a, b in itertools.pairwise(path)) <= 3.0 + state.rules.tol
    assert not [pair for pair in after.overlaps if moved & set(pair)]
    # no model breaks a clause of its own: what is left is the unit's (or coherency)
    assert all(v.model is None or "coherency" in v.message for v in plan.violations)
    if not plan.violations and mode == "engaging":
        assert set(targets) <= set(after.engaged_units("r"))
    if not plan.violations and mode == "objective":
        assert after.within("r", "A", state.objective_range(state.objective("A")))
