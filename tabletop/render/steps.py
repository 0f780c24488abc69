"""Teaching frames: draw one ``Step`` of a phase, or save every step as PNGs.

A ``Step`` (``tabletop.rules.events``) carries the state before and after the
step and its typed events; ``render.step_draw.draw_of`` works out its draw keys
from them.  ``draw_step`` draws the board for ``step.state`` and then each
draw key through ``DRAWERS``, the one table of
drawers, built in this module from the generic drawers below and the
rulesets' own tables (``render.rank_and_flank.DRAWERS``,
``render.challenges.DRAWERS``); nothing registers itself at import time.
The generic keys (coordinates in inches, colours by name or hex):

``arrows``        {model id: [[x, y], ...]} the model's path, an arrow, its length labelled;
                  or {model id: {"path": [...], "colour": name}}
``reach``         {model id: [x, y, distance]} dashed outline of where the base's edge can
                  reach from (x, y): the base grown by ``distance`` (e.g. 3" of pile-in)
``lines``         [[[x1, y1], [x2, y2], colour], ...] e.g. closest-target lines
``closest``       {model id: target id} a dashed line to the closest target (model or objective)
``highlight``     {model id: colour} a ring round each base
``selected``      model id, ringed
``selected_unit`` unit id: thick outline and a marked label
``casualties``    [[x, y, base text], ...] ([x, y, base, facing] too) a cross where a model
                  was removed
``ghosts``        {model id: [x, y, facing]} the base drawn faintly at its start position
``focus``         [[x, y], ...] points the frames keep in view (nothing drawn)

Keys no drawer knows are skipped.  A drawer is ``fn(canvas, value)`` where
``canvas`` is a ``board.Canvas`` (surface, view, theme, state, geo) with
``canvas.step`` set; ``layer="under"`` drawers run before the bases are
drawn, ``"over"`` ones after.
"""

from __future__ import annotations

import itertools
import math
import os
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pygame

from tabletop.board.bases import parse_base
from tabletop.geometry import Geometry, snapshot
from tabletop.geometry.footprints import base_polygon, reach_polygon
from tabletop.render import challenges as challenge_drawers
from tabletop.render import prims
from tabletop.render import rank_and_flank as rnf_drawers
from tabletop.render.board import (
    Canvas,
    board_canvas,
    draw_base,
    draw_static,
    make_canvas,
    ring_model,
)
from tabletop.render.framing import action_points, frame_box, view_for_box
from tabletop.render.image import save_png
from tabletop.render.inset import draw_inset, draw_scale_bar, inset_size, scale_bar_size
from tabletop.render.step_draw import draw_of
from tabletop.render.theme import DEFAULT_THEME, Theme, shade
from tabletop.render.view import View
from tabletop.rules.describe import describe, roller, words

DrawFn = Callable[[Canvas, Any], None]

DEFAULT_STEP_OVERLAYS = frozenset({"contact", "coherency", "overlaps"})
"""Named default: overlays shown in teaching frames."""

CAPTION_EVENTS = 7
"""Named default: how many event sentences a caption lists (the most telling, see ``caption_sentences``)."""

FRAME_SIZE = (1400, 1000)
"""Named default: pixel size of saved frames."""

LAYERS = ("under", "over")
"""``"under"`` drawers run before the bases are drawn, ``"over"`` ones after them (before the
unit labels)."""


def drawer_keys() -> list[str]:
    """The draw keys (``step_draw.draw_of``) a drawer is known for."""
    return sorted(DRAWERS)


# ---------------------------------------------------------------- generic drawers
def _model_or_none(c: Canvas, mid: str):
    try:
        return c.state.model(mid)
    except KeyError:
        return None


