"""Pile-in moves (fight-phase.txt 12.03): the solver on hand-worked scenarios.

Every scenario map in tests/scenarios/ states its arithmetic; 32mm bases are
1.25984" across (radius 0.62992"), the tolerance is 0.02".
"""

from __future__ import annotations

import math

import pytest
from moves_support import D32, R32, length, min_gap_along, pile_in_spec, scenario
from shapely.geometry import LineString, Polygon

from tabletop.geometry import snapshot
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.moves import (
    PILE_IN_RULE,
    MoveSpec,
    pile_in_targets,
    solve_move,
    validate_move,
)


def solve(state, geo, unit="r"):
    spec = pile_in_spec(state, geo, unit)
    plan = solve_move(state, geo, spec)
    return spec, plan, snapshot(plan.state_after(state))


def test_model_in_base_contact_stays_and_model_1_5_away_ends_in_contact():
    state, geo = scenario("pile_in_contact_and_near")
    assert pile_in_targets(state, geo, "r") == (["e"], "engaged")
    spec, plan, after = solve(state, geo)
    assert plan.violations == []
    # r/1 touches e/1 (gap 0): it cannot be moved (12.03 WHILE MOVING)
    assert "r/1" not in plan.positions
    # r/2 is 1.5" below e/1: straight up 1.5" into base contact, centre about (20, 18.74)
    x, y = plan.positions["r/2"]
    assert x == pytest.approx(20.0, abs=0.01)
    assert y == pytest.approx(20.0 - D32, abs=0.02)
    assert length(plan.paths["r/2"]) == pytest.approx(1.5, abs=0.02)
    assert after.in_base_contact("r/2", "e/1")
    assert plan.closest["r/2"] == "e/1"
    assert validate_move(state, geo, spec, plan.positions, plan.paths) == []


def test_model_5_inches_away_ends_closer_but_not_engaged():
    state, geo = scenario("pile_in_far_10th")
    assert geo.distance("r/1", "e/1") == pytest.approx(5.0, abs=1e-4)
    assert pile_in_targets(state, geo, "r") == (["e"], "within")
    _spec, plan, after = solve(state, geo)
    # 3" straight toward e/1: centre (20, 13.74016 + 3) = (20, 16.74016), 2.0" from e/1
    assert length(plan.paths["r/1"]) == pytest.approx(3.0, abs=0.01)
    assert plan.positions["r/1"] == pytest.approx((20.0, 16.74016), abs=0.01)
    assert after.distance("r/1", "e/1") == pytest.approx(2.0, abs=0.01)
    assert not after.model_engaged("r/1")          # 2.0 > 1" ("10th")
    # the one clause it cannot meet: AFTER MOVING "your unit must be engaged"
    assert len(plan.violations) == 1
    v = plan.violations[0]
    assert v.model is None and v.clause == PILE_IN_RULE
    assert v.message == ('r must be engaged after its pile-in, but this move leaves it 2.00" '
                         'from the nearest enemy model (engagement range 1") (12.03)')


def test_model_6_inches_away_ends_closer_but_not_engaged_in_the_default_preset():
    state, geo = scenario("pile_in_far_11th")
    assert state.rules.edition == "11th" and state.rules.engagement_range == 2.0
    assert geo.distance("r/1", "e") == pytest.approx(6.0, abs=1e-4)
    assert pile_in_targets(state, geo, "r") == (["e"], "within")
    _spec, plan, after = solve(state, geo)
    assert plan.violations == []
    # 3" toward e/1: 6.0 - 3.0 = 3.0" from it, closer but outside 2"
    assert length(plan.paths["r/1"]) == pytest.approx(3.0, abs=0.01)
    assert after.distance("r/1", "e") == pytest.approx(3.0, abs=0.02)
    assert not after.model_engaged("r/1")
    # r/2 (3.5" away) ends engaged: the unit is engaged, in coherency
    assert after.model_engaged_with_unit("r/2", "e") and after.in_coherency("r")


def test_model_5_inches_away_ends_engaged_in_the_default_preset():
    # the 10th-edition scenario under the 11th preset: 5.0 - 3.0 = 2.0" <= 2": engaged
    state, geo = scenario("pile_in_far_10th", edition="11th")
    _spec, plan, after = solve(state, geo)
    assert plan.violations == []
    assert after.distance("r/1", "e") == pytest.approx(2.0, abs=0.02)
    assert after.model_engaged_with_unit("r/1", "e")


def test_path_round_impassable_terrain_never_crosses_it():
    state, geo = scenario("pile_in_terrain")
    rock = Polygon(state.terrain_piece("rock").polygon)
    _spec, plan, after = solve(state, geo)
    assert plan.violations == []
    path = plan.paths["r/1"]
    # the centre line never enters the rock, and the base never overlaps it
    assert not LineString(path).intersects(rock)
    assert LineString(path).distance(rock) >= R32 - state.rules.tol
    # round a corner (2.91" to pass it by hand): the full 3", ending engaged, closer than 2.24"
    assert length(path) <= 3.0 + state.rules.tol
    assert after.distance("r/1", "e/1") < 2.24 - state.rules.tol
    assert after.model_engaged_with_unit("r/1", "e")


