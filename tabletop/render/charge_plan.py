"""Drawing a charge plan: the path, the ghosted landing, the figures and the fight's chart.

The rules emit the plan as data (``rules/charge_plan.py``: ``plan_charge`` /
``odds_grid``); this module decides colours and layout.  Headless-safe (a plain
Surface).  Table inches, y up; the ``View`` flips y.  The functions that draw onto
a surface (``draw_plan``, ``draw_fight_chart``) are what the window's charge
mode calls; ``save_plan_png`` makes the whole picture.  The table shaded by
charge odds is ``render.charge_shade``.
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from tabletop.board.state import Battlefield
from tabletop.geometry import snapshot
from tabletop.geometry.footprints import base_polygon
from tabletop.render import prims
from tabletop.render.board import board_canvas
from tabletop.render.image import _frame, image_size, save_png
from tabletop.render.label_place import LabelPlacer
from tabletop.render.legend import draw_legend
from tabletop.render.options import DEFAULT_SCALE
from tabletop.render.view import View

__all__ = ["PATH_COLOUR", "GHOST_COLOUR", "CHART_W", "PROBLEM_COLOUR", "TAG_LEADER_PX", "TAG_RINGS",
           "draw_plan", "draw_fight_chart", "draw_ghosts", "ghost_rects", "tag_places", "plan_picture",
           "tag_placer", "place_tag", "target_box", "base_rects",
           "landing_polygons", "panel_problems",
           "percent", "save_plan_png", "odds_colour"]

PATH_COLOUR = (250, 190, 20)
OTHER_PATH_COLOUR = (240, 240, 240)
GHOST_COLOUR = (255, 255, 255, 110)
GHOST_EDGE = (255, 255, 255, 230)
INK = (25, 25, 30)
CHART_W = 300
BAR = (70, 120, 200)
WIN = (60, 160, 80)
BREAK = (200, 70, 60)
PROBLEM_COLOUR = (200, 20, 20)


def odds_colour(p: float, alpha: int = 150) -> tuple[int, int, int, int]:
    """Red (no chance) through amber to green (certain), RGBA."""
    p = min(1.0, max(0.0, p))
    if p < 0.5:
        r, g = 220, int(60 + 300 * p)
    else:
        r, g = int(220 - 340 * (p - 0.5)), 210
    return (r, g, 60, alpha)


def _pct(p: float) -> str:
    if 0 < p < 0.005:
        return "<0.5%"
    if 0.995 < p < 1:
        return ">99.5%"
    return f"{100 * p:.0f}%"


def landing_polygons(state: Battlefield, plan: dict[str, Any]) -> dict[str, Any]:
    """Each landed model's base as a Shapely polygon (table inches) at its landing spot and
    facing: the plan's ``landing_facing`` (degrees; a rank-and-flank block wheels to land
    flush, rules/charge_plan.py) when it has one, else the model's ``landing_facings``
    entry (a base that is not round turned as it charged), else its own facing."""
    facing = plan.get("landing_facing")
    turned = plan.get("landing_facings") or {}
    out = {}
    for mid, (x, y) in plan.get("landing", {}).items():
        m = state.model(mid)
        own = turned.get(mid, m.facing_deg)
        out[mid] = base_polygon(m.base, x, y, own if facing is None else facing)
    return out


def panel_problems(plan: dict[str, Any]) -> list[str]:
    """The lines the plan picture's side panel draws in red: what the landing breaks
    (``landing_problems``) and what the deciding path's end breaks (``path_warnings``)."""
    lines = [f"Path: {w}" for w in plan.get("path_warnings", [])]
    lines += [f"No legal landing: {w}" for w in plan.get("landing_problems", [])]
    return lines


def ghost_rects(view: View, state: Battlefield, plan: dict[str, Any]) -> list[pygame.Rect]:
    """The pixel rectangles (bounding boxes on ``view``) of the plan's landing ghosts, one per
    landed model (``landing_polygons``)."""
    return [_pts_rect([view.to_screen(px, py) for px, py in poly.exterior.coords])
            for poly in landing_polygons(state, plan).values()]


