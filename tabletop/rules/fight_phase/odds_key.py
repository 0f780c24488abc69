"""The merge key of the fight-phase odds walks (``odds``, ``odds_split``): what decides the
rest of the fight, so that two roads reaching equal keys are weighed once."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from tabletop.board.frozen import evolve
from tabletop.rules.engine.machine import PhaseState

__all__ = ["key", "memo_key"]


def key(state: PhaseState) -> Hashable:
    """Everything that decides the rest of the fight and its outcome: the row, what is
    pending, the memo (its compared fields; of the attacks under way only what their later
    stages read, ``attacks.Group.ahead``), each model's place, wounds lost and statuses, and
    the map's ``[[decisions]]`` already used."""
    models = tuple((m.id, m.x, m.y, m.facing_deg, m.wounds_lost, tuple(m.status))
                   for m in state.battlefield.models())
    return state.cursor, state.pending, memo_key(state.memo), models, state.used


def memo_key(memo: Any) -> Any:
    """The memo as the key compares it: of the attacks under way only what their later
    stages read, of the gambit Challenge Sub-phase's record what the phase reads of it."""
    job = memo.attack
    if job is not None:
        memo = evolve(memo, attack=(job.unit, job.player, job.rule, job.then, job.asked,
                                    tuple(g.ahead() for g in job.groups)))
    if memo.challenge is not None:   # the gambit sub-phase's record: what the phase reads of it
        memo = evolve(memo, challenge=memo.challenge.ahead())
    return memo
