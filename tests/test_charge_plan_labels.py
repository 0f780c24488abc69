"""The plan picture's target label keeps off the landing ghosts (issue 10, audit-uses
finding 7: "intercessors-b: 6.24" path" covered the ghosts)."""

from __future__ import annotations

import pygame
from test_charge_plan import fp_map

from tabletop.board.mapfile import load as load_map
from tabletop.geometry import snapshot
from tabletop.render.charge_plan import draw_plan, landing_polygons
from tabletop.render.image import DEFAULT_SCALE, _frame


def test_the_label_avoids_the_landing_ghost(write_map):
    pygame.font.init()
    # target t/1 at (20, 20); the label's first place is right of t's box (t grown by 1":
    # x 18.37 .. 21.63, y 18.37 .. 21.63), from its top: table x >= 21.63, y <= 21.63.  A
    # ghost of a/1 landing at (22.3, 21.0) (base x 21.67 .. 22.93) sits in that place.
    st = load_map(fp_map(write_map, [("a", "red", [(10, 20)]), ("t", "blue", [(20, 20)])]))
    plan = {"eligible": True, "unit": "a", "target": "t", "landing": {"a/1": [22.3, 21.0]},
            "targets": [{"id": "t", "path": [], "distance": 8.74, "needed": 7,
                         "probability": 7 / 12, "probability_fraction": "7/12"}]}
    view = _frame(st, DEFAULT_SCALE, snapshot(st))[2]
    surface = pygame.Surface((int(40 * DEFAULT_SCALE) + 200, int(40 * DEFAULT_SCALE) + 200))
    rects = draw_plan(surface, view, st, plan)
    ghost = landing_polygons(st, plan)["a/1"]
    pts = [view.to_screen(x, y) for x, y in ghost.exterior.coords]
    g = pygame.Rect(int(min(p[0] for p in pts)), int(min(p[1] for p in pts)),
                    int(max(p[0] for p in pts) - min(p[0] for p in pts)),
                    int(max(p[1] for p in pts) - min(p[1] for p in pts)))
    # the old place (right of the box, from its top) would have covered the ghost
    old = pygame.Rect(*view.to_screen(21.63, 21.63), rects[0].w, rects[0].h)
    assert old.colliderect(g)
    assert len(rects) == 1 and not rects[0].colliderect(g)
