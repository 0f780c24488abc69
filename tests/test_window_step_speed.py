"""The window's faster paths (issue 11 item 3: no frame over 33 ms when dragging, dropping
or stepping on a 1,000-model table) draw what the full paths draw.

- the panel's text boxes are plain-text panes (``app.text_pane``): wrapped by hand-worked
  widths, laid out once per text, scrolled by the wheel over them;
- a step's picture built in bands skips what lies outside each band (rings, dashed lines,
  outlines, reach areas) and still equals ``draw_step`` pixel for pixel, every step;
- a selection redraws a unit's outline and label plate, not its leader line's box; dirty
  rectangles are merged only where one costs less than two (``redraw.PASS_COST_PX``);
- the legend's picture is kept across a move and equals a fresh one; the info text is
  worked out in the panel's turn and equals ``text.model_lines``.
"""

from __future__ import annotations

import pygame
import pytest

from tabletop.app import text
from tabletop.app.app import App
from tabletop.app.text_pane import SCROLL_LINES, TextPane, wrap
from tabletop.bench.layout import random_battlefield
from tabletop.render import board, redraw
from tabletop.render.legend import draw_legend
from tests.window_helpers import display_fixture

SIZE = (1400, 900)
display = display_fixture(SIZE)
E = pygame.event.Event


def ten_px(s: str) -> int:
    """A measure of 10 pixels a character (spaces too)."""
    return 10 * len(s)


def frames(app: App, surf: pygame.Surface, n: int = 1) -> None:
    for _ in range(n):
        app.update(1 / 60)
        app.draw(surf)


# ---------------------------------------------------------------- the text pane
def test_wrap_breaks_at_spaces_keeps_the_indent_and_cuts_long_words():
    # "aaa bbb" is 7 characters = 70 px <= 75; adding " ccc" makes 110 > 75
    assert wrap("aaa bbb ccc", 75, ten_px) == ["aaa bbb", "ccc"]
    # "  aaa bbb" = 9 characters = 90 > 75, so each word on its own row, indented
    # ("  aaa" = 50 px; "  bbb ccc" = 90 > 75)
    assert wrap("  aaa bbb ccc", 75, ten_px) == ["  aaa", "  bbb", "  ccc"]
    # a 10-letter word in 45 px: 4 letters (40 px) a row, the rest on the last
    assert wrap("abcdefghij", 45, ten_px) == ["abcd", "efgh", "ij"]
    assert wrap("", 45, ten_px) == [""]
    assert wrap("fits", 40, ten_px) == ["fits"]           # 40 px <= 40


def test_a_pane_lays_a_text_out_once_and_scrolls_by_whole_rows():
    pane = TextPane(pygame.Rect(0, 0, 300, 200))
    lines = [f"line {k}" for k in range(40)]
    pane.set_text(lines)
    assert pane.rows == tuple(lines)            # short lines: one row each
    assert pane.layouts == 1
    step = pane.line_px
    inner = 200 - 2 * 8                         # the box less its 8 px inset each side
    assert pane.overflow == 40 * step - inner   # 40 rows, each line_px tall
    assert pane.scroll(-1) and pane.offset == SCROLL_LINES * step    # one notch down: 3 rows
    assert pane.scroll(+1) and pane.offset == 0
    assert not pane.scroll(+1)                  # already at the top
    pane.scroll(-100)
    assert pane.offset == pane.overflow         # never past the end
    pane.set_text(["other"])
    assert pane.offset == 0 and pane.overflow == 0 and pane.layouts == 2
    pane.set_text(lines)                        # seen before: from the cache, from the top
    assert pane.layouts == 2 and pane.offset == 0 and pane.rows == tuple(lines)


def _fight_app(n: int = 20):
    from tabletop.bench.window_edit_bench import fight_steps

    state, steps, events = fight_steps(n, 0)
    app = App(state, size=SIZE, steps=steps, events=events)
    app.animate_frames = 0
    return app, steps, events


