"""Pixel checks of the board drawing (headless: SDL dummy driver, plain Surfaces).

Positions come from tests/scenarios/render-pixels.toml; screen pixels from
View.to_screen, so each check names the table point it looks at.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.board import mapfile
from tabletop.geometry import snapshot
from tabletop.render.board import OVERLAYS, draw_board, draw_legend, resolve_overlays
from tabletop.render.image import image_size, render_image
from tabletop.render.legend import legend_height
from tabletop.render.theme import DEFAULT_THEME, PLAYER_PALETTE
from tabletop.render.view import View

SCENARIOS = Path(__file__).resolve().parent / "scenarios"

RED = (176, 58, 46)        # "#b03a2e" as given in the map
BLUE = PLAYER_PALETTE[1]   # the palette's red is skipped: too close to the map's red
SCALE = 22.0


@pytest.fixture(scope="module")
def pixels_map():
    return mapfile.load(str(SCENARIOS / "render-pixels.toml"))


def draw(state, **kw):
    view = View(SCALE, 40, 40 + state.table.depth * SCALE)
    surface = pygame.Surface((int(state.table.width * SCALE) + 80, int(state.table.depth * SCALE) + 80))
    draw_board(surface, state, snapshot(state), view, **kw)
    return surface, view


def px(surface, view, x, y):
    """The RGB at table point (x, y)."""
    c = surface.get_at(view.to_screen_int(x, y))
    return (c.r, c.g, c.b)


def near(a, b, tol=6):
    return all(abs(p - q) <= tol for p, q in zip(a, b))


def test_player_colours_map_colour_then_distinct_palette(pixels_map):
    colours = DEFAULT_THEME.player_colours(pixels_map)
    assert colours == {"red": RED, "blue": BLUE}


def test_base_centre_is_its_players_colour(pixels_map):
    s, v = draw(pixels_map)
    assert px(s, v, 6.5, 8.5) == RED     # a/1
    assert px(s, v, 12.5, 8.5) == BLUE   # b/1


def test_bare_table_between_bases_is_cloth(pixels_map):
    s, v = draw(pixels_map)
    # (9.5, 8.5): 3" from each base centre, 2.37" from each edge, off the 1" grid
    assert px(s, v, 9.5, 8.5) == DEFAULT_THEME.cloth


def test_base_is_true_to_scale(pixels_map):
    s, v = draw(pixels_map)
    # a/1 radius 0.63": 0.5" left of the centre is base, 0.8" left is past its edge
    # (the unit outline runs 0.15" outside the base, so 0.95" is cloth again)
    assert px(s, v, 6.0, 8.5) == RED
    assert px(s, v, 5.7, 8.5) != RED
    assert px(s, v, 5.45, 8.6) == DEFAULT_THEME.cloth


def test_terrain_interior_is_its_kind_colour(pixels_map):
    s, v = draw(pixels_map)
    # ruin-1 spans x 17..23, y 1..6: a 15 x 15 px patch round (18.5, 2.5) is mostly ruin fill
    cx, cy = v.to_screen_int(18.5, 2.5)
    patch = Counter(tuple(s.get_at((cx + i, cy + j)))[:3] for i in range(-7, 8) for j in range(-7, 8))
    assert patch.most_common(1)[0][0] == DEFAULT_THEME.terrain["ruin"].fill


@pytest.mark.parametrize("kind", ["ruin", "woods", "obstacle", "impassable", "hill", "building"])
def test_every_terrain_kind_has_its_own_fill(kind):
    state = mapfile.from_dict({
        "map": {"name": "t", "ruleset": "fight-phase", "width": 12.0, "depth": 12.0},
        "players": [{"id": "p", "active": True}],
        "terrain": [{"id": "t1", "kind": kind, "polygon": [[2, 2], [10, 2], [10, 10], [2, 10]]}],
    })
    s, v = draw(state)
    # sample a 15 x 15 px patch round (3.5, 8.5), away from the label at the centroid
    cx, cy = v.to_screen_int(3.5, 8.5)
    patch = Counter(tuple(s.get_at((cx + i, cy + j)))[:3] for i in range(-7, 8) for j in range(-7, 8))
    assert patch.most_common(1)[0][0] == DEFAULT_THEME.terrain[kind].fill
    fills = {st_.fill for st_ in DEFAULT_THEME.terrain.values()}
    assert len(fills) == 6  # six distinct kinds


def ring_hits(surface, view, centre, radius_in, colour, extra_px=0.0, tol=40, n=180):
    """How many of n points round a circle (radius in inches + extra px) are near ``colour``."""
    cx, cy = view.to_screen(*centre)
    r = view.length(radius_in) + extra_px
    hits = 0
    for k in range(n):
        a = 2 * math.pi * k / n
        p = (round(cx + r * math.cos(a)), round(cy + r * math.sin(a)))
        c = surface.get_at(p)
        hits += near((c.r, c.g, c.b), colour, tol)
    return hits


def test_objective_range_ring_is_measured_from_the_marker_edge(pixels_map):
    s, v = draw(pixels_map)
    ring = DEFAULT_THEME.objective_ring
    # ring radius = marker radius 0.787" + range 3" = 3.787"; dashes 10 on / 6 off
    on = ring_hits(s, v, (20.5, 9.5), 40 / 25.4 / 2 + 3.0, ring)
    # a ring measured from the centre would sit at 3" (17 px nearer)
    wrong = ring_hits(s, v, (20.5, 9.5), 3.0, ring)
    assert on > 70 and wrong < 10
    # the marker: 40mm disc at the centre (its label is in the middle, so look off it)
    assert px(s, v, 20.5 + 0.35, 9.5) == DEFAULT_THEME.objective_fill


def test_coherency_ring_only_with_the_overlay(pixels_map):
    # c/1 at (2.5, 2.5) and c/2 at (2.5, 7) break coherency (3.24" apart, 03.03);
    # the ring is 4 px outside the 0.63" radius
    red = DEFAULT_THEME.coherency
    for centre in ((2.5, 2.5), (2.5, 7.0)):
        s_on, v = draw(pixels_map, overlays={"coherency"})
        s_off, _ = draw(pixels_map)
        assert ring_hits(s_on, v, centre, 0.63, red, 4, tol=30) > 120
        assert ring_hits(s_off, v, centre, 0.63, red, 4, tol=30) == 0
    # a/1 holds coherency (a unit of one): no ring
    s_on, v = draw(pixels_map, overlays={"coherency"})
    assert ring_hits(s_on, v, (6.5, 8.5), 0.63, red, 4, tol=30) == 0


def test_contact_tick_only_with_the_overlay(pixels_map):
    # d/1 (15, 12.5) and e/1 (16.26, 12.5) touch at (15.63, 12.5); the tick is white
    s_on, v = draw(pixels_map, overlays={"contact"})
    s_off, _ = draw(pixels_map)
    assert px(s_on, v, 15.63, 12.5) == DEFAULT_THEME.contact
    assert px(s_off, v, 15.63, 12.5) != DEFAULT_THEME.contact
    # the tick is across the line between centres: 0.3" above the point too
    assert px(s_on, v, 15.63, 12.8) == DEFAULT_THEME.contact


def test_overlap_marked_only_with_the_overlay(pixels_map):
    # f/1 (3.0, 13.5) and f/2 (3.8, 13.5) share the lens x 3.17..3.63; (3.4, 13.5) is in it
    s_on, v = draw(pixels_map, overlays={"overlaps"})
    s_off, _ = draw(pixels_map)
    assert px(s_off, v, 3.4, 13.5) == RED
    _r, g, b = px(s_on, v, 3.4, 13.5)
    assert b > 100 and g < 60  # magenta over red: blue rises, green stays low


def test_engagement_halo_only_with_the_overlay(pixels_map):
    # d and e are engaged (base contact, within 2"); (13.6, 12.7) is 1.41" from d/1's
    # centre (15, 12.5): 0.78" outside its base, inside the 2" halo, off the grid
    s_on, v = draw(pixels_map, overlays={"engagement"})
    s_off, _ = draw(pixels_map)
    assert px(s_off, v, 13.6, 12.7) == DEFAULT_THEME.cloth
    assert px(s_on, v, 13.6, 12.7) != DEFAULT_THEME.cloth
    # a and b are not engaged: bare cloth between them stays bare
    assert px(s_on, v, 9.5, 8.5) == DEFAULT_THEME.cloth


def test_selected_and_highlight_rings(pixels_map):
    s, v = draw(pixels_map, selected="a/1", highlight={"b/1": "green"})
    assert ring_hits(s, v, (6.5, 8.5), 0.63, DEFAULT_THEME.selected, 3, tol=30) > 120
    assert ring_hits(s, v, (12.5, 8.5), 0.63, (30, 160, 60), 3, tol=30) > 120


def test_resolve_overlays():
    assert resolve_overlays(["all"]) == frozenset(OVERLAYS)
    assert resolve_overlays(["contact,coherency"]) == {"contact", "coherency"}
    with pytest.raises(ValueError, match="unknown overlay 'nope'"):
        resolve_overlays(["nope"])


def test_legend_shows_player_colours(pixels_map):
    v = View(SCALE, 40, 40)
    h = legend_height(pixels_map, v, 900)
    surface = pygame.Surface((900, h))
    draw_legend(surface, pixels_map, v, pygame.Rect(0, 0, 900, h))
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(0, 900, 2) for y in range(0, h, 2)}
    assert RED in colours and BLUE in colours


def test_render_image_size_and_legend(pixels_map):
    # 24" x 16" at 22 px/inch plus 40 px margins: 608 x 432 before the legend
    assert image_size(pixels_map, legend=False) == (608, 432)
    img = render_image(pixels_map, legend=True)
    assert img.get_width() == 608 and img.get_height() > 432


def test_default_scale_makes_a_60_inch_table_about_1400_px():
    state = mapfile.from_dict({"map": {"name": "t", "ruleset": "fight-phase", "width": 60.0, "depth": 44.0},
                               "players": [{"id": "p", "active": True}]})
    w, _ = image_size(state, legend=False)
    assert w == 60 * 22 + 80 == 1400


BASES = st.sampled_from(["32mm", "60x35mm oval", "25x50mm", "40mm"])


@settings(max_examples=30, deadline=None)
@given(base=BASES, facing=st.floats(0, 359.9), x=st.floats(3.3, 8.7), y=st.floats(3.3, 8.7))
def test_bases_true_to_scale_with_facing(base, facing, x, y):
    """Whatever the shape and facing, the base covers its along/across extents and no more:
    0.2" inside the back and side edges is the player's colour, 0.3" outside (past the unit outline) is not."""
    state = mapfile.from_dict({
        "map": {"name": "t", "ruleset": "fight-phase", "width": 12.0, "depth": 12.0},
        "players": [{"id": "p", "colour": "#b03a2e", "active": True}],
        "units": [{"id": "u", "player": "p", "base": base, "models": [[x, y, facing]]}],
    })
    m = state.model("u/1")
    s, v = draw(state)
    f = math.radians(facing)
    fx, fy = math.cos(f), math.sin(f)          # along the facing
    sx, sy = -fy, fx                           # across it
    half_along, half_across = m.base.along / 2, m.base.across / 2
    assert px(s, v, x, y) == RED
    back_in = px(s, v, x - fx * (half_along - 0.2), y - fy * (half_along - 0.2))
    side_in = px(s, v, x + sx * (half_across - 0.2), y + sy * (half_across - 0.2))
    assert near(back_in, RED, 2) and near(side_in, RED, 2)
    back_out = px(s, v, x - fx * (half_along + 0.3), y - fy * (half_along + 0.3))
    side_out = px(s, v, x + sx * (half_across + 0.3), y + sy * (half_across + 0.3))
    assert not near(back_out, RED, 12) and not near(side_out, RED, 12)


def small_map(units, objectives=()):
    return mapfile.from_dict({
        "map": {"name": "t", "ruleset": "fight-phase", "width": 12.0, "depth": 12.0},
        "players": [{"id": "p", "colour": "#b03a2e", "active": True}, {"id": "q"}],
        "units": units, "objectives": list(objectives),
    })


def test_off_table_ring_only_with_the_overlay():
    # a 32mm base centred 0.3" from the left edge goes 0.33" past it; the dashed ring is
    # 5 px outside its 0.63" radius, dashes 6 on / 4 off
    state = small_map([{"id": "u", "player": "p", "base": "32mm", "models": [[0.3, 6.5]]}])
    on, v = draw(state, overlays={"off-table"})
    off, _ = draw(state)
    colour = DEFAULT_THEME.off_table
    assert ring_hits(on, v, (0.3, 6.5), 0.63, colour, 5, tol=30) > 60
    assert ring_hits(off, v, (0.3, 6.5), 0.63, colour, 5, tol=30) == 0


def test_objective_overlay_dots_the_models_in_range():
    # objective at (6, 6): marker radius 0.787", range 3" -> models whose edge is within
    # 3.787" of the centre.  u/1 at (6, 9.5): edge 3.5 - 0.63 = 2.87" from the centre, in
    # range; u/2 at (6, 11.2): 4.57" away, out.  The dot sits 0.62 x 0.63" = 0.39" from the
    # model's centre towards the objective.
    state = small_map([{"id": "u", "player": "p", "base": "32mm", "models": [[6, 9.5], [6, 11.2]]}],
                      [{"id": "A", "at": [6, 6]}])
    on, v = draw(state, overlays={"objectives"})
    off, _ = draw(state)
    hold = DEFAULT_THEME.objective_hold
    assert px(on, v, 6, 9.5 - 0.39) == hold
    assert px(off, v, 6, 9.5 - 0.39) == RED
    assert px(on, v, 6, 11.2 - 0.39) == RED


def test_models_off_the_table_are_still_drawn(write_map):
    from tabletop.board import mapfile
    from tabletop.render.image import MARGIN_PX, spill
    state = mapfile.load(write_map("""
    [map]
    name = "Off"
    ruleset = "fight-phase"
    width = 24
    depth = 18
    [[players]]
    id = "red"
    colour = "#b03a2e"
    active = true
    [[units]]
    id = "a"
    player = "red"
    base = "32mm"
    models = [[-3, 5], [-1.5, 5], [1, 5]]
    """))
    # a/1 reaches x = -3 - 0.63 = -3.63; the picture grows by that plus 0.5" of room
    left = spill(state)[0]
    assert left == pytest.approx(3 + 16 / 25.4 + 0.5)
    surf = render_image(state, scale=20, legend=False)
    x = round(MARGIN_PX + (left - 3) * 20)
    y = round(MARGIN_PX + (18 - 5) * 20)
    assert surf.get_at((x, y))[:3] == (0xb0, 0x3a, 0x2e)


def test_a_terrain_label_moves_off_an_objective_marker_at_its_centre(monkeypatch):
    # issue 12 finding 14: ruin-a, a 12x6 ruin centred on (20, 14), and objective obj-2 at
    # (20, 14) (40mm marker: radius 0.787" = 17.3 px at 22 px/in): the piece's label at its
    # centre would sit on the marker's own label.  The label goes beside the marker (below
    # it first, render.label_place.around); obj-1 far away leaves ruin-b's label centred.
    from tabletop.render import board as board_mod
    state = mapfile.from_dict({
        "map": {"name": "labels", "ruleset": "fight-phase", "width": 40, "depth": 30},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "terrain": [{"id": "ruin-a", "kind": "ruin",
                     "polygon": [[14, 11], [26, 11], [26, 17], [14, 17]]},
                    {"id": "ruin-b", "kind": "ruin",
                     "polygon": [[2, 22], [8, 22], [8, 26], [2, 26]]}],
        "objectives": [{"id": "obj-2", "at": [20, 14]}, {"id": "obj-1", "at": [35, 5]}]},
        path="<test>")
    drawn: dict[str, tuple[float, float]] = {}
    real = board_mod.prims.outlined_text

    def spy(surface, t, size, colour, halo, pos, anchor="center"):
        drawn.setdefault(t, pos)
        return real(surface, t, size, colour, halo, pos, anchor)
    monkeypatch.setattr(board_mod.prims, "outlined_text", spy)
    surface, view = draw(state)
    mx, my = drawn["obj-2"]         # the marker's own label: at its centre (same layer)
    r = 0.787 * SCALE
    marker = pygame.Rect(round(mx - r), round(my - r), round(2 * r), round(2 * r))
    w, h = board_mod.prims.font(DEFAULT_THEME.font_small).size("ruin-a")
    label = pygame.Rect(0, 0, w, h)
    label.center = (round(drawn["ruin-a"][0]), round(drawn["ruin-a"][1]))
    assert not label.colliderect(marker)
    assert label.top > marker.bottom            # below the marker, the first place offered
    # ruin-b has no marker on it: its label stays at its centre (5, 24), 15" left of and
    # 10" above the marker at (20, 14): (-15 * 22, -10 * 22) = (-330, -220) px
    assert (drawn["ruin-b"][0] - mx, drawn["ruin-b"][1] - my) == pytest.approx((-330, -220), abs=1)