def draw_ghosts(surface: pygame.Surface, view: View, state: Battlefield,
                plan: dict[str, Any]) -> list[pygame.Rect]:
    """The landing ghosted (each landed base in GHOST_COLOUR) and each model's landing path
    dashed; returns ``ghost_rects``."""
    for poly in landing_polygons(state, plan).values():
        pts = [view.to_screen(px, py) for px, py in poly.exterior.coords]
        prims.fill_polygon(surface, pts, GHOST_COLOUR)
        prims.outline(surface, pts, GHOST_EDGE[:3], 2)
    for path in plan.get("landing_paths", {}).values():
        if len(path) > 1:
            prims.dashed_polyline(surface, [view.to_screen(*p) for p in path], OTHER_PATH_COLOUR, 1)
    return ghost_rects(view, state, plan)


def draw_plan(surface: pygame.Surface, view: View, state: Battlefield,
              plan: dict[str, Any], plates: list[pygame.Rect] = (), *,
              ghosts_drawn: bool = False, placer: LabelPlacer | None = None) -> list[pygame.Rect]:
    """The plan on the board: each target's path (the deciding one bold), the landing ghosted
    (``draw_ghosts``; not again when ``ghosts_drawn``: the picture draws them under the unit
    name plates), and a tag with distance, roll needed and odds by each target, placed clear
    of the landing ghosts, the bases, the other tags and ``plates`` (the unit name plates,
    pixels) at the first free place of ``tag_places`` round the target, with a leader line
    to the target when that place is away from it (``TAG_LEADER_PX``; ``place_tag``).
    ``placer``: the shared ``LabelPlacer`` to place them with (the window's charge mode
    passes its own, holding the board's plates; default ``tag_placer``); the ghosts and
    ``plates`` are blocked in it.  Returns the tags' pixel rects."""
    if not plan.get("eligible", True) or "targets" not in plan or "in_reach" in plan:
        return []
    ghosts = ghost_rects(view, state, plan) if ghosts_drawn else draw_ghosts(surface, view, state, plan)
    geo = snapshot(state)
    if placer is None:
        placer = tag_placer(surface, view, state, geo)
    placer.block(ghosts + list(plates))
    placed: list[pygame.Rect] = []
    for t in plan["targets"]:
        if len(t.get("path", [])) > 1:
            bold = t["id"] == plan.get("target")
            prims.arrow(surface, [view.to_screen(*p) for p in t["path"]],
                        PATH_COLOUR if bold else OTHER_PATH_COLOUR, 4 if bold else 2)
    for t in plan["targets"]:
        dist = "no path" if t["distance"] is None else f"{t['distance']:.2f}\" path"
        side = f", hits its {t['side']}" if t.get("side") else ""
        lines = [(f"{t['id']}: {dist}", 15),
                 (f"{_needs_words(t)}: {_pct(t['probability'])}{side}", 15)]
        at = place_tag(surface, placer, view, geo, t["id"], prims.text_size(lines), "tag")
        placed.append(prims.text_plate(surface, lines, at.topleft, INK))
    return placed


def base_rects(view: View, geo) -> list[pygame.Rect]:
    """Each model's footprint's bounding box on ``view`` (pixels), in ``geo.ids`` order."""
    return [_pts_rect([view.to_screen(*c) for c in geo.footprint(m).exterior.coords])
            for m in geo.ids]


def tag_placer(surface: pygame.Surface, view: View, state: Battlefield, geo,
               taken: list[pygame.Rect] = (), bounds: pygame.Rect | None = None) -> LabelPlacer:
    """The shared placer (``render.label_place.LabelPlacer``) the charge pictures and the
    window's charge mode place their tags and odds marks with: every base (``base_rects``)
    kept clear, ``taken`` (name plates, ghosts, panels; pixels) blocked, inside ``bounds``
    (default: the table and its margin on ``surface``)."""
    if bounds is None:
        bounds = _table_px(view, state).clip(surface.get_rect())
    return LabelPlacer(bounds, base_rects(view, geo), taken)


def target_box(view: View, geo, unit_id: str) -> pygame.Rect:
    """The pixel box a unit's tag is placed round: its models' centres grown by 1" (inches
    on ``view``)."""
    xs = [geo.model(m).x for m in geo.unit_models(unit_id)]
    ys = [geo.model(m).y for m in geo.unit_models(unit_id)]
    return _pts_rect([view.to_screen(min(xs) - 1.0, max(ys) + 1.0),
                      view.to_screen(max(xs) + 1.0, min(ys) - 1.0)])


