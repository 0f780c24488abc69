"""The rows of one rank-and-flank round (rank-and-flank-combat.txt "Engagements"), as data.

A round of one engagement runs in stages; each stage runs the rows of the
round's table that belong to it, in table order (the blows are not rows of
plain code but the phase's chance rows, ``phase.rows``).  The table is composed
for a map by ``round.round_steps(rules)``: the ruleset's own rows, plus the
character challenge's rows (``challenges.character_steps``) only when the
map's ``[rules] challenges`` is ``"character"``.  Nothing is registered at
import time and no row checks an option to decide whether it does anything:
a map without challenges has no challenge rows at all.

Stages and the signature of a row's ``run`` in each:

``OPEN``  ``run(state, units, dice, decisions, log) -> Battlefield``
    before the round is planned, on the table as it stands (issuing a
    challenge may move models); the phase's ``open`` row (``phase.rows``).
``PLAN``  ``run(ctx) -> None``
    planning the round (``round.plan_round``): who attacks whom with how many
    dice, on the ``RoundContext`` (``attacks``, ``duels``, ``excluded``,
    ``protected``, ``notes``, ``extra``).
``CLOSE`` ``run(state, units, log) -> Battlefield``
    once the round is over (after turning to face), before the first-round
    charge effects end (the phase's ``turn`` row).

No state is held here; ``RoundStep`` is frozen.  Coordinates are not read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["CLOSE", "OPEN", "PLAN", "STAGES", "RoundStep", "in_stage"]

OPEN = "open"
PLAN = "plan"
CLOSE = "close"
STAGES = (OPEN, PLAN, CLOSE)


@dataclass(frozen=True)
class RoundStep:
    """One row of a round: its ``name``, the ``stage`` it runs in (``STAGES``), a
    ``title`` in words, the ``rule`` clause it applies, ``run`` (signature by stage,
    see the module docstring).

    Raises ``ValueError`` (at construction) for an unknown stage.
    """

    name: str
    stage: str
    title: str
    rule: str
    run: Callable[..., Any]

    def __post_init__(self) -> None:
        if self.stage not in STAGES:
            raise ValueError(f"round step {self.name!r}: unknown stage {self.stage!r}, "
                             f"use one of {', '.join(STAGES)}")


def in_stage(steps: Iterable[RoundStep], stage: str) -> tuple[RoundStep, ...]:
    """The rows of ``steps`` that run in ``stage``, in table order."""
    return tuple(s for s in steps if s.stage == stage)
