"""Draw a Battlefield on a pygame Surface: table, grid, terrain, zones,
objectives, bases true to scale, unit outlines and labels, and overlays.

Coordinates: the state is in inches (origin bottom-left, y up); the
``View`` turns them into screen pixels (it owns the y-flip).  Shapes come
from the geometry snapshot (``Geometry.footprint`` is
``footprints.base_polygon``); this module only reads their coordinates and
never computes geometry of its own beyond screen arithmetic.  It draws on
any Surface and needs no window.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field

import numpy as np
import pygame

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry
from tabletop.layout_io.place import area_centroid
from tabletop.render import prims
from tabletop.render.label_place import eight_around
from tabletop.render.options import OVERLAYS, resolve_overlays  # noqa: F401  (re-exported)
from tabletop.render.theme import DEFAULT_THEME, RGB, Theme, mix, readable_on, shade
from tabletop.render.view import View

LABEL_MARGIN_PX = 34
"""Named default: how far past the table edge a label may sit (the inch labels' margin)."""

LEADER_GAP_PX = 12
"""Named default: a label further than this from its unit's box gets a leader line."""

CORNER_CONTACT_IN = 0.1
"""Named default: a shared stretch of outline this short (inches) is drawn as a corner dot."""

# named default: the roles that get a marker on their base, and the glyph each gets
ROLE_GLYPHS = {"commander": "diamond", "champion": "ring", "standard": "flag", "musician": "dot"}


@dataclass
class LabelsBefore:
    """An earlier pass's unit labels (``Canvas.placed``, same view, size, table and theme)
    and what changed since: ``dirty``, the pixel rects of every base (or other obstacle)
    that moved, went or came, old and new places both; ``units``, the ids of the units
    whose models changed.  A label whose candidate places reach no dirty rect, of a unit
    with the same lines and box, lands where it did (``_place_unit_labels``)."""

    placed: list
    dirty: list[pygame.Rect]
    units: set[str]
    regions: dict[str, pygame.Rect] = field(default_factory=dict)   # Canvas.regions then


@dataclass
class Canvas:
    """What one drawing pass needs: surface, view, theme, state, geometry,
    player colours and the screen rectangles already taken (for labels)."""

    surface: pygame.Surface
    view: View
    theme: Theme
    state: Battlefield
    geo: Geometry
    colours: dict[str, RGB] = field(default_factory=dict)
    taken: list[pygame.Rect] = field(default_factory=list)
    bases: list[pygame.Rect] = field(default_factory=list)
    selected_unit: str | None = None
    step: object = None  # the teaching Step being drawn, if any
    clip: pygame.Rect | None = None   # redrawing only this part (``render.redraw``): the
                                      # surface's clip is set to it; work wholly outside it is skipped
    labels: list | None = None        # the unit labels' placement, when worked out already
    placed: list = field(default_factory=list)   # the unit labels as placed by this pass
    prior: LabelsBefore | None = None  # an earlier pass's placement and what changed since
    regions: dict = field(default_factory=dict)  # unit id -> the rect round its label's candidates
    bases_array: np.ndarray | None = None   # ``c.bases`` as rows (``_bases_array``)
    defer_labels: bool = False        # place no label now: ``job`` places them (``label_steps``)
    job: Generator[None, None, list] | None = None

    def draw_area(self) -> pygame.Rect:
        """The pixels this pass draws: the clip, else the whole surface."""
        return self.clip if self.clip is not None else self.surface.get_rect()

    def pts(self, coords) -> list[tuple[float, float]]:
        return screen_points(self.view, coords)

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return self.view.to_screen(x, y)

    def px(self, inches: float) -> float:
        return self.view.length(inches)

    def player_colour(self, model_or_unit_id: str) -> RGB:
        return self.colours.get(self.state.owner(model_or_unit_id), (128, 128, 128))

    def table_rect(self) -> pygame.Rect:
        x0, y0 = self.pt(0, self.state.table.depth)
        x1, y1 = self.pt(self.state.table.width, 0)
        return pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0))


def make_canvas(surface, state, geo, view, theme=None) -> Canvas:
    theme = theme or DEFAULT_THEME
    return Canvas(surface, view, theme, state, geo, theme.player_colours(state))


def draw_board(surface: pygame.Surface, state: Battlefield, geo: Geometry, view: View, *,
               overlays: Iterable[str] = frozenset(), selected: str | None = None,
               highlight: dict[str, object] | None = None, theme: Theme | None = None) -> None:
    """Draw the whole table onto ``surface`` (fills it first).

    Parameters
    ----------
    surface : pygame.Surface
        Any surface; no window needed.
    state : Battlefield
    geo : Geometry
        ``tabletop.geometry.snapshot(state)``.
    view : View
        Inches -> pixels.
    overlays : set of str
        Names from ``OVERLAYS`` (or ``"all"``).
    selected : str or None
        A model id: ringed, and its unit outlined thick.
    highlight : dict or set
        ``{model id: colour}`` (name, hex or RGB): a ring round each base; a
        set of model ids rings them in the selection colour.
    theme : Theme or None
        ``DEFAULT_THEME`` when None.

    Raises
    ------
    ValueError
        An unknown overlay name.
    """
    board_canvas(surface, state, geo, view, overlays=overlays, selected=selected,
                 highlight=highlight, theme=theme)


def draw_legend(surface: pygame.Surface, state: Battlefield, view: View, rect: pygame.Rect, *,
                overlays: Iterable[str] = frozenset(), theme: Theme | None = None) -> None:
    """The key to the board inside ``rect``; see ``tabletop.render.legend.draw_legend``."""
    from tabletop.render.legend import draw_legend as _draw
    _draw(surface, state, view, rect, overlays=overlays, theme=theme)


def draw_step(surface: pygame.Surface, step, view: View, *, geo: Geometry | None = None,
              theme: Theme | None = None, events=None, **options) -> None:
    """One teaching step (board, draw keys (``step_draw.draw_of``), caption); see
    ``tabletop.render.steps.draw_step``."""
    from tabletop.render.steps import draw_step as _draw
    _draw(surface, step, view, geo=geo, theme=theme, events=events, **options)


