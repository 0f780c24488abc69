"""Benchmark ``odds``: CPU time of the odds a player asks for, per engine, against issue 9's targets.

The cases are issue 9's targets, each with its target time (CPU seconds):

- ``rnf-5x4``: a 5x4 against 5x4 rank-and-flank fight (two blocks of twenty 25x25mm
  bases, five files by four ranks, in base contact front to front; built here from a
  small inline map), exact, under 0.1 s;
- ``character-lesson``: ``tabletop fight maps/lessons/character-challenge.toml --odds``,
  exact, under 1 s;
- ``gambit-lesson``: ``tabletop fight maps/lessons/gambit-challenge.toml --odds``, exact,
  under 1 s;
- ``layout-60x44``: ``tabletop fight maps/ca-layout-1-hammer-and-anvil.toml --odds``,
  exact per engagement where the bound allows, else within half a percentage point,
  under 3 s.

Each case is timed for every engine of ``ENGINES`` in the same run: CPU seconds of this
process (``time.process_time``; each run in a fresh Python process, so no cache of an
earlier run helps), the median of ``REPEATS`` runs (``SLOW_REPEATS`` for the
cases marked slow, which take seconds each today; ``--repeat N`` sets both and the table
says how many were run).  The first engine is the baseline and every other engine's
``ratio`` is the baseline's time over its own.  ``sampled 100`` (the baseline) is the same
phase rows sampled: ``SAMPLED_RUNS`` seeded runs, no exact walk, about +/- 5 percentage
points - what a sampler gives, really run on the same maps.  ``engine`` is what ``tabletop
fight MAP --odds`` runs (the challenge odds table when the map has ``challenges``, then the
ruleset's ``odds``: exact within its bounds, else sampled).  The engine before issue 9 (a
re-run of the whole phase per dice history) is deleted; its figures are in the README.  Beside
each time: the method (exact with its histories, or Monte Carlo with its runs and its largest
standard error of a reported probability, in percentage points) and how many times
over its target it is.

Then ``count_bench``: the count distributions of the rules, own code against the
``icepool`` library, when icepool is importable (a one-line note otherwise).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.bench import Benchmark, count_bench
from tabletop.board import mapfile
from tabletop.board.state import Battlefield
from tabletop.rules.registry import find_ruleset

REPEATS = 5                   # timed runs per case (median)
SLOW_REPEATS = 3              # for the cases marked slow (seconds per run today)
MAPS = Path(__file__).resolve().parents[2] / "maps"


# ------------------------------------------------------------------ the cases

def rnf_5x4_battlefield() -> Battlefield:
    """Two rank-and-flank blocks of 20 (5 files x 4 ranks, 25x25mm) in base contact front
    to front across y = 16" on a 48" x 32" table: red facing north (90 degrees), blue south;
    the same plain infantry profile on both sides, red the active player."""
    profile = {"Move": 4, "Skill": 3, "Power": 3, "Defense": 4, "Attacks": 1, "Wounds": 1,
               "Discipline": 7}

    def block(uid: str, facing: int) -> dict[str, Any]:
        return {"id": uid, "player": uid, "base": "25x25mm", "profile": dict(profile),
                "formation": {"front_centre": [24.0, 16.0], "facing": facing, "files": 5,
                              "ranks": 4, "count": 20}}

    return mapfile.from_dict({
        "map": {"name": "odds bench: 5x4 v 5x4", "ruleset": "rank-and-flank",
                "width": 48.0, "depth": 32.0},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [block("red", 90), block("blue", 270)]})


def _shipped(name: str) -> Callable[[], Battlefield]:
    return lambda: mapfile.load(str(MAPS / name))


@dataclass(frozen=True)
class OddsCase:
    """One of issue 9's odds targets: ``build()`` gives the map; ``target_s`` CPU seconds;
    ``slow`` when the engine takes seconds (fewer repeats by default, ``--skip-slow``)."""

    name: str
    what: str
    build: Callable[[], Battlefield]
    target_s: float
    target_method: str
    slow: bool


CASES = [
    OddsCase("rnf-5x4", "5x4 v 5x4 rank-and-flank (inline map)", rnf_5x4_battlefield,
             0.1, "exact", False),
    OddsCase("character-lesson", "lessons/character-challenge.toml",
             _shipped("lessons/character-challenge.toml"), 1.0, "exact", True),
    OddsCase("gambit-lesson", "lessons/gambit-challenge.toml",
             _shipped("lessons/gambit-challenge.toml"), 1.0, "exact", True),
    OddsCase("layout-60x44", "ca-layout-1-hammer-and-anvil.toml",
             _shipped("ca-layout-1-hammer-and-anvil.toml"), 3.0,
             "exact per engagement, else SE under 0.5 pp", True),
]


# ------------------------------------------------------------------ the engines

@dataclass(frozen=True)
class Method:
    """How an engine got its odds: ``exact`` (``histories`` enumerated, when it says) or
    Monte Carlo over ``runs`` with ``largest_se``, the largest standard error of a reported
    probability (0..1); ``parts`` names each part's method when they differ."""

    exact: bool
    histories: int | None = None
    runs: int | None = None
    largest_se: float | None = None
    parts: str = ""

    @property
    def name(self) -> str:
        return "exact" if self.exact else "monte carlo"

    def text(self) -> str:
        if self.exact:
            how = "exact" + (f", {self.histories:,} histories" if self.histories else "")
        else:
            how = f"Monte Carlo, {self.runs:,} runs"
        return how + (f" ({self.parts})" if self.parts else "")


