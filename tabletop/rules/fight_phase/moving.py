"""Pile-in and consolidation moves in rules terms (fight-phase.txt 12.03, 12.06, 12.08).

The geometry layer (``tabletop.geometry.moves``) finds the candidate
targets, solves the move and validates it; this module makes the players'
choices through ``Decisions``, runs the validator on every move the solver
proposes, and records the move as an event.

Named defaults for the choices the text leaves to the player:

``PILE_IN_TARGETS``
    An unengaged unit selects every enemy unit within 5" (12.03 "one or
    more"): each model then moves toward whichever is closest to it.
``ENGAGING_TARGETS``
    Engaging consolidation selects the single closest of the enemy units
    within 3" (12.08 "one or more"): the unit must end engaged with all it
    selects, so one is the least it must reach.
``OBJECTIVE_TARGET``
    Objective consolidation selects the closest objective within 3".

These are where the default policy starts, not what it must keep: when
that selection has no legal move, ``targets.py`` tries the others, nearest
first and bounded (``TARGET_SELECTIONS_TRIED``), and keeps the legal one
that engages the most models; the unit makes no move only when none of
those tried has a legal move, and ``MoveOutcome.tried`` names them.

Scripted ``[[decisions]]``: ``pile_in_targets`` and ``consolidation_targets``
take a unit id, an objective id, or a list of unit ids sorted by id; a
scripted selection is used as it is (no search).  In the window the
question offers the legal selections the search found, its pick the default.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry
from tabletop.geometry import moves as gmoves
from tabletop.geometry.movespec import NEIGHBOURHOOD
from tabletop.rules.decisions import Decisions
from tabletop.rules.events import EventLog
from tabletop.rules.fight_phase import targets as tsearch

R_PILE_IN = "fight-phase.txt 12.03"
R_OVERRUN = "fight-phase.txt 12.06"
R_CONSOLIDATE = "fight-phase.txt 12.08"

PILE_IN_TARGETS = "every enemy unit within 5\""
ENGAGING_TARGETS = "the closest enemy unit within 3\""
OBJECTIVE_TARGET = "the closest objective within 3\""

MAX_SUBSET_CANDIDATES = 5   # beyond this only single targets and "all" are offered


@dataclass
class MoveOutcome:
    """A pile-in or consolidation move the solver made and the validator checked.

    ``mode`` is "pile_in", "ongoing", "engaging" or "objective"; ``plan`` the
    geometry ``MovePlan`` (None when no move was attempted); ``violations``
    what the solver could not meet plus what the validator found in its
    answer (empty for a legal move); ``refusal`` why no move was attempted
    and ``refusal_kind`` what kind of reason it is: "not eligible" (12.03 /
    12.08 ELIGIBLE IF), "no pile-in target" or "no consolidation mode applies"
    (BEFORE MOVING).  ``spec`` is the move the rules set up; with
    ``solve=False`` (judging a move made by hand) nothing else is filled in.
    ``tried`` lists the target selections the default policy's search tried
    (``targets.Tried``, in order; empty when the targets were not searched:
    engaged, scripted, or not solved).
    """

    unit: str
    mode: str
    rule: str
    targets: tuple[str, ...] = ()
    plan: Any = None
    violations: list[Any] = field(default_factory=list)
    validator: list[Any] = field(default_factory=list)
    refusal: str | None = None
    refusal_kind: str = "not eligible"
    start: dict[str, tuple[float, float]] = field(default_factory=dict)
    fixed: frozenset[str] = frozenset()
    spec: Any = None        # the geometry MoveSpec the rules set up (also when not solved)
    tried: list[Any] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return self.refusal is None and self.plan is not None and not self.violations

    @property
    def paths(self) -> dict[str, list[tuple[float, float]]]:
        """Paths of the models that moved (start to end, inches)."""
        if self.plan is None:
            return {}
        out: dict[str, list[tuple[float, float]]] = {}
        for m, path in self.plan.paths.items():
            pts = [(float(x), float(y)) for x, y in path]
            if len(pts) >= 2 and _length(pts) > 1e-9:
                out[m] = pts
        return out

    @property
    def distances(self) -> dict[str, float]:
        """Distance each moved model travelled along its path, inches."""
        return {m: _length(p) for m, p in self.paths.items()}

    def state_after(self, state: Battlefield) -> Battlefield:
        return self.plan.state_after(state) if self.legal else state

    def violation_lines(self) -> list[str]:
        return [getattr(v, "message", str(v)) for v in self.violations]

    def no_move_reason(self) -> str:
        """Why no move is made: the refusal, ``no legal move``, or, when the search tried
        several target selections, ``no legal move for any of the 3 target selections
        tried: ...`` naming each and its first broken clause."""
        if self.refusal:
            return self.refusal
        if len(self.tried) > 1:
            return (f"no legal move for any of the {len(self.tried)} target selections tried "
                    f"({tsearch.SELECTION_ORDER_SHORT}): "
                    + "; ".join(t.line() for t in self.tried))
        return "no legal move"


def _length(path: list[tuple[float, float]]) -> float:
    return sum(math.dist(a, b) for a, b in itertools.pairwise(path))


def _target_options(candidates: list[str]) -> list[Any]:
    """Single ids, then sorted lists of two or more (every subset up to MAX_SUBSET_CANDIDATES),
    then each id as a one-element list (so a scripted ``["B1"]`` means ``"B1"``)."""
    opts: list[Any] = list(candidates)
    ordered = sorted(candidates)
    if len(ordered) <= MAX_SUBSET_CANDIDATES:
        for k in range(2, len(ordered) + 1):
            opts.extend(list(c) for c in itertools.combinations(ordered, k))
    elif len(ordered) > 1:
        opts.append(ordered)
    return opts + [[c] for c in candidates]


def _as_tuple(value: Any) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, (list, tuple)) else (value,)


def _solve(state: Battlefield, geo: Geometry, outcome: MoveOutcome, max_distance: float,
           kind: str, solve: bool = True) -> MoveOutcome:
    clause = R_PILE_IN if kind == "pile_in" else R_CONSOLIDATE   # the move's own clauses
    spec = gmoves.MoveSpec(kind, outcome.unit, outcome.targets, max_distance, clause)
    outcome.spec = spec
    if not solve:
        return outcome
    key = solve_key(state, spec)
    done = _SOLVED.get(key)
    if done is None:
        plan = gmoves.solve_move(state, geo, spec)
        start = {m: state.model(m).at for m in geo.unit_models(outcome.unit)}
        fixed = frozenset(m for m in start if geo.contacts_of(m)) \
            if kind in ("pile_in", "ongoing") else None
        validator = list(gmoves.validate_move(state, geo, spec, plan.positions, plan.paths))
        violations = list(plan.violations) + [
            v for v in validator if not _same_violation(v, plan.violations)]
        done = (plan, start, fixed, validator, violations)
        if len(_SOLVED) >= SOLVED_KEPT:
            _SOLVED.pop(next(iter(_SOLVED)))
        _SOLVED[key] = done
    plan, start, fixed, validator, violations = done
    outcome.plan, outcome.start = plan, dict(start)
    if fixed is not None:
        outcome.fixed = fixed
    outcome.validator, outcome.violations = list(validator), list(violations)
    return outcome


#: solved moves kept by ``solve_key``: the odds walk and the window reach the same table by
#: many roads, and tables that differ only beyond what the move can touch solve alike
SOLVED_KEPT = 256
_SOLVED: dict[tuple, tuple] = {}
#: inches added to the solver's own neighbourhood (``movespec.MoveContext._neighbourhood``)
#: when ``solve_key`` picks the units a solve reads: a margin, so the key always holds at
#: least what the solver reads
SOLVED_KEY_MARGIN = 1.0


def solve_key(state: Battlefield, spec: gmoves.MoveSpec) -> tuple:
    """The key of ``_SOLVED``: everything a solve and its validation read of ``state``.

    The solver and the validator read the moving unit, its targets and the whole units
    with a model (centre to centre) within the move's neighbourhood of it
    (``movespec.MoveContext``: the move's distance, the pile-in target range or the 3\"
    consolidation mode range, the engagement or coherency range, ``NEIGHBOURHOOD``, and
    that unit's largest base radius; all inches), plus the terrain, table, objectives and
    ``[rules]``.  The key is (terrain, table, objectives, rules, ``spec``, and each model of
    those units, ``SOLVED_KEY_MARGIN`` wider, with its place, facing and statuses), so
    tables that differ only farther away (models removed or moved in another fight) share
    one solve.  Wounds lost move no model and are left out.  An unknown unit gives every
    model of the table (the solver then raises its own error).
    """
    head = (id(state.terrain), state.table, state.objectives, state.rules, spec)
    if not state.has_unit(spec.unit):
        return head + (tuple((m.id, m.x, m.y, m.facing_deg, m.status) for m in state.models()),)
    r = state.rules
    reach = (spec.max_distance + max(r.pile_in_target_range, gmoves.CONSOLIDATION_MODE_RANGE)
             + max(r.engagement_range, r.coherency_range or 0.0) + NEIGHBOURHOOD
             + SOLVED_KEY_MARGIN)
    mine = [(m.x, m.y) for m in state.unit(spec.unit).models]
    kept: list[Any] = []
    for u in state.units:
        if u.id != spec.unit and u.id not in spec.targets:
            limit = reach + max(m.base.radius for m in u.models)
            if not any(math.hypot(m.x - x, m.y - y) <= limit for m in u.models for x, y in mine):
                continue
        kept.extend((m.id, m.x, m.y, m.facing_deg, m.status) for m in u.models)
    return head + (tuple(kept),)


def _same_violation(v: Any, others: list[Any]) -> bool:
    return any(getattr(o, "message", o) == getattr(v, "message", v) for o in others)


class TargetChoice:
    """A pile-in or consolidation target question (``pile_in_targets`` /
    ``consolidation_targets``), asked once and settled once.

    ``options`` are the selections a scripted answer may name (ids, sorted
    lists of ids); ``first`` is the named default's selection.  Unscripted,
    the default policy searches (``targets.py``) from ``first``: ``searched()``
    gives (the legal selections found, the best of them), computed once.
    Called, it gives that best selection (``Question.default_fn``).
    ``settle(value)`` makes the move for the chosen selection, reusing the
    search's solved move when there is one.
    """

    def __init__(self, state: Battlefield, geo: Geometry, out: MoveOutcome, choice: str,
                 candidates: list[str], first: tuple[str, ...], options: list[Any], kind: str,
                 max_distance: float, solve: bool, context: dict[str, Any],
                 max_size: int | None = None):
        self.state, self.geo, self.out, self.choice = state, geo, out, choice
        self.candidates, self.first_sel, self.options = candidates, first, options
        self.kind, self.max_distance, self.solve = kind, max_distance, solve
        self.context, self.max_size = context, max_size
        self.player = state.unit(out.unit).player
        self.rule = R_PILE_IN if kind == "pile_in" else R_CONSOLIDATE
        self.first = tsearch.as_value(first)
        self._search: tsearch.Search | None = None
        self._found: tuple[list[Any], Any] | None = None
        self._solved: dict[tuple[str, ...], MoveOutcome] = {}

    def _solve_one(self, sel: tuple[str, ...]) -> MoveOutcome:
        """The solved and validated move for ``sel``, made once: a search cut in pieces
        (``geometry.pieces``) runs again from its first selection at each piece."""
        done = self._solved.get(sel)
        if done is None:
            trial = MoveOutcome(self.out.unit, self.out.mode, self.out.rule, sel)
            done = self._solved[sel] = _solve(self.state, self.geo, trial, self.max_distance,
                                              self.kind)
        return done

    def searched(self) -> tuple[list[Any], Any]:
        """(legal selections, the default policy's pick), searched once."""
        if self._found is None:
            if not self.solve:      # judging a hand-made move: no solver, the named default
                self._found = (self.options, self.first)
            else:
                order = tsearch.selection_order(self.geo, self.out.unit, self.candidates,
                                                self.first_sel, self.max_size)
                self._search = s = tsearch.search(self.state, order, self._solve_one,
                                                  engaging=self.kind != "objective")
                if not s.legal:     # nothing to choose among: the named default's move, refused
                    self._found = ([self.first], self.first)
                else:
                    self._found = ([tsearch.as_value(t) for t in s.legal],
                                   tsearch.as_value(s.best or s.legal[0]))
        return self._found

    def __call__(self) -> Any:
        value = self.searched()[1]
        return tuple(value) if isinstance(value, list) else value

    def settle(self, value: Any) -> MoveOutcome:
        """The move for the selection ``value`` (an id or a list of ids)."""
        chosen = _as_tuple(value)
        s = self._search
        if s is not None:
            done = s.outcomes.get(tsearch.key(chosen))
            if done is not None:
                done.tried = list(s.tried)
                return done
        out = MoveOutcome(self.out.unit, self.out.mode, self.out.rule, chosen)
        result = _solve(self.state, self.geo, out, self.max_distance, self.kind, self.solve)
        if s is not None:
            result.tried = list(s.tried)
        return result


def _ask(found: MoveOutcome | TargetChoice, decisions: Decisions) -> MoveOutcome:
    """Answer a target question through ``decisions`` (the commands' moves outside a phase)."""
    if isinstance(found, MoveOutcome):
        return found
    value = decisions.choose(found.player, found.choice, found.options, default=found.first,
                             rule=found.rule, context=found.context, search=found.searched)
    return found.settle(value)


def plan_pile_in(state: Battlefield, geo: Geometry, unit_id: str, decisions: Decisions,
                 overrun: bool = False, solve: bool = True) -> MoveOutcome:
    """``setup_pile_in`` with its target question answered through ``decisions``."""
    return _ask(setup_pile_in(state, geo, unit_id, overrun, solve), decisions)


def setup_pile_in(state: Battlefield, geo: Geometry, unit_id: str, overrun: bool = False,
                  solve: bool = True) -> MoveOutcome | TargetChoice:
    """Choose the pile-in targets (12.03 BEFORE MOVING), solve and validate the move.

    Engaged: every enemy unit it is engaged with.  Otherwise one or more
    enemy units within 5" (choice ``pile_in_targets``): scripted, or the
    default policy's search from ``PILE_IN_TARGETS`` (``targets.py``), which
    keeps a legal selection whenever one of those tried has a legal move.
    Eligibility is the caller's (``eligibility.py``).
    """
    rule = R_OVERRUN if overrun else R_PILE_IN
    out = MoveOutcome(unit_id, "pile_in", rule)
    targets, case = gmoves.pile_in_targets(state, geo, unit_id)
    targets = list(targets)
    if not targets:
        out.refusal = (f"{unit_id} is not engaged and no enemy unit is within "
                       f"{state.rules.pile_in_target_range:g}\" ({R_PILE_IN} BEFORE MOVING)")
        out.refusal_kind = "no pile-in target"
        return out
    if geo.unit_engaged(unit_id):
        out.targets = tuple(targets)
        return _solve(state, geo, out, state.rules.pile_in_distance, "pile_in", solve)
    return TargetChoice(state, geo, out, "pile_in_targets", targets, tsearch.key(targets),
                        _target_options(targets), "pile_in", state.rules.pile_in_distance, solve,
                        {"unit": unit_id, "case": case})


def plan_consolidation(state: Battlefield, geo: Geometry, unit_id: str,
                       decisions: Decisions, solve: bool = True) -> MoveOutcome:
    """``setup_consolidation`` with its target question answered through ``decisions``."""
    return _ask(setup_consolidation(state, geo, unit_id, solve), decisions)


def setup_consolidation(state: Battlefield, geo: Geometry, unit_id: str,
                        solve: bool = True) -> MoveOutcome | TargetChoice:
    """Select the consolidation mode as 12.08 requires, choose its targets, solve and validate.

    Ongoing (engaged): every engaged enemy unit.  Engaging (within 3" of
    enemy units): one or more of them (choice ``consolidation_targets``,
    scripted or searched from ``ENGAGING_TARGETS``).  Objective (within 3" of
    objectives): one of them (searched from ``OBJECTIVE_TARGET``, one
    objective a try).  ``refusal`` says when no mode applies.
    """
    mode, ids = gmoves.consolidation_options(state, geo, unit_id)
    ids = list(ids)
    out = MoveOutcome(unit_id, mode or "none", R_CONSOLIDATE)
    if mode is None or not ids:
        out.refusal = (f"{unit_id} is not engaged and no enemy unit and no objective is within "
                       f"{gmoves.CONSOLIDATION_MODE_RANGE:g}\" ({R_CONSOLIDATE} BEFORE MOVING)")
        out.refusal_kind = "no consolidation mode applies"
        return out
    dist = state.rules.consolidate_distance
    if mode == "ongoing":
        out.targets = tuple(ids)
        return _solve(state, geo, out, dist, mode, solve)
    closest = min(ids, key=lambda u: (geo.distance(unit_id, u), u))
    context = {"unit": unit_id, "mode": mode}
    if mode == "engaging":
        return TargetChoice(state, geo, out, "consolidation_targets", ids, (closest,),
                            _target_options(ids), mode, dist, solve, context)
    return TargetChoice(state, geo, out, "consolidation_targets", ids, (closest,), ids, mode,
                        dist, solve, context, max_size=1)


def violation_dicts(outcome: MoveOutcome) -> list[dict[str, Any]]:
    """Violations as JSON-ready objects {model, clause, message}."""
    return [{"model": getattr(v, "model", None), "clause": getattr(v, "clause", ""),
             "message": getattr(v, "message", str(v))} for v in outcome.violations]


def record_move(log: EventLog, outcome: MoveOutcome, state: Battlefield, player: str) -> Battlefield:
    """Emit the move (``pile_in`` or ``consolidate``) or ``no_move``; return the state after it.

    ``pile_in``/``consolidate`` carry {unit, player, mode, targets, moves:
    {model: [[x, y], ...]}, distances: {model: inches}, violations: [], tried,
    max_distance: inches, starts: {model: [x, y, facing]} (every model that may move, where
    it stood), closest: {model: id of the closest model or objective of its closest target}};
    ``no_move`` {unit, player, mode, targets, reason, violations, tried, searched (a move was
    looked for: false when the unit may not make one at all)}.
    ``tried``: the target selections searched ({targets, legal, engaged,
    reason}, in order; empty when the targets were not searched).
    """
    tried = [t.as_dict() for t in outcome.tried]
    if not outcome.legal:
        log.emit("no_move", outcome.rule, unit=outcome.unit, player=player, mode=outcome.mode,
                 targets=list(outcome.targets), reason=outcome.no_move_reason(),
                 violations=violation_dicts(outcome), tried=tried,
                 searched=outcome.plan is not None)
        return state
    kind = "pile_in" if outcome.mode == "pile_in" else "consolidate"
    paths = outcome.paths
    closest = getattr(outcome.plan, "closest", {}) or {}
    log.emit(kind, outcome.rule, unit=outcome.unit, player=player, mode=outcome.mode,
             targets=list(outcome.targets),
             moves={m: [list(p) for p in path] for m, path in paths.items()},
             distances=outcome.distances, violations=[], tried=tried,
             max_distance=outcome.plan.spec.max_distance if outcome.plan is not None else 0.0,
             starts={m: [*state.model(m).at, state.model(m).facing_deg] for m in outcome.start
                     if m in paths or m not in outcome.fixed},
             closest={m: closest[m] for m in paths if closest.get(m)})
    return outcome.state_after(state)
