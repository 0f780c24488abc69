"""Legal spots on the table (geometry/placement.py): returning challengers, swaps in a unit.

32mm bases, radius 0.62992"; base contact ring = 2 radii + tol/2 = 1.26984" centre to centre.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from challengekit import battlefield, model, unit
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.board.state import Terrain
from tabletop.geometry import snapshot
from tabletop.geometry.placement import find_return_spot, swap_out_of_contact

RING = 2 * 32 / 25.4 / 2 + 0.01


def test_no_spot_when_nothing_it_was_locked_with_is_left():
    s = battlefield([unit("b", "blue", [model(30, 20)])])
    lone = battlefield([unit("a", "red", [model(10, 10)])]).model("a/1")
    assert find_return_spot(s, lone, "red", locked_with=["gone"], prefer=(10, 10)) is None


def test_base_contact_spot_stays_on_the_table():
    # the enemy sits against the left edge at x = 0.7: the contact spot nearest (0.5, 12) would be
    # off the table (x < 0.63), so the spot is round the enemy's other side
    s = battlefield([unit("b", "blue", [model(0.7, 10.0)])])
    lone = battlefield([unit("a", "red", [model(0.7, 12.0)])]).model("a/1")
    spot = find_return_spot(s, lone, "red", locked_with=["b"], prefer=(0.7, 12.0))
    assert spot is not None and spot.x - 32 / 25.4 / 2 >= -0.02
    # straight above the enemy is on the table and nearest: (0.7, 10 + 1.26984)
    assert spot.at == pytest.approx((0.7, 10.0 + RING))
    assert spot.in_contact_with == ("b/1",)


def test_return_spot_avoids_impassable_terrain():
    # a wall x 19..21, y >= 10.8 right above the enemy at (20, 10): the contact spot nearest
    # (20, 12), straight above at y = 11.27, is inside it; the spot found keeps its base out of
    # the wall (centre at least one radius from the rectangle, give or take the tolerance)
    wall = Terrain("wall", "impassable", ((19.0, 10.8), (21.0, 10.8), (21.0, 13.0), (19.0, 13.0)))
    s = replace(battlefield([unit("b", "blue", [model(20.0, 10.0)])]), terrain=(wall,))
    lone = battlefield([unit("a", "red", [model(20.0, 12.0)])]).model("a/1")
    spot = find_return_spot(s, lone, "red", locked_with=["b"], prefer=(20.0, 12.0))
    assert spot is not None and spot.in_contact_with == ("b/1",)
    dx = max(19.0 - spot.x, 0.0, spot.x - 21.0)
    dy = max(10.8 - spot.y, 0.0, spot.y - 13.0)
    assert (dx * dx + dy * dy) ** 0.5 >= 32 / 25.4 / 2 - 0.02
    assert spot.at != pytest.approx((20.0, 10.0 + RING))


def test_swap_out_of_contact_none_for_a_lone_model():
    s = battlefield([unit("a", "red", [model(10, 10)]), unit("b", "blue", [model(10, 11.26)])])
    assert swap_out_of_contact(s, "a/1") is None


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.floats(4, 16), st.floats(4, 16)), min_size=1, max_size=6),
       st.floats(4, 16), st.floats(4, 16))
def test_a_returned_model_never_overlaps_and_touches_its_locked_enemy(enemies, ox, oy):
    # enemies of unit b scattered (overlaps among them allowed: they are the given table);
    # the returning model's unit is gone, so it must end in base contact with one of b
    s = battlefield([unit("b", "blue", [model(x, y) for x, y in enemies])], width=20, depth=20)
    lone = battlefield([unit("a", "red", [model(ox, oy)])], width=20, depth=20).model("a/1")
    spot = find_return_spot(s, lone, "red", locked_with=["b"], prefer=(ox, oy))
    if spot is None:
        return
    placed = replace(s, units=s.units + (battlefield([unit("a", "red", [model(spot.x, spot.y)])],
                                                      width=20, depth=20).unit("a"),))
    g = snapshot(placed)
    assert not any("a/1" in pair for pair in g.overlaps)
    assert any(g.in_base_contact("a/1", m) for m in g.unit_models("b"))
    assert "a/1" not in g.off_table