@dataclass(frozen=True)
class Engine:
    """An odds engine: ``odds(state) -> result`` (what ``fight --odds`` computes) and
    ``method(result) -> Method``."""

    name: str
    odds: Callable[[Battlefield], Any]
    method: Callable[[Any], Method]


def todays_odds(state: Battlefield) -> dict[str, Any]:
    """What ``tabletop fight MAP --odds`` computes today (``cli/fight_cmd.py``): the challenge
    odds table when the map sets ``[rules] challenges``, then the ruleset's ``odds(state)``
    with its default runs and seed.  ``{"challenge_odds": report or None, "odds": dict}``."""
    report = None
    if state.rules.challenges:
        from tabletop.rules.challenges.report import challenge_odds
        report = challenge_odds(state)
    ruleset = find_ruleset(state.ruleset)
    return {"challenge_odds": report, "odds": ruleset.odds(state) if ruleset.odds else None}


def _se(p: float, runs: int) -> float:
    return math.sqrt(max(p * (1 - p), 0.0) / runs)


def _nested_max(v: Any) -> float:
    if isinstance(v, dict):
        return max((_nested_max(x) for x in v.values()), default=0.0)
    return float(v)


def todays_method(result: dict[str, Any]) -> Method:
    """The method of ``todays_odds``: Monte Carlo when any part is.  The largest standard
    error is over every probability the command prints: rank-and-flank's ``se`` figures;
    fight-phase's ``p_destroyed`` and each count of ``models_removed`` / ``wounds_caused``
    (sqrt(p (1 - p) / runs))."""
    parts = []
    if result["challenge_odds"] is not None:
        parts.append("challenge table exact")
    odds = result["odds"] or {}
    if "engagements" in odds and "units" not in odds:            # rank-and-flank
        engs = odds["engagements"]
        mc = [e for e in engs if e["method"] != "exact"]
        if not mc:
            return Method(True, sum(e["histories"] for e in engs), parts="; ".join(parts))
        if len(mc) < len(engs):
            parts.append(f"{len(engs) - len(mc)} of {len(engs)} engagements exact")
        se = max(_nested_max(e["se"]) for e in mc)
        return Method(False, runs=max(e["runs"] for e in mc), largest_se=se,
                      parts="; ".join(parts))
    if odds.get("method") == "monte carlo":                       # fight-phase
        runs = odds["runs"]
        ses = [0.0]
        for u in odds["units"]:
            ses.append(u["p_destroyed_se"])
            for key in ("models_removed", "wounds_caused"):
                ses += [_se(p, runs) for p in u[key].values()]
        return Method(False, runs=runs, largest_se=max(ses), parts="; ".join(parts))
    return Method(True, parts="; ".join(parts))


SAMPLED_RUNS = 100


def sampled_odds(state: Battlefield) -> dict[str, Any]:
    """The baseline: the same rows sampled, ``SAMPLED_RUNS`` seeded runs and no exact walk (the
    ruleset's ``odds(state, exact=False, runs=SAMPLED_RUNS)``), with the challenge odds table
    when the map has one, as ``todays_odds``."""
    report = None
    if state.rules.challenges:
        from tabletop.rules.challenges.report import challenge_odds
        report = challenge_odds(state)
    ruleset = find_ruleset(state.ruleset)
    odds = ruleset.odds(state, exact=False, runs=SAMPLED_RUNS) if ruleset.odds else None
    return {"challenge_odds": report, "odds": odds}


ENGINES = [Engine("sampled 100", sampled_odds, todays_method),
           Engine("engine", todays_odds, todays_method)]


# ------------------------------------------------------------------ timing

def _cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.process_time()
    value = fn()
    return time.process_time() - t0, value


def cold_run(case_name: str, engine_name: str) -> None:
    """Time one case with one engine in this process and print ``{"cpu_s", "method"}`` as
    JSON (the child side of ``_cold``)."""
    import json
    case = next(c for c in CASES if c.name == case_name)
    engine = next(e for e in ENGINES if e.name == engine_name)
    state = case.build()
    t, result = _cpu(lambda: engine.odds(state))
    m = engine.method(result)
    print(json.dumps({"cpu_s": t, "method": [m.exact, m.histories, m.runs, m.largest_se,
                                             m.parts]}))