def board_canvas(surface, state, geo, view, *, overlays=frozenset(), selected=None, highlight=None,
                 theme=None, selected_unit: str | None = None, under=None, over=None,
                 clip: pygame.Rect | None = None, labels: list | None = None,
                 prior: LabelsBefore | None = None, defer_labels: bool = False) -> Canvas:
    """``draw_board``, returning the Canvas for callers that draw more.

    ``selected_unit`` outlines a unit thick; ``under(canvas)`` draws after the
    unit outlines and before the bases, ``over(canvas)`` after the overlays and
    before the unit labels (the teaching frames use both).

    ``clip`` (pixels): change only the pixels inside it, exactly as a whole drawing
    would have them (the surface's clip is set while drawing, bases and outlines wholly
    outside it are skipped; the unit labels are still placed against every base, so
    they land where a whole drawing puts them).  ``labels``: the placement
    ``Canvas.placed`` of an earlier pass over the same state, view and selection,
    reused instead of placing the labels again (``render.redraw``); ``prior``: an
    earlier placement and what changed since (``LabelsBefore``), so that only the labels
    near a change are placed again (the same places a placement afresh gives).
    ``defer_labels``: no unit label is placed or drawn; ``Canvas.job`` is the placement
    still to do (``label_steps``), for a caller that spreads it over several frames."""
    on = resolve_overlays(overlays)
    c = make_canvas(surface, state, geo, view, theme)
    c.clip, c.labels, c.prior, c.defer_labels = clip, labels, prior, defer_labels
    if clip is not None:
        old_clip = surface.get_clip()
        surface.set_clip(clip)
        try:
            return _draw_canvas(c, on, selected, selected_unit, highlight, under, over)
        finally:
            surface.set_clip(old_clip)
    return _draw_canvas(c, on, selected, selected_unit, highlight, under, over)


def _draw_canvas(c: Canvas, on, selected, selected_unit, highlight, under, over) -> Canvas:
    geo = c.geo
    if selected_unit is None and selected:
        selected_unit = selected.rsplit("/", 1)[0]
    c.selected_unit = selected_unit
    draw_static(c)
    if "engagement" in on:
        overlay_engagement(c)
    draw_unit_outlines(c, selected_unit=selected_unit)
    if "engagement" in on:
        overlay_engaged_pairs(c)
    if under is not None:
        under(c)
    draw_bases(c)
    if "overlaps" in on:
        overlay_overlaps(c)
    if "contact" in on:
        overlay_contact(c)
    if "objectives" in on:
        overlay_objectives(c)
    if "off-table" in on:
        overlay_off_table(c)
    if "coherency" in on:
        overlay_coherency(c)
    ids = set(geo.ids)
    if highlight is not None and not isinstance(highlight, dict):
        highlight = dict.fromkeys(highlight, c.theme.selected)
    for mid, colour in (highlight or {}).items():
        if mid in ids:
            ring_model(c, mid, c.theme.colour(colour, c.theme.selected), 3)
    if selected and selected in ids:
        ring_model(c, selected, c.theme.selected, 3)
    if over is not None:
        over(c)
    draw_unit_labels(c)
    return c


# ---------------------------------------------------------------- the static layer
_STATIC: dict = {}

STATIC_LAYER_MAX_PIXELS = 8_000_000
"""Named default: the static layer is drawn for the whole table (plus its label margin)
and kept per scale while it has at most this many pixels (32 MB), so panning only
blits it; past that (zoomed far in) it is drawn for the surface alone, per view."""

STATIC_LAYER_MAX_AREA = 2.5
"""Named default: ... and while it is at most this many times the surface's area (a
layer much bigger than the screen costs more to draw at each new scale than the pans
it saves)."""

STATIC_MARGIN_PX = 60
"""Named default: pixels of background round the table kept in the static layer
(the inch labels and ticks sit there)."""


def draw_static(c: Canvas) -> None:
    """What does not change while models move: background, table, zones, terrain,
    grid, edge labels, objectives.  Drawn once per scale onto a layer covering the
    whole table (``STATIC_LAYER_MAX_PIXELS``) and blitted at the view's offset, so a
    window redrawing after a pan pays only for the models; the label rectangles it
    takes are moved with it."""
    st = c.state
    content = (c.view.scale, id(c.theme), st.table, st.terrain, st.deployment, st.objectives,
               st.players, st.rules.objective_range)
    table = c.table_rect()
    layer_rect = table.inflate(2 * STATIC_MARGIN_PX, 2 * STATIC_MARGIN_PX)
    sw, sh = c.surface.get_size()
    whole = layer_rect.w * layer_rect.h <= min(STATIC_LAYER_MAX_PIXELS, STATIC_LAYER_MAX_AREA * sw * sh)
    if whole:
        # the layer is reused after a pan by whole pixels (the fraction of the origin is kept)
        frac = (round(c.view.origin_x % 1.0, 3), round(c.view.origin_y % 1.0, 3))
        key = ("table", content, layer_rect.size, frac)
        at = layer_rect.topleft
        size = layer_rect.size
        view = View(c.view.scale, c.view.origin_x - at[0], c.view.origin_y - at[1])
    else:
        key = ("view", content, c.surface.get_size(), c.view.origin_x, c.view.origin_y)
        at, size, view = (0, 0), c.surface.get_size(), c.view
    if _STATIC.get("key") != key:
        lc = Canvas(pygame.Surface(size), view, c.theme, st, c.geo, c.colours)
        _draw_static_parts(lc)
        _STATIC.update(key=key, picture=lc.surface, taken=[r.copy() for r in lc.taken])
    if whole:
        c.surface.fill(c.theme.background)
    c.surface.blit(_STATIC["picture"], at)
    c.taken.extend(r.move(at) for r in _STATIC["taken"])


def _draw_static_parts(c: Canvas) -> None:
    c.surface.fill(c.theme.background)
    draw_table(c)
    draw_zones(c)
    draw_terrain(c)
    draw_grid(c)
    draw_zone_edges(c)
    draw_edge_labels(c)
    draw_objective_ranges(c)
    draw_objectives(c)


# ---------------------------------------------------------------- table, grid, zones
def draw_table(c: Canvas) -> None:
    r = c.table_rect()
    shadow = r.move(4, 4)
    pygame.draw.rect(c.surface, shade(c.theme.background, 0.6), shadow)
    pygame.draw.rect(c.surface, c.theme.cloth, r)


def draw_grid(c: Canvas) -> None:
    """1" lines (when at least 6 px apart) and 6" major lines, translucent over the terrain
    (drawn on a layer covering only the part of the table on the surface)."""
    r = c.table_rect()
    vis = r.clip(c.surface.get_rect())
    if vis.w > 0 and vis.h > 0:
        layer = pygame.Surface(vis.size, pygame.SRCALPHA)
        dx, dy = r.x - vis.x, r.y - vis.y      # table-rect pixels -> layer pixels
        w, d = c.state.table.width, c.state.table.depth
        minor = c.view.scale >= 6
        for k in range(math.floor(w) + 1):
            if k % 6 and not minor:
                continue
            x = round(c.px(k)) + dx
            if -2 <= x <= vis.w + 2:
                col = c.theme.grid_major if k % 6 == 0 else c.theme.grid_minor
                pygame.draw.line(layer, col, (x, 0), (x, vis.h), 2 if k % 6 == 0 and c.view.scale >= 10 else 1)
        for k in range(math.floor(d) + 1):
            if k % 6 and not minor:
                continue
            y = round(r.h - c.px(k)) + dy
            if -2 <= y <= vis.h + 2:
                col = c.theme.grid_major if k % 6 == 0 else c.theme.grid_minor
                pygame.draw.line(layer, col, (0, y), (vis.w, y), 2 if k % 6 == 0 and c.view.scale >= 10 else 1)
        c.surface.blit(layer, vis.topleft)
    pygame.draw.rect(c.surface, c.theme.table_edge, r.inflate(2, 2), 2)


