"""A fast ``dataclasses.replace`` for the board's and the rules engine's frozen records.

The odds walk makes hundreds of thousands of phase states, each a chain of
small frozen records (``PhaseState``, a ruleset's memo, its jobs);
``dataclasses.replace`` re-runs ``__init__`` field by field and was the
largest single cost of a walk.  ``evolve`` copies the record's fields and
sets the changed ones, for records that have no ``__post_init__`` (whose
checks it would skip).  Attributes that are not fields (a cache a record keeps
of itself, such as a table's geometry snapshot) are not copied.
"""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["evolve"]

T = TypeVar("T")

_FIELDS: dict[type, Any] = {}       # a record class (checked: no __post_init__) -> its fields


def evolve(obj: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes`` set.

    Raises ``TypeError`` for a name that is not a field, or for a record with a
    ``__post_init__`` (use ``dataclasses.replace``, which runs it).
    """
    cls = obj.__class__
    fields = _FIELDS.get(cls)
    if fields is None:
        if hasattr(cls, "__post_init__"):
            raise TypeError(f"{cls.__name__} checks its fields in __post_init__: use replace")
        fields = _FIELDS[cls] = cls.__dataclass_fields__    # type: ignore[attr-defined]
    for name in changes:
        if name not in fields:
            raise TypeError(f"{cls.__name__} has no field {name!r}")
    new = object.__new__(cls)
    d = new.__dict__
    d.update(obj.__dict__)
    if len(d) != len(fields):           # a cache kept on the record (not a field): not copied
        for name in [n for n in d if n not in fields]:
            del d[name]
    d.update(changes)
    return new
