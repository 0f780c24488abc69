"""``tabletop consolidate MAP UNIT -o OUT.toml [--json] [--fought]``: one consolidation move (12.08).

The mode is the one 12.08 requires (ongoing if engaged, else engaging if
enemy units are within 3", else objective if objectives are within 3");
targets from ``[[decisions]]`` (choice ``consolidation_targets``) or the
default policy's search from the named defaults (``fight_phase/targets.py``).  A unit must have been eligible to fight this phase: engaged
or charged on the map, or ``--fought`` (e.g. it destroyed the unit it
fought).  Exit 0 moved; 1 not eligible or no legal move; 2 bad input.

``--check MOVED`` judges UNIT's positions in MOVED as its consolidation from
MAP instead (``move_check.py``; mode and targets as above): exit 0 legal, 1
with one line per broken clause, 2 bad input.
"""

from __future__ import annotations

from tabletop.cli.move_report import add_move_parser, run_move


def run(args) -> int:
    return run_move(args, "consolidate", "consolidate", "consolidates", fought=args.fought)


def add_parser(sub) -> None:
    p = add_move_parser(sub, "consolidate",
                        "make a unit's consolidation move and write the map after it", run)
    p.add_argument("--fought", action="store_true",
                   help="the unit was eligible to fight this phase though it is no longer engaged")
