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
from tabletop.rules.engine.pending import Question

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
    parts no longer stand apart.
    """

    parts: int
    boundary: Callable[[PhaseState], bool]
    owner: Callable[[PhaseState], int | None]
    inner: Callable[[PhaseState, int], tuple[Hashable, Any]]
    splice: Callable[[PhaseState, int, Any], PhaseState]
    projection: Callable[[PhaseState, int], Hashable]
    shared: Callable[[PhaseState], Hashable]
    moving: Callable[[PhaseState], Hashable]
    outcome: Callable[[Any, int], Hashable]
    check: Callable[[PhaseState], None]


def exact_split(machine: Machine, start: PhaseState, split: Split, *,
                scripted: Sequence[Decision] = (), policy: Policy = default_policy,
                max_states: int = 200_000) -> tuple[dict[int, dict[Any, Fraction]], int]:
    """Each part's exact distribution of outcomes (module docstring), and the states weighed.

    Raises
    ------
    walk.TooManyStates
        When the segments would weigh more than ``max_states`` states.
    walk.NotApart
        When a segment changes another part, or ``split.check`` finds the parts joined.
    """
    from tabletop.rules.engine.walk import NotApart, TooManyStates, _answer, _children

    weighed = 0

    def count() -> None:
        nonlocal weighed
        weighed += 1
        if weighed > max_states:
            raise TooManyStates(f"more than {max_states} states to weigh")

    def walk_segment(template: PhaseState, i: int | None, dist: Dist | None
                     ) -> list[tuple[PhaseState, Fraction]]:
        """The boundary states a segment reaches from ``template`` (its question answered),
        with part ``i``'s inner states of ``dist`` spliced in, and their probabilities."""
        if i is None or dist is None:
            level = {0: (template, Fraction(1))}
        else:
            level = {}
            for k, (data, p) in dist.items():
                level[k] = (split.splice(template, i, data), p)
        out: list[tuple[PhaseState, Fraction]] = []
        first = True
        while level:
            nxt: dict[Hashable, tuple[PhaseState, Fraction]] = {}
            for st, p in level.values():
                count()
                if not first and split.boundary(st):
                    out.append((st, p))
                    continue
                children = _children(machine, st, scripted, policy)
                for child, q in children:
                    k = (split.moving(child), split.inner(child, i)[0] if i is not None else None)
                    if k in nxt:
                        nxt[k] = (nxt[k][0], nxt[k][1] + p * q)
                    else:
                        nxt[k] = (child, p * q)
            level = nxt
            first = False
        return out

    state, _ = machine.advance(start)
    dists: tuple[Dist, ...] = tuple(
        {k: (d, Fraction(1))} for k, d in (split.inner(state, i) for i in range(split.parts)))
    # a node: (template, probability, the parts' distributions)
    nodes: dict[Hashable, tuple[PhaseState, Fraction, tuple[Dist, ...]]] = {
        _node_key(split, state, dists): (state, Fraction(1), dists)}
    result: dict[int, dict[Any, Fraction]] = {i: {} for i in range(split.parts)}
    memo: dict[Hashable, list[tuple[PhaseState, Fraction, Hashable, Any]]] = {}
    interned: dict[Hashable, Dist] = {}     # equal distributions are one object (and stay alive)
    while nodes:
        later: dict[Hashable, tuple[PhaseState, Fraction, tuple[Dist, ...]]] = {}
        for template, p, dists in nodes.values():
            if template.done:
                for i, d in enumerate(dists):
                    for data, q in d.values():
                        o = split.outcome(data, i)
                        result[i][o] = result[i].get(o, Fraction(0)) + p * q
                continue
            answered = _answer(machine, template, scripted, policy) \
                if isinstance(template.pending, Question) else template
            i = split.owner(answered)
            mkey = (split.shared(answered), i, id(dists[i]) if i is not None else None) \
                + tuple(split.projection(answered, j) for j in range(split.parts))
            reached = memo.get(mkey)
            if reached is None:
                reached = []
                for st, q in walk_segment(answered, i, dists[i] if i is not None else None):
                    split.check(st)
                    if split.shared(st)[-1] != split.shared(answered)[-1]:
                        raise NotApart(f"part {i}'s turn changed what is in no part")
                    for j in range(split.parts):
                        if j != i and split.inner(st, j)[0] != split.inner(answered, j)[0]:
                            raise NotApart(f"part {j} changed in part {i}'s turn")
                    k, data = split.inner(st, i) if i is not None else (None, None)
                    reached.append((st, q, k, data))
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
                    ik = (i, frozenset((k, q) for k, (_, q) in nd.items()))
                    nd = interned.setdefault(ik, nd)
                    new = dists[:i] + (nd,) + dists[i + 1:]
                nk = _node_key(split, t, new)
                if nk in later:
                    later[nk] = (later[nk][0], later[nk][1] + p * total, later[nk][2])
                else:
                    later[nk] = (t, p * total, new)
        nodes = later
    return result, weighed


def _node_key(split: Split, state: PhaseState, dists: tuple[Dist, ...]) -> Hashable:
    """Nodes merge when the table shares the same and every part's distribution is the same
    object (a part's distribution is only ever replaced, never changed, and equal ones are
    interned)."""
    return (split.shared(state),) + tuple(split.projection(state, i) for i in range(split.parts)) \
        + tuple(id(d) for d in dists)