def draw_edge_labels(c: Canvas) -> None:
    """Inch numbers every 6" below and left of the table, ticks every inch outside it."""
    r = c.table_rect()
    t = c.theme
    w, d = c.state.table.width, c.state.table.depth
    step = 6 if c.view.scale >= 8 else 12
    tick_col = shade(t.edge_label, 0.8)
    for k in range(math.floor(w) + 1):
        x = round(c.pt(k, 0)[0])
        big = k % 6 == 0
        if c.view.scale >= 6 or big:
            pygame.draw.line(c.surface, tick_col, (x, r.bottom + 1), (x, r.bottom + (7 if big else 3)))
            pygame.draw.line(c.surface, tick_col, (x, r.top - 2), (x, r.top - (7 if big else 3)))
        if k % step == 0:
            c.taken.append(prims.text(c.surface, f'{k}"', t.font_edge, t.edge_label, (x, r.bottom + 9),
                                      "midtop"))
    for k in range(math.floor(d) + 1):
        y = round(c.pt(0, k)[1])
        big = k % 6 == 0
        if c.view.scale >= 6 or big:
            pygame.draw.line(c.surface, tick_col, (r.left - 2, y), (r.left - (7 if big else 3), y))
            pygame.draw.line(c.surface, tick_col, (r.right + 1, y), (r.right + (7 if big else 3), y))
        if k % step == 0:
            c.taken.append(prims.text(c.surface, f'{k}"', t.font_edge, t.edge_label, (r.left - 9, y),
                                      "midright"))


def draw_zones(c: Canvas) -> None:
    """Deployment zones: a tint of the player's colour."""
    for z in c.state.deployment:
        col = c.colours.get(z.player, (128, 128, 128))
        prims.fill_polygon(c.surface, c.pts(z.polygon), (*col, c.theme.zone_alpha))


def draw_zone_edges(c: Canvas) -> None:
    """Each zone's dashed edge, and its name inside its top-left corner (the top-most,
    then left-most vertex), over the terrain."""
    for z in c.state.deployment:
        col = c.colours.get(z.player, (128, 128, 128))
        pts = c.pts(z.polygon)
        prims.dashed_polyline(c.surface, pts, shade(col, 0.8), 2, 12, 7, closed=True)
    for z in c.state.deployment:
        col = c.colours.get(z.player, (128, 128, 128))
        pts = c.pts(z.polygon)
        name = z.name or f"{_player_name(c, z.player)} deployment"
        corner = min(pts, key=lambda p: (round(p[1]), p[0]))
        rect = prims.outlined_text(c.surface, name, c.theme.font_small, shade(col, 0.55),
                                   shade(col, 1.75), (corner[0] + 7, corner[1] + 6), "topleft")
        c.taken.append(rect)


def _player_name(c: Canvas, pid: str) -> str:
    try:
        p = c.state.player(pid)
    except KeyError:
        return pid
    return p.name or p.id


# ---------------------------------------------------------------- terrain
def terrain_swatch(surface, rect: pygame.Rect, kind: str, theme: Theme) -> None:
    """A legend swatch drawn exactly as the board draws ``kind``."""
    pts = [rect.topleft, rect.topright, rect.bottomright, rect.bottomleft]
    _terrain_shape(surface, pts, [], kind, theme, 1.0)


def _terrain_shape(surface, pts, holes, kind: str, theme: Theme, scale: float) -> None:
    st = theme.terrain_style(kind)
    prims.fill_polygon(surface, pts, st.fill, holes)
    spacing = max(7.0, min(14.0, scale * 0.5))
    if st.pattern == "contour":
        cx, cy = area_centroid(pts)
        for f in (0.72, 0.44):
            inner = [(cx + (x - cx) * f, cy + (y - cy) * f) for x, y in pts]
            prims.outline(surface, inner, (*st.outline, 150), 1)
    elif st.pattern == "roof":
        prims.pattern_polygon(surface, pts, "roof", (*st.outline, 150), spacing, 1, holes)
        prims.pattern_polygon(surface, pts, "hatch", (*st.outline, 60), spacing * 0.5, 1, holes)
    else:
        alpha = 200 if st.pattern == "trees" else 110
        prims.pattern_polygon(surface, pts, st.pattern, (*st.outline, alpha),
                              spacing * (1.3 if st.pattern == "trees" else 1.0), 1, holes)
    prims.outline(surface, pts, st.outline, 2)
    for h in holes:
        prims.outline(surface, h, st.outline, 1)


def tall_swatch(surface, pts, st) -> None:
    """The tall part of a piece (walls over 4"): darkened, with a heavy wall line."""
    prims.fill_polygon(surface, pts, (*st.outline, 70))
    prims.outline(surface, pts, shade(st.outline, 0.7), 4)


def draw_terrain(c: Canvas) -> None:
    """Each piece filled and patterned by kind, outlined, and labelled with its id."""
    for t in c.state.terrain:
        pts = c.pts(t.polygon)
        _terrain_shape(c.surface, pts, [], t.kind, c.theme, c.view.scale)
        tall = getattr(t, "tall_part", None)
        if tall:
            tall_swatch(c.surface, c.pts(tall), c.theme.terrain_style(t.kind))
    # an objective's marker (labelled with its id) at a piece's centre would be overprinted:
    # such a piece's label moves beside the marker (render.label_place, nearest place first)
    from tabletop.render.label_place import LabelPlacer, around
    marks = []
    for o in c.state.objectives:
        ox, oy = c.pt(*o.at)
        r = c.px(o.marker.radius)
        marks.append(pygame.Rect(int(ox - r), int(oy - r), int(2 * r), int(2 * r)))
    placer = LabelPlacer(c.surface.get_rect(), bases=marks)
    for t in c.state.terrain:
        pts = c.pts(t.polygon)
        cx, cy = area_centroid(pts)
        st = c.theme.terrain_style(t.kind)
        label = t.id   # the name is often a sentence; the id reads at any scale
        size = c.theme.font_small
        w, h = prims.font(size).size(label)
        box = prims.bbox(pts)
        if w > box.w + 20:
            continue
        at = pygame.Rect(0, 0, w, h)
        at.center = (round(cx), round(cy))
        hit = at.collidelist(marks)
        if hit >= 0:
            spot = placer.place("terrain", t.id, around(marks[hit], (w, h))).rect
            cx, cy = spot.center
        ink = readable_on(st.fill)
        halo = shade(st.fill, 1.45) if ink[0] < 128 else shade(st.fill, 0.55)
        prims.outlined_text(c.surface, label, size, ink, halo, (cx, cy))


# ---------------------------------------------------------------- objectives
def draw_objective_ranges(c: Canvas) -> None:
    """Each objective's range ring, measured from the marker's edge (radius + range)."""
    t = c.theme
    for o in c.state.objectives:
        centre = c.pt(*o.at)
        r_range = c.px(o.marker.radius + c.state.objective_range(o))
        prims.disc(c.surface, centre, r_range, (*t.objective_ring, 34))
        prims.dashed_circle(c.surface, centre, r_range, t.objective_ring, 2, 10, 6)


