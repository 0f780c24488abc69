"""Charge mode in the window (c / C / Esc), driven by posted pygame events.

The view is fixed at 10 pixels per inch with table (0, 0) at pixel (50, 650):
table (x, y) is pixel (50 + 10x, 650 - 10y).  Fight-phase, 11th preset:
engagement range 2".  Every base is 32mm (radius 16 / 25.4 = 0.6299"), so two
bases' centres are 1.2598" further apart than their edges.

- c/1 (red, charging) at (10, 20).
- e1/1 (blue) at (20.2598, 20): edge gap 9.0"; the charge must close it to the 2"
  engagement range, a straight path of 7.0": a 7 on 2D6, 21/36 = 58%.
- e2/1 (blue) at (10, 13.7402): edge gap 5.0", a 3.0" path: a 3, 35/36 = 97%.
- e3/1 (blue) at (50, 40): 40.0" - 1.26" apart, far past 12": out of reach.
"""

from __future__ import annotations

import numpy as np
import pygame
import pytest
from window_helpers import (
    E,
    click,
    display_fixture,
    fixed_view_app,
    keydown,
    pixel_of,
    post_and_handle,
)

from tabletop.app import charge_mode as CM
from tabletop.app import keys
from tabletop.board import mapfile
from tabletop.rules.charge_plan import odds_grid, odds_grid_pieces

R2 = 32 / 25.4          # two 32mm radii, 1.2598"

MAP = f"""\
[map]
name = "Charge mode"
ruleset = "fight-phase"
width = 60.0
depth = 44.0

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "c"
player = "red"
base = "32mm"
keywords = ["infantry"]
weapons = [{{ name = "choppa", A = 3, WS = 3, S = 4, AP = -1, D = 1 }}]
profile = {{ M = 6, T = 4, Sv = 5, W = 1 }}
models = [[10, 20]]

[[units]]
id = "e1"
player = "blue"
base = "32mm"
keywords = ["infantry"]
weapons = [{{ name = "knife", A = 1, WS = 4, S = 3, AP = 0, D = 1 }}]
profile = {{ M = 6, T = 3, Sv = 6, W = 1 }}
models = [[{10 + R2 + 9.0}, 20]]

[[units]]
id = "e2"
player = "blue"
base = "32mm"
keywords = ["infantry"]
weapons = [{{ name = "knife", A = 1, WS = 4, S = 3, AP = 0, D = 1 }}]
profile = {{ M = 6, T = 3, Sv = 6, W = 1 }}
models = [[10, {20 - R2 - 5.0}]]

[[units]]
id = "e3"
player = "blue"
base = "32mm"
profile = {{ M = 6, T = 3, Sv = 6, W = 1 }}
models = [[50, 40]]
"""

display = display_fixture((1000, 700))
px = pixel_of(700)


def _app(write_map, text=MAP):
    return fixed_view_app(write_map(text), (1000, 700))   # the board: the left 600 x 700 px


def pump(app, frames=400, until=None):
    """Run frames (update + draw) until ``until()`` holds or ``frames`` pass."""
    surf = pygame.Surface((1000, 700))
    for _ in range(frames):
        app.update(0.016)
        app.draw(surf)
        if until is not None and until():
            break
    return surf


def info(app) -> str:
    return "\n".join(app.info_lines())


def test_c_marks_each_enemy_in_reach_with_its_odds(write_map):
    app = _app(write_map)
    post_and_handle(app, *click(px(10, 20)), keydown(pygame.K_c, "c"))
    assert app.selected == "c/1" and app.charge.active and app.charge.unit == "c"
    pump(app, until=lambda: app.charge.rows is not None)
    # best odds first: e2 (a 3: 35/36) then e1 (a 7: 21/36 = 7/12); e3 (38.7" away) is not listed
    assert [(r["id"], r["needed"], r["probability_fraction"]) for r in app.charge.rows] == [
        ("e2", 3, "35/36"), ("e1", 7, "7/12")]
    assert "in reach: e2 97%; e1 58%" in info(app)


def test_hover_names_distance_roll_and_odds(write_map):
    app = _app(write_map)
    post_and_handle(app, *click(px(10, 20)), keydown(pygame.K_c, "c"))
    pump(app, until=lambda: app.charge.rows is not None)
    post_and_handle(app, E(pygame.MOUSEMOTION, pos=px(10 + R2 + 9.0, 20), rel=(0, 0), buttons=(0, 0, 0)))
    assert app.charge.hover == "e1"
    # a 9.0" gap: 7.0" of path + 2" engagement range = 9.00"; needs 7 on 2D6, 21/36 = 58%
    assert 'hover e1: 9.00" along the path, needs 7: 58% (7/12)' in info(app)
    post_and_handle(app, E(pygame.MOUSEMOTION, pos=px(50, 40), rel=(0, 0), buttons=(0, 0, 0)))
    assert "hover e3: out of reach" in info(app)


def test_clicking_two_targets_the_farthest_decides_and_again_undeclares(write_map):
    app = _app(write_map)
    post_and_handle(app, *click(px(10, 20)), keydown(pygame.K_c, "c"))
    post_and_handle(app, *click(px(10, 20 - R2 - 5.0)), *click(px(10 + R2 + 9.0, 20)))
    assert app.charge.declared == ["e2", "e1"] and app.selected == "c/1"
    pump(app, until=lambda: app.charge.plan is not None)
    p = app.charge.plan
    # e2 alone needs a 3 (35/36); with e1 (9.0" gap, a 7) the farthest decides: 21/36
    assert (p["target"], p["needed"], p["odds_fraction"]) == ("e1", 7, "7/12")
    assert 'e1 (farthest) decides: 9.00", needs 7: 58% (7/12)' in info(app)
    assert set(p["landing"]) == {"c/1"}
    # the fight is sampled a run a frame and the chart says so
    pump(app, frames=5)
    runs = app.charge.fight.runs
    assert runs >= 5
    summary = app.charge.fight.summary()
    assert summary["method"] == "sampled" and summary["runs"] == runs
    # click e1 again: undeclared; e2 alone decides, a 3: 35/36
    post_and_handle(app, *click(px(10 + R2 + 9.0, 20)))
    assert app.charge.declared == ["e2"]
    pump(app, until=lambda: app.charge.plan is not None)
    assert (app.charge.plan["target"], app.charge.plan["odds_fraction"]) == ("e2", "35/36")


