"""Typed events and the step log the rules emit (docs/design.md "Events").

Every event type is a frozen dataclass (``base.Event``) with a ``type`` name
(``selected_to_fight``, ``pile_in``, ``roll``, ``removed``, ...), the ``rule``
clause it applies (``"fight-phase.txt 12.04"``) and typed fields of its own
(``fight.py``, ``rank_and_flank.py``, ``challenges.py``).  ``EVENT_TYPES`` is
the one table from type name to class; ``make_event`` builds an event by
name through it.  ``EventLog`` keeps events in order, and ``Step`` records the
state after each step of a phase with the events it emitted, so the teaching
view and ``--frames`` can step through (and back) for free; what a step
shows is worked out in ``tabletop.render`` from its events and state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from tabletop.board.state import Battlefield
from tabletop.rules.events import challenges as _ch
from tabletop.rules.events import fight as _fp
from tabletop.rules.events import rank_and_flank as _rf
from tabletop.rules.events.base import ABSENT as ABSENT  # re-exported
from tabletop.rules.events.base import Absent as Absent  # re-exported
from tabletop.rules.events.base import Event, jsonable
from tabletop.rules.events.challenges import *  # noqa: F403
from tabletop.rules.events.fight import *  # noqa: F403
from tabletop.rules.events.rank_and_flank import *  # noqa: F403

EVENT_TYPES: Mapping[str, type[Event]] = MappingProxyType(
    {cls.type: cls for cls in (*_fp.CLASSES, *_rf.CLASSES, *_ch.CLASSES)})
"""Every event type name the rules (and the window) emit -> its class."""


def make_event(type: str, rule: str, data: Mapping[str, Any] | None = None, /, **fields: Any) -> Event:
    """The event of type name ``type`` (``EVENT_TYPES``) with ``rule`` and its fields, given as
    a ``data`` mapping and/or keywords.

    Raises
    ------
    TypeError
        An unknown type name, a field the type does not have, or one it needs left out.
    """
    cls = EVENT_TYPES.get(type)
    if cls is None:
        raise TypeError(f"unknown event type {type!r}")
    return cls(rule=rule, **{**(data or {}), **fields})


@dataclass
class Step:
    """A step of a phase for the teaching view and frames.

    ``state`` is the table after the step and ``before`` the table before it (the previous
    step's, or None for a log's first step); ``events`` the indices into the log of the
    events it emitted; ``log`` the ``EventLog`` it belongs to (None for a step made on its
    own), so ``history`` is every event up to the end of the step.  The rules say nothing
    about drawing: ``tabletop.render.step_draw`` works out what a step shows from these facts.
    """

    title: str
    rule: str
    state: Battlefield
    events: range
    before: Battlefield | None = None
    log: EventLog | None = field(default=None, repr=False, compare=False)

    @property
    def history(self) -> Sequence[Event]:
        """The log's events up to the end of this step (``()`` without a log)."""
        return self.log.events[:self.events.stop] if self.log is not None else ()


class EventLog:
    """The ordered events of one resolution, and its steps."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.steps: list[Step] = []
        self._step_start = 0
        self.listeners: list[Any] = []

    def add(self, ev: Event) -> Event:
        """Append a typed event and tell listeners (the CLI prints each as it happens)."""
        self.events.append(ev)
        for listener in self.listeners:
            listener(ev)
        return ev

    def emit(self, type: str, rule: str, **data: Any) -> Event:
        """``add(make_event(type, rule, **data))``.

        Raises
        ------
        TypeError
            As ``make_event``.
        """
        return self.add(make_event(type, rule, **data))

    def step(self, title: str, rule: str, state: Battlefield) -> Step:
        """Close a step: the events since the last step belong to it."""
        before = self.steps[-1].state if self.steps else None
        st = Step(title, rule, state, range(self._step_start, len(self.events)), before, self)
        self.steps.append(st)
        self._step_start = len(self.events)
        return st

    def of_type(self, type: str) -> list[Event]:
        return [e for e in self.events if e.type == type]

    def to_list(self) -> list[dict[str, Any]]:
        return [e.to_dict() for e in self.events]


_jsonable = jsonable