@pytest.mark.parametrize("edition", ["11th", "10th"])
def test_friend_in_the_way_is_walked_round(edition):
    # A (r/1) touches E1; B (r/2) is 1.7" from E1 with A between them
    state, geo = scenario("pile_in_around_friend", edition=edition)
    assert geo.in_base_contact("r/1", "e/1")
    assert geo.distance("r/2", "e/1") == pytest.approx(1.7, abs=1e-4)
    # 11th: 1.7 <= 2" -> B starts engaged; "10th": 1.7 > 1" -> it does not
    assert geo.model_engaged_with_unit("r/2", "e") == (edition == "11th")
    spec, plan, after = solve(state, geo)
    assert plan.violations == []
    assert "r/1" not in plan.positions                  # A does not move
    path = plan.paths["r/2"]
    a_centre = state.model("r/1").at
    # B's path goes round A, never through or onto it: its centre line stays out of A's
    # base, and B's base stays off it (centres at least 1.26" apart, less the tolerance)
    assert not LineString(path).intersects(geo.footprint("r/1"))
    assert min_gap_along(path, R32, a_centre, R32) >= -state.rules.tol
    # by hand: the spot touching both A and E1 is (20.63, 20 -/+ 1.09); the shortest way
    # round A is a 1.141" tangent plus a 77.8 degree arc of radius 1.26" (1.711"): 2.852"
    assert length(path) == pytest.approx(2.85, abs=0.06)
    assert after.in_base_contact("r/2", "e/1")
    assert after.model_engaged_with_unit("r/2", "e")
    assert math.dist(plan.positions["r/2"], a_centre) >= D32 - state.rules.tol
    assert validate_move(state, geo, spec, plan.positions, plan.paths) == []


def test_coherency_is_kept_when_targets_pull_the_unit_apart():
    state, geo = scenario("pile_in_coherency")
    assert pile_in_targets(state, geo, "r") == (["x", "y"], "engaged")
    spec, plan, after = solve(state, geo)
    assert plan.violations == []
    assert after.in_coherency("r")
    # the two moves may add at most 2.0 - 1.5 = 0.5" to the 1.5" gap between them
    moved = sum(length(p) for p in plan.paths.values())
    assert 0.0 < moved <= 0.5 + state.rules.tol
    assert after.model_engaged_with_unit("r/1", "x")
    assert after.model_engaged_with_unit("r/2", "y")
    # both into base contact (1.8" each) would leave them 1.5 + 3.6 = 5.1" apart
    both = {"r/1": (16.94016 + D32, 20.0), "r/2": (25.81968 - D32, 20.0)}
    broken = validate_move(state, geo, spec, both)
    assert [(v.model, v.message) for v in broken] == [
        ("r/1", 'r/1 ends out of coherency (03.03): within 2" of 0 other models, needs 1 (12.03)'),
        ("r/2", 'r/2 ends out of coherency (03.03): within 2" of 0 other models, needs 1 (12.03)'),
    ]


def test_floating_point_3_26_between_centres_is_2_inches():
    state, geo = scenario("pile_in_float")
    tol = state.rules.tol
    assert 3.26 - 1.26 != 2.0                       # 1.9999999999999998
    assert tolmod.within(3.26 - 1.26, 2.0, tol)
    assert geo.distance("r/1", "e/1") == pytest.approx(2.0, abs=0.001)
    assert geo.model_engaged_with_unit("r/1", "e")  # within 2" (11th)
    assert pile_in_targets(state, geo, "r") == (["e"], "engaged")
    spec = pile_in_spec(state, geo)
    # walking round e/1 at the same 3.26" between centres: still engaged, but not closer
    t = math.radians(10.0)
    round_it = {"r/1": (20.0 + 3.26 * math.cos(t), 20.0 + 3.26 * math.sin(t))}
    assert [v.message for v in validate_move(state, geo, spec, round_it)] == [
        ('r/1 ends 2.00" from e (its closest model e/1), not closer than the 2.00" it started '
        '(12.03)')]
    plan = solve_move(state, geo, spec)
    assert plan.violations == []
    assert snapshot(plan.state_after(state)).in_base_contact("r/1", "e/1")


def test_closest_target_is_the_unit_with_the_closest_model():
    # 12.03 as written: x's closest model is 3.0" away, y's 3.5" (though y's centroid
    # is nearer): x is the closest pile-in target
    state, geo = scenario("pile_in_reading")
    assert pile_in_targets(state, geo, "r") == (["x", "y"], "within")
    spec, plan, after = solve(state, geo)
    assert plan.violations == []
    assert plan.closest["r/1"] == "x/1"
    assert after.in_base_contact("r/1", "x/1")
    assert length(plan.paths["r/1"]) == pytest.approx(3.0, abs=0.02)
    # 1" toward y leaves r/1 4.0" from x's closest model: not closer to the closest target
    toward_y = {"r/1": (19.0, 20.0)}
    messages = [v.message for v in validate_move(state, geo, spec, toward_y)]
    assert 'r/1 ends 4.00" from x (its closest model x/1), not closer than the 3.00" it ' \
           'started (12.03)' in messages


def test_unit_with_no_target_cannot_pile_in():
    state, geo = scenario("pile_in_far_10th")
    spec = MoveSpec("pile_in", "r", (), 3.0, PILE_IN_RULE)
    plan = solve_move(state, geo, spec)
    assert plan.positions == {}
    assert [v.message for v in plan.violations] == [
        'r has no pile-in target: not engaged and no enemy unit within 5" (12.03)']
