"""The gambit Challenge Sub-phase as rows of the Fight phase's table (``fight_phase.sequence``).

``challenge_rows(next_row)`` (entered at ``challenge``),
``resolution_rows(next_row)`` (entered at ``challenge_resolution``) and
``disgraced_end_row(next_row)`` are the rows ``sequence.phase_rows(rules)``
places in the phase's table only when the map's ``[rules] challenges`` is
``"gambit"`` (named default ``SUBPHASE_PLACE``): the
Challenge Sub-phase after the pile-in step (12.02) and before the Fight step
(12.04) - "before the rest of the units clash" - and the Resolution
(returning the models set aside) after the Fight step and before
consolidation (12.07), so returned models are on the table when units
consolidate; and, last of all (after 12.09), the End Phase's removal of
Disgraced statuses (``gambit.end_phase``, named default
``gambit.DISGRACED_ENDS``: the run's map must not carry them into a later
phase).  A map without the option has none of these rows; nothing is
registered at import time and no row checks the option.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from tabletop.rules.challenges.gambit import RULE_END, challenge_subphase, end_phase, return_models
from tabletop.rules.decisions import Decisions
from tabletop.rules.engine.machine import PhaseState, Row, Transition, goto
from tabletop.rules.events import EventLog

R_SUBPHASE = "gambit-challenge.txt (Challenge Sub-phase)"
R_RESOLUTION = "gambit-challenge.txt Resolution Sub-phase"
R_END = RULE_END
SUBPHASE_PLACE = "after pile-in (12.02), before the Fight step (12.04); Resolution before 12.07"


@dataclass
class Legacy:
    """TRANSITIONAL: the dice and decisions today's challenge code rolls and asks with, kept in
    the memo (``FightMemo.legacy``) until the sub-phase is rows of its own (gambit_rows).
    ``decisions`` None: a fresh ``Decisions`` from the map's ``[[decisions]]`` each time."""

    dice: Any
    decisions: Decisions | None = None


def _items(log: EventLog) -> tuple:
    from tabletop.rules.fight_phase.actions import log_items
    return log_items(log)


def challenge_rows(next_row: str) -> list[Row]:
    """Row ``challenge``: the Challenge Sub-phase on every combat; the duellists leave the table
    until the Resolution.

    TRANSITIONAL: this row runs today's challenge code, which rolls and asks inside the row
    (with ``memo.legacy``), so odds on a gambit map are sampled, never walked.  Swapped for
    ``challenges.gambit_rows.challenge_rows`` when that port lands.
    """
    def enter(st: PhaseState) -> Transition:
        bf = st.battlefield
        legacy: Legacy = st.memo.legacy
        log = EventLog()
        log.emit("phase_step", R_SUBPHASE, step="challenge", title="Challenge Sub-phase",
                 player=bf.active_player)
        dice = legacy.dice
        decisions = legacy.decisions if legacy.decisions is not None else Decisions(bf.decisions)
        saved = dice.log, decisions.log
        dice.log = decisions.log = log
        try:
            after, sub = challenge_subphase(bf, dice, decisions, log)
        finally:
            dice.log, decisions.log = saved
        if not sub.challenges:
            log.emit("no_challenge", R_SUBPHASE, reason="no challenge was issued in any combat")
        return goto(st, next_row, _items(log), battlefield=after,
                    memo=replace(st.memo, challenge=sub))
    return [Row("challenge", "Challenge Sub-phase", R_SUBPHASE, enter)]


def resolution_rows(next_row: str) -> list[Row]:
    """Row ``challenge_resolution``: return the set-aside models; report each player's combat
    resolution points from challenges (nothing when no challenge was fought)."""
    def enter(st: PhaseState) -> Transition:
        sub = st.memo.challenge
        if sub is None or not sub.challenges:
            return goto(st, next_row)
        log = EventLog()
        log.emit("phase_step", R_RESOLUTION, step="resolution",
                 title="Resolution: challengers return", player=st.battlefield.active_player)
        after = return_models(st.battlefield, sub, log)
        log.emit("challenge_points", R_RESOLUTION, points=sub.points(),
                 text="combat resolution points earned in the Challenge Sub-phase")
        return goto(st, next_row, _items(log), battlefield=after)
    return [Row("challenge_resolution", "Resolution", R_RESOLUTION, enter)]


def disgraced_end_row(next_row: str) -> Row:
    """Row ``disgraced_end``: after the Fight phase, the End Phase removes every Disgraced status
    (``gambit.end_phase``); nothing when no model is Disgraced."""
    def enter(st: PhaseState) -> Transition:
        bf = st.battlefield
        if not any("disgraced" in m.status for m in bf.models()):
            return goto(st, next_row)
        log = EventLog()
        log.emit("phase_step", R_END, step="disgraced_end", title="End Phase: Disgraced removed",
                 player=bf.active_player)
        after = end_phase(bf, log)
        return goto(st, next_row, _items(log), battlefield=after)
    return Row("disgraced_end", "End Phase: Disgraced removed", R_END, enter)