def draw_objectives(c: Canvas) -> None:
    """Each marker true to size (40mm by default), labelled with its id."""
    t = c.theme
    for o in c.state.objectives:
        centre = c.pt(*o.at)
        r_marker = c.px(o.marker.radius)
        prims.disc(c.surface, centre, r_marker, t.objective_fill)
        prims.ring(c.surface, centre, r_marker, t.objective_rim, 2)
        prims.ring(c.surface, centre, max(2.0, r_marker - 4), (*t.objective_rim, 90), 1)
        label = o.id   # names are often descriptions; the id fits on the marker
        size = c.theme.font_label if len(label) <= 2 else c.theme.font_small
        prims.outlined_text(c.surface, label, size, t.objective_rim, t.objective_fill, centre)
        c.taken.append(pygame.Rect(0, 0, int(2 * r_marker), int(2 * r_marker)).move(
            int(centre[0] - r_marker), int(centre[1] - r_marker)))


# ---------------------------------------------------------------- units
OUTLINE_STEP_PX = 1.5
"""Named default: a unit outline keeps about one vertex per this many pixels of its
length (the snapshot's buffered outlines have far more than a screen can show)."""


UNIT_SPRITE_ENTRIES = 512
"""Named default: drawn unit outlines kept (``draw_unit_outlines``), each the translucent
fill and edge of one unit at one view; past this many the oldest are dropped."""

_UNIT_SPRITES: dict[tuple, tuple[object, list]] = {}


def _unit_sprites(c: Canvas, uid: str, geom, col: RGB) -> list:
    """The layers (``prims.polygon_layer`` / ``outline_layer``: ``(surface, rect)``) that
    draw unit ``uid``'s outline ``geom`` in ``col`` at ``c``'s view, made once and kept
    while the snapshot hands back the same outline (``Geometry.unit_outline`` keeps a unit
    that did not move as the same object across snapshots): a new step redraws only the
    outlines of the units that moved.  Blitted in order they draw the very pixels that
    drawing them afresh would."""
    v = c.view
    key = (uid, col, v.scale, v.origin_x, v.origin_y, c.surface.get_size(),
           c.theme.unit_outline_alpha, OUTLINE_STEP_PX)
    hit = _UNIT_SPRITES.get(key)
    if hit is not None and hit[0] is geom:
        return hit[1]
    layers = []
    for ext, holes in prims.geom_rings(geom):
        pts = thin_ring(c.view, ext)
        layers.append(prims.polygon_layer(c.surface, pts, (*col, 22), [thin_ring(c.view, h) for h in holes]))
        layers.append(prims.outline_layer(c.surface, pts, (*shade(col, 0.8), c.theme.unit_outline_alpha), 2))
    layers = [x for x in layers if x is not None]
    _UNIT_SPRITES.pop(key, None)
    while len(_UNIT_SPRITES) >= UNIT_SPRITE_ENTRIES:
        del _UNIT_SPRITES[next(iter(_UNIT_SPRITES))]
    _UNIT_SPRITES[key] = (geom, layers)
    return layers


def draw_unit_outlines(c: Canvas, selected_unit: str | None = None) -> None:
    """An outline round each unit's models (the snapshot's ``unit_outline``); units wholly
    off the surface are skipped, the rest thinned to ``OUTLINE_STEP_PX``; a unit's drawn
    outline is kept while it does not move (``_unit_sprites``)."""
    if c.clip is not None and not c.clip:
        return      # an empty clip (``render.redraw`` placing labels): nothing to draw
    area = c.draw_area().inflate(20, 20)
    for u in c.state.units:
        geom = c.geo.unit_outline(u.id)
        if geom is None:
            continue
        rect = _outline_rect(c, geom)
        if rect is None or not area.colliderect(rect):
            continue
        col = c.colours.get(u.player, (128, 128, 128))
        thick = u.id == selected_unit
        if not thick:
            for layer, r in _unit_sprites(c, u.id, geom, col):
                c.surface.blit(layer, r.topleft)
            continue
        for ext, holes in prims.geom_rings(geom):
            pts = thin_ring(c.view, ext)
            prims.fill_polygon(c.surface, pts, (*col, 40 if thick else 22), [thin_ring(c.view, h) for h in holes])
            if thick:
                prims.outline(c.surface, pts, c.theme.selected, 5)
            else:
                prims.outline(c.surface, pts, (*shade(col, 0.8), c.theme.unit_outline_alpha), 2)


_OUTLINE_RECTS: dict[tuple, tuple[object, pygame.Rect | None]] = {}


def _outline_rect(c: Canvas, geom) -> pygame.Rect | None:
    """The pixels round unit outline ``geom`` at ``c``'s view that ``_on_surface`` tests
    (None when it is empty); kept per outline object and view (the snapshot hands back the
    same outline while a unit stays put, and each pass of a redraw asks for every unit)."""
    v = c.view
    key = (id(geom), v.scale, v.origin_x, v.origin_y)
    hit = _OUTLINE_RECTS.get(key)
    if hit is not None and hit[0] is geom:
        return hit[1]
    if len(_OUTLINE_RECTS) >= UNIT_SPRITE_ENTRIES:
        del _OUTLINE_RECTS[next(iter(_OUTLINE_RECTS))]
    rect = None
    if not geom.is_empty:
        b = geom.bounds
        x0, y0 = c.pt(b[0], b[3])
        x1, y1 = c.pt(b[2], b[1])
        rect = pygame.Rect(int(x0) - 1, int(y0) - 1, int(x1 - x0) + 3, int(y1 - y0) + 3)
    _OUTLINE_RECTS[key] = (geom, rect)
    return rect


def _on_surface(c: Canvas, bounds, area: pygame.Rect) -> bool:
    """Whether table bounds ``(minx, miny, maxx, maxy)`` (inches) reach the pixel ``area``."""
    x0, y0 = c.pt(bounds[0], bounds[3])
    x1, y1 = c.pt(bounds[2], bounds[1])
    return area.colliderect(pygame.Rect(int(x0) - 1, int(y0) - 1, int(x1 - x0) + 3, int(y1 - y0) + 3))


def thin_ring(view: View, coords, step_px: float | None = None) -> list[tuple[float, float]]:
    """Screen points of a ring of table points keeping about one vertex per ``step_px``
    (default ``OUTLINE_STEP_PX``; 0 keeps every vertex) of its length (always its
    first and last), for many-vertex outlines."""
    step_px = OUTLINE_STEP_PX if step_px is None else step_px
    out = _screen_array(view, coords)
    if len(out) == 0:
        return []
    if len(out) > 8 and step_px > 0:
        seg = np.hypot(*np.diff(out, axis=0).T)
        bucket = np.floor(np.concatenate(([0.0], np.cumsum(seg))) / step_px)
        keep = np.concatenate(([True], bucket[1:] != bucket[:-1]))
        keep[-1] = True
        out = out[keep]
    return out.tolist()


