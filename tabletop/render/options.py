"""Render options without pygame: overlay names and the default scale.

The command line reads these while building its parser, so this module must
not import pygame.
"""

from __future__ import annotations

from collections.abc import Iterable

OVERLAYS = ("contact", "engagement", "coherency", "overlaps", "off-table", "objectives")
"""Overlay names: ``contact`` (a tick where enemy bases touch), ``engagement``
(engagement-range halo round engaged units and lines between engaged models),
``coherency`` (red ring and reason on each model breaking coherency),
``overlaps`` (hatched shared area of overlapping bases), ``off-table``
(models past a table edge), ``objectives`` (models within each objective's
range, counted per player).  ``all`` means every one."""

DEFAULT_SCALE = 22.0
"""Named default: pixels per inch, so a 60" x 44" table makes a 1400 px wide image."""


def resolve_overlays(names: Iterable[str]) -> frozenset[str]:
    """Overlay names (``all`` expands; commas split) -> a frozenset of ``OVERLAYS``.

    Raises
    ------
    ValueError
        Naming the first unknown overlay and the choices.
    """
    if isinstance(names, str):
        names = [names]
    out: set[str] = set()
    for raw in names:
        for name in str(raw).split(","):
            name = name.strip().lower()
            if not name:
                continue
            if name == "all":
                out.update(OVERLAYS)
            elif name in OVERLAYS:
                out.add(name)
            else:
                raise ValueError(f"unknown overlay {name!r} (choose from {', '.join(OVERLAYS)}, all)")
    return frozenset(out)