def _draw_arrows(c: Canvas, value: dict) -> None:
    t = c.theme
    for path in (value or {}).values():
        colour = t.arrow
        if isinstance(path, dict):
            colour = t.colour(path.get("colour"), t.arrow)
            path = path.get("path", [])
        pts = [(float(p[0]), float(p[1])) for p in path]
        if len(pts) < 2:
            continue
        length = sum(math.hypot(x2 - x1, y2 - y1) for (x1, y1), (x2, y2) in itertools.pairwise(pts))
        prims.arrow(c.surface, c.pts(pts), colour, 3, max(10.0, c.px(0.45)))
        mx, my = c.pt(*pts[len(pts) // 2]) if len(pts) > 2 else c.pt(
            (pts[0][0] + pts[-1][0]) / 2, (pts[0][1] + pts[-1][1]) / 2)
        label = f'{length:.1f}"'
        x1, y1 = c.pt(*pts[-2])
        x2, y2 = c.pt(*pts[-1])
        d = math.hypot(x2 - x1, y2 - y1) or 1.0
        nx, ny = -(y2 - y1) / d, (x2 - x1) / d   # screen normal of the last leg
        tw, th = prims.font(t.font_small).size(label)
        off = abs(nx) * tw / 2 + abs(ny) * th / 2 + 7   # clear of the shaft whatever its angle
        prims.outlined_text(c.surface, label, t.font_small, colour, (255, 255, 255),
                            (mx + nx * off, my + ny * off))


REACH_FILL_ALPHA = 26
"""Named default: opacity (0-255) of the area the moving models can reach."""


REACH_EDGE_EVERY_PX = 6
"""Named default: the dashed edge round a reach area follows its outline through a point
every this many pixels (``Mask.outline``): the reach is round or near it, so a 6 px chord
strays under 0.2 px from a 30 px radius, and the dashes are drawn a third as often as
with a point every 2 px (a band of a step's picture drew them in 12 ms)."""

REACH_CACHE_SHAPES = 256
"""Named default: reach outlines (``footprints.reach_polygon``, inches) kept by base,
place, facing and distance; a step's picture is drawn in several passes (its layout, its
bands, the slide's background) and each would grow the same bases again."""

_REACH: dict[tuple, list[tuple[float, float]]] = {}


def _reach_coords(base, x: float, y: float, facing: float, dist: float) -> list[tuple[float, float]]:
    """The exterior of ``reach_polygon(base, x, y, facing, dist)`` (inches), cached."""
    key = (base, x, y, facing, dist)
    pts = _REACH.get(key)
    if pts is None:
        if len(_REACH) >= REACH_CACHE_SHAPES:
            _REACH.pop(next(iter(_REACH)))
        pts = _REACH[key] = list(reach_polygon(base, x, y, facing, dist).exterior.coords)
    return pts


def _draw_reach(c: Canvas, value: dict) -> None:
    """Where the moving models can reach: each model's reach (its base grown by the
    distance) filled once as one area with a dashed edge round the whole of it, each
    model's own outline faint inside, and the distance labelled once per distinct
    distance above the top-most outline."""
    t = c.theme
    shapes: dict[float, list[list[tuple[float, float]]]] = {}
    for mid, spec in (value or {}).items():
        x, y, dist = float(spec[0]), float(spec[1]), float(spec[2])
        m = _model_or_none(c, mid)
        if m is None:
            base, facing = parse_base("32mm"), 90.0
        else:
            base, facing = m.base, m.facing_deg
        shapes.setdefault(dist, []).append(c.pts(_reach_coords(base, x, y, facing, dist)))
    for dist, polys in shapes.items():
        area = prims.bbox([p for pts in polys for p in pts], 3).clip(c.surface.get_rect())
        if area.w <= 0 or area.h <= 0:
            continue
        top = min((p for pts in polys for p in pts), key=lambda p: p[1])
        label = f'{dist:g}" reach'
        tw, th = prims.font(t.font_small).size(label)
        text = pygame.Rect(0, 0, tw + 4, th + 4)
        text.center = (round(top[0]), round(top[1] - 9))
        if not c.draw_area().colliderect(area.union(text)):
            continue        # a pass that draws none of its pixels (a band elsewhere)
        layer = pygame.Surface(area.size, pygame.SRCALPHA)
        for pts in polys:
            pygame.draw.polygon(layer, (*t.reach, 255), [(px - area.x, py - area.y) for px, py in pts])
        edges = pygame.mask.from_surface(layer).connected_components()
        layer.set_alpha(REACH_FILL_ALPHA)
        c.surface.blit(layer, area.topleft)
        if len(polys) > 1:
            for pts in polys:
                prims.outline(c.surface, pts, (*t.reach, 70), 1)
        for comp in edges:
            ring = [(px + area.x, py + area.y) for px, py in comp.outline(REACH_EDGE_EVERY_PX)]
            if len(ring) > 2:
                prims.dashed_polyline(c.surface, ring, t.reach, 2, 9, 6, closed=True)
        prims.outlined_text(c.surface, label, t.font_small, t.reach, (255, 255, 255),
                            (top[0], top[1] - 9))


def _draw_lines(c: Canvas, value: Sequence) -> None:
    t = c.theme
    for item in value or []:
        if len(item) < 2:
            continue
        colour = t.colour(item[2] if len(item) > 2 else None, t.engagement)
        a, b = c.pt(*item[0][:2]), c.pt(*item[1][:2])
        pygame.draw.line(c.surface, (255, 255, 255), a, b, 5)
        pygame.draw.line(c.surface, colour, a, b, 3)
        prims.disc(c.surface, a, 3.5, colour)
        prims.disc(c.surface, b, 3.5, colour)


def _draw_closest(c: Canvas, value: dict) -> None:
    t = c.theme
    for mid, target in (value or {}).items():
        m = _model_or_none(c, mid)
        if m is None or target is None:
            continue
        if isinstance(target, (list, tuple)):
            tx, ty = float(target[0]), float(target[1])
        else:
            objectives = {o.id: o.at for o in c.state.objectives}
            if str(target) in set(c.geo.ids):
                tm = c.geo.model(str(target))
                tx, ty = tm.x, tm.y
            elif str(target) in objectives:
                tx, ty = objectives[str(target)]
            else:
                continue  # a target no longer on the table: nothing to point at
        prims.dashed_polyline(c.surface, [c.pt(m.x, m.y), c.pt(tx, ty)], t.engagement, 2, 6, 4)


def _draw_highlight(c: Canvas, value: dict) -> None:
    ids = set(c.geo.ids)
    for mid, colour in (value or {}).items():
        if mid in ids:
            ring_model(c, mid, c.theme.colour(colour, c.theme.selected), 3)


def _draw_selected(c: Canvas, value: str) -> None:
    if value and value in set(c.geo.ids):
        ring_model(c, value, c.theme.selected, 3)


def _draw_selected_unit(c: Canvas, value: str) -> None:
    """Drawn by the board (``selected_unit``); nothing more here."""


def _draw_casualties(c: Canvas, value: Sequence) -> None:
    t = c.theme
    for item in value or []:
        x, y = float(item[0]), float(item[1])
        try:
            base = parse_base(str(item[2])) if len(item) > 2 else parse_base("32mm")
        except ValueError:
            base = parse_base("32mm")
        facing = float(item[3]) if len(item) > 3 else 90.0
        pts = c.pts(base_polygon(base, x, y, facing).exterior.coords)
        prims.fill_polygon(c.surface, pts, (255, 255, 255, 90))
        prims.dashed_polyline(c.surface, pts, shade(t.casualty, 0.8), 2, 5, 4, closed=True)
        size = max(5.0, c.px(min(base.along, base.across)) * 0.32)
        prims.cross(c.surface, c.pt(x, y), size + 1, (255, 255, 255), 6)
        prims.cross(c.surface, c.pt(x, y), size, t.casualty, 3)


def _draw_ghosts(c: Canvas, value: dict) -> None:
    for mid, spec in (value or {}).items():
        m = _model_or_none(c, mid)
        if m is None:
            continue
        x, y = float(spec[0]), float(spec[1])
        facing = float(spec[2]) if len(spec) > 2 else m.facing_deg
        ghost = m.moved_to(x, y, facing)
        col = c.player_colour(mid)
        fp = base_polygon(m.base, x, y, facing)
        draw_base(c.surface, c.view, fp, ghost, col, c.theme, alpha=80)
        prims.dashed_polyline(c.surface, c.pts(fp.exterior.coords), shade(col, 0.6), 1, 4, 3, closed=True)


GENERIC_DRAWERS: dict[str, tuple[DrawFn, str]] = {
    "ghosts": (_draw_ghosts, "under"), "reach": (_draw_reach, "under"),
    "casualties": (_draw_casualties, "under"), "closest": (_draw_closest, "under"),
    "lines": (_draw_lines, "over"), "arrows": (_draw_arrows, "over"),
    "highlight": (_draw_highlight, "over"), "selected": (_draw_selected, "over"),
    "selected_unit": (_draw_selected_unit, "over"),
}
"""The generic draw keys (``step_draw.draw_of``) (module docstring): ``{key: (fn(canvas, value), layer)}``."""

DRAWERS: dict[str, tuple[DrawFn, str]] = {
    **GENERIC_DRAWERS, **rnf_drawers.DRAWERS, **challenge_drawers.DRAWERS}
"""Every draw key (``step_draw.draw_of``) ``draw_step`` draws: ``{key: (fn(canvas, value), layer)}``, layer in
``LAYERS``; the generic keys, then the rank-and-flank and challenge ones (distinct keys)."""


# ---------------------------------------------------------------- caption
CAPTION_DETAIL_TYPES = frozenset({"wounded", "removed", "no_save"})
"""Named default: event types the caption drops first when a step has more events than
``CAPTION_EVENTS`` (the ``attacks_resolved`` summary names the models removed)."""

CAPTION_CONTEXT_TYPES = frozenset({"combat_step", "pass", "phase_step"})
"""Named default: event types the caption drops next (the frame's title says as much)."""

CAPTION_NOUNS = {"wounded": ("wound", "wounds"), "removed": ("casualty", "casualties"),
                 "no_save": ("wound with no save", "wounds with no save"),
                 "roll": ("roll", "rolls"), "combat_step": ("combat step", "combat steps"),
                 "pass": ("pass", "passes"), "phase_step": ("phase step", "phase steps")}
"""Named default: how the caption counts the events it leaves out, by type."""

CAPTION_WRAP_LINES = 2
"""Named default: a long event sentence wraps onto at most this many caption lines."""


def describe_event(ev) -> str:
    """One sentence for an event: ``tabletop.rules.describe.describe`` (kept for callers
    of the old name)."""
    return describe(ev)


def _roll_group_key(ev):
    """Single-die rolls of one kind, player and target (a run of saves) share a key."""
    if ev.type != "roll" or len(ev.get("dice") or []) != 1:
        return None
    kind = str(ev.get("purpose") or "roll").partition(": ")[0]
    return (kind, ev.get("player"), ev.get("target"), tuple(sorted((ev.get("modifiers") or {}).items())))


def _roll_group_text(evs) -> str:
    """``Armour saves (orks): 8 rolls needing 6+ -> 1 saved, 7 failed.``"""
    first = evs[0]
    kind = str(first.get("purpose") or "roll").partition(": ")[0]
    kinds = kind + ("s" if not kind.endswith(("s", ")")) else "")
    target = first.get("target")
    need = f" needing {target}+" if isinstance(target, int) else ""
    mods = first.get("modifiers") or {}
    mod = (", " + ", ".join(f"{k} {v:+d}" if isinstance(v, int) else f"{k} {v}" for k, v in mods.items())
           if mods else "")
    counts: dict[str, int] = {}
    for e in evs:
        counts[str(e.get("result"))] = counts.get(str(e.get("result")), 0) + 1
    results = ", ".join(f"{n} {r}" for r, n in counts.items())
    faces = " ".join(str(e["dice"][0]) for e in evs)
    return f"{roller(kinds, first.get('player'))}{mod}: rolled {faces}{need} -> {results}."


def caption_sentences(evs: Sequence) -> list[str]:
    """The caption's sentences for a step's events, in order: each event in words
    (``describe``), a run of single-die rolls of one kind (saves) as one sentence,
    and - when there are more than ``CAPTION_EVENTS`` - the detail types
    (``CAPTION_DETAIL_TYPES``) dropped first, then the context types
    (``CAPTION_CONTEXT_TYPES``), then the earliest, with a last sentence
    counting what was left out by type."""
    groups: dict[tuple, list] = {}
    for ev in evs:
        key = _roll_group_key(ev)
        if key is not None:
            groups.setdefault(key, []).append(ev)
    items: list[tuple[int, str, str]] = []   # (drop rank, sentence, event type)
    done: set[tuple] = set()
    for ev in evs:
        key = _roll_group_key(ev)
        if key is not None and len(groups[key]) > 1:
            if key not in done:
                done.add(key)
                items.append((0, _roll_group_text(groups[key]), "roll"))
            continue
        text = describe(ev)
        if text:
            rank = 2 if ev.type in CAPTION_DETAIL_TYPES else 1 if ev.type in CAPTION_CONTEXT_TYPES else 0
            items.append((rank, text, ev.type))
    if len(items) <= CAPTION_EVENTS:
        return [t for _, t, _ in items]
    # keep the CAPTION_EVENTS - 1 most telling: lowest rank first, then the latest
    order = sorted(range(len(items)), key=lambda k: (items[k][0], -k))
    kept = sorted(order[:CAPTION_EVENTS - 1])
    left: dict[str, int] = {}
    for k, it in enumerate(items):
        if k not in kept:
            left[it[2]] = left.get(it[2], 0) + 1
    return [items[k][1] for k in kept] + [f"Not shown here (see the log): {_counted(left)}."]


def _counted(counts: dict[str, int]) -> str:
    parts = []
    for t, n in counts.items():
        one, many = CAPTION_NOUNS.get(t, (None, None))
        parts.append(f"{n} {one if n == 1 else many}" if one else f"{n} x {words(t).lower()}")
    return ", ".join(parts)


def caption_lines(step, events: Sequence | None, theme: Theme, width: int) -> list[tuple[str, int]]:
    """The caption's ``(text, font size)`` lines: title, rule, the step's events in words."""
    lines = [(prims.fit_text(step.title, theme.font_caption, width), theme.font_caption)]
    if step.rule:
        lines.append((prims.fit_text(step.rule, theme.font_small, width), theme.font_small))
    for text in caption_sentences(_step_events(step, events)):
        for part in prims.wrap_text(text, theme.font_caption_text, width, CAPTION_WRAP_LINES):
            lines.append((part, theme.font_caption_text))
    return lines


def _step_events(step, events) -> list:
    if events is None:
        return []
    evs = getattr(events, "events", events)
    return [evs[i] for i in step.events if 0 <= i < len(evs)]


def caption_height(step, events, width: int, theme: Theme | None = None) -> int:
    """Pixels the caption plate of ``step`` takes at the top of a ``width`` px surface."""
    theme = theme or DEFAULT_THEME
    return prims.text_size(caption_lines(step, events, theme, width - 40), pad=8, spacing=2)[1] + 16


def draw_caption(surface, step, events=None, theme: Theme | None = None) -> pygame.Rect:
    """The caption plate at the top left: title, rule clause, the step's last events."""
    theme = theme or DEFAULT_THEME
    lines = caption_lines(step, events, theme, surface.get_width() - 40)
    colours = [theme.caption_text] + ([theme.caption_rule] if step.rule else [])
    colours += [shade(theme.caption_text, 0.85)] * (len(lines) - len(colours))
    return prims.text_plate(surface, lines, (8, 8), theme.caption_text, theme.caption_plate,
                            None, pad=8, spacing=2, colours=colours)


# ---------------------------------------------------------------- steps and frames
def draw_step(surface: pygame.Surface, step, view: View, *, geo: Geometry | None = None,
              theme: Theme | None = None, events: Sequence | None = None,
              overlays: Iterable[str] = DEFAULT_STEP_OVERLAYS, caption: bool = True) -> None:
    """Draw one teaching step: the board for ``step.state``, each of its draw keys
    (``step_draw.draw_of``) through its registered drawer, then the caption plate.

    Parameters
    ----------
    step : tabletop.rules.events.Step
    view : View
    geo : Geometry or None
        ``snapshot(step.state)``; computed when None.
    events : list of Event, or EventLog, or None
        The whole log; the caption lists the events in ``step.events``.
    overlays : set of str
        Board overlays (``board.OVERLAYS``), ``DEFAULT_STEP_OVERLAYS`` by default.
    caption : bool
        Draw the caption plate at the top left.

    Raises
    ------
    ValueError
        An unknown overlay name.
    """
    geo = geo if geo is not None else snapshot(step.state)
    draw, under, over = _layers(step)
    board_canvas(surface, step.state, geo, view, overlays=overlays, theme=theme,
                 selected_unit=draw.get("selected_unit"), under=under, over=over)
    if caption:
        draw_caption(surface, step, events, theme)


def _layers(step):
    """``(draw keys, under(canvas), over(canvas))``: the step's drawers of each layer."""
    draw = dict(draw_of(step))

    def layer(name: str):
        def run(c: Canvas) -> None:
            c.step = step  # type: ignore[attr-defined]
            c.draw = draw  # type: ignore[attr-defined]
            for key, value in draw.items():
                entry = DRAWERS.get(key)
                if entry is not None and entry[1] == name:
                    entry[0](c, value)
        return run

    return draw, layer("under"), layer("over")


BASES_PER_BAND = 100
"""Named default: when a step's picture is built over several frames (``step_pieces``) it
is drawn in horizontal bands, one band for about this many bases on the surface (a
1,000-model table seen whole: 7 bands, each some 8 ms on an idle core); a small table is
one band."""

STATIC_WORK = 4
"""Named default: the work ``step_pieces`` counts for the table's layer (terrain, zones,
grid, objectives; drawn again at each new scale, ``board.draw_static``)."""

BAND_MARGIN_PX = 4
"""Pixels above and below each band also drawn (and thrown away): where a line crosses the
edge of a clip pygame anti-aliases the edge pixels a shade apart from a whole drawing."""

BASES_PER_WORK = 10
"""Named default: the work ``step_pieces`` counts, in units of one unit label placed
(``place_label``): the layout pass (the table layer at a new scale, the drawers and
overlays run with nothing drawn, the bases listed) 1 + one per ``5 * BASES_PER_WORK``
models, each label 1, each band 1 + one per ``BASES_PER_WORK`` bases it draws.  A window
does up to its frame's share (``app.step_build.STEP_WORK_PER_FRAME``).  Counted, never
timed."""


def step_pieces(surface: pygame.Surface, step, view: View, *, geo: Geometry | None = None,
                theme: Theme | None = None, events: Sequence | None = None,
                overlays: Iterable[str] = DEFAULT_STEP_OVERLAYS, caption: bool = True,
                bands: int | None = None):
    """``draw_step`` in pieces: a generator that yields the work of its next piece
    (``BASES_PER_WORK``) before doing it, so a caller can stop before a piece that would not
    fit its frame and resume the next frame.  Once exhausted, ``surface`` holds exactly
    what ``draw_step`` draws (the labels placed once, over every base, then the picture
    drawn band by band, each a pass clipped to its band, ``board_canvas(clip=...)``;
    ``bands``: how many, None: one per ``BASES_PER_BAND`` bases on the surface).

    Raises
    ------
    ValueError
        An unknown overlay name (on the first piece).
    """
    geo = geo if geo is not None else snapshot(step.state)
    draw, under, over = _layers(step)
    sel = draw.get("selected_unit")
    yield STATIC_WORK
    draw_static(make_canvas(surface, step.state, geo, view, theme))   # kept for the passes below
    yield 1 + len(geo.ids) // (5 * BASES_PER_WORK)
    c = board_canvas(surface, step.state, geo, view, overlays=overlays, theme=theme,
                     selected_unit=sel, under=under, over=over, clip=pygame.Rect(0, 0, 0, 0),
                     defer_labels=True)
    job = c.job
    while job is not None:
        yield 1
        try:
            next(job)
        except StopIteration:
            break
    w, h = surface.get_size()
    n = max(1, -(-len(c.bases) // BASES_PER_BAND)) if bands is None else max(1, int(bands))
    band_h = -(-h // n)
    # each band drawn on a scratch image clipped a little wider and only the band copied:
    # a line crossing a clip's edge is anti-aliased a shade differently in the pixels at
    # that edge, which stay in the margin
    scratch = pygame.Surface((w, h)) if n > 1 else surface
    for k in range(n):
        band = pygame.Rect(0, k * band_h, w, band_h).clip(surface.get_rect())
        yield 1 + len(band.collidelistall(c.bases)) // BASES_PER_WORK
        board_canvas(scratch, step.state, geo, view, overlays=overlays, theme=theme,
                     selected_unit=sel, under=under, over=over,
                     clip=band.inflate(0, 2 * BAND_MARGIN_PX) if n > 1 else None, labels=c.placed)
        if n > 1:
            surface.blit(scratch, band.topleft, band)
    if caption:
        draw_caption(surface, step, events, theme)


def slug(text: str, limit: int = 40) -> str:
    """``"Pile-in: int (12.03)"`` -> ``"pile-in-int-12-03"``."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:limit].strip("-")
    return s or "step"


FOCUS_MARGIN = 6.0
"""Named default: inches of table shown round the action when frames zoom in."""


def _points_of(step) -> list[tuple[float, float]]:
    """Every table point a step's drawing mentions, and the models of its selected unit."""
    pts: list[tuple[float, float]] = []
    d = draw_of(step)
    for path in (d.get("arrows") or {}).values():
        path = path.get("path", []) if isinstance(path, dict) else path
        pts += [(float(p[0]), float(p[1])) for p in path]
    for spec in (d.get("reach") or {}).values():
        x, y, r = float(spec[0]), float(spec[1]), float(spec[2])
        pts += [(x - r, y - r), (x + r, y + r)]
    for spec in (d.get("ghosts") or {}).values():
        pts.append((float(spec[0]), float(spec[1])))
    for item in d.get("casualties") or []:
        pts.append((float(item[0]), float(item[1])))
    for item in d.get("lines") or []:
        pts += [(float(item[0][0]), float(item[0][1])), (float(item[1][0]), float(item[1][1]))]
    pts += [(float(p[0]), float(p[1])) for p in d.get("focus") or []]   # [[x, y], ...] to keep in view
    mids = list((d.get("highlight") or {}).keys()) + list((d.get("closest") or {}).keys())
    if d.get("selected"):
        mids.append(d["selected"])
    for mid in mids:
        try:
            m = step.state.model(mid)
            pts.append((m.x, m.y))
        except KeyError:
            pass
    uid = d.get("selected_unit")
    if uid and step.state.has_unit(uid):
        pts += [(m.x, m.y) for m in step.state.unit(uid).models]
    return pts


def focus_box(steps: Sequence, margin: float = FOCUS_MARGIN):
    """The table rectangle ``(x0, y0, x1, y1)`` (inches) round everything the steps
    draw, grown by ``margin`` and clipped to the table; None when they draw nothing
    placed (then frames show the whole table)."""
    pts = [p for st in steps for p in _points_of(st)]
    if not pts or not steps:
        return None
    table = steps[0].state.table
    x0 = max(0.0, min(p[0] for p in pts) - margin)
    y0 = max(0.0, min(p[1] for p in pts) - margin)
    x1 = min(table.width, max(p[0] for p in pts) + margin)
    y1 = min(table.depth, max(p[1] for p in pts) + margin)
    if x1 - x0 >= table.width * 0.8 and y1 - y0 >= table.depth * 0.8:
        return None
    return (x0, y0, x1, y1)


FRAMINGS = ("step", "phase", "table")
"""How ``save_frames`` frames its pictures: each step round its own action (with an
inset of the whole table when zoomed), every step round the action of all of them
(the single view of old), or always the whole table."""

DEFAULT_FRAMING = "step"
"""Named default: ``save_frames`` zooms each frame to its own step."""

SCALE_BAR_ROOM_PX = 240
"""Named default: the longest a zoomed frame's scale bar may be, pixels."""

FRAME_MARGIN_PX = 36
"""Named default: pixels kept round the table rectangle a frame shows."""


def _inset_corner(board: pygame.Surface, size: tuple[int, int], view: View, pts, pad: int = 10,
                  taken: Sequence[pygame.Rect] = ()) -> pygame.Rect:
    """Where a thumbnail (or the scale bar) of ``size`` goes on the drawn ``board``: of the
    corners not overlapping ``taken``, the one covering the fewest action points
    (screen), then the least drawn detail (colour edges: plates, labels, bases),
    bottom right when it is a tie."""
    w, h = size
    area = board.get_rect()
    corners = [pygame.Rect(area.right - w - pad, area.bottom - h - pad, w, h),
               pygame.Rect(area.right - w - pad, area.top + pad, w, h),
               pygame.Rect(area.left + pad, area.bottom - h - pad, w, h),
               pygame.Rect(area.left + pad, area.top + pad, w, h)]
    corners = [r for r in corners if r.collidelist(list(taken)) < 0] or corners
    screen = [view.to_screen(x, y) for x, y in pts]

    def cost(r: pygame.Rect) -> tuple[int, int]:
        big = r.inflate(40, 40)
        inside = sum(big.collidepoint(p) for p in screen)
        clip = r.clip(area)
        if clip.w < 8 or clip.h < 8:
            return inside, 0
        px = pygame.surfarray.array3d(board.subsurface(clip))[::4, ::4].astype(int)
        edges = int((abs(px[1:] - px[:-1]).sum(axis=2) > 60).sum() + (abs(px[:, 1:] - px[:, :-1]).sum(axis=2) > 60).sum())
        return inside, edges // 8      # a few stray edges (grid lines) do not decide
    return min(corners, key=cost)


def frame_view(step, geo: Geometry, size: tuple[int, int], framing: str = DEFAULT_FRAMING,
               phase_box=None, margin_px: int = FRAME_MARGIN_PX):
    """``(view, box)`` for drawing ``step`` on a board area of ``size`` pixels:
    ``box`` is the table rectangle (inches) shown when zoomed, else None (the
    whole table).  ``framing`` is one of ``FRAMINGS``; ``phase_box`` the
    ``focus_box`` of all steps, for ``"phase"``.

    Raises
    ------
    ValueError
        An unknown ``framing``.
    """
    if framing not in FRAMINGS:
        raise ValueError(f"framing must be one of {', '.join(FRAMINGS)}, got {framing!r}")
    w, h = size
    table = step.state.table
    if framing == "step":
        aspect = max(1, w - 2 * margin_px) / max(1, h - 2 * margin_px)
        box = frame_box(step, geo, table.width, table.depth, aspect)
    elif framing == "phase":
        box = phase_box
    else:
        box = None
    view = view_for_box(box or (0.0, 0.0, table.width, table.depth), w, h, margin_px)
    return view, box


def draw_frame(surface: pygame.Surface, step, events: Sequence | None = None, *,
               framing: str = DEFAULT_FRAMING, overlays: Iterable[str] = DEFAULT_STEP_OVERLAYS,
               theme: Theme | None = None, inset: bool = True, phase_box=None,
               geo: Geometry | None = None):
    """One teaching frame on the whole of ``surface``: the caption plate on top, the
    board below it framed as ``framing`` says (``frame_view``), and - when zoomed -
    a thumbnail of the whole table with the zoom rectangle and a scale bar.
    Returns ``(view, box)`` (the view is relative to the board area below the
    caption, whose top is ``caption_height`` pixels down).

    Raises
    ------
    ValueError
        An unknown overlay name or framing.
    """
    theme = theme or DEFAULT_THEME
    w, h = surface.get_size()
    geo = geo if geo is not None else snapshot(step.state)
    top = caption_height(step, events, w, theme)
    surface.fill(theme.background)
    board_rect = pygame.Rect(0, top, w, max(1, h - top))
    board = surface.subsurface(board_rect)
    view, box = frame_view(step, geo, board_rect.size, framing, phase_box)
    draw_step(board, step, view, geo=geo, theme=theme, events=events, overlays=overlays, caption=False)
    if box is not None:
        table = step.state.table
        pts = action_points(step, geo)
        taken = []
        if inset:
            where = _inset_corner(board, inset_size(w, table.width, table.depth), view, pts)
            uid = draw_of(step).get("selected_unit")
            focus = geo.unit_models(uid) if uid else ()
            taken.append(draw_inset(board, step.state, where, box, theme=theme, focus=focus))
        bar = _inset_corner(board, scale_bar_size(view, SCALE_BAR_ROOM_PX, theme), view, pts, taken=taken)
        draw_scale_bar(board, view, bar.bottomleft, SCALE_BAR_ROOM_PX, theme=theme)
    draw_caption(surface, step, events, theme)
    return view, box


def save_frames(steps: Sequence, folder: str, events: Sequence | None = None,
                size: tuple[int, int] = FRAME_SIZE, *, overlays: Iterable[str] = DEFAULT_STEP_OVERLAYS,
                theme: Theme | None = None, zoom: bool = True, framing: str = DEFAULT_FRAMING,
                inset: bool = True) -> list[str]:
    """Write each step as ``folder/001-<slug of title>.png`` and return the paths.

    Each frame is ``draw_frame``: its caption (the step's title, clause and
    events in words) above the board.  ``framing`` (``FRAMINGS``): ``"step"``
    zooms each frame to its own step's action (``framing.frame_box``; the whole
    table for steps with none, such as a phase starting) with a thumbnail of
    the whole table when zoomed (``inset``); ``"phase"`` shows every frame
    round the action of all the steps (``focus_box``), the single view of old;
    ``"table"`` always the whole table.  ``zoom=False`` is ``"table"``.
    ``folder`` is made when missing, never its parents.

    Raises
    ------
    OSError
        When the folder cannot be made or a frame cannot be written.
    ValueError
        An unknown overlay name or framing.
    """
    if framing not in FRAMINGS:
        raise ValueError(f"framing must be one of {', '.join(FRAMINGS)}, got {framing!r}")
    if not zoom:
        framing = "table"
    if not os.path.isdir(folder):
        os.mkdir(folder)                     # the folder itself only: no command makes parents
    phase_box = focus_box(steps) if framing == "phase" else None
    paths = []
    for k, step in enumerate(steps, start=1):
        surface = pygame.Surface(size)
        draw_frame(surface, step, events, framing=framing, overlays=overlays, theme=theme, inset=inset,
                   phase_box=phase_box)
        paths.append(save_png(surface, os.path.join(folder, f"{k:03d}-{slug(step.title)}.png")))
    return paths
