"""The plan picture on a crowded table (brief charge-preview fault 3, audit-12b item 7: the
landing ghosts sat under the charger's name plate, a target's tag on another unit's plate).

The landing ghosts are drawn before the unit name plates are placed and taken as room the
plates keep clear of; each target's tag then takes the first free place of ``tag_places``
round the target (clear of ghosts, bases, plates and other tags), with a leader line when
that place is away from it.  Positions written for this test; 32mm bases, r = 0.629921";
22 px per inch (the default scale).
"""

from __future__ import annotations

import pygame
import pytest

from tabletop.board.mapfile import load as load_map
from tabletop.geometry import snapshot
from tabletop.render.charge_plan import label_rects, plan_picture
from tabletop.render.image import DEFAULT_SCALE, _frame
from tabletop.rules.charge_plan import plan_charge

UNIT = """
[[units]]
id = "{id}"
name = "{name}"
player = "{player}"
base = "32mm"
keywords = ["infantry"]
profile = {{ M = 6, T = 4, Sv = 3, W = 2 }}
weapons = [{{ name = "Blade", A = 2, WS = 3, S = 4, AP = 0, D = 1 }}]
models = [{models}]
"""

HEAD = """
[map]
name = "crowded plan"
ruleset = "fight-phase"
width = 30
depth = 20

[[players]]
id = "red"
active = true

[[players]]
id = "blue"
"""

# c, a row at y = 10, charges t, a row at y = 13.8 above it: gap 3.8 - 2r = 2.54", and
# each model lands in base contact straight up at y = 13.8 - 2r - tol/2 = 12.53 (ghosts
# y 11.90 .. 13.16).  "below" (a row at y = 7.9) takes the place under c, where the board
# puts a plate first; c's plate would then go above c (y 10.86 .. 12.3), on the ghosts.
# Friendly units crowd round t so that its tag's first places are taken.
UNITS = [
    ("c", "Charging Squad", "red", [(9, 10), (10.3, 10), (11.6, 10)]),
    ("above", "Guard Above", "red", [(4.5, 13.6), (4.5, 12.3)]),
    ("below", "Guard Below", "red", [(8.4, 7.9), (9.7, 7.9), (11, 7.9), (12.3, 7.9)]),
    ("left", "Reserve Left", "red", [(15.5, 9.4), (15.5, 10.7)]),
    ("t", "Target Mob", "blue", [(8.7, 13.8), (10, 13.8), (11.3, 13.8), (12.6, 13.8),
                                 (10.65, 15.1)]),
    ("flank", "Flank Guard", "red", [(15.6, 14.5), (15.6, 15.8), (6, 16.5)]),
]


def _px_rect(view, x0, y0, x1, y1) -> pygame.Rect:
    (a, b), (c, d) = view.to_screen(x0, y1), view.to_screen(x1, y0)
    return pygame.Rect(int(a), int(b), int(c - a) + 1, int(d - b) + 1)


def test_no_plate_or_tag_on_a_ghost_or_base(write_map):
    pygame.font.init()
    text = HEAD + "".join(UNIT.format(id=u, name=n, player=pl,
                                      models=", ".join(f"[{x}, {y}]" for x, y in ms))
                          for u, n, pl, ms in UNITS)
    st = load_map(write_map(text))
    plan = plan_charge(st, "c", ["t"], 1, fight=False)
    r = 32 / 25.4 / 2
    # each model straight up into base contact (x kept, y = 13.8 - 2r - tol / 2)
    for mid, x in (("c/1", 8.7), ("c/2", 10.0), ("c/3", 11.3)):
        assert plan["landing"][mid][1] == pytest.approx(13.8 - 2 * r - 0.01, abs=1e-3)
        assert abs(plan["landing"][mid][0] - x) < 0.75
    geo = snapshot(st)
    view = _frame(st, DEFAULT_SCALE, geo)[2]
    ghosts = [_px_rect(view, x - r, y - r, x + r, y + r) for x, y in plan["landing"].values()]
    bases = [_px_rect(view, m.x - r, m.y - r, m.x + r, m.y + r) for m in st.models()]
    picture, layout = plan_picture(st, plan)
    # the board's own placement (no room kept for the ghosts) puts c's plate on them
    old = label_rects(st, geo, view, picture.get_size(), "c")
    assert any(p.collidelist(ghosts) >= 0 for p in old)
    # now no plate (the charger's included) touches a ghost
    assert set(layout["plates"]) == {u for u, *_ in UNITS}
    for uid, plate in layout["plates"].items():
        assert plate.collidelist(ghosts) < 0, uid
    # and the target's tag touches no ghost, base or plate
    assert len(layout["tags"]) == 1
    for tag in layout["tags"]:
        assert tag.collidelist(ghosts) < 0
        assert tag.collidelist(bases) < 0
        assert tag.collidelist(list(layout["plates"].values())) < 0



# t, a block of 5 at x 16 .. 17.3, hemmed in: c charges it from the left, friendly units
# stand above, right and below it, and their plates take the places beside it.
HEMMED = [
    ("c", "Charging Squad", "red", [(10, 8.7), (10, 10), (10, 11.3)]),
    ("above", "Guard Above", "red", [(9, 13.4), (10.3, 13.4), (11.6, 13.4)]),
    ("below", "Guard Below", "red", [(9, 6.6), (10.3, 6.6), (11.6, 6.6)]),
    ("left", "Reserve Left", "red", [(6.5, 9.4), (6.5, 10.7)]),
    ("t", "Target Mob", "blue", [(16, 8.7), (16, 10), (16, 11.3), (17.3, 9.35), (17.3, 10.65)]),
    ("flank", "Flank Guard", "red", [(19.5, 12.5), (19.5, 8)]),
]


def test_a_hemmed_in_target_tag_goes_further_out_with_a_leader(write_map):
    pygame.font.init()
    from tabletop.render.charge_plan import tag_places
    text = HEAD + "".join(UNIT.format(id=u, name=n, player=pl,
                                      models=", ".join(f"[{x}, {y}]" for x, y in ms))
                          for u, n, pl, ms in HEMMED)
    st = load_map(write_map(text))
    plan = plan_charge(st, "c", ["t"], 1, fight=False)
    r = 32 / 25.4 / 2
    geo = snapshot(st)
    view = _frame(st, DEFAULT_SCALE, geo)[2]
    ghosts = [_px_rect(view, x - r, y - r, x + r, y + r) for x, y in plan["landing"].values()]
    bases = [_px_rect(view, m.x - r, m.y - r, m.x + r, m.y + r) for m in st.models()]
    picture, layout = plan_picture(st, plan)
    plates = list(layout["plates"].values())
    (tag,) = layout["tags"]
    assert tag.collidelist(ghosts) < 0 and tag.collidelist(bases) < 0
    assert tag.collidelist(plates) < 0
    # the eight places beside t's box (its models' centres grown by 1": x 15 .. 18.3, y 7.7
    # .. 12.3) are all taken: the tag is one of the further rings, so it has a leader line
    box = _px_rect(view, 16 - 1, 8.7 - 1, 17.3 + 1, 11.3 + 1)
    first = tag_places(box, tag.size)[:8]
    assert all(p.collidelist(ghosts + bases + plates) >= 0 or not picture.get_rect().contains(p)
               for p in first)
    assert tag not in first
