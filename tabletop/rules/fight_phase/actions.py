"""What happens in each step of the Fight phase (fight-phase.txt 12.01-12.09).

``sequence.py`` holds the order of the steps as data; these are the
actions it runs.  Each action changes ``ctx.state``, emits events naming
their clause, and marks a ``Step`` (with the draw keys of ``frames.py``) for
every move, every fight and the start and end of the phase.

Named defaults for the choices the text leaves to the players:

``PILE_IN_ORDER`` / ``CONSOLIDATE_ORDER``
    Each player moves every eligible unit, in file order (choices
    ``pile_in`` / ``consolidate``: a unit id, or ``"none"`` to move no
    more units; 12.01 "you don't have to").
``SELECT_ORDER``
    A player selects their first eligible unit in file order (choice
    ``fight``).
``DEFAULT_FIGHT_TYPE``
    A normal fight when the unit is engaged, else an overrun fight (choice
    ``fight_type``); an engaged unit that may also overrun (12.06, second
    case) makes a normal fight unless a decision says otherwise, as the
    overrun's extra pile-in may drag it into fresh enemies (12.06 note).
``OVERRUN_PILE_IN``
    A unit making an overrun fight always makes its additional pile-in
    move when it has a legal one (12.06 "can").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.rules.fight_phase.attacks import resolve_attacks
from tabletop.rules.fight_phase.casualties import ATTACKS_RULE, OVERRUN_ATTACKS_RULE
from tabletop.rules.fight_phase.eligibility import (
    NORMAL,
    OVERRUN,
    R_FIGHT,
    consolidation_refusal,
    eligible_units,
    fight_types,
    is_fights_first,
    pile_in_refusal,
)
from tabletop.rules.fight_phase.frames import casualty_keys, engaged_highlight, move_keys
from tabletop.rules.fight_phase.moving import (
    R_CONSOLIDATE,
    plan_consolidation,
    plan_pile_in,
    record_move,
)

if TYPE_CHECKING:
    from tabletop.rules.fight_phase.context import PhaseContext
    from tabletop.rules.fight_phase.moving import MoveOutcome

R_START = "fight-phase.txt 12.01"
R_PILE_IN_STEP = "fight-phase.txt 12.02"
R_CONSOLIDATE_STEP = "fight-phase.txt 12.07"
R_END = "fight-phase.txt 12.09"
R_SELECTED = "fight-phase.txt 12.04 (WHEN A UNIT IS SELECTED TO FIGHT)"

PILE_IN_ORDER = CONSOLIDATE_ORDER = SELECT_ORDER = "file order"
DEFAULT_FIGHT_TYPE = NORMAL
OVERRUN_PILE_IN = True


def mark(ctx: PhaseContext, title: str, rule: str, **draw) -> None:
    """Close a Step: the state now, engaged models highlighted, casualties since the last step."""
    draw.setdefault("highlight", engaged_highlight(ctx))
    draw.update(casualty_keys(ctx))
    ctx.log.step(title, rule, ctx.state, **draw)


# ---------------------------------------------------------------- 12.01 / 12.09
def start_of_phase(ctx: PhaseContext) -> None:
    """12.01: rules triggered at the start of the phase (none are modelled)."""
    ctx.log.emit("phase_step", R_START, step="start", title="Start of the Fight phase",
                 player=ctx.active,
                 engaged=[list(p) for p in ctx.geo.engaged_unit_pairs])
    mark(ctx, "Start of the Fight phase", R_START)


def end_of_phase(ctx: PhaseContext) -> None:
    """12.09: rules triggered at the end of the phase (none are modelled)."""
    ctx.log.emit("phase_step", R_END, step="end", title="End of the Fight phase",
                 selected=list(ctx.selected))
    mark(ctx, "End of the Fight phase", R_END)


# ---------------------------------------------------------------- moves
def make_move(ctx: PhaseContext, outcome: MoveOutcome, title: str) -> None:
    """Record a solved move (or why there is none) and mark its Step."""
    ctx.moves.append(outcome)
    before = ctx.state
    player = before.unit(outcome.unit).player
    ctx.state = record_move(ctx.log, outcome, before, player)
    if outcome.plan is None:
        return
    keys = move_keys(before, outcome, ctx)
    if not outcome.legal:
        keys = {"selected_unit": outcome.unit}
        title += " - no legal move"
    mark(ctx, title, outcome.rule, **keys)


def pile_in(ctx: PhaseContext, unit_id: str, overrun: bool = False) -> MoveOutcome:
    """One pile-in move (12.03), or the overrun fight's additional one (12.06)."""
    outcome = plan_pile_in(ctx.state, ctx.geo, unit_id, ctx.decisions, overrun=overrun)
    player = ctx.state.unit(unit_id).player
    what = "additional pile-in move (overrun fight)" if overrun else "pile-in move"
    make_move(ctx, outcome, f"{player}: {unit_id} makes its {what}")
    return outcome


def _move_each(ctx: PhaseContext, choice: str, rule: str, done: set[str], refusal, act) -> None:
    """The player whose turn it is moves all their units first, then the opponent (12.02, 12.07)."""
    for player in (ctx.active, ctx.other(ctx.active)):
        while True:
            ready = [u.id for u in ctx.state.units_of(player)
                     if u.id not in done and refusal(ctx, u.id) is None]
            if not ready:
                break
            pick = ctx.decisions.choose(player, choice, ready + ["none"], default=ready[0], rule=rule,
                                        why_not=lambda v: refusal(ctx, str(v)) or "already moved")
            if pick == "none" or pick is None:
                break
            done.add(pick)
            act(ctx, pick)


