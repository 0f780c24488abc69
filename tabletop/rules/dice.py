"""Dice: one seeded ``Dice`` per resolution, every roll logged (docs/design.md "Conventions: Dice").

Chance is an explicit player (after OpenSpiel): a resolution asks the dice
for each roll with what it is for, so a history replays exactly from its
seed, tests fix the results (``FixedDice([6, 6, 1])``), and exact odds come
(``enumerate_outcomes``, still read by the charge and rank-and-flank odds; the Fight phase
weighs its chances with ``tabletop.rules.engine.walk``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tabletop.rules.events import EventLog


@dataclass
class Roll:
    """One logged roll: what it was for, the dice, modifiers, target and result."""

    purpose: str
    dice: list[int]
    modifiers: dict[str, float] = field(default_factory=dict)
    target: Any = None
    result: Any = None
    player: str | None = None
    rule: str = ""


class DiceExhausted(RuntimeError):
    """FixedDice ran out of results (a test scripted too few)."""


class Dice:
    """Seeded dice.  ``roll`` returns the face values and logs a ``roll`` event.

    Parameters
    ----------
    seed : int or None
    log : EventLog or None
        Where ``roll`` events go (``{purpose, dice, modifiers, target, result, player}``).
    """

    def __init__(self, seed: int | None = None, log: EventLog | None = None):
        self.seed = seed
        self._rng = random.Random(seed)
        self.log = log
        self.history: list[Roll] = []

    def _face(self, sides: int) -> int:
        return self._rng.randint(1, sides)

    def faces(self, n: int, sides: int = 6) -> list[int]:
        """``n`` unlogged faces (use ``roll`` unless you log the roll yourself with ``record``)."""
        return [self._face(sides) for _ in range(n)]

    def roll(self, n: int, sides: int = 6, *, purpose: str, rule: str = "",
             player: str | None = None, modifiers: Mapping[str, float] | None = None,
             target: Any = None, result: Callable[[list[int]], Any] | Any = None) -> list[int]:
        """Roll ``n`` dice of ``sides`` faces and log it.

        ``result`` may be a value or a function of the faces (e.g. the number
        of successes) recorded with the roll.
        """
        faces = self.faces(n, sides)
        res = result(faces) if callable(result) else result
        self.record(purpose, faces, rule=rule, player=player, modifiers=modifiers,
                    target=target, result=res)
        return faces

    def record(self, purpose: str, faces: list[int], *, rule: str = "", player: str | None = None,
               modifiers: Mapping[str, float] | None = None, target: Any = None, result: Any = None) -> Roll:
        """Log a roll made with ``faces`` (for rolls whose result is worked out after re-rolls)."""
        r = Roll(purpose, list(faces), dict(modifiers or {}), target, result, player, rule)
        self.history.append(r)
        if self.log is not None:
            self.log.emit("roll", rule, purpose=purpose, dice=list(faces), modifiers=dict(modifiers or {}),
                          target=target, result=result, player=player)
        return r

    def d(self, sides: int = 6, **kw: Any) -> int:
        """One die; keyword arguments as ``roll``."""
        return self.roll(1, sides, **kw)[0]

    def d3(self, **kw: Any) -> int:
        """A D3 (a D6 halved, rounding up)."""
        purpose = kw.pop("purpose")
        face = self.faces(1, 6)[0]
        value = (face + 1) // 2
        self.record(purpose + " (D3)", [face], result=value, **kw)
        return value


class FixedDice(Dice):
    """Dice that return scripted faces in order (tests).  Raises ``DiceExhausted`` when out."""

    def __init__(self, faces: Iterable[int], log: EventLog | None = None):
        super().__init__(None, log)
        self._queue = list(faces)

    def _face(self, sides: int) -> int:
        if not self._queue:
            raise DiceExhausted("FixedDice has no more results")
        v = self._queue.pop(0)
        if not 1 <= v <= sides:
            raise ValueError(f"fixed face {v} is not on a d{sides}")
        return v

    @property
    def remaining(self) -> list[int]:
        return list(self._queue)


class _Branch(Exception):
    pass


class EnumeratingDice(Dice):
    """Dice that follow a given prefix of faces and report where the history branches."""

    def __init__(self, prefix: list[int], limit: int):
        super().__init__(None, None)
        self.prefix = prefix
        self.pos = 0
        self.sides_seen: list[int] = []
        self.limit = limit

    def _face(self, sides: int) -> int:
        if self.pos < len(self.prefix):
            v = self.prefix[self.pos]
        else:
            v = 1
            self.prefix.append(1)
        self.sides_seen.append(sides)
        self.pos += 1
        if self.pos > self.limit:
            raise _Branch()
        return v


def enumerate_outcomes(fn: Callable[[Dice], Any], max_rolls: int = 14,
                       max_paths: int = 2_000_000) -> dict[Any, Fraction]:
    """Exact distribution of ``fn(dice)`` over every sequence of faces.

    ``fn`` runs the real rules code with an ``EnumeratingDice``; each run
    follows one sequence of faces, depth first, so the probability of each
    distinct return value is exact (a ``Fraction``).

    Raises
    ------
    ValueError
        When a history needs more than ``max_rolls`` dice or more than
        ``max_paths`` runs: use a Monte Carlo estimate instead.
    """
    out: dict[Any, Fraction] = {}
    prefix: list[int] = []
    runs = 0
    while True:
        dice = EnumeratingDice(list(prefix), max_rolls)
        try:
            value = fn(dice)
        except _Branch:
            raise ValueError(f"more than {max_rolls} dice in one history: too many to enumerate") from None
        runs += 1
        if runs > max_paths:
            raise ValueError(f"more than {max_paths} histories: too many to enumerate")
        p = Fraction(1)
        for s in dice.sides_seen:
            p /= s
        out[value] = out.get(value, Fraction(0)) + p
        used = dice.prefix[:dice.pos]
        sides = dice.sides_seen
        # next history: increment the last die that is not at its maximum
        k = len(used) - 1
        while k >= 0 and used[k] == sides[k]:
            k -= 1
        if k < 0:
            return out
        prefix = used[:k] + [used[k] + 1]


def monte_carlo(fn: Callable[[Dice], Any], runs: int = 20000, seed: int = 1) -> dict[Any, tuple[float, float]]:
    """Estimated distribution of ``fn(dice)``: ``{value: (probability, standard error)}``."""
    counts: dict[Any, int] = {}
    rng = random.Random(seed)
    for _ in range(runs):
        v = fn(Dice(rng.randrange(1 << 30)))
        counts[v] = counts.get(v, 0) + 1
    return {k: (c / runs, (c / runs * (1 - c / runs) / runs) ** 0.5) for k, c in counts.items()}