def child_env() -> dict[str, str]:
    """The environment of a timed run: this one, but with Python's compiled-module cache
    on, kept in ``PYCACHE`` (the bench's own folder, never the package's).  A person who
    runs ``tabletop fight`` twice has the modules compiled once, on the first run; a
    machine set up with ``PYTHONDONTWRITEBYTECODE`` would otherwise compile every lazily
    imported module inside each timed run.  ``time_case`` makes one untimed run first, so
    every timed run reads the cache."""
    import os
    import tempfile
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), PYCACHE)
    return env


PYCACHE = "tabletop-bench-pycache"


def _cold(case_name: str, engine_name: str) -> tuple[float, Method]:
    import json
    import subprocess
    import sys
    code = ("import sys; from tabletop.bench.odds_bench import cold_run; "
            "cold_run(sys.argv[1], sys.argv[2])")
    out = subprocess.run([sys.executable, "-c", code, case_name, engine_name], check=True,
                         capture_output=True, text=True, cwd=str(Path(__file__).resolve().parents[2]),
                         env=child_env())
    d = json.loads(out.stdout.strip().splitlines()[-1])
    return d["cpu_s"], Method(*d["method"])


def time_case(case: OddsCase, engine: Engine, repeats: int) -> dict[str, Any]:
    """Median CPU seconds of ``engine.odds`` on the case's map over ``repeats`` runs, each in a
    fresh Python process (``cold_run``: no cache of an earlier run helps, as for a person
    running ``tabletop fight MAP --odds``; the import and the map's loading are outside the
    clock, the lazy imports inside it), after one untimed run that compiles the modules
    (``child_env``), with the method of the last run."""
    state = case.build()
    _cold(case.name, engine.name)                 # untimed: fills the compiled-module cache
    times, m = [], None
    for _ in range(repeats):
        t, m = _cold(case.name, engine.name)
        times.append(t)
    assert m is not None
    return {"benchmark": "odds", "case": case.name, "engine": engine.name,
            "models": sum(len(u.models) for u in state.units), "runs": repeats,
            "cpu_s": statistics.median(times), "times_s": times, "method": m.name,
            "method_text": m.text(), "histories": m.histories, "mc_runs": m.runs,
            "largest_se": m.largest_se, "target_s": case.target_s,
            "target_method": case.target_method, "over_target": statistics.median(times) / case.target_s}


def run(sizes: list[int], seed: int, out: Callable[[str], None], *, repeat: int | None = None,
        skip_slow: bool = False) -> list[dict[str, Any]]:
    """Time every case (``sizes`` and ``seed`` are not used: the cases are fixed maps and
    each engine's own seeds); print the table, then the count distributions."""
    cases = [c for c in CASES if not (skip_slow and c.slow)]
    out("odds: CPU s of `fight MAP --odds` (time.process_time, median of the runs shown, each "
        "run in a fresh process); "
        f"{ENGINES[0].name} is the baseline; targets from issue 9")
    out(f"{'case':<17} {'engine':<15} {'runs':>4} {'CPU s':>8} {'ratio':>6} {'target s':>9} "
        f"{'x target':>9} {'largest SE':>11}  method (target)")
    rows = []
    for case in cases:
        n = repeat if repeat is not None else (SLOW_REPEATS if case.slow else REPEATS)
        base = None
        for engine in ENGINES:
            row = time_case(case, engine, n)
            base = base if base is not None else row["cpu_s"]
            row["ratio"] = base / row["cpu_s"] if row["cpu_s"] > 0 else 1.0
            se = "-" if row["largest_se"] is None else f"{100 * row['largest_se']:.1f} pp"
            out(f"{case.name:<17} {engine.name:<15} {n:>4} {row['cpu_s']:>8.3f} "
                f"{row['ratio']:>5.1f}x {case.target_s:>9g} {row['over_target']:>8.1f}x "
                f"{se:>11}  {row['method_text']} ({case.target_method})")
            rows.append(row)
    if skip_slow:
        out("slow cases skipped (--skip-slow): "
            + ", ".join(c.name for c in CASES if c.slow))
    fewer = sorted({r["runs"] for r in rows if r["runs"] < REPEATS})
    if fewer:
        out(f"runs under {REPEATS}: medians of {', '.join(map(str, fewer))} "
            "(slow cases; --repeat N for more)")
    out("ratio = baseline CPU s / engine CPU s; x target = CPU s / target s (under 1 meets it); "
        "largest SE: of any probability printed, in percentage points")
    out("")
    rows += count_bench.run(out, repeat=repeat)
    return rows


BENCHMARK = Benchmark("odds", "odds of issue 9's target cases, the engine vs. sampling and the targets",
                      run, options=("repeat", "skip_slow"))
