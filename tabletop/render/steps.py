"""Teaching frames: draw one ``Step`` of a phase, or save every step as PNGs.

A ``Step`` (``tabletop.rules.events``) carries the state after the step and
a free-form ``draw`` dict.  ``draw_step`` draws the board for ``step.state``
and then each key of ``step.draw`` through a registry, so a ruleset can plug
in its own keys with ``register_drawer(key, fn)``.  The generic keys
(coordinates in inches, colours by name or hex):

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
from tabletop.render import prims
from tabletop.render.board import Canvas, board_canvas, draw_base, ring_model
from tabletop.render.image import save_png
from tabletop.render.theme import DEFAULT_THEME, Theme, shade
from tabletop.render.view import View

DrawFn = Callable[[Canvas, Any], None]

DEFAULT_STEP_OVERLAYS = frozenset({"contact", "coherency", "overlaps"})
"""Named default: overlays shown in teaching frames."""

CAPTION_EVENTS = 6
"""Named default: how many of a step's last events the caption lists."""

FRAME_SIZE = (1400, 1000)
"""Named default: pixel size of saved frames."""

_DRAWERS: dict[str, tuple[DrawFn, str]] = {}


def register_drawer(key: str, fn: DrawFn, layer: str = "over") -> DrawFn:
    """Teach ``draw_step`` a ``step.draw`` key: ``fn(canvas, value)``.

    ``layer`` is ``"under"`` (before the bases) or ``"over"`` (after them,
    before the unit labels).  Registering a key again replaces its drawer.

    Raises
    ------
    ValueError
        ``layer`` is neither.
    """
    if layer not in ("under", "over"):
        raise ValueError(f"layer must be 'under' or 'over', got {layer!r}")
    _DRAWERS[key] = (fn, layer)
    return fn


def drawer_keys() -> list[str]:
    """The ``step.draw`` keys a drawer is registered for."""
    return sorted(_DRAWERS)


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


def _draw_reach(c: Canvas, value: dict) -> None:
    t = c.theme
    for mid, spec in (value or {}).items():
        x, y, dist = float(spec[0]), float(spec[1]), float(spec[2])
        m = _model_or_none(c, mid)
        if m is None:
            base, facing = parse_base("32mm"), 90.0
        else:
            base, facing = m.base, m.facing_deg
        poly = reach_polygon(base, x, y, facing, dist)
        pts = c.pts(poly.exterior.coords)
        prims.fill_polygon(c.surface, pts, (*t.reach, 18))
        prims.dashed_polyline(c.surface, pts, t.reach, 2, 9, 6, closed=True)
        top = min(pts, key=lambda p: p[1])
        prims.outlined_text(c.surface, f'{dist:g}"', t.font_small, t.reach, (255, 255, 255),
                            (top[0], top[1] - 8))


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


for _key, _fn, _layer in (
        ("ghosts", _draw_ghosts, "under"), ("reach", _draw_reach, "under"),
        ("casualties", _draw_casualties, "under"), ("closest", _draw_closest, "under"),
        ("lines", _draw_lines, "over"), ("arrows", _draw_arrows, "over"),
        ("highlight", _draw_highlight, "over"), ("selected", _draw_selected, "over"),
        ("selected_unit", _draw_selected_unit, "over")):
    register_drawer(_key, _fn, _layer)


# ---------------------------------------------------------------- caption
def _short(v: Any, limit: int = 40) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        s = f"{v:.2f}".rstrip("0").rstrip(".")
    elif isinstance(v, dict):
        s = f"{len(v)} entries"
    elif isinstance(v, (list, tuple)):
        s = "[" + ", ".join(_short(x, 12) for x in v[:8]) + (", ..." if len(v) > 8 else "") + "]"
    else:
        s = str(v)
    return s if len(s) <= limit else s[:limit - 1] + "…"