def place_tag(surface: pygame.Surface, placer: LabelPlacer, view: View, geo, unit_id: str,
              size: tuple[int, int], kind: str = "tag") -> pygame.Rect:
    """Place a tag of ``size`` pixels naming ``unit_id`` with ``placer``: the first free
    place of ``tag_places`` round ``target_box`` (else the least covering, as
    ``LabelPlacer.choose``), kept for the tags after it; a leader line is drawn to the
    unit's nearest model when the place is more than ``TAG_LEADER_PX`` from the box.
    Returns the tag's rect (pixels); the caller draws the tag there."""
    box = target_box(view, geo, unit_id)
    at = placer.place(kind, unit_id, tag_places(box, size), box).rect
    if not at.inflate(2 * TAG_LEADER_PX, 2 * TAG_LEADER_PX).colliderect(box):
        _tag_leader(surface, view, geo, unit_id, at)
    return at


#: a target's tag further than this (pixels) from the target's box (its models' centres
#: grown by 1") gets a leader line to the nearest of its models
TAG_LEADER_PX = 12
#: rings of places ``tag_places`` tries round a target's box: the 8 places beside it, then
#: the same 8 this many times further out, each ring a tag's height (and 6 px) further
TAG_RINGS = 5


def _table_px(view: View, state: Battlefield) -> pygame.Rect:
    """The table on ``view`` (pixels) with the margin round it (the inch labels' room)."""
    return _pts_rect([view.to_screen(0.0, state.table.depth),
                      view.to_screen(state.table.width, 0.0)]).inflate(40, 40)


def _tag_leader(surface: pygame.Surface, view: View, geo, unit_id: str, tag: pygame.Rect) -> None:
    """A thin line from ``tag`` to the edge of the unit's model nearest it, a dot at the end."""
    best = None
    for mid in geo.unit_models(unit_id):
        m = geo.model(mid)
        cx, cy = view.to_screen(m.x, m.y)
        sx, sy = min(max(cx, tag.left), tag.right), min(max(cy, tag.top), tag.bottom)
        d = math.hypot(cx - sx, cy - sy)
        if best is None or d < best[0]:
            best = (d, (sx, sy), (cx, cy), m.base.radius * view.scale)
    if best is None or best[0] <= 0:
        return
    d, (sx, sy), (cx, cy), r = best
    end = (cx + (sx - cx) / d * r, cy + (sy - cy) / d * r)
    pygame.draw.line(surface, (255, 255, 255), (sx, sy), end, 4)
    pygame.draw.line(surface, INK, (sx, sy), end, 2)
    prims.disc(surface, end, 3, INK)


def _pts_rect(pts) -> pygame.Rect:
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return pygame.Rect(int(min(xs)), int(min(ys)), int(max(xs) - min(xs)) + 1,
                       int(max(ys) - min(ys)) + 1)


def tag_places(box: pygame.Rect, size: tuple[int, int]) -> list[pygame.Rect]:
    """The places a target's tag of ``size`` pixels may go round the target's ``box`` (its
    models' centres grown by 1", pixels), in the order tried: right of it from its top,
    right below it, left of it, left below, right above, left above, under, over; then the same eight
    round the box grown by one tag height (and 6 px) more, ``TAG_RINGS`` rings in all."""
    w, h = size
    out = []
    for k in range(TAG_RINGS):
        b = box.inflate(2 * k * (h + 6), 2 * k * (h + 6))
        out += [pygame.Rect(x, y, w, h) for x, y in
                [(b.right, b.top), (b.right, b.bottom), (b.left - w, b.top),
                 (b.left - w, b.bottom), (b.right, b.top - h), (b.left - w, b.top - h),
                 (b.left, b.bottom), (b.left, b.top - h)]]
    return out


def _bars(surface, rect: pygame.Rect, title: str, rows: list[tuple[str, float]], colour,
          step: int = 17) -> int:
    """Horizontal bars (label, probability 0..1) under a title, ``step`` pixels a bar;
    returns the height used."""
    y = rect.y
    prims.text(surface, title, 14, INK, (rect.x, y))
    y += step + 3
    for label, p in rows:
        prims.text(surface, label, 13, INK, (rect.x, y))
        bx = rect.x + 70
        bw = rect.width - 120
        pygame.draw.rect(surface, (225, 225, 225), (bx, y + 2, bw, 12))
        pygame.draw.rect(surface, colour, (bx, y + 2, round(bw * p), 12))
        prims.text(surface, _pct(p), 13, INK, (bx + bw + 4, y))
        y += step
    return y - rect.y + 6


