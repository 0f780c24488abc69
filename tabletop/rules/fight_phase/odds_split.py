"""The fight phase as engagements that take turns, for exact odds of a whole table
(``engine.factored``; fight-phase.txt 12.04-12.06).

Each engagement (units joined by engaged pairs after the pile-in step,
``odds.engaged_groups``) is a part.  Its inner state is its units as they stand
(models, wounds lost, statuses; gone when destroyed) and what the phase's
memo keeps of them (the tallies the odds read, and whether each has been
selected, was ever eligible, dropped out).  The rest of the table sees of an
engagement only its ``projection``: for each unit, whether it is there,
engaged, selected, ever eligible, dropped out - what the 12.04 alternation
reads to offer the next selection.  A segment runs from one selection to the
next: the selected unit's fight (its fight type, target, attacks) changes only
its own engagement, which is checked.  The gambit Challenge Sub-phase (``challenges =
"gambit"``) is the turn of the engagement whose combat it is in; its record is shared
(``FightMemo.challenge``), so the table's later turns are weighed per way the duel went.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

from tabletop.board.frozen import evolve
from tabletop.geometry.movespec import CONSOLIDATION_MODE_RANGE, NEIGHBOURHOOD
from tabletop.rules.engine import factored, walk
from tabletop.rules.engine.machine import PhaseState
from tabletop.rules.engine.pending import Question
from tabletop.rules.fight_phase.context import geometry, moved_geometry
from tabletop.rules.fight_phase.moving import SOLVED_KEY_MARGIN
from tabletop.rules.fight_phase.odds_key import memo_key as _memo_key

__all__ = ["fight_split", "solve_reach"]

_SETS = ("selected", "ever_eligible", "dropped_out", "engaged_at_fight_start")
_TALLIES = ("wounds_caused", "removed_by", "attacked")
NEAR_MARGIN = 1.0           # inches beyond what a move's solve reads (``moving.solve_key``)
OWN_END = "select_after"    # the row after a selected unit's fight (``sequence.fight_step_rows``)
CONSOLIDATE = "consolidate"  # the 12.07 question picking the next unit to consolidate
MOVE_ROW = "move"           # the row that makes a move (``actions.move_row``)
RECORDS_KEPT = 4096         # parts' flags and tallies kept per set of memo records (``_records``)


def _unit_key(unit: Any) -> Hashable:
    """What a unit shows of itself: id, statuses, each model's place, wounds lost and
    statuses; worked out once per ``Unit`` (frozen) and kept with it."""
    got = unit.__dict__.get("_odds_key")
    if got is None:
        got = (unit.id, unit.status, tuple((m.id, m.x, m.y, m.facing_deg, m.wounds_lost,
                                            tuple(m.status)) for m in unit.models))
        object.__setattr__(unit, "_odds_key", got)
    return got


def _placement(unit: Any) -> frozenset:
    """Each model of ``unit`` as (id, x, y, facing); worked out once per ``Unit`` (frozen)
    and kept with it."""
    got = unit.__dict__.get("_odds_placement")
    if got is None:
        got = frozenset([(m.id, m.x, m.y, m.facing_deg) for m in unit.models])
        object.__setattr__(unit, "_odds_placement", got)
    return got


def _kept(st: PhaseState, name: str) -> dict:
    """A dict kept with the state ``st`` (frozen: what is worked out of it never changes;
    ``evolve`` and ``replace`` make a new state without it), for the keys worked out of it."""
    got = st.__dict__.get(name)
    if got is None:
        got = {}
        object.__setattr__(st, name, got)
    return got


def solve_reach(r: Any) -> float:
    """How far beyond a moving unit's models (each's base radius more) a move's solve reads
    the table, inches (``moving.solve_key``), with ``NEAR_MARGIN`` to spare; ``r`` the map's
    ``[rules]``."""
    return (max(r.pile_in_distance, r.consolidate_distance)
            + max(r.pile_in_target_range, CONSOLIDATION_MODE_RANGE)
            + max(r.engagement_range, r.coherency_range or 0.0) + NEIGHBOURHOOD
            + SOLVED_KEY_MARGIN + NEAR_MARGIN)


def fight_split(groups: tuple[tuple[str, ...], ...], order: tuple[str, ...],
                before: dict[str, int], quiet: Any = None) -> factored.Split:
    """The ``Split`` of a fight phase into ``groups`` (engagements; ``order`` every unit of
    the table in file order; ``before`` each engaged unit's models after the pile-in).
    A part's outcome is ``odds._unit_outcome`` of each of its units.  ``quiet(state, i,
    dists)`` (None: never) says whether the consolidation move under way may be left unmade
    (``odds_consolidation.ConsolidationCheck.quiet``); the split then leaves it unmade.
    """
    index = {u: i for i, g in enumerate(groups) for u in g}
    in_parts = set(index)

    def boundary(st: PhaseState) -> bool:
        if st.done:
            return True
        q = st.pending
        return isinstance(q, Question) and st.memo.fighting is None and (
            q.choice == "fight" or (q.choice == CONSOLIDATE and st.memo.move is None))

    def answer_stop(st: PhaseState) -> str | None:
        q = st.pending      # a consolidation picked: its move is walked per inner state
        return MOVE_ROW if isinstance(q, Question) and q.choice == CONSOLIDATE else None

    def owner(st: PhaseState) -> int | None:
        job, ch = st.memo.fighting, st.memo.challenge
        if job is not None:
            return index.get(job.unit)
        if st.memo.move is not None:        # a consolidation move (12.08)
            return index.get(st.memo.move.unit)
        if ch is not None and ch.index < len(ch.combats) and ch.combats[ch.index]:
            return index.get(ch.combats[ch.index][0])     # a challenge in that combat
        return 0 if len(groups) == 1 else None

    def inner(st: PhaseState, i: int) -> tuple[Hashable, Any]:
        kept = _kept(st, "_odds_inner")         # worked out once per state and part
        got = kept.get(i)
        if got is None:
            got = kept[i] = _inner(st, i)
        return got

    # (part, the memo's sets and tallies as objects) -> (those objects, the part's flags and
    # tallies): the memo's records are replaced, never changed, and most steps keep them
    records: dict[tuple, tuple[tuple, tuple, tuple]] = {}

    def _records(memo: Any, i: int) -> tuple[tuple, tuple]:
        """Part ``i``'s units' flags (``_SETS``) and tallies (``_TALLIES``) in ``memo``,
        worked out once per part and set of the memo's record objects."""
        objs = tuple(getattr(memo, s) for s in _SETS) + tuple(getattr(memo, t) for t in _TALLIES)
        k = (i,) + tuple(map(id, objs))
        hit = records.get(k)
        if hit is not None and all(a is b for a, b in zip(hit[0], objs)):
            return hit[1], hit[2]
        in_sets = objs[:len(_SETS)]
        sets = tuple([tuple([u in s for s in in_sets]) for u in groups[i]])
        in_tallies = [dict(t) for t in objs[len(_SETS):]]
        tallies = tuple([tuple([t.get(u) for t in in_tallies]) for u in groups[i]])
        if len(records) >= RECORDS_KEPT:
            records.clear()
        records[k] = (objs, sets, tallies)
        return sets, tallies

    def _inner(st: PhaseState, i: int) -> tuple[Hashable, Any]:
        by_id = st.battlefield._units_by_id()
        units = tuple([by_id.get(u) for u in groups[i]])
        sets, tallies = _records(st.memo, i)
        key = (tuple([None if x is None else _unit_key(x) for x in units]), sets, tallies)
        return key, (units, sets, tallies)

    def splice(st: PhaseState, i: int, data: Any) -> PhaseState:
        units, sets, tallies = data
        bf, memo = st.battlefield, st.memo
        present = {u.id: u for u in bf.units}
        for u, obj in zip(groups[i], units):
            if obj is None:
                present.pop(u, None)
            else:
                present[u] = obj
        bf = evolve(bf, units=tuple(present[u] for u in order if u in present))
        mine = set(groups[i])
        changes: dict[str, Any] = {}
        for k, s in enumerate(_SETS):
            old = getattr(memo, s)
            add = [u for u, flags in zip(groups[i], sets) if flags[k]]
            if s == "selected":
                changes[s] = tuple(u for u in old if u not in mine) + tuple(add)
            else:
                changes[s] = frozenset(u for u in old if u not in mine) | frozenset(add)
        for k, t in enumerate(_TALLIES):
            rest = [(u, v) for u, v in getattr(memo, t) if u not in mine]
            rest += [(u, vals[k]) for u, vals in zip(groups[i], tallies) if vals[k] is not None]
            changes[t] = tuple(sorted(rest))
        return evolve(st, battlefield=bf, memo=evolve(memo, **changes))

    def projection(st: PhaseState, i: int) -> Hashable:
        kept = _kept(st, "_odds_projection")    # worked out once per state and part
        got = kept.get(i)
        if got is None:
            bf = st.battlefield
            geo = geometry(bf)
            sets, _ = _records(st.memo, i)
            got = kept[i] = tuple(
                (bf.has_unit(u), bool(bf.has_unit(u) and geo.unit_engaged(u))) + flags
                for u, flags in zip(groups[i], sets))
        return got

    def moving(st: PhaseState) -> tuple:
        got = st.__dict__.get("_odds_moving")   # worked out once per state
        if got is None:
            got = _moving(st)
            object.__setattr__(st, "_odds_moving", got)
        return got

    def _moving(st: PhaseState) -> tuple:
        memo = st.memo
        changes: dict[str, Any] = {}
        for s in _SETS:
            old = getattr(memo, s)
            changes[s] = type(old)(u for u in old if u not in in_parts)
        for t in _TALLIES:
            changes[t] = tuple((u, v) for u, v in getattr(memo, t) if u not in in_parts)
        return st.cursor, st.pending, _memo_key(evolve(memo, **changes)), st.used

    def shared(st: PhaseState) -> tuple[Hashable, ...]:
        got = st.__dict__.get("_odds_shared")   # worked out once per state
        if got is None:
            others = tuple([_unit_key(u) for u in st.battlefield.units if u.id not in in_parts])
            got = moving(st) + (others,)
            object.__setattr__(st, "_odds_shared", got)
        return got

    def outcome(data: Any, i: int) -> Hashable:
        units, sets, tallies = data
        out = []
        for u, obj, vals in zip(groups[i], units, tallies):
            left = len(obj.models) if obj is not None else 0
            out.append((before[u] - left, obj is None, vals[1] or 0, vals[0] or 0,
                        tuple(sorted(vals[2] or ()))))
        return tuple(out)

    def shares(st: PhaseState) -> bool:
        job = st.memo.fighting
        return job is not None and job.then == OWN_END and st.memo.challenge is None

    def moved(parent: PhaseState, child: PhaseState, i: int) -> bool:
        """Whether a model of part ``i`` stands in ``child`` where it did not in ``parent``
        (a place, with facing, that none of its unit's models had): unit by unit, and a unit
        ``child`` shares with ``parent`` (the same frozen object) has not moved."""
        pb, cb = parent.battlefield, child.battlefield
        if pb is cb:
            return False
        before, after = pb._units_by_id(), cb._units_by_id()
        for u in groups[i]:
            now = after.get(u)
            if now is None:
                continue
            was = before.get(u)
            if now is was:
                continue
            if was is None or not _placement(now) <= _placement(was):
                return True
        return False

    def reads_around(parent: PhaseState, child: PhaseState, i: int) -> bool:
        """Whether the step read the table beyond part ``i``: a move was set up (its target
        question waits, ``memo.move``, ``memo.choice``) or made (``memo.moves`` grew, or a
        model of the part stands somewhere new); the rest of a unit's fight reads only its
        own engagement (``factored``'s module docstring)."""
        cm = child.memo
        return (cm.move is not None or cm.choice is not None
                or len(cm.moves) != len(parent.memo.moves) or moved(parent, child, i))

    def transplant(end: PhaseState, i: int, target: PhaseState) -> PhaseState:
        mine = set(groups[i])
        others = in_parts - mine
        tb, eb = target.battlefield, end.battlefield
        present = {u.id: u for u in tb.units}
        for u in groups[i]:
            if eb.has_unit(u):
                present[u] = eb.unit(u)
            else:
                present.pop(u, None)
        bf = evolve(tb, units=tuple(present[u] for u in order if u in present))
        changed = {m.id for b in (tb, eb) for u in groups[i] if b.has_unit(u)
                   for m in b.unit(u).models}
        moved_geometry(tb, bf, changed)
        memo, there = end.memo, target.memo
        changes: dict[str, Any] = {}
        for s in _SETS:
            old, theirs = getattr(memo, s), getattr(there, s)
            if s == "selected":
                changes[s] = tuple(u for u in theirs if u in others) \
                    + tuple(u for u in old if u not in others)
            else:
                changes[s] = frozenset(u for u in old if u not in others) \
                    | frozenset(u for u in theirs if u in others)
        for t in _TALLIES:
            changes[t] = tuple(sorted([(u, v) for u, v in getattr(memo, t) if u not in others]
                                      + [(u, v) for u, v in getattr(there, t) if u in others]))
        return evolve(end, battlefield=bf, memo=evolve(memo, **changes))

    def carry(data: Any, before: Any, after: Any, i: int) -> tuple[Hashable, Any] | None:
        units, sets, tallies = data
        if sets != before[1] or after[0] != before[0] or after[2] != before[2]:
            return None     # the run to the next selection changed more than the flags
        key = (tuple(None if x is None else _unit_key(x) for x in units), after[1], tallies)
        return key, (units, after[1], tallies)

    def near(st: PhaseState, i: int, dist: Any) -> Hashable:
        bf = st.battlefield
        reach = solve_reach(bf.rules)
        mine = {(m.x, m.y) for data, _ in dist.values() for u in data[0] if u is not None
                for m in u.models}
        out = []
        for u in bf.units:
            if u.id not in in_parts or index[u.id] == i:
                continue
            limit = reach + max(m.base.radius for m in u.models)
            if any(math.hypot(m.x - x, m.y - y) <= limit for m in u.models for x, y in mine):
                out.append((u.id, tuple((m.id, m.x, m.y, m.facing_deg, tuple(m.status))
                                        for m in u.models)))
        return tuple(out)

    def check(st: PhaseState) -> None:
        for a, b in geometry(st.battlefield).engaged_unit_pairs:
            if index.get(a, -1) != index.get(b, -2):
                raise walk.NotApart(f"{a} and {b} are engaged across engagements")

    def left_unmade(st: PhaseState, i: int, dists: Any) -> PhaseState | None:
        job = st.memo.move
        if quiet is None or job is None or job.kind != CONSOLIDATE or not quiet(st, i, dists):
            return None
        return evolve(st, cursor=job.then, memo=evolve(st.memo, move=None))

    return factored.Split(len(groups), boundary, owner, inner, splice, projection, shared,
                          moving, outcome, check, OWN_END, shares, moved, transplant, carry,
                          near, reads_around, answer_stop, left_unmade)
