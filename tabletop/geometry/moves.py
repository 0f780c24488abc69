"""Pile-in and consolidation moves: the public API (fight-phase.txt 12.03, 12.08).

- ``pile_in_targets(state, geo, unit)`` and ``consolidation_options(state,
  geo, unit)``: what the unit selects before moving (``movespec.py``);
- ``solve_move(state, geo, spec) -> MovePlan``: the move, every hard clause
  kept where it can be (``solver.py``; paths in ``paths.py``: round bases
  among round bases slide round analytically, ``slides.py``, else pymunk);
- ``validate_move(state, geo, spec, positions, paths=None)``: every clause a
  proposed move breaks, per model, with numbers (``validator.py``).

12.03 is read as written: the targets are units, so "closer to the closest
pile-in target" is measured to that unit's closest model
(``CLOSEST_TARGET_READING``).  Inches, origin bottom-left, y up.
"""

from tabletop.geometry.movespec import (
    CLOSEST_TARGET_READING,
    CONSOLIDATE_RULE,
    CONSOLIDATION_MODE_RANGE,
    KINDS,
    PILE_IN_RULE,
    MovePlan,
    MoveSpec,
    Violation,
    consolidation_options,
    pile_in_targets,
)
from tabletop.geometry.solver import solve_move
from tabletop.geometry.validator import MOVE_ORDER, POSSIBLE_MEANS, validate_move

__all__ = [
    "CLOSEST_TARGET_READING",
    "CONSOLIDATE_RULE",
    "CONSOLIDATION_MODE_RANGE",
    "KINDS",
    "MOVE_ORDER",
    "PILE_IN_RULE",
    "POSSIBLE_MEANS",
    "MovePlan",
    "MoveSpec",
    "Violation",
    "consolidation_options",
    "pile_in_targets",
    "solve_move",
    "validate_move",
]
