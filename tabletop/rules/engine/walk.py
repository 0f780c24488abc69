"""One odds engine: walk a phase's chance outcomes, merging equal states (docs/design.md "Conventions: Dice").

``exact`` follows every outcome of every ``Chance`` from a state, with its
exact probability, answering every ``Question`` as the fight would (the
map's ``[[decisions]]``, then the default policy), and merges states that
are equal under the ruleset's ``key`` so a phase whose dice reach the same
table by many roads is weighed once per table, not once per road.  It works
level by level (all states one answer deep, then two, ...), so two roads of
the same length to one state always meet.

Exact or sampled is decided by counting, never by a clock: ``odds`` walks
exactly while the states weighed stay within ``max_states``, else it says
so and samples (``monte_carlo``): seeded runs, in batches, until the
largest standard error of any outcome's probability is under
``target_se`` (half a percentage point by default) or ``max_runs`` runs
(a stated cap).

A walk keeps thousands of frozen states alive and makes many more, none of them in a
reference cycle that needs collecting before the walk ends; Python's cycle collector,
triggered by every 700 new objects, would scan them all again and again (a sixth of the
60x44 layout's time).  So the walks pause it while they run (``cycles_paused``,
``PAUSE_CYCLE_COLLECTION``) and set it back as it was when they end or raise; objects are
still freed by reference counting at once, and what cycles a walk leaves are collected by
the next collection after it.
"""

from __future__ import annotations

import gc
import math
import random
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tabletop.board.state import Decision
from tabletop.rules.engine.driver import Policy, default_policy, scripted_answer
from tabletop.rules.engine.machine import Machine, PhaseState
from tabletop.rules.engine.pending import Chance, Question

__all__ = ["MAX_STATES", "MC_BATCH", "MC_MAX_RUNS", "MC_MIN_RUNS", "PAUSE_CYCLE_COLLECTION",
           "TARGET_SE", "NotApart", "Odds", "PartOdds", "Parts", "TooManyStates", "cycles_paused",
           "exact", "exact_parts", "monte_carlo", "odds"]

MAX_STATES = 200_000
TARGET_SE = 0.005
MC_MIN_RUNS = 1_000
MC_MAX_RUNS = 40_000
MC_BATCH = 500
#: engine setting (not a reading of any rule): the walks pause Python's cycle collector while
#: they run (module docstring); False leaves it as it is
PAUSE_CYCLE_COLLECTION = True

Outcome = Callable[[PhaseState], Hashable]
Key = Callable[[PhaseState], Hashable]


@contextmanager
def cycles_paused() -> Iterator[None]:
    """Pause Python's cycle collector (``gc``) for the walk inside, when
    ``PAUSE_CYCLE_COLLECTION``; it is set back as it was when the walk ends or raises
    (nested walks leave it to the outermost).  Reference counting still frees every state
    the walk drops.  Usable as a decorator."""
    paused = PAUSE_CYCLE_COLLECTION and gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def binomial_se(p: float, n: int) -> float:
    """The standard error of a probability ``p`` estimated from ``n`` runs, sqrt(p(1-p)/n).
    A probability summed from run counts may stray past 0 or 1 by a rounding (1 +
    2e-16): read as 0 there, not a math domain error."""
    return math.sqrt(max(0.0, p * (1 - p)) / n)


class TooManyStates(Exception):
    """The exact walk would weigh more than its bound of states."""


class NotApart(Exception):
    """A part the walk had finished changed again: the phase does not fall apart as its
    ``Parts`` said (``exact_parts``)."""


@dataclass
class Odds:
    """A distribution of outcomes: ``{outcome: probability}`` (``Fraction`` when exact).

    ``method`` is "exact" or "monte carlo"; ``states`` the states weighed
    (exact) and ``runs`` / ``max_se`` the sampled runs and the largest
    standard error of any outcome's probability (Monte Carlo).
    """

    method: str
    dist: dict[Any, Any]
    states: int | None = None
    runs: int | None = None
    max_se: float | None = None

    def p(self, pred: Callable[[Any], bool]) -> Any:
        """The probability of the outcomes for which ``pred`` holds."""
        return sum((p for o, p in self.dist.items() if pred(o)),
                   Fraction(0) if self.method == "exact" else 0.0)

    def se(self, pred: Callable[[Any], bool]) -> float | None:
        """The standard error of ``p(pred)`` (None when exact)."""
        if self.runs is None:
            return None
        q = float(self.p(pred))
        return math.sqrt(q * (1 - q) / self.runs)


