"""The one tolerance every comparison uses (docs/design.md "Conventions: One tolerance").

``tol`` is the map's ``contact_tolerance`` (default 0.02").  "Within X" means
not more than X, so ``d <= X + tol``; "in base contact" means a gap of at most
``tol``; "closer" means nearer by more than ``tol``; "overlap" means
intersecting by more than ``tol``.  So two 32mm bases 2.0" apart by
arithmetic that gives 1.9999999999999998 are still "within 2"" and not
"within 1.99"".
"""

from __future__ import annotations

from typing import Any, overload

import numpy as np
import numpy.typing as npt

# floating-point slack under every comparison, far below any tolerance a map can set
EPS = 1e-9


@overload
def within(distance: float, limit: float, tol: float) -> bool: ...
@overload
def within(distance: npt.NDArray[Any], limit: float, tol: float) -> npt.NDArray[np.bool_]: ...


def within(distance: float | npt.NDArray[Any], limit: float, tol: float
           ) -> bool | npt.NDArray[np.bool_]:
    """``distance`` is within ``limit`` (inches): not more than it, give or take ``tol``.

    ``distance`` is one number or a numpy array of them (then the answer is a bool array
    of the same shape)."""
    return distance <= limit + tol + EPS


@overload
def in_contact(gap: float, tol: float) -> bool: ...
@overload
def in_contact(gap: npt.NDArray[Any], tol: float) -> npt.NDArray[np.bool_]: ...


def in_contact(gap: float | npt.NDArray[Any], tol: float) -> bool | npt.NDArray[np.bool_]:
    """A gap (inches, negative when bases intersect) that counts as base contact.

    ``gap`` is one number or a numpy array of them (then a bool array of the same shape)."""
    return gap <= tol + EPS


@overload
def overlapping(gap: float, tol: float) -> bool: ...
@overload
def overlapping(gap: npt.NDArray[Any], tol: float) -> npt.NDArray[np.bool_]: ...


def overlapping(gap: float | npt.NDArray[Any], tol: float) -> bool | npt.NDArray[np.bool_]:
    """Bases that intersect by more than ``tol`` (signed gap below ``-tol``).

    ``gap`` is one number or a numpy array of them (then a bool array of the same shape)."""
    return gap < -tol - EPS


def closer(new: float, old: float, tol: float) -> bool:
    """``new`` is closer than ``old`` by more than ``tol`` — or both are in base contact."""
    return new < old - tol - EPS or (new <= tol + EPS and old <= tol + EPS and new <= old + EPS)


def closer_all(new, old: float, tol: float):
    """``closer`` for an array of ``new`` distances (numpy, element by element)."""
    new = np.asarray(new, dtype=float)
    return (new < old - tol - EPS) | ((new <= tol + EPS) & (old <= tol + EPS) & (new <= old + EPS))
