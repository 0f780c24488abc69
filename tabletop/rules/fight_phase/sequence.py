"""The Fight phase as a table of steps (after boardgame.io): fight-phase.txt 12.01-12.09.

``PHASE_STEPS`` lists the phase's own steps in order; ``phase_steps(rules)``
is the table a map's phase runs: ``PHASE_STEPS``, and with ``[rules]
challenges = "gambit"`` the Challenge Sub-phase's rows
(``challenges.gambit_steps.GAMBIT_STEPS``) placed among them.  A map
without the option runs no challenge row.  ``COMBAT_STEPS`` lists the two
steps of the 12.04 sequence with where each goes next:

- Resolve Fights First Combats: starting with the player whose turn it is,
  players alternate selecting a friendly eligible Fights First unit.  When
  the player to select has none: if no Fights First unit is eligible at
  all, move to Resolve Remaining Combats, where this player selects next;
  otherwise the other player selects.
- Resolve Remaining Combats: starting with the player who moved the
  sequence onto it, players alternate selecting a friendly eligible unit.
  When the player to select has none: if no unit is eligible the Fight step
  ends, otherwise the other player selects.  After a fight here, if a
  Fights First unit is now eligible, return to Resolve Fights First Combats.

Named default ``RETURN_STARTS_WITH = "active"``: on returning to Resolve
Fights First Combats, the step starts again "with the player whose turn it
is", as its own text says.

Named default ``FIGHT_ORDER_FIRST`` (``board/config.py``; the ``[rules]``
option ``fight_order_first``), per preset: who selects first as a step of
the sequence begins.  ``"11th"``: ``"active"``, the order above, as 12.04
writes it.  ``"10th"``: ``"non-active"``, that edition's order: the player
whose turn it is not selects first in Resolve Fights First Combats and in
Resolve Remaining Combats (and on a return to Fights First), whoever moved
the sequence on.  The alternation and the passing are the same in both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tabletop.rules.fight_phase import actions
from tabletop.rules.fight_phase.eligibility import eligible_units, fight_refusal
from tabletop.rules.fight_phase.steps import PhaseStep, insert_after

if TYPE_CHECKING:
    from tabletop.rules.fight_phase.context import PhaseContext

RETURN_STARTS_WITH = "active"
ACTIVE_FIRST = "active"
NON_ACTIVE_FIRST = "non-active"


@dataclass(frozen=True)
class CombatStep:
    """One step of the 12.04 sequence.

    ``fights_first_only``: only Fights First units may be selected.
    ``when_none_eligible``: the step to move to (the same player selecting
    next) when no unit it allows is eligible; None ends the Fight step.
    ``return_after_fight``: the step to return to after a fight here when a
    Fights First unit is then eligible (None: stay).
    """

    name: str
    title: str
    rule: str
    fights_first_only: bool
    when_none_eligible: str | None
    return_after_fight: str | None


COMBAT_STEPS: dict[str, CombatStep] = {
    "fights_first": CombatStep("fights_first", "Resolve Fights First Combats",
                               "fight-phase.txt 12.04 (1)", True, "remaining", None),
    "remaining": CombatStep("remaining", "Resolve Remaining Combats",
                            "fight-phase.txt 12.04 (2)", False, None, "fights_first"),
}
FIRST_COMBAT_STEP = "fights_first"

FightUnit = Callable[["PhaseContext", str, str, str], None]


def _enter(ctx: PhaseContext, step: CombatStep, player: str, why: str) -> None:
    ctx.log.emit("combat_step", step.rule, step=step.name, title=step.title, player=player,
                 reason=why)


def first_to_select(ctx: PhaseContext, as_written: str) -> tuple[str, str]:
    """(player, note): who selects first as a combat step begins, and words saying why
    when it is not the text's player ("" when it is).

    ``as_written`` is the player 12.04 names for this moment (the player
    whose turn it is, or the one who moved the sequence on); with
    ``ctx.options.fight_order_first == "non-active"`` (the "10th" preset) it
    is always the player whose turn it is not.  Raises ``ValueError`` for
    any other value of the option.
    """
    order = ctx.options.fight_order_first
    if order == ACTIVE_FIRST:
        return as_written, ""
    if order == NON_ACTIVE_FIRST:
        return ctx.other(ctx.active), "the player whose turn it is not, fight_order_first = non-active"
    raise ValueError(f"unknown fight_order_first {order!r}: use \"active\" or \"non-active\"")


def fight_step(ctx: PhaseContext, fight_unit: FightUnit | None = None) -> None:
    """12.04: run the alternation until every eligible unit has been selected and has fought.

    ``fight_unit(ctx, unit_id, player, step_name)`` resolves one selected
    unit (``actions.fight_unit`` by default).
    """
    fight_unit = fight_unit or actions.fight_unit
    actions.start_fight_step(ctx)
    step = COMBAT_STEPS[FIRST_COMBAT_STEP]
    player, note = first_to_select(ctx, ctx.active)
    _enter(ctx, step, player, "the Fight step starts with "
           + (note or "the player whose turn it is"))
    while True:
        ff = True if step.fights_first_only else None
        mine = eligible_units(ctx, player, fights_first=ff)
        if mine:
            unit = ctx.decisions.choose(player, "fight", mine, default=mine[0], rule=step.rule,
                                        context={"step": step.name},
                                        why_not=lambda v: fight_refusal(ctx, str(v)))
            fight_unit(ctx, unit, player, step.name)
            back = step.return_after_fight
            if back is not None and eligible_units(ctx, fights_first=True):
                step = COMBAT_STEPS[back]
                player, note = first_to_select(
                    ctx, ctx.active if RETURN_STARTS_WITH == "active" else ctx.other(player))
                _enter(ctx, step, player, "a Fights First unit is now eligible to fight"
                       + (f"; the step starts with {note}" if note else ""))
            else:
                player = ctx.other(player)
            continue
        if not eligible_units(ctx, fights_first=ff):
            if step.when_none_eligible is None:
                ctx.log.emit("combat_step", step.rule, step="end", title="The Fight step ends",
                             player=player, reason="no unit is eligible to fight")
                return
            step = COMBAT_STEPS[step.when_none_eligible]
            player, note = first_to_select(ctx, player)
            _enter(ctx, step, player, "no Fights First unit is eligible to fight; " + (
                f"the step starts with {note}" if note else "this player selects next"))
            continue
        ctx.log.emit("pass", step.rule, player=player, step=step.name,
                     reason="no eligible unit to select: the other player selects")
        player = ctx.other(player)


PHASE_STEPS: tuple[PhaseStep, ...] = (
    PhaseStep("start", "Start of the Fight phase", actions.R_START, actions.start_of_phase),
    PhaseStep("pile_in", "Pile in", actions.R_PILE_IN_STEP, actions.pile_in_step),
    PhaseStep("fight", "Fight", "fight-phase.txt 12.04", fight_step),
    PhaseStep("consolidate", "Consolidate", actions.R_CONSOLIDATE_STEP, actions.consolidate_step),
    PhaseStep("end", "End of the Fight phase", actions.R_END, actions.end_of_phase),
)
"""The Fight phase's own steps (every map)."""


def phase_steps(rules) -> tuple[PhaseStep, ...]:
    """The table of steps the phase runs for a map whose ``[rules]`` are ``rules`` (a
    ``RulesConfig``): ``PHASE_STEPS``, and only when ``rules.challenges == "gambit"`` the
    gambit challenge's rows placed after the steps they follow (``gambit_steps.GAMBIT_STEPS``:
    start, pile_in, challenge, fight, resolution, consolidate, end, disgraced_end).  The same
    ``rules`` always gives an equal table, whatever was imported before.
    """
    if rules.challenges != "gambit":
        return PHASE_STEPS
    # imported here: the challenge rows are built on this package's PhaseStep
    from tabletop.rules.challenges.gambit_steps import GAMBIT_STEPS
    return insert_after(PHASE_STEPS, GAMBIT_STEPS)


def run_phase(ctx: PhaseContext, steps: tuple[PhaseStep, ...] | None = None) -> None:
    """Run every step of ``steps`` (None: ``phase_steps(ctx.state.rules)``) in order."""
    for step in phase_steps(ctx.state.rules) if steps is None else steps:
        step.run(ctx)
