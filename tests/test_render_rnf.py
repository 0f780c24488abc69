"""The rank-and-flank drawers (render/rank_and_flank.py) put the right colours in the right places."""

from __future__ import annotations

import pygame
from rnf_maps import B25 as B
from rnf_maps import rnf_map, run, unit

from tabletop.render import rank_and_flank as R
from tabletop.render.steps import draw_step, drawer_keys
from tabletop.render.view import View


def test_drawers_are_registered():
    assert {"rnf_units", "rnf_attacks", "rnf_score", "rnf_break", "rnf_flee", "rnf_turn",
            "rnf_notes", "rnf_casualties"} <= set(drawer_keys())


def test_who_attacks_frame_colours_flank_and_badges():
    # a: 5x4 facing up; b: 4x2 facing east on a's left flank
    state = rnf_map(unit("a", "red", (24, 24), 90, 5, 4),
                    unit("b", "blue", (24 - 2.5 * B, 24 - 2 * B), 0, 4, 2, charged=True))
    _, log, _ = run(state, [1] * 4 + [1] * 8 + [1, 1])   # b wins by its +1 flank; a holds
    step = log.steps[0]                       # "who attacks"
    surface = pygame.Surface((900, 700))
    view = View(40.0, 450 - 24 * 40.0, 350 + 22 * 40.0)   # (24, 22) at the centre, 40 px/inch
    draw_step(surface, step, view, events=log, caption=False)
    # a/6 (second rank, left flank file) fights the flank: a black badge on its centre
    # (sampled 11 px below the centre: inside the 14 px badge, below its number)

    def badge(mid):
        m = step.state.model(mid)
        x, y = view.to_screen(m.x, m.y)
        return surface.get_at((int(x), int(y) + 11))[:3]

    assert badge("a/6") == R.KIND_COLOURS["flank"]
    # a/7 makes no attack (the front is free): no badge, the player's colour shows
    assert badge("a/7") not in R.KIND_COLOURS.values()
    # b/1 fights to its front: a cyan badge
    assert badge("b/1") == R.KIND_COLOURS["front"]
    # a's rear edge: red and white dots just outside it (a 4 px band, 4 px out); its left
    # flank, touched, black and white dashes (an 8 px band, 6 px out), never a player colour
    x, y = view.to_screen(24, 24 - 4 * B)
    rear = {surface.get_at((int(x) + k, int(y) + 4))[:3] for k in range(-30, 30)}
    assert rear == {R.SIDE_COLOURS["rear"], (255, 255, 255)}
    x, y = view.to_screen(24 - 2.5 * B, 24 - 3.5 * B)
    flank = {surface.get_at((int(x) - 6, int(y) + k))[:3] for k in range(-12, 12)}
    assert flank == {R.SIDE_COLOURS["left"], (255, 255, 255)}


def test_side_and_badge_colours_stand_apart_from_player_colours():
    # the default palette and the lesson maps' Empire gold and Greenskin green: every solid
    # marking (the front, every badge) is far from all of them (redmean distance > 150; the
    # old amber flank was 72 from the Empire gold); the rear's red, close to the palette's red,
    # is always drawn as red-and-white dots, the flanks as black-and-white dashes
    from tabletop.render.theme import PLAYER_PALETTE, _distance, parse_colour
    players = list(PLAYER_PALETTE) + [parse_colour("#c8a02a"), parse_colour("#3d7a2a")]
    solid = [R.SIDE_COLOURS["front"], *R.KIND_COLOURS.values()]
    assert min(_distance(s, p) for s in solid for p in players) > 150
    assert R.SIDE_PATTERNS["rear"][0] == "dots" and R.SIDE_PATTERNS["left"][0] == "dashes"
    assert R.SIDE_PATTERNS["rear"][1] == R.SIDE_PATTERNS["left"][1] == (255, 255, 255)


def test_the_score_panel_moves_off_the_bases():
    # a and b fill the bottom-left of a 900 x 700 view (40 px/inch, table (0, 0) at the
    # bottom-left pixel): the bottom-left panel spot would cover their bases, the bottom-right
    # is free, so the score panel goes there and covers no base
    state = rnf_map(unit("a", "red", (5, 4), 90, 5, 4), unit("b", "blue", (5, 4), 270, 5, 2))
    _, log, _ = run(state, [1] * 22)      # no hits; red 2 ranks - blue 1: b holds on 1 + 1
    step = next(s for s in log.steps if "combat score" in s.title)
    surface = pygame.Surface((900, 700))
    view = View(40.0, 0.0, 700.0)
    R._PANELS.clear()
    draw_step(surface, step, view, events=log, caption=False)
    (panel,) = [r for rects in R._PANELS.values() for r in rects]
    # the bases lie within x 5 +- 2.5B inches: 101..299 px; the panel is right of them
    assert panel.left > 450 and panel.bottom <= 700
    assert all(view.to_screen(m.x, m.y)[0] < 300 for m in step.state.models())
