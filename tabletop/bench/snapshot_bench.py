"""Benchmark ``snapshot``: build the geometry snapshot and answer base contacts,
engagement and coherency, beside the naive all-pairs Shapely loop
(``tabletop.geometry.naive``) asking the same questions in the same run.

The naive loop measures every pair while there are at most
``NAIVE_FULL_MAX_PAIRS`` of them; above that (5000 models: 12.5M pairs) it
measures a fixed random sample of ``NAIVE_SAMPLE_PAIRS`` pairs and
extrapolates its per-pair time to all pairs, and the output says so.  When
the naive loop measured every pair, its answers are compared with the
snapshot's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from tabletop.bench import Benchmark
from tabletop.bench.layout import random_battlefield
from tabletop.geometry import snapshot
from tabletop.geometry.naive import footprints, naive_answers

NAIVE_FULL_MAX_PAIRS = 20_000
NAIVE_SAMPLE_PAIRS = 50_000
SNAPSHOT_REPEATS = 3          # best of; one run above 2000 models


def _snapshot_once(state) -> tuple[float, float, Any]:
    t0 = time.perf_counter()
    geo = snapshot(state)
    t1 = time.perf_counter()
    geo.base_contacts, geo.engaged_unit_pairs, geo.coherency   # noqa: B018 (cached answers)
    t2 = time.perf_counter()
    return t1 - t0, t2 - t0, geo


def _sample_pairs(n: int, k: int, seed: int) -> list[tuple[int, int]]:
    """``k`` distinct pairs i < j drawn uniformly from the n(n-1)/2, fixed by ``seed``."""
    rng = random.Random(seed)
    out: set[tuple[int, int]] = set()
    while len(out) < k:
        i, j = rng.randrange(n), rng.randrange(n)
        if i != j:
            out.add((i, j) if i < j else (j, i))
    return sorted(out)


def _naive(state, seed: int) -> tuple[float, str, Any]:
    """(seconds for all pairs, how it was measured, answers when complete else None)."""
    n = sum(len(u.models) for u in state.units)
    total = n * (n - 1) // 2
    t0 = time.perf_counter()
    shapes = footprints(state)
    t1 = time.perf_counter()
    if total <= NAIVE_FULL_MAX_PAIRS:
        answers = naive_answers(state, shapes)
        t2 = time.perf_counter()
        return t2 - t0, f"all {total:,} pairs", answers
    pairs = _sample_pairs(n, NAIVE_SAMPLE_PAIRS, seed)
    t2 = time.perf_counter()
    naive_answers(state, shapes, pairs)
    t3 = time.perf_counter()
    per_pair = (t3 - t2) / len(pairs)
    return ((t1 - t0) + per_pair * total,
            f"{len(pairs):,} sampled pairs of {total:,}, extrapolated", None)


def run(sizes: list[int], seed: int, out: Callable[[str], None]) -> list[dict[str, Any]]:
    """Time the snapshot and the naive loop for each model count; print a table."""
    out("snapshot: geometry snapshot + base contacts, engagement, coherency "
        "vs. naive all-pairs shapely.distance loop (same questions)")
    out(f"{'models':>7} {'units':>6} {'table in':>11} {'build s':>9} {'+answers s':>10} "
        f"{'naive s':>10} {'ratio':>8}  naive measured on / agreement")
    rows = []
    _snapshot_once(random_battlefield(20, seed))        # warm up imports and caches
    for n in sizes:
        state = random_battlefield(n, seed)
        repeats = SNAPSHOT_REPEATS if n <= 2000 else 1
        best_build, best_total, geo = min((_snapshot_once(state) for _ in range(repeats)),
                                          key=lambda r: r[1])
        naive_s, how, answers = _naive(state, seed)
        agree = None
        if answers is not None:
            agree = (answers.base_contacts == geo.base_contacts
                     and answers.engaged_unit_pairs == geo.engaged_unit_pairs
                     and answers.incoherent == {u: list(b.models) for u, b in geo.coherency.items()})
        extrapolated = answers is None
        ratio = naive_s / best_total
        tilde = "~" if extrapolated else ""
        note = how + ("" if agree is None else ("; answers agree" if agree else
                                                "; ANSWERS DIFFER"))
        table = f"{state.table.width:g}x{state.table.depth:g}"
        out(f"{n:>7} {len(state.units):>6} {table:>11} {best_build:>9.3f} {best_total:>10.3f} "
            f"{tilde + format(naive_s, '.2f'):>10} {tilde + format(ratio, '.0f') + 'x':>8}  {note}")
        rows.append({"benchmark": "snapshot", "models": n, "units": len(state.units),
                     "snapshot_build_s": best_build, "snapshot_total_s": best_total,
                     "naive_s": naive_s, "naive_extrapolated": extrapolated,
                     "naive_measured_on": how, "ratio": ratio, "answers_agree": agree,
                     "engaged_unit_pairs": len(geo.engaged_unit_pairs),
                     "base_contacts": len(geo.base_contacts)})
    if any(r["naive_extrapolated"] for r in rows):
        out(f"~ naive time extrapolated: a fixed random sample of pairs (seed {seed}) timed, "
            "its time per pair multiplied by all n(n-1)/2 pairs")
    out("ratio = naive s / (+answers s): snapshot build plus the same three questions")
    return rows


BENCHMARK = Benchmark("snapshot", "geometry snapshot vs. naive all-pairs Shapely loop", run)