def test_the_step_pane_shows_the_step_lines_and_lays_each_step_out_once():
    app, steps, events = _fight_app()
    surf = pygame.Surface(SIZE)
    frames(app, surf, 6)
    pane = app.panel.boxes["step"]
    assert isinstance(pane, TextPane)
    assert pane.lines == tuple(text.step_lines(steps, 0, events))
    for _ in range(3):
        app.handle(E(pygame.KEYDOWN, key=pygame.K_n, mod=0, unicode="", scancode=0))
        frames(app, surf, 6)
    assert app.step_index == 3
    assert pane.lines == tuple(text.step_lines(steps, 3, events))
    laid = pane.layouts
    for k in (pygame.K_p, pygame.K_p, pygame.K_n, pygame.K_n):   # steps 2, 1, 2, 3: seen before
        app.handle(E(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
        frames(app, surf, 6)
    assert pane.layouts == laid
    assert pane.lines == tuple(text.step_lines(steps, 3, events))


def test_the_wheel_over_a_pane_scrolls_it_and_leaves_the_board_alone():
    app, _steps, _events = _fight_app()
    surf = pygame.Surface(SIZE)
    frames(app, surf, 4)
    long = [f"roll {k}: dice [6] target 3 -> 1" for k in range(60)]
    app.panel.set_text("step", long)
    app.panel.flush()
    pane = app.panel.boxes["step"]
    assert pane.overflow > 0
    scale = app.view.scale
    at = pane.rect.center
    app.handle(E(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False, pos=at, precise_y=-1))
    assert pane.offset == SCROLL_LINES * pane.line_px
    assert app.view.scale == scale                              # no zoom
    frames(app, surf)
    # the pane on screen shows its rows from the offset: the panel's pixels there are the
    # pane's own drawing
    own = pygame.Surface(SIZE)
    pane.draw(own)
    r = pane.rect
    assert pygame.image.tobytes(surf.subsurface(r), "RGB") == pygame.image.tobytes(own.subsurface(r), "RGB")


# ---------------------------------------------------------------- a step built in bands
def test_every_step_built_in_bands_equals_draw_step():
    """Bands skip the rings, dashed lines, outlines and reach areas wholly outside them
    (``board.ring_model``, ``prims.outside_clip``, ``steps._draw_reach``); the picture is
    still ``draw_step``'s, at every step of the fight, framed (zoomed) as the window
    shows it."""
    from tabletop.app.board_theme import board_theme
    from tabletop.bench.window_edit_bench import fight_steps
    from tabletop.render.steps import draw_step, step_pieces

    state, steps, events = fight_steps(1000, 0)
    app = App(state, size=SIZE, steps=steps, events=events)
    app.animate_frames = 0
    size = app.board_rect.size
    theme = board_theme(size)
    for k in range(len(steps)):
        app.go_step(k - app.step_index)
        _st, geo = app.shown()
        a, b = pygame.Surface(size), pygame.Surface(size)
        draw_step(a, steps[k], app.view, geo=geo, events=events, caption=False, theme=theme)
        list(step_pieces(b, steps[k], app.view, geo=geo, events=events, caption=False,
                         theme=theme, bands=5))
        assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB"), k


# ---------------------------------------------------------------- select and drop
def test_merge_joins_two_rectangles_only_when_one_costs_less():
    # 10x10 at x 0 and x 100: their box is 110 x 10 = 1100 px, 900 more than the two
    # (200): under PASS_COST_PX = 4000, one pass
    assert redraw.PASS_COST_PX == 4000
    assert redraw._merge([pygame.Rect(0, 0, 10, 10), pygame.Rect(100, 0, 10, 10)]) == \
        [pygame.Rect(0, 0, 110, 10)]
    # 10x10 at y 0 and y 500: 10 x 510 = 5100 px, 4900 more: two passes
    got = redraw._merge([pygame.Rect(0, 0, 10, 10), pygame.Rect(0, 500, 10, 10)])
    assert sorted(map(tuple, got)) == [(0, 0, 10, 10), (0, 500, 10, 10)]
    # 13 far apart (300 px each way): merged pairwise down to DIRTY_RECTS_MAX = 12, each
    # rectangle still inside one of the results
    many = [pygame.Rect(300 * k, 300 * k, 10, 10) for k in range(13)]
    got = redraw._merge(many)
    assert len(got) == redraw.DIRTY_RECTS_MAX == 12
    assert all(any(g.contains(r) for g in got) for r in many)


def test_leader_rects_cover_a_line_in_pieces():
    # a leader from (0, 0) to (96, 0): 96 px / LEADER_PIECE_PX 48 = 2 pieces; each the
    # piece's box (x0, 0, 48 + 2, 0 + 2) grown by ITEM_PAD_PX = 6 each side
    assert redraw.LEADER_PIECE_PX == 48 and redraw.ITEM_PAD_PX == 6
    assert redraw.leader_rects((0.0, 0.0, (96.0, 0.0))) == (pygame.Rect(-6, -6, 62, 14),
                                                             pygame.Rect(42, -6, 62, 14))


@pytest.fixture(scope="module")
def table():
    return random_battlefield(1000, 0)


def _click(app, pos):
    app.handle(E(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
    app.handle(E(pygame.MOUSEBUTTONUP, button=1, pos=pos))


def _whole(app) -> bytes:
    img = pygame.Surface(app._board[2].get_size())
    board.draw_board(img, app.state, app.geo, app.view, selected=app.selected)
    return pygame.image.tobytes(img, "RGB")


def test_a_selection_leaves_leader_lines_be_and_draws_what_a_whole_drawing_does(table):
    app = App(table, size=SIZE)
    surf = pygame.Surface(SIZE)
    frames(app, surf)
    led = [p for p in app._drawn.placed if p[5] is not None]       # labels with a leader line
    assert led
    assert all(("leader", p[0].id) in app._drawn.items for p in led)   # an item of its own
    for _u, mids, *_ in led[:4]:
        m = app.state.model(mids[0])
        pos = tuple(int(round(c)) for c in app.view.to_screen(m.x, m.y))
        before, was = app._drawn.items, app.selected
        _click(app, pos)
        frames(app, surf)
        assert app.selected is not None and app.selected != was
        drawn = app._drawn
        assert drawn.passes >= 1
        # the leader lines are items of their own, unchanged by a selection: every dirty
        # rectangle is there for the outline, plate or ring of the unit selected before or now
        names = {app.selected, app.selected.rsplit("/", 1)[0]}
        if was is not None:
            names |= {was, was.rsplit("/", 1)[0]}
        own = [items[k][1] for items in (before, drawn.items) for k in items
               if k[0] in ("outline", "label", "ring") and k[1] in names]
        assert all(any(r.colliderect(o) for o in own) for r in drawn.dirty)
        assert all(drawn.items[k] == before[k] for k in drawn.items if k[0] == "leader")
        assert pygame.image.tobytes(app._board[2], "RGB") == _whole(app)


def test_after_a_drop_the_board_legend_and_info_equal_the_full_paths(table):
    app = App(table, size=SIZE)
    surf = pygame.Surface(SIZE)
    frames(app, surf)
    mid = "u41/4"
    m = app.state.model(mid)
    p = tuple(int(v) for v in app.view.to_screen(m.x, m.y))
    _click(app, p)
    frames(app, surf, 3)
    legend_before = app._legend[2]
    dx = -18                                    # 18 px left: clear of every base (as test_render_redraw)
    app.handle(E(pygame.MOUSEBUTTONDOWN, button=1, pos=p))
    for k in range(1, 7):
        app.handle(E(pygame.MOUSEMOTION, pos=(p[0] + k * dx // 6, p[1]), rel=(dx // 6, 0), buttons=(1, 0, 0)))
        frames(app, surf)
    app.handle(E(pygame.MOUSEBUTTONUP, button=1, pos=(p[0] + dx, p[1])))
    frames(app, surf)
    assert app.state.model(mid).at != m.at
    while app.building or app.panel.stale or app._info_due:
        frames(app, surf)
    frames(app, surf)
    assert pygame.image.tobytes(app._board[2], "RGB") == _whole(app)
    # the legend's picture was kept (a move changes nothing it shows) and equals a fresh one
    assert app._legend[2] is legend_before and app._legend[1] is app.state
    fresh = pygame.Surface(legend_before.get_size())
    draw_legend(fresh, app.state, app.view, fresh.get_rect(), overlays=app.overlays)
    assert pygame.image.tobytes(legend_before, "RGB") == pygame.image.tobytes(fresh, "RGB")
    # the info pane shows the moved model's lines as the full path works them out
    assert app.panel.boxes["info"].lines == tuple(text.model_lines(app.state, app.geo, mid))


def test_a_big_redraw_is_drawn_aside_over_frames_and_shown_whole(table, monkeypatch):
    """``redraw.PIXELS_PER_FRAME`` (here 2,000 px, so that a selection is big): the board
    keeps its picture while the new one is drawn aside, then shows it whole, equal to a
    whole drawing; a new selection while one is drawn aside drops it and ends as a whole
    drawing of the newest."""
    import tabletop.app.app as app_module

    monkeypatch.setattr(redraw, "PIXELS_PER_FRAME", 2000)
    monkeypatch.setattr(app_module, "PIXELS_PER_FRAME", 2000)
    app = App(table, size=SIZE)
    surf = pygame.Surface(SIZE)
    frames(app, surf)

    def pos_of(mid):
        m = app.state.model(mid)
        return tuple(int(v) for v in app.view.to_screen(m.x, m.y))

    before = pygame.image.tobytes(app._board[2], "RGB")
    _click(app, pos_of("u41/4"))
    aside = 0
    for _ in range(100):
        frames(app, surf)
        job = app._drawn.drawing
        if job is None:
            break
        aside += 1
        assert pygame.image.tobytes(app._board[2], "RGB") == before   # not shown half drawn
        assert job.rects                                              # more to draw
    assert aside >= 1 and app.selected == "u41/4"
    assert pygame.image.tobytes(app._board[2], "RGB") == _whole(app)
    # another unit selected while the first is drawn aside: dropped, the newest drawn
    _click(app, pos_of("u1/1"))
    frames(app, surf)
    assert app._drawn.drawing is not None
    _click(app, pos_of("u61/1"))
    while app.building:
        frames(app, surf)
    assert app.selected == "u61/1"
    assert pygame.image.tobytes(app._board[2], "RGB") == _whole(app)
