"""Drawing primitives on a pygame Surface, in screen pixels.

Translucent fills, hatch patterns clipped to a polygon, dashed lines and
circles, arrows, and text on a plate.  Points are screen ``(x, y)`` floats
(y down); colours RGB or RGBA tuples.  Nothing here knows about inches: the
callers convert with ``View.to_screen``.  No window is needed.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

import numpy as np
import pygame

from tabletop.render.theme import font

Pt = tuple[float, float]


def geom_rings(geom) -> list[tuple[list[Pt], list[list[Pt]]]]:
    """``[(exterior, [holes])]`` of a Polygon, MultiPolygon or collection (inches).

    Reads the coordinates of geometries the snapshot returns; empty -> []."""
    if geom is None or getattr(geom, "is_empty", True):
        return []
    kind = geom.geom_type
    if kind == "Polygon":
        return [(np.asarray(geom.exterior.coords), [np.asarray(r.coords) for r in geom.interiors])]
    if kind in ("MultiPolygon", "GeometryCollection"):
        out = []
        for g in geom.geoms:
            out.extend(geom_rings(g))
        return out
    return []


def bbox(points: Sequence[Pt], pad: float = 0.0) -> pygame.Rect:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, y0 = math.floor(min(xs) - pad), math.floor(min(ys) - pad)
    return pygame.Rect(x0, y0, math.ceil(max(xs) + pad) - x0 + 1, math.ceil(max(ys) + pad) - y0 + 1)


def outside_clip(surface: pygame.Surface, points: Sequence[Pt], pad: float) -> bool:
    """Whether a drawing through ``points`` (pixels) reaching ``pad`` pixels round them
    lies wholly outside ``surface``'s clip, so it would change no pixel (a pass that
    redraws one band or one dirty rectangle, ``board.board_canvas(clip=...)``); False
    without a clip narrower than the surface."""
    clip = surface.get_clip()
    if clip == surface.get_rect() or len(points) == 0:
        return False
    return not bbox(points, pad).colliderect(clip)


def _layer(surface: pygame.Surface, points: Sequence[Pt], pad: float):
    """A transparent layer covering ``points`` (clipped to the surface) and its offset."""
    r = bbox(points, pad).clip(surface.get_rect())
    if r.w <= 0 or r.h <= 0:
        return None, r
    return pygame.Surface(r.size, pygame.SRCALPHA), r


def fill_polygon(surface, points: Sequence[Pt], colour, holes: Iterable[Sequence[Pt]] = ()) -> None:
    """Fill a polygon (RGBA blends; holes are cut out)."""
    if len(points) < 3 or outside_clip(surface, points, 2):
        return
    holes = [h for h in holes if len(h) >= 3]
    if len(colour) == 3 and not holes:
        pygame.draw.polygon(surface, colour, points)
        return
    made = polygon_layer(surface, points, colour, holes)
    if made is not None:
        surface.blit(made[0], made[1].topleft)


def polygon_layer(surface, points: Sequence[Pt], colour, holes: Iterable[Sequence[Pt]] = ()):
    """The translucent layer ``fill_polygon`` blits for an RGBA fill or one with holes:
    ``(layer, rect)`` (``rect`` where it goes on ``surface``, clipped to it), or None when
    nothing of it lands on ``surface``.  Kept and blitted again it draws the same pixels."""
    holes = [h for h in holes if len(h) >= 3]
    if len(points) < 3:
        return None
    layer, r = _layer(surface, points, 1)
    if layer is None:
        return None
    rgba = tuple(colour) if len(colour) == 4 else (*colour, 255)
    pygame.draw.polygon(layer, rgba, [(x - r.x, y - r.y) for x, y in points])
    for h in holes:
        pygame.draw.polygon(layer, (0, 0, 0, 0), [(x - r.x, y - r.y) for x, y in h])
    return layer, r


def outline_layer(surface, points: Sequence[Pt], colour, width: int = 1, closed: bool = True):
    """The layer ``outline`` blits for an RGBA ``colour`` (the line drawn opaque, the
    layer's alpha set): ``(layer, rect)`` on ``surface``, or None when nothing lands there."""
    if len(points) < 2:
        return None
    layer, r = _layer(surface, points, width + 1)
    if layer is None:
        return None
    outline(layer, [(x - r.x, y - r.y) for x, y in points], colour[:3], width, closed)
    layer.set_alpha(colour[3])
    return layer, r


def outline(surface, points: Sequence[Pt], colour, width: int = 1, closed: bool = True) -> None:
    """A polygon or polyline outline; anti-aliased when one pixel wide."""
    if len(points) < 2 or outside_clip(surface, points, width + 2):
        return
    if len(colour) == 4:
        made = outline_layer(surface, points, colour, width, closed)
        if made is not None:
            surface.blit(made[0], made[1].topleft)
        return
    if width <= 1:
        pygame.draw.aalines(surface, colour, closed, points)
    else:
        pygame.draw.lines(surface, colour, closed, points, width)
        pygame.draw.aalines(surface, colour, closed, points)
        # round the joints so thick outlines do not show notches
        if width >= 3:
            for p in points:
                pygame.draw.circle(surface, colour, p, width / 2.0 - 0.5)


def pattern_polygon(surface, points: Sequence[Pt], pattern: str, colour, spacing: float = 9.0,
                    width: int = 1, holes: Iterable[Sequence[Pt]] = ()) -> None:
    """Draw ``pattern`` clipped to a polygon: ``hatch`` (diagonal lines),
    ``crosshatch``, ``stripes`` (the other diagonal, wider), ``trees`` (small
    circles), ``contour`` (inset rings are drawn by the caller), ``roof`` (a
    ridge cross) or ``dots``.  ``colour`` RGB or RGBA."""
    if len(points) < 3 or outside_clip(surface, points, 2):
        return
    layer, r = _layer(surface, points, 1)
    if layer is None:
        return
    rgba = tuple(colour) if len(colour) == 4 else (*colour, 255)
    w, h = r.size
    s = max(3.0, spacing)
    if pattern in ("hatch", "crosshatch", "stripes"):
        k = -w - h
        while k < w + h:
            if pattern == "stripes":
                pygame.draw.line(layer, rgba, (k, h), (k + h, 0), width)
            else:
                pygame.draw.line(layer, rgba, (k, 0), (k + h, h), width)
                if pattern == "crosshatch":
                    pygame.draw.line(layer, rgba, (k, h), (k + h, 0), width)
            k += s
    elif pattern in ("trees", "dots"):
        row = 0
        y = (r.y % s) * -1 + s / 2
        while y < h + s:
            x = (r.x % s) * -1 + (s / 2 if row % 2 else 0)
            while x < w + s:
                if pattern == "trees":
                    pygame.draw.circle(layer, rgba, (x, y), max(2.0, s * 0.28), width)
                else:
                    pygame.draw.circle(layer, rgba, (x, y), max(1.0, s * 0.12))
                x += s
            y += s * 0.87
            row += 1
    elif pattern == "roof":
        pts = [(x - r.x, y - r.y) for x, y in points]
        cx = sum(p[0] for p in pts) / len(pts)
        cy = sum(p[1] for p in pts) / len(pts)
        for p in pts:
            pygame.draw.line(layer, rgba, (cx, cy), p, width)
    mask = pygame.Surface(r.size, pygame.SRCALPHA)
    pygame.draw.polygon(mask, (255, 255, 255, 255), [(x - r.x, y - r.y) for x, y in points])
    for hole in holes:
        if len(hole) >= 3:
            pygame.draw.polygon(mask, (0, 0, 0, 0), [(x - r.x, y - r.y) for x, y in hole])
    layer.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    surface.blit(layer, r.topleft)


def dashed_polyline(surface, points: Sequence[Pt], colour, width: int = 1, dash: float = 8.0,
                    gap: float = 6.0, closed: bool = False) -> None:
    """A dashed line through ``points`` (the dash pattern runs on across corners)."""
    points = list(points)
    if outside_clip(surface, points, width + 2):
        return
    pts = points + ([points[0]] if closed and points else [])
    on, left = True, dash
    for (x1, y1), (x2, y2) in itertools.pairwise(pts):
        seg = math.hypot(x2 - x1, y2 - y1)
        pos = 0.0
        while pos < seg - 1e-9:
            step = min(left, seg - pos)
            if on:
                a = (x1 + (x2 - x1) * pos / seg, y1 + (y2 - y1) * pos / seg)
                b = (x1 + (x2 - x1) * (pos + step) / seg, y1 + (y2 - y1) * (pos + step) / seg)
                if width <= 1:
                    pygame.draw.aaline(surface, colour, a, b)
                else:
                    pygame.draw.line(surface, colour, a, b, width)
            pos += step
            left -= step
            if left <= 1e-9:
                on = not on
                left = dash if on else gap


def circle_points(cx: float, cy: float, radius: float, n: int | None = None) -> list[Pt]:
    n = n or max(24, min(360, int(radius * 0.8)))
    return [(cx + radius * math.cos(2 * math.pi * k / n), cy + radius * math.sin(2 * math.pi * k / n))
            for k in range(n)]


def dashed_circle(surface, centre: Pt, radius: float, colour, width: int = 1, dash: float = 8.0,
                  gap: float = 6.0) -> None:
    dashed_polyline(surface, circle_points(centre[0], centre[1], radius), colour, width, dash, gap,
                    closed=True)


def ring(surface, centre: Pt, radius: float, colour, width: int = 2) -> None:
    """A circle outline whose stroke is centred on ``radius`` (anti-aliased when
    pygame-ce has ``aacircle``); RGBA blends."""
    if width > 1:
        radius = radius + (width - 1) / 2.0
    if len(colour) == 4:
        r = int(radius + width + 2)
        layer = pygame.Surface((2 * r + 1, 2 * r + 1), pygame.SRCALPHA)
        _ring_rgb(layer, (r, r), radius, colour[:3], width)
        layer.set_alpha(colour[3])
        surface.blit(layer, (centre[0] - r, centre[1] - r))
        return
    _ring_rgb(surface, centre, radius, colour, width)


def _ring_rgb(surface, centre: Pt, outer: float, colour, width: int) -> None:
    aa = getattr(pygame.draw, "aacircle", None)
    if aa is not None and width >= 1:
        aa(surface, colour, centre, outer, width)
    else:
        pygame.draw.circle(surface, colour, centre, outer, width)


def disc(surface, centre: Pt, radius: float, colour) -> None:
    """A filled circle (RGBA blends)."""
    if len(colour) == 4:
        r = int(radius + 2)
        layer = pygame.Surface((2 * r + 1, 2 * r + 1), pygame.SRCALPHA)
        pygame.draw.circle(layer, colour, (r, r), radius)
        surface.blit(layer, (centre[0] - r, centre[1] - r))
        return
    aa = getattr(pygame.draw, "aacircle", None)
    if aa is not None:
        aa(surface, colour, centre, radius)
    else:
        pygame.draw.circle(surface, colour, centre, radius)


def arrow(surface, points: Sequence[Pt], colour, width: int = 3, head: float = 12.0,
          halo: tuple | None = (255, 255, 255)) -> None:
    """A polyline ending in a filled arrowhead at its last point (with a light halo)."""
    pts = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    if len(pts) < 2:
        return
    (x1, y1), (x2, y2) = pts[-2], pts[-1]
    ang = math.atan2(y2 - y1, x2 - x1)
    seg = math.hypot(x2 - x1, y2 - y1)
    head = min(head, max(6.0, seg * 0.9)) if seg < head else head
    tip = (x2, y2)
    left = (x2 - head * math.cos(ang - 0.42), y2 - head * math.sin(ang - 0.42))
    right = (x2 - head * math.cos(ang + 0.42), y2 - head * math.sin(ang + 0.42))
    base = (x2 - head * 0.8 * math.cos(ang), y2 - head * 0.8 * math.sin(ang))
    body = pts[:-1] + [base]
    if halo is not None:
        pygame.draw.lines(surface, halo, False, body, width + 3)
        pygame.draw.polygon(surface, halo, [tip, left, right], 0)
        pygame.draw.polygon(surface, halo, [tip, left, right], 3)
    pygame.draw.lines(surface, colour, False, body, width)
    for p in body[1:-1]:
        pygame.draw.circle(surface, colour, p, width / 2.0)
    pygame.draw.polygon(surface, colour, [tip, left, right])


def cross(surface, centre: Pt, size: float, colour, width: int = 3) -> None:
    x, y = centre
    pygame.draw.line(surface, colour, (x - size, y - size), (x + size, y + size), width)
    pygame.draw.line(surface, colour, (x - size, y + size), (x + size, y - size), width)


TEXT_SIZES_KEPT = 4096
"""Named default: plate sizes remembered by ``text_size`` (a redraw of a big table measures
every unit label again; the font's answer for the same lines never changes)."""

_TEXT_SIZES: dict[tuple, tuple[int, int]] = {}


def text_size(lines: Sequence[tuple[str, int]], pad: int = 4, spacing: int = 1) -> tuple[int, int]:
    """Pixel size of a plate holding ``[(text, font size)]`` lines (remembered,
    ``TEXT_SIZES_KEPT``)."""
    key = (tuple(lines), pad, spacing)
    got = _TEXT_SIZES.get(key)
    if got is not None:
        return got
    w = h = 0
    for t, size in lines:
        f = font(size)
        tw, th = f.size(t)
        w = max(w, tw)
        h += max(th, f.get_linesize()) + spacing   # a rendered line is linesize tall
    got = (w + 2 * pad, h - spacing + 2 * pad)
    if len(_TEXT_SIZES) >= TEXT_SIZES_KEPT:
        del _TEXT_SIZES[next(iter(_TEXT_SIZES))]
    _TEXT_SIZES[key] = got
    return got


def text_plate(surface, lines: Sequence[tuple[str, int]], topleft: Pt, text_colour,
               plate=(255, 255, 255, 220), border=None, pad: int = 4, spacing: int = 1,
               colours: Sequence | None = None) -> pygame.Rect:
    """Text lines on a rounded plate at ``topleft``; returns the plate's rect.

    ``lines`` are ``(text, font size)``; ``colours`` optionally one per line."""
    w, h = text_size(lines, pad, spacing)
    rect = pygame.Rect(int(topleft[0]), int(topleft[1]), w, h)
    if plate is not None:
        layer = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(layer, plate, layer.get_rect(), border_radius=4)
        surface.blit(layer, rect.topleft)
    if border is not None:
        pygame.draw.rect(surface, border, rect, 2, border_radius=4)
    y = rect.y + pad
    for k, (t, size) in enumerate(lines):
        col = colours[k] if colours is not None and k < len(colours) else text_colour
        img = font(size).render(t, True, col)
        surface.blit(img, (rect.x + pad, y))
        y += img.get_height() + spacing
    return rect


def fit_text(t: str, size: int, width: float) -> str:
    """``t`` cut short with an ellipsis so it is at most ``width`` px wide."""
    f = font(size)
    if f.size(t)[0] <= width:
        return t
    while t and f.size(t + "…")[0] > width:
        t = t[:-1]
    return t + "…"


def wrap_text(t: str, size: int, width: float, max_lines: int = 2, indent: str = "    ") -> list[str]:
    """``t`` broken at spaces into lines at most ``width`` px wide (continuation lines
    start with ``indent``); past ``max_lines`` the last line ends in an ellipsis."""
    f = font(size)
    if f.size(t)[0] <= width:
        return [t]
    lines: list[str] = []
    rest = t.split(" ")
    while rest and len(lines) < max_lines:
        prefix = indent if lines else ""
        line = prefix + rest.pop(0)
        while rest and f.size(line + " " + rest[0])[0] <= width:
            line += " " + rest.pop(0)
        lines.append(line)
    if rest:
        lines[-1] = fit_text(lines[-1] + " " + " ".join(rest), size, width)
    return [fit_text(s, size, width) for s in lines]


def text(surface, t: str, size: int, colour, pos: Pt, anchor: str = "topleft") -> pygame.Rect:
    """Plain anti-aliased text placed by ``anchor`` (any pygame.Rect point name)."""
    img = font(size).render(t, True, colour)
    rect = img.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    surface.blit(img, rect)
    return rect


def outlined_text(surface, t: str, size: int, colour, halo, pos: Pt,
                  anchor: str = "center") -> pygame.Rect:
    """Text with a one-pixel halo so it reads on any background."""
    img = font(size).render(t, True, colour)
    back = font(size).render(t, True, halo)
    rect = img.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1)):
        surface.blit(back, rect.move(dx, dy))
    surface.blit(img, rect)
    return rect
