"""One label placer: where a plate goes so that it covers nothing already on the picture.

A picture's labels (a unit's name plate, a formation's status box, a move's length, the
combat score box) must not hide what they are about.  ``LabelPlacer`` is given the screen
rectangles that must stay visible (every model's base, the plates already drawn) and the
rectangle the labels must stay in; each label comes with its candidate rectangles in order
of preference (``around`` a unit's pixels, ``along`` a move's path, ``corners`` of the
table).  The placer takes the first candidate that lies wholly inside the bounds and
overlaps nothing placed or blocked (and, for a label with an anchor, whose leader line
crosses no other base), else the candidate with the least overlap (pixels;
the earlier one on a tie), and blocks it for the labels after it.  No randomness: the same
inputs in the same order give the same places.

Coordinates are screen pixels (``pygame.Rect``, y down); nothing here reads inches.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pygame

__all__ = ["COVER_BASE_WEIGHT", "COVER_LABEL_WEIGHT", "LABEL_GAP_PX", "LABEL_RINGS", "LEADER_AFTER_PX", "LEADER_CLEAR_KINDS", "LabelPlacer", "Placed", "along",
           "leader_line",
           "around", "corners", "overlap_area"]

LABEL_GAP_PX = 5
"""Named default: pixels between a label and the thing it names on its first ring of places."""

LABEL_RINGS = 6
"""Named default: how many rings of places ``around`` offers, each one label height (or
width, beside) further out than the last, before the placer settles for the least overlap."""

COVER_BASE_WEIGHT = 10
"""Named default: what a pixel of a label over a model's base costs when no place is free."""

COVER_LABEL_WEIGHT = 6
"""Named default: what a pixel of a label over another label or panel costs when no place is
free (less than a base: a label half hidden is read from the other, a hidden model is not)."""

LEADER_AFTER_PX = 12
"""Named default: a label standing further than this from what it names gets a leader line
(``Placed.leader``)."""

LEADER_CLEAR_KINDS = frozenset({"plate"})
"""Named default: the kinds of label whose leader line runs to their ``anchor`` box
(``leader_line``: a unit's name plate) and so must not be led across another unit's bases;
a move's length leads to its own path instead and keeps its old choice."""

Size = tuple[int, int]


def leader_line(rect: pygame.Rect, anchor: pygame.Rect) -> tuple[tuple[int, int], tuple[int, int]]:
    """The leader from a label ``rect`` to its ``anchor`` (pixels): from the point of ``rect``
    nearest the anchor's centre to the point of ``anchor`` nearest that."""
    start = (min(max(anchor.centerx, rect.left), rect.right),
             min(max(anchor.centery, rect.top), rect.bottom))
    end = (min(max(start[0], anchor.left), anchor.right),
           min(max(start[1], anchor.top), anchor.bottom))
    return start, end


@dataclass(frozen=True)
class Placed:
    """A label as placed: ``kind`` (``"plate"``, ``"status"``, ``"move"``, ``"score"``, ...),
    ``name`` (what it labels: a unit id, a model id), its ``rect`` (pixels), the ``anchor``
    rectangle it was placed beside (None for a corner box), and ``overlap`` (pixels of it
    over blocked or placed rectangles: 0 when a free place was found)."""

    kind: str
    name: str
    rect: pygame.Rect
    anchor: pygame.Rect | None
    overlap: int

    @property
    def leader(self) -> bool:
        """True when the label stands more than ``LEADER_AFTER_PX`` from its anchor, so a
        leader line should join them."""
        if self.anchor is None:
            return False
        grown = self.anchor.inflate(2 * LEADER_AFTER_PX, 2 * LEADER_AFTER_PX)
        return not grown.colliderect(self.rect)


def overlap_area(rect: pygame.Rect, rects: Sequence[pygame.Rect]) -> int:
    """Pixels of ``rect`` over each of ``rects``, summed (a pixel under two counts twice)."""
    total = 0
    for j in rect.collidelistall(rects):
        cl = rect.clip(rects[j])
        total += cl.w * cl.h
    return total


