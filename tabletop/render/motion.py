"""Pile-in and consolidation moves drawn sliding along their paths (issue 11 item 3).

A step whose events hold a pile-in or a consolidation (``rules.events.PileIn`` /
``Consolidate``: ``moves`` maps each moved model to its path, a list of ``[x, y]``
points in inches from where it stood to where it ends) is shown by the window as a
short slide: over ``n`` frames each moved model is drawn at the point of its path a
fraction ``k / n`` of the path's length along (``point_along``), frame ``k`` of ``n``,
then the step is drawn as usual.  ``n`` is fixed by the longest path's length
(``slide_frames``: ``MOVE_INCHES_PER_FRAME`` a frame, at most ``MOVE_ANIMATION_FRAMES``),
never by a clock: one slide frame a window frame, 60 a second.  The board behind the sliding
models is the step's own drawing (arrows, reach, lines) with the moved models left
out, drawn once per view (``Motion.background``); a frame only blits it and draws the
moved bases (``draw_base``).  Drawing only: the step, its table and its events are
never changed, and the rules never see a frame.

Coordinates are inches, origin bottom-left, y up; the ``View`` turns them into pixels.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import pygame

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry, snapshot
from tabletop.geometry.footprints import base_polygon
from tabletop.render.board import draw_base
from tabletop.render.step_draw import draw_of, with_keys
from tabletop.render.steps import BASES_PER_WORK, DEFAULT_STEP_OVERLAYS, draw_step, step_pieces
from tabletop.render.theme import DEFAULT_THEME, Theme
from tabletop.render.view import View
from tabletop.rules import events as E

__all__ = ["MOVE_ANIMATION_FRAMES", "MOVE_INCHES_PER_FRAME", "MOVE_TYPES", "Motion", "point_along",
           "slide_frames", "step_moves"]

MOVE_ANIMATION_FRAMES = 30
"""Named default: the most frames a pile-in or consolidation slide takes in the window (half
a second at the window's 60 frames a second): long enough to follow each model's route
round what it skirts, short enough not to hold up a phase played at the window.  A slide
whose longest path is shorter takes fewer (``slide_frames``)."""

MOVE_INCHES_PER_FRAME = 0.1
"""Named default: how far along its path the model with the longest path moves each frame
(inches; 6" a second at 60 frames a second), so a 3" pile-in slides over 30 frames and a
1" one over 10: a short shuffle is not drawn out as long as a full move.  The rules are
silent (they say where models end, not how a picture shows them getting there)."""

MOVE_TYPES = (E.PileIn, E.Consolidate)
"""Event classes whose ``moves`` (model id -> path) a step slides along."""

XY = tuple[float, float]


def step_moves(step: Any) -> dict[str, list[XY]]:
    """``{model id: path}`` of the pile-in and consolidation moves in ``step`` (a
    ``rules.events.Step`` with a log), paths as lists of ``(x, y)`` inches, for the
    models still on the table after the step and with a path of two points or more;
    ``{}`` for a step without one."""
    log = getattr(step, "log", None)
    if log is None:
        return {}
    out: dict[str, list[XY]] = {}
    for k in step.events:
        if not 0 <= k < len(log.events):
            continue
        ev = log.events[k]
        if not isinstance(ev, MOVE_TYPES):
            continue
        for mid, path in ev.moves.items():
            pts = [(float(p[0]), float(p[1])) for p in path]
            if len(pts) >= 2 and _on(step.state, mid):
                out[mid] = pts
    return out


def slide_frames(moves: dict[str, list[XY]], most: int = MOVE_ANIMATION_FRAMES) -> int:
    """Frames a slide of ``moves`` ({model id: path}, inches) takes: the longest path's
    length over ``MOVE_INCHES_PER_FRAME``, rounded up, at least 1 and at most ``most``.
    A 3" path: 3 / 0.1 = 30 frames; 0.25": 3 frames.

    Raises
    ------
    ValueError
        ``most`` under 1.
    """
    if most < 1:
        raise ValueError(f"a slide needs at least one frame, got {most}")
    longest = max((sum(math.dist(a, b) for a, b in zip(p, p[1:])) for p in moves.values()),
                  default=0.0)
    return max(1, min(int(most), math.ceil(longest / MOVE_INCHES_PER_FRAME - 1e-9)))


def _on(state: Battlefield, mid: str) -> bool:
    try:
        state.model(mid)
    except KeyError:
        return False
    return True


def point_along(path: Sequence[XY], fraction: float) -> XY:
    """The point a ``fraction`` (clamped to 0..1) of ``path``'s length along it, inches.

    ``path`` is a polyline of ``(x, y)`` points (at least one); length is measured leg by
    leg, so on ``[(0, 0), (2, 0), (2, 1)]`` (3" long) a fraction 1/2 is ``(1.5, 0)`` and
    5/6 is ``(2, 0.5)``.  A path of zero length gives its first point.

    Raises
    ------
    ValueError
        An empty path.
    """
    if not path:
        raise ValueError("a path needs at least one point")
    f = min(1.0, max(0.0, float(fraction)))
    legs = [math.dist(a, b) for a, b in zip(path, path[1:])]
    total = sum(legs)
    if total <= 0.0:
        return (float(path[0][0]), float(path[0][1]))
    want = f * total
    for (a, b), d in zip(zip(path, path[1:]), legs):
        if want <= d and d > 0.0:
            t = want / d
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        want -= d
    return (float(path[-1][0]), float(path[-1][1]))


class Motion:
    """One step's moves sliding over ``frames`` frames (``MOVE_ANIMATION_FRAMES``).

    ``frame`` counts from 0 (every moved model at its start) to ``frames`` (at its end,
    ``done``); ``advance()`` moves one frame on.  ``positions()`` gives where each moved
    model is drawn now, ``draw(...)`` draws the frame.
    """

    def __init__(self, step: Any, moves: dict[str, list[XY]], frames: int = MOVE_ANIMATION_FRAMES):
        if frames < 1:
            raise ValueError(f"an animation needs at least one frame, got {frames}")
        self.step = step
        self.moves = moves
        self.frames = int(frames)
        self.frame = 0
        self._rest: tuple[Battlefield, Geometry] | None = None
        self._background: tuple[Any, pygame.Surface] | None = None

    @classmethod
    def of(cls, step: Any, frames: int = MOVE_ANIMATION_FRAMES) -> Motion | None:
        """The slide of ``step``'s moves over ``slide_frames(moves, frames)`` frames (the
        longest path's length decides, ``frames`` at most), or None when it has none
        (``step_moves``)."""
        moves = step_moves(step)
        return cls(step, moves, slide_frames(moves, frames)) if moves else None

    @property
    def fraction(self) -> float:
        """How far along its path each moved model is drawn: ``frame / frames``."""
        return min(1.0, self.frame / self.frames)

    @property
    def done(self) -> bool:
        return self.frame >= self.frames

    def advance(self) -> None:
        """One frame on (stays at ``frames`` once there)."""
        self.frame = min(self.frames, self.frame + 1)

    def positions(self) -> dict[str, XY]:
        """``{model id: (x, y)}`` where each moved model's centre is drawn this frame,
        inches: ``point_along(path, fraction)``."""
        f = self.fraction
        return {mid: point_along(path, f) for mid, path in self.moves.items()}

    def rest(self) -> tuple[Battlefield, Geometry]:
        """The step's table without the moved models, and its snapshot (made once)."""
        if self._rest is None:
            st = self.step.state.without_models(self.moves)
            self._rest = (st, snapshot(st))
        return self._rest

    def background(self, size: tuple[int, int], view: View, *, events: Any = None,
                   overlays: Iterable[str] = DEFAULT_STEP_OVERLAYS,
                   theme: Theme | None = None) -> pygame.Surface:
        """The step drawn as ``draw_step`` draws it (no caption) with the moved models
        left out, ``size`` pixels; drawn once per size, view and overlays."""
        key = (tuple(size), view.scale, view.origin_x, view.origin_y, frozenset(overlays), id(theme))
        if self._background is not None and self._background[0] == key:
            return self._background[1]
        st, geo = self.rest()
        ghost = with_keys(replace(self.step, state=st), draw_of(self.step))
        img = pygame.Surface(size)
        draw_step(img, ghost, view, geo=geo, theme=theme, events=events, overlays=overlays,
                  caption=False)
        self._background = (key, img)
        return img

    def background_key(self, size: tuple[int, int], view: View, overlays: Iterable[str] = DEFAULT_STEP_OVERLAYS,
                       theme: Theme | None = None) -> tuple:
        """What ``background`` keeps its picture by."""
        return (tuple(size), view.scale, view.origin_x, view.origin_y, frozenset(overlays), id(theme))

    def kept_background(self, key: tuple) -> pygame.Surface | None:
        """The background drawn for ``key`` (``background_key``), or None."""
        return self._background[1] if self._background is not None and self._background[0] == key else None

    def background_pieces(self, img: pygame.Surface, view: View, *, events: Any = None,
                          overlays: Iterable[str] = DEFAULT_STEP_OVERLAYS, theme: Theme | None = None):
        """``background`` drawn on ``img`` in pieces (``render.steps.step_pieces``; first
        the snapshot without the moved models), kept once done."""
        yield sum(len(u.models) for u in self.step.state.units) // (5 * BASES_PER_WORK)
        st, geo = self.rest()
        ghost = with_keys(replace(self.step, state=st), draw_of(self.step))
        yield from step_pieces(img, ghost, view, geo=geo, theme=theme, events=events, overlays=overlays,
                               caption=False)
        self._background = (self.background_key(img.get_size(), view, overlays, theme), img)

    def draw(self, surface: pygame.Surface, view: View, theme: Theme | None = None) -> None:
        """Each moved model's base at ``positions()`` (its facing as it ends the step), in
        its player's colour, over whatever ``surface`` shows."""
        theme = theme or DEFAULT_THEME
        state = self.step.state
        colours = theme.player_colours(state)
        for mid, (x, y) in self.positions().items():
            m = state.model(mid)
            at = m.moved_to(x, y)
            col = colours.get(state.owner(mid), (128, 128, 128))
            draw_base(surface, view, base_polygon(m.base, x, y, m.facing_deg), at, col, theme)
