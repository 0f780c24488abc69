"""The one tolerance every comparison uses (docs/design.md "Conventions: One tolerance").

``tol`` is the map's ``contact_tolerance`` (default 0.02").  "Within X" means
not more than X, so ``d <= X + tol``; "in base contact" means a gap of at most
``tol``; "closer" means nearer by more than ``tol``; "overlap" means
intersecting by more than ``tol``.  So two 32mm bases 2.0" apart by
arithmetic that gives 1.9999999999999998 are still "within 2"" and not
"within 1.99"".
"""

from __future__ import annotations

import numpy as np

# floating-point slack under every comparison, far below any tolerance a map can set
EPS = 1e-9


def within(distance: float, limit: float, tol: float) -> bool:
    """``distance`` is within ``limit`` (inches): not more than it, give or take ``tol``."""
    return distance <= limit + tol + EPS


def in_contact(gap: float, tol: float) -> bool:
    """A gap (inches, negative when bases intersect) that counts as base contact."""
    return gap <= tol + EPS


def overlapping(gap: float, tol: float) -> bool:
    """Bases that intersect by more than ``tol`` (signed gap below ``-tol``)."""
    return gap < -tol - EPS


def closer(new: float, old: float, tol: float) -> bool:
    """``new`` is closer than ``old`` by more than ``tol`` — or both are in base contact."""
    return new < old - tol - EPS or (new <= tol + EPS and old <= tol + EPS and new <= old + EPS)


def closer_all(new, old: float, tol: float):
    """``closer`` for an array of ``new`` distances (numpy, element by element)."""
    new = np.asarray(new, dtype=float)
    return (new < old - tol - EPS) | ((new <= tol + EPS) & (old <= tol + EPS) & (new <= old + EPS))
