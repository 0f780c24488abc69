"""Long geometry work done in pieces, so a window can draw between them (no thread).

A solve that may take longer than a frame (``solver.solve_move``) is written
as a generator that yields after each step (one model's route, one retry,
one coherency change).  ``run(key, make)`` drains it at once, unless a
``Budget`` is active (``with active(budget):``): then it runs at most
``budget.steps`` steps, keeps the unfinished generator in the budget under
``key``, and raises ``OutOfSteps``.  The caller (``app.interactive``) drops
the half-run rules row - rows do not change the state they are given - and
runs it again on a later frame; the row asks for the same work (the same
key), which goes on where it stopped.  Slicing changes only when the work is
done, never what it computes: the generator is the same, run to its end.

Nothing here reads a clock: the work per piece is counted in steps.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable, Iterator
from contextlib import contextmanager
from typing import Any


class OutOfSteps(Exception):
    """The active budget's steps are spent; the work goes on at the next piece."""


class Budget:
    """Steps allowed per piece, and the unfinished work kept between pieces.

    ``used`` counts the steps run since ``refill``; ``jobs`` holds each
    unfinished (or finished, until ``clear``) generator by key.
    """

    def __init__(self, steps: int):
        if steps < 1:
            raise ValueError(f"a budget needs at least one step, got {steps}")
        self.steps = steps
        self.used = 0
        self.total = 0
        self.jobs: dict[Hashable, list[Any]] = {}

    def refill(self) -> None:
        """A new piece: ``steps`` steps again."""
        self.used = 0

    def clear(self) -> None:
        """Forget every job (the row that asked for them has finished)."""
        self.jobs.clear()


_ACTIVE: list[Budget] = []


@contextmanager
def active(budget: Budget) -> Iterator[Budget]:
    """Within the block, ``run`` works in pieces of ``budget``."""
    _ACTIVE.append(budget)
    try:
        yield budget
    finally:
        _ACTIVE.pop()


def run(key: Hashable, make: Callable[[], Generator[None, None, Any]]) -> Any:
    """The value the generator ``make()`` returns.

    Without an active budget, the generator runs to its end.  With one, it
    runs (or goes on, under ``key``) for the budget's steps left.

    Raises
    ------
    OutOfSteps
        The budget ran out before the generator returned.
    """
    if not _ACTIVE:
        gen = make()
        while True:
            try:
                next(gen)
            except StopIteration as stop:
                return stop.value
    budget = _ACTIVE[-1]
    job = budget.jobs.get(key)
    if job is None:
        job = budget.jobs[key] = [make(), False, None]
    gen, done, value = job
    while not done:
        if budget.used >= budget.steps:
            raise OutOfSteps(f"{budget.used} steps this piece")
        try:
            next(gen)
            budget.used += 1
            budget.total += 1
        except StopIteration as stop:
            budget.used += 1
            budget.total += 1
            job[1], job[2] = True, stop.value
            done, value = True, stop.value
    return value
