"""Rulesets by name (after python-chess variants): ``find_ruleset("fight-phase")``.

A ruleset module registers a ``Ruleset`` object with ``register``.  The
command line and the window only ever go through this registry.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tabletop.board.state import Battlefield

_MODULES = {
    "fight-phase": "tabletop.rules.fight_phase",
    "rank-and-flank": "tabletop.rules.rank_and_flank",
}
_REGISTRY: dict[str, Ruleset] = {}


@dataclass
class Resolution:
    """What resolving a phase produced: the final state, the log (events and steps)."""

    state: Battlefield
    log: Any
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Ruleset:
    """Hooks a ruleset provides.

    ``fight(state, dice, decisions, log) -> Resolution`` resolves the map's
    combat phase; ``phase(battlefield) -> (engine.Machine, engine.PhaseState)`` is that
    phase as rows on the rules engine (``tabletop.rules.engine``), for the driver, the odds
    walker and the window to drive (None for a ruleset not on the engine yet);
    ``odds(state, **options) -> dict`` gives exact (or stated Monte Carlo) odds;
    ``pile_in`` / ``consolidate`` are fight-phase moves.
    ``profile_problems(state)`` lists what stops the attacks (``file: place:
    ...`` lines); ``profile_warnings(state)`` lists, the same way, what the
    attacks would ignore (unknown profile keys and weapon rules words).
    """

    name: str
    fight: Callable[..., Resolution] | None = None
    phase: Callable[[Battlefield], Any] | None = None
    odds: Callable[..., Any] | None = None
    pile_in: Callable[..., Any] | None = None
    consolidate: Callable[..., Any] | None = None
    profile_problems: Callable[[Battlefield], list[str]] | None = None
    profile_warnings: Callable[[Battlefield], list[str]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def find_ruleset(name: str) -> Ruleset:
    """The ruleset registered as ``name``.

    Raises
    ------
    ValueError
        For an unknown name, or a ruleset whose module is not built yet.
    """
    if name not in _REGISTRY:
        module = _MODULES.get(name)
        if module is None:
            raise ValueError(f"unknown ruleset {name!r}: use one of {', '.join(_MODULES)}")
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name == module:
                raise ValueError(f"ruleset {name!r} is not available yet") from None
            raise
    return _REGISTRY[name]
