"""Benchmarks: each times a piece of tabletop against a naive baseline in the same run.

A benchmark is a module ``tabletop/bench/<name>_bench.py`` holding ``BENCHMARK``
(a ``Benchmark``); ``MODULES`` lists them in the order ``tabletop bench`` runs
them, and a listed module that does not exist yet is skipped (as the command
line does with its commands).  Speed is measured here only, never in tests.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MODULES = ["snapshot", "pile-in", "fight-scale", "window", "window-edit", "window-autosave", "odds", "startup", "charge-shade"]


@dataclass(frozen=True)
class Benchmark:
    """``run(sizes, seed, out, **options)`` times the benchmark for each model count in
    ``sizes``, writes its table with ``out`` (one line per call) and returns one dict per
    row.  ``options`` names the ``tabletop bench`` arguments it also takes as keywords
    (``repeat``, ``skip_slow``), passed only to the benchmarks that name them."""

    name: str
    help: str
    run: Callable[..., list[dict[str, Any]]]
    options: tuple[str, ...] = ()


def benchmarks() -> dict[str, Benchmark]:
    """The benchmarks that exist, by name, in ``MODULES`` order."""
    out: dict[str, Benchmark] = {}
    for name in MODULES:
        try:
            mod = importlib.import_module(f"tabletop.bench.{name.replace('-', '_')}_bench")
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith("tabletop.bench."):
                continue
            raise
        out[mod.BENCHMARK.name] = mod.BENCHMARK
    return out
