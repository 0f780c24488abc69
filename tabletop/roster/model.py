"""What a roster holds, as read from any of its formats (pydantic models).

A ``Roster`` is a list of units; a ``RosterUnit`` a list of model entries, each
``count`` alike models (``"4x Intercessor"``).  Profiles and weapons are kept as
the map format writes them (``profile = { M = 6, T = 4, Sv = 3 }``, weapons
``{ name, A, WS, S, AP, D }``); a roster that gives none leaves them empty.
Nothing here knows about the table.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

#: the game systems the base table knows (``tools/make_bases.py``)
System = Literal["40k", "old-world", "horus-heresy"]


class RosterModel(BaseModel):
    """``count`` alike models of a unit.

    ``role`` is a map role (champion | commander | standard | musician) or None;
    ``gear`` names the model's other selections (wargear, mounts), which the base
    table may know (a mounted model takes its mount's base).
    """

    name: str = Field(min_length=1)
    count: int = Field(default=1, ge=1)
    role: str | None = None
    profile: dict[str, Any] = {}
    weapons: list[dict[str, Any]] = []
    gear: list[str] = []


class RosterUnit(BaseModel):
    """A unit of the roster: its name as the list builder wrote it, its models, its
    keywords (categories, lowercase) and, when given, its points."""

    name: str = Field(min_length=1)
    models: list[RosterModel] = Field(min_length=1)
    keywords: list[str] = []
    points: float | None = None
    faction: str | None = None
    gear: list[str] = []

    @property
    def model_count(self) -> int:
        return sum(m.count for m in self.models)


class Roster(BaseModel):
    """A whole army list.  ``system`` picks the base table's rows and the ruleset the
    units are laid out for; ``format`` is where it was read from."""

    name: str
    system: System
    system_name: str
    format: Literal["battlescribe", "newrecruit", "app-text"]
    faction: str | None = None
    units: list[RosterUnit] = []
    #: one line per doubt the reader had (a guess the user should check)
    warnings: list[str] = []
