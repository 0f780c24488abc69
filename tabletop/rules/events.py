"""Typed events and the step log the rules emit (DESIGN.md "Events").

Every event has a ``type`` (``selected_to_fight``, ``pile_in``, ``roll``,
``removed``, ...) and the ``rule`` clause it applies
(``"fight-phase.txt 12.04"``), plus fields of its own.  ``EventLog`` keeps
them in order, and ``Step`` records the state after each step of a phase
with what to draw, so the teaching view and ``--frames`` can step through
(and back) for free.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabletop.board.state import Battlefield


@dataclass
class Event:
    """One thing that happened: ``type``, the ``rule`` clause, and its fields."""

    type: str
    rule: str
    data: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"type": ..., "rule": ..., **fields}``."""
        return {"type": self.type, "rule": self.rule, **_jsonable(self.data)}


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, float):
        return round(value, 4)
    return value


@dataclass
class Step:
    """A step of a phase for the teaching view and frames.

    ``state`` is the state after the step; ``events`` the indices into the
    log of the events it emitted; ``draw`` what the renderer should show
    (free-form keys the overlays understand: ``arrows``, ``reach``,
    ``closest``, ``highlight``, ``selected``, ``casualties``, ...).
    """

    title: str
    rule: str
    state: Battlefield
    events: range
    draw: dict[str, Any] = field(default_factory=dict)


class EventLog:
    """The ordered events of one resolution, and its steps."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.steps: list[Step] = []
        self._step_start = 0
        self.listeners: list[Any] = []

    def emit(self, type: str, rule: str, **data: Any) -> Event:
        """Append an event and tell listeners (the CLI prints each as it happens)."""
        ev = Event(type, rule, data)
        self.events.append(ev)
        for listener in self.listeners:
            listener(ev)
        return ev

    def step(self, title: str, rule: str, state: Battlefield, **draw: Any) -> Step:
        """Close a step: the events since the last step belong to it."""
        st = Step(title, rule, state, range(self._step_start, len(self.events)), dict(draw))
        self.steps.append(st)
        self._step_start = len(self.events)
        return st

    def of_type(self, type: str) -> list[Event]:
        return [e for e in self.events if e.type == type]

    def to_list(self) -> list[dict[str, Any]]:
        return [e.to_dict() for e in self.events]
