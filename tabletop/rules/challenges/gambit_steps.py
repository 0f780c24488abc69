"""The gambit Challenge Sub-phase as rows of the Fight phase's table (``fight_phase.sequence``).

``GAMBIT_STEPS`` are the rows ``sequence.phase_steps(rules)`` places in the
phase's table only when the map's ``[rules] challenges`` is ``"gambit"``
(named default ``SUBPHASE_PLACE``, each row as ``(after, row)``): the
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

from typing import TYPE_CHECKING

from tabletop.rules.challenges import gambit_rows
from tabletop.rules.challenges.gambit import ask_through, challenge_subphase, end_phase
from tabletop.rules.challenges.gambit_rows import RULE_END, GambitOnly
from tabletop.rules.engine import driver
from tabletop.rules.engine.machine import END, Machine, PhaseState
from tabletop.rules.fight_phase.steps import PhaseStep

if TYPE_CHECKING:
    from tabletop.rules.fight_phase.context import PhaseContext

R_SUBPHASE = "gambit-challenge.txt (Challenge Sub-phase)"
R_RESOLUTION = "gambit-challenge.txt Resolution Sub-phase"
R_END = RULE_END
SUBPHASE_PLACE = "after pile-in (12.02), before the Fight step (12.04); Resolution before 12.07"


def challenge_step(ctx: PhaseContext) -> None:
    """Row ``challenge``: the Challenge Sub-phase on every combat; the duellists leave the table
    until the Resolution."""
    ctx.log.emit("phase_step", R_SUBPHASE, step="challenge", title="Challenge Sub-phase",
                 player=ctx.active)
    ctx.state, ctx.challenges = challenge_subphase(ctx.state, ctx.dice, ctx.decisions, ctx.log)
    if not ctx.challenges.challenges:
        ctx.log.emit("no_challenge", R_SUBPHASE, reason="no challenge was issued in any combat")


def resolution_step(ctx: PhaseContext) -> None:
    """Row ``resolution``: return the set-aside models; report each player's combat resolution
    points from challenges (nothing when no challenge was fought)."""
    sub = ctx.challenges
    if sub is None or not sub.challenges:
        return
    ctx.log.emit("phase_step", R_RESOLUTION, step="resolution", title="Resolution: challengers return",
                 player=ctx.active)
    rows = Machine(gambit_rows.resolution_rows(END), "challenge_resolution")
    run = driver.run(rows, PhaseState(ctx.state, GambitOnly(sub), "challenge_resolution"), dice=ctx.dice,
                     policy=ask_through(ctx.decisions), log=ctx.log)
    ctx.state = run.state.battlefield


def end_step(ctx: PhaseContext) -> None:
    """Row ``disgraced_end``: after the Fight phase, the End Phase removes every Disgraced status
    (``gambit.end_phase``); nothing when no model is Disgraced."""
    if any("disgraced" in m.status for m in ctx.state.models()):
        ctx.log.emit("phase_step", R_END, step="disgraced_end", title="End Phase: Disgraced removed",
                     player=ctx.active)
        ctx.state = end_phase(ctx.state, ctx.log)


GAMBIT_STEPS: tuple[tuple[str, PhaseStep], ...] = (
    ("pile_in", PhaseStep("challenge", "Challenge Sub-phase", R_SUBPHASE, challenge_step)),
    ("fight", PhaseStep("resolution", "Resolution", R_RESOLUTION, resolution_step)),
    ("end", PhaseStep("disgraced_end", "End Phase: Disgraced removed", R_END, end_step)),
)
"""The gambit challenge's rows, each after the phase step it follows (``SUBPHASE_PLACE``)."""
