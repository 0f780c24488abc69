"""Base sizes as the hobby writes them.

``"32mm"`` is round; ``"60x35mm oval"`` is an ellipse whose long axis lies
along the model's facing, whichever number comes first; ``"25x50mm"`` is a
rectangle, frontage x depth (25 mm across the model's front, 50 mm front to
back).  ``"25x25mm"`` is a square.  Sizes are converted to inches once, here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

MM_PER_INCH = 25.4

BaseShape = Literal["round", "oval", "rect"]

_ROUND = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*mm(?:\s+(round|circle|circular))?\s*$", re.I)
_PAIR = re.compile(
    r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*mm(?:\s+(oval|ellipse|rect|rectangle|square))?\s*$",
    re.I,
)


@dataclass(frozen=True)
class Base:
    """A model's base.

    Attributes
    ----------
    shape : "round" | "oval" | "rect"
    along_mm : float
        Extent along the model's facing (diameter, long axis, or depth), mm.
    across_mm : float
        Extent across the model's facing (diameter, short axis, or frontage), mm.
    text : str
        The size as written in the map file, kept for saving.

    ``along``, ``across`` and ``radius`` (inches) are worked out once per base (frozen: they
    never change); the solvers read them many thousand times a move.
    """

    shape: BaseShape
    along_mm: float
    across_mm: float
    text: str

    @cached_property
    def along(self) -> float:
        """Extent along the facing, inches."""
        return self.along_mm / MM_PER_INCH

    @cached_property
    def across(self) -> float:
        """Extent across the facing (frontage), inches."""
        return self.across_mm / MM_PER_INCH

    @cached_property
    def radius(self) -> float:
        """Radius in inches of a round base (half the longer extent otherwise)."""
        return max(self.along_mm, self.across_mm) / MM_PER_INCH / 2.0

    @property
    def is_round(self) -> bool:
        return self.shape == "round"

    def __str__(self) -> str:
        return self.text


def parse_base(text: str) -> Base:
    """Parse a base size string.

    Parameters
    ----------
    text : str
        ``"32mm"``, ``"40mm round"``, ``"60x35mm oval"``, ``"25x50mm"``
        (rectangle, frontage x depth), ``"25x25mm"``.

    Returns
    -------
    Base

    Raises
    ------
    ValueError
        With a lowercase message that shows the input when the string is not
        a base size or a size is not positive.
    """
    if not isinstance(text, str):
        raise ValueError(f"a base is a string such as \"32mm\", \"60x35mm oval\" or \"25x50mm\", got {text!r}")
    m = _ROUND.match(text)
    if m:
        d = float(m.group(1))
        if d <= 0:
            raise ValueError(f"base {text!r} has a non-positive size")
        return Base("round", d, d, text.strip())
    m = _PAIR.match(text)
    if m:
        a, b = float(m.group(1)), float(m.group(2))
        kind = (m.group(3) or "rect").lower()
        if a <= 0 or b <= 0:
            raise ValueError(f"base {text!r} has a non-positive size")
        if kind in ("oval", "ellipse"):
            if a == b:
                return Base("round", a, a, text.strip())
            return Base("oval", max(a, b), min(a, b), text.strip())
        # rectangle: frontage x depth
        return Base("rect", b, a, text.strip())
    raise ValueError(
        f"unknown base {text!r}: write \"32mm\" (round), \"60x35mm oval\" or \"25x50mm\" (frontage x depth)"
    )
