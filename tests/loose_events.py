"""A stand-in for events the typed classes cannot make: a partial event (some fields left
out) or a type no table knows, as another ruleset or an older log might hold.  ``describe``
and the captions read events by ``type``, ``ev[...]`` and ``ev.get``, so they must cope with
these; the rules themselves make only typed events (``tabletop.rules.events``)."""

from __future__ import annotations

from typing import Any

from tabletop.rules.events import jsonable, make_event


class LooseEvent:
    def __init__(self, type: str, rule: str, data: dict[str, Any]):
        self.type, self.rule, self.data = type, rule, dict(data)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def __contains__(self, key: str) -> bool:
        return key in self.data

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "rule": self.rule, **jsonable(self.data)}


def any_event(type: str, rule: str = "", data: dict[str, Any] | None = None, **fields: Any):
    """The typed event when its fields fit its class, else a ``LooseEvent``."""
    try:
        return make_event(type, rule, {**(data or {}), **fields})
    except TypeError:
        return LooseEvent(type, rule, {**(data or {}), **fields})
