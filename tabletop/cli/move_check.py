"""``pile-in|consolidate MAP UNIT --check MOVED [--json]``: judge a move someone else made.

MOVED gives UNIT's models where the move puts them:

- a map file (TOML; e.g. one saved from the window or written by hand):
  UNIT's models are matched by id (``<unit>/<n>``; a model absent from
  MOVED, or where it stood on MAP, stays put).  Only UNIT is read from it;
  every other unit stands where MAP has it.  A map holds no paths, so each
  moved model goes in a straight line (``rules.move_check.CHECK_PATHS``);
- the JSON object ``pile-in --json`` / ``consolidate --json`` prints: its
  ``moves`` give each model's path, which is judged as given.

The move is set up from MAP exactly as the real one (eligibility, mode,
targets through ``[[decisions]]`` or the named defaults), then every broken
clause is printed, one line each, with the numbers and the rule clause.
Exit 0 legal; 1 a clause is broken (or the unit may not make the move);
2 bad input (UNIT missing from MAP or MOVED, MOVED unreadable, a model of
MOVED that UNIT on MAP does not have, ``-o`` given with ``--check``).
"""

from __future__ import annotations

import json
import math
from typing import Any

from tabletop.board.mapfile import read_file
from tabletop.board.state import Battlefield
from tabletop.cli.common import load_map, need_unit, print_json
from tabletop.errors import TabletopError
from tabletop.rules.decisions import Decisions
from tabletop.rules.events import EventLog
from tabletop.rules.move_check import MoveCheck, check_move, move_setup

XY = tuple[float, float]


def read_moved(path: str, state: Battlefield,
               unit_id: str) -> tuple[dict[str, XY], dict[str, list[XY]] | None]:
    """UNIT's proposed positions (and paths, from a JSON move) in ``path``.

    Raises
    ------
    TabletopError
        One line per problem: unreadable file, no such unit, a model UNIT
        does not have on MAP, a malformed path.
    """
    if path.lower().endswith(".json"):
        return _read_json(path, state, unit_id)
    moved = load_map(path)
    need_unit(moved, unit_id)
    mine = {m.id for m in state.unit(unit_id).models}
    problems = [f"{path}: {m.id}: {unit_id} has no such model on {state.path}"
                for m in moved.unit(unit_id).models if m.id not in mine]
    if problems:
        raise TabletopError(problems)
    return {m.id: (float(m.x), float(m.y)) for m in moved.unit(unit_id).models}, None


def _read_json(path: str, state: Battlefield,
               unit_id: str) -> tuple[dict[str, XY], dict[str, list[XY]]]:
    try:
        obj = json.loads(read_file(path, "JSON file").decode("utf-8"))
    except UnicodeDecodeError:
        raise TabletopError(f"{path}: cannot read: not UTF-8 text") from None
    except RecursionError:
        raise TabletopError(f"{path}: arrays or objects nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise TabletopError(f"{path}: line {exc.lineno} column {exc.colno}: invalid JSON: "
                            f"{exc.msg}") from None
    moves = obj.get("moves") if isinstance(obj, dict) else None
    if not isinstance(moves, dict):
        raise TabletopError(f"{path}: moves: missing; give the JSON object that "
                            f"pile-in --json / consolidate --json prints, or a map file")
    if obj.get("unit") not in (None, unit_id):
        raise TabletopError(f"{path}: unit: these are {obj['unit']}'s moves, not {unit_id}'s")
    mine = {m.id for m in state.unit(unit_id).models}
    problems: list[str] = []
    paths: dict[str, list[XY]] = {}
    for m, p in moves.items():
        if m not in mine:
            problems.append(f"{path}: moves.{m}: {unit_id} has no such model on {state.path}")
            continue
        ok = isinstance(p, list) and p and all(
            isinstance(q, list) and len(q) == 2 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                for v in q) for q in p)
        if not ok:
            problems.append(f"{path}: moves.{m}: a path is a list of [x, y] points (inches)")
            continue
        paths[m] = [(float(x), float(y)) for x, y in p]
    if problems:
        raise TabletopError(problems)
    return {m: p[-1] for m, p in paths.items()}, paths


def check_json(check: MoveCheck, source: str, given_paths: bool) -> dict[str, Any]:
    s = check.setup
    return {
        "unit": s.unit, "move": s.kind, "mode": s.mode, "rule": s.rule,
        "targets": list(s.targets), "legal": check.legal, "reason": s.refusal,
        "source": source, "paths": "given" if given_paths else "straight",
        "moves": {m: [[round(x, 4), round(y, 4)] for x, y in p] for m, p in check.paths.items()},
        "distances": {m: round(d, 4) for m, d in check.distances.items()},
        "violations": [{"model": v.model, "clause": v.clause, "message": v.message}
                       for v in check.violations],
    }


def run_check(args, hook: str, **kw: Any) -> int:
    """``--check``: see the module docstring."""
    from tabletop.cli.move_report import print_overridden
    if args.out:
        raise TabletopError(f"{args.out}: --check judges a move and writes nothing; drop -o")
    state = load_map(args.map)
    need_unit(state, args.unit)
    positions, paths = read_moved(args.check, state, args.unit)
    log = EventLog()
    setup = move_setup(state, args.unit, hook, Decisions(state.decisions, log), log, **kw)
    print_overridden(log, args.map)
    check = check_move(state, setup, positions, paths)
    if args.json:
        print_json(check_json(check, args.check, paths is not None))
        return 0 if check.legal else 1
    if not setup.eligible:
        print(check.lines()[0])
        return 1
    how = "along the paths in" if paths is not None else "as placed in"
    straight = "" if paths is not None else " (straight paths)"
    print(f"{setup.describe()}, {how} {args.check}{straight}: {check.verdict()}")
    for line in check.move_lines() or ["no model moved"]:
        print(f"  {line}")
    if check.legal:
        print("The validator finds no broken clause.")
        return 0
    print("broken:")
    for line in check.lines():
        print(f"  {line}")
    return 1