def _answer(machine: Machine, state: PhaseState, scripted: Sequence[Decision], policy: Policy,
            stop: str | None = None) -> PhaseState:
    q = state.pending
    assert isinstance(q, Question)
    found, value, state, _ = scripted_answer(state, q, scripted)
    if not found:
        value = policy(q)
    return machine.answer(state, value, stop=stop)[0]


def _children(machine: Machine, state: PhaseState, scripted: Sequence[Decision], policy: Policy,
              stop: str | None = None) -> list[tuple[PhaseState, Fraction]]:
    """The states one step on from ``state`` with their probabilities: its question answered
    (probability 1), or each possible outcome of its chance (advanced no further than the
    row ``stop``, ``Machine.advance``)."""
    pend = state.pending
    if isinstance(pend, Question):
        return [(_answer(machine, state, scripted, policy, stop), ONE)]
    assert isinstance(pend, Chance)
    return [(machine._resume(state, v, stop=stop)[0], q) for v, q in pend.outcomes if q]


def _weighed(machine: Machine, state: PhaseState, scripted: Sequence[Decision], policy: Policy
             ) -> list[tuple[PhaseState, int]]:
    """``_children`` with each probability as an int over the chance's ``den`` (1 for a
    question): what ``exact`` multiplies, no ``Fraction`` made."""
    pend = state.pending
    if isinstance(pend, Question):
        return [(_answer(machine, state, scripted, policy), 1)]
    assert isinstance(pend, Chance)
    return [(machine._resume(state, v)[0], w)
            for (v, _), w in zip(pend.outcomes, pend.weights) if w]


class _Count:
    """The states an exact walk has weighed and made, against its bounds: ``weigh()`` and
    ``make(n)`` raise ``TooManyStates`` past ``max_states`` weighed or ``max_children``
    made (None: no bound)."""

    def __init__(self, max_states: int, max_children: int | None) -> None:
        self.max_states, self.max_children = max_states, max_children
        self.weighed = self.made = 0

    def weigh(self) -> None:
        self.weighed += 1
        if self.weighed > self.max_states:
            raise TooManyStates(f"more than {self.max_states} states to weigh")

    def make(self, n: int) -> None:
        self.made += n
        if self.max_children is not None and self.made > self.max_children:
            raise TooManyStates(f"more than {self.max_children} states to make")


