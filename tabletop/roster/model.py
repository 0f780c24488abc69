"""What a roster holds, as read from any of its formats (pydantic models).

A ``Roster`` is a list of units; a ``RosterUnit`` a list of model entries, each
``count`` alike models (``"4x Intercessor"``).  Profiles and weapons are kept as
the map format writes them (``profile = { M = 6, T = 4, Sv = 3 }``, weapons
``{ name, A, WS, S, AP, D }``); a roster that gives none leaves them empty.
Nothing here knows about the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

#: the game systems the base table knows (``tools/make_bases.py``)
System = Literal["40k", "old-world", "horus-heresy"]


#: named default (no rule text: how players write a renamed unit on a list): a unit or model
#: with a list builder's custom name is shown as the custom name with the datasheet's after
#: it in brackets; its id is made from the custom name alone
CUSTOM_NAME_FORM = "{custom} ({datasheet})"


class _Named:
    """The two names of a roster entry (a unit or a model): ``name`` as the list builder
    wrote it and, when the player renamed it, ``datasheet``, the datasheet's own.  Shared by
    ``RosterUnit`` and ``RosterModel``, which declare both fields (the pydantic fields, in
    each class's own order: here they are only told to the type checker)."""

    if TYPE_CHECKING:
        name: str
        datasheet: str | None

    @property
    def sheet(self) -> str:
        """The name the base table is searched by: the datasheet's, else ``name``."""
        return self.datasheet or self.name

    @property
    def label(self) -> str:
        """The name a map shows.  Named default (``CUSTOM_NAME_FORM``): an entry the player
        renamed reads ``"Ωmega Squad (Intercessor Squad)"``, the player's name first, then
        the datasheet's, since the map format has no datasheet field and the opponent reading
        the table needs to know what the unit or model is; else ``name``."""
        if not self.datasheet or self.datasheet.casefold() == self.name.casefold():
            return self.name
        return CUSTOM_NAME_FORM.format(custom=self.name, datasheet=self.datasheet)


class RosterModel(_Named, BaseModel):
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
    #: the datasheet's model name when ``name`` is the player's own (New Recruit ``customName``)
    datasheet: str | None = None


class RosterUnit(_Named, BaseModel):
    """A unit of the roster: its name as the list builder wrote it, its models, its
    keywords (categories, lowercase) and, when given, its points."""

    name: str = Field(min_length=1)
    models: list[RosterModel] = Field(min_length=1)
    keywords: list[str] = []
    points: float | None = None
    faction: str | None = None
    gear: list[str] = []
    #: the datasheet's name when ``name`` is the player's own (New Recruit ``customName``)
    datasheet: str | None = None

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