def test_the_fight_is_sampled_the_same_on_every_run(write_map):
    """Runs are seeded (run k from seed PLAN_SEED + k): no clock, the same figures."""
    got = []
    for _ in range(2):
        app = _app(write_map)
        post_and_handle(app, *click(px(10, 20)), keydown(pygame.K_c, "c"),
                        *click(px(10, 20 - R2 - 5.0)))
        pump(app, until=lambda app=app: app.charge.fight is not None
             and app.charge.fight.runs >= 10)
        got.append(app.charge.fight.summary())
    assert got[0] == got[1] and got[0]["runs"] == 10 and got[0]["se"] is not None


def test_shift_c_shades_the_table_by_the_odds(write_map):
    app = _app(write_map)
    post_and_handle(app, *click(px(10, 20)), keydown(pygame.K_c, "c"))
    plain = pump(app, until=lambda: app.charge.rows is not None)
    # the cell centred on (10.25, 27.25): 7.254" straight from c/1's centre, open table, so
    # the roll must reach 7.254 - 0.02: an 8 or more on 2D6, 15/36 = 41.7%
    at = (152, 377)            # pixel (50 + 102.5, 650 - 272.5), inside the cell's 5x5 px
    bg = tuple(plain.get_at(at))[:3]
    post_and_handle(app, keydown(pygame.K_c, "C", pygame.KMOD_SHIFT))
    assert app.charge.shade_on
    sh = app.charge.shade()
    surf = pump(app, frames=2000, until=lambda: sh.job.done)
    assert sh.job.done
    j, i = 54, 20              # ys[54] = 0.25 + 27 = 27.25, xs[20] = 10.25
    assert sh.probs[j, i] == pytest.approx(15 / 36)
    # odds_colour(15/36): p < 0.5, red 220, green 60 + 300 x 15/36 = 185, blue 60; alpha 120
    want = [round(b + (c - b) * 120 / 255) for c, b in zip((220, 185, 60), bg)]
    got = tuple(surf.get_at(at))[:3]
    assert all(abs(g - w) <= 2 for g, w in zip(got, want)), (got, want, bg)
    # a cell past 12" (x 10.25, y 33.25: 13.25" away) stays unshaded
    assert sh.probs[66, 20] == 0.0


def test_the_shade_is_worked_out_in_pieces_and_kept(write_map):
    app = _app(write_map)
    post_and_handle(app, *click(px(10, 20)), keydown(pygame.K_c, "c"),
                    keydown(pygame.K_c, "C", pygame.KMOD_SHIFT))
    sh = app.charge.shade()
    app.charge.update(budget=CM.PIECE_WORK)     # a tiny budget: one piece, not the grid
    assert not sh.job.done
    pump(app, frames=2000, until=lambda: sh.job.done)
    # the same unit on the same table: the grid is kept, not worked out again
    post_and_handle(app, keydown(pygame.K_c, "C", pygame.KMOD_SHIFT),
                    keydown(pygame.K_c, "C", pygame.KMOD_SHIFT))
    assert app.charge.shade() is sh


def test_odds_grid_in_pieces_is_odds_grid(write_map):
    st = mapfile.load(write_map(MAP))
    xs = np.arange(0.25, 30, 0.5)
    ys = np.arange(10.25, 30, 0.5)
    out = np.zeros((len(ys), len(xs)))
    pieces = list(odds_grid_pieces(st, "c", xs, ys, out))
    assert len(pieces) > len(ys)
    gx, gy = np.meshgrid(xs, ys)
    whole, _ = odds_grid(st, "c", np.column_stack([gx.ravel(), gy.ravel()]))
    assert np.array_equal(out, whole.reshape(gx.shape))


def test_esc_and_c_leave_and_an_engaged_unit_is_refused(write_map):
    app = _app(write_map)
    post_and_handle(app, *click(px(10, 20)), keydown(pygame.K_c, "c"))
    assert app.charge.active
    post_and_handle(app, keydown(pygame.K_ESCAPE))
    assert not app.charge.active and app.running
    post_and_handle(app, keydown(pygame.K_c, "c"), keydown(pygame.K_c, "c"))
    assert not app.charge.active and app.messages[-1] == "left charge mode (c)"
    # e2's model moved to 1.0" below c/1's edge (inside the 2" engagement range): c is
    # engaged and may not declare a charge
    text = MAP.replace(f"models = [[10, {20 - R2 - 5.0}]]", f"models = [[10, {20 - R2 - 1.0}]]")
    app = _app(write_map, text)
    post_and_handle(app, *click(px(10, 20)), keydown(pygame.K_c, "c"))
    assert app.selected == "c/1"
    assert not app.charge.active and "c may not charge" in app.messages[-1]
    assert "engaged" in app.messages[-1]


def test_the_help_and_the_readme_list_the_charge_keys():
    rows = dict(keys.help_entries())
    assert "c" in rows and "charge mode" in rows["c"]
    assert "C" in rows and "shade" in rows["C"]
    assert keys.actions() >= {"charge_mode", "charge_shade"}