def _screen_array(view: View, coords) -> np.ndarray:
    """Table points (any sequence of (x, y[, ...])) as an (n, 2) array of screen pixels."""
    arr = np.asarray(coords, dtype=float)
    if arr.size == 0:
        return np.empty((0, 2))
    arr = arr.reshape(-1, arr.shape[-1])[:, :2]
    out = np.empty_like(arr)
    out[:, 0] = view.origin_x + arr[:, 0] * view.scale
    out[:, 1] = view.origin_y - arr[:, 1] * view.scale
    return out


def screen_points(view: View, coords) -> list[tuple[float, float]]:
    """Table points (any sequence of (x, y[, ...]) or a coordinate sequence) -> screen points."""
    return _screen_array(view, coords).tolist()


def draw_bases(c: Canvas) -> None:
    """Every base true to scale in its player's colour, darker rim, facing tick, role marker."""
    rects = base_rects(c)
    on = c.surface.get_rect().collidelistall(rects)      # off the surface (zoomed in): not drawn
    c.bases.extend(rects[i] for i in on)   # labels keep clear of them, even those a clip leaves be
    drawn = c.draw_area()
    if c.clip is not None:
        keep = set(on)
        on = [i for i in drawn.collidelistall(rects) if i in keep]
    geo = c.geo
    for i in on:
        m = geo.models[i]
        col = c.colours.get(geo.player_of[i], (128, 128, 128))
        # a round base is drawn as a circle: its polygon is not needed
        draw_base(c.surface, c.view, None if m.base.is_round else geo.footprint(geo.ids[i]),
                  m, col, c.theme)


_BASE_RECTS: list = [None, None, []]    # [snapshot, view, its rects]: the last asked


def base_rects(c: Canvas) -> list[pygame.Rect]:
    """``base_rect`` of every model of the snapshot, in its order, worked out as arrays.
    The list of the last snapshot and view asked is kept (a redraw asks it once per
    pass): callers must not change it or its rects."""
    geo = c.geo
    if not geo.ids:
        return []
    view = (c.view.scale, c.view.origin_x, c.view.origin_y)
    if _BASE_RECTS[0] is geo and _BASE_RECTS[1] == view:
        return _BASE_RECTS[2]
    _BASE_RECTS[:] = [geo, view, _base_rects(c)]
    return _BASE_RECTS[2]


def _base_rects(c: Canvas) -> list[pygame.Rect]:
    geo = c.geo
    half = np.array([m.base.radius for m in geo.models]) * c.view.scale
    x = c.view.origin_x + geo.centres[:, 0] * c.view.scale
    y = c.view.origin_y - geo.centres[:, 1] * c.view.scale
    # int() truncates towards zero, as np.trunc does
    left = np.trunc(x - half).astype(np.int64) - 2
    top = np.trunc(y - half).astype(np.int64) - 2
    size = np.trunc(2 * half).astype(np.int64) + 5
    return [pygame.Rect(a, b, w, w) for a, b, w in zip(left.tolist(), top.tolist(), size.tolist())]


def base_rect(x: float, y: float, half: float) -> pygame.Rect:
    """The pixels a base of bounding radius ``half`` px centred at screen ``(x, y)`` may
    touch (its rim, facing tick and badge), as ``draw_bases`` reckons them."""
    return pygame.Rect(int(x - half) - 2, int(y - half) - 2, int(2 * half) + 5, int(2 * half) + 5)


def draw_base(surface, view: View, footprint, m, col: RGB, theme: Theme, alpha: int = 255) -> None:
    """One base: a darker rim (anti-aliased outer edge) round the player's colour,
    a facing tick from the centre to the front edge, and the role glyph.

    ``footprint`` is the snapshot's ``footprints.base_polygon`` (ovals and
    rectangles are drawn from it); a round base is drawn as a circle of its
    radius (its ``footprint`` may be None).  The rim is the same shape shrunk by the rim width along and
    across the facing (exact for circles and rectangles, the inner ellipse
    for ovals)."""
    cx, cy = view.to_screen(m.x, m.y)
    rim = _rim(col, theme.rim_factor)
    base = m.base
    along, across = base.along, base.across
    size_px = view.length(min(along, across))
    rim_w = 2 if size_px >= 14 else 1
    if base.shape == "round":
        r = view.length(base.radius)
        if alpha < 255:
            prims.disc(surface, (cx, cy), r, (*col, alpha))
            prims.ring(surface, (cx, cy), r - 0.5, (*rim, alpha), 1)
        else:
            prims.disc(surface, (cx, cy), r, rim)
            prims.disc(surface, (cx, cy), max(0.5, r - rim_w), col)
    else:
        pts = screen_points(view, footprint.exterior.coords)
        if alpha < 255:
            prims.fill_polygon(surface, pts, (*col, alpha))
            prims.outline(surface, pts, (*rim, alpha), 1)
        else:
            f = math.radians(m.facing_deg)
            ux, uy = math.cos(f), -math.sin(f)     # along the facing, on screen
            wx, wy = -uy, ux                        # across it
            ka = max(0.0, 1 - rim_w / max(1e-6, view.length(m.base.along / 2)))
            kb = max(0.0, 1 - rim_w / max(1e-6, view.length(m.base.across / 2)))
            inner = []
            for x, y in pts:
                dx, dy = x - cx, y - cy
                a, b = (dx * ux + dy * uy) * ka, (dx * wx + dy * wy) * kb
                inner.append((cx + a * ux + b * wx, cy + a * uy + b * wy))
            prims.fill_polygon(surface, pts, rim)
            prims.fill_polygon(surface, inner, col)
            pygame.draw.aalines(surface, rim, True, pts)
    half = view.length(along / 2.0)
    f = math.radians(m.facing_deg)
    dx, dy = math.cos(f), -math.sin(f)
    tick = theme.facing_tick if alpha >= 255 else mix(col, theme.facing_tick, alpha / 255)
    if half >= 4:
        a = (cx + dx * half * 0.4, cy + dy * half * 0.4)
        b = (cx + dx * (half - rim_w - 0.5), cy + dy * (half - rim_w - 0.5))
        pygame.draw.line(surface, tick, a, b, 3 if half >= 12 else 2)
    glyph = ROLE_GLYPHS.get((m.role or "").lower())
    if glyph and half >= 5:
        role_glyph(surface, glyph, (cx, cy), max(3.0, size_px * 0.16), readable_on(col))
    if m.wounds_lost and half >= 5 and alpha >= 255:
        wound_badge(surface, (cx, cy), size_px / 2, m.wounds_lost)


_RIMS: dict[tuple, RGB] = {}


def _rim(col: RGB, factor: float) -> RGB:
    """``shade(col, factor)``, kept per colour (a base's rim; a board has a few colours)."""
    key = (tuple(col), factor)
    rim = _RIMS.get(key)
    if rim is None:
        if len(_RIMS) > 256:
            _RIMS.clear()
        rim = _RIMS[key] = shade(col, factor)
    return rim


