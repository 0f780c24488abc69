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

from dataclasses import replace

from tabletop.rules.challenges import gambit_rows
from tabletop.rules.challenges.gambit import end_phase
from tabletop.rules.challenges.gambit_rows import RULE_END
from tabletop.rules.engine.driver import log_items
from tabletop.rules.engine.machine import PhaseState, Row, Transition, goto
from tabletop.rules.events import EventLog

R_SUBPHASE = "gambit-challenge.txt (Challenge Sub-phase)"
R_RESOLUTION = "gambit-challenge.txt Resolution Sub-phase"
R_END = RULE_END
SUBPHASE_PLACE = "after pile-in (12.02), before the Fight step (12.04); Resolution before 12.07"


def _renamed(rows: list[Row], old: str, new: str) -> list[Row]:
    """``rows`` with the row named ``old`` named ``new`` (its own ``goto``s never target it)."""
    return [replace(r, name=new) if r.name == old else r for r in rows]


def challenge_rows(next_row: str) -> list[Row]:
    """Row ``challenge``: the Challenge Sub-phase on every combat, as the sub-phase's own rows
    (``gambit_rows.challenge_rows``, entered here at ``gambit_challenge``: chances and
    questions pending in the fight phase's table, the record in ``FightMemo.challenge``);
    the duellists leave the table until the Resolution.  ``challenge`` reports the step;
    ``gambit_challenge_done`` says when no challenge was issued in any combat."""
    def enter(st: PhaseState) -> Transition:
        log = EventLog()
        log.emit("phase_step", R_SUBPHASE, step="challenge", title="Challenge Sub-phase",
                 player=st.battlefield.active_player)
        return goto(st, "gambit_challenge", log_items(log))

    def done(st: PhaseState) -> Transition:
        sub = st.memo.challenge
        if sub is None or not sub.challenges:
            log = EventLog()
            log.emit("no_challenge", R_SUBPHASE, reason="no challenge was issued in any combat")
            return goto(st, next_row, log_items(log))
        return goto(st, next_row)

    return [Row("challenge", "Challenge Sub-phase", R_SUBPHASE, enter),
            *_renamed(gambit_rows.challenge_rows("gambit_challenge_done"), "challenge", "gambit_challenge"),
            Row("gambit_challenge_done", "Challenge Sub-phase ends", R_SUBPHASE, done)]


def resolution_rows(next_row: str) -> list[Row]:
    """Row ``challenge_resolution``: return the set-aside models and report each player's combat
    resolution points from challenges (``gambit_rows.resolution_rows``, entered at
    ``gambit_resolution``); nothing when no challenge was fought."""
    def enter(st: PhaseState) -> Transition:
        sub = st.memo.challenge
        if sub is None or not sub.challenges:
            return goto(st, next_row)
        log = EventLog()
        log.emit("phase_step", R_RESOLUTION, step="resolution",
                 title="Resolution: challengers return", player=st.battlefield.active_player)
        return goto(st, "gambit_resolution", log_items(log))
    return [Row("challenge_resolution", "Resolution", R_RESOLUTION, enter),
            *_renamed(gambit_rows.resolution_rows(next_row), "challenge_resolution", "gambit_resolution")]


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
        return goto(st, next_row, log_items(log), battlefield=after)
    return Row("disgraced_end", "End Phase: Disgraced removed", R_END, enter)
