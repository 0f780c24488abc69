"""Charge odds on the table: the chance that a charge ending at each cell of a grid is made.

For a charging unit, every cell centre of a grid gets the chance that the ruleset's
charge roll (``rules/charge.py charge_roll``: 2D6 in fight-phase, Move + the higher
of 2D6 in rank-and-flank) reaches the shortest path from the nearest of the unit's
models to it, round other bases and the terrain ``charge.blocking_terrain`` names
for the unit's first model ("within" is "not more than", with the map's
tolerance; measurements.csv 40K 10th Charge, TOW 1st Charge range).  A charge
ending there is one whose closest model's centre ends there, so the engagement
range plays no part: the path length is what the roll must reach.

The path lengths come from one distance field per unit
(``geometry/reach_field.py``); the chance depends only on the length, so it is
worked out once per band between two rolls (``roll_bands``), and each cell reads
its band: no roll is enumerated per cell.

Inches, origin bottom-left, y up.
"""

from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction

import numpy as np

from tabletop.board.state import Battlefield
from tabletop.geometry.charge_paths import ChargeArena, charger_radius
from tabletop.geometry.reach_field import field_pieces, near_shapes
from tabletop.rules import charge as CH
from tabletop.rules.dice import enumerate_outcomes

__all__ = ["roll_bands", "band_odds", "unit_move", "odds_field_pieces", "odds_field"]


def unit_move(state: Battlefield, unit_id: str) -> float:
    """The Move a rank-and-flank charge adds to its roll (the lowest of the unit's models'
    ``M``/``Move``, inches); 0 in fight-phase, whose charge roll is 2D6 alone."""
    if state.ruleset != "rank-and-flank":
        return 0.0
    moves = [float(v) for m in state.unit(unit_id).models for k, v in m.profile.items()
             if k.lower() in ("move", "m")]
    return min(moves) if moves else 0.0


def roll_bands(ruleset: str, move: float = 0.0) -> tuple[np.ndarray, list[Fraction]]:
    """The charge ranges the roll can give and the exact chance of reaching each.

    Returns ``(ranges, chances)``: ``ranges`` the distinct charge ranges (inches, rising:
    2..12 for 2D6; Move + 1..6 in rank-and-flank), ``chances[i]`` the chance that the roll
    is at least ``ranges[i]``.  A path of length L (inches) is made by every roll whose
    range is at least L - tol, so its chance is ``chances[i]`` for the first range at
    least L - tol, and 0 past the last.
    """
    rolls = enumerate_outcomes(lambda d: CH.charge_roll(d, ruleset, move))
    ranges = sorted(rolls)
    chances = []
    left = Fraction(1)
    for r in ranges:
        chances.append(left)
        left -= rolls[r]
    return np.asarray(ranges, dtype=float), chances


def band_odds(lengths: np.ndarray, ranges: np.ndarray, chances: list[Fraction],
              tol: float) -> np.ndarray:
    """The chance of making each path of ``lengths`` (an array, inches; ``inf``: never):
    each length's band is found by a search among the ``ranges`` (``roll_bands``), so the
    chance is read, not enumerated, per cell.  Same shape as ``lengths``."""
    table = np.asarray([float(c) for c in chances] + [0.0])
    flat = np.asarray(lengths, dtype=float).ravel()
    band = np.searchsorted(ranges, flat - tol - 1e-9, side="left")
    band[~np.isfinite(flat)] = len(ranges)
    return table[band].reshape(np.shape(lengths))


def odds_field_pieces(state: Battlefield, unit_id: str, xs, ys,
                      progress: dict[str, float] | None = None
                      ) -> Generator[int, None, tuple[np.ndarray, np.ndarray]]:
    """The charge odds of ``unit_id`` at each cell of the grid ``xs`` x ``ys`` (cell centres,
    inches), in pieces: yields counted work (the arena's vertices, then the distance field's,
    ``geometry/reach_field.py``), never reads a clock.  ``progress``: as ``field_pieces``'s
    (0 while the arena is built).

    Returns ``(probabilities, lengths)``, two (len(ys), len(xs)) float arrays: the chance a
    charge whose closest model's centre ends at the cell is made (0 out of reach, walled
    off, or where a base centre cannot stand) and the path length in inches (``inf`` then).
    Raises TabletopError for an unknown unit (``Battlefield.unit``).
    """
    unit = state.unit(unit_id)
    first = unit.models[0]
    tol = state.rules.tol
    move = unit_move(state, unit_id)
    limit = CH.max_reach(state.ruleset, move) + tol
    starts = [m.at for m in unit.models]
    terrain = [poly for _, poly in CH.blocking_terrain(state, first)]
    grow = charger_radius(first)
    arena = yield from ChargeArena.pieces(
        near_shapes(state, (unit_id,), terrain, starts, limit, grow), grow)
    lengths = yield from field_pieces(arena, starts, np.asarray(xs, dtype=float),
                                      np.asarray(ys, dtype=float), limit, progress)
    ranges, chances = roll_bands(state.ruleset, move)
    return band_odds(lengths, ranges, chances, tol), lengths


def odds_field(state: Battlefield, unit_id: str, xs, ys) -> tuple[np.ndarray, np.ndarray]:
    """``odds_field_pieces`` run to its end: ``(probabilities, lengths)``."""
    gen = odds_field_pieces(state, unit_id, xs, ys)
    while True:
        try:
            next(gen)
        except StopIteration as end:
            return end.value
