"""Whole pictures of a map: the board with margins for the inch labels and a
legend strip under it, on a plain Surface (no window), saved as PNG.
"""

from __future__ import annotations

from collections.abc import Iterable

import pygame

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry, snapshot
from tabletop.render import legend as legendmod
from tabletop.render.board import draw_board
from tabletop.render.options import DEFAULT_SCALE
from tabletop.render.theme import DEFAULT_THEME, Theme
from tabletop.render.view import View

MARGIN_PX = 40
"""Room round the table for the inch labels."""

MAX_SIDE_PX = 16000
"""The largest image side ``render_image`` will make (pygame's limit is about 16384)."""


MAX_SPILL_IN = 24.0
"""How far past the table edge the picture grows to show models that are off it."""


def spill(state: Battlefield, geo: Geometry | None = None) -> tuple[float, float, float, float]:
    """Inches the models reach past the (left, bottom, right, top) table edges, 0 when on it
    (capped at ``MAX_SPILL_IN``), so a model off the table is still drawn and ringed."""
    geo = geo if geo is not None else snapshot(state)
    if not geo.ids:
        return (0.0, 0.0, 0.0, 0.0)
    minx = min(geo.footprint(m).bounds[0] for m in geo.off_table) if geo.off_table else 0.0
    miny = min(geo.footprint(m).bounds[1] for m in geo.off_table) if geo.off_table else 0.0
    maxx = max(geo.footprint(m).bounds[2] for m in geo.off_table) if geo.off_table else 0.0
    maxy = max(geo.footprint(m).bounds[3] for m in geo.off_table) if geo.off_table else 0.0
    pad = 0.5 if geo.off_table else 0.0
    w, d = state.table.width, state.table.depth
    return tuple(min(MAX_SPILL_IN, max(0.0, v + pad if v > 0 else 0.0))
                 for v in (-minx, -miny, maxx - w, maxy - d))  # type: ignore[return-value]


def _frame(state: Battlefield, scale: float, geo: Geometry | None) -> tuple[int, int, View]:
    left, bottom, right, top = spill(state, geo)
    w = round((state.table.width + left + right) * scale) + 2 * MARGIN_PX
    h = round((state.table.depth + bottom + top) * scale) + 2 * MARGIN_PX
    view = View(scale, MARGIN_PX + left * scale, MARGIN_PX + (state.table.depth + top) * scale)
    return w, h, view


def image_size(state: Battlefield, scale: float = DEFAULT_SCALE, *, legend: bool = True,
               overlays: Iterable[str] = frozenset(), theme: Theme | None = None,
               geo: Geometry | None = None) -> tuple[int, int]:
    """(width, height) in pixels of ``render_image`` for these settings."""
    w, h, view = _frame(state, scale, geo)
    if legend:
        h += legendmod.legend_height(state, view, w, overlays=overlays, theme=theme)
    return w, h


def render_image(state: Battlefield, *, geo: Geometry | None = None, overlays: Iterable[str] = frozenset(),
                 scale: float = DEFAULT_SCALE, legend: bool = True, selected: str | None = None,
                 highlight: dict | None = None, theme: Theme | None = None) -> pygame.Surface:
    """The map drawn at ``scale`` px per inch, with an optional legend strip below.

    Raises
    ------
    ValueError
        ``scale`` not positive, the image would be larger than ``MAX_SIDE_PX``,
        or an unknown overlay name.
    """
    if not scale > 0:
        raise ValueError(f"scale must be a positive number of pixels per inch, got {scale!r}")
    theme = theme or DEFAULT_THEME
    geo = geo if geo is not None else snapshot(state)
    w, h = image_size(state, scale, legend=legend, overlays=overlays, theme=theme, geo=geo)
    if max(w, h) > MAX_SIDE_PX:
        raise ValueError(f"the image would be {w} x {h} px at {scale:g} px per inch; "
                         f"use a smaller --scale (at most {MAX_SIDE_PX} px a side)")
    surface = pygame.Surface((w, h))
    board_h, view = _frame(state, scale, geo)[1:]
    draw_board(surface, state, geo, view, overlays=overlays, selected=selected, highlight=highlight,
               theme=theme)
    if legend:
        top = board_h
        legendmod.draw_legend(surface, state, view, pygame.Rect(0, top, w, h - top),
                              overlays=overlays, theme=theme)
    return surface


def save_png(surface: pygame.Surface, path: str, *, force: bool = False,
             keep: tuple[str, ...] = ()) -> str:
    """Write ``surface`` as PNG to ``path`` through a temporary file of its own renamed
    into place (``board.writes.atomic_target``), so a failed write leaves nothing
    half-written and never touches a file of another name.

    Raises
    ------
    OutputExistsError
        ``path`` exists and ``force`` is false, or it is one of ``keep`` (the input).
    OSError
        When the folder cannot be made or written.
    """
    from tabletop.board.writes import atomic_target

    try:
        with atomic_target(path, force=force, keep=keep) as tmp:
            pygame.image.save(surface, tmp)
    except pygame.error as exc:
        raise OSError(str(exc)) from None
    return path
