"""`charge --shade`: the odds shading goes under the unit name plates (issue 10, audit-uses
finding 7: the shading tinted them)."""

from __future__ import annotations

import numpy as np
import pygame
from test_charge_plan import fp_map

from tabletop.board.mapfile import load as load_map
from tabletop.geometry import snapshot
from tabletop.render.charge_plan import label_rects
from tabletop.render.charge_shade import save_shade_png
from tabletop.render.image import DEFAULT_SCALE, _frame, render_image


def test_plates_are_drawn_over_the_shading(write_map, tmp_path):
    pygame.font.init()
    st = load_map(fp_map(write_map, [("a", "red", [(10, 20)]), ("t", "blue", [(16, 20)])]))
    # the whole 40 x 40 table shaded at 100% (a 1" grid of cells centred on 0.5 .. 39.5)
    xs = ys = np.arange(0.5, 40.0, 1.0)
    probs = np.ones((len(ys), len(xs)))
    out = str(tmp_path / "shade.png")
    save_shade_png(st, "a", xs, ys, probs, 1.0, [], out)
    img = pygame.image.load(out)
    geo = snapshot(st)
    view = _frame(st, DEFAULT_SCALE, geo)[2]
    rects = label_rects(st, geo, view, img.get_size(), "a")
    assert len(rects) == 2                       # a's and t's plates
    plain = render_image(st, geo=geo, scale=DEFAULT_SCALE, selected="a")
    for r in rects:
        inner = r.inflate(-8, -8)                # the plate itself (the rect adds the ring room)
        # every pixel of the plate is as the unshaded board draws it (before: tinted green
        # by the 100% shading drawn over it)
        for x in range(inner.left, inner.right, 3):
            for y in range(inner.top, inner.bottom, 3):
                assert img.get_at((x, y)) == plain.get_at((x, y)), (x, y)
