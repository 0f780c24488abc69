"""Count distributions for the odds: the rules' own code against the ``icepool`` library.

Issue 9 (Deliver 5) asks whether a dice library should give the distributions of the
counts the rules read.  Three of them, each worked out both ways in the same run and
compared exactly (``Fraction`` by ``Fraction``):

- ``successes``: how many of N dice succeed at 4+ with 1s re-rolled (once);
  own: ``rank_and_flank.rolls.p_hit`` (one die enumerated through ``roll_to_hit``)
  and ``engine.counts.successes`` (``_binomial`` here);
- ``failed saves``: how many saves at 5+ fail among those successes (a compound
  distribution: the count of successes, then one save per success);
  own: ``rolls.p_unsaved`` (one save enumerated through ``roll_saves``) and a
  ``_binomial`` for each count of successes, summed with its weight; and own as today's
  pool draws it, one ``_binomial`` of P(hit) x P(save fails) (the row "the same, own as
  one binomial", icepool timed again on the compound);
- ``2D6 <= Ld``: the chance of passing a 2D6 test on Ld 2..12 (the break test's roll);
  own: ``rules.dice.enumerate_outcomes`` over the two dice.

N = ``SIZES`` (5, 20, 60).  CPU milliseconds (``time.process_time``), the median of
``REPEATS`` runs; the own caches (``functools`` caches on ``p_hit``, ``p_unsaved``,
``_binomial``) are cleared before each run and icepool's dice are built afresh each run,
so neither side times a cached answer.  icepool is not a dependency of the project: when
it is not importable the measurement is skipped with a one-line note.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from tabletop.rules.dice import enumerate_outcomes
from tabletop.rules.engine.counts import successes as _binomial
from tabletop.rules.rank_and_flank import rolls

SIZES = (5, 20, 60)
REPEATS = 5
HIT = rolls.HitSpec(target=4, base=4, reroll="ones")       # 4+, re-roll 1s
SAVE = rolls.save_spec(4, 3)                                 # Power 4 v Defense 3: 5+
LD_RANGE = range(2, 13)

Dist = dict[int, Fraction]


# ------------------------------------------------------------------ own

def _clear_own() -> None:
    rolls.p_hit.cache_clear()
    rolls.p_unsaved.cache_clear()
    _binomial.cache_clear()


def own_successes(n: int) -> Dist:
    """Successes of ``n`` dice at 4+ re-rolling 1s: Binomial(n, P(hit)), P(hit) enumerated."""
    return {k: w for k, w in _binomial(n, rolls.p_hit(HIT))}


def own_failed_saves(n: int) -> Dist:
    """Failed 5+ saves among the successes of ``n`` dice: sum over k of P(k) Binomial(k, q)."""
    q = rolls.p_unsaved(SAVE)
    out: Dist = {}
    for k, pk in _binomial(n, rolls.p_hit(HIT)):
        for f, pf in _binomial(k, q):
            out[f] = out.get(f, Fraction(0)) + pk * pf
    return out


def own_failed_pooled(n: int) -> Dist:
    """The same count as today's rank-and-flank pool draws it (``rolls.strike`` with
    ``dice.pool``): one Binomial(n, P(hit) x P(save fails)), the compound collapsed."""
    return {k: w for k, w in _binomial(n, rolls.p_hit(HIT) * rolls.p_unsaved(SAVE))}


def own_2d6_pass() -> Dist:
    """{Ld: P(2D6 <= Ld)} for Ld in ``LD_RANGE``, the 36 faces enumerated."""
    totals = enumerate_outcomes(lambda d: sum(d.roll(2, purpose="2D6 test")))
    return {ld: sum((p for t, p in totals.items() if t <= ld), Fraction(0)) for ld in LD_RANGE}


# ------------------------------------------------------------------ icepool

def _icepool() -> Any:
    try:
        import icepool
    except ImportError:
        return None
    return icepool


def _as_dist(die: Any) -> Dist:
    return {int(k): Fraction(p) for k, p in zip(die.outcomes(), die.probabilities())}


def lib_successes(icepool: Any, n: int) -> Dist:
    d6 = icepool.Die(range(1, 7))
    hit = d6.reroll([1], depth=1).map(lambda f: int(f >= HIT.target))
    return _as_dist(n @ hit)


def lib_failed_saves(icepool: Any, n: int) -> Dist:
    d6 = icepool.Die(range(1, 7))
    hit = d6.reroll([1], depth=1).map(lambda f: int(f >= HIT.target))
    fail = d6.map(lambda f: int(f < SAVE.target))
    return _as_dist((n @ hit) @ fail)


def lib_2d6_pass(icepool: Any) -> Dist:
    two = 2 @ icepool.Die(range(1, 7))
    return {ld: Fraction(two.probability("<=", ld)) for ld in LD_RANGE}


# ------------------------------------------------------------------ timing

def _median_ms(fn: Callable[[], Dist], before: Callable[[], None], repeats: int
               ) -> tuple[float, Dist]:
    times, value = [], {}
    for _ in range(repeats):
        before()
        t0 = time.process_time()
        value = fn()
        times.append(time.process_time() - t0)
    return 1000.0 * statistics.median(times), value


def run(out: Callable[[str], None], *, repeat: int | None = None,
        sizes: tuple[int, ...] | None = None) -> list[dict[str, Any]]:
    """Time own and icepool on each count; print the table; one row per (count, N)."""
    icepool = _icepool()
    if icepool is None:
        out("odds counts: own vs icepool skipped: icepool is not installed "
            "(pip install icepool to measure; it is not a project dependency)")
        return []
    n_runs = repeat if repeat is not None else REPEATS
    sizes = SIZES if sizes is None else sizes
    out(f"odds counts: own rules code vs icepool {icepool.__version__}, CPU ms "
        f"(median of {n_runs}, caches cleared), exact agreement checked")
    out(f"{'count':<34} {'N':>3} {'own ms':>9} {'icepool ms':>11} {'ratio':>7}  agree")
    cases: list[tuple[str, int, Callable[[], Dist], Callable[[], Dist]]] = []
    for n in sizes:
        cases.append(("successes (4+, re-roll 1s)", n, lambda n=n: own_successes(n),
                      lambda n=n: lib_successes(icepool, n)))
        cases.append(("failed saves (5+) of the successes", n, lambda n=n: own_failed_saves(n),
                      lambda n=n: lib_failed_saves(icepool, n)))
        cases.append(("  the same, own as one binomial", n, lambda n=n: own_failed_pooled(n),
                      lambda n=n: lib_failed_saves(icepool, n)))
    cases.append(("2D6 <= Ld, Ld 2..12", 2, own_2d6_pass, lambda: lib_2d6_pass(icepool)))
    rows = []
    for what, n, own, lib in cases:
        own_ms, own_d = _median_ms(own, _clear_own, n_runs)
        lib_ms, lib_d = _median_ms(lib, lambda: None, n_runs)
        own_d = {k: v for k, v in own_d.items() if v}
        lib_d = {k: v for k, v in lib_d.items() if v}
        agree = own_d == lib_d
        ratio = own_ms / lib_ms if lib_ms > 0 else float("inf")
        out(f"{what:<34} {n:>3} {own_ms:>9.2f} {lib_ms:>11.2f} {ratio:>6.2f}x  "
            f"{'exactly' if agree else 'DIFFER'}")
        rows.append({"benchmark": "odds-counts", "count": what, "dice": n, "models": 0,
                     "own_ms": own_ms, "icepool_ms": lib_ms, "ratio": ratio,
                     "agree": agree, "icepool_version": icepool.__version__})
    out("ratio = own ms / icepool ms (over 1: icepool is faster)")
    return rows