def describe_event(ev) -> str:
    """One line for an event: rolls as ``purpose: dice +mods vs target -> result``."""
    data = dict(getattr(ev, "data", {}) or {})
    if ev.type == "roll":
        parts = [str(data.pop("purpose", "roll")) + ":"]
        if "dice" in data:
            parts.append(_short(data.pop("dice")))
        mods = data.pop("modifiers", None)
        if mods:
            parts.append(f"mods {_short(mods)}")
        if "target" in data and data["target"] is not None:
            parts.append(f"vs {_short(data.pop('target'))}")
        if "result" in data:
            parts.append(f"-> {_short(data.pop('result'))}")
        return " ".join(parts)
    if ev.type in ("pile_in", "consolidate") and isinstance(data.get("moves"), dict):
        moves = data.pop("moves")
        rest = ", ".join(f"{k} {_short(v)}" for k, v in data.items())
        return f"{ev.type}: {rest}, {len(moves)} model{'s' * (len(moves) != 1)} moved"
    return f"{ev.type}: " + ", ".join(f"{k} {_short(v)}" for k, v in data.items())


def caption_lines(step, events: Sequence | None, theme: Theme, width: int) -> list[tuple[str, int]]:
    """The caption's ``(text, font size)`` lines: title, rule, the step's last events."""
    lines = [(prims.fit_text(step.title, theme.font_caption, width), theme.font_caption)]
    if step.rule:
        lines.append((prims.fit_text(step.rule, theme.font_small, width), theme.font_small))
    evs = _step_events(step, events)
    if len(evs) > CAPTION_EVENTS:
        lines.append((f"... {len(evs) - CAPTION_EVENTS} earlier event(s)", theme.font_small))
    for ev in evs[-CAPTION_EVENTS:]:
        lines.append((prims.fit_text(describe_event(ev), theme.font_small, width), theme.font_small))
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
    """Draw one teaching step: the board for ``step.state``, each ``step.draw``
    key through its registered drawer, then the caption plate.

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
    draw = dict(step.draw or {})

    def layer(name: str):
        def run(c: Canvas) -> None:
            c.step = step  # type: ignore[attr-defined]
            for key, value in draw.items():
                entry = _DRAWERS.get(key)
                if entry is not None and entry[1] == name:
                    entry[0](c, value)
        return run

    board_canvas(surface, step.state, geo, view, overlays=overlays, theme=theme,
                 selected_unit=draw.get("selected_unit"), under=layer("under"), over=layer("over"))
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
    d = step.draw or {}
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


def view_for_box(box, width_px: int, height_px: int, margin_px: int = 36, top_px: int = 0) -> View:
    """A view showing the table rectangle ``box`` (inches) centred in the pixel area."""
    x0, y0, x1, y1 = box
    scale = min((width_px - 2 * margin_px) / max(1e-6, x1 - x0),
                (height_px - 2 * margin_px) / max(1e-6, y1 - y0))
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    return View(scale, width_px / 2.0 - cx * scale, top_px + height_px / 2.0 + cy * scale)


def save_frames(steps: Sequence, folder: str, events: Sequence | None = None,
                size: tuple[int, int] = FRAME_SIZE, *, overlays: Iterable[str] = DEFAULT_STEP_OVERLAYS,
                theme: Theme | None = None, zoom: bool = True) -> list[str]:
    """Write each step as ``folder/001-<slug of title>.png`` and return the paths.

    Every frame shows the same part of the table, below its caption: with
    ``zoom`` the area round everything the steps draw (``focus_box``), else
    the whole table.  ``folder`` is made when missing.

    Raises
    ------
    OSError
        When the folder cannot be made or a frame cannot be written.
    ValueError
        An unknown overlay name.
    """
    os.makedirs(folder, exist_ok=True)
    w, h = size
    paths = []
    box = focus_box(steps) if zoom else None
    top = max((caption_height(step, events, w, theme) for step in steps), default=0)
    for k, step in enumerate(steps, start=1):
        table = step.state.table
        view = view_for_box(box or (0.0, 0.0, table.width, table.depth), w, h - top, 36, top)
        surface = pygame.Surface((w, h))
        draw_step(surface, step, view, theme=theme, events=events, overlays=overlays, caption=False)
        surface.fill((theme or DEFAULT_THEME).background, pygame.Rect(0, 0, w, top))
        draw_caption(surface, step, events, theme)
        paths.append(save_png(surface, os.path.join(folder, f"{k:03d}-{slug(step.title)}.png")))
    return paths


# rulesets' own drawers register themselves when imported (additive: one module per ruleset)
RULESET_DRAWERS = ("tabletop.render.rank_and_flank",)
for _module in RULESET_DRAWERS:
    try:
        __import__(_module)
    except ModuleNotFoundError as _exc:  # a ruleset whose drawers are not built
        if _exc.name != _module:
            raise
