"""Geometry: footprints, the snapshot, arcs, coherency, movement (Shapely and pymunk live here only)."""

from tabletop.geometry.snapshot import CoherencyBreak, Geometry, snapshot

__all__ = ["CoherencyBreak", "Geometry", "snapshot"]