def pile_in_step(ctx: PhaseContext) -> None:
    """12.02: both players pile in with their eligible units, the active player first."""
    ctx.log.emit("phase_step", R_PILE_IN_STEP, step="pile_in", title="Pile in",
                 player=ctx.active)
    mark(ctx, f"Pile-in step: {ctx.active} (whose turn it is) moves first", R_PILE_IN_STEP)
    _move_each(ctx, "pile_in", R_PILE_IN_STEP, ctx.piled_in, pile_in_refusal,
               lambda c, u: pile_in(c, u))


# ---------------------------------------------------------------- fighting
def fight_unit(ctx: PhaseContext, unit_id: str, player: str, step: str) -> None:
    """``unit_id`` is selected to fight: choose its fight type, resolve it (12.04-12.06)."""
    types = fight_types(ctx, unit_id)
    default = DEFAULT_FIGHT_TYPE if DEFAULT_FIGHT_TYPE in types else types[0]
    kind = ctx.decisions.choose(player, "fight_type", types, default=default, rule=R_SELECTED,
                                context={"unit": unit_id},
                                why_not=lambda v: f"{unit_id} is not eligible to make a {v} fight "
                                                  f"(12.05 needs engaged; 12.06 needs unengaged)")
    ctx.selected.append(unit_id)
    ctx.ever_eligible.add(unit_id)
    rule = "fight-phase.txt 12.05" if kind == NORMAL else "fight-phase.txt 12.06"
    ctx.log.emit("selected_to_fight", rule, unit=unit_id, player=player, fight=kind, step=step,
                 fights_first=is_fights_first(ctx.state.unit(unit_id)))
    if kind == OVERRUN and OVERRUN_PILE_IN and pile_in_refusal(ctx, unit_id, overrun=True) is None:
        pile_in(ctx, unit_id, overrun=True)
    engaged = engaged_highlight(ctx)          # as the attacks are made, before casualties
    if ctx.alive(unit_id):
        resolve_attacks(ctx, unit_id, ATTACKS_RULE if kind == NORMAL else OVERRUN_ATTACKS_RULE)
    mark(ctx, f"{player}: {unit_id} fights ({kind} fight)", rule, selected_unit=unit_id,
         highlight=engaged)


# ---------------------------------------------------------------- 12.07 / 12.08
def consolidate(ctx: PhaseContext, unit_id: str) -> None:
    """One consolidation move (12.08); an engaging one lets the new foes fight (AFTER MOVING)."""
    player = ctx.state.unit(unit_id).player
    outcome = plan_consolidation(ctx.state, ctx.geo, unit_id, ctx.decisions)
    make_move(ctx, outcome, f"{player}: {unit_id} consolidates ({outcome.mode})")
    if outcome.legal and outcome.mode == "engaging":
        new_foes(ctx, unit_id)


def new_foes(ctx: PhaseContext, unit_id: str) -> None:
    """12.08 AFTER MOVING (engaging): the opponent selects, one at a time, each enemy unit
    engaged with ``unit_id`` that has not been selected to fight this phase; each becomes
    eligible to fight and is selected to fight (12.04)."""
    opponent = ctx.other(ctx.state.unit(unit_id).player)
    foes = [u for u in ctx.geo.engaged_units(unit_id) if u not in ctx.selected]
    while True:
        left = [u for u in foes if ctx.alive(u) and u not in ctx.selected]
        if not left:
            return
        pick = ctx.decisions.choose(opponent, "fight", left, default=left[0], rule=R_CONSOLIDATE,
                                    context={"after_consolidation_of": unit_id})
        ctx.ever_eligible.add(pick)
        ctx.log.emit("eligible_to_fight", R_CONSOLIDATE, unit=pick, player=opponent,
                     reason=f"engaged by {unit_id}'s engaging consolidation and not yet selected")
        fight_unit(ctx, pick, opponent, step="consolidation")


def consolidate_step(ctx: PhaseContext) -> None:
    """12.07: both players consolidate with their eligible units, the active player first."""
    ctx.log.emit("phase_step", R_CONSOLIDATE_STEP, step="consolidate", title="Consolidate",
                 player=ctx.active)
    mark(ctx, f"Consolidation step: {ctx.active} (whose turn it is) moves first", R_CONSOLIDATE_STEP)
    _move_each(ctx, "consolidate", R_CONSOLIDATE_STEP, ctx.consolidated, consolidation_refusal,
               consolidate)


def start_fight_step(ctx: PhaseContext) -> None:
    """12.04: remember which units are engaged at the start of the Fight step."""
    ctx.engaged_at_fight_start = {u.id for u in ctx.state.units if ctx.geo.unit_engaged(u.id)}
    ctx.fight_step_started = True
    eligible = eligible_units(ctx)
    ctx.log.emit("phase_step", R_FIGHT, step="fight", title="Fight", player=ctx.active,
                 eligible=eligible)
    mark(ctx, "Fight step: units eligible to fight", R_FIGHT)
