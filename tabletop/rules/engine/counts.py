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

__all__ = ["Dist", "at_most", "convolve", "dice_sum", "faces_sum", "mapped", "successes"]

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
    return faces_sum(k, tuple(range(1, sides + 1)))


@lru_cache(maxsize=256)
def faces_sum(k: int, faces: tuple[int, ...]) -> Dist:
    """The total of ``k`` independent dice, each showing one of ``faces`` (equally likely;
    a value may repeat: a D3 read from a D6 is ``(1, 1, 2, 2, 3, 3)``).

    Counted in whole numbers of the ``len(faces) ** k`` equally likely rolls and made
    Fractions once at the end, so ``100D6`` takes a fraction of a second (adding Fractions
    die by die took 18 s).  Raises ``ValueError`` for ``k < 0`` or no faces.
    """
    if k < 0 or not faces:
        raise ValueError(f"faces_sum needs k >= 0 and at least one face, got k={k}, {faces!r}")
    one: dict[int, int] = {}
    for f in faces:
        one[f] = one.get(f, 0) + 1
    ways: dict[int, int] = {0: 1}
    for _ in range(k):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for f, m in one.items():
                nxt[total + f] = nxt.get(total + f, 0) + n * m
        ways = nxt
    rolls = len(faces) ** k
    return tuple((v, Fraction(ways[v], rolls)) for v in sorted(ways))


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
