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

import math
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
class _Checked:
    """What ``Chance`` works out once per outcome table: the values (a frozenset, for
    ``has_outcome``), ``den`` the least common denominator of the probabilities and
    ``weights`` each probability times ``den`` (ints, in the outcomes' order: the odds walk
    multiplies them, ``walk.exact``)."""

    outcomes: tuple[tuple[Any, Fraction], ...]
    values: frozenset[Any]
    den: int
    weights: tuple[int, ...]


#: engine setting (not a reading of any rule): how many outcome tables ``Chance`` keeps
#: checked (by identity of the tuple: the count distributions of ``counts`` are made once
#: and reused, so a walk builds many chances over one table and checks it once)
CHECKED_TABLES = 4096
_CHECKED: dict[int, _Checked] = {}


def _checked(purpose: str, outcomes: tuple[tuple[Any, Fraction], ...]) -> _Checked:
    """``outcomes`` checked (probabilities summing to 1, no value twice), kept by identity
    (``CHECKED_TABLES``; the record holds the tuple, so its id is not reused while kept).

    Raises ``ValueError`` when the probabilities do not sum to 1 or a value is listed twice.
    """
    got = _CHECKED.get(id(outcomes))
    if got is not None and got.outcomes is outcomes:
        return got
    den = math.lcm(*(Fraction(p).denominator for _, p in outcomes)) if outcomes else 1
    weights = tuple(Fraction(p).numerator * (den // Fraction(p).denominator) for _, p in outcomes)
    if sum(weights) != den:
        total = sum((p for _, p in outcomes), Fraction(0))
        raise ValueError(f"chance {purpose!r}: probabilities sum to {total}, not 1")
    values = frozenset(v for v, _ in outcomes)
    if len(values) != len(outcomes):
        raise ValueError(f"chance {purpose!r}: an outcome is listed twice")
    got = _Checked(outcomes, values, den, weights)
    if not isinstance(outcomes, tuple):         # a list may change: checked, never kept
        return got
    if len(_CHECKED) >= CHECKED_TABLES:
        _CHECKED.clear()
    _CHECKED[id(outcomes)] = got
    return got


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
    #: worked out from ``outcomes`` (once per table): their least common denominator, each
    #: probability times it (ints, in order), the values
    den: int = field(init=False, repr=False, compare=False)
    weights: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _values: frozenset[Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        checked = _checked(self.purpose, self.outcomes)
        object.__setattr__(self, "_values", checked.values)
        object.__setattr__(self, "den", checked.den)
        object.__setattr__(self, "weights", checked.weights)

    def has_outcome(self, value: Any) -> bool:
        """Whether ``value`` is one of the outcomes (a ``Drawn`` counts as its value)."""
        try:
            return value in self._values
        except TypeError:           # unhashable: no outcome is
            return False

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
