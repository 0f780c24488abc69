"""Who may pile in, fight (and how), and consolidate (fight-phase.txt 12.03-12.08).

Everything is read from the geometry snapshot and the phase's history,
never from hand-set flags (``Unit.charged`` is the map's record that the
unit made a charge move this turn).

Named default ``ENGAGED_AT_STEP_START_KEEPS_ELIGIBLE`` (``board/config.py``;
the ``[rules]`` option ``engaged_at_step_start_keeps_eligible``), per preset.
12.04 lists "it is engaged, or it was engaged at the start of this step" as a
reason to be eligible to fight.  ``"11th"``: True, the text as written: a
unit engaged when the Fight step began stays eligible after every enemy it
was engaged with is destroyed, and, being unengaged, its only fight type is
an overrun fight with an additional pile-in move (12.06; the text's own
example is such a unit).  ``"10th"``: False, how players of that edition
resolve it (issue 3): only being engaged now, or having charged this turn,
makes a unit eligible, so such a unit neither fights nor piles in.
Engagement at the start of the Fight step decides the overrun fight type
(12.06) either way.  The phase reads it from ``ctx.options`` (the map's
``[rules]`` unless ``fight(options=...)`` says otherwise).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.board.state import Unit

if TYPE_CHECKING:
    from tabletop.rules.fight_phase.context import PhaseView

__all__ = ["NORMAL", "OVERRUN", "consolidation_refusal", "eligible_to_fight", "eligible_units",
           "fight_refusal", "fight_types", "is_fights_first", "pile_in_refusal"]

R_PILE_IN = "fight-phase.txt 12.03"
R_FIGHT = "fight-phase.txt 12.04"
R_NORMAL = "fight-phase.txt 12.05"
R_OVERRUN = "fight-phase.txt 12.06"
R_CONSOLIDATE = "fight-phase.txt 12.08"

NORMAL = "normal"
OVERRUN = "overrun"


def is_fights_first(unit: Unit) -> bool:
    """Fights First (12.04): it made a charge move this turn, or has the ``fights-first`` keyword."""
    return bool(unit.charged) or unit.has("fights-first")


def pile_in_refusal(ctx: PhaseView, unit_id: str, overrun: bool = False) -> str | None:
    """Why ``unit_id`` may not make a pile-in move (12.03 ELIGIBLE IF), or None when it may.

    ``overrun`` is True when the unit was selected to make an overrun fight
    this phase (12.06).
    """
    if not ctx.alive(unit_id):
        return f"{unit_id} has no models left on the table"
    unit = ctx.state.unit(unit_id)
    if ctx.geo.unit_engaged(unit_id) or unit.charged or overrun:
        return None
    return (f"{unit_id} is not engaged, did not make a charge move this turn and was not "
            f"selected to make an overrun fight ({R_PILE_IN} ELIGIBLE IF)")


def eligible_to_fight(ctx: PhaseView, unit_id: str) -> bool:
    """12.04: not yet selected to fight this phase, and engaged, or engaged at the start
    of the Fight step (when ``ctx.options.engaged_at_step_start_keeps_eligible``, see
    the module docstring), or made a charge move this turn.  The rows add every unit
    found eligible to the phase's ``ever_eligible`` (12.08)."""
    if not ctx.alive(unit_id):
        return False
    return _eligible(ctx, ctx.state.unit(unit_id))


def _eligible(ctx: PhaseView, unit: Unit) -> bool:
    """``eligible_to_fight`` of a unit on the table."""
    if unit.id in ctx.selected:
        return False
    return unit.charged or ctx.geo.unit_engaged(unit.id) or (
        ctx.options.engaged_at_step_start_keeps_eligible and unit.id in ctx.engaged_at_fight_start)


DROPPED_OUT_REASON = ("it was engaged at the start of the Fight step but is not engaged now, and "
                      "engaged_at_step_start_keeps_eligible = false keeps only units engaged now "
                      "(or that charged) eligible")


def dropped_out(ctx: PhaseView) -> list[str]:
    """Units (file order) engaged when the Fight step began that are no longer eligible to
    fight only because they are not engaged now: alive, not yet selected, did not charge,
    with ``engaged_at_step_start_keeps_eligible = false`` (the "10th" preset: their enemies
    are gone).  The Fight step's ``select`` row emits one ``no_longer_eligible`` event
    {unit, player, reason} (``DROPPED_OUT_REASON``) for each, once, before the step ends, so
    the log says why it never fights (12.04)."""
    if ctx.options.engaged_at_step_start_keeps_eligible or not ctx.memo.fight_step_started:
        return []
    return [u.id for u in ctx.state.units
            if u.id in ctx.engaged_at_fight_start and u.id not in ctx.selected
            and not eligible_to_fight(ctx, u.id)]


