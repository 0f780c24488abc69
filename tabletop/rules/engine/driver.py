"""One driver: advance a phase to its next question and answer it (docs/design.md "Conventions: Decisions").

A run is (map, seed, answers): questions are answered from the map's
``[[decisions]]`` (by the one matching rule, ``engine.scripted``; the state's
``used`` records the entries taken), then by a policy (the default policy
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
from tabletop.rules.engine import scripted as scripted_mod
from tabletop.rules.engine.machine import Machine, PhaseState, StepMark
from tabletop.rules.engine.pending import Chance, Question
from tabletop.rules.events import Event, EventLog

__all__ = ["OnScripted", "Policy", "Run", "answer_from_map", "default_policy", "emit", "log_items",
           "run", "scripted_answer", "step_to_question"]

Policy = Callable[[Question], Any]


def default_policy(q: Question) -> Any:
    """The default policy: the question's default (``Question.chosen_default``)."""
    return q.chosen_default()


def _take(state: PhaseState, q: Question, scripted: Sequence[Decision]
          ) -> tuple[scripted_mod.Taken, PhaseState]:
    taken = scripted_mod.take(scripted, state.used, q.player, q.choice, q.options,
                              rule=q.rule, why_not=q.why_not)
    if taken.found:
        assert taken.index is not None   # take() names the entry's index with the entry
        state = replace(state, used=state.used | {taken.index})
    return taken, state


def scripted_answer(state: PhaseState, q: Question, scripted: Sequence[Decision]
                    ) -> tuple[bool, Any, PhaseState, Event | None]:
    """The map's answer to ``q`` by the one matching rule (``engine.scripted``):
    ``(found, value, state with the entry marked used, override event)``.

    ``found`` is True when an unused ``[[decisions]]`` entry for ``q.player`` and
    ``q.choice`` answered; ``value`` is then the option it names, or - when its value is
    not one of ``q.options`` - the default policy's answer, and the ``decision_overridden``
    event says why.  The state's ``used`` records the entry either way.
    """
    taken, state = _take(state, q, scripted)
    if not taken.found:
        return False, None, state, None
    return True, scripted_mod.answer(taken, lambda: default_policy(q)), state, taken.overridden


OnScripted = Callable[["scripted_mod.Taken", Any], None]


def answer_from_map(state: PhaseState, q: Question, scripted: Sequence[Decision], *,
                    log: EventLog | None = None, answers: list[Decision] | None = None,
                    on_scripted: OnScripted | None = None) -> tuple[bool, Any, PhaseState]:
    """Answer ``q`` from the map's ``[[decisions]]`` as a resolved run does (the driver and
    the window): ``(found, value, state with the entry used)``.

    Like ``scripted_answer``, and also: the override event goes to ``log``; an entry a
    ``view --play`` save recorded (``by`` set) works the question's costly default out
    again first (``Question.default_fn``: the target search, whose report the events
    show); the answer is appended to ``answers`` (``Taken.record``); ``on_scripted(taken,
    value)`` is told (``Decisions.took`` keeps the history a ``view --play`` save writes).
    """
    taken, state = _take(state, q, scripted)
    if not taken.found:
        return False, None, state
    if taken.overridden is not None:
        emit(log, [taken.overridden])
    value = scripted_mod.answer(taken, lambda: default_policy(q),
                                q.chosen_default if q.default_fn is not None else None)
    if answers is not None:
        answers.append(taken.record(value))
    if on_scripted is not None:
        on_scripted(taken, value)
    return True, value, state


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
                     answers: list[Decision] | None = None,
                     on_scripted: OnScripted | None = None) -> PhaseState:
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
            found, value, state = answer_from_map(state, p, scripted, log=log, answers=answers,
                                                  on_scripted=on_scripted)
            if not found:
                return state
        state, events = machine.answer(state, value)
        emit(log, events)
    return state


def run(machine: Machine, state: PhaseState, *, dice: Any, scripted: Sequence[Decision] = (),
        policy: Policy = default_policy, log: EventLog | None = None,
        on_scripted: OnScripted | None = None) -> Run:
    """Resolve a phase from ``state`` to its end: chances drawn with ``dice`` (each roll
    logged), questions answered by the map's ``[[decisions]]`` then ``policy``.  Returns the
    final state and the answers given."""
    answers: list[Decision] = []
    while True:
        state = step_to_question(machine, state, dice=dice, scripted=scripted, log=log,
                                 answers=answers, on_scripted=on_scripted)
        if state.done:
            return Run(state, answers)
        q = state.pending
        assert isinstance(q, Question)
        value = policy(q)
        answers.append(Decision(q.player, q.choice, value))
        state, events = machine.answer(state, value)
        emit(log, events)
