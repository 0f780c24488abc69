"""The Fight phase as a table of rows (after boardgame.io): fight-phase.txt 12.01-12.09.

``PHASE_STEPS`` names the phase's own steps in order; ``phase_rows(rules)``
is the table of rows (``tabletop.rules.engine.machine.Row``) a map's phase
runs: those steps' rows, and with ``[rules] challenges = "gambit"`` the
Challenge Sub-phase's rows (entered at ``challenge``, after the pile-in
step), its Resolution's (entered at ``challenge_resolution``, before
consolidation) and the End Phase's removal of Disgraced statuses.  A map
without the option has no challenge row.  ``phase(battlefield)`` gives the
``Machine`` and the ``PhaseState`` it starts from.  ``COMBAT_STEPS`` lists the two
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

from dataclasses import dataclass
from typing import Any

from tabletop.board.frozen import evolve
from tabletop.board.state import Battlefield
from tabletop.rules.engine.machine import END, Machine, PhaseState, Row, Transition, goto, wait
from tabletop.rules.engine.pending import Question
from tabletop.rules.fight_phase import actions
from tabletop.rules.fight_phase.actions import ev, view
from tabletop.rules.fight_phase.context import FightMemo, FightOptions, PhaseView
from tabletop.rules.fight_phase.eligibility import (
    DROPPED_OUT_REASON,
    R_FIGHT,
    dropped_out,
    eligible_units,
    fight_refusal,
)

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


def _entered(step: CombatStep, player: str, why: str):
    return ev("combat_step", step.rule, step=step.name, title=step.title, player=player, reason=why)


def first_to_select(ctx: PhaseView, as_written: str) -> tuple[str, str]:
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


def fight_step_rows(next_row: str) -> list[Row]:
    """12.04: the alternation, until every eligible unit has been selected and has fought.

    ``fight`` starts the Fight step; ``select`` asks the player to select
    (choice ``fight``), passing and moving between ``COMBAT_STEPS`` as they
    say; the selected unit fights (``actions.fight_rows``) and comes back to
    ``select_after``, which returns to Resolve Fights First Combats when a
    Fights First unit is now eligible, else hands over to the other player.
    """
    def enter_fight(st: PhaseState) -> Transition:
        st, items = actions.start_fight_step(st)
        v = view(st)
        step = COMBAT_STEPS[FIRST_COMBAT_STEP]
        player, note = first_to_select(v, v.active)
        e = _entered(step, player, "the Fight step starts with "
                     + (note or "the player whose turn it is"))
        return goto(st, "select", items + (e,),
                    memo=evolve(st.memo, combat=step.name, selector=player))

    def enter_select(st: PhaseState) -> Transition:
        v = view(st)
        step = COMBAT_STEPS[st.memo.combat]
        player = st.memo.selector
        events = []
        told = [u for u in dropped_out(v) if u not in st.memo.dropped_out]
        if told:
            events += [ev("no_longer_eligible", R_FIGHT, unit=u, player=v.state.unit(u).player,
                          reason=DROPPED_OUT_REASON) for u in told]
            st = evolve(st, memo=evolve(st.memo, dropped_out=st.memo.dropped_out | set(told)))
        ever = set(st.memo.ever_eligible)
        while True:
            ff = True if step.fights_first_only else None
            mine = eligible_units(v, player, fights_first=ff)
            ever.update(mine)
            if mine:
                def why_not(val: object, player: str = player, ff: bool | None = ff) -> str:
                    return fight_refusal(v, str(val), player, ff is True)
                q = Question(player, "fight", tuple(mine), mine[0], step.rule,
                             (("step", step.name),), why_not=why_not)
                return wait(st, q, tuple(events), memo=evolve(
                    st.memo, combat=step.name, selector=player, ever_eligible=frozenset(ever)))
            anyone = eligible_units(v, fights_first=ff)
            ever.update(anyone)
            if not anyone:
                if step.when_none_eligible is None:
                    events.append(ev("combat_step", step.rule, step="end",
                                     title="The Fight step ends", player=player,
                                     reason="no unit is eligible to fight"))
                    return goto(st, next_row, tuple(events), memo=evolve(
                        st.memo, combat=None, selector=None, ever_eligible=frozenset(ever)))
                step = COMBAT_STEPS[step.when_none_eligible]
                player, note = first_to_select(v, player)
                events.append(_entered(step, player, "no Fights First unit is eligible to fight; "
                                       + (f"the step starts with {note}" if note
                                          else "this player selects next")))
                continue
            events.append(ev("pass", step.rule, player=player, step=step.name,
                             reason="no eligible unit to select: the other player selects"))
            player = v.other(player)

    def resume_select(st: PhaseState, unit: Any) -> Transition:
        job = actions.FightJob(unit, st.memo.selector, st.memo.combat, "select_after")
        return goto(st, "fight_type", memo=evolve(st.memo, fighting=job))

    def enter_after(st: PhaseState) -> Transition:
        v = view(st)
        step = COMBAT_STEPS[st.memo.combat]
        back = step.return_after_fight
        if back is not None:
            ff = eligible_units(v, fights_first=True)
            memo = evolve(st.memo, ever_eligible=st.memo.ever_eligible | set(ff))
            if ff:
                step = COMBAT_STEPS[back]
                player, note = first_to_select(
                    v, v.active if RETURN_STARTS_WITH == "active" else v.other(st.memo.selector))
                e = _entered(step, player, "a Fights First unit is now eligible to fight"
                             + (f"; the step starts with {note}" if note else ""))
                return goto(st, "select", (e,), memo=evolve(memo, combat=step.name,
                                                             selector=player))
            st = evolve(st, memo=memo)
        return goto(st, "select", memo=evolve(st.memo, selector=v.other(st.memo.selector)))

    return [Row("fight", "Fight", "fight-phase.txt 12.04", enter_fight),
            Row("select", "Select a unit to fight", "fight-phase.txt 12.04", enter_select,
                resume_select),
            Row("select_after", "After a fight", "fight-phase.txt 12.04", enter_after),
            *actions.fight_rows()]


PHASE_STEPS: tuple[str, ...] = ("start", "pile_in", "fight", "consolidate", "phase_end")
"""The Fight phase's own steps (every map), each the first row of its part of the table
(12.09 is ``phase_end``: ``end`` is the engine's name for the phase being over)."""


GAMBIT_PHASE_STEPS: tuple[str, ...] = ("start", "pile_in", "challenge", "fight", "challenge_resolution",
                                       "consolidate", "phase_end", "disgraced_end")
"""The steps with ``[rules] challenges = "gambit"`` (``gambit_steps.SUBPHASE_PLACE``): the
Challenge Sub-phase after pile-in, its Resolution after the Fight step, the End Phase's
removal of Disgraced statuses after 12.09."""


def phase_steps(rules: Any) -> tuple[str, ...]:
    """The names of the steps the phase runs, in order, for a map whose ``[rules]`` are
    ``rules``: ``PHASE_STEPS``, or ``GAMBIT_PHASE_STEPS`` when ``rules.challenges == "gambit"``."""
    return GAMBIT_PHASE_STEPS if rules.challenges == "gambit" else PHASE_STEPS


def phase_rows(rules: Any) -> list[Row]:
    """The table of rows the phase runs for a map whose ``[rules]`` are ``rules`` (a
    ``RulesConfig``): each step of ``phase_steps(rules)`` going on to the next: ``PHASE_STEPS``'
    rows, and only when ``rules.challenges == "gambit"`` the gambit challenge's
    (``gambit_steps``: the Challenge Sub-phase's rows from ``gambit_rows``, entered at
    ``challenge`` after the pile-in step, the Resolution at ``challenge_resolution`` after the
    Fight step, ``disgraced_end`` after 12.09).  The same ``rules`` always gives an equal
    table, whatever was imported before.
    """
    steps = phase_steps(rules)
    after = dict(zip(steps, steps[1:] + (END,)))
    rows = [actions.start_row(after["start"]),
            *actions.pile_in_rows(after["pile_in"]),
            *fight_step_rows(after["fight"]),
            *actions.consolidate_rows(after["consolidate"]),
            actions.end_row(after["phase_end"]),
            actions.move_row()]
    if "challenge" in after:
        # imported here: the challenge rows are built on this package's rows
        from tabletop.rules.challenges import gambit_steps
        rows += [*gambit_steps.challenge_rows(after["challenge"]),
                 *gambit_steps.resolution_rows(after["challenge_resolution"]),
                 gambit_steps.disgraced_end_row(after["disgraced_end"])]
    return rows


def phase(battlefield: Battlefield, options: FightOptions | None = None,
          until: str | None = None) -> tuple[Machine, PhaseState]:
    """The Fight phase of ``battlefield`` as a ``Machine`` and its first ``PhaseState``.

    ``options`` (None: the map's ``[rules]``, ``FightOptions.from_rules``)
    choose the 12.04 readings that differ by preset.  ``until`` names a row
    the phase ends at instead of running it (the odds stop at
    ``consolidate``).
    """
    rows = phase_rows(battlefield.rules)
    if until is not None:
        rows = [r for r in rows if r.name != until] + [
            Row(until, "Stop", "", lambda st: goto(st, END))]
    memo = FightMemo(options if options is not None else FightOptions.from_rules(battlefield.rules))
    machine = Machine(rows, "start")
    return machine, machine.begin(battlefield, memo)
