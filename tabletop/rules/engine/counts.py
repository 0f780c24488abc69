"""Exact count distributions, for chances where the rules read only a count.

A distribution is a tuple ``((value, Fraction), ...)`` sorted by value, no
zero weights (the form ``Chance.outcomes`` takes).  ``successes(n, p)``: how
many of ``n`` independent rolls succeed, each with probability ``p`` (hits
of N dice at 4+ with re-rolled ones: ``p = 1/2 + 1/6 * 1/2``); chaining
stages of one roll each (hit, then wound, then a failed save) is again
``successes(n, p_hit * p_wound * p_fail)``, since each die goes on alone.
``dice_sum(k, sides)``: the total of k dice (a 2D6 break test);
``at_most(dist, x)``: pass/fail of a test that needs the total at most x.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeVar

__all__ = ["Dist", "at_most", "convolve", "dice_sum", "mapped", "successes"]

Dist = tuple[tuple[Any, Fraction], ...]
_V = TypeVar("_V", bound=Hashable)


def _norm(weights: dict[_V, Fraction]) -> Dist:
    return tuple(sorted(((v, w) for v, w in weights.items() if w), key=lambda vw: vw[0]))


@lru_cache(maxsize=4096)
def successes(n: int, p: Fraction) -> Dist:
    """How many of ``n`` independent trials succeed, each with probability ``p``.

    Raises ``ValueError`` for ``n < 0`` or ``p`` outside [0, 1].
    """
    p = Fraction(p)
    if n < 0 or not 0 <= p <= 1:
        raise ValueError(f"successes needs n >= 0 and 0 <= p <= 1, got n={n}, p={p}")
    q = 1 - p
    return _norm({k: math.comb(n, k) * p ** k * q ** (n - k) for k in range(n + 1)})


@lru_cache(maxsize=256)
def dice_sum(k: int, sides: int = 6) -> Dist:
    """The total of ``k`` dice of ``sides`` faces."""
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(k):
        nxt: dict[int, Fraction] = {}
        for total, w in dist.items():
            for f in range(1, sides + 1):
                nxt[total + f] = nxt.get(total + f, Fraction(0)) + w / sides
        dist = nxt
    return _norm(dist)


def convolve(a: Dist, b: Dist, op: Callable[[Any, Any], Any] = lambda x, y: x + y) -> Dist:
    """The distribution of ``op(x, y)`` for independent x ~ a and y ~ b (a sum by default)."""
    out: dict[Hashable, Fraction] = {}
    for x, wa in a:
        for y, wb in b:
            v = op(x, y)
            out[v] = out.get(v, Fraction(0)) + wa * wb
    return _norm(out)


def mapped(dist: Iterable[tuple[Any, Fraction]], fn: Callable[[Any], Any]) -> Dist:
    """The distribution of ``fn(x)`` for x ~ ``dist`` (equal results merged)."""
    out: dict[Hashable, Fraction] = {}
    for x, w in dist:
        v = fn(x)
        out[v] = out.get(v, Fraction(0)) + w
    return _norm(out)


def at_most(dist: Dist, x: int) -> Dist:
    """Pass (True) when the total is at most ``x``, else fail (False)."""
    return mapped(dist, lambda t: t <= x)