def eight_around(anchor: pygame.Rect, size: Size, gy: int, gx: int) -> list[pygame.Rect]:
    """Eight places for a label of ``size`` pixels round ``anchor``, ``gy`` pixels above or
    below it and ``gx`` beside it: below, above, right, left, then the corners (below right,
    above left, above right, below left)."""
    w, h = size
    return [pygame.Rect(anchor.centerx - w // 2, anchor.bottom + gy, w, h),
            pygame.Rect(anchor.centerx - w // 2, anchor.top - gy - h, w, h),
            pygame.Rect(anchor.right + gx, anchor.centery - h // 2, w, h),
            pygame.Rect(anchor.left - gx - w, anchor.centery - h // 2, w, h),
            pygame.Rect(anchor.right + gx, anchor.bottom + gy, w, h),
            pygame.Rect(anchor.left - gx - w, anchor.top - gy - h, w, h),
            pygame.Rect(anchor.right + gx, anchor.top - gy - h, w, h),
            pygame.Rect(anchor.left - gx - w, anchor.bottom + gy, w, h)]


def around(anchor: pygame.Rect, size: Size, gap: int = LABEL_GAP_PX,
           rings: int = LABEL_RINGS) -> list[pygame.Rect]:
    """Places for a label of ``size`` pixels beside ``anchor`` in order of preference:
    below, above, right, left, the four corners, below and above flush with the anchor's
    left edge then its right edge; then the same twelve a label height (half a label width,
    beside) further out, ``rings`` times.  Below comes first, as the
    board's own plates stand under their unit."""
    w, h = size
    out = []
    for k in range(rings):
        gy, gx = gap + k * (h + 4), gap + k * (w // 2 + 4)
        out += eight_around(anchor, size, gy, gx) + [
            # below and above again, flush with the anchor's left edge, then its right edge
            pygame.Rect(anchor.left, anchor.bottom + gy, w, h),
            pygame.Rect(anchor.left, anchor.top - gy - h, w, h),
            pygame.Rect(anchor.right - w, anchor.bottom + gy, w, h),
            pygame.Rect(anchor.right - w, anchor.top - gy - h, w, h),
        ]
    return out


def along(points: Sequence[tuple[float, float]], size: Size, gap: int = 7,
          rings: int = 4) -> list[pygame.Rect]:
    """Places for a label of ``size`` pixels naming a path through screen ``points``: beside
    its middle on either side of it (the side to the left of its way first), then beside the
    points a third and two thirds along and its start, then each of those further out
    (``rings`` steps of a label height).  A path of one point gives ``around`` it."""
    w, h = size
    if len(points) < 2:
        x, y = points[0]
        return around(pygame.Rect(int(x), int(y), 1, 1), size, gap)
    lengths = [math.dist(a, b) for a, b in zip(points, points[1:])]
    total = sum(lengths) or 1.0

    def at(f: float) -> tuple[float, float, float, float]:
        """The point ``f`` of the way along and the screen normal of its leg there."""
        d = f * total
        for (a, b), seg in zip(zip(points, points[1:]), lengths):
            if d <= seg or (a, b) == (points[-2], points[-1]):
                t = 0.0 if seg == 0 else min(1.0, d / seg)
                n = seg or 1.0
                return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t,
                        -(b[1] - a[1]) / n, (b[0] - a[0]) / n)
            d -= seg
        return (*points[-1], 0.0, 1.0)   # pragma: no cover - the loop always returns

    out = []
    for k in range(rings):
        for f in (0.5, 1 / 3, 2 / 3, 0.0):
            x, y, nx, ny = at(f)
            off = abs(nx) * w / 2 + abs(ny) * h / 2 + gap + k * (h + 4)
            for s in (1, -1):
                cx, cy = x + s * nx * off, y + s * ny * off
                out.append(pygame.Rect(round(cx - w / 2), round(cy - h / 2), w, h))
    return out


def corners(bounds: pygame.Rect, size: Size, inset: int = 6) -> list[pygame.Rect]:
    """The four corners of ``bounds`` for a box of ``size`` pixels, ``inset`` pixels in:
    top left, top right, bottom left, bottom right."""
    w, h = size
    x0, x1 = bounds.left + inset, bounds.right - inset - w
    y0, y1 = bounds.top + inset, bounds.bottom - inset - h
    return [pygame.Rect(x, y, w, h) for y in (y0, y1) for x in (x0, x1)]


class LabelPlacer:
    """Places labels one after another inside ``bounds`` (pixels), each clear of the
    ``bases`` (every model's base), the ``blocked`` rectangles (plates and panels drawn
    before) and the labels placed before it.

    ``place`` returns the chosen rectangle and keeps it (``placed``) so the next label keeps
    clear of it.  Deterministic: no randomness, the candidates weighed in the order given.
    """

    def __init__(self, bounds: pygame.Rect, bases: Iterable[pygame.Rect] = (),
                 blocked: Iterable[pygame.Rect] = ()) -> None:
        self.bounds = pygame.Rect(bounds)
        self.bases: list[pygame.Rect] = [pygame.Rect(r) for r in bases]
        self.blocked: list[pygame.Rect] = [pygame.Rect(r) for r in blocked]
        self.placed: list[Placed] = []

    def block(self, rects: Iterable[pygame.Rect]) -> None:
        """Add rectangles (plates, panels) the labels after this must keep clear of."""
        self.blocked.extend(pygame.Rect(r) for r in rects)

    def labels(self) -> list[pygame.Rect]:
        """The blocked rectangles and the labels placed so far."""
        return self.blocked + [p.rect for p in self.placed]

    def taken(self) -> list[pygame.Rect]:
        """Every rectangle a new label must keep clear of: bases, blocked, placed."""
        return self.bases + self.labels()

    def cost(self, rect: pygame.Rect) -> int:
        """``rect``'s pixels over bases times ``COVER_BASE_WEIGHT``, over labels times
        ``COVER_LABEL_WEIGHT``, and 50 for each pixel outside ``bounds``."""
        clip = rect.clip(self.bounds)
        return (COVER_BASE_WEIGHT * overlap_area(rect, self.bases)
                + COVER_LABEL_WEIGHT * overlap_area(rect, self.labels())
                + 50 * (rect.w * rect.h - clip.w * clip.h))

    def choose(self, candidates: Sequence[pygame.Rect]) -> tuple[pygame.Rect, int]:
        """The first of ``candidates`` wholly inside the bounds over nothing taken, else the
        one of least ``cost`` (the earliest of equals), with its overlap in pixels.

        Raises
        ------
        ValueError
            ``candidates`` is empty.
        """
        if not candidates:
            raise ValueError("a label needs at least one candidate place")
        taken = self.taken()
        best, best_cost = candidates[0], None
        for r in candidates:
            if self.bounds.contains(r) and r.collidelist(taken) < 0:
                return pygame.Rect(r), 0
            c = self.cost(r)
            if best_cost is None or c < best_cost:
                best, best_cost = r, c
        return pygame.Rect(best), overlap_area(best, taken)

    def leader_crosses(self, rect: pygame.Rect, anchor: pygame.Rect) -> bool:
        """Whether the leader line from ``rect`` to ``anchor`` (``leader_line``; none when
        ``rect`` stands within ``LEADER_AFTER_PX`` of it) passes over a base that is not
        wholly inside ``anchor`` (the named unit's own bases are what it points at)."""
        if not Placed("", "", rect, anchor, 0).leader:
            return False
        a, b = leader_line(rect, anchor)
        for base in self.bases:
            if anchor.contains(base):
                continue
            if base.inflate(-2, -2).clipline(a, b):
                return True
        return False

    def place(self, kind: str, name: str, candidates: Sequence[pygame.Rect],
              anchor: pygame.Rect | None = None) -> Placed:
        """Choose a place among ``candidates`` for the label ``name`` of ``kind``, keep it,
        and return it as ``Placed``: for a ``kind`` in ``LEADER_CLEAR_KINDS`` with an
        ``anchor``, the first free candidate (inside the bounds, over nothing taken) whose
        leader crosses no other base (``leader_crosses``), else as ``choose`` picks."""
        pick = None
        if anchor is not None and kind in LEADER_CLEAR_KINDS:
            taken = self.taken()
            pick = next((pygame.Rect(r) for r in candidates
                         if self.bounds.contains(r) and r.collidelist(taken) < 0
                         and not self.leader_crosses(r, anchor)), None)
        rect, over = (pick, 0) if pick is not None else self.choose(candidates)
        out = Placed(kind, name, rect, None if anchor is None else pygame.Rect(anchor), over)
        self.placed.append(out)
        return out

    def free(self, candidates: Sequence[pygame.Rect]) -> pygame.Rect | None:
        """The first of ``candidates`` inside the bounds and over nothing taken, or None
        (not kept: the caller places it or puts the label elsewhere)."""
        taken = self.taken()
        for r in candidates:
            if self.bounds.contains(r) and r.collidelist(taken) < 0:
                return pygame.Rect(r)
        return None
