"""A phase as a table of rows over a frozen state (docs/design.md "The rules engine", after
boardgame.io: the flow is data).

``PhaseState`` is plain frozen data: the ``Battlefield``, the ruleset's own
bookkeeping (``memo``, a frozen value), the row the phase is at
(``cursor``), which scripted ``[[decisions]]`` it has used, and at most one
pending ``Question`` or ``Chance``.  A ``Row`` is one line of the table:
``enter(state)`` does the row's work and either leaves something pending or
moves the cursor on (``goto``); ``resume(state, answer)`` takes the answer to
what the row left pending.  Both return a ``Transition``: the new state and
the events it emitted (and the teaching steps it closed).  ``Machine``
advances a state through its rows until something is pending or the phase
is over; it never asks anyone and never rolls: the driver
(``driver.run``), the window and the odds engine (``walk``) do that.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from tabletop.board.frozen import evolve
from tabletop.board.state import Battlefield
from tabletop.rules.engine.pending import Chance, Question
from tabletop.rules.events import Event

__all__ = ["END", "Machine", "PhaseState", "Row", "StepMark", "Transition", "goto", "wait"]

END = "end"
MAX_ROWS_WITHOUT_PENDING = 100_000


@dataclass(frozen=True)
class StepMark:
    """A teaching step closed by a row: the events since the last mark belong to it
    (``EventLog.step``); ``battlefield`` is the table the step shows.  What to draw is
    render's business (``render.step_draw``), read from the step's events."""

    title: str
    rule: str
    battlefield: Battlefield = field(compare=False)


@dataclass(frozen=True)
class PhaseState:
    """One moment of a phase.

    ``battlefield``: the table now; ``memo``: the ruleset's frozen
    bookkeeping (what the rules make depend on history); ``cursor``: the name
    of the row to run (``END`` when the phase is over); ``pending``: the
    question or chance the phase waits for, or None; ``used``: indices of the
    map's ``[[decisions]]`` already taken (a run is map, seed and answers, so
    this is part of the state).
    """

    battlefield: Battlefield
    memo: Any
    cursor: str
    pending: Question | Chance | None = None
    used: frozenset[int] = frozenset()

    @property
    def done(self) -> bool:
        return self.cursor == END and self.pending is None


class Transition(NamedTuple):
    """What one row did: the state after it, and its events and step marks in order (a
    named pair: every row of every walk makes one, and a tuple is made at C speed)."""

    state: PhaseState
    events: tuple[Event | StepMark, ...] = ()


def goto(state: PhaseState, row: str, events: tuple[Event | StepMark, ...] = (), **changes: Any
         ) -> Transition:
    """Move on to ``row`` (``END`` ends the phase) with ``changes`` to the state."""
    return Transition(evolve(state, cursor=row, pending=None, **changes), tuple(events))


def wait(state: PhaseState, pending: Question | Chance, events: tuple[Event | StepMark, ...] = (),
         **changes: Any) -> Transition:
    """Stay on this row, waiting for ``pending`` (its answer goes to the row's ``resume``)."""
    return Transition(evolve(state, pending=pending, **changes), tuple(events))


@dataclass(frozen=True)
class Row:
    """One row of a phase's table: ``name``, ``title`` and ``rule`` clause, what it does on
    entering (``enter``) and with the answer to what it left pending (``resume``)."""

    name: str
    title: str
    rule: str
    enter: Callable[[PhaseState], Transition]
    resume: Callable[[PhaseState, Any], Transition] | None = None


class Machine:
    """Runs a table of rows (``rows`` by name) from ``start``.

    Raises
    ------
    KeyError
        When a row moves to a name the table does not have.
    RuntimeError
        When a row waits without a ``resume``, or the rows loop more than
        ``MAX_ROWS_WITHOUT_PENDING`` times without waiting (a bug, not input).
    """

    def __init__(self, rows: Mapping[str, Row] | list[Row], start: str):
        table = rows if isinstance(rows, Mapping) else {r.name: r for r in rows}
        self.rows: dict[str, Row] = dict(table)
        self.start = start
        if start not in self.rows:
            raise KeyError(f"no row {start!r}")

    def begin(self, battlefield: Battlefield, memo: Any) -> PhaseState:
        """The state before the first row has run."""
        return PhaseState(battlefield, memo, self.start)

    def advance(self, state: PhaseState, max_rows: int | None = None, stop: str | None = None
                ) -> tuple[PhaseState, tuple[Event | StepMark, ...]]:
        """Run rows until something is pending or the phase is over (or ``max_rows`` rows
        have run: the window runs one row a frame and keeps drawing; or the cursor is at the
        row ``stop``, not run: the odds walk stops a segment there, ``factored``)."""
        events: list[Event | StepMark] = []
        n = 0
        while state.pending is None and state.cursor != END and state.cursor != stop \
                and (max_rows is None or n < max_rows):
            row = self.rows[state.cursor]
            t = row.enter(state)
            state = t.state
            events.extend(t.events)
            if state.pending is not None and row.resume is None:
                raise RuntimeError(f"row {row.name!r} waits but has no resume")
            n += 1
            if n > MAX_ROWS_WITHOUT_PENDING:
                raise RuntimeError(f"rows loop without waiting (at {state.cursor!r})")
        return state, tuple(events)

    def answer(self, state: PhaseState, value: Any, advance: bool = True, stop: str | None = None
               ) -> tuple[PhaseState, tuple[Event | StepMark, ...]]:
        """Give the pending question or chance its answer and (unless ``advance`` is False)
        advance to the next pending thing (or to the row ``stop``, ``advance``).

        Raises ``ValueError`` when nothing is pending or ``value`` is not one
        of the pending thing's options or outcomes.
        """
        p = state.pending
        if p is None:
            raise ValueError("nothing is pending")
        if isinstance(p, Question) and value not in p.options:
            raise ValueError(f"{value!r} is not an option of {p.choice!r}: {list(p.options)!r}")
        if isinstance(p, Chance) and not p.has_outcome(value):
            raise ValueError(f"{value!r} is not an outcome of {p.purpose!r}")
        return self._resume(state, value, advance, stop)

    def _resume(self, state: PhaseState, value: Any, advance: bool = True, stop: str | None = None
                ) -> tuple[PhaseState, tuple[Event | StepMark, ...]]:
        """``answer`` for a value known to be an outcome of the pending chance (the odds
        walk answers with the chance's own outcomes: not checked again)."""
        row = self.rows[state.cursor]
        assert row.resume is not None
        t = row.resume(evolve(state, pending=None), value)
        if not advance:
            return t.state, t.events
        after, more = self.advance(t.state, stop=stop)
        return after, t.events + more
