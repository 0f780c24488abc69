"""Rank-and-flank unit geometry (geometry/ranks.py), worked by hand.

B = 25/25.4 = 0.984252" is one 25mm base.  A formation's front_centre is the
middle of its front edge; facing 90 means the unit looks up the table (+y),
its right is +x, so file 1 (leftmost) has the lowest x.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rnf_maps import B25 as B
from rnf_maps import rnf_map, unit

from tabletop.geometry import snapshot
from tabletop.geometry.ranks import away_direction, flee_move, side_of_angle, turn_to_face
from tabletop.rules.rank_and_flank.flee import place

ABS = 1e-6


def block(**kw):
    """Red 5x4 infantry facing 90 with its front edge centred on (24, 24)."""
    return unit("a", "red", (24, 24), 90, 5, 4, **kw)


def test_5x4_grid_edges_ranks_and_files():
    geo = snapshot(rnf_map(block()))
    f = geo.formation("a")
    assert f.facing_deg == pytest.approx(90.0)
    # model n sits in rank ceil(n/5), file ((n-1) % 5) + 1, numbered front rank first
    assert f.rank_rows() == [[f"a/{5 * r + k}" for k in range(1, 6)] for r in range(4)]
    assert f.files() == 5 and f.rank_count() == 4
    # ranks behind the front with at least 5 models: ranks 2, 3 and 4
    assert f.full_ranks_behind(5) == 3
    # front edge y = 24 from x = 24 - 2.5B to 24 + 2.5B; the rear edge 4B behind it
    (x1, y1), (x2, y2) = f.edges()["front"]
    assert (x1, y1, x2, y2) == pytest.approx((24 - 2.5 * B, 24, 24 + 2.5 * B, 24), abs=ABS)
    (x1, y1), (x2, y2) = f.edges()["rear"]
    assert (y1, y2) == pytest.approx((24 - 4 * B, 24 - 4 * B), abs=ABS)
    assert f.flank_file("left") == ["a/1", "a/6", "a/11", "a/16"]
    assert f.flank_file("right") == ["a/5", "a/10", "a/15", "a/20"]


def test_ranks_counted_from_models_left():
    # 5x4 with 17 models: ranks of 5, 5, 5, 2 -> two full ranks behind the front... and a third
    geo = snapshot(rnf_map(block(count=17)))
    f = geo.formation("a")
    assert [len(r) for r in f.rank_rows()] == [5, 5, 5, 2]
    assert f.full_ranks_behind(5) == 2       # ranks 2 and 3; rank 4 holds 2 < 5
    assert f.full_ranks_behind(2) == 3
    # without the first 3 models of rank 3 the third rank no longer counts, nor the fourth
    alive = [m for m in f.placements if m not in ("a/11", "a/12", "a/13")]
    assert f.full_ranks_behind(5, alive) == 1


def test_arcs_at_45_degrees_from_the_corners():
    f = snapshot(rnf_map(block())).formation("a")
    left = 24 - 2.5 * B
    assert f.arc_of(24, 30) == "front"
    assert f.arc_of(24, 10) == "rear"
    assert f.arc_of(10, 22) == "left"
    assert f.arc_of(40, 22) == "right"
    # on the 45-degree line from the front-left corner: a tie goes to the front
    assert f.arc_of(left - 3, 24 + 3) == "front"
    # 0.1" further out sideways: the flank
    assert f.arc_of(left - 3.1, 24 + 3) == "left"
    # rear corner: 3" back and 3.1" out -> left; 3.1" back and 3" out -> rear
    assert f.arc_of(left - 3.1, 24 - 4 * B - 3) == "left"
    assert f.arc_of(left - 3, 24 - 4 * B - 3.1) == "rear"


def test_front_contact_sides_not_disrupted():
    geo = snapshot(rnf_map(block(), unit("b", "blue", (24, 24), 270, 5, 4)))
    s = geo.sides("a")
    assert s.enemy_sides == {"b": "front"}
    assert not s.disrupted and not s.surrounded
    assert s.model_sides("a/1") == {"front": ["b"]}
    # a/1's front edge is covered edge to edge by b's facing model (one base, B long)
    full = [c for c in s.contacts_of("a/1") if c.length > 0]
    assert len(full) == 1 and full[0].length == pytest.approx(B, abs=0.01)
    assert geo.sides("b").enemy_sides == {"a": "front"}


def flank_map(**kw):
    # b: 4 files x 1 rank facing east (0); its front edge on a's left flank line
    # x = 24 - 2.5B, centred on the flank's middle y = 24 - 2B: it covers y 24-4B..24
    return rnf_map(block(), unit("b", "blue", (24 - 2.5 * B, 24 - 2 * B), 0, 4, 1, **kw))


def test_flank_contact_disrupts():
    geo = snapshot(flank_map())
    s = geo.sides("a")
    assert s.enemy_sides == {"b": "left"}
    assert s.disrupted and s.disrupted_reasons == ["b touches its left flank"]
    assert {c.model for c in s.contacts} == {"a/1", "a/6", "a/11", "a/16"}
    assert geo.sides("b").enemy_sides == {"a": "front"}


def test_corner_contact_goes_to_the_front_if_it_can():
    # an enemy square standing diagonally off a's front-left corner: corners touch at a point
    cx = 24 - 2.5 * B
    d = {"id": "b", "player": "blue", "base": "25x25mm", "models": [[cx - B / 2, 24 + B / 2, 0]],
         "profile": {"Move": 4}}
    geo = snapshot(rnf_map(block(), d))
    (c,) = geo.sides("a").contacts
    assert c.model == "a/1" and c.length == 0.0       # a corner contact
    assert c.side == "front"


def test_corner_contact_on_the_flank_only_goes_to_the_flank():
    # a square turned 45 degrees whose corner touches the middle of a/1's left edge
    cx = 24 - 2.5 * B
    d = {"id": "b", "player": "blue", "base": "25x25mm",
         "models": [[cx - B / math.sqrt(2), 24 - B / 2, 45]], "profile": {"Move": 4}}
    geo = snapshot(rnf_map(block(), d))
    (c,) = geo.sides("a").contacts
    assert c.model == "a/1" and c.side == "left"


def test_rear_contact_on_one_rank_and_surrounded():
    a1 = unit("a", "red", (24, 24), 90, 5, 1)
    # b faces 90 too, its front edge on a's rear edge y = 24 - B
    b = unit("b", "blue", (24, 24 - B), 90, 5, 2)
    geo = snapshot(rnf_map(a1, b))
    s = geo.sides("a")
    assert s.enemy_sides == {"b": "rear"} and s.disrupted and not s.surrounded
    assert geo.formation("a").rank_count() == 1
    # add c on a's front: front and rear -> surrounded
    c = unit("c", "blue", (24, 24), 270, 5, 2)
    s = snapshot(rnf_map(a1, b, c)).sides("a")
    assert s.sides_touched == {"front", "rear"} and s.surrounded


def test_surrounded_by_both_flanks():
    left = unit("b", "blue", (24 - 2.5 * B, 24 - 2 * B), 0, 4, 1)
    right = unit("c", "blue", (24 + 2.5 * B, 24 - 2 * B), 180, 4, 1)
    s = snapshot(rnf_map(block(), left, right)).sides("a")
    assert s.enemy_sides == {"b": "left", "c": "right"} and s.surrounded


def test_turn_to_face_lays_the_new_front_on_the_flank():
    state = flank_map()
    geo = snapshot(state)
    pos = turn_to_face(geo, "a", "left")
    # pivot about the centre (24, 24 - 2B) by +90 degrees, then 0.5B along the new
    # facing (180): the new front edge lies on x = 24 - 2.5B, where b's front is
    assert all(f == pytest.approx(180.0) for _, _, f in pos.values())
    after = place(state, "a", pos, 180.0)
    g2 = snapshot(after)
    f2 = g2.formation("a")
    (x1, _), (x2, _) = f2.edges()["front"]
    assert x1 == pytest.approx(24 - 2.5 * B, abs=ABS) and x2 == pytest.approx(24 - 2.5 * B, abs=ABS)
    assert f2.files() == 5 and f2.rank_count() == 4
    assert g2.sides("a").enemy_sides == {"b": "front"}
    assert g2.overlaps == []


def test_flee_directly_away_and_off_the_table():
    state = rnf_map(block(), unit("b", "blue", (24, 24), 270, 5, 4))
    geo = snapshot(state)
    # b touches a's front: directly away is the opposite of the front's outward normal
    # (facing 90): straight back, 270
    assert away_direction(geo, "a", ["b"]) == pytest.approx(270.0)
    fm = flee_move(geo, "a", 270.0, 4.0)
    assert fm.end == pytest.approx((24, 24 - 2 * B - 4), abs=ABS) and fm.off_table == ()
    # a 4-deep unit 2" from the bottom edge cannot flee 4" down
    low = rnf_map(unit("a", "red", (24, 6), 90, 5, 4), unit("b", "blue", (24, 6), 270, 5, 4))
    assert flee_move(snapshot(low), "a", 270.0, 4.0).off_table


def test_flee_away_from_the_touched_sides_weighted_by_contact_length():
    # c: 4 x 1 on a's right flank (facing 180, front edge on x = 24 + 2.5B, y 24-4B..24):
    # a runs left, out of its left flank: 180
    right = unit("c", "blue", (24 + 2.5 * B, 24 - 2 * B), 180, 4, 1)
    geo = snapshot(rnf_map(block(), right))
    assert away_direction(geo, "a", ["c"]) == pytest.approx(180.0)
    # b: 5 x 1 on a's front (5 edge contacts of B: 5B) and c: 4 x 1 on its left flank
    # (4B).  Away = -(5B (0, 1)) - (4B (-1, 0)) = (4B, -5B): atan2(-5, 4) = -51.34 -> 308.66
    front = unit("b", "blue", (24, 24), 270, 5, 1)
    left = unit("c", "blue", (24 - 2.5 * B, 24 - 2 * B), 0, 4, 1)
    geo = snapshot(rnf_map(block(), front, left))
    assert away_direction(geo, "a", ["b", "c"]) == pytest.approx(
        math.degrees(math.atan2(-5, 4)) % 360, abs=0.01)
    # only the enemies named count: away from c alone is 0 (out of the right flank)
    assert away_direction(geo, "a", ["c"]) == pytest.approx(0.0, abs=1e-6)


def test_casualty_order_and_step_up():
    f = snapshot(rnf_map(block())).formation("a")
    # rear rank (16..20 left to right) from the ends inwards, right end first
    assert f.casualty_order()[:6] == ["a/20", "a/16", "a/19", "a/17", "a/18", "a/15"]
    alive = set(f.placements) - {"a/3"}
    assert f.step_up(["a/3"], alive) == [("a/20", "a/3")]
    assert f.step_up(["a/20"], set(f.placements) - {"a/20"}) == []


def test_side_of_angle_quadrants():
    assert [side_of_angle(r) for r in (0, 45, 46, 135, 136, -45, -46, -135, 180)] == [
        "front", "front", "left", "left", "rear", "front", "right", "right", "rear"]


@settings(max_examples=25, deadline=None)
@given(files=st.integers(1, 7), ranks=st.integers(1, 5), missing=st.integers(0, 6),
       facing=st.floats(0, 359.9))
def test_formation_reads_back_what_was_laid_out(files, ranks, missing, facing):
    count = max(1, files * ranks - min(missing, files - 1))
    geo = snapshot(rnf_map(unit("a", "red", (24, 24), facing, files, ranks, count=count)))
    f = geo.formation("a")
    assert math.isclose((f.facing_deg - facing + 180) % 360 - 180, 0, abs_tol=1e-6)
    assert f.files() == min(files, count)
    assert f.rank_count() == math.ceil(count / files)
    assert len(f.placements) == count
    fx, fy = f.front_centre
    assert (fx, fy) == pytest.approx((24, 24), abs=1e-6)
    for side in ("front", "left", "right", "rear"):
        ox, oy = f.outward(side)
        assert f.arc_of(f.origin[0] + 40 * ox, f.origin[1] + 40 * oy) == side
