"""The base of every typed event (docs/design.md "Events"): ``type``, ``rule`` and typed fields.

Each event type is a frozen dataclass of its own (``fight.py``,
``rank_and_flank.py``, ``challenges.py``) with the fields ``docs/json.md``'s
events table documents for it.  A field that is only there sometimes
defaults to ``ABSENT`` and is then left out of ``data`` and ``to_dict``.
Making an event with a field its type does not have, or without one it
needs, raises ``TypeError`` at once (keyword-only dataclass fields).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

__all__ = ["ABSENT", "Absent", "Event", "jsonable"]


class Absent:
    """The value of a "sometimes" field that is not there (one instance: ``ABSENT``)."""

    _one: ClassVar[Absent | None] = None

    def __new__(cls) -> Absent:
        if cls._one is None:
            cls._one = super().__new__(cls)
        return cls._one

    def __repr__(self) -> str:
        return "ABSENT"

    def __bool__(self) -> bool:
        return False


ABSENT = Absent()


@dataclass(frozen=True, kw_only=True)
class Event:
    """One thing that happened: its ``type`` name (a class constant), the ``rule`` clause it
    applies (``"fight-phase.txt 12.04"``) and the fields of its type.

    Read-compatible with the old dict-backed event: ``ev["unit"]``, ``ev.get("note")``,
    ``"note" in ev``, ``ev.data`` (a fresh dict of the fields that are there, in order).

    Raises
    ------
    TypeError
        Made directly (only its subclasses are events), or with a field missing or extra.
    """

    type: ClassVar[str] = ""
    rule: str

    def __post_init__(self) -> None:
        if not type(self).type:
            raise TypeError(f"{type(self).__name__} is not an event type (no type name)")

    @property
    def data(self) -> dict[str, Any]:
        """The fields that are there, in field order (``rule`` not included)."""
        return {f.name: v for f in fields(self) if f.name != "rule"
                and (v := getattr(self, f.name)) is not ABSENT}

    def __getitem__(self, key: str) -> Any:
        if key == "rule" or key.startswith("_"):
            raise KeyError(key)
        try:
            value = getattr(self, key)
        except AttributeError:
            raise KeyError(key) from None
        if value is ABSENT or key == "type":
            raise KeyError(key)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: str) -> bool:
        return self.get(key, ABSENT) is not ABSENT

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"type": ..., "rule": ..., **fields}``, decimals rounded to 4 places."""
        return {"type": self.type, "rule": self.rule, **jsonable(self.data)}


def jsonable(value: Any) -> Any:
    """``value`` as JSON data: dict keys as strings, tuples as lists, floats to 4 places."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, float):
        return round(value, 4)
    return value
