"""Consolidation moves (fight-phase.txt 12.08): the mode the text requires, and the
solver and validator for each mode.  Arithmetic in tests/scenarios/consolidate_*.toml."""

from __future__ import annotations

import dataclasses
import math

import pytest
from moves_support import length, scenario

from tabletop.board.mapfile import from_dict
from tabletop.geometry import snapshot
from tabletop.geometry.moves import (
    CONSOLIDATE_RULE,
    MoveSpec,
    consolidation_options,
    solve_move,
    validate_move,
)


def consolidate(state, geo, unit="r", pick=None):
    mode, options = consolidation_options(state, geo, unit)
    targets = tuple(pick or (options[:1] if mode == "objective" else options))
    spec = MoveSpec(mode, unit, targets, state.rules.consolidate_distance, CONSOLIDATE_RULE)
    plan = solve_move(state, geo, spec)
    assert validate_move(state, geo, spec, plan.positions, plan.paths) == plan.violations
    return spec, plan, snapshot(plan.state_after(state))


def test_ongoing_when_engaged():
    state, geo = scenario("pile_in_around_friend")
    assert consolidation_options(state, geo, "r") == ("ongoing", ["e"])
    _spec, plan, after = consolidate(state, geo)
    assert plan.violations == []
    assert "r/1" not in plan.positions          # in base contact: cannot be moved (12.08)
    assert after.in_base_contact("r/2", "e/1")


def test_engaging_when_an_enemy_unit_is_within_3_inches():
    state, geo = scenario("consolidate_engaging")
    # b/1 is 2.5" from r/1: within 3" but not engaged (2.5 > 2"); objective A is also
    # within 3" (2.5"), but an enemy within 3" closes the objective mode
    assert geo.distance("r", "b") == pytest.approx(2.5, abs=1e-4)
    assert geo.within("r", "A", 3.0)
    assert consolidation_options(state, geo, "r") == ("engaging", ["b"])
    _spec, plan, after = consolidate(state, geo)
    assert plan.violations == []
    assert after.engaged_units("r") == ["b"]    # AFTER MOVING: engaged with every selected unit
    assert after.in_coherency("r")
    assert all(length(p) <= 3.0 + state.rules.tol for p in plan.paths.values())


def test_objective_when_no_enemy_within_3_inches():
    state, geo = scenario("consolidate_objective")
    assert consolidation_options(state, geo, "r") == ("objective", ["A"])
    _spec, plan, after = consolidate(state, geo)
    assert plan.violations == []
    # r/1 is already 2.5" from the marker; r/2 (4.5") moves 1.5" along its line to A:
    # 5.91732 - 1.5 = 4.41732 = 3 + 0.7874 + 0.62992 between centres
    assert "r/1" not in plan.positions
    assert length(plan.paths["r/2"]) == pytest.approx(1.5, abs=0.03)
    assert after.distance("r/2", "A") <= 3.0 + state.rules.tol
    assert math.dist(plan.positions["r/2"], (30.0, 20.0)) == pytest.approx(4.41732, abs=0.03)
    assert plan.closest["r/2"] == "A"


def test_wiping_out_the_target_opens_the_objective_mode():
    state, _geo = scenario("consolidate_engaging")
    gone = state.without_models(["b/1"])
    assert consolidation_options(gone, snapshot(gone), "r") == ("objective", ["A"])


def test_no_mode_when_nothing_is_within_3_inches():
    state, _ = scenario("consolidate_objective")
    bare = dataclasses.replace(state, objectives=())
    assert consolidation_options(bare, snapshot(bare), "r") == (None, [])


def test_objective_out_of_reach_is_reported():
    state, geo = scenario("consolidate_objective")
    # the unit must end within range of A: 4.5" from its marker is 1.5" too far for r/2 alone
    spec = MoveSpec("objective", "r", ("A",), 3.0, CONSOLIDATE_RULE)
    far = {"r/1": (20.0, 20.0), "r/2": (19.0, 18.5)}
    got = [v.message for v in validate_move(state, geo, spec, far)]
    # r/1 from 26.08268 to 20: 10 - 0.7874 - 0.62992 = 8.58268" from the marker
    assert 'r must end within range of objective A, but ends 8.58" > 3" from it (12.08)' in got


def two_enemies_map():
    """Engaging consolidation toward two enemy units, one on each side (11th).

    r/1 (20, 20), r/2 (21.45984, 20) (gap 0.2").  x/1 (16.24016, 20): 2.5" left of
    r/1; y/1 (25.21968, 20): 2.5" right of r/2.  Each is within 3", neither engaged.
    """
    return from_dict({
        "map": {"name": "two", "ruleset": "fight-phase", "width": 44, "depth": 30},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [
            {"id": "r", "player": "red", "base": "32mm", "models": [[20, 20], [21.45984, 20]]},
            {"id": "x", "player": "blue", "base": "32mm", "models": [[16.24016, 20]]},
            {"id": "y", "player": "blue", "base": "32mm", "models": [[25.21968, 20]]},
        ]})


def test_engaging_consolidation_engages_every_selected_unit():
    state = two_enemies_map()
    geo = snapshot(state)
    assert consolidation_options(state, geo, "r") == ("engaging", ["x", "y"])
    _spec, plan, after = consolidate(state, geo)
    assert plan.violations == []
    assert after.engaged_units("r") == ["x", "y"]
    assert all(state.model(t).unit_id in ("x", "y") for t in plan.closest.values())
    # each model moves 0.5" or more (2.5 -> 2.0") but they stay within 2" of each other:
    # 0.2 + the two moves <= 2.0
    assert after.in_coherency("r")
