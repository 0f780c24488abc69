"""What a phase waits for: a question for a player or a chance for the dice (docs/design.md
"How a phase runs", after OpenSpiel's chance player).

A phase state holds at most one pending thing.  A ``Question`` names the
player, the choice (the ``[[decisions]]`` name), the legal options, the
default the default policy takes and the rule clause.  A ``Chance`` names
what is rolled for and the clause, and lists its outcomes with exact
probabilities: where the rules only read a count (hits of N dice, saves
failed, a 2D6 break test passed or failed) the outcomes are that count's
distribution, so exact odds never walk 6^N dice histories.  When a phase is
resolved rather than weighed, ``Chance.draw`` rolls the individual dice with
the phase's ``Dice`` (every roll logged) and returns the outcome they make.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

__all__ = ["Chance", "Drawn", "Question", "certain", "detail_of", "outcome_of", "uniform"]


@dataclass(frozen=True)
class Question:
    """A choice a player must make before the phase can go on.

    ``options`` are the legal answers (hashable values as the map's
    ``[[decisions]]`` write them: unit or model ids, names, tuples of ids,
    booleans); ``default`` is the one the default policy takes (one of
    ``options``); ``context`` is free words for the asker (shown in the window);
    ``why_not(value)`` says why a scripted value that is not an option is
    refused (not compared).  ``default_fn``, when given, works the default out
    only when the default policy needs it (a costly search: pile-in targets);
    ``default`` is then None and ``chosen_default()`` calls it.
    """

    player: str
    choice: str
    options: tuple[Any, ...]
    default: Any
    rule: str = ""
    context: tuple[tuple[str, Any], ...] = ()
    why_not: Callable[[Any], str] | None = field(default=None, compare=False, hash=False)
    default_fn: Callable[[], Any] | None = field(default=None, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not self.options:
            raise ValueError(f"question {self.choice!r} for {self.player!r} has no options")
        if self.default_fn is None and self.default not in self.options:
            raise ValueError(f"question {self.choice!r}: default {self.default!r} is not an option")

    def chosen_default(self) -> Any:
        """The default policy's answer: ``default``, or ``default_fn()`` when given.

        Raises ``ValueError`` when ``default_fn`` gives a value that is not an option.
        """
        if self.default_fn is None:
            return self.default
        value = self.default_fn()
        if value not in self.options:
            raise ValueError(f"question {self.choice!r}: default {value!r} is not an option")
        return value


@dataclass(frozen=True)
class Chance:
    """A roll the phase waits for.

    ``outcomes`` is the exact distribution of what the rules read from the
    roll, ``((value, probability), ...)`` with ``Fraction`` probabilities
    summing to 1 and no value twice.  ``draw(dice)`` rolls the real dice with
    a ``tabletop.rules.dice.Dice`` (logging every roll) and returns the value
    they make, which is always one of the outcomes; without ``draw`` a value
    is sampled from the distribution (``sample``).
    """

    purpose: str
    rule: str
    outcomes: tuple[tuple[Any, Fraction], ...]
    player: str | None = None
    draw: Callable[[Any], Any] | None = field(default=None, compare=False, hash=False)

    def __post_init__(self) -> None:
        total = sum((p for _, p in self.outcomes), Fraction(0))
        if total != 1:
            raise ValueError(f"chance {self.purpose!r}: probabilities sum to {total}, not 1")
        values = [v for v, _ in self.outcomes]
        if len(set(values)) != len(values):
            raise ValueError(f"chance {self.purpose!r}: an outcome is listed twice")

    def sample(self, rng: random.Random) -> Any:
        """One value drawn from the distribution with ``rng`` (Monte Carlo)."""
        u = Fraction(rng.random())
        acc = Fraction(0)
        for value, p in self.outcomes:
            acc += p
            if u < acc:
                return value
        return self.outcomes[-1][0]

    def probability(self, value: Any) -> Fraction:
        """The probability of ``value`` (0 when it is not an outcome)."""
        return next((p for v, p in self.outcomes if v == value), Fraction(0))


@dataclass(frozen=True, eq=False)
class Drawn:
    """What a ``Chance.draw`` returns when the row also wants what the dice showed (the
    faces of a break test, the hits before the saves) to report them: it is equal to, and
    hashes as, its outcome ``value`` (so ``Machine.answer`` takes it as that outcome), and the
    row's ``resume`` reads ``detail``.  The odds engine answers with the bare values; a row
    reads the detail with ``detail_of(answer)`` (None then)."""

    value: Any
    detail: Any = None

    def __eq__(self, other: object) -> bool:
        return self.value == (other.value if isinstance(other, Drawn) else other)

    def __hash__(self) -> int:
        return hash(self.value)


def outcome_of(answer: Any) -> Any:
    """The outcome value of a chance's answer (``Drawn.value``, or the answer itself)."""
    return answer.value if isinstance(answer, Drawn) else answer


def detail_of(answer: Any) -> Any:
    """What the dice showed, when the answer was drawn with them (``Drawn.detail``), else None."""
    return answer.detail if isinstance(answer, Drawn) else None


def certain(value: Any) -> tuple[tuple[Any, Fraction], ...]:
    """The outcomes of a chance that can only go one way."""
    return ((value, Fraction(1)),)


def uniform(values: Sequence[Any]) -> tuple[tuple[Any, Fraction], ...]:
    """Equally likely outcomes (one die's faces)."""
    n = len(values)
    return tuple((v, Fraction(1, n)) for v in values)
