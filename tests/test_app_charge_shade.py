"""``C`` in charge mode: the table shaded by charge odds under the models, worked out in
counted pieces with a progress line, cancelled by Esc or a new selection (issue 10 item 1,
last bullet; the new-user audit's two faults: the shading tinted the name plates and the
bases, and it took tens of seconds on the 60x44 layout).

The map and the fixed view are ``test_app_charge_mode``'s (10 px an inch, table (0, 0) at
pixel (50, 650)); ``f`` is a second red unit at (30, 30) for the selection test.
"""

from __future__ import annotations

import numpy as np
import pygame
import pytest
from test_app_charge_mode import MAP, R2, _app, info, pump, px
from window_helpers import click, display_fixture, keydown, post_and_handle

from tabletop.app import charge_mode as CM
from tabletop.app.board_theme import board_theme
from tabletop.board import mapfile
from tabletop.geometry import snapshot
from tabletop.render.board import board_canvas
from tabletop.render.charge_plan import label_rects
from tabletop.render.charge_shade import save_shade_png
from tabletop.render.image import DEFAULT_SCALE, _frame, render_image
from tabletop.rules.charge_plan import odds_grid
from tabletop.rules.reach_odds import odds_field

display = display_fixture((1000, 700))

SECOND = """
[[units]]
id = "f"
player = "red"
base = "32mm"
keywords = ["infantry"]
profile = { M = 6, T = 4, Sv = 5, W = 1 }
models = [[30, 30]]
"""

LAYOUT = "maps/ca-layout-1-hammer-and-anvil.toml"


def _shade_c(app):
    post_and_handle(app, *click(px(10, 20)), keydown(pygame.K_c, "c"))
    plain = pump(app, until=lambda: app.charge.rows is not None).copy()
    post_and_handle(app, keydown(pygame.K_c, "C", pygame.KMOD_SHIFT))
    sh = app.charge.shade()
    shaded = pump(app, frames=400, until=lambda: sh.job.done)
    assert sh.job.done
    return plain, shaded.copy(), sh


def test_the_shading_is_drawn_under_the_name_plates_and_the_bases(write_map):
    app = _app(write_map)
    plain, shaded, sh = _shade_c(app)
    # the open cell at (10.25, 27.25) is 7.254" from c/1: 15/36, shaded (as before)
    assert sh.probs[54, 20] == pytest.approx(15 / 36)
    assert shaded.get_at((152, 377)) != plain.get_at((152, 377))
    # every name plate's pixels are the unshaded board's (before: tinted by the shading
    # drawn over them).  The plates of c, e1 and e2 lie in reach, on shaded cells.
    ox, oy = app.board_rect.topleft
    size = app.board_rect.size
    lay = board_canvas(pygame.Surface(size), app.state, app.geo, app.view, selected="c/1",
                       theme=board_theme(size), clip=pygame.Rect(0, 0, 0, 0))
    plates = [p[4] for p in lay.placed]
    assert len(plates) == 4
    inside = 0
    for r in plates:
        inner = r.move(ox, oy)
        for x in range(inner.left, inner.right):
            for y in range(inner.top, inner.bottom):
                assert shaded.get_at((x, y)) == plain.get_at((x, y)), (r, x, y)
        cx, cy = app.view.to_table(*r.center)
        inside += bool(sh.probs[int(cy / 0.5), int(cx / 0.5)] > 0)
    assert inside >= 2                              # plates standing on shaded cells
    # each base's centre and the pixels 3 px round it are the unshaded board's too
    for x, y in ((10, 20), (10 + R2 + 9.0, 20), (10, 20 - R2 - 5.0)):
        cx, cy = px(x, y)
        for dx, dy in ((0, 0), (3, 0), (-3, 0), (0, 3), (0, -3)):
            assert shaded.get_at((cx + dx, cy + dy)) == plain.get_at((cx + dx, cy + dy))


def test_a_progress_line_then_esc_cancels_the_shading_and_a_second_esc_leaves(write_map):
    app = _app(write_map)
    post_and_handle(app, *click(px(10, 20)), keydown(pygame.K_c, "c"))
    pump(app, until=lambda: app.charge.rows is not None)
    post_and_handle(app, keydown(pygame.K_c, "C", pygame.KMOD_SHIFT))
    assert "shading... 0% (Esc cancels)" in info(app)
    sh = app.charge.shade()
    app.charge.update(budget=CM.PIECE_WORK)          # one piece: far from done
    assert not sh.job.done and app.charge.shading
    post_and_handle(app, keydown(pygame.K_ESCAPE))
    # the shading stops, the mode stays (before: Esc left charge mode with it)
    assert app.charge.active and not app.charge.shade_on and not app.charge.shading
    assert app.messages[-1] == "charge odds shading cancelled (c)"
    assert "shading" not in info(app)
    post_and_handle(app, keydown(pygame.K_ESCAPE))
    assert not app.charge.active and app.running
    # C again starts afresh (the cancelled part is forgotten) and finishes
    post_and_handle(app, keydown(pygame.K_c, "c"), keydown(pygame.K_c, "C", pygame.KMOD_SHIFT))
    again = app.charge.shade()
    assert again is not sh
    pump(app, frames=400, until=lambda: again.job.done)
    assert "odds shading: ready" in info(app)