def _level_children(machine: Machine, st: PhaseState, n: int, lcm: int,
                    scripted: Sequence[Decision], policy: Policy, count: _Count
                    ) -> tuple[list[tuple[PhaseState, int]], int]:
    """``st``'s children with their int weights (``_weighed``; a chance's made counted on
    ``count``), and ``st``'s own weight ``n`` brought over the level's ``lcm``: each child's
    share of the next level is the second times its weight."""
    pend = st.pending
    children = _weighed(machine, st, scripted, policy)
    if isinstance(pend, Chance):
        count.make(len(children))
        return children, n * (lcm // pend.den)
    return children, n * lcm


def _den(pend: Any) -> int:
    """The denominator a pending thing's children are weighed over (``Chance.den``; 1 for a
    question)."""
    return pend.den if isinstance(pend, Chance) else 1


#: a level's probabilities are ints over one denominator (``exact``); when it grows past
#: this many bits they are divided by their greatest common divisor (engine setting)
REDUCE_BITS = 256
ONE = Fraction(1)


def _reduced(level: dict[Hashable, list[Any]], den: int, at: int) -> int:
    """Divide the ints at index ``at`` of ``level``'s entries and ``den`` by their greatest
    common divisor, when ``den`` is past ``REDUCE_BITS`` bits; the denominator after."""
    if den.bit_length() <= REDUCE_BITS or not level:
        return den
    g = math.gcd(den, *(e[at] for e in level.values()))
    if g > 1:
        for e in level.values():
            e[at] //= g
        den //= g
    return den


#: what ``_steps`` gives as the answer of a question (the policy's, worked out on the table)
ASKED = object()


def _steps(machine: Machine, state: PhaseState, scripted: Sequence[Decision], policy: Policy,
           stop: str | None = None) -> list[tuple[PhaseState, Fraction, Any]]:
    """``_children`` with each child's answer: the chance's outcome, or ``ASKED`` for a
    question (answered as ``_answer`` does)."""
    pend = state.pending
    if isinstance(pend, Question):
        return [(_answer(machine, state, scripted, policy, stop), ONE, ASKED)]
    assert isinstance(pend, Chance)
    return [(machine._resume(state, v, stop=stop)[0], q, v) for v, q in pend.outcomes if q]


@cycles_paused()
def exact(machine: Machine, start: PhaseState, *, outcome: Outcome, key: Key,
          scripted: Sequence[Decision] = (), policy: Policy = default_policy,
          max_states: int = MAX_STATES, max_children: int | None = None) -> Odds:
    """The exact distribution of ``outcome(final state)`` over every chance outcome.

    ``max_children`` (None: no bound) bounds the states made (every chance outcome and
    answer of every state weighed, before equal ones merge): a walk whose states each have
    many costly outcomes gives up early, by counting, never by a clock.

    Raises
    ------
    TooManyStates
        When more than ``max_states`` states would be weighed, or more than
        ``max_children`` made.
    """
    state, _ = machine.advance(start)
    # a level's probabilities are ints over one denominator ``den``: a child's is its
    # parent's times its outcome's weight times ``lcm // Chance.den`` (``lcm`` over every
    # chance pending in the level), over ``den * lcm``; one Fraction per final state
    level: dict[Hashable, list[Any]] = {key(state): [state, 1]}
    den = 1
    dist: dict[Any, Fraction] = {}
    count = _Count(max_states, max_children)
    while level:
        nxt: dict[Hashable, list[Any]] = {}
        lcm = math.lcm(*{_den(st.pending) for st, _ in level.values()})
        for st, n in level.values():
            count.weigh()
            if st.done:
                o = outcome(st)
                dist[o] = dist.get(o, 0) + Fraction(n, den)
                continue
            children, n = _level_children(machine, st, n, lcm, scripted, policy, count)
            for child, w in children:
                k = key(child)
                e = nxt.get(k)
                if e is None:
                    nxt[k] = [child, n * w]
                else:
                    e[1] += n * w
        den = _reduced(nxt, den * lcm, 1)
        level = nxt
    return Odds("exact", dist, states=count.weighed)


@dataclass(frozen=True)
class Parts:
    """How a phase falls into parts whose outcomes, once each part is finished, nothing
    changes again (the fight phase's engagements: ``fight_phase.odds``).

    ``names`` the parts; ``finished(state)`` the names of the parts that are finished
    in ``state`` (no unit of theirs will act or be acted on again); ``outcome(state,
    name)`` a finished part's outcome; ``key(state, finished)`` what decides the rest
    of the phase, leaving the finished parts out; ``print_(state, name)`` what a
    part's outcome is made of, compared before and after each step to check that a
    finished part really stays as it was.
    """

    names: tuple[Hashable, ...]
    finished: Callable[[PhaseState], frozenset]
    outcome: Callable[[PhaseState, Hashable], Hashable]
    key: Callable[[PhaseState, frozenset], Hashable]
    print_: Callable[[PhaseState, Hashable], Hashable]


@dataclass
class PartOdds:
    """Each part's exact distribution of outcomes: ``{name: {outcome: Fraction}}``, and
    the states weighed."""

    parts: dict[Hashable, dict[Any, Fraction]]
    states: int
    made: int = 0
    method: str = "exact"


@cycles_paused()
def exact_parts(machine: Machine, start: PhaseState, parts: Parts, *,
                scripted: Sequence[Decision] = (), policy: Policy = default_policy,
                max_states: int = MAX_STATES, max_children: int | None = None) -> PartOdds:
    """The exact distribution of each part's outcome, weighing a part's details only while
    it is unfinished.

    As ``exact``, but when a part finishes its outcome is added to that part's
    distribution (with the probability of the road that got there) and the state's
    key leaves it out from then on, so roads that differ only in finished parts
    merge: the states weighed grow with the parts under way at once, not with every
    part's histories multiplied.  Each part's distribution is exact; how the parts'
    outcomes go together is not kept.

    Raises
    ------
    TooManyStates
        As ``exact``.
    NotApart
        When a step changes a part already finished (or un-finishes it).
    """
    names = parts.names
    marg: dict[Hashable, dict[Any, Fraction]] = {n: {} for n in names}

    def harvest(st: PhaseState, done: frozenset, p: Fraction) -> None:
        for n in done:
            o = parts.outcome(st, n)
            marg[n][o] = marg[n].get(o, 0) + p

    state, _ = machine.advance(start)
    fin = parts.finished(state)
    harvest(state, fin, ONE)
    # probabilities as ints over the level's ``den``, as in ``exact``
    level: dict[Hashable, list[Any]] = {parts.key(state, fin): [state, 1, fin]}
    den = 1
    count = _Count(max_states, max_children)
    while level:
        nxt: dict[Hashable, list[Any]] = {}
        lcm = math.lcm(*{_den(st.pending) for st, _, _ in level.values()})
        nden = den * lcm
        for st, n, fin in level.values():
            count.weigh()
            if st.done:
                harvest(st, frozenset(names) - fin, Fraction(n, den))
                continue
            children, n = _level_children(machine, st, n, lcm, scripted, policy, count)
            for child, w in children:
                cfin = parts.finished(child)
                if not fin <= cfin:
                    raise NotApart(f"parts {sorted(map(str, fin - cfin))} began again")
                for name in fin:
                    if parts.print_(child, name) != parts.print_(st, name):
                        raise NotApart(f"part {name} changed after it had finished")
                nw = n * w
                if cfin is not fin and cfin != fin:
                    harvest(child, cfin - fin, Fraction(nw, nden))
                k = parts.key(child, cfin)
                e = nxt.get(k)
                if e is None:
                    nxt[k] = [child, nw, cfin]
                else:
                    e[1] += nw
        den = _reduced(nxt, nden, 1)
        level = nxt
    return PartOdds(marg, count.weighed, count.made)


def _sample(machine: Machine, start: PhaseState, rng: random.Random, outcome: Outcome,
            scripted: Sequence[Decision], policy: Policy,
            then: tuple[Machine, Callable[[PhaseState], PhaseState | None]] | None = None
            ) -> Hashable:
    state, _ = machine.advance(start)
    while True:
        while not state.done:
            pend = state.pending
            if isinstance(pend, Chance):
                state = machine.answer(state, pend.sample(rng))[0]
            else:
                state = _answer(machine, state, scripted, policy)
        if then is None:
            return outcome(state)
        on = then[1](state)
        if on is None:
            return outcome(state)
        machine, then = then[0], None
        state, _ = machine.advance(on)


@cycles_paused()
def monte_carlo(machine: Machine, start: PhaseState, *, outcome: Outcome,
                scripted: Sequence[Decision] = (), policy: Policy = default_policy, seed: int = 1,
                target_se: float = TARGET_SE, min_runs: int = MC_MIN_RUNS,
                max_runs: int = MC_MAX_RUNS, batch: int = MC_BATCH,
                measure: Callable[[dict[Any, float], int], float] | None = None,
                then: tuple[Machine, Callable[[PhaseState], PhaseState | None]] | None = None
                ) -> Odds:
    """A seeded estimate of the distribution of ``outcome``: runs in batches until the largest
    standard error is under ``target_se`` (after ``min_runs``) or ``max_runs`` runs.

    ``then = (machine2, go_on)``: a run that ends asks ``go_on(final state)``; a state given
    back is run on with ``machine2`` to its end (the fight-phase odds run the Fight step,
    then Consolidation only where it can start a fight, ``fight_phase.odds``).

    ``measure(dist, runs)`` gives the largest standard error of the figures the
    caller reports (default: of any single outcome's probability).
    """
    rng = random.Random(seed)
    counts: dict[Hashable, int] = {}
    runs = 0
    max_se = float("inf")
    while runs < max_runs:
        for _ in range(min(batch, max_runs - runs)):
            o = _sample(machine, start, rng, outcome, scripted, policy, then)
            counts[o] = counts.get(o, 0) + 1
            runs += 1
        dist = {o: c / runs for o, c in counts.items()}
        max_se = measure(dist, runs) if measure else max(
            binomial_se(p, runs) for p in dist.values())
        if runs >= min_runs and max_se < target_se:
            break
    return Odds("monte carlo", {o: c / runs for o, c in counts.items()}, runs=runs, max_se=max_se)


def odds(machine: Machine, start: PhaseState, *, outcome: Outcome, key: Key,
         scripted: Sequence[Decision] = (), policy: Policy = default_policy,
         max_states: int = MAX_STATES, seed: int = 1, exact_only: bool = False,
         sampled: bool = False, **mc: Any) -> Odds:
    """Exact odds when at most ``max_states`` states are weighed, else Monte Carlo (``mc``
    options as ``monte_carlo``).  ``sampled`` skips the exact walk.  Raises
    ``TooManyStates`` only with ``exact_only``."""
    if not sampled:
        try:
            return exact(machine, start, outcome=outcome, key=key, scripted=scripted,
                         policy=policy, max_states=max_states)
        except TooManyStates:
            if exact_only:
                raise
    return monte_carlo(machine, start, outcome=outcome, scripted=scripted, policy=policy,
                       seed=seed, **mc)
