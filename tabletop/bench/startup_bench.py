"""Benchmark ``startup``: how long a person waits for ``tabletop --help`` and for a
command's own ``--help``, beside two baselines run in the same session (issue 11 item 4).

Each row is one command line run in a fresh Python process; its CPU time is the child's
user + system time (``resource.getrusage(RUSAGE_CHILDREN)`` before and after), the median
of ``REPEATS`` runs after one untimed run that fills the compiled-module cache
(``odds_bench.child_env``: a person runs a command many times; a machine set up with
``PYTHONDONTWRITEBYTECODE`` would otherwise compile inside every run).

Baselines, measured the same way in the same run:

- ``python -c pass``: the interpreter alone, the floor no command can go under;
- ``import every command``: every command module imported before the parser is built,
  with the map reader, geometry and rules the command modules imported at their top before
  issue 11 (``PRE_ISSUE_11_IMPORTS``): what ``tabletop --help`` did then, so the ratio
  shows what importing only what is used saves.

Then one row per command's own ``--help`` (``tabletop CMD --help``, every command of
``COMMANDS``): the command module alone is imported, its heavy imports wait for its run.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabletop.bench import Benchmark
from tabletop.cli import COMMANDS

REPEATS = 5

#: what the command modules imported at their top before issue 11 item 4 (the map reader,
#: the geometry snapshot, the rulesets and the charge and move rules), for the baseline row
PRE_ISSUE_11_IMPORTS = ("tabletop.board.mapfile", "tabletop.geometry",
                        "tabletop.rules.registry", "tabletop.rules.charge_plan",
                        "tabletop.rules.move_check", "tabletop.cli.event_text")

#: (row name, python arguments) timed, in the order printed; the first two are the baselines
LINES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("python -c pass", ("-c", "pass")),
    ("import every command",
     ("-c", "import importlib; from tabletop.cli import COMMANDS; "
            "[importlib.import_module('tabletop.cli.' + c.replace('-', '_') + '_cmd') "
            f"for c in COMMANDS]; [importlib.import_module(m) for m in {PRE_ISSUE_11_IMPORTS!r}]")),
    ("tabletop --help", ("-m", "tabletop", "--help")),
    ("tabletop check --help", ("-m", "tabletop", "check", "--help")),
    ("tabletop fight --help", ("-m", "tabletop", "fight", "--help")),
    *((f"tabletop {cmd} --help", ("-m", "tabletop", cmd, "--help"))
      for cmd in COMMANDS if cmd not in ("check", "fight")),
)
BASELINE, ALL_IMPORTS = LINES[0][0], LINES[1][0]


def child_cpu(args: tuple[str, ...]) -> float:
    """CPU seconds (user + system) of one ``python ARGS`` run in a fresh process, with the
    bench's compiled-module cache (``odds_bench.child_env``).

    Raises
    ------
    subprocess.CalledProcessError
        When the command exits with a status other than 0.
    """
    from tabletop.bench.odds_bench import child_env
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, *args], check=True, capture_output=True,
                   cwd=str(Path(__file__).resolve().parents[2]), env=child_env())
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def time_line(args: tuple[str, ...], repeats: int | None = None) -> list[float]:
    """CPU seconds of ``repeats`` (default ``REPEATS``) timed runs of ``python ARGS``, after
    one untimed run."""
    child_cpu(args)
    return [child_cpu(args) for _ in range(REPEATS if repeats is None else repeats)]


def run(sizes: list[int], seed: int, out: Callable[[str], None]) -> list[dict[str, Any]]:
    """Time every line of ``LINES`` (``sizes`` and ``seed`` are not used) and print each
    median beside the two baselines: ``x python`` is the ratio to the bare interpreter,
    ``x all`` to importing every command."""
    medians: dict[str, float] = {}
    rows = []
    out(f"startup: CPU ms of a fresh process (user + system, median of {REPEATS} runs, one "
        "untimed run first); baselines: the bare interpreter and importing every command")
    out(f"{'command line':<30} {'CPU ms':>8} {'x python':>9} {'x all':>7}")
    for name, args in LINES:
        times = time_line(args)
        med = statistics.median(times)
        medians[name] = med
        base, every = medians[BASELINE], medians.get(ALL_IMPORTS, med)
        out(f"{name:<30} {med * 1e3:8.1f} {med / base:9.1f} {med / every:7.2f}")
        rows.append({"benchmark": "startup", "case": name, "cpu_s": med, "times_s": times,
                     "runs": len(times), "baseline_s": base, "all_imports_s": every,
                     "ratio_python": med / base, "ratio_all_imports": med / every})
    return rows


BENCHMARK = Benchmark("startup", "CPU time of `tabletop --help` and every command's --help, "
                      "beside a bare python and importing every command", run)
