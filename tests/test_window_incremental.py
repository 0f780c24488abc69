"""A drop and a step on a 1,000-model table drawn over several frames (issue 11 item 3):
no frame places more than ``redraw.LABELS_PER_FRAME`` labels, and once the picture has
built it equals, pixel for pixel, a whole drawing of the same state.

The table is ``random_battlefield(1000, 0)`` (100 units on an 88" x 70" table); the
window's view is fixed at 10 px per inch (``window_helpers``), so a drag of 5 px moves a
model 0.5"."""

from __future__ import annotations

import pygame
import pytest

from tabletop.app.app import App
from tabletop.bench.layout import random_battlefield
from tabletop.geometry import snapshot
from tabletop.render import board, redraw
from tabletop.render.view import View
from tests.window_helpers import SCALE_PX, display_fixture, fix_view, pixel_of

SIZE = (1400, 900)
display = display_fixture(SIZE)
E = pygame.event.Event


@pytest.fixture(scope="module")
def table():
    return random_battlefield(1000, 0)


def _count_places(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = board.place_label
    monkeypatch.setattr(board, "place_label", lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def _whole(state, geo, view, size, **kw) -> bytes:
    img = pygame.Surface(size)
    board.draw_board(img, state, geo, view, **kw)
    return pygame.image.tobytes(img, "RGB")


def test_a_drop_with_a_long_label_chain_is_spread_over_frames(table, monkeypatch):
    app = fix_view(App(table, size=SIZE), SIZE[1])
    surf = pygame.Surface(SIZE)
    app.update(1 / 60)
    app.draw(surf)
    px = pixel_of(SIZE[1])
    m = table.model("u1/1")
    p = px(m.x, m.y)
    app.handle(E(pygame.MOUSEBUTTONDOWN, button=1, pos=p))       # select u1/1
    app.handle(E(pygame.MOUSEBUTTONUP, button=1, pos=p))
    app.update(1 / 60)
    app.draw(surf)
    app.handle(E(pygame.MOUSEBUTTONDOWN, button=1, pos=p))
    app.handle(E(pygame.MOUSEMOTION, pos=(p[0] + 5, p[1]), rel=(5, 0), buttons=(1, 0, 0)))
    app.update(1 / 60)
    app.draw(surf)
    before = list(app._drawn.placed)
    calls = _count_places(monkeypatch)
    app.handle(E(pygame.MOUSEBUTTONUP, button=1, pos=(p[0] + 5, p[1])))
    per_frame = []
    while True:
        n0 = len(calls)
        app.update(1 / 60)
        app.draw(surf)
        per_frame.append(len(calls) - n0)
        if app._drawn.pending is None:
            break
        if len(per_frame) == 1:
            # the drop's own frame: the model stands where it was dropped and every label
            # where it was (a whole drawing of the new state with the old placement)
            img = pygame.Surface(app._board[2].get_size())
            board.board_canvas(img, app.state, app.geo, app.view, selected=app.selected, labels=before)
            assert pygame.image.tobytes(app._board[2], "RGB") == pygame.image.tobytes(img, "RGB")
        assert len(per_frame) < 50
    # the model moved 5 px / 10 px per inch = 0.5" to the right
    assert app.state.model("u1/1").x == pytest.approx(m.x + 5 / SCALE_PX, abs=0.01)
    placed = sum(per_frame)
    assert placed > redraw.LABELS_PER_FRAME                 # a chain longer than one frame's share
    assert max(per_frame) <= redraw.LABELS_PER_FRAME        # 3 labels at most a frame
    # each frame but the last places its full 3; the last finds the chain's end:
    # frames = placed // 3 + 1 (e.g. 31 labels -> 3 x 10 + 1 over 11 frames)
    assert len(per_frame) == placed // redraw.LABELS_PER_FRAME + 1
    img = app._board[2]
    assert pygame.image.tobytes(img, "RGB") == _whole(app.state, app.geo, app.view, img.get_size(),
                                                       selected=app.selected)


def test_a_second_change_while_labels_are_pending_still_ends_as_a_whole_drawing(table):
    v = View.fit(table.table.width, table.table.depth, 1000, 800, margin_px=30)
    surf = pygame.Surface((1000, 800))
    drawn = redraw.redraw_board(surf, None, table, snapshot(table), v)
    m1 = table.model("u1/1")
    s1 = table.with_positions({"u1/1": (m1.x + 0.5, m1.y)})     # 0.5" right: a long chain
    g1 = snapshot(s1)
    drawn = redraw.redraw_board(surf, drawn, s1, g1, v, work=2)
    assert drawn.pending is not None                           # more than 2 labels to place
    m2 = table.model("u41/1")
    s2 = s1.with_positions({"u41/1": (m2.x + 1.0, m2.y)})      # then u41 1" right, mid-way
    g2 = snapshot(s2)
    calls = 0
    while True:
        drawn = redraw.redraw_board(surf, drawn, s2, g2, v, work=2)
        calls += 1
        if drawn.pending is None:
            break
        assert calls < 100
    assert calls > 1
    assert pygame.image.tobytes(surf, "RGB") == _whole(s2, g2, v, (1000, 800))


def test_a_placement_spread_over_calls_places_what_one_call_places(table):
    v = View.fit(table.table.width, table.table.depth, 1000, 800, margin_px=30)
    a, b = pygame.Surface((1000, 800)), pygame.Surface((1000, 800))
    d0 = redraw.redraw_board(a, None, table, snapshot(table), v)
    b.blit(a, (0, 0))
    m = table.model("u1/1")
    s1 = table.with_positions({"u1/1": (m.x + 0.5, m.y)})
    g1 = snapshot(s1)
    whole = redraw.redraw_board(a, d0, s1, g1, v)               # no limit: one call
    d = d0
    calls = 0
    while True:
        d = redraw.redraw_board(b, d, s1, g1, v, work=redraw.LABELS_PER_FRAME)
        calls += 1
        if d.pending is None:
            break
    # one call placed whole.relabelled labels afresh; 8 a call: relabelled // 8 + 1 calls
    assert whole.relabelled > redraw.LABELS_PER_FRAME
    assert calls == whole.relabelled // redraw.LABELS_PER_FRAME + 1
    assert [p[4] for p in d.placed] == [p[4] for p in whole.placed]
    assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


# ---------------------------------------------------------------- steps built over frames
def test_a_build_does_pieces_while_they_fit_the_frame():
    from tabletop.app.step_build import Build

    done: list[int] = []

    def pieces():
        for cost in (12, 1, 1, 1, 15, 15):
            yield cost              # announced before it is done
            done.append(cost)

    b = Build("k", pygame.Surface((1, 1)), pieces())
    per_frame = []
    while True:
        n0 = sum(done)
        finished = b.run(24)
        per_frame.append(sum(done) - n0)
        if finished:
            break
    # 12 + 1 + 1 + 1 = 15, and 15 more would be 30 > 24: stop; then 15 alone twice
    assert per_frame == [15, 15, 15]
    assert Build("k", pygame.Surface((1, 1)), iter((5, 5))).run(0) is False   # 0: nothing done


def test_step_pieces_draw_what_draw_step_draws():
    from tabletop.app.board_theme import board_theme
    from tabletop.bench.window_edit_bench import fight_steps
    from tabletop.render.steps import draw_step, step_pieces

    state, steps, events = fight_steps(1000, 0)
    app = App(state, size=SIZE, steps=steps, events=events)
    size = app.board_rect.size
    for k in (1, 3):            # a step framed on the whole table, and one zoomed on the fight
        app.go_step(k - app.step_index)
        st, geo = app.shown()
        a, b = pygame.Surface(size), pygame.Surface(size)
        draw_step(a, steps[k], app.view, geo=geo, events=events, caption=False, theme=board_theme(size))
        work = list(step_pieces(b, steps[k], app.view, geo=geo, events=events, caption=False,
                                theme=board_theme(size)))
        assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")
        assert len(work) > 3        # the table layer, the layout pass, labels, band(s)


def test_a_step_on_a_big_table_is_built_over_frames_and_ends_as_draw_step(monkeypatch):
    from tabletop.app import step_build
    from tabletop.app.board_theme import board_theme
    from tabletop.bench.window_edit_bench import fight_steps
    from tabletop.render.steps import draw_step

    state, steps, events = fight_steps(1000, 0)
    app = App(state, size=SIZE, steps=steps, events=events)
    surf = pygame.Surface(SIZE)
    app.update(1 / 60)
    app.draw(surf)
    ran: list[int] = []
    real = step_build.Build.run
    monkeypatch.setattr(step_build.Build, "run", lambda self, budget: ran.append(budget) or real(self, budget))
    for k in (1, 2):            # step 2 is a pile-in: its moves slide, its picture built meanwhile
        shown = app._last_img
        app.handle(E(pygame.KEYDOWN, key=pygame.K_n, mod=0, unicode="", scancode=0))
        frames = 0
        while True:
            app.update(1 / 60)
            app.draw(surf)
            frames += 1
            if frames == 1 and not app.animating and app.building:
                assert app._last_img is shown   # not there yet: the board shows the last picture
            if not app.animating and not app.building:
                break
            assert frames < 200
        assert frames > 1           # spread over frames
        assert all(b is None or b <= step_build.STEP_WORK_PER_FRAME for b in ran)
        plain = pygame.Surface(app.board_rect.size)
        draw_step(plain, steps[k], app.view, events=events, overlays=app.overlays, caption=False,
                  theme=board_theme(app.board_rect.size))
        board_px = surf.subsurface(app.board_rect)
        assert pygame.image.tobytes(board_px, "RGB") == pygame.image.tobytes(plain, "RGB")
