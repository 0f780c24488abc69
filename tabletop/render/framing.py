"""Which part of the table a teaching frame shows: the action of its own step.

Coordinates are table inches (origin bottom-left, y up) until ``view_for_box``
turns a table rectangle into a ``View``.  No pygame here.

A step's *action* is what it is about: the models it moved (each path from
start to end, the start ghosts and the reach drawn round them), the closest-
target lines, the casualties, the selected model, the selected unit and the
enemy units engaged with it, and any ``focus`` points (``[[x, y], ...]``, drawn
as nothing, for a ruleset to keep something in view).  Engaged-model highlights are not action: the
Fight phase rings every engaged model on the table.  ``FOCUS`` is the one
table of the draw keys (``step_draw.draw_of``) that say where their drawing lies; other keys
add nothing to the frame's window (a ruleset keeps its drawing in view with
``focus`` points).

``step_box`` grows the action's bounding box by ``FOCUS_PAD``, to at least
``FOCUS_MIN_SPAN`` each way; ``fit_box`` widens it to the frame's shape and
keeps it on the table; a frame whose window would hardly be closer than the
whole table (``FOCUS_MIN_GAIN``) shows the whole table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tabletop.render.step_draw import draw_of
from tabletop.render.view import View

Box = tuple[float, float, float, float]
Point = tuple[float, float]
FocusFn = Callable[[Any, Any], Iterable[Point]]

FOCUS_MIN_SPAN = 14.0
"""Named default: inches; a zoomed frame shows at least this much table each way."""

FOCUS_PAD = 2.5
"""Named default: inches of table kept round the action (a base and a bit)."""

FOCUS_MIN_GAIN = 1.4
"""Named default: zoom in only when the frame gets at least this many times closer than
the whole table; below it the whole table is shown (context is worth more)."""

def _xy(p) -> Point:
    return float(p[0]), float(p[1])


def _arrows(step, value) -> list[Point]:
    out: list[Point] = []
    for path in (value or {}).values():
        path = path.get("path", []) if isinstance(path, dict) else path
        out += [_xy(p) for p in path]
    return out


def _reach(step, value) -> list[Point]:
    out: list[Point] = []
    for spec in (value or {}).values():
        x, y, r = float(spec[0]), float(spec[1]), float(spec[2])
        out += [(x - r, y - r), (x + r, y + r)]
    return out


def _ghosts(step, value) -> list[Point]:
    return [_xy(spec) for spec in (value or {}).values()]


def _casualties(step, value) -> list[Point]:
    return [_xy(item) for item in value or []]


def _lines(step, value) -> list[Point]:
    return [p for item in value or [] if len(item) >= 2 for p in (_xy(item[0]), _xy(item[1]))]


def _model_points(step, ids) -> list[Point]:
    out = []
    for mid in ids:
        try:
            out.append(step.state.model(mid).at)
        except KeyError:
            pass
    return out


def _closest(step, value) -> list[Point]:
    return _model_points(step, list((value or {}).keys()))


def _selected(step, value) -> list[Point]:
    return _model_points(step, [value]) if value else []


def _focus(step, value) -> list[Point]:
    return [_xy(p) for p in value or []]


FOCUS: dict[str, FocusFn] = {
    "focus": _focus, "arrows": _arrows, "reach": _reach, "ghosts": _ghosts,
    "casualties": _casualties, "lines": _lines, "closest": _closest, "selected": _selected,
}
"""draw key (``step_draw.draw_of``) -> ``fn(step, value) -> [(x, y), ...]``: the table points (inches) its
drawing covers."""


def action_points(step, geo=None) -> list[Point]:
    """Table points (inches) of everything ``step`` is about (see the module docstring).

    ``geo`` is ``snapshot(step.state)``; without it the selected unit's
    engaged enemies are left out (the unit itself still counts).
    """
    draw = draw_of(step)
    pts: list[Point] = []
    for key, value in draw.items():
        fn = FOCUS.get(key)
        if fn is not None:
            pts += [_xy(p) for p in fn(step, value)]
    uid = draw.get("selected_unit")
    if uid and step.state.has_unit(uid):
        units = [uid]
        if geo is not None:
            units += list(geo.engaged_units(uid))
        for u in units:
            if step.state.has_unit(u):
                pts += [m.at for m in step.state.unit(u).models]
    return pts


def step_box(step, geo=None, *, pad: float = FOCUS_PAD, min_span: float = FOCUS_MIN_SPAN) -> Box | None:
    """The table rectangle ``(x0, y0, x1, y1)`` round ``step``'s action, grown by ``pad``
    and to at least ``min_span`` each way (about its centre); None when the step
    has no action (a phase starting or ending: show the whole table)."""
    pts = action_points(step, geo)
    if not pts:
        return None
    x0 = min(p[0] for p in pts) - pad
    y0 = min(p[1] for p in pts) - pad
    x1 = max(p[0] for p in pts) + pad
    y1 = max(p[1] for p in pts) + pad
    if x1 - x0 < min_span:
        cx = (x0 + x1) / 2
        x0, x1 = cx - min_span / 2, cx + min_span / 2
    if y1 - y0 < min_span:
        cy = (y0 + y1) / 2
        y0, y1 = cy - min_span / 2, cy + min_span / 2
    return (x0, y0, x1, y1)


def fit_box(box: Box, table_w: float, table_d: float, aspect: float) -> Box:
    """``box`` widened (about its centre) to ``aspect`` = width / depth, then slid to
    lie on the table (``table_w`` x ``table_d`` inches); a side longer than the
    table is centred on it."""
    x0, y0, x1, y1 = box
    w, d = x1 - x0, y1 - y0
    if w / max(d, 1e-9) < aspect:
        w = d * aspect
    else:
        d = w / aspect
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2

    def slide(c: float, span: float, size: float) -> float:
        if span >= size:
            return size / 2
        return min(max(c, span / 2), size - span / 2)

    cx, cy = slide(cx, w, table_w), slide(cy, d, table_d)
    return (cx - w / 2, cy - d / 2, cx + w / 2, cy + d / 2)


def zoom_gain(box: Box, table_w: float, table_d: float, aspect: float) -> float:
    """How many times closer a frame of shape ``aspect`` showing ``box`` is than one
    showing the whole table."""
    x0, y0, x1, y1 = box
    whole = min(aspect / table_w, 1.0 / table_d)
    part = min(aspect / max(1e-9, x1 - x0), 1.0 / max(1e-9, y1 - y0))
    return part / whole


def frame_box(step, geo, table_w: float, table_d: float, aspect: float, *,
              pad: float = FOCUS_PAD, min_span: float = FOCUS_MIN_SPAN,
              min_gain: float = FOCUS_MIN_GAIN) -> Box | None:
    """The table rectangle a frame of shape ``aspect`` (width / height, pixels) shows
    for ``step``: its action, fitted (``fit_box``); None for the whole table (no
    action, or a zoom of less than ``min_gain``)."""
    box = step_box(step, geo, pad=pad, min_span=min_span)
    if box is None:
        return None
    box = fit_box(box, table_w, table_d, aspect)
    if zoom_gain(box, table_w, table_d, aspect) < min_gain:
        return None
    return box


def view_for_box(box: Box, width_px: int, height_px: int, margin_px: int = 36, top_px: int = 0,
                 left_px: int = 0) -> View:
    """A view showing the table rectangle ``box`` (inches) centred in the pixel area
    ``(left_px, top_px, width_px, height_px)`` with ``margin_px`` round it."""
    x0, y0, x1, y1 = box
    scale = min((width_px - 2 * margin_px) / max(1e-6, x1 - x0),
                (height_px - 2 * margin_px) / max(1e-6, y1 - y0))
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    return View(scale, left_px + width_px / 2.0 - cx * scale, top_px + height_px / 2.0 + cy * scale)

