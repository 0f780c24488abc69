"""The camera: table inches <-> screen pixels (the one place the y-flip lives).

Table coordinates are inches with y up; screen pixels have y down.  A
``View`` holds ``scale`` (pixels per inch) and the screen position of the
table's origin; pan and zoom change those two, nothing else.  This module
does not import pygame, so it is testable anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class View:
    """Pixels per inch and the screen pixel of table (0, 0) (bottom-left corner)."""

    scale: float = 12.0
    origin_x: float = 40.0
    origin_y: float = 600.0

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """Table inches -> screen pixels (float)."""
        return self.origin_x + x * self.scale, self.origin_y - y * self.scale

    def to_screen_int(self, x: float, y: float) -> tuple[int, int]:
        sx, sy = self.to_screen(x, y)
        return int(round(sx)), int(round(sy))

    def to_table(self, sx: float, sy: float) -> tuple[float, float]:
        """Screen pixels -> table inches."""
        return (sx - self.origin_x) / self.scale, (self.origin_y - sy) / self.scale

    def length(self, inches: float) -> float:
        """A length in inches as pixels."""
        return inches * self.scale

    def pan(self, dx_px: float, dy_px: float) -> None:
        self.origin_x += dx_px
        self.origin_y += dy_px

    def zoom_about(self, sx: float, sy: float, factor: float,
                   min_scale: float = 2.0, max_scale: float = 400.0) -> None:
        """Zoom by ``factor`` keeping the table point under (sx, sy) fixed."""
        tx, ty = self.to_table(sx, sy)
        self.scale = max(min_scale, min(max_scale, self.scale * factor))
        self.origin_x = sx - tx * self.scale
        self.origin_y = sy + ty * self.scale

    @classmethod
    def fit(cls, width_in: float, depth_in: float, width_px: int, height_px: int,
            margin_px: int = 40, left_px: int = 0, top_px: int = 0) -> View:
        """A view showing the whole table inside a pixel rectangle with a margin."""
        scale = min((width_px - 2 * margin_px) / width_in, (height_px - 2 * margin_px) / depth_in)
        ox = left_px + (width_px - width_in * scale) / 2.0
        oy = top_px + (height_px + depth_in * scale) / 2.0
        return cls(scale, ox, oy)
