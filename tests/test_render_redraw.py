"""Redraw only what changed (issue 11 item 3): driven by posted events on a 1,000-model
table, a drop or a new selection redraws only its rectangles, unions one unit's outline,
and leaves the board pixel for pixel as a whole drawing would."""

from __future__ import annotations

import importlib

import pygame
import pytest
import shapely

from tabletop.bench.layout import random_battlefield
from tabletop.geometry import snapshot
from tabletop.render import board, redraw

snapshot_module = importlib.import_module("tabletop.geometry.snapshot")

E = pygame.event.Event


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((1, 1), pygame.HIDDEN)
    yield


def _whole(app, size):
    img = pygame.Surface(size)
    board.draw_board(img, app.state, app.geo, app.view, overlays=app.overlays, selected=app.selected)
    return pygame.image.tobytes(img, "RGB")


def test_a_drop_redraws_one_place_and_unions_one_unit(monkeypatch):
    from tabletop.app.app import App
    st = random_battlefield(1000, 0)      # 100 units of 10 (bikes: 3) on an 80" x 70" table
    app = App(st, size=(1400, 900))
    surf = pygame.Surface((1400, 900))
    app.draw(surf)
    mid = "u41/4"
    m = st.model(mid)
    p = tuple(int(v) for v in app.view.to_screen(m.x, m.y))
    app.handle(E(pygame.MOUSEBUTTONDOWN, button=1, pos=p))      # select
    app.handle(E(pygame.MOUSEBUTTONUP, button=1, pos=p))
    app.draw(surf)
    assert app._drawn.passes == 1          # the selection: one rectangle round unit u41
    unions = []
    real = shapely.union_all
    monkeypatch.setattr(snapshot_module.shapely, "union_all", lambda *a, **k: unions.append(1) or real(*a, **k))
    dx = -18                               # 18 px left, 1.5" at this scale: clear of every base
    app.handle(E(pygame.MOUSEBUTTONDOWN, button=1, pos=p))
    for k in range(1, 7):
        app.handle(E(pygame.MOUSEMOTION, pos=(p[0] + k * dx // 6, p[1]), rel=(dx // 6, 0), buttons=(1, 0, 0)))
        app.draw(surf)
    app.handle(E(pygame.MOUSEBUTTONUP, button=1, pos=(p[0] + dx, p[1])))
    app.draw(surf)
    assert app.state.model(mid).at != m.at, app.messages[-1]
    assert len(unions) == 1                # only u41's outline is unioned again (the others kept)
    assert 1 <= app._drawn.passes <= redraw.DIRTY_RECTS_MAX
    area = sum(r.w * r.h for r in app._drawn.dirty)
    assert area < 0.1 * app.board_rect.w * app.board_rect.h
    board_img = app._board[2]
    assert pygame.image.tobytes(board_img, "RGB") == _whole(app, board_img.get_size())


def test_items_outside_the_dirty_rectangles_are_not_drawn(monkeypatch):
    st = random_battlefield(200, 3)
    from tabletop.render.view import View
    v = View.fit(st.table.width, st.table.depth, 800, 600, margin_px=30)
    surf = pygame.Surface((800, 600))
    g = snapshot(st)
    drawn = redraw.redraw_board(surf, None, st, g, v)
    assert drawn.passes == 0                # the first drawing is whole
    u = st.units[3]
    moved = st.with_positions({u.models[0].id: (u.models[0].x, u.models[0].y + 0.01)})
    calls = []
    real = board.draw_base
    monkeypatch.setattr(board, "draw_base", lambda *a, **k: calls.append(a[3].id) or real(*a, **k))
    drawn = redraw.redraw_board(surf, drawn, moved, snapshot(moved), v)
    # the moved base, and only bases within its rectangles: far fewer than the 200
    assert u.models[0].id in calls and len(calls) < 40
    whole = pygame.Surface((800, 600))
    board.draw_board(whole, moved, snapshot(moved), v)
    assert pygame.image.tobytes(surf, "RGB") == pygame.image.tobytes(whole, "RGB")
