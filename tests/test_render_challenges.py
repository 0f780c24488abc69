"""Challenge drawers (render/challenges.py) paint where the step says."""

from __future__ import annotations

import pygame
from challengekit import battlefield, model, unit

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
    step = Step("t", "gambit-challenge.txt", gone, range(0), {"challenge": {
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
    step = Step("t", "gambit-challenge.txt", s, range(0), {"disgraced": ["b/1"],
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