def fight_refusal(ctx: PhaseView, unit_id: str, player: str | None = None,
                  fights_first_only: bool = False) -> str:
    """Why ``unit_id`` may not be selected to fight now by ``player`` (for overridden
    decisions and the CLI): the true reason, checked in this order - no models left, another
    player's unit (12.04: a player selects one of their own units), already selected, not a
    Fights First unit while only those are selected (12.04 (1)), not eligible (12.04)."""
    if not ctx.alive(unit_id):
        return f"{unit_id} has no models left on the table"
    owner = ctx.state.unit(unit_id).player
    if player is not None and owner != player:
        return f"{unit_id} is {owner}'s unit, not one of {player}'s ({R_FIGHT})"
    if unit_id in ctx.selected:
        return f"{unit_id} has already been selected to fight this phase ({R_FIGHT})"
    if fights_first_only and eligible_to_fight(ctx, unit_id) and not is_fights_first(ctx.state.unit(unit_id)):
        return (f"{unit_id} is eligible but has no Fights First: it fights in the Remaining "
                f"Combats ({R_FIGHT} (1))")
    if unit_id in ctx.engaged_at_fight_start and not ctx.options.engaged_at_step_start_keeps_eligible:
        return (f"{unit_id} was engaged at the start of the Fight step but is not engaged now, and "
                f"this preset does not keep it eligible (engaged_at_step_start_keeps_eligible "
                f"= false; {R_FIGHT})")
    return f"{unit_id} is not engaged and did not make a charge move this turn ({R_FIGHT})"


#: (id of a snapshot, what else ``_eligible_units`` reads) -> (that snapshot, the units)
_ELIGIBLE: dict[tuple, tuple[object, tuple[str, ...]]] = {}
_ELIGIBLE_KEPT = 4096


def eligible_units(ctx: PhaseView, player: str | None = None,
                   fights_first: bool | None = None) -> list[str]:
    """Units eligible to fight now, in file order; filtered by owner and Fights First.

    Worked out once per geometry snapshot and everything else it reads: each unit on the
    table (in file order) with its owner and whether it fights first, the units selected,
    the option and the units engaged at the start of the Fight step - so the many tables
    of an odds walk that differ only in wounds lost share one answer."""
    geo = ctx.geo
    key = (id(geo), player, fights_first, tuple(_static(u) for u in ctx.state.units),
           tuple(ctx.selected), ctx.options.engaged_at_step_start_keeps_eligible,
           ctx.engaged_at_fight_start)
    hit = _ELIGIBLE.get(key)
    if hit is None or hit[0] is not geo:
        hit = (geo, tuple(_eligible_units(ctx, player, fights_first)))
        if len(_ELIGIBLE) >= _ELIGIBLE_KEPT:
            _ELIGIBLE.pop(next(iter(_ELIGIBLE)))
        _ELIGIBLE[key] = hit
    return list(hit[1])


def _static(unit: Unit) -> tuple[str, str, bool, bool]:
    """(id, owner, made a charge move, Fights First) of a unit: what eligibility reads of the
    unit itself, worked out once per ``Unit`` (frozen) and kept with it."""
    got = unit.__dict__.get("_eligibility")
    if got is None:
        got = (unit.id, unit.player, bool(unit.charged), is_fights_first(unit))
        object.__setattr__(unit, "_eligibility", got)
    return got


def _eligible_units(ctx: PhaseView, player: str | None, fights_first: bool | None) -> list[str]:
    """``eligible_units`` worked out."""
    out = []
    for u in ctx.state.units:
        if player is not None and u.player != player:
            continue
        if fights_first is not None and is_fights_first(u) != fights_first:
            continue
        if _eligible(ctx, u):
            out.append(u.id)
    return out


def fight_types(ctx: PhaseView, unit_id: str) -> list[str]:
    """The fight types ``unit_id`` is eligible to make (12.05, 12.06), normal first.

    Normal: it is engaged.  Overrun: it is unengaged, or was unengaged at the
    start of the Fight step and became engaged during the Fight phase.
    """
    engaged = ctx.geo.unit_engaged(unit_id)
    out = []
    if engaged:
        out.append(NORMAL)
    if not engaged or unit_id not in ctx.engaged_at_fight_start:
        out.append(OVERRUN)
    return out


def consolidation_refusal(ctx: PhaseView, unit_id: str) -> str | None:
    """Why ``unit_id`` may not consolidate (12.08 ELIGIBLE IF: it was eligible to fight
    this phase), or None."""
    if not ctx.alive(unit_id):
        return f"{unit_id} has no models left on the table"
    if unit_id in ctx.ever_eligible or unit_id in ctx.selected:
        return None
    return f"{unit_id} was not eligible to fight this phase ({R_CONSOLIDATE} ELIGIBLE IF)"