def wound_badge(surface, centre, r_px: float, wounds: int) -> None:
    """A small red badge with ``-n`` at the base's lower right: wounds already lost."""
    x, y = centre[0] + r_px * 0.62, centre[1] + r_px * 0.62
    img = prims.font(15).render(f"-{wounds}", True, (255, 255, 255))
    rect = img.get_rect(center=(int(x), int(y))).inflate(6, 2)
    pygame.draw.rect(surface, (190, 20, 20), rect, border_radius=5)
    pygame.draw.rect(surface, (90, 0, 0), rect, 1, border_radius=5)
    surface.blit(img, img.get_rect(center=rect.center))


def role_glyph(surface, glyph: str, centre, r: float, colour) -> None:
    """The small role marker at a base's centre (commander, champion, standard, musician)."""
    x, y = centre
    if glyph == "diamond":
        pygame.draw.polygon(surface, colour, [(x, y - r * 1.3), (x + r, y), (x, y + r * 1.3), (x - r, y)])
    elif glyph == "ring":
        pygame.draw.circle(surface, colour, (x, y), r, 2)
    elif glyph == "flag":
        pygame.draw.line(surface, colour, (x - r * 0.6, y + r), (x - r * 0.6, y - r), 2)
        pygame.draw.polygon(surface, colour, [(x - r * 0.6, y - r), (x + r, y - r * 0.5), (x - r * 0.6, y)])
    else:
        pygame.draw.circle(surface, colour, (x, y), r * 0.6)


def ring_model(c: Canvas, mid: str, colour, width: int = 3, pad_px: float = 3.0) -> None:
    """A ring just outside a model's base (its bounding circle); nothing is drawn when
    the ring lies wholly outside the pixels this pass draws (``Canvas.draw_area``: a
    band or a dirty rectangle of a redraw), which it would not change."""
    m = c.geo.model(mid)
    r = c.px(m.base.radius) + pad_px
    x, y = c.pt(m.x, m.y)
    reach = r + width + 3          # the stroke, centred on r, and its anti-aliased edge
    if not c.draw_area().colliderect(pygame.Rect(int(x - reach) - 1, int(y - reach) - 1,
                                                 int(2 * reach) + 3, int(2 * reach) + 3)):
        return
    prims.ring(c.surface, (x, y), r, colour, width)


# ---------------------------------------------------------------- labels
def label_candidates(anchor: pygame.Rect, size: tuple[int, int], gap: int = 5) -> list[pygame.Rect]:
    """The places ``place_label`` weighs for a plate of ``size`` px beside ``anchor``, in
    its order of preference: below, above, right, left, the corners, then further out."""
    h = size[1]
    cands = []
    for extra in (0, h + 4, 2 * (h + 4), 3 * (h + 4)):
        cands += eight_around(anchor, size, gap + extra, gap + extra)
    return cands


def place_label(c: Canvas, anchor: pygame.Rect, size: tuple[int, int], gap: int = 5,
                avoid_bases: bool = True, cands: list[pygame.Rect] | None = None) -> pygame.Rect:
    """Where a label of ``size`` px goes beside ``anchor`` (below, above, right,
    left, then the corners, then further out) covering the fewest bases and
    labels and staying on the surface; the chosen rect is marked taken.  ``cands``:
    ``label_candidates(anchor, size, gap)`` when the caller has them already."""
    w, h = size
    # labels stay on the table or in the margin round it, never under a legend
    bounds = c.table_rect().inflate(2 * LABEL_MARGIN_PX, 2 * LABEL_MARGIN_PX).clip(c.surface.get_rect())
    if bounds.w < w or bounds.h < h:
        bounds = c.surface.get_rect()
    if cands is None:
        cands = label_candidates(anchor, size, gap)
    # only what reaches some candidate can score: the bases and labels near the anchor,
    # picked out once (in their order, so every score is the sum it was over them all)
    region = cands[0].unionall(cands[1:])
    obstacles = c.bases if avoid_bases else []
    near = region.collidelistall(obstacles)
    near_taken = [c.taken[j] for j in region.collidelistall(c.taken)]
    # the choice is a function of the candidates, the bounds and what is near: kept (the
    # near bases keyed as the bytes of their rows of the bases' array: a tuple of tuples
    # of a few hundred rects cost more than the scoring itself)
    nb = _bases_array(c)[np.array(near, dtype=np.intp)] if near else None
    key = (tuple(anchor), w, h, gap, tuple(bounds), b"" if nb is None else nb.tobytes(),
           tuple([tuple(r) for r in near_taken]))
    kept = _PLACES.get(key)
    if kept is not None:
        best = pygame.Rect(kept)
        c.taken.append(best)
        return best
    # every candidate scored at once (numpy): the part off the bounds, the overlap with
    # each near base and plate, the preference for earlier places; all whole numbers
    # times whole weights, so the sums are exact and the first lowest is the loop's pick
    cand = np.array([tuple(r) for r in cands], dtype=np.int64)
    area = cand[:, 2] * cand[:, 3]
    score = (area - _overlap(cand, np.array([tuple(bounds)], dtype=np.int64))[:, 0]) * 50.0
    if nb is not None:
        score += _overlap(cand, nb).sum(axis=1) * 10.0
    if near_taken:
        score += _overlap(cand, np.array([tuple(r) for r in near_taken], dtype=np.int64)).sum(axis=1) * 6.0
    score += np.arange(len(cands)) * 2.0  # prefer the earlier, nearer places
    best = cands[int(np.argmin(score))]
    if len(_PLACES) >= LABEL_PLACES_KEPT:
        del _PLACES[next(iter(_PLACES))]
    _PLACES[key] = tuple(best)
    c.taken.append(best)
    return best


