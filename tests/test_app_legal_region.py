"""The step-through's legal region and live check (app/legal_drag.py), driven by posted
pygame events.  fight-phase.txt 12.03, 11th preset (engagement range 2", tolerance 0.02").

r/1 (32mm, charged) at (10, 10), e/1 (32mm) at (14, 10): gap 4 - 1.25984 = 2.74016", so r
piles in toward e.  The view is fixed at 10 pixels per inch with table (0, 0) at pixel
(50, 850): table (x, y) is pixel (50 + 10x, 850 - 10y).
"""

from __future__ import annotations

import pygame
import pytest

from tabletop.app.app import App
from tabletop.board import mapfile
from tabletop.cli.fight_cmd import resolve
from tabletop.render.view import View

MAP = """\
[map]
name = "Legal region in the window"
ruleset = "fight-phase"
width = 30.0
depth = 20.0

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "r"
player = "red"
base = "32mm"
charged = true
models = [[10, 10]]
weapons = [{ name = "Blade", A = 1, WS = 3, S = 4, AP = 0, D = 1 }]

[units.profile]
M = 6
T = 4
Sv = 3
W = 1

[[units]]
id = "e"
player = "blue"
base = "32mm"
models = [[14, 10]]
weapons = [{ name = "Blade", A = 1, WS = 3, S = 4, AP = 0, D = 1 }]

[units.profile]
M = 6
T = 4
Sv = 3
W = 1
"""

E = pygame.event.Event


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1400, 900))
    yield
    pygame.display.quit()


def px(x: float, y: float) -> tuple[int, int]:
    return round(50 + 10 * x), round(850 - 10 * y)


@pytest.fixture
def app(write_map):
    path = write_map(MAP)
    state = mapfile.load(path)
    res = resolve(state, seed=1)
    a = App(state, path, (1400, 900), steps=res.log.steps, events=res.log.events)
    a.follow = False
    a.animate_frames = 0
    a.toggle_legend()
    a.view = View(scale=10.0, origin_x=50.0, origin_y=850.0)
    k = next(i for i, s in enumerate(a.steps)
             if any(res.log.events[j].type == "pile_in" for j in s.events))
    a.go_step(k - a.step_index)
    return a


def click(app, pos):
    app.handle(E(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.handle(E(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def pixel(app, at):
    surface = pygame.Surface((1400, 900))
    app.draw(surface)
    return tuple(surface.get_at(px(*at)))[:3]


def test_selecting_a_model_in_the_pile_in_step_shades_its_region(app):
    end = app.shown_state.model("r/1").at      # where the pile-in put it
    spot = (11.2, 11.2)
    # |spot - start| = sqrt(1.2^2 + 1.2^2) = 1.70 <= 3; |spot - e/1| = sqrt(2.8^2 + 1.2^2)
    # = 3.046 <= 1.25984 + 2.02: engaged, so the stronger shade; clear of r/1's new base
    plain = pixel(app, spot)
    click(app, px(*end))
    assert app.selected == "r/1"
    region = app.shown_region()
    assert region is not None and region.engaged.covers(__import__("shapely").Point(spot))
    shaded = pixel(app, spot)
    assert shaded != plain and shaded[2] > shaded[0] + 40     # blue over the table's grey
    far = (10.0, 14.0)                                         # 4" from the start: not shaded
    assert pixel(app, far) == pixel(app, far)
    app.select(None)
    assert pixel(app, spot) == plain


def test_dragging_to_an_illegal_spot_names_the_clause(app):
    end = app.shown_state.model("r/1").at
    click(app, px(*end))
    start = px(*end)
    app.handle(E(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    app.handle(E(pygame.MOUSEMOTION, pos=(start[0] - 10, start[1]), rel=(-10, 0), buttons=(1, 0, 0)))
    # the pile-in ends r/1 in base contact, 0.01" (the margin) off e/1: x = 14 - 1.25984
    # - 0.01 = 12.73016, grabbed at pixel x 12.7, so the model is 0.03016" right of the
    # cursor.  To pixel (9.5, 10): the model at 9.53016, 14 - 9.53016 - 1.25984 = 3.21"
    # from e/1, not closer than the 2.74" it started
    app.handle(E(pygame.MOUSEMOTION, pos=px(9.5, 10), rel=(0, 0), buttons=(1, 0, 0)))
    assert app.drag is not None and app.drag.in_step and app.drag.bad
    text = "\n".join(app.step_check)
    assert 'r/1 ends 3.21" from e (its closest model e/1), not closer than the 2.74" it started' in text
    assert "broken clause" in app.step_check[0]
    assert "not closer" in app.panel.texts["measure"]
    app.handle(E(pygame.MOUSEBUTTONUP, pos=px(9.5, 10), button=1))
    assert app.drag is None
    assert app.shown_state.model("r/1").at == end                # the rules' state is unchanged
    assert "not closer" in "\n".join(app.message_lines())


def test_dragging_into_the_region_is_legal(app):
    end = app.shown_state.model("r/1").at
    click(app, px(*end))
    start = px(*end)
    app.handle(E(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    app.handle(E(pygame.MOUSEMOTION, pos=(start[0], start[1] - 10), rel=(0, -10), buttons=(1, 0, 0)))
    # (12, 11): 2.24" from the start; sqrt(4 + 1) - 1.25984 = 0.98" from e/1: engaged
    app.handle(E(pygame.MOUSEMOTION, pos=px(12, 11), rel=(0, 0), buttons=(1, 0, 0)))
    assert app.step_check[0].endswith(": legal"), app.step_check
    assert not app.drag.bad
