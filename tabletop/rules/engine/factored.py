"""Exact odds of a phase that falls into parts which take turns: each part weighed on its own.

A fight phase with several engagements is one process: the 12.04 alternation
hands turns from engagement to engagement, and who is still there to be
selected in one engagement changes who strikes first in another.  Its states,
though, are the engagements' states multiplied, and ``walk.exact`` (even with
``walk.exact_parts``) weighs them all.

This walk keeps the schedule and the parts apart.  A *node* is what the whole
table shares - the rows' place, whose turn it is, what every part shows the
others (its ``projection``: which of its units are there, engaged, selected) -
with, for each part, its own distribution of inner states (where its models
stand, their wounds, its tallies) given that schedule.  Given the schedule the
parts' dice are independent, so these distributions stay apart; a node needs
one representative table (``template``) whose parts show the node's
projections.

From a node waiting at a ``boundary`` (the next unit is selected), the
question is answered as usual; the unit's part takes its ``segment``: every
inner state of that part, spliced into the template, is walked exactly (every
chance outcome, questions answered as the fight would) to the next boundary.
The states reached are grouped by what the rest of the table can see (the
shared key and the part's new projection): one new node per group, with that
part's new distribution and every other part's unchanged (shared, not
copied).  A segment depends only on the node's shared key and that part's
distribution (and what the other parts show), so it is worked out once
(``memo``) however many nodes need it.

A selection's segment (``Split.shares``) is further cut at ``Split.own_end`` (the row
after the unit's fight, before the next selection is worked out).  Its own work up to
there - the fight type, an overrun's pile-in, the attack target, the attacks - reads the
shared key and that part alone, so it is walked once per (``shared``, part, its
distribution) whatever the other parts show, and its ends are transplanted onto each table
that reaches it (``Split.transplant``: that part's units and records set on the table, its
geometry snapshot derived, ``Geometry.moved``).  Why nothing else is read: the selected
unit's fight type and eligibility to pile in read whether it is engaged, and its attacks
read the enemy units engaged with it and the models within engagement range; a unit of
another part is never engaged with it (``check``, at every boundary; removing casualties
cannot engage anyone), so these read only its own part.  A move reads more: the
neighbourhood the solver reads (``moving.solve_key``); so when a model of the part moves
in the walk (``Split.moved``: a model's place is not one it had), its own work is keyed
with ``Split.near`` as well: every unit of another part within that neighbourhood, as it
stands.  When that key is new but the same own work was walked on another table, its
steps that read beyond the part (``Split.reads_around``: a move set up or made) are
replayed on this table, each from the replayed state before it (or that state
transplanted); when every one reaches the same state as it did there (``moving`` and the
part's inner key), the rest of the walk, which reads only the part, would too, and its
ends are taken (transplanted) instead of walking it again.  The rest of the segment, from ``own_end`` to the next boundary (the 12.04
alternation: who is eligible, who selects), reads the whole table but of the part only
its projection, and changes the part only in the flags the projection shows; so it is run
once per group of ends the rest of the table cannot tell apart, and each inner state of
the group takes the flags it set (``Split.carry``; when that run rolled dice or changed
more than the flags, every end is transplanted and run on its own).

It is exact as long as a segment changes only its own part (checked: every
other part's inner state is compared before and after, and ``check`` looks
for anything joining two parts, such as a move that engages across them:
``walk.NotApart``), and bounded by counting (``max_states`` states weighed in
all segments, ``walk.TooManyStates``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tabletop.board.state import Decision
from tabletop.rules.engine.driver import Policy, default_policy
from tabletop.rules.engine.machine import Machine, PhaseState
from tabletop.rules.engine.pending import Chance, Question
from tabletop.rules.engine.walk import cycles_paused

__all__ = ["Split", "exact_split"]

Dist = dict[Hashable, tuple[Any, Fraction]]     # inner key -> (inner state, probability)


@dataclass(frozen=True)
class Split:
    """How a ruleset's phase state falls into a shared part and ``parts`` inner parts.

    ``parts`` the number of parts; ``boundary(state)`` whether the state is between two
    segments (waiting for the next selection, or done); ``owner(state)`` the part whose
    segment starts once the boundary question is answered (None: the segment touches no
    part); ``inner(state, i)`` part i's inner state as ``(key, data)``; ``splice(state, i,
    data)`` the state with part i's inner state set to ``data``; ``projection(state, i)``
    what the rest of the table reads of part i; ``shared(state)`` everything else that
    decides the rest of the phase (no part's inner state); ``moving(state)`` the same
    within a segment, where only the segment's part and the rows' own record change (what
    does not change, such as units in no part, is checked at the segment's end); ``outcome(data, i)`` part i's
    outcome from its inner data; ``check(state)`` raises ``walk.NotApart`` when the
    parts no longer stand apart; ``reads_around(parent, child, i)`` whether the step from
    ``parent`` to ``child`` in part i's own work read the table beyond the part (a move set
    up or made; None: own work that moved a model is never replayed, module docstring).
    ``answer_stop(state)`` names a row at which answering the boundary question of
    ``state`` stops (None: ``own_end``): the segment that follows is walked from there for
    each inner state of its part, not run on the template first (a consolidation move,
    which reads the part's own models, ``odds_split``).  ``quiet(state, i, dists)``, asked
    of such a state (part ``i`` owns what comes next, the node's parts' inner states
    ``dists``): None, or the state with that work left undone, when nothing weighed can
    depend on it (a consolidation move that can start no fight, ``odds_consolidation``).
    """

    parts: int
    boundary: Callable[[PhaseState], bool]
    owner: Callable[[PhaseState], int | None]
    inner: Callable[[PhaseState, int], tuple[Hashable, Any]]
    splice: Callable[[PhaseState, int, Any], PhaseState]
    projection: Callable[[PhaseState, int], Hashable]
    shared: Callable[[PhaseState], tuple[Hashable, ...]]
    moving: Callable[[PhaseState], Hashable]
    outcome: Callable[[Any, int], Hashable]
    check: Callable[[PhaseState], None]
    own_end: str | None = None
    shares: Callable[[PhaseState], bool] = lambda st: False
    moved: Callable[[PhaseState, PhaseState, int], bool] = lambda a, b, i: True
    transplant: Callable[[PhaseState, int, PhaseState], PhaseState] | None = None
    carry: Callable[[Any, Any, Any, int], tuple[Hashable, Any] | None] = \
        lambda data, before, after, i: None
    near: Callable[[PhaseState, int, Any], Hashable] = lambda st, i, dist: id(st)
    reads_around: Callable[[PhaseState, PhaseState, int], bool] | None = None
    answer_stop: Callable[[PhaseState], str | None] = lambda st: None
    quiet: Callable[[PhaseState, int, tuple[Any, ...]], PhaseState | None] = \
        lambda st, i, dists: None


@cycles_paused()
def exact_split(machine: Machine, start: PhaseState, split: Split, *,
                scripted: Sequence[Decision] = (), policy: Policy = default_policy,
                max_states: int = 200_000,
                hold: Callable[[PhaseState, tuple[Dist, ...]], PhaseState | None] | None = None,
                held: list[tuple[PhaseState, Fraction, tuple[Dist, ...]]] | None = None,
                resume: Sequence[tuple[PhaseState, Fraction, tuple[Dist, ...]]] | None = None,
                max_made: int | None = None
                ) -> tuple[dict[int, dict[Any, Fraction]], int]:
    """Each part's exact distribution of outcomes (module docstring), and the states weighed.

    ``hold(template, dists)`` is asked of every node that ends the phase (its table and
    each part's inner states): a state given back is where the node goes on (with another
    machine), and the node, as that state, its probability and ``dists``, is put in
    ``held`` instead of being weighed.  ``resume`` (nodes so held) is where the walk
    starts instead of ``start``; the distributions it gives then are those of the resumed
    nodes, weighted by their probabilities.  The fight-phase odds walk the Fight step, hold
    the tables on which Consolidation can start a fight and walk Consolidation from those
    alone (``odds_consolidation``).

    ``max_made``: at most this many states made by the segments' steps (each chance
    outcome of each state weighed, before equal ones merge: a unit rolling 10D6 attacks
    makes some 28,000 from one state); None: no bound.

    Raises
    ------
    walk.TooManyStates
        When the segments would weigh more than ``max_states`` states, or make more than
        ``max_made``.
    walk.NotApart
        When a segment changes another part, or ``split.check`` finds the parts joined.
    """
    from tabletop.rules.engine.walk import ASKED, NotApart, TooManyStates, _answer, _steps

    weighed = 0
    made = 0

    def count() -> None:
        nonlocal weighed
        weighed += 1
        if weighed > max_states:
            raise TooManyStates(f"more than {max_states} states to weigh")

    def make(n: int) -> None:
        nonlocal made
        made += n
        if max_made is not None and made > max_made:
            raise TooManyStates(f"more than {max_made} states to make")

    def walk_segment(starts: list[tuple[PhaseState, Fraction]], i: int | None, *,
                     stop: str | None = None, first: bool = True,
                     record: list[tuple[PhaseState, Any, PhaseState]] | None = None
                     ) -> tuple[list[tuple[PhaseState, Fraction]], bool]:
        """The states a segment reaches from ``starts`` (states with something pending, or
        at ``stop``) with their probabilities: the next boundary (not a first state when
        ``first``), or, with ``stop``, the row ``stop`` with nothing pending (the part's own
        work done).  Also whether a model of part ``i`` moved on the way (``split.moved``).
        ``record`` (a list) gets each step that read beyond the part (``split.reads_around``)
        as (state, answer, child), in the order walked."""
        level: dict[Hashable, tuple[PhaseState, Fraction]] = {}
        for n, (st, p) in enumerate(starts):
            k = (split.moving(st), split.inner(st, i)[0]) if i is not None else n
            level[k] = (st, p if k not in level else level[k][1] + p)
        out: list[tuple[PhaseState, Fraction]] = []
        moved = False
        while level:
            nxt: dict[Hashable, tuple[PhaseState, Fraction]] = {}
            for st, p in level.values():
                count()
                if (stop is not None and st.cursor == stop and st.pending is None) \
                        or (not first and split.boundary(st)):
                    out.append((st, p))
                    continue
                pend = st.pending       # a chance's outcomes counted before they are made
                make(len(pend.outcomes) if isinstance(pend, Chance) else 1)
                for child, q, value in _steps(machine, st, scripted, policy, stop):
                    if i is not None and not moved and split.moved(st, child, i):
                        moved = True
                    if record is not None and i is not None and split.reads_around is not None \
                            and split.reads_around(st, child, i):
                        record.append((st, value, child))
                    k = (split.moving(child), split.inner(child, i)[0] if i is not None else None)
                    if k in nxt:
                        nxt[k] = (nxt[k][0], nxt[k][1] + p * q)
                    else:
                        nxt[k] = (child, p * q)
            level = nxt
            first = False
        return out, moved

    def replayed(record: list[tuple[PhaseState, Any, PhaseState]], table: PhaseState,
                 i: int) -> bool:
        """Whether every step of ``record`` (own work of part ``i`` walked on another table)
        reaches, on ``table``'s, a state with the same ``moving`` key and part ``i``'s same
        inner key: each step is taken again from the state before it as replayed here (or
        that state transplanted onto ``table``; not when a question is pending there whose
        default was worked out on the other table), with the same chance outcome, or the
        question answered afresh."""
        assert split.transplant is not None
        again: dict[int, PhaseState] = {}
        for st, value, child in record:
            parent = again.get(id(st))
            if parent is None:
                pend = st.pending
                if isinstance(pend, Question) and pend.default_fn is not None:
                    return False
                parent = split.transplant(st, i, table)
            if value is ASKED:
                now = _answer(machine, parent, scripted, policy, split.own_end)
            else:
                now = machine.answer(parent, value, stop=split.own_end)[0]
            if split.moving(now) != split.moving(child) \
                    or split.inner(now, i)[0] != split.inner(child, i)[0]:
                return False
            again[id(child)] = now
        return True

    def own_segment(answered: PhaseState, i: int, dist: Dist
                    ) -> list[tuple[PhaseState, Fraction, Hashable, Any]]:
        """Part ``i``'s segment from ``answered`` (a selection answered, stopped before
        ``split.own_end``), its inner states ``dist``: the boundary states reached, each with
        its probability and part ``i``'s inner state there (key, data); one state may stand
        for several inner states of part ``i`` (its template).

        The part's own work (up to ``own_end``) is walked once per own key (what it reads:
        ``split.shared``, the part and its distribution; and, when a model of the part moves
        in it, ``split.near``: the other parts' units that move can read) and its ends,
        grouped by what the rest of the table sees of them, are transplanted onto this table
        (``split.transplant``).  From ``own_end`` to the next boundary (the next selection
        worked out) each group's template is run on this table once; every inner state of
        the group takes the flags it set (``split.carry``), or, when that run rolled dice
        or changed more than the flags, each inner state is run on its own."""
        okey = (split.shared(answered), i, id(dist))
        got = own.get(okey)
        nkey = None
        if got is None and okey in moving_keys:
            nkey = (okey, split.near(answered, i, dist))
            got = own.get(nkey)
            if got is None:
                for walked, steps in replays.get(okey, ()):
                    if replayed(steps, answered, i):
                        got = own[nkey] = walked
                        break
        if got is None:
            starts = [(split.splice(answered, i, data), p) for data, p in dist.values()]
            record: list[tuple[PhaseState, Any, PhaseState]] | None = \
                [] if split.reads_around is not None and split.transplant is not None else None
            ends, moved = walk_segment(starts, i, stop=split.own_end, record=record)
            grouped: dict[Hashable, list[tuple[PhaseState, Fraction]]] = {}
            for st, p in ends:
                grouped.setdefault((split.shared(st), split.projection(st, i)), []).append((st, p))
            got = (answered, list(grouped.values()))
            if not moved:
                own[okey] = got
            else:
                moving_keys.add(okey)
                own[nkey if nkey is not None else (okey, split.near(answered, i, dist))] = got
                if record is not None:
                    replays.setdefault(okey, []).append((got, record))
        origin, groups = got
        out: list[tuple[PhaseState, Fraction, Hashable, Any]] = []
        for members in groups:
            rep = members[0][0]
            if origin is not answered:
                assert split.transplant is not None   # own segments are shared only with a transplant
                rep = split.transplant(rep, i, answered)
            nxt, _ = machine.advance(rep)
            carried = []
            if split.boundary(nxt):
                before, after = split.inner(rep, i)[1], split.inner(nxt, i)[1]
                for st, p in members:
                    c = split.carry(split.inner(st, i)[1], before, after, i)
                    if c is None:
                        break
                    carried.append((nxt, p) + c)
            if len(carried) == len(members):
                out += carried
                continue
            starts = []
            for st, p in members:
                if origin is not answered:
                    assert split.transplant is not None   # own segments are shared only with a transplant
                    st = split.transplant(st, i, answered)
                starts.append((machine.advance(st)[0], p))
            for st, p in walk_segment(starts, i, first=False)[0]:
                out.append((st, p) + split.inner(st, i))
        return out

    # a node: (template, probability, the parts' distributions)
    nodes: dict[Hashable, tuple[PhaseState, Fraction, tuple[Dist, ...]]] = {}
    if resume is None:
        state, _ = machine.advance(start)
        dists: tuple[Dist, ...] = tuple(
            {k: (d, Fraction(1))} for k, d in (split.inner(state, i) for i in range(split.parts)))
        nodes[_node_key(split, state, dists)] = (state, Fraction(1), dists)
    else:
        for state, p, dists in resume:
            state, _ = machine.advance(state)
            nk = _node_key(split, state, dists)
            was = nodes.get(nk)
            nodes[nk] = (state, p if was is None else was[1] + p, dists)
    # (part, id of its distribution) -> (that distribution, probability of the done nodes with it)
    finished: dict[tuple[int, int], tuple[Dist, Fraction]] = {}
    memo: dict[Hashable, list[tuple[PhaseState, Fraction, Hashable, Any]]] = {}
    # own key -> (the table it was walked on, the own ends): segments transplanted
    own: dict[Hashable, tuple[PhaseState, list[list[tuple[PhaseState, Fraction]]]]] = {}
    moving_keys: set[Hashable] = set()      # own keys whose walk moved a model: keyed with near
    # own key -> [(a walk's entry in ``own``, its steps that read beyond the part)]: replayed
    replays: dict[Hashable, list[tuple[Any, list[tuple[PhaseState, Any, PhaseState]]]]] = {}
    interned: dict[Hashable, Dist] = {}     # equal distributions are one object (and stay alive)
    while nodes:
        later: dict[Hashable, tuple[PhaseState, Fraction, tuple[Dist, ...]]] = {}
        for template, p, dists in nodes.values():
            if template.done:
                on = hold(template, dists) if hold is not None else None
                if on is not None:
                    assert held is not None
                    held.append((on, p, dists))
                    continue
                # weighed once per part and distribution (``_harvest``), not once per node
                for part, d in enumerate(dists):
                    w = finished.get((part, id(d)))
                    finished[(part, id(d))] = (d, p if w is None else w[1] + p)
                continue
            answered = template
            fresh = None        # the row answering stopped at, each inner state run on from it
            if isinstance(template.pending, Question):
                fresh = split.answer_stop(template)
                answered = _answer(machine, template, scripted, policy, fresh or split.own_end)
                if fresh is not None and not (answered.cursor == fresh
                                              and answered.pending is None):
                    fresh = None
            i = split.owner(answered)
            if i is None:
                fresh = None
            skipped = False
            if fresh is not None:
                assert i is not None
                left = split.quiet(answered, i, dists)
                if left is not None:        # the move left unmade: the table's own turn
                    answered, _ = machine.advance(left)
                    i, fresh, skipped = None, None, True
            shares = fresh is None and i is not None and split.own_end is not None \
                and split.shares(answered)
            if fresh is None and not shares and split.own_end is not None \
                    and answered.pending is None and not answered.done:
                answered, _ = machine.advance(answered)     # stopped early: run on
            mkey = (split.shared(answered), i, id(dists[i]) if i is not None else None) \
                + tuple(split.projection(answered, j) for j in range(split.parts))
            if fresh is not None:       # a move: what it reads of the other parts, as they stand
                assert i is not None
                mkey += (split.near(answered, i, dists[i]),)
            reached = memo.get(mkey)
            if reached is None:
                if shares:
                    assert i is not None
                    reached = own_segment(answered, i, dists[i])
                elif fresh is not None:
                    assert i is not None
                    starts = [(machine.advance(split.splice(answered, i, data))[0], q)
                              for data, q in dists[i].values()]
                    ends = walk_segment(starts, i, first=False)[0]
                    reached = [(st, q) + split.inner(st, i) for st, q in ends]
                else:
                    starts = [(answered, Fraction(1))] if i is None else \
                        [(split.splice(answered, i, data), q) for data, q in dists[i].values()]
                    ends = walk_segment(starts, i, first=not skipped)[0]
                    reached = [(st, q, None, None) for st, q in ends] if i is None else \
                        [(st, q) + split.inner(st, i) for st, q in ends]
                seen: set[int] = set()
                for st, _, _, _ in reached:
                    if id(st) in seen:
                        continue
                    seen.add(id(st))
                    split.check(st)
                    if split.shared(st)[-1] != split.shared(answered)[-1]:
                        raise NotApart(f"part {i}'s turn changed what is in no part")
                    for j in range(split.parts):
                        if j != i and split.inner(st, j)[0] != split.inner(answered, j)[0]:
                            raise NotApart(f"part {j} changed in part {i}'s turn")
                memo[mkey] = reached
            groups: dict[Hashable, tuple[PhaseState, Fraction, Dist]] = {}
            for st, q, k, data in reached:
                g = (split.shared(st), split.projection(st, i) if i is not None else None)
                t, total, d = groups.get(g, (st, Fraction(0), {}))
                if k is not None:
                    old = d.get(k)
                    d[k] = (data, q if old is None else old[1] + q)
                groups[g] = (t, total + q, d)
            for t, total, d in groups.values():
                new = dists
                if i is not None:
                    nd = {k: (data, q / total) for k, (data, q) in d.items()}
                    # a probability as (numerator, denominator): equal exactly when the
                    # Fractions are, and hashed without Fraction.__hash__
                    ik = (i, frozenset([(k, q.numerator, q.denominator)
                                        for k, (_, q) in nd.items()]))
                    nd = interned.setdefault(ik, nd)
                    new = dists[:i] + (nd,) + dists[i + 1:]
                nk = _node_key(split, t, new)
                if nk in later:
                    later[nk] = (later[nk][0], later[nk][1] + p * total, later[nk][2])
                else:
                    later[nk] = (t, p * total, new)
        nodes = later
    return _harvest(split, finished), weighed


def _harvest(split: Split, finished: dict[tuple[int, int], tuple[Dist, Fraction]]
             ) -> dict[int, dict[Any, Fraction]]:
    """Each part's distribution of outcomes from the finished nodes: ``finished`` holds, per
    (part, id of a distribution), the distribution and the total probability of the done
    nodes that have it (a part's distribution is interned, so the done nodes share few); each
    inner state's outcome is worked out once per distribution, and its probability is that
    total times its own - the same sum as per node, in fewer steps."""
    result: dict[int, dict[Any, Fraction]] = {i: {} for i in range(split.parts)}
    for (part, _), (d, w) in finished.items():
        got = result[part]
        for data, q in d.values():
            o = split.outcome(data, part)
            got[o] = got.get(o, Fraction(0)) + w * q
    return result


def _node_key(split: Split, state: PhaseState, dists: tuple[Dist, ...]) -> Hashable:
    """Nodes merge when the table shares the same and every part's distribution is the same
    object (a part's distribution is only ever replaced, never changed, and equal ones are
    interned)."""
    return (split.shared(state),) + tuple(split.projection(state, i) for i in range(split.parts)) \
        + tuple(id(d) for d in dists)
