"""What happens in each step of the Fight phase (fight-phase.txt 12.01-12.09).

``sequence.py`` holds the order of the steps as data; these are the rows
it is made of (``tabletop.rules.engine.machine.Row``).  Each row reads the
phase's frozen state, returns the events it emitted naming their clause, a
``StepMark`` (title, clause and table; ``render`` draws it from its events) for every move, every
fight and the start and end of the phase, and the state after it; a row
that needs a player's choice leaves a ``Question`` pending and takes the
answer in its ``resume``; the attacks leave a ``Chance`` per roll
(``attacks.py``).  Rows never roll dice and never ask anyone.

Two rows are called like subroutines, their way back kept in the memo: the
move (``move``: a pile-in, an overrun fight's additional pile-in or a
consolidation, returning to ``MoveJob.then``) and the fight of a selected
unit (``fight_type`` .. ``fight_done``, returning to ``FightJob.then``).

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

from dataclasses import dataclass
from typing import Any

from tabletop.board.frozen import evolve
from tabletop.board.state import Battlefield
from tabletop.rules.engine.machine import PhaseState, Row, StepMark, Transition, goto, wait
from tabletop.rules.engine.pending import Question
from tabletop.rules.events import Event, EventLog, make_event
from tabletop.rules.fight_phase import attacks
from tabletop.rules.fight_phase.casualties import ATTACKS_RULE, OVERRUN_ATTACKS_RULE
from tabletop.rules.fight_phase.context import FightMemo, PhaseView, bump, geometry, moved_geometry
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
from tabletop.rules.fight_phase.moving import (
    R_CONSOLIDATE,
    MoveOutcome,
    TargetChoice,
    record_move,
    setup_consolidation,
    setup_pile_in,
)

R_START = "fight-phase.txt 12.01"
R_PILE_IN_STEP = "fight-phase.txt 12.02"
R_CONSOLIDATE_STEP = "fight-phase.txt 12.07"
R_END = "fight-phase.txt 12.09"
R_SELECTED = "fight-phase.txt 12.04 (WHEN A UNIT IS SELECTED TO FIGHT)"

PILE_IN_ORDER = CONSOLIDATE_ORDER = SELECT_ORDER = "file order"
DEFAULT_FIGHT_TYPE = NORMAL
OVERRUN_PILE_IN = True

Items = tuple[Event | StepMark, ...]


@dataclass(frozen=True)
class MoveJob:
    """A move under way: ``unit`` makes a ``kind`` move ("pile_in", "overrun" - the overrun
    fight's additional pile-in - or "consolidate"), then the phase goes on at ``then``."""

    unit: str
    kind: str
    then: str


@dataclass(frozen=True)
class FightJob:
    """A unit selected to fight: ``unit`` of ``player``, selected in 12.04 step ``step`` (or
    "consolidation", 12.08), its fight type ``kind`` and clause once chosen, and where the
    phase goes on (``then``)."""

    unit: str
    player: str
    step: str
    then: str
    kind: str = ""
    rule: str = ""


def view(st: PhaseState) -> PhaseView:
    return PhaseView(st.battlefield, st.memo)


def ev(type_: str, rule: str, **data: Any) -> Event:
    """The typed event ``type_`` (``events.make_event``; TypeError on a wrong field)."""
    return make_event(type_, rule, **data)


def mark(battlefield: Battlefield, memo: FightMemo, title: str, rule: str
         ) -> tuple[StepMark, FightMemo]:
    """Close a Step: its title, clause and the table now (what it shows is worked out in
    ``render`` from its events).  Returns the mark and the memo."""
    return StepMark(title, rule, battlefield), memo


# ---------------------------------------------------------------- 12.01 / 12.09
def start_row(next_row: str) -> Row:
    """12.01: rules triggered at the start of the phase (none are modelled)."""
    def enter(st: PhaseState) -> Transition:
        bf = st.battlefield
        e = ev("phase_step", R_START, step="start", title="Start of the Fight phase",
               player=bf.active_player, engaged=[list(p) for p in geometry(bf).engaged_unit_pairs])
        m, memo = mark(bf, st.memo, "Start of the Fight phase", R_START)
        return goto(st, next_row, (e, m), memo=memo)
    return Row("start", "Start of the Fight phase", R_START, enter)


def end_row(next_row: str) -> Row:
    """12.09: rules triggered at the end of the phase (none are modelled)."""
    def enter(st: PhaseState) -> Transition:
        e = ev("phase_step", R_END, step="end", title="End of the Fight phase",
               selected=list(st.memo.selected))
        m, memo = mark(st.battlefield, st.memo, "End of the Fight phase", R_END)
        return goto(st, next_row, (e, m), memo=memo)
    return Row("phase_end", "End of the Fight phase", R_END, enter)


# ---------------------------------------------------------------- moves
def _options(values: list[Any]) -> tuple[Any, ...]:
    return tuple(tuple(v) if isinstance(v, list) else v for v in values)


def move_row() -> Row:
    """A pile-in (12.03), an overrun fight's additional pile-in (12.06) or a consolidation
    (12.08) of ``memo.move``: its target question (``pile_in_targets`` /
    ``consolidation_targets``, the default searched only when the default policy needs it:
    ``Question.default_fn``), the solved move and the validator's verdict."""
    def enter(st: PhaseState) -> Transition:
        job: MoveJob = st.memo.move
        bf = st.battlefield
        geo = geometry(bf)
        found = (setup_consolidation(bf, geo, job.unit) if job.kind == "consolidate"
                 else setup_pile_in(bf, geo, job.unit, overrun=job.kind == "overrun"))
        if isinstance(found, MoveOutcome):
            return _made(st, job, found)
        q = Question(found.player, found.choice, _options(found.options), None, found.rule,
                     tuple(found.context.items()), default_fn=found)
        return wait(st, q, memo=evolve(st.memo, choice=found))

    def resume(st: PhaseState, value: Any) -> Transition:
        found: TargetChoice = st.memo.choice
        outcome = found.settle(list(value) if isinstance(value, tuple) else value)
        return _made(evolve(st, memo=evolve(st.memo, choice=None)), st.memo.move, outcome)
    return Row("move", "Move", R_PILE_IN_STEP, enter, resume)


def _made(st: PhaseState, job: MoveJob, outcome: MoveOutcome) -> Transition:
    """Record a solved move (or why there is none), mark its Step, go on."""
    before = st.battlefield
    player = before.unit(outcome.unit).player
    memo = evolve(st.memo, moves=st.memo.moves + (outcome,), move=None)
    after, items = _record(outcome, before, player)
    if after is not before and outcome.plan is not None:    # only the moved models measured again
        moved_geometry(before, after, set(outcome.plan.positions))
    if job.kind == "consolidate":
        title = f"{player}: {job.unit} consolidates ({outcome.mode})"
    else:
        what = ("additional pile-in move (overrun fight)" if job.kind == "overrun"
                else "pile-in move")
        title = f"{player}: {job.unit} makes its {what}"
    if outcome.plan is not None:
        if not outcome.legal:
            title += " - no legal move"
        m, memo = mark(after, memo, title, outcome.rule)
        items = items + (m,)
    then = job.then
    if job.kind == "consolidate" and outcome.legal and outcome.mode == "engaging":
        foes = tuple(u for u in geometry(after).engaged_units(job.unit) if u not in memo.selected)
        memo = evolve(memo, foes=foes, foes_of=job.unit)
        then = "new_foes"
    return goto(st, then, items, battlefield=after, memo=memo)


def _record(outcome: MoveOutcome, before: Battlefield, player: str) -> tuple[Battlefield, Items]:
    log = EventLog()
    after = record_move(log, outcome, before, player)
    return after, tuple(log.events)


def move_step_rows(name: str, title: str, rule: str, choice: str, done_field: str,
                   refusal: Any, kind: str, next_row: str) -> list[Row]:
    """12.02 / 12.07: the player whose turn it is moves all the units they choose first, then
    the opponent (choice ``choice``: a unit id, or "none" to move no more units)."""
    pick = f"{name}_pick"

    def enter(st: PhaseState) -> Transition:
        bf = st.battlefield
        e = ev("phase_step", rule, step=name, title=title, player=bf.active_player)
        words = "Pile-in" if name == "pile_in" else "Consolidation"
        m, memo = mark(bf, st.memo, f"{words} step: {bf.active_player} (whose turn it is) "
                                    f"moves first", rule)
        return goto(st, pick, (e, m), memo=evolve(memo, mover=bf.active_player))

    def enter_pick(st: PhaseState) -> Transition:
        v = view(st)
        player = st.memo.mover
        done = getattr(st.memo, done_field)
        while True:
            ready = [u.id for u in v.state.units_of(player)
                     if u.id not in done and refusal(v, u.id) is None]
            if ready:
                q = Question(player, choice, tuple(ready) + ("none",), ready[0], rule,
                             why_not=lambda val: refusal(v, str(val)) or "already moved")
                return wait(st, q, memo=evolve(st.memo, mover=player))
            if player != v.active:
                return goto(st, next_row, memo=evolve(st.memo, mover=None))
            player = v.other(player)

    def resume_pick(st: PhaseState, value: Any) -> Transition:
        memo = st.memo
        if value == "none" or value is None:
            if memo.mover != st.battlefield.active_player:
                return goto(st, next_row, memo=evolve(memo, mover=None))
            return goto(st, pick, memo=evolve(memo, mover=st.battlefield.other_player(memo.mover)))
        memo = evolve(memo, **{done_field: getattr(memo, done_field) | {value}},
                       move=MoveJob(value, kind, pick))
        return goto(st, "move", memo=memo)
    return [Row(name, title, rule, enter), Row(pick, title, rule, enter_pick, resume_pick)]


# ---------------------------------------------------------------- fighting
def fight_rows() -> list[Row]:
    """A unit selected to fight (``memo.fighting``): its fight type, the overrun fight's
    additional pile-in, its attacks, its Step (12.04 WHEN A UNIT IS SELECTED TO FIGHT,
    12.05, 12.06)."""
    def enter_type(st: PhaseState) -> Transition:
        job: FightJob = st.memo.fighting
        types = fight_types(view(st), job.unit)
        default = DEFAULT_FIGHT_TYPE if DEFAULT_FIGHT_TYPE in types else types[0]
        unit_id = job.unit
        q = Question(job.player, "fight_type", tuple(types), default, R_SELECTED,
                     (("unit", unit_id),),
                     why_not=lambda v: f"{unit_id} is not eligible to make "
                                       f"{'an' if str(v)[:1].lower() in tuple('aeiou') else 'a'} {v} fight "
                                       f"(12.05 needs engaged; 12.06 needs unengaged)")
        return wait(st, q)

    def resume_type(st: PhaseState, kind: Any) -> Transition:
        job: FightJob = st.memo.fighting
        rule = "fight-phase.txt 12.05" if kind == NORMAL else "fight-phase.txt 12.06"
        job = evolve(job, kind=kind, rule=rule)
        memo = evolve(st.memo, selected=st.memo.selected + (job.unit,),
                       ever_eligible=st.memo.ever_eligible | {job.unit}, fighting=job)
        e = ev("selected_to_fight", rule, unit=job.unit, player=job.player, fight=kind,
               step=job.step, fights_first=is_fights_first(st.battlefield.unit(job.unit)))
        st = evolve(st, memo=memo)
        if kind == OVERRUN and OVERRUN_PILE_IN and pile_in_refusal(view(st), job.unit,
                                                                   overrun=True) is None:
            return goto(st, "move", (e,), memo=evolve(memo, move=MoveJob(job.unit, "overrun",
                                                                           "fight_attacks")))
        return goto(st, "fight_attacks", (e,))

    def enter_attacks(st: PhaseState) -> Transition:
        job: FightJob = st.memo.fighting
        bf = st.battlefield
        memo = st.memo
        if not bf.has_unit(job.unit):
            return goto(st, "fight_done", memo=memo)
        rule = ATTACKS_RULE if job.kind == NORMAL else OVERRUN_ATTACKS_RULE
        a = attacks.start(job.unit, job.player, rule, "fight_done")
        q, events = attacks.target_question(bf, a)
        if q is None:
            return goto(st, "fight_done", tuple(events), memo=memo)
        return wait(st, q, memo=evolve(memo, attack=a))

    def resume_attacks(st: PhaseState, preferred: Any) -> Transition:
        a = st.memo.attack
        groups, events = attacks.groups_for(st.battlefield, a, preferred)
        return goto(st, "attacks", tuple(events),
                    memo=evolve(st.memo, attack=evolve(a, asked=True, groups=groups)))

    def enter_done(st: PhaseState) -> Transition:
        job: FightJob = st.memo.fighting
        m, memo = mark(st.battlefield, st.memo, f"{job.player}: {job.unit} fights ({job.kind} "
                       f"fight)", job.rule)
        return goto(st, job.then, (m,), memo=evolve(memo, fighting=None))

    return [Row("fight_type", "Fight type", R_SELECTED, enter_type, resume_type),
            Row("fight_attacks", "Attack target", ATTACKS_RULE, enter_attacks, resume_attacks),
            Row("attacks", "Attacks", ATTACKS_RULE, attacks_enter, attacks_resume),
            Row("fight_done", "Fought", R_FIGHT, enter_done)]


def attacks_enter(st: PhaseState) -> Transition:
    """Work ``memo.attack`` on to its next chance (``attacks.advance``), tallying wounds
    caused, models removed and targets attacked for the odds."""
    bf, memo = st.battlefield, st.memo
    a = memo.attack
    lost_before: dict[str, int] = {}
    after, a, events, chance, _dead = attacks.advance(bf, a)
    wounds = removed = 0
    targets: frozenset[str] = frozenset()
    for e in events:
        if e.type == "wounded":
            model = e["model"]
            prev = lost_before.get(model)
            if prev is None:
                prev = bf.model(model).wounds_lost
            wounds += e["wounds_lost"] - prev
            lost_before[model] = e["wounds_lost"]
        elif e.type == "removed":
            removed += 1
        elif e.type == "attacks_resolved" and e.get("attacks"):
            targets |= {e["target"]}
    tallies: dict[str, Any] = {}        # the memo made once, with every tally changed
    if wounds:
        tallies["wounds_caused"] = bump(memo.wounds_caused, a.unit, wounds)
    if removed:
        tallies["removed_by"] = bump(memo.removed_by, a.unit, removed)
    if targets:
        tallies["attacked"] = bump(memo.attacked, a.unit, targets)
    if chance is not None:
        return wait(st, chance, tuple(events), battlefield=after,
                    memo=evolve(memo, attack=a, **tallies))
    return goto(st, a.then, tuple(events), battlefield=after,
                memo=evolve(memo, attack=None, **tallies))


def attacks_resume(st: PhaseState, value: Any) -> Transition:
    return goto(st, "attacks", memo=evolve(st.memo, attack=attacks.answer(st.memo.attack, value)))


# ---------------------------------------------------------------- 12.07 / 12.08
def new_foes_row(back: str) -> Row:
    """12.08 AFTER MOVING (engaging): the opponent selects, one at a time, each enemy unit
    engaged with the consolidated unit that has not been selected to fight this phase; each
    becomes eligible to fight and is selected to fight (12.04).  Then back to ``back``."""
    def enter(st: PhaseState) -> Transition:
        memo, bf = st.memo, st.battlefield
        left = [u for u in memo.foes if bf.has_unit(u) and u not in memo.selected]
        if not left:
            return goto(st, back, memo=evolve(memo, foes=(), foes_of=None))
        opponent = bf.other_player(bf.unit(memo.foes_of).player)
        q = Question(opponent, "fight", tuple(left), left[0], R_CONSOLIDATE,
                     (("after_consolidation_of", memo.foes_of),))
        return wait(st, q)

    def resume(st: PhaseState, pick: Any) -> Transition:
        memo, bf = st.memo, st.battlefield
        opponent = bf.other_player(bf.unit(memo.foes_of).player)
        e = ev("eligible_to_fight", R_CONSOLIDATE, unit=pick, player=opponent,
               reason=f"engaged by {memo.foes_of}'s engaging consolidation and not yet selected")
        memo = evolve(memo, ever_eligible=memo.ever_eligible | {pick},
                       fighting=FightJob(pick, opponent, "consolidation", "new_foes"))
        return goto(st, "fight_type", (e,), memo=memo)
    return Row("new_foes", "New foes fight", R_CONSOLIDATE, enter, resume)


def pile_in_rows(next_row: str) -> list[Row]:
    """12.02: both players pile in with their eligible units, the active player first."""
    return move_step_rows("pile_in", "Pile in", R_PILE_IN_STEP, "pile_in", "piled_in",
                          pile_in_refusal, "pile_in", next_row)


def consolidate_rows(next_row: str) -> list[Row]:
    """12.07: both players consolidate with their eligible units, the active player first;
    an engaging consolidation lets its new foes fight (``new_foes_row``)."""
    return move_step_rows("consolidate", "Consolidate", R_CONSOLIDATE_STEP, "consolidate",
                          "consolidated", consolidation_refusal, "consolidate", next_row) + [
        new_foes_row("consolidate_pick")]


def start_fight_step(st: PhaseState) -> tuple[PhaseState, Items]:
    """12.04: remember which units are engaged at the start of the Fight step."""
    bf = st.battlefield
    geo = geometry(bf)
    memo = evolve(st.memo, engaged_at_fight_start=frozenset(
        u.id for u in bf.units if geo.unit_engaged(u.id)), fight_step_started=True)
    eligible = eligible_units(PhaseView(bf, memo))
    memo = evolve(memo, ever_eligible=memo.ever_eligible | set(eligible))
    e = ev("phase_step", R_FIGHT, step="fight", title="Fight", player=bf.active_player,
           eligible=eligible)
    m, memo = mark(bf, memo, "Fight step: units eligible to fight", R_FIGHT)
    return evolve(st, memo=memo), (e, m)
