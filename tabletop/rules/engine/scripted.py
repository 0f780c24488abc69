"""The one rule that matches a map's scripted ``[[decisions]]`` to a question (docs/design.md
"Conventions: Decisions").  The driver (``driver.step_to_question``: ``tabletop fight`` and the window),
the odds walks (``walk._answer``, the rank-and-flank plan) and ``rules.decisions.Decisions``
(moves asked outside a phase) all take the map's answers through ``take`` and ``answer``
here, so a map answers a question the same way wherever it is asked.

The rule:

1. An entry answers a question when its ``player`` and ``choice`` are the question's
   (exactly as written).  Of those, the first one in the map's order that is not used
   yet answers: two entries for the same choice answer its first and second asking.
2. The entry counts as used once it answered, whether its value was legal or not
   (``used`` holds entry indices; a phase keeps them frozen in ``PhaseState.used``).
3. Its ``value`` is legal when it is the same as one of the options (``same``): names and
   ids compare trimmed and case-blind; a selection (a list) is the same as an option
   listing the same ids in any order.  The option itself (as the rules spell it) is the
   answer.  A value of None (no ``value`` written) is legal only when None is an option.
4. An illegal value is overridden: a ``decision_overridden`` event names the value and
   why (the question's ``why_not(value)``, else the options), and the default policy
   answers that question - never the person at the window - so a run replayed from its
   answers overrides it the same way.
5. An entry with ``by`` set (a run saved by ``view --play``) was answered there by the
   default policy or the person after the question's costly default (the pile-in and
   consolidation target search) had been worked out; its replay works it out again
   (its report, ``tried``, is the same) before taking the entry's value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.board.state import Decision, toml_value
from tabletop.rules.events import DecisionOverridden

__all__ = ["Taken", "answer", "same", "take", "waiting"]


def same(a: Any, b: Any) -> bool:
    """Whether an option ``a`` and a scripted value ``b`` name the same answer (rule 3).

    Strings compare trimmed and case-blind; two sequences (tuples or lists: selections of
    ids) are the same when they hold the same items in any order; anything else by ``==``.
    """
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().lower() == b.strip().lower()
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(
            same(x, y) for x, y in zip(sorted(map(str, a)), sorted(map(str, b))))
    return a == b


@dataclass(frozen=True)
class Taken:
    """What the map's ``[[decisions]]`` say to one question.

    ``index`` and ``entry`` are the entry that answered (None: no unused entry is waiting
    for it); ``value`` is the option it names when legal; ``overridden`` the
    ``decision_overridden`` event when its value is not an option (rule 4).
    """

    index: int | None = None
    entry: Decision | None = None
    value: Any = None
    overridden: DecisionOverridden | None = None

    @property
    def found(self) -> bool:
        """The map answered the question (its entry is used, legal or overridden)."""
        return self.entry is not None

    def record(self, value: Any) -> Decision:
        """The ``[[decisions]]`` entry that gives this answer again: the option taken, or
        for an overridden entry its own value (the replay overrides it the same way), with
        the entry's ``by``."""
        assert self.entry is not None
        kept = self.entry.value if self.overridden is not None else value
        return Decision(self.entry.player, self.entry.choice, kept, self.entry.by)


def waiting(scripted: Sequence[Decision], used: frozenset[int] | set[int], player: str,
            choice: str) -> int | None:
    """The index of the entry that would answer ``player``'s ``choice`` next (rule 1), or
    None; takes nothing."""
    return next((k for k, d in enumerate(scripted)
                 if k not in used and d.player == player and d.choice == choice), None)


def take(scripted: Sequence[Decision], used: frozenset[int] | set[int], player: str, choice: str,
         options: Sequence[Any], *, rule: str = "",
         why_not: Callable[[Any], str] | None = None) -> Taken:
    """Match the map's next entry for ``player``'s ``choice`` against ``options`` (rules 1-4).

    ``used`` is not changed: the caller adds ``Taken.index`` to its record of used entries.
    """
    k = waiting(scripted, used, player, choice)
    if k is None:
        return Taken()
    d = scripted[k]
    match = next((o for o in options if same(o, d.value)), None)
    if match is not None or (d.value is None and None in options):
        return Taken(k, d, match)
    reason = (why_not(d.value) if why_not else
              f"not one of {[toml_value(o) for o in options]!r}")
    return Taken(k, d, None, DecisionOverridden(rule=rule, player=player, choice=choice,
                                                value=d.value, reason=reason))


def answer(taken: Taken, default: Callable[[], Any], work: Callable[[], Any] | None = None) -> Any:
    """The value a found entry gives its question: the option named, or - overridden - the
    default policy's answer ``default()`` (rule 4).  ``work`` is the question's costly
    default, done first for a recorded entry (``by`` set, rule 5)."""
    assert taken.entry is not None
    if taken.overridden is not None:
        return default()
    if taken.entry.by is not None and work is not None:
        work()
    return taken.value
