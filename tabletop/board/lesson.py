"""A map's ``[[lesson]]`` steps: the teaching script a lesson map carries.

Each entry says what one step of a lesson shows and what it says about it:

``title``     short heading of the step
``text``      the note, in the project's own words (never rulebook text)
``clause``    the rule clause it teaches, as the events cite them (``"fight-phase.txt 12.03"``)
``step``      which table it shows: ``"setup"`` (the table before the phase), a 1-based
              index into the phase run's steps (``tabletop fight`` lists them), or a piece
              of a step's title (the first step, from the previous lesson step's on, whose
              title holds it, case-insensitive)
``overlays``  board overlay names to add (``tabletop render --overlay``), optional
``select``    a model id to ring, optional
``focus``     model, unit or objective ids to frame, optional

The map's phase is run with its own seed (``[map] seed``) and ``[[decisions]]``, so the
lesson replays exactly.  This module only holds and validates the file's shape; which step
an entry names, and whether its overlays and ids exist, is checked once the phase has run
(``tabletop.render.lesson_plan``), since board may not import the rules or the renderer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator

__all__ = ["LessonIn", "LessonStep", "lesson_table"]

SETUP = "setup"
"""The ``step`` value naming the table before the phase."""


@dataclass(frozen=True)
class LessonStep:
    """One ``[[lesson]]`` entry (see the module docstring).  ``step`` is ``"setup"``, a
    1-based int, or a title substring; ``overlays`` and ``focus`` are tuples of names/ids."""

    title: str
    text: str
    clause: str
    step: int | str
    overlays: tuple[str, ...] = ()
    select: str | None = None
    focus: tuple[str, ...] = ()


class LessonIn(BaseModel):
    """Validation model of one ``[[lesson]]`` entry (used by ``board.schema.MapIn``)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)
    title: str = Field(min_length=1)
    text: str = Field(min_length=1)
    clause: str = Field(min_length=1)
    step: StrictInt | str
    overlays: list[str] = []
    select: str | None = None
    focus: list[str] = []

    @field_validator("step")
    @classmethod
    def _step(cls, v: int | str) -> int | str:
        if isinstance(v, int) and v < 1:
            raise ValueError(f"a step number counts from 1, got {v}")
        if isinstance(v, str) and not v.strip():
            raise ValueError("give \"setup\", a step number or a piece of a step's title")
        return v

    def build(self) -> LessonStep:
        return LessonStep(self.title, self.text, self.clause, self.step, tuple(self.overlays),
                          self.select, tuple(self.focus))


def lesson_table(step: LessonStep) -> dict[str, Any]:
    """One entry as the map file writes it (the inverse of ``LessonIn.build``)."""
    out: dict[str, Any] = {"title": step.title, "text": step.text, "clause": step.clause,
                           "step": step.step}
    if step.overlays:
        out["overlays"] = list(step.overlays)
    if step.select:
        out["select"] = step.select
    if step.focus:
        out["focus"] = list(step.focus)
    return out