def test_selecting_a_model_of_another_unit_cancels_the_shading(write_map):
    app = _app(write_map, MAP + SECOND)
    post_and_handle(app, *click(px(10, 20)), keydown(pygame.K_c, "c"))
    pump(app, until=lambda: app.charge.rows is not None)
    post_and_handle(app, keydown(pygame.K_c, "C", pygame.KMOD_SHIFT))
    app.charge.update(budget=CM.PIECE_WORK)
    assert app.charge.shading
    post_and_handle(app, *click(px(30, 30)))            # f/1, a friendly model
    assert app.selected == "f/1"
    assert not app.charge.shading and not app.charge.shade_on
    assert "charge odds shading cancelled (c)" in app.messages


def test_the_60x44_layout_is_shaded_in_few_frames_and_agrees_with_the_per_cell_paths():
    # the shipped 60x44 layout, Stormboyz (5 models): the shading's counted work fits in
    # 40 frames of WORK_PER_FRAME (17 today; counted, not timed; the row-by-row sweep it replaced
    # took 181), and every cell's chance is the one the per-cell path search gives
    st = mapfile.load(LAYOUT)
    mode = CM.ChargeMode()
    mode.enter(st, snapshot(st), "stormboyz")
    mode.shade_on = True
    sh = mode.shade()
    frames = 0
    while not sh.job.done and frames < 200:
        sh.job.run(CM.WORK_PER_FRAME)
        frames += 1
    assert sh.job.done and frames <= 40, frames
    gx, gy = np.meshgrid(sh.xs, sh.ys)
    old, _ = odds_grid(st, "stormboyz", np.column_stack([gx.ravel(), gy.ravel()]))
    assert np.allclose(sh.probs, old.reshape(gx.shape), atol=1e-12)
    assert (sh.probs > 0).sum() > 500                 # (a real shading, not an empty one)


def test_the_shade_png_draws_the_plates_and_bases_over_the_shading(write_map, tmp_path):
    pygame.font.init()
    st = mapfile.load(write_map(MAP))
    xs = np.arange(0.25, st.table.width, 0.5)
    ys = np.arange(0.25, st.table.depth, 0.5)
    probs, _ = odds_field(st, "c", xs, ys)
    out = str(tmp_path / "odds.png")
    save_shade_png(st, "c", xs, ys, probs, 0.5, [], out)
    img = pygame.image.load(out)
    geo = snapshot(st)
    view = _frame(st, DEFAULT_SCALE, geo)[2]
    plain = render_image(st, geo=geo, scale=DEFAULT_SCALE, selected="c")
    rects = label_rects(st, geo, view, plain.get_size(), "c")
    for r in rects:
        inner = r.inflate(-8, -8)
        for x in range(inner.left, inner.right, 3):
            for y in range(inner.top, inner.bottom, 3):
                assert img.get_at((x, y)) == plain.get_at((x, y)), (x, y)
    # the bases (each centre and 4 px round it) are as the plain board draws them: c/1's
    # own (0" from itself: the cells under it have chance 1, shaded before), e2/1's and
    # e1/1's; the table 1" right of c/1's edge is shaded
    for x, y in ((10, 20), (10, 20 - R2 - 5.0), (10 + R2 + 9.0, 20)):
        cx, cy = view.to_screen(x, y)
        for dx, dy in ((0, 0), (4, 0), (-4, 0), (0, 4), (0, -4)):
            p = (round(cx) + dx, round(cy) + dy)
            assert img.get_at(p) == plain.get_at(p), p
    open_px = tuple(round(v) for v in view.to_screen(12.25, 20.25))
    assert img.get_at(open_px) != plain.get_at(open_px)


def test_while_the_view_pans_the_shaded_board_is_shifted_then_drawn_afresh(write_map):
    import time

    from tabletop.render.view import View
    app = _app(write_map)
    plain, shaded, sh = _shade_c(app)
    before = app.charge._board
    assert before is not None and before[0] == (10.0, 50.0, 650.0)
    # the view pans 20 px right: while it moves the last shaded board is shifted, not drawn
    # again, so the shaded cell at (10.25, 27.25) (pixel (152, 377)) is now at (172, 377)
    app.view = View(scale=10.0, origin_x=70.0, origin_y=650.0)
    app._settle_at = time.monotonic() + 60.0
    moved = pump(app, frames=1)
    assert app.charge._board is before
    assert moved.get_at((172, 377)) == shaded.get_at((152, 377))
    # once it stops, the board is drawn afresh for the new view (the same pixel again)
    app._settle_at = 0.0
    app.pan_from = None
    still = pump(app, frames=1)
    assert app.charge._board is not before and app.charge._board[0] == (10.0, 70.0, 650.0)
    assert still.get_at((172, 377)) == shaded.get_at((152, 377))
