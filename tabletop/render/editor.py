"""Drawing the table editor over the board: the selected item, a drag's ghost, a polygon
or zone half drawn, the tool plate and the line being typed.

Reads the editor (``app.editor.Editor``) and never changes it.  ``view`` maps table inches
(origin bottom-left, y up) to the board's pixels; ``mouse`` is the cursor in those pixels.
"""

from __future__ import annotations

import pygame

from tabletop.render.theme import font

__all__ = ["draw_editor"]

SELECT_COLOUR = (255, 240, 120)
GHOST_COLOUR = (120, 220, 255)
DRAW_COLOUR = (255, 150, 60)
PLATE_BG = (20, 20, 20)
PLATE_FG = (235, 235, 235)
PLATE_FONT_PX = 18
EDGE_COLOUR = (255, 240, 120)


def _plate(surface: pygame.Surface, lines: list[str], topleft: tuple[int, int]) -> None:
    f = font(PLATE_FONT_PX)
    imgs = [f.render(s, True, PLATE_FG) for s in lines]
    w = max(i.get_width() for i in imgs) + 12
    h = sum(i.get_height() for i in imgs) + 8
    r = pygame.Rect(topleft, (w, h))
    pygame.draw.rect(surface, PLATE_BG, r, border_radius=4)
    pygame.draw.rect(surface, SELECT_COLOUR, r, 1, border_radius=4)
    y = r.y + 4
    for i in imgs:
        surface.blit(i, (r.x + 6, y))
        y += i.get_height()


def _label(surface, s: str, at: tuple[float, float], colour) -> None:
    img = font(PLATE_FONT_PX - 2).render(s, True, colour)
    r = img.get_rect(center=(int(at[0]), int(at[1])))
    pygame.draw.rect(surface, PLATE_BG, r.inflate(6, 2), border_radius=3)
    surface.blit(img, r)


def _ring(surface, view, pts, colour, width: int) -> None:
    if len(pts) == 1:
        c = view.to_screen(*pts[0])
        pygame.draw.circle(surface, colour, (int(c[0]), int(c[1])), 12, width)
        return
    pygame.draw.lines(surface, colour, True, [view.to_screen(x, y) for x, y in pts], width)


def _edge_marks(surface, view, editor, pts) -> None:
    """From the selected item's nearest extents to the two nearest table edges, with
    the distances (inches)."""
    st = editor.state
    W, D = st.table.width, st.table.depth
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    if min(xs) <= W - max(xs):
        a, b, d = (min(xs), cy), (0.0, cy), min(xs)
    else:
        a, b, d = (max(xs), cy), (W, cy), W - max(xs)
    if min(ys) <= D - max(ys):
        c, e, d2 = (cx, min(ys)), (cx, 0.0), min(ys)
    else:
        c, e, d2 = (cx, max(ys)), (cx, D), D - max(ys)
    for p, q, dist in ((a, b, d), (c, e, d2)):
        sp, sq = view.to_screen(*p), view.to_screen(*q)
        pygame.draw.line(surface, EDGE_COLOUR, sp, sq, 1)
        if dist > 0:
            _label(surface, f'{dist:g}"', ((sp[0] + sq[0]) / 2, (sp[1] + sq[1]) / 2), EDGE_COLOUR)


def draw_editor(surface: pygame.Surface, view, editor, mouse: tuple[int, int]) -> None:
    """Draw ``editor`` over the board ``surface`` (see the module docstring)."""
    if not editor.active:
        return
    sel = editor.selected
    if sel is not None and editor.exists(sel):
        pts = editor.outline(sel)
        _ring(surface, view, pts, SELECT_COLOUR, 3)
        c = view.to_screen(*editor.centre(sel))
        pygame.draw.line(surface, SELECT_COLOUR, (c[0] - 6, c[1]), (c[0] + 6, c[1]), 2)
        pygame.draw.line(surface, SELECT_COLOUR, (c[0], c[1] - 6), (c[0], c[1] + 6), 2)
        if editor.drag is None:
            _edge_marks(surface, view, editor, pts)
    d = editor.drag
    if d is not None:
        dx, dy = d.shift
        ghost = [(x + dx, y + dy) for x, y in editor.outline(d.item)]
        _ring(surface, view, ghost, GHOST_COLOUR, 2)
        cx, cy = d.centre[0] + dx, d.centre[1] + dy
        _label(surface, f"({cx:g}, {cy:g})", view.to_screen(cx, cy), GHOST_COLOUR)
    tx, ty = view.to_table(*mouse)
    if editor.poly:
        pts = [view.to_screen(x, y) for x, y in editor.poly]
        if len(pts) > 1:
            pygame.draw.lines(surface, DRAW_COLOUR, False, pts, 2)
        pygame.draw.line(surface, DRAW_COLOUR, pts[-1], mouse, 1)
        for p in pts:
            pygame.draw.circle(surface, DRAW_COLOUR, (int(p[0]), int(p[1])), 4)
    if editor.corner is not None:
        a = view.to_screen(*editor.corner)
        r = pygame.Rect(min(a[0], mouse[0]), min(a[1], mouse[1]),
                        abs(mouse[0] - a[0]), abs(mouse[1] - a[1]))
        pygame.draw.rect(surface, DRAW_COLOUR, r, 2)
    lines = [f"EDIT  tool: {editor.tool}   player: {editor.player}   "
             f"cursor ({tx:.1f}, {ty:.1f})   e: leave, h: keys"]
    if editor.entry is not None:
        lines.append(f"> {editor.entry.text}_")
    _plate(surface, lines, (8, 8))
