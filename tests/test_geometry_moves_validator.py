"""The move validator (fight-phase.txt 12.03, 12.08): every broken clause, per model,
with the numbers.  Arithmetic in tests/scenarios/validator_illegal.toml and below."""

from __future__ import annotations

import pytest
from moves_support import pile_in_spec, scenario

from tabletop.board.mapfile import from_dict
from tabletop.errors import UnknownIdError
from tabletop.geometry import snapshot
from tabletop.geometry.moves import solve_move, validate_move


def messages(state, geo, positions, paths=None):
    spec = pile_in_spec(state, geo)
    return [(v.model, v.message) for v in validate_move(state, geo, spec, positions, paths)]


def test_hand_made_illegal_move_lists_each_broken_clause():
    state, geo = scenario("validator_illegal")
    proposed = {
        # r/2 2" right: sqrt(4^2 + 1.25984^2) - 1.25984 = 2.93387" from e/1 (was 1.10389")
        "r/2": (24.0, 18.74016),
        # r/3 3.41" straight up (16.9 -> 20.31), passing 2" from r/1 and e/1's centres
        "r/3": (18.0, 20.31),
        # r/4 to (20.3, 17.6): sqrt(0.3^2 + 1.14016^2) = 1.17897 from r/1 -> overlapping by 0.08087"
        "r/4": (20.3, 17.6),
    }
    got = messages(state, geo, proposed)
    assert got[:5] == [
        ("r/3", 'r/3 moved 3.41" > 3" (12.03)'),
        ("r/4", 'r/4 ends overlapping r/1 by 0.08" (12.03)'),
        ("r/2", ('r/2 ends 2.93" from e (its closest model e/1), not closer than the 1.10" it '
                'started (12.03)')),
        ("r/2", ('r/2 started engaged with e and ends 2.93" from it, outside engagement range 2" '
                '(12.03)')),
        # r/2 ends 4 - 1.26 = 2.74" from r/1, its nearest friend
        ("r/2", 'r/2 ends out of coherency (03.03): within 2" of 0 other models, needs 1 (12.03)'),
    ]
    # and it could have ended engaged (e/1's right side is free, about 1.1" away)
    assert len(got) == 6 and got[5][0] == "r/2"
    assert got[5][1].startswith('r/2 ends 2.93" from e, not engaged (engagement range 2"), '
                                'though (')


def test_model_in_base_contact_cannot_be_moved():
    state, geo = scenario("validator_illegal")
    got = messages(state, geo, {"r/1": (20.0, 18.24016)})
    assert got[0] == ("r/1", ('r/1 is in base contact with enemy model e/1 and cannot be moved, '
                             'but moved 0.50" (12.03)'))


def test_straight_path_through_a_friend_is_reported():
    state, geo = scenario("pile_in_around_friend")
    # B straight to (20.63, 18.91), the spot touching A and E1: the line from (22.95984, 20)
    # has direction (-2.32984, -1.09), length 2.5722; A's centre is |(-1.09)(-1.7)| / 2.5722
    # = 0.7204" off it -> 0.7204 - 1.25984 = -0.539: 0.54" into A's base
    got = messages(state, geo, {"r/2": (20.63, 18.91)})
    assert got == [("r/2", 'r/2 path passes through r/1 (0.54" into its base) (12.03)')]


def test_straight_path_through_impassable_terrain_is_reported():
    state, geo = scenario("pile_in_terrain")
    # straight up to base contact below e/1: through the rock (y 17.5..18.5)
    got = messages(state, geo, {"r/1": (20.0, 20.0 - 1.25984)})
    assert got == [("r/1", "r/1 path crosses impassable terrain rock (impassable) (12.03)")]


def test_swapping_two_models_has_no_order():
    state, geo = scenario("validator_illegal")
    a, b = state.model("r/3").at, state.model("r/4").at
    got = messages(state, geo, {"r/3": b, "r/4": a})
    assert ("r/3", ("r/3 path passes through r/4 both where r/4 starts and where it ends "
                   "(12.03)")) in got


def test_path_must_start_where_the_model_stands():
    state, geo = scenario("pile_in_contact_and_near")
    got = messages(state, geo, {"r/2": (20.0, 18.74)}, {"r/2": [(19.0, 17.24016), (20.0, 18.74)]})
    assert got[0] == ("r/2", ("r/2 path starts at (19.00, 17.24), not where the model stands "
                             "(20.00, 17.24) (12.03)"))


def test_models_of_other_units_are_bad_input():
    state, geo = scenario("pile_in_contact_and_near")
    with pytest.raises(UnknownIdError) as err:
        messages(state, geo, {"e/1": (1.0, 1.0), "r/9": (2.0, 2.0)})
    assert err.value.problems == ["e/1 is not a model of unit r", "r/9 is not a model of unit r"]


@pytest.mark.parametrize("name", ["pile_in_contact_and_near", "pile_in_around_friend",
                                  "pile_in_terrain", "pile_in_coherency", "pile_in_reading",
                                  "validator_illegal", "pile_in_float"])
def test_solver_plans_validate_clean(name):
    state, geo = scenario(name)
    spec = pile_in_spec(state, geo)
    plan = solve_move(state, geo, spec)
    assert plan.violations == []
    assert validate_move(state, geo, spec, plan.positions, plan.paths) == []
    assert sorted(plan.order) == sorted(plan.positions)


def test_a_path_that_leaves_the_table_on_the_way_is_reported():
    # r/1 (32mm, radius 0.62992) at (1, 20), 2" from e/1 at (1, 23.25984) (centres 3.25984
    # apart).  Round by (0.2, 21): its base reaches x = 0.2 - 0.62992 = -0.43" (off the
    # table's left edge by more than the 0.02" tolerance); it ends at (1, 21), on the table
    # and 1.0" from e/1 (closer).  Path 2 x sqrt(0.8^2 + 0.5^2) = 1.887" <= 3".
    state = from_dict({
        "map": {"name": "edge", "ruleset": "fight-phase", "width": 44, "depth": 44},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [{"id": "r", "player": "red", "base": "32mm", "models": [[1, 20]]},
                  {"id": "e", "player": "blue", "base": "32mm", "models": [[1, 23.25984]]}]})
    geo = snapshot(state)
    path = [(1.0, 20.0), (0.2, 20.5), (1.0, 21.0)]
    got = messages(state, geo, {"r/1": (1.0, 21.0)}, {"r/1": path})
    assert got == [("r/1", "r/1 path leaves the table at (0.20, 20.50) (12.03)")]
    # the straight path between the same ends stays on the table: nothing to report
    assert messages(state, geo, {"r/1": (1.0, 21.0)}) == []
