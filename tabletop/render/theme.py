"""Colours, line widths and fonts for drawing the table.

Colours are ``(r, g, b)`` tuples (0-255).  Everything a drawing needs to
look up lives on a ``Theme``; ``DEFAULT_THEME`` is what ``tabletop render``
and the window use.  Players take the map's ``colour`` when it gives one,
otherwise the next colour of ``PLAYER_PALETTE`` that is clearly distinct
from the colours already taken.  Fonts are pygame's default font
(``pygame.font.Font(None, size)``), so images look the same everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from tabletop.board.state import Battlefield

RGB = tuple[int, int, int]

TERRAIN_KINDS = ("ruin", "woods", "obstacle", "impassable", "hill", "building")

# named default: players without a map colour take these in order, skipping any
# too close to a colour the map gave (red, blue, purple, teal, orange, magenta)
PLAYER_PALETTE: tuple[RGB, ...] = (
    (200, 52, 44), (38, 98, 200), (128, 62, 170), (18, 150, 145), (226, 118, 20), (200, 50, 130),
)

# named default: colour names a step's ``draw`` dict may use ("green", "amber", ...)
NAMED_COLOURS: dict[str, RGB] = {
    "red": (220, 30, 30), "green": (30, 160, 60), "blue": (40, 100, 220), "yellow": (245, 200, 0),
    "amber": (240, 150, 0), "orange": (240, 120, 20), "purple": (140, 60, 190),
    "magenta": (230, 0, 160), "cyan": (0, 180, 200), "white": (255, 255, 255),
    "black": (0, 0, 0), "grey": (120, 120, 120), "gray": (120, 120, 120),
}


def parse_colour(text: str | tuple | list | None, default: RGB = (0, 0, 0)) -> RGB:
    """``"#b03a2e"``, ``"b03a2e"``, a name (``NAMED_COLOURS``, then pygame's
    colour names) or an ``(r, g, b)`` sequence -> ``(r, g, b)``; ``default``
    when it is none of those."""
    if text is None:
        return default
    if isinstance(text, (tuple, list)) and len(text) >= 3:
        return tuple(max(0, min(255, int(c))) for c in text[:3])  # type: ignore[return-value]
    if not isinstance(text, str):
        return default
    t = text.strip().lower()
    if t in NAMED_COLOURS:
        return NAMED_COLOURS[t]
    hexpart = t.removeprefix("#")
    if len(hexpart) in (3, 6) and all(c in "0123456789abcdef" for c in hexpart):
        if len(hexpart) == 3:
            hexpart = "".join(c * 2 for c in hexpart)
        return tuple(int(hexpart[i:i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]
    try:
        c = pygame.Color(t)
        return (c.r, c.g, c.b)
    except ValueError:
        return default


def shade(c: RGB, factor: float) -> RGB:
    """Darker (factor < 1) or lighter towards white (factor > 1)."""
    if factor <= 1.0:
        return tuple(int(v * factor) for v in c)  # type: ignore[return-value]
    t = min(1.0, factor - 1.0)
    return tuple(int(v + (255 - v) * t) for v in c)  # type: ignore[return-value]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` blended towards ``b`` by ``t`` (0..1)."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


def _distance(a: RGB, b: RGB) -> float:
    # "redmean" perceptual colour distance
    rm = (a[0] + b[0]) / 2.0
    dr, dg, db = a[0] - b[0], a[1] - b[1], a[2] - b[2]
    return ((2 + rm / 256) * dr * dr + 4 * dg * dg + (2 + (255 - rm) / 256) * db * db) ** 0.5


def readable_on(c: RGB) -> RGB:
    """Black or white, whichever reads better on ``c``."""
    lum = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
    return (20, 20, 20) if lum > 135 else (250, 250, 250)


@dataclass(frozen=True)
class TerrainStyle:
    """How a terrain kind is drawn: fill, outline and a pattern name
    (``hatch``, ``crosshatch``, ``trees``, ``contour``, ``roof``, ``stripes``)."""

    fill: RGB
    outline: RGB
    pattern: str
    label: str


@dataclass(frozen=True)
class Theme:
    """Every colour and size the renderer uses (colours RGB, sizes px)."""

    background: RGB = (46, 50, 56)
    cloth: RGB = (205, 210, 192)
    table_edge: RGB = (30, 32, 36)
    grid_minor: tuple[int, int, int, int] = (90, 100, 80, 45)
    grid_major: tuple[int, int, int, int] = (60, 70, 50, 120)
    edge_label: RGB = (215, 218, 222)
    terrain: dict[str, TerrainStyle] = field(default_factory=lambda: {
        "ruin": TerrainStyle((160, 148, 132), (96, 86, 74), "hatch", "ruin"),
        "woods": TerrainStyle((104, 150, 82), (52, 92, 42), "trees", "woods"),
        "obstacle": TerrainStyle((204, 150, 84), (128, 84, 34), "stripes", "obstacle"),
        "impassable": TerrainStyle((58, 58, 64), (20, 20, 24), "crosshatch", "impassable"),
        "hill": TerrainStyle((222, 196, 120), (160, 130, 60), "contour", "hill"),
        "building": TerrainStyle((124, 112, 140), (66, 58, 80), "roof", "building"),
    })
    unknown_terrain: TerrainStyle = TerrainStyle((170, 170, 170), (90, 90, 90), "hatch", "terrain")
    zone_alpha: int = 46
    objective_fill: RGB = (250, 236, 170)
    objective_rim: RGB = (60, 50, 20)
    objective_ring: RGB = (150, 120, 20)
    rim_factor: float = 0.5
    facing_tick: RGB = (255, 255, 255)
    unit_outline_alpha: int = 150
    label_plate: tuple[int, int, int, int] = (252, 252, 248, 228)
    label_text: RGB = (25, 25, 25)
    selected: RGB = (255, 210, 0)
    contact: RGB = (255, 255, 255)
    engagement: RGB = (245, 140, 0)
    coherency: RGB = (230, 20, 20)
    overlap: RGB = (255, 0, 200)
    off_table: RGB = (255, 90, 0)
    objective_hold: RGB = (250, 220, 60)
    arrow: RGB = (20, 20, 20)
    reach: RGB = (30, 30, 30)
    casualty: RGB = (200, 0, 0)
    caption_plate: tuple[int, int, int, int] = (20, 22, 26, 225)
    caption_text: RGB = (240, 240, 240)
    caption_rule: RGB = (250, 210, 120)
    legend_plate: RGB = (36, 39, 44)
    legend_text: RGB = (230, 232, 235)
    legend_dim: RGB = (160, 165, 172)
    font_label: int = 20
    font_small: int = 16
    font_edge: int = 17
    font_caption: int = 24
    font_caption_text: int = 19

    def terrain_style(self, kind: str) -> TerrainStyle:
        return self.terrain.get(kind, self.unknown_terrain)

    def colour(self, name, default: RGB | None = None) -> RGB:
        """A step's colour name or hex string -> RGB (``default``: the arrow colour)."""
        return parse_colour(name, default if default is not None else self.arrow)

    def player_colours(self, state: Battlefield) -> dict[str, RGB]:
        """``{player id: RGB}``: the map's colour when given, else the palette,
        skipping palette colours close to one already taken."""
        out: dict[str, RGB] = {}
        for p in state.players:
            if p.colour:
                out[p.id] = parse_colour(p.colour, PLAYER_PALETTE[0])
        taken = list(out.values())
        pal = [c for c in PLAYER_PALETTE if all(_distance(c, t) > 160 for t in taken)]
        pal += [c for c in PLAYER_PALETTE if c not in pal]
        k = 0
        for p in state.players:
            if p.id not in out:
                out[p.id] = pal[k % len(pal)]
                k += 1
        return out


DEFAULT_THEME = Theme()

_FONTS: dict[int, pygame.font.Font] = {}


def font(size: int) -> pygame.font.Font:
    """pygame's default font at ``size`` (cached; initialises pygame.font; no window needed)."""
    f = _FONTS.get(size)
    if f is None:
        if not pygame.font.get_init():
            pygame.font.init()
        f = _FONTS[size] = pygame.font.Font(None, size)
    return f
