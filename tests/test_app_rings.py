"""Range rings in the window (g / G / b), driven by posted pygame events.

The view is fixed at 10 pixels per inch with table (0, 0) at pixel (50, 650):
table (x, y) is pixel (50 + 10x, 650 - 10y).  Expected sizes are worked out by
hand from the bases (25.4 mm = 1") and the ring distances.
"""

from __future__ import annotations

import pygame
import pytest
from window_helpers import (
    click,
    display_fixture,
    fixed_view_app,
    keydown,
    pixel_of,
    post_and_handle,
)

from tabletop.app.rings import charge_reach
from tabletop.render.rings import RING_COLOUR

MM = 25.4

MAP = """\
[map]
name = "Rings"
ruleset = "fight-phase"
width = 60.0
depth = 44.0

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "bike"
player = "red"
base = "90x52mm oval"
profile = { M = 12, T = 5, Sv = 3, W = 4 }
models = [[30, 22, 0]]

[[units]]
id = "int"
player = "red"
base = "32mm"
profile = { M = 6, T = 4, Sv = 3, W = 2 }
models = [[10, 10], [13, 10]]

[[units]]
id = "orks"
player = "blue"
base = "32mm"
models = [[50, 30]]
"""

RNF = """\
[map]
name = "Rings TOW"
ruleset = "rank-and-flank"
width = 72.0
depth = 48.0

[[players]]
id = "red"
active = true

[[units]]
id = "hal"
player = "red"
base = "25x25mm"
profile = { Move = 4, Skill = 3, Power = 3, Defense = 3, Attacks = 1, Wounds = 1, Discipline = 7 }
models = [[20, 20, 90]]
"""

display = display_fixture((1000, 700))
px = pixel_of(700)


def _app(write_map, text=MAP):
    return fixed_view_app(write_map(text), (1000, 700))   # the board: the left 600 x 700 px


def _extent(shape):
    x0, y0, x1, y1 = shape.bounds
    return x1 - x0, y1 - y0


def _ring_pixels(surface, box) -> int:
    """How many pixels of RING_COLOUR lie in ``box`` (a pygame.Rect)."""
    n = 0
    for x in range(box.left, box.right):
        for y in range(box.top, box.bottom):
            if tuple(surface.get_at((x, y)))[:3] == RING_COLOUR:
                n += 1
    return n


def test_g_on_an_oval_model_rings_the_oval_grown_not_a_circle(write_map):
    app = _app(write_map)
    post_and_handle(app, *click(px(30, 22)), keydown(pygame.K_g, "g"))
    assert app.selected == "bike/1"
    ring = app.rings.ring(app.state, app.selected)
    assert ring is not None and ring.label == '1"' and ring.models == ("bike/1",)
    w, d = _extent(ring.shape)
    assert w == pytest.approx(90 / MM + 2, abs=1e-3)     # 3.5433 + 2 x 1 = 5.543"
    assert d == pytest.approx(52 / MM + 2, abs=1e-3)     # 2.0472 + 2 x 1 = 4.047"
    surf = pygame.Surface((1000, 700))
    app.update(0.016)
    app.draw(surf)
    # the ring's bottom: y = 22 - 26/25.4 - 1 = 19.976" -> pixel row 650 - 199.8 = 450.2;
    # a circle of the long radius (45/25.4 + 1 = 2.772") would reach 19.228" -> row 457.7
    # (the bottom, as the label stands over the top)
    assert _ring_pixels(surf, pygame.Rect(px(30, 0)[0] - 3, 448, 7, 5)) > 0
    assert _ring_pixels(surf, pygame.Rect(px(30, 0)[0] - 3, 455, 7, 6)) == 0
    # its right end: x = 30 + 45/25.4 + 1 = 32.772" -> column 50 + 327.7 = 377.7
    assert _ring_pixels(surf, pygame.Rect(375, px(0, 22)[1] - 3, 6, 7)) > 0


def test_g_cycles_1_2_3_6_move_charge_then_off(write_map):
    app = _app(write_map)
    post_and_handle(app, *click(px(10, 10)))
    assert app.selected == "int/1"
    labels = []
    for _ in range(7):
        post_and_handle(app, keydown(pygame.K_g, "g"))
        r = app.rings.ring(app.state, app.selected)
        labels.append(None if r is None else r.label)
    # int's M is 6; the fight-phase charge roll is 2D6, at most 6 + 6 = 12
    assert labels == ['1"', '2"', '3"', '6"', 'move 6"', 'charge 12"', None]
    assert app.messages[-1].startswith("rings off")


