"""A map's ``[[lesson]]`` steps: the teaching script a lesson map carries.

Each entry says what one step of a lesson shows and what it says about it:

``title``     short heading of the step
``text``      the note, in the project's own words (never rulebook text)
``clause``    the rule clause it teaches, as the events cite them (``"fight-phase.txt 12.03"``):
              a rule text of ``RULE_TEXTS`` and the section in it
``step``      which table it shows: ``"setup"`` (the table before the phase), a 1-based
              index into the phase run's steps (``tabletop fight`` lists them), or a piece
              of a step's title (the first step, from the previous lesson step's on, whose
              title holds it, case-insensitive)
``overlays``  board overlay names to add (``tabletop render --overlay``), optional
``select``    a model id to ring, optional
``focus``     model, unit or objective ids to frame, optional
``arcs``      a rank-and-flank unit id whose charge arcs the step draws (the lines at 45
              degrees from its corners, each arc named), each enemy unit ``focus`` names
              drawn charging the side it would hit, optional

The map's phase is run with its own seed (``[map] seed``) and ``[[decisions]]``, so the
lesson replays exactly.  This module only holds and validates the file's shape; which step
an entry names, and whether its overlays and ids exist, is checked once the phase has run
(``tabletop.render.lesson_plan``), since board may not import the rules or the renderer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["RULE_TEXTS", "section_problem", "LessonIn", "LessonStep", "lesson_table"]

RULE_TEXTS = ("fight-phase.txt", "rank-and-flank-combat.txt", "character-challenge.txt",
              "gambit-challenge.txt")
"""The rule texts a lesson's ``clause`` may cite (the four rule files the project
cites: fight phase, rank-and-flank combat, the two challenges): a clause names one of them first, then its section (``"fight-phase.txt 12.03"``,
``"rank-and-flank-combat.txt Fleeing"``).  Any other file name is a typo the teacher would
otherwise only notice in the finished GIF, so the map is refused at load."""

def section_problem(text: str, section: str) -> str | None:
    """Why ``section`` is not a section of the rule text ``text`` (a name of
    ``RULE_TEXTS``), or None when it is (or is empty: the whole text).

    The rule texts are not shipped, so the sections are checked against their names kept in
    the package (``board/rule_sections.py``, built from the texts by tools/rule_sections.py):
    a numbered clause (``12.03``, or a range ``12.02-12.06``) must exist; a named one must
    open a section's name, word for word whatever the case (``Attack`` for "Attack roll");
    words after it in brackets or after a comma (``Step 1 (Declare)``) are the author's."""
    from tabletop.board.rule_sections import SECTIONS
    known = SECTIONS.get(text)
    core = section.split(" (")[0].split(",")[0].strip()
    if not known or not core:
        return None
    if re.fullmatch(r"\d+\.\d+(\s*-\s*\d+\.\d+)?", core):
        missing = [n for n in re.split(r"\s*-\s*", core) if n not in known]
        if not missing:
            return None
        return (f"{text} has no section {missing[0]} (its sections are {known[0]} to "
                f"{known[-1]})")
    words = core.lower().split()
    if any(k.lower().split()[:len(words)] == words for k in known):
        return None
    shown = ", ".join(known[:8]) + (", ..." if len(known) > 8 else "")
    return f"{text} has no section {core!r} (its sections: {shown})"


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
    arcs: str | None = None


class LessonIn(BaseModel):
    """Validation model of one ``[[lesson]]`` entry (used by ``board.schema.MapIn``)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)
    title: str = Field(min_length=1)
    text: str = Field(min_length=1)
    clause: str = Field(min_length=1)
    step: int | str
    overlays: list[str] = []
    select: str | None = None
    focus: list[str] = []
    arcs: str | None = None

    @field_validator("clause")
    @classmethod
    def _clause(cls, v: str) -> str:
        words = v.split()  # str.split also splits on control characters such as \x1f
        if not words:
            raise ValueError("a clause names a rule text, then its section; this one is blank")
        text = words[0]
        if text not in RULE_TEXTS:
            raise ValueError(f"unknown rule text {text!r} (a clause names one of "
                             f"{', '.join(RULE_TEXTS)}, then its section)")
        why = section_problem(text, v[len(text):].strip())
        if why is not None:
            raise ValueError(why)
        return v

    @field_validator("step", mode="before")
    @classmethod
    def _step(cls, v: Any) -> int | str:
        # one clean line for anything but a whole number or text (2.5, true, a list): without
        # this the int-or-text union reported each alternative on a line of its own
        if isinstance(v, bool) or not isinstance(v, (int, str)):
            raise ValueError(f"give \"setup\", a whole step number from 1 or a piece of a "
                             f"step's title, got {v!r}")
        if isinstance(v, int) and v < 1:
            raise ValueError(f"a step number counts from 1, got {v}")
        if isinstance(v, str) and not v.strip():
            raise ValueError("give \"setup\", a step number or a piece of a step's title")
        return v

    def build(self) -> LessonStep:
        return LessonStep(self.title, self.text, self.clause, self.step, tuple(self.overlays),
                          self.select, tuple(self.focus), self.arcs)


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
    if step.arcs:
        out["arcs"] = step.arcs
    return out
