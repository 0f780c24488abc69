"""One driver: advance a phase to its next question and answer it (DESIGN.md "Decisions").

A run is (map, seed, answers): questions are answered from the map's
``[[decisions]]`` (the first unused one for that player and choice, matched
as ``rules.decisions`` matches them), then by a policy (the default policy
takes each question's ``default``); chances are drawn with the seeded
``Dice``, which roll and log the individual dice.  Every answer given is
recorded in order (``Run.answers``) so a run can be saved as
``[[decisions]]`` and replayed exactly.  The window drives the same machine
one answer at a time (``step_to_question``), with no thread.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tabletop.board.state import Decision
from tabletop.rules.engine.machine import Machine, PhaseState, StepMark
from tabletop.rules.engine.pending import Chance, Question
from tabletop.rules.events import DecisionOverridden, Event, EventLog

__all__ = ["Policy", "Run", "default_policy", "emit", "log_items", "run", "scripted_answer", "step_to_question"]

Policy = Callable[[Question], Any]


def default_policy(q: Question) -> Any:
    """The default policy: the question's default (``Question.chosen_default``)."""
    return q.chosen_default()


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().lower() == b.strip().lower()
    if isinstance(a, tuple) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(sorted(map(str, a)), sorted(map(str, b))))
    return a == b


def scripted_answer(state: PhaseState, q: Question, scripted: Sequence[Decision]
                    ) -> tuple[bool, Any, PhaseState, Event | None]:
    """The map's answer to ``q``: ``(found, value, state with it marked used, override event)``.

    The first unused ``[[decisions]]`` entry for ``q.player`` and ``q.choice``
    is taken.  A value that is not one of ``q.options`` is not used: ``found``
    is False and a ``decision_overridden`` event says why (``q.why_not``).
    """
    for k, d in enumerate(scripted):
        if k in state.used or d.player != q.player or d.choice != q.choice:
            continue
        state = replace(state, used=state.used | {k})
        match = next((o for o in q.options if _same(o, d.value)), None)
        if match is not None or (d.value is None and None in q.options):
            return True, match, state, None
        reason = q.why_not(d.value) if q.why_not else f"not one of {list(q.options)!r}"
        return False, None, state, DecisionOverridden(rule=q.rule, **
                                         {"player": q.player, "choice": q.choice,
                                          "value": d.value, "reason": reason})
    return False, None, state, None


def emit(log: EventLog | None, items: Sequence[Event | StepMark]) -> None:
    """Append a transition's events to ``log`` (telling its listeners) and close its steps."""
    if log is None:
        return
    for it in items:
        if isinstance(it, StepMark):
            log.step(it.title, it.rule, it.battlefield)
        else:
            log.events.append(it)
            for listener in log.listeners:
                listener(it)


def log_items(log: EventLog) -> tuple[Event | StepMark, ...]:
    """A local log's events with its closed steps as ``StepMark``s, in order: what a row
    returns after running older event-emitting code with a log of its own."""
    out: list[Event | StepMark] = []
    k = 0
    for step in log.steps:
        out.extend(log.events[k:step.events.stop])
        k = step.events.stop
        out.append(StepMark(step.title, step.rule, step.state))
    out.extend(log.events[k:])
    return tuple(out)


@dataclass
class Run:
    """A finished (or paused) run: the last state and every answer given, in order."""

    state: PhaseState
    answers: list[Decision] = field(default_factory=list)


def step_to_question(machine: Machine, state: PhaseState, *, dice: Any,
                     scripted: Sequence[Decision] = (), log: EventLog | None = None,
                     answers: list[Decision] | None = None) -> PhaseState:
    """Advance ``state`` past every chance (drawn with ``dice``) and every question the map's
    ``[[decisions]]`` answer, stopping at the first question they do not answer (or the end).
    The window calls this, shows the question, and calls ``machine.answer`` on a click."""
    state, events = machine.advance(state)
    emit(log, events)
    while not state.done:
        p = state.pending
        if isinstance(p, Chance):
            value = p.draw(dice) if p.draw is not None else p.sample(dice._rng)
        else:
            assert isinstance(p, Question)
            found, value, state, overridden = scripted_answer(state, p, scripted)
            if overridden is not None:
                emit(log, [overridden])
            if not found:
                return state
            if answers is not None:
                answers.append(Decision(p.player, p.choice, value))
        state, events = machine.answer(state, value)
        emit(log, events)
    return state


def run(machine: Machine, state: PhaseState, *, dice: Any, scripted: Sequence[Decision] = (),
        policy: Policy = default_policy, log: EventLog | None = None) -> Run:
    """Resolve a phase from ``state`` to its end: chances drawn with ``dice`` (each roll
    logged), questions answered by the map's ``[[decisions]]`` then ``policy``.  Returns the
    final state and the answers given."""
    answers: list[Decision] = []
    while True:
        state = step_to_question(machine, state, dice=dice, scripted=scripted, log=log,
                                 answers=answers)
        if state.done:
            return Run(state, answers)
        q = state.pending
        assert isinstance(q, Question)
        value = policy(q)
        answers.append(Decision(q.player, q.choice, value))
        state, events = machine.answer(state, value)
        emit(log, events)
