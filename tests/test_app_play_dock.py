"""``view --play``'s question panel and option numbers leave the named models in sight
(issue 9 audit: on the 60x44 layout the panel lay over the assault squad at the top).

Map: maps/ca-layout-1-hammer-and-anvil.toml (60" x 44"), seed 1, a 1024 x 700 window (the
board 624 px wide: the table at about 9.6 px an inch).  The first question is the marines'
pile-in order: assault (top of the table, y 27-33"), bladeguard, intercessors-b (bottom,
y 2-4"), captain (y 8"), none.  The panel with its 5 + 1 buttons is 232 px tall, 608 wide:
over the top of the board (8..240) it lay over the assault squad's top model, its centre at
about y 244 px and its ring (32 mm base: 0.63" x 9.6 = 6 px, + 4 px gap + 3 px line + 1 px
halo = 14 px) from y 230: the old panel covered 10 px of that ring.  Now it docks clear of
every named ring, panning the view down when no place over the board is clear.

Driven by posted pygame events (``SDL_VIDEODRIVER=dummy``).
"""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pytest

from tabletop.app import question_text
from tabletop.app.app import App
from tabletop.app.board_theme import board_theme
from tabletop.app.interactive import PlaySession
from tabletop.board import mapfile
from tabletop.render.board import board_canvas
from tests.window_helpers import click, post_and_handle

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = str(ROOT / "maps" / "ca-layout-1-hammer-and-anvil.toml")
SIZE = (1024, 700)
RING_OUT_PX = 4 + 3 + 1          # play.RING_PAD_PX + RING_WIDTH_PX + the halo's pixel


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode(SIZE)
    yield
    pygame.display.quit()


def _first_question(seed: int = 1) -> App:
    state = mapfile.load(LAYOUT)
    app = App(state, LAYOUT, SIZE, play=PlaySession(state, seed))
    end = time.monotonic() + 120
    while app.play.question is None:
        assert time.monotonic() < end and not app.play.finished
        app.update(0.016)
    for _ in range(3):
        app.update(0.016)
    app.draw(pygame.display.get_surface())
    return app


def _rings(app: App) -> dict[str, pygame.Rect]:
    """Each named model's ring (window pixels), worked out here from the view."""
    q, geo, v, board = app.play.question, app.shown_geo, app.view, app.board_rect
    out = {}
    for ids in question_text.option_models(q, geo).values():
        for mid in ids:
            m = geo.model(mid)
            x, y = v.to_screen(m.x, m.y)
            r = m.base.radius * v.scale + RING_OUT_PX
            out[mid] = pygame.Rect(round(x - r), round(y - r), round(2 * r),
                                   round(2 * r)).move(board.topleft)
    return out


def test_the_panel_leaves_every_named_model_in_sight():
    app = _first_question()
    try:
        q = app.play.question
        assert q.choice == "pile_in" and q.options[0] == "assault"
        geo = app.shown_geo
        ys = {o: [geo.model(m).y for m in geo.unit_models(o)] for o in ("assault", "intercessors-b")}
        assert min(ys["assault"]) > 22 and max(ys["intercessors-b"]) < 22   # top and bottom
        panel = app.play.ask.rect
        board = app.board_rect
        for mid, ring in _rings(app).items():
            x, y = app.view.to_screen(geo.model(mid).x, geo.model(mid).y)
            assert not panel.collidepoint(x + board.x, y + board.y), mid
            assert not panel.colliderect(ring), (mid, ring, panel)
            assert board.contains(ring), mid          # on the board, not panned away
    finally:
        app.close()


def test_each_badge_sits_clear_and_a_click_on_it_answers_its_option():
    app = _first_question()
    options = question_text.option_models(app.play.question, app.shown_geo)
    badges = list(app.play.badges)
    try:
        assert sorted(k for _r, k in badges) == sorted(options)      # assault .. captain
        board = app.board_rect
        geo, v = app.shown_geo, app.view
        bases = []
        for mid in geo.ids:
            m = geo.model(mid)
            x, y = v.to_screen(m.x, m.y)
            r = m.base.radius * v.scale
            bases.append(pygame.Rect(round(x - r), round(y - r), round(2 * r), round(2 * r)))
        panel = app.play.ask.rect.move(-board.x, -board.y)
        # the units' name plates as the board places them (audit 9: a number sat on a plate)
        c = board_canvas(pygame.Surface(board.size), app.shown()[0], geo, v,
                         overlays=frozenset(app.overlays), selected=app.selected,
                         theme=board_theme(board.size), clip=pygame.Rect(0, 0, 0, 0))
        plates = [p[4] for p in c.placed]
        assert plates
        for i, (rect, k) in enumerate(badges):
            assert rect.collidelist(bases) < 0, (k, rect)          # on no model
            assert rect.collidelist(plates) < 0, (k, rect)         # on no name plate
            assert not rect.colliderect(panel), k
            assert all(not rect.colliderect(o) for o, _k in badges[i + 1:]), k
    finally:
        app.close()
    for rect, k in badges:                # a click on each number answers with its option
        app = _first_question()
        try:
            assert [(tuple(r), j) for r, j in app.play.badges] == [(tuple(r), j) for r, j in badges]
            at = (rect.centerx + app.board_rect.x, rect.centery + app.board_rect.y)
            answered: list[int] = []
            real = app.play.answer
            app.play.answer = lambda i, seen=answered, real=real: (seen.append(i), real(i))[1]
            post_and_handle(app, pygame.event.Event(pygame.MOUSEMOTION, pos=at, rel=(0, 0),
                                                    buttons=(0, 0, 0)), *click(at))
            assert answered == [k]
            assert app.play.question is None               # answered, the panel closed
        finally:
            app.close()
