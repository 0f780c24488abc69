"""The key to the board: map name, a scale bar, players, terrain kinds used,
markers and the overlays shown.

``draw_legend`` lays its blocks out in columns across a wide rectangle (a
strip under the table) or one above the other in a tall one (a side panel).
``legend_height`` says how tall the strip must be for a given width.  The
scale bar uses the view's pixels per inch, so it stays true when zoomed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pygame

from tabletop.board.state import Battlefield
from tabletop.render import prims
from tabletop.render.theme import DEFAULT_THEME, TERRAIN_KINDS, Theme, shade
from tabletop.render.view import View

GLYPH_W, ROW_H, PAD, GAP = 40, 22, 10, 26

OVERLAY_KEYS = {
    "contact": "base contact with an enemy",
    "engagement": "engagement range and engaged models",
    "coherency": "model out of coherency",
    "overlaps": "overlapping bases",
    "off-table": "model off the table",
    "objectives": "model within an objective's range",
}

ROLE_NAMES = {"commander": "commander", "champion": "champion", "standard": "standard bearer",
              "musician": "musician"}

Row = tuple[Callable | None, str, tuple]


def _blocks(state: Battlefield, view: View, overlays: Iterable[str], theme: Theme):
    from tabletop.render import board  # the glyphs are drawn as the board draws them

    colours = theme.player_colours(state)
    t = theme
    blocks: list[tuple[str, list[Row]]] = []
    table = f'{state.table.width:g}" x {state.table.depth:g}" table, {state.ruleset}'

    inches = next((n for n in (12, 6, 3, 2, 1) if n * view.scale <= 280), 1)

    def scale_bar(s, r):
        w = inches * view.scale
        y = r.centery + 3
        pygame.draw.rect(s, t.legend_text, (r.x, y - 3, w, 6), 1)
        for k in range(inches):
            if k % 2 == 0:
                pygame.draw.rect(s, t.legend_text, (r.x + k * view.scale, y - 3, view.scale, 6))
        for k in range(inches + 1):
            x = r.x + k * view.scale
            pygame.draw.line(s, t.legend_text, (x, y - 7), (x, y + 3))
    bar_w = int(inches * view.scale)
    blocks.append((state.name, [
        (None, table, t.legend_dim),
        (scale_bar, "", (bar_w,)),
        (None, f'scale: {inches}" ({view.scale:.1f} px per inch); grid 1", lines every 6"', t.legend_dim)]))

    rows: list[Row] = []
    for p in state.players:
        col = colours[p.id]
        units = state.units_of(p.id)
        n = sum(len(u.models) for u in units)

        def swatch(s, r, col=col):
            prims.disc(s, r.center, 8, col)
            prims.ring(s, r.center, 8, shade(col, t.rim_factor), 2)
        name = (p.name or p.id) + (" - active" if p.active else "")
        rows.append((swatch, (f"{name}: {len(units)} unit{'s' * (len(units) != 1)}, "
                             f"{n} model{'s' * (n != 1)}"), t.legend_text))
    blocks.append(("Players", rows))

    kinds = [k for k in TERRAIN_KINDS if any(tp.kind == k for tp in state.terrain)]
    kinds += sorted({tp.kind for tp in state.terrain} - set(kinds))
    if kinds:
        rows_t: list[Row] = [
            (lambda s, r, k=k: board.terrain_swatch(s, r.inflate(-4, -2), k, t), k, t.legend_text)
            for k in kinds]
        tall_kinds = [tp.kind for tp in state.terrain if getattr(tp, "tall_part", None)]
        if tall_kinds:
            def tall(s, r, k=tall_kinds[0]):
                box = r.inflate(-4, -2)
                board.terrain_swatch(s, box, k, t)
                inner = box.inflate(-12, -6)
                board.tall_swatch(s, [inner.topleft, inner.topright, inner.bottomright, inner.bottomleft],
                                  t.terrain_style(k))
            rows_t.append((tall, 'tall part (walls over 4")', t.legend_text))
        blocks.append(("Terrain", rows_t))

    marks: list[Row] = []
    if state.objectives:
        rng = {state.objective_range(o) for o in state.objectives}
        size = {o.marker.text for o in state.objectives}

        def obj(s, r):
            prims.disc(s, r.center, 10, (*t.objective_ring, 60))
            prims.dashed_circle(s, r.center, 10, t.objective_ring, 1, 4, 3)
            prims.disc(s, r.center, 6, t.objective_fill)
            prims.ring(s, r.center, 6, t.objective_rim, 2)
        marks.append((obj, (f"objective: {'/'.join(sorted(size))} marker, "
                           f"{'/'.join(f'{x:g}' for x in sorted(rng))}\" range from its edge"),
                      t.legend_text))
    if state.deployment:
        def zone(s, r):
            prims.fill_polygon(s, [r.topleft, r.topright, r.bottomright, r.bottomleft],
                               (*t.legend_text, 50))
            prims.dashed_polyline(s, [r.topleft, r.topright, r.bottomright, r.bottomleft],
                                  t.legend_text, 1, 5, 3, closed=True)
        marks.append((lambda s, r: zone(s, r.inflate(-6, -6)), "deployment zone (player's colour)",
                      t.legend_text))
    if state.units:
        def facing(s, r):
            prims.disc(s, r.center, 9, (150, 150, 150))
            pygame.draw.line(s, t.facing_tick, (r.centerx + 3, r.centery), (r.centerx + 8, r.centery), 3)
        marks.append((facing, "base, tick = facing; outline = unit", t.legend_text))
    roles = sorted({(m.role or "").lower() for m in state.models()} & set(board.ROLE_GLYPHS))
    for role in roles:
        def rg(s, r, role=role):
            prims.disc(s, r.center, 9, (150, 150, 150))
            board.role_glyph(s, board.ROLE_GLYPHS[role], r.center, 3.5, (255, 255, 255))
        marks.append((rg, ROLE_NAMES.get(role, role), t.legend_text))
    if marks:
        blocks.append(("Markers", marks))

    on = board.resolve_overlays(overlays)
    keys: list[Row] = []
    for name in board.OVERLAYS:
        if name not in on:
            continue
        keys.append((lambda s, r, n=name: _overlay_glyph(s, r, n, t), OVERLAY_KEYS[name],
                     t.legend_text))
    if keys:
        blocks.append(("Overlays", keys))
    return blocks


def _overlay_glyph(s, r: pygame.Rect, name: str, t: Theme) -> None:
    cx, cy = r.center
    if name == "contact":
        prims.disc(s, (cx - 8, cy), 8, (150, 150, 150))
        prims.disc(s, (cx + 8, cy), 8, (110, 110, 110))
        pygame.draw.line(s, (20, 20, 20), (cx, cy - 9), (cx, cy + 9), 6)
        pygame.draw.line(s, t.contact, (cx, cy - 9), (cx, cy + 9), 3)
    elif name == "engagement":
        pygame.draw.line(s, t.engagement, (cx - 14, cy), (cx + 14, cy), 3)
        prims.dashed_polyline(s, [(r.x + 2, r.y + 2), (r.right - 2, r.y + 2), (r.right - 2, r.bottom - 2),
                                  (r.x + 2, r.bottom - 2)], t.engagement, 2, 5, 3, closed=True)
    elif name == "coherency":
        prims.disc(s, (cx, cy), 7, (150, 150, 150))
        prims.ring(s, (cx, cy), 10, t.coherency, 3)
    elif name == "overlaps":
        pts = [(cx - 10, cy - 8), (cx + 10, cy - 8), (cx + 10, cy + 8), (cx - 10, cy + 8)]
        prims.fill_polygon(s, pts, (*t.overlap, 110))
        prims.pattern_polygon(s, pts, "crosshatch", t.overlap, 5, 2)
        prims.outline(s, pts, t.overlap, 2)
    elif name == "off-table":
        prims.dashed_circle(s, (cx, cy), 9, t.off_table, 3, 5, 3)
    elif name == "objectives":
        prims.disc(s, (cx, cy), 5, t.objective_hold)
        prims.ring(s, (cx, cy), 5, (40, 30, 0), 1)


def _measure(blocks, theme: Theme):
    """[(width, height)] of each block."""
    out = []
    for title, rows in blocks:
        w = prims.font(theme.font_label).size(title)[0]
        h = prims.font(theme.font_label).get_height() + 6
        for glyph, text, extra in rows:
            if glyph is not None and text == "" and extra and isinstance(extra[0], int):
                w = max(w, extra[0] + 4)  # the scale bar
            else:
                tw = prims.font(theme.font_small).size(text)[0]
                w = max(w, tw + (GLYPH_W + 6 if glyph else 0))
            h += ROW_H
        out.append((w, h))
    return out


def _layout(sizes, width: int, horizontal: bool):
    """Top-left of each block relative to the legend's corner, and the total height.

    Across a wide rectangle the blocks fill columns in order, a new column
    starting when the next block would pass a height limit; the limit is the
    smallest that lets every column fit in ``width``.  In a tall rectangle
    the blocks stack in one column."""
    if not sizes:
        return [], 2 * PAD
    if not horizontal:
        pos, y = [], PAD
        for _, h in sizes:
            pos.append((PAD, y))
            y += h + PAD
        return pos, y
    tallest_block = max(h for _, h in sizes)
    everything = sum(h + PAD for _, h in sizes) - PAD
    for limit in list(range(tallest_block, everything, 8)) + [everything]:
        pos, x, y, col_w, tallest = [], PAD, PAD, 0, 0
        for w, h in sizes:
            if y > PAD and y + h > PAD + limit:
                x, y, col_w = x + col_w + GAP, PAD, 0
            pos.append((x, y))
            col_w = max(col_w, w)
            y += h + PAD
            tallest = max(tallest, y)
        if x + col_w + PAD <= width or limit == everything:
            return pos, tallest
    return pos, tallest


def legend_key(state: Battlefield, view: View, overlays: Iterable[str] = frozenset(),
               theme: Theme | None = None) -> tuple:
    """Everything of ``state`` the legend shows (``_blocks`` reads no more): its name,
    table, ruleset, players with their unit and model counts, terrain, objectives and
    their ranges, whether it has deployment zones and units, the roles its models hold;
    and the view's scale, the overlays and the theme.  Two states with equal keys draw
    the same legend, so a window keeps the legend's picture across a move (the models'
    places are not in it)."""
    counts = tuple((len(us := state.units_of(p.id)), sum(len(u.models) for u in us))
                   for p in state.players)
    roles = frozenset((m.role or "").lower() for m in state.models())
    return (state.name, state.table, state.ruleset, state.players, counts, state.terrain,
            state.objectives, tuple(state.objective_range(o) for o in state.objectives),
            bool(state.deployment), bool(state.units), roles, view.scale, frozenset(overlays),
            id(theme or DEFAULT_THEME))


def legend_height(state: Battlefield, view: View, width: int, *, overlays: Iterable[str] = frozenset(),
                  theme: Theme | None = None) -> int:
    """Pixels the legend needs as a strip ``width`` px wide."""
    theme = theme or DEFAULT_THEME
    blocks = _blocks(state, view, overlays, theme)
    _, total = _layout(_measure(blocks, theme), width, True)
    return total


def draw_legend(surface: pygame.Surface, state: Battlefield, view: View, rect: pygame.Rect, *,
                overlays: Iterable[str] = frozenset(), theme: Theme | None = None) -> None:
    """Draw the key inside ``rect`` (screen pixels) on a plate.

    Blocks: map name and table size; a scale bar (the largest of 12/6/3/2/1"
    that fits in 280 px at ``view.scale``, inch ticks); players with their
    colours, names and unit/model counts; terrain kinds used (swatches drawn
    as on the board); markers (objective with its range, deployment zone,
    facing tick, roles used); keys of the ``overlays`` shown.  Columns across
    a wide ``rect``, stacked in a tall one; what does not fit is clipped.
    """
    theme = theme or DEFAULT_THEME
    rect = pygame.Rect(rect)
    blocks = _blocks(state, view, overlays, theme)
    pos, _ = _layout(_measure(blocks, theme), rect.w, rect.w >= rect.h)
    old_clip = surface.get_clip()
    surface.set_clip(rect.clip(old_clip) if old_clip else rect)
    pygame.draw.rect(surface, theme.legend_plate, rect)
    for (title, rows), (bx, by) in zip(blocks, pos):
        x, y = rect.x + bx, rect.y + by
        room = rect.right - PAD - x
        title_rect = prims.text(surface, prims.fit_text(title, theme.font_label, room), theme.font_label,
                                theme.legend_text, (x, y))
        y = title_rect.bottom + 6
        for glyph, text, extra in rows:
            row = pygame.Rect(x, y, GLYPH_W, ROW_H - 4)
            if glyph is not None and text == "" and extra and isinstance(extra[0], int):
                glyph(surface, pygame.Rect(x, y, extra[0], ROW_H - 4))
            else:
                tx = x
                if glyph is not None:
                    glyph(surface, row)
                    tx = x + GLYPH_W + 6
                colour = extra if isinstance(extra, tuple) and len(extra) == 3 else theme.legend_text
                prims.text(surface, prims.fit_text(text, theme.font_small, rect.right - PAD - tx),
                           theme.font_small, colour, (tx, row.centery), "midleft")
            y += ROW_H
    surface.set_clip(old_clip)
