"""Decisions: every choice a player makes goes through one object (docs/design.md "Conventions: Decisions").

A rules step asks ``decisions.choose(player, choice, options, default=...)``.
The answer comes from, in order: the map's scripted ``[[decisions]]`` (taken
by the one matching rule, ``engine.scripted``, that the driver and the odds
walks use too; ``used`` is this object's record of the entries taken, as
``PhaseState.used`` is a phase's), then the default policy (the
``default`` the rules pass, else the first option), or - in the window - the
person at it (``InteractiveDecisions`` in the app layer overrides ``ask``).
A scripted value the rules forbid (not among ``options``) is overridden by
the rules with a ``decision_overridden`` event saying why.  Where finding
the default is costly (the pile-in and consolidation target search,
``fight_phase/targets.py``) the rules pass ``search``: it runs only when no
scripted answer is taken, and gives the options the default policy or the
person chooses among and its default.

A run is (map, seed, answers): ``history`` records every answer in the
order the rules asked (``Answer``: player, choice, value, by whom), and
``replay()`` turns it into the ``[[decisions]]`` that make the same map and
seed run the same phase again (``view --play`` saves them with ``s``).  A
scripted value the rules override is answered by the default policy, also in
the window, so the saved run replays it as it went.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.board.state import Decision, toml_value
from tabletop.rules.engine import scripted as matching
from tabletop.rules.events import EventLog

#: who answered a question (``Answer.by``)
BY_MAP, BY_DEFAULT, BY_WINDOW = "map", "default", "window"


@dataclass(frozen=True)
class Answer:
    """One answer of a run, in the order the rules asked.

    ``value`` is what a ``[[decisions]]`` entry must hold to give the same
    answer again: the option taken, or - for a scripted value the rules
    overrode (``overridden``) - that scripted value, which the replay overrides
    the same way.  ``by`` is ``"map"`` (the map's ``[[decisions]]``),
    ``"default"`` (the default policy) or ``"window"`` (the person).
    """

    player: str
    choice: str
    value: Any
    by: str
    overridden: bool = False
    recorded_by: str | None = None      # a scripted entry's own ``by`` (a saved run replayed)

    def as_decision(self) -> Decision:
        """The ``[[decisions]]`` entry: ``by`` says who answered (None for the map's own)."""
        by = self.recorded_by if self.by == BY_MAP else self.by
        return Decision(self.player, self.choice, toml_value(self.value), by)


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
        self.history: list[Answer] = []
        self._by = BY_DEFAULT

    def has_scripted(self, player: str, choice: str) -> bool:
        """Whether a scripted ``[[decisions]]`` entry for ``player``'s ``choice`` is
        still unused (the next ``choose`` of it takes one); takes nothing."""
        return matching.waiting(self.scripted, self.used, player, choice) is not None

    def ask(self, player: str, choice: str, options: Sequence[Any], default: Any,
            context: dict[str, Any]) -> Any:
        """The default policy (override in an interactive subclass; an override that
        hands the question to a person sets ``self._by = BY_WINDOW``)."""
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
        found, answer, options, default = self.take_scripted(
            player, choice, options, default, rule, context, why_not, search)
        if found:
            return answer
        self._by = BY_DEFAULT
        answer = self.ask(player, choice, list(options), default, context)
        self.record(player, choice, answer, self._by)
        return answer

    def take_scripted(self, player: str, choice: str, options: Sequence[Any], default: Any = None,
                      rule: str = "", context: dict[str, Any] | None = None,
                      why_not: Callable[[Any], str] | None = None,
                      search: Callable[[], tuple[Sequence[Any], Any]] | None = None
                      ) -> tuple[bool, Any, list[Any], Any]:
        """The map's answer, when it has one: ``(found, value, options, default)``.

        ``found`` is True when a scripted ``[[decisions]]`` entry answered
        (``value``, recorded in ``history``), or when one was overridden (the
        default policy's answer, recorded as the map's overridden value).  Else
        nothing is recorded, and ``options``/``default`` are those the person or
        the default policy choose among (``search()``'s, when given).  The
        window calls this first and asks the person only when ``found`` is False.
        """
        context = dict(context or {})
        taken = matching.take(self.scripted, self.used, player, choice, options, rule=rule,
                              why_not=why_not)
        if not taken.found:
            if search is not None:
                options, default = search()
            return False, None, list(options), default
        found: list[Any] = [list(options), default]

        def by_default() -> Any:
            # the map's answer stands for this question: the default policy replaces it,
            # in the window too, so (map, seed, answers) replays the override
            if search is not None:
                found[:] = list(search())
            return Decisions.ask(self, player, choice, list(found[0]), found[1], context)

        if taken.overridden is not None and self.log is not None:
            self.log.add(taken.overridden)
        value = matching.answer(taken, by_default, search)
        self.took(taken, value)
        return True, value, list(found[0]), found[1]

    def took(self, taken: matching.Taken, value: Any) -> None:
        """Record a map's answer (``engine.scripted.take``): its entry is used, and the
        history holds the option taken (a selection as a list), or the overridden value."""
        assert taken.entry is not None and taken.index is not None
        self.used.add(taken.index)
        overridden = taken.overridden is not None
        kept = taken.entry.value if overridden else toml_value(value)
        self.history.append(Answer(taken.entry.player, taken.entry.choice, kept, BY_MAP,
                                   overridden=overridden, recorded_by=taken.entry.by))

    def record(self, player: str, choice: str, value: Any, by: str) -> None:
        """Record an answer given by the default policy or the person (``by``)."""
        self.history.append(Answer(player, choice, value, by))

    def replay(self) -> list[Decision]:
        """The ``[[decisions]]`` that replay this run with the same map and seed.

        Every answer so far in the order asked (one per question, so each
        replayed question takes its own), then the map's scripted decisions
        not used yet, in their order (a run stopped part-way goes on as the map
        says).  Read from ``history`` alone, so a call from another thread while
        the rules work sees a consistent list.  Values are in the forms the map
        format takes (``toml_value``); a value of None is written without
        ``value``.
        """
        done = list(self.history)
        out = [a.as_decision() for a in done]
        taken: dict[tuple[str, str], int] = {}
        for a in done:
            if a.by == BY_MAP:
                taken[(a.player, a.choice)] = taken.get((a.player, a.choice), 0) + 1
        seen: dict[tuple[str, str], int] = {}
        for d in self.scripted:
            k = (d.player, d.choice)
            seen[k] = seen.get(k, 0) + 1
            if seen[k] > taken.get(k, 0):       # scripted answers are taken in order per key
                out.append(Decision(d.player, d.choice, toml_value(d.value), d.by))
        return out