def test_the_unit_ring_is_the_union_and_b_rings_the_model_alone(write_map):
    app = _app(write_map)
    post_and_handle(app, *click(px(10, 10)), keydown(pygame.K_g, "g"))
    ring = app.rings.ring(app.state, app.selected)
    # int/1 at x 10 and int/2 at x 13, 32mm (r 0.6299"): grown 1" they span
    # 10 - 1.6299 to 13 + 1.6299 = 6.2598" in one piece (gap 1.74" < 2 x 1")
    assert ring.models == ("int/1", "int/2") and ring.shape.geom_type == "Polygon"
    assert _extent(ring.shape)[0] == pytest.approx(3 + 2 * (16 / MM + 1), abs=1e-6)
    post_and_handle(app, keydown(pygame.K_b, "b"))
    ring = app.rings.ring(app.state, app.selected)
    assert ring.models == ("int/1",)
    assert _extent(ring.shape)[0] == pytest.approx(2 * (16 / MM + 1), abs=1e-6)   # 3.2598"


def test_shift_g_types_a_distance(write_map):
    app = _app(write_map)
    shift = pygame.KMOD_SHIFT
    post_and_handle(app, *click(px(30, 22)), keydown(pygame.K_g, "G", shift),
                    keydown(pygame.K_4, "4"), keydown(pygame.K_PERIOD, "."), keydown(pygame.K_5, "5"),
                    keydown(pygame.K_b, "b"),        # ignored while typing: stays on the unit
                    keydown(pygame.K_RETURN, "\r"))
    ring = app.rings.ring(app.state, app.selected)
    assert ring.label == '4.5"' and app.rings.around == "unit"
    w, d = _extent(ring.shape)
    assert w == pytest.approx(90 / MM + 9, abs=1e-3)     # 3.5433 + 2 x 4.5 = 12.543"
    assert d == pytest.approx(52 / MM + 9, abs=1e-3)     # 2.0472 + 9 = 11.047"
    # a typed 0 is refused and the 4.5" ring stays; Esc cancels typing without quitting
    post_and_handle(app, keydown(pygame.K_g, "G", shift), keydown(pygame.K_0, "0"),
                    keydown(pygame.K_RETURN, "\r"))
    assert "above 0" in app.messages[-1] and app.rings.ring(app.state, app.selected).label == '4.5"'
    post_and_handle(app, keydown(pygame.K_g, "G", shift), keydown(pygame.K_ESCAPE))
    assert app.running and not app.rings.typing and app.messages[-1] == "ring distance cancelled"


def test_g_without_a_selection_says_to_select(write_map):
    app = _app(write_map)
    post_and_handle(app, keydown(pygame.K_g, "g"))
    assert app.rings.ring(app.state, app.selected) is None
    assert app.messages[-1].startswith("select a model first")


def test_rank_and_flank_charge_reach_is_move_plus_six(write_map):
    app = _app(write_map, RNF)
    app.select("hal/1")
    labels = []
    for _ in range(6):
        post_and_handle(app, keydown(pygame.K_g, "g"))
        labels.append(app.rings.ring(app.state, app.selected).label)
    # Move 4; the charge range is Move + the higher of 2D6: at most 4 + 6 = 10
    assert labels[4:] == ['move 4"', 'charge 10"']
    ring = app.rings.ring(app.state, app.selected)
    # a 25x25mm square (0.9843") grown 10": 0.9843 + 20 = 20.984" across
    assert _extent(ring.shape)[0] == pytest.approx(25 / MM + 20, abs=1e-6)


def test_charge_reach_reads_the_rules_charge_roll():
    assert charge_reach("fight-phase", None) == 12.0     # 2D6: 6 + 6
    assert charge_reach("rank-and-flank", 7.0) == 13.0   # 7 + 6
    assert charge_reach("rank-and-flank", None) is None


def test_a_unit_without_move_skips_the_move_ring(write_map):
    app = _app(write_map)
    app.select("orks/1")
    labels = []
    for _ in range(6):
        post_and_handle(app, keydown(pygame.K_g, "g"))
        r = app.rings.ring(app.state, app.selected)
        labels.append(None if r is None else r.label)
    # orks have no M: after 6" comes the charge (2D6 needs no Move), then off
    assert labels == ['1"', '2"', '3"', '6"', 'charge 12"', None]