def _overlap(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pixels shared by each rect of ``a`` (n, 4) and each of ``b`` (m, 4), rows of
    (left, top, width, height): an (n, m) array, 0 where they do not meet (as
    ``Rect.clip``'s area)."""
    w = np.minimum(a[:, None, 0] + a[:, None, 2], b[None, :, 0] + b[None, :, 2]) \
        - np.maximum(a[:, None, 0], b[None, :, 0])
    h = np.minimum(a[:, None, 1] + a[:, None, 3], b[None, :, 1] + b[None, :, 3]) \
        - np.maximum(a[:, None, 1], b[None, :, 1])
    return np.maximum(w, 0) * np.maximum(h, 0)


def _bases_array(c: Canvas) -> np.ndarray:
    """``c.bases`` as an (n, 4) int64 array of (left, top, width, height) pixels, made
    again only when bases were added since."""
    kept = c.bases_array
    if kept is None or len(kept) != len(c.bases):
        kept = c.bases_array = np.array([tuple(r) for r in c.bases], dtype=np.int64).reshape(-1, 4)
    return kept


LABEL_PLACES_KEPT = 4096
"""Named default: label placements remembered (``place_label``), each keyed by everything
its choice reads (anchor, size, gap, bounds and the bases and labels near it), so a redraw
after one unit moved places afresh only the labels near what changed; the oldest dropped."""

_PLACES: dict[tuple, tuple[int, int, int, int]] = {}


def draw_unit_labels(c: Canvas) -> None:
    """A plate beside each unit: its name, then id, model count and status.

    Plates are placed first (``place_label``), then a thin leader line joins
    any plate that ended up away from its unit to the nearest model, then
    the plates are drawn over the lines."""
    t = c.theme
    if c.labels is not None:
        placed = c.labels
        c.taken.extend(p[4] for p in placed)
    elif c.defer_labels:
        c.job = label_steps(c)
        return
    else:
        placed = _place_unit_labels(c)
    c.placed = placed
    if c.clip is not None and not c.clip:
        return      # an empty clip: the labels were only to be placed (``render.redraw``)
    area = c.draw_area()
    for u, _mids, _lines, _anchor, _rect, lead in placed:
        if lead is None:
            continue
        sx, sy, end = lead
        if not area.colliderect(pygame.Rect(int(min(sx, end[0])) - 6, int(min(sy, end[1])) - 6,
                                            int(abs(end[0] - sx)) + 13, int(abs(end[1] - sy)) + 13)):
            continue   # wholly outside a clip
        col = _rim(c.colours.get(u.player, (128, 128, 128)), 0.7)
        pygame.draw.line(c.surface, (255, 255, 255), (sx, sy), end, 4)
        pygame.draw.line(c.surface, col, (sx, sy), end, 2)
        prims.disc(c.surface, end, 3, col)
    for u, _mids, lines, _anchor, rect, _lead in placed:
        if not area.colliderect(rect.inflate(8, 8)):
            continue   # wholly outside a clip
        col = c.colours.get(u.player, (128, 128, 128))
        if u.id == c.selected_unit:
            pygame.draw.rect(c.surface, t.selected, rect.inflate(6, 6), border_radius=6)
        prims.text_plate(c.surface, lines, rect.topleft, t.label_text, t.label_plate,
                         shade(col, 0.85), pad=4, colours=[shade(col, 0.6), (70, 70, 70)])


def leader_line(c: Canvas, mids, rect: pygame.Rect):
    """Where a label plate's leader line starts on ``rect`` and ends at the edge of the
    unit's model nearest the plate: ``(sx, sy, (ex, ey))`` screen pixels."""
    near = min(mids, key=lambda mid: math.dist(c.pt(*c.geo.model(mid).at), rect.center))
    m = c.geo.model(near)
    tx, ty = c.pt(m.x, m.y)
    sx = min(max(tx, rect.left), rect.right)
    sy = min(max(ty, rect.top), rect.bottom)
    d = math.dist((sx, sy), (tx, ty)) or 1.0
    r = c.px(min(m.base.along, m.base.across) / 2)
    return sx, sy, (tx + (sx - tx) / d * r, ty + (sy - ty) / d * r)


def _place_unit_labels(c: Canvas) -> list:
    """Each unit's label plate placed (``place_label``), in unit order:
    ``[(unit, model ids, lines, anchor rect, plate rect, leader)]``, the leader line
    ``leader_line``'s, or None for a plate beside its unit."""
    job = label_steps(c)
    while True:
        try:
            next(job)
        except StopIteration as done:
            return done.value


def label_steps(c: Canvas) -> Generator[None, None, list]:
    """``_place_unit_labels`` as steps: a generator that yields after each label placed
    afresh (``place_label``, the costly part) and returns the placement; it also sets
    ``c.placed``.  A caller may run a few steps a frame; ``c`` must not change meanwhile."""
    t = c.theme
    placed = []
    prior = c.prior
    before = {p[0].id: p for p in prior.placed} if prior is not None else {}
    dirty = list(prior.dirty) if prior is not None else []
    if prior is not None:           # a label that goes frees its place
        now = {u.id for u in c.state.units}
        dirty += [p[4] for uid, p in before.items() if uid not in now]
    kept = set()
    regions = c.regions
    for u in c.state.units:
        old = before.get(u.id)
        if old is not None and old[0] is u and u.id not in prior.units:
            # the same unit, none of its models changed: the same lines and box; kept when
            # no change reaches the candidates round it (see below)
            region = prior.regions.get(u.id)
            if region is not None and (not dirty or region.collidelist(dirty) < 0):
                c.taken.append(old[4])
                placed.append(list(old))
                regions[u.id] = region
                kept.add(u.id)
                continue
        mids = c.geo.unit_models(u.id)
        if not mids:
            continue
        lines = [(u.label, t.font_label)]
        sub = [u.id] if u.name else []
        sub.append(f"{len(mids)} model{'s' if len(mids) != 1 else ''}")
        sub += list(u.status)
        if u.charged:
            sub.append("charged")
        lines.append((" · ".join(sub), t.font_small))
        minx, miny, maxx, maxy = c.geo.unit_outline(u.id).bounds
        x0, y0 = c.pt(minx, maxy)
        x1, y1 = c.pt(maxx, miny)
        anchor = pygame.Rect(int(x0), int(y0), max(1, int(x1 - x0)), max(1, int(y1 - y0)))
        size = prims.text_size(lines, pad=4)
        cands = label_candidates(anchor, size)
        regions[u.id] = cands[0].unionall(cands[1:])
        if old is not None and old[2] == lines and old[3] == anchor:
            if not dirty or regions[u.id].collidelist(dirty) < 0 \
                    or all(r.collidelist(dirty) < 0 for r in cands):
                # no change reaches a place it weighs, so every place scores as it did
                # (place_label scores only the overlap of a candidate with the bases and
                # plates): the place it had, the one a placement afresh gives
                c.taken.append(old[4])
                same = u.id not in prior.units
                placed.append([u, mids, lines, anchor, old[4], old[5] if same else None])
                if same:
                    kept.add(u.id)
                continue
        rect = place_label(c, anchor, size, cands=cands)
        if old is None or old[4] != rect:
            dirty += [rect] if old is None else [rect, old[4]]
        placed.append([u, mids, lines, anchor, rect, None])
        yield
    for p in placed:     # (once every plate is placed, as the plates are drawn over the lines)
        if p[0].id in kept:
            continue     # the same plate and unit: the same leader line
        if not p[4].inflate(2 * LEADER_GAP_PX, 2 * LEADER_GAP_PX).colliderect(p[3]):
            p[5] = leader_line(c, p[1], p[4])
    c.placed = [tuple(p) for p in placed]
    return c.placed


# ---------------------------------------------------------------- overlays
def overlay_contact(c: Canvas) -> None:
    """Where enemy bases touch: a bright bar along the shared stretch of outline
    (rank-and-flank fronts), or a short tick across the contact point (round bases)."""
    L = max(9.0, c.px(0.45))
    for a, b in c.geo.base_contacts:
        ma, mb = c.geo.model(a), c.geo.model(b)
        both_round = ma.base.is_round and mb.base.is_round
        stretch = None if both_round else c.geo.contact_stretch(a, b)
        if not both_round and (stretch is None or math.dist(*stretch) <= CORNER_CONTACT_IN):
            # corner to corner (or corner to edge): a dot where they touch
            at = c.pt(*c.geo.contact_point(a, b))
            prims.disc(c.surface, at, 4.5, (20, 20, 20))
            prims.disc(c.surface, at, 3, c.theme.contact)
            continue
        if stretch is not None:
            p, q = c.pt(*stretch[0]), c.pt(*stretch[1])
            d = math.dist(p, q) or 1.0
            # stop short of the ends so neighbouring bars read as separate contacts
            ux, uy = (q[0] - p[0]) / d, (q[1] - p[1]) / d
            cut = min(2.0, d / 4)
            p, q = (p[0] + ux * cut, p[1] + uy * cut), (q[0] - ux * cut, q[1] - uy * cut)
        else:
            x, y = c.pt(*c.geo.contact_point(a, b))
            ax, ay = c.pt(ma.x, ma.y)
            bx, by = c.pt(mb.x, mb.y)
            d = math.hypot(bx - ax, by - ay) or 1.0
            nx, ny = -(by - ay) / d, (bx - ax) / d
            p, q = (x - nx * L, y - ny * L), (x + nx * L, y + ny * L)
        pygame.draw.line(c.surface, (20, 20, 20), p, q, 6)
        pygame.draw.line(c.surface, c.theme.contact, p, q, 3)


def overlay_engagement(c: Canvas) -> None:
    """The engagement-range halo round each engaged unit and a line between engaged models."""
    t = c.theme
    er = c.state.rules.engagement_range
    engaged = {u for pair in c.geo.engaged_unit_pairs for u in pair}
    if er > 0:
        area = c.surface.get_rect().inflate(20, 20)
        for uid in sorted(engaged):
            halo = c.geo.unit_outline(uid, margin=er)
            if halo is None or halo.is_empty or not _on_surface(c, halo.bounds, area):
                continue
            for ext, holes in prims.geom_rings(halo):
                pts = thin_ring(c.view, ext)
                prims.fill_polygon(c.surface, pts, (*t.engagement, 30), [thin_ring(c.view, h) for h in holes])
                prims.dashed_polyline(c.surface, pts, t.engagement, 2, 7, 5, closed=True)


def overlay_engaged_pairs(c: Canvas) -> None:
    """A line between the centres of each pair of engaged enemy models (under the bases)."""
    t = c.theme
    for a, b in c.geo.engaged_model_pairs:
        ma, mb = c.geo.model(a), c.geo.model(b)
        pygame.draw.line(c.surface, t.engagement, c.pt(ma.x, ma.y), c.pt(mb.x, mb.y), 3)


def overlay_coherency(c: Canvas) -> None:
    """A red ring on each model breaking coherency and a plate with the reason."""
    t = c.theme
    for uid, br in sorted(c.geo.coherency.items()):
        for mid in br.models:
            ring_model(c, mid, t.coherency, 3, 4)
        lines = [(f"{uid}: out of coherency", t.font_small)]
        for mid in br.models[:3]:
            lines.append((f"{mid}: {br.reasons[mid]}", t.font_small))
        if len(br.models) > 3:
            lines.append((f"+{len(br.models) - 3} more", t.font_small))
        m = c.geo.model(br.models[0])
        r = c.px(m.base.radius) + 6
        x, y = c.pt(m.x, m.y)
        anchor = pygame.Rect(int(x - r), int(y - r), int(2 * r), int(2 * r))
        rect = place_label(c, anchor, prims.text_size(lines))
        prims.text_plate(c.surface, lines, rect.topleft, t.coherency, (255, 240, 240, 235), t.coherency)


def overlay_overlaps(c: Canvas) -> None:
    """Overlapping bases: both outlined bright, their shared area hatched, the depth labelled."""
    t = c.theme
    for a, b in c.geo.overlaps:
        for mid in (a, b):
            prims.outline(c.surface, c.pts(c.geo.footprint(mid).exterior.coords), t.overlap, 3)
        for ext, _holes in prims.geom_rings(c.geo.overlap_region(a, b)):
            pts = c.pts(ext)
            prims.fill_polygon(c.surface, pts, (*t.overlap, 110))
            prims.pattern_polygon(c.surface, pts, "crosshatch", t.overlap, 5, 2)
            prims.outline(c.surface, pts, t.overlap, 2)
        x, y = c.pt(*c.geo.contact_point(a, b))
        depth = -c.geo.gap(a, b)
        text = f'{a} × {b} overlap' + (f' {depth:.2f}"' if depth > 0 else "")
        anchor = pygame.Rect(int(x) - 6, int(y) - 6, 12, 12)
        lines = [(text, t.font_small)]
        rect = place_label(c, anchor, prims.text_size(lines), gap=max(8, int(c.px(0.6))))
        prims.text_plate(c.surface, lines, rect.topleft, shade(t.overlap, 0.55), (255, 240, 252, 235),
                         t.overlap)


def overlay_off_table(c: Canvas) -> None:
    t = c.theme
    for mid in c.geo.off_table:
        m = c.geo.model(mid)
        prims.dashed_circle(c.surface, c.pt(m.x, m.y), c.px(m.base.radius) + 5, t.off_table, 3, 6, 4)
        r = c.px(m.base.radius) + 6
        x, y = c.pt(m.x, m.y)
        lines = [(f"{mid}: off the table", t.font_small)]
        rect = place_label(c, pygame.Rect(int(x - r), int(y - r), int(2 * r), int(2 * r)),
                           prims.text_size(lines))
        prims.text_plate(c.surface, lines, rect.topleft, shade(t.off_table, 0.6), (255, 245, 235, 235),
                         t.off_table)


def overlay_objectives(c: Canvas) -> None:
    """Models within each objective's range get a dot; the marker gets a per-player count."""
    t = c.theme
    for oid, per in c.geo.objective_ranges.items():
        o = c.state.objective(oid)
        parts = []
        for pid, mids in per.items():
            for mid in mids:
                m = c.geo.model(mid)
                # the dot sits inside the base on the side towards the objective
                dx, dy = o.at[0] - m.x, o.at[1] - m.y
                d = math.hypot(dx, dy) or 1.0
                k = min(m.base.along, m.base.across) / 2.0 * 0.62
                at = c.pt(m.x + dx / d * k, m.y + dy / d * k)
                r = max(2.5, c.px(0.11))
                prims.disc(c.surface, at, r, t.objective_hold)
                prims.ring(c.surface, at, r, (40, 30, 0), 1)
            parts.append((f"{_player_name(c, pid)} {len(mids)}", c.colours.get(pid, (0, 0, 0))))
        x, y = c.pt(*o.at)
        r = c.px(o.marker.radius)
        lines = [(s, t.font_small) for s, _ in parts] or [("nobody in range", t.font_small)]
        rect = place_label(c, pygame.Rect(int(x - r), int(y - r), int(2 * r), int(2 * r)),
                           prims.text_size(lines), avoid_bases=True)
        prims.text_plate(c.surface, lines, rect.topleft, t.label_text, (255, 250, 225, 235),
                         t.objective_ring, colours=[shade(col, 0.8) for _, col in parts])
