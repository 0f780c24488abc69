"""Challenge drawers (render/challenges.py) paint where the step says."""

from __future__ import annotations

from dataclasses import replace

import pygame
from challengekit import battlefield, model, unit

from tabletop.render.step_draw import with_keys
from tabletop.render.steps import draw_step, drawer_keys
from tabletop.render.theme import DEFAULT_THEME
from tabletop.render.view import View
from tabletop.rules.events import Step

SCALE = 20.0


def _draw(step):
    st = step.state
    view = View(SCALE, 40, 40 + st.table.depth * SCALE)
    surface = pygame.Surface((int(st.table.width * SCALE) + 80, int(st.table.depth * SCALE) + 80))
    draw_step(surface, step, view, caption=False)
    return surface, view


def _state():
    return battlefield([unit("a", "red", [model(10, 10), model(11.26, 10)]),
                        unit("b", "blue", [model(10, 11.26), model(11.26, 11.26)])], width=30, depth=20)


def test_challenge_keys_are_registered():
    assert {"challenge", "gambits", "focus_roll", "support", "points", "returned",
            "disgraced"} <= set(drawer_keys())


def test_set_aside_pair_drawn_beside_the_combat():
    s = _state()
    a, b = s.model("a/1"), s.model("b/1")
    gone = s.without_models(["a/1", "b/1"])
    step = with_keys(Step("t", "gambit-challenge.txt", gone, range(0)), {"challenge": {
        "challenger": "a/1", "challenged": "b/1", "combat": ["a", "b"], "models": {"a/1": a, "b/1": b},
        "aside": {"a/1": (20.0, 10.0), "b/1": (21.26, 10.0)}, "removed": [], "players": ["red", "blue"]}})
    surface, view = _draw(step)
    red = DEFAULT_THEME.player_colours(s)["red"]
    c = surface.get_at(view.to_screen_int(20.3, 9.9))   # inside a/1's base, off its centre glyph
    assert (c.r, c.g, c.b) == tuple(red)[:3]
    # where a/1 stood on the table is bare cloth now
    c = surface.get_at(view.to_screen_int(10.3, 9.7))
    assert (c.r, c.g, c.b) != tuple(red)[:3]


def test_disgraced_and_support_rings():
    s = _state()
    step = with_keys(Step("t", "gambit-challenge.txt", s, range(0)), {"disgraced": ["b/1"],
                                                         "support": {"red": {"bonus": 0, "models": ["a/2"]}}})
    surface, view = _draw(step)
    # a 4 px red stroke centred 3.5 px outside b/1's base (radius 0.63" x 20 px); the label
    # "DISGRACED" covers its top, so most (not all) of the circle reads red
    x, y = view.to_screen(10.0, 11.26)
    r = 32 / 25.4 / 2 * SCALE + 3.5

    def red(k):
        v = pygame.math.Vector2(r, 0).rotate(5 * k)
        c = surface.get_at((round(x + v.x), round(y + v.y)))
        return c.r > 150 and c.g < 60 and c.b < 60

    assert sum(red(k) for k in range(72)) > 45


def _aside_step(names=True):
    from tabletop.geometry.placement import aside_box
    s = _state()
    if names:
        s = s.with_models([replace(s.model("a/1"), name="Centurion of the Third Company"),
                           replace(s.model("b/1"), name="Veteran Sergeant")])
    a, b = s.model("a/1"), s.model("b/1")
    spot = aside_box(s, ["a", "b"], [a, b], skip=["a/1", "b/1"])
    gone = s.without_models(["a/1", "b/1"])
    return s, spot, with_keys(Step("t", "gambit-challenge.txt", gone, range(0)), {"challenge": {
        "challenger": "a/1", "challenged": "b/1", "combat": ["a", "b"], "models": {"a/1": a, "b/1": b},
        "aside": dict(spot.centres), "box": list(spot.box), "removed": [], "players": ["red", "blue"]}})


def test_set_aside_box_is_the_rules_box_in_inches_and_covers_no_combat_model():
    s, spot, step = _aside_step()
    surface, view = _draw(step)
    red = DEFAULT_THEME.player_colours(s)["red"]
    # a/2 at (11.26, 10), 1" left of the box: still red, though the long names would not fit
    c = surface.get_at(view.to_screen_int(11.26 + 0.3, 10 - 0.3))
    assert (c.r, c.g, c.b) == tuple(red)[:3]
    # the box's fill just inside its corners, the table's cloth just outside (0.15" = 3 px)
    x0, y0, x1, y1 = spot.box
    fill = surface.get_at(view.to_screen_int(x0 + 0.3, y0 + 0.15))
    cloth = surface.get_at(view.to_screen_int(x0 - 0.3, y0 + 0.15))
    assert fill.r > 230 and fill.g > 225 and fill.b > 190 and fill != cloth


def test_panels_stay_above_the_bottom_ruler():
    from tabletop.render.challenges import RULER_CLEAR
    from tabletop.render.rank_and_flank import _PANELS
    s = _state()
    step = with_keys(Step("t", "gambit-challenge.txt", s, range(0)), {
        "gambits": {"red": "Finishing Blow", "blue": "Grandstand"},
        "blows": {"a/1": {"attacks": 4, "hits": 2, "wounds": 2, "unsaved": 0, "damage": 0}}})
    surface, view = _draw(step)
    rects = list(_PANELS.values())[-1]
    assert len(rects) == 2
    table_bottom = round(view.to_screen(0, 0)[1])            # 40 + 20 * 20 = 440 px
    assert table_bottom == 440
    assert all(r.bottom <= table_bottom - RULER_CLEAR for r in rects)
    assert not rects[0].colliderect(rects[1])
