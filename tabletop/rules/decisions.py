"""Decisions: every choice a player makes goes through one object (DESIGN.md "Decisions").

A rules step asks ``decisions.choose(player, choice, options, default=...)``.
The answer comes from, in order: the map's scripted ``[[decisions]]`` (the
first unused one for that player and choice), then the default policy (the
``default`` the rules pass, else the first option), or - in the window - the
person at it (``InteractiveDecisions`` in the app layer overrides ``ask``).
A scripted value the rules forbid (not among ``options``) is overridden by
the rules with a ``decision_overridden`` event saying why.  Where finding
the default is costly (the pile-in and consolidation target search,
``fight_phase/targets.py``) the rules pass ``search``: it runs only when no
scripted answer is taken, and gives the options the default policy or the
person chooses among and its default.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tabletop.board.state import Decision
from tabletop.rules.events import EventLog


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().lower() == b.strip().lower()
    return a == b


class Decisions:
    """Answers the rules' questions.

    Parameters
    ----------
    scripted : sequence of Decision
        From the map's ``[[decisions]]``, used in order per (player, choice).
    log : EventLog or None
        Where ``decision`` and ``decision_overridden`` events go.
    policy : callable or None
        ``policy(player, choice, options, default, context) -> value``; the
        default policy returns ``default`` (or the first option).
    """

    def __init__(self, scripted: Sequence[Decision] = (), log: EventLog | None = None,
                 policy: Callable[..., Any] | None = None):
        self.scripted = list(scripted)
        self.used: set[int] = set()
        self.log = log
        self.policy = policy

    def _scripted(self, player: str, choice: str) -> tuple[bool, Any]:
        for k, d in enumerate(self.scripted):
            if k not in self.used and d.player == player and d.choice == choice:
                self.used.add(k)
                return True, d.value
        return False, None

    def ask(self, player: str, choice: str, options: Sequence[Any], default: Any,
            context: dict[str, Any]) -> Any:
        """The default policy (override in an interactive subclass)."""
        if self.policy is not None:
            return self.policy(player, choice, options, default, context)
        if default is not None:
            return default
        return options[0] if options else None

    def choose(self, player: str, choice: str, options: Sequence[Any], default: Any = None,
               rule: str = "", context: dict[str, Any] | None = None,
               why_not: Callable[[Any], str] | None = None,
               search: Callable[[], tuple[Sequence[Any], Any]] | None = None) -> Any:
        """One of ``options`` for ``player``'s ``choice``.

        A scripted value that is not among ``options`` is overridden (the
        default policy answers instead) and a ``decision_overridden`` event
        names the value and why (``why_not(value)``, or "not allowed").
        ``search() -> (options, default)``, when given, is called only when no
        scripted value is taken: the default policy (or the window) then
        chooses among its options, and its default is the one the default policy
        answers with.
        """
        context = dict(context or {})
        found, value = self._scripted(player, choice)
        if found:
            match = next((o for o in options if _same(o, value)), None)
            if match is not None or (value is None and None in options):
                return match
            if self.log is not None:
                reason = why_not(value) if why_not else f"not one of {list(options)!r}"
                self.log.emit("decision_overridden", rule, player=player, choice=choice,
                              value=value, reason=reason)
        if search is not None:
            options, default = search()
        return self.ask(player, choice, list(options), default, context)