def draw_fight_chart(surface: pygame.Surface, rect: pygame.Rect, fight: dict[str, Any] | None,
                     header: list[str] | None = None, compact: bool = False,
                     problems: list[str] | None = None) -> list[str]:
    """The fight that follows as a small chart in ``rect``: per unit the distribution of
    models it loses (fight-phase: one bar per count with a chance of at least 0.5%, as many
    as ``rect`` holds), the chance each player wins and each unit breaks (rank-and-flank);
    ``header`` lines go above it, then ``problems`` in red (PROBLEM_COLOUR); ``compact``
    (the window's panel) packs the bars closer.  Returns the ids of the units given a bar
    chart of their losses, in the order drawn."""
    step = 15 if compact else 17
    pygame.draw.rect(surface, (246, 244, 238), rect)
    pygame.draw.rect(surface, (180, 180, 180), rect, 1)
    inner = rect.inflate(-16, -16)
    y = inner.y
    for line in header or []:
        for part in prims.wrap_text(line, 14, inner.width, max_lines=3, indent="  "):
            prims.text(surface, part, 14, INK, (inner.x, y))
            y += 18
    for line in problems or []:
        for part in prims.wrap_text(line, 14, inner.width, max_lines=4, indent="  "):
            prims.text(surface, part, 14, PROBLEM_COLOUR, (inner.x, y))
            y += 18
    y += 6
    charted: list[str] = []
    if not fight:
        prims.text(surface, "No fight preview", 14, INK, (inner.x, y))
        return charted
    if fight.get("method") == "none":
        # one sentence wrapped at the panel's width in the header's type (a ``why`` of
        # several problems may hold newlines: drawn as is they would overprint)
        why = " ".join(str(fight.get("why", "")).split())
        for part in prims.wrap_text(f"No fight odds: {why}", 14, inner.width, 6, indent="  "):
            prims.text(surface, part, 14, INK, (inner.x, y))
            y += 18
        return charted
    how = fight["method"] + (f", {fight['runs']} runs" if fight.get("runs") else "")
    if fight["method"] == "sampled":    # the window's preview, run by run (rules/charge_fight.py)
        se = fight.get("se")
        how = f"sampled {fight['runs']} runs" + (f", +/- {100 * se:.1f}%" if se is not None else "")
    prims.text(surface, f"The fight that follows ({how})", 15, INK, (inner.x, y))
    y += 20 if compact else 24
    for u, r in fight.get("units", {}).items():
        lost = r.get("models_lost")
        if lost:
            rows = [(f"{k} lost", p) for k, p in sorted(lost.items()) if p >= 0.005]
            # as many bars as the panel holds (the other units' charts below keep a line each)
            room = max(1, (inner.bottom - y - 20 * (len(fight["units"]) - len(charted) - 1))
                       // step - 1)
            if len(rows) > room:
                rows = sorted(sorted(rows, key=lambda row: -row[1])[:room],
                              key=lambda row: int(row[0].split()[0]))
            y += _bars(surface, pygame.Rect(inner.x, y, inner.width, 0),
                       f"{u}: models lost (of {r['models']})", rows, BAR, step)
            charted.append(u)
        elif "expected_models_lost" in r:
            prims.text(surface, f"{u}: loses {r['expected_models_lost']:.2f} on average", 13,
                       INK, (inner.x, y))
            y += 20
    if fight.get("win"):
        rows = [(pl, p) for pl, p in fight["win"].items()]
        if fight.get("tie") is not None:
            rows.append(("tie", fight["tie"]))
        y += _bars(surface, pygame.Rect(inner.x, y, inner.width, 0), "combat result", rows, WIN, step)
    if fight.get("breaks"):
        rows = [(u, p) for u, p in fight["breaks"].items()]
        y += _bars(surface, pygame.Rect(inner.x, y, inner.width, 0), "breaks", rows, BREAK, step)
    return charted


def _with_panel(board: pygame.Surface) -> tuple[pygame.Surface, pygame.Rect]:
    w, h = board.get_size()
    out = pygame.Surface((w + CHART_W, max(h, 420)))
    out.fill((255, 255, 255))
    out.blit(board, (0, 0))
    return out, pygame.Rect(w + 4, 40, CHART_W - 12, max(h, 420) - 80)


def _needs_words(row: dict[str, Any]) -> str:
    """The row's roll in words (``rules.charge_plan.needs_text``), never a bare None."""
    return row.get("needs_text") or (f"needs {row['needed']}" if row.get("needed") is not None
                                     else "out of reach")


def _odds_line(plan: dict[str, Any]) -> str:
    """The panel's roll-and-odds line: "Needs 5: 83% (5/6)", the words alone when no roll
    makes it or the charge cannot be declared, and "of reaching" when no legal landing was
    found."""
    if plan.get("needed") is None or any(not t.get("declarable", True) for t in plan["targets"]):
        return _needs_words(plan)[:1].upper() + _needs_words(plan)[1:]
    of = " to reach (no legal landing)" if plan.get("landing_problems") else ""
    return f"Needs {plan['needed']}: {_pct(plan['probability'])} ({plan['odds_fraction']}){of}"


def plan_picture(state: Battlefield, plan: dict[str, Any], scale: float = DEFAULT_SCALE
                 ) -> tuple[pygame.Surface, dict[str, Any]]:
    """The plan picture (``save_plan_png``) and where its parts went, pixels: ``{ghosts,
    plates: {unit id: rect}, tags, bases}`` (each a ``pygame.Rect``; ``bases`` each model's
    footprint's bounding box).  The landing ghosts are drawn before the unit name plates are
    placed and taken as room the plates keep clear of (the board's ``place_label`` weighs
    them as it weighs other plates), so no plate, the charger's included, sits on the
    landing; the target tags then keep clear of ghosts, bases and plates (``draw_plan``)."""
    geo = snapshot(state)
    w, h = image_size(state, scale, geo=geo)
    board = pygame.Surface((w, h))
    board_h, view = _frame(state, scale, geo)[1:]
    ghosts: list[pygame.Rect] = []

    def under_plates(c) -> None:
        if plan.get("eligible", True) and "targets" in plan and "in_reach" not in plan:
            ghosts.extend(draw_ghosts(c.surface, view, state, plan))
            c.taken.extend(g.inflate(4, 4) for g in ghosts)

    canvas = board_canvas(board, state, geo, view, selected=plan.get("unit"), over=under_plates)
    draw_legend(board, state, view, pygame.Rect(0, board_h, w, h - board_h))
    plates = {p[0].id: p[4].inflate(8, 8) for p in (canvas.placed or [])}
    tags = draw_plan(board, view, state, plan, list(plates.values()), ghosts_drawn=True)
    bases = [_pts_rect([view.to_screen(*c) for c in geo.footprint(m).exterior.coords])
             for m in geo.ids]
    out, rect = _with_panel(board)
    if not plan.get("eligible", True):
        header = [f"{plan['unit']} may not charge", plan["reason"]]
    elif "in_reach" in plan:
        header = [f"{plan['unit']}: in reach"] + [
            f"{r['id']}: {r['distance']:.2f}\" {_needs_words(r)}: {_pct(r['probability'])}"
            for r in plan["in_reach"]] or ["nothing in reach"]
    else:
        names = ", ".join(t["id"] for t in plan["targets"])
        d = "no path" if plan["distance"] is None else f"{plan['distance']:.2f}\" along the path"
        header = [f"Charge {plan['unit']} -> {names}", f"Distance {d}",
                  _odds_line(plan)]
        if plan.get("side"):
            header.append(f"Lands on the target's {plan['side']}")
        if plan.get("landing_roll"):
            header.append(f"Landing shown for a roll of {plan['landing_roll']['inches']:g}\"")
    draw_fight_chart(out, rect, plan.get("fight"), header, problems=panel_problems(plan))
    return out, {"ghosts": ghosts, "plates": plates, "tags": tags, "bases": bases}


def save_plan_png(state: Battlefield, plan: dict[str, Any], path: str,
                  scale: float = DEFAULT_SCALE, *, force: bool = False) -> str:
    """The plan picture (``plan_picture``: the table with ``draw_plan`` on it and the fight's
    chart beside it), written to ``path`` (PNG).  Raises OSError when it cannot be written."""
    out, _ = plan_picture(state, plan, scale)
    return save_png(out, path, force=force, keep=(state.path,) if state.path else ())


def percent(p: float) -> str:
    """A chance as the pictures write it: "58%", "<0.5%", ">99.5%"."""
    return _pct(p)


def label_rects(state: Battlefield, geo, view: View, size: tuple[int, int],
                selected_unit: str | None = None) -> list[pygame.Rect]:
    """The pixel rectangles of the unit name plates the board drawing puts on ``view`` on a
    surface of ``size`` pixels (placed, not drawn: an empty clip), each grown by its
    selection ring."""
    from tabletop.render.board import board_canvas
    c = board_canvas(pygame.Surface(size), state, geo, view, selected=selected_unit,
                     clip=pygame.Rect(0, 0, 0, 0))
    return [p[4].inflate(8, 8) for p in (c.placed or [])]
