"""A row of the Fight phase's table of steps (``sequence.PHASE_STEPS``), and placing rows.

``PhaseStep`` is frozen data: a name, a title, the clause it applies and
``run(ctx)`` on the ``PhaseContext``.  ``insert_after`` composes a table from
the phase's own rows and rows an option adds (the gambit Challenge
Sub-phase, ``challenges.gambit_steps``), each placed after a named row; the
composition is decided from the map's ``[rules]`` by
``sequence.phase_steps``, never registered at import time.  No coordinates.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tabletop.rules.fight_phase.context import PhaseContext

__all__ = ["PhaseStep", "insert_after"]


@dataclass(frozen=True)
class PhaseStep:
    """One step of the phase: its name, title, clause and action."""

    name: str
    title: str
    rule: str
    run: Callable[[PhaseContext], None]


def insert_after(steps: tuple[PhaseStep, ...],
                 rows: Iterable[tuple[str, PhaseStep]]) -> tuple[PhaseStep, ...]:
    """``steps`` with each ``(after, row)`` of ``rows`` placed right after the step named
    ``after`` (rows after the same step keep their order).

    Raises
    ------
    ValueError
        ``after`` names no step of the table (or a row's name is already in it).
    """
    out = list(steps)
    last: dict[str, str] = {}        # step name -> the last row placed after it
    for after, row in rows:
        names = [s.name for s in out]
        if row.name in names:
            raise ValueError(f"phase step {row.name!r} is already in the table")
        if after not in names:
            raise ValueError(f"phase step {row.name!r} goes after {after!r}, which is not a step "
                             f"of the table ({', '.join(names)})")
        out.insert(names.index(last.get(after, after)) + 1, row)
        last[after] = row.name
    return tuple(out)
