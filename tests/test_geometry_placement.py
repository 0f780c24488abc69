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


# ---------------------------------------------------------------- the set-aside box (aside_box)
R32 = 32 / 25.4 / 2


def test_aside_box_beside_the_combat_in_inches():
    from tabletop.geometry.placement import ASIDE_GAP, ASIDE_LABEL, ASIDE_PAD, aside_box
    s = battlefield([unit("a", "red", [model(10, 10), model(11.26, 10)]),
                     unit("b", "blue", [model(10, 11.26), model(11.26, 11.26)])], width=30, depth=20)
    pair = [s.model("a/1"), s.model("b/1")]
    got = aside_box(s, ["a", "b"], pair, skip=["a/1", "b/1"])
    # the combat's other bases: a/2 and b/2 at x 11.26 (the pair is skipped): x 10.63..11.89,
    # y 9.37..11.89, centre y 10.63.  Box: 4R + 2 pad wide, 2R + 2 pad + label deep, 1" right of it
    w, d = 4 * R32 + 2 * ASIDE_PAD, 2 * R32 + 2 * ASIDE_PAD + ASIDE_LABEL
    x0, y0 = 11.26 + R32 + ASIDE_GAP, 10.63 - d / 2
    assert got.side == "right" and got.clear
    assert got.box == pytest.approx((x0, y0, x0 + w, y0 + d))
    # the two bases side by side in base contact at the top of the box
    top = y0 + d - ASIDE_PAD - R32
    assert got.centres["a/1"] == pytest.approx((x0 + ASIDE_PAD + R32, top))
    assert got.centres["b/1"] == pytest.approx((x0 + ASIDE_PAD + 3 * R32, top))


def test_aside_box_goes_round_a_base_in_the_way():
    from shapely.geometry import box as sbox

    from tabletop.geometry.placement import ASIDE_GAP, ASIDE_PAD, aside_box
    # a blue model at (14, 10.63) stands in the box on the right: the box goes to the left
    # (x1 = 10 - R - 1" = 8.37), clear of every base
    s = battlefield([unit("a", "red", [model(10, 10), model(11.26, 10)]),
                     unit("b", "blue", [model(10, 11.26), model(11.26, 11.26)]),
                     unit("c", "blue", [model(14, 10.63)])], width=30, depth=20)
    got = aside_box(s, ["a", "b"], [s.model("a/1"), s.model("b/1")])
    assert got.side == "left" and got.clear
    assert got.box[2] == pytest.approx(10 - R32 - ASIDE_GAP)
    shape = sbox(*got.box)
    g = snapshot(s)
    assert all(shape.distance(g.footprint(m)) > 0 for m in g.ids)
    # with the right taken by another pair's box too, it still avoids that box
    other = (5.0, 8.0, 8.6, 13.0)
    got2 = aside_box(s, ["a", "b"], [s.model("a/1"), s.model("b/1")], avoid=[other])
    assert not sbox(*got2.box).intersects(sbox(*other).buffer(ASIDE_PAD - 1e-9))
