"""Shared by ``pile-in`` and ``consolidate``: make one move, report it, write the map after it.

``--check MOVED`` judges a proposed move instead (``move_check.py``).

Exit status (docs/map-format.md): 0 the move was made; 1 the unit is not eligible
or no legal move exists (the reason and every broken clause are printed);
2 bad input (unknown unit, a map whose ruleset has no such move).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tabletop.cli.common import check_out, load_map, need_unit, print_json, write_map
from tabletop.cli.output import add_force

if TYPE_CHECKING:   # the geometry and the rules are imported where used: --help needs neither
    from tabletop.board.state import Battlefield
    from tabletop.rules.events import EventLog

SOLVER_MOVE_NOTE = ("(these are the clauses the solver's move breaks, its distances where that "
                    "move ends, not the closest a move could get: judge a move of your own with "
                    "--check)")
"""The line after a "no legal move" list: what its distances measured."""


def _ruleset_hook(state: Battlefield, hook: str, command: str) -> Callable[..., Any]:
    from tabletop.rules.move_check import ruleset_move

    return ruleset_move(state, hook, command)


def move_lines(state: Battlefield, after: Battlefield, outcome) -> list[str]:
    """One line per model: where it went, how far, and how close it ends to its closest target."""
    from tabletop.geometry import snapshot

    geo = snapshot(after)
    paths = outcome.paths
    dist = outcome.distances
    # measure after the move to the closest model of the move's targets (12.03: targets are units)
    target_models = [t for u in outcome.targets if after.has_unit(u) for t in geo.unit_models(u)]
    lines = []
    for m in geo.unit_models(outcome.unit):
        if m in paths:
            a, b = paths[m][0], paths[m][-1]
            text = (f"  {m}: ({a[0]:.2f}, {a[1]:.2f}) -> ({b[0]:.2f}, {b[1]:.2f}) "
                    f"moved {dist[m]:.2f}\"")
        else:
            why = "in base contact with an enemy model" if m in outcome.fixed else "not moved"
            text = f"  {m}: stays ({why})"
        target, d = geo.nearest(m, target_models) if target_models else (None, 0.0)
        if target:
            engaged = " (engaged)" if geo.model_engaged_with_unit(m, target.rsplit("/", 1)[0]) else ""
            text += f"; {d:.2f}\" from {target}{engaged}"
        lines.append(text)
    return lines


def outcome_json(outcome, out: str | None) -> dict[str, Any]:
    from tabletop.rules.fight_phase.moving import violation_dicts
    return {
        "unit": outcome.unit, "mode": outcome.mode, "rule": outcome.rule,
        "targets": list(outcome.targets), "legal": outcome.legal,
        "reason": None if outcome.legal else _no_move_reason(outcome),
        "moves": {m: [[round(x, 4), round(y, 4)] for x, y in p] for m, p in outcome.paths.items()}
        if outcome.legal else {},
        "distances": {m: round(d, 4) for m, d in outcome.distances.items()} if outcome.legal else {},
        "violations": violation_dicts(outcome),
        "output": out,
        "tried": [t.as_dict() for t in getattr(outcome, "tried", ())],
    }


def _no_move_reason(outcome) -> str:
    reason = getattr(outcome, "no_move_reason", None)
    return reason() if reason else (outcome.refusal or "no legal move")


def tried_lines(outcome) -> list[str]:
    """``target selections tried (...)`` and one line per selection, when the default
    policy searched more than one (``fight_phase/targets.py``); else nothing."""
    tried = list(getattr(outcome, "tried", ()))
    if len(tried) <= 1:
        return []
    from tabletop.rules.fight_phase.targets import SELECTION_ORDER_SHORT
    return ([f"  target selections tried ({SELECTION_ORDER_SHORT}):"]
            + [f"    {t.line()}" for t in tried])


def print_overridden(log: EventLog, map_path: str) -> None:
    """A scripted decision the rules could not take, one line each on stderr."""
    for ev in log.of_type("decision_overridden"):
        print(f"{map_path}: decision {ev['choice']} = {ev['value']!r} overridden: {ev['reason']}",
              file=sys.stderr)


def run_move(args, hook: str, command: str, verb: str, **kw: Any) -> int:
    """Make the move ``hook`` ("pile_in" | "consolidate") for ``args.unit``; see module docstring.

    With ``--check MOVED`` judge the move MOVED proposes instead (``cli/move_check.py``).
    """
    from tabletop.rules.decisions import Decisions
    from tabletop.rules.events import EventLog

    if getattr(args, "check", None):
        from tabletop.cli.move_check import run_check
        return run_check(args, hook, **kw)
    state = load_map(args.map)
    if args.out:
        check_out(args.out, state.path, args.force)
    need_unit(state, args.unit)
    fn = _ruleset_hook(state, hook, command)
    log = EventLog()
    outcome = fn(state, args.unit, Decisions(state.decisions, log), log, **kw)
    print_overridden(log, args.map)
    if not outcome.legal:
        if args.json:
            print_json(outcome_json(outcome, None))
        elif outcome.refusal:
            print(f"{args.unit}: {getattr(outcome, 'refusal_kind', 'not eligible')}: "
                  f"{outcome.refusal}")
        else:
            print(f"{args.unit}: no legal move ({outcome.rule}); targets "
                  f"{', '.join(outcome.targets)}")
            for v in outcome.violation_lines():
                print(f"  {v}")
            if outcome.violations:
                print(f"  {SOLVER_MOVE_NOTE}")
            for line in tried_lines(outcome):
                print(line)
        return 1
    after = outcome.state_after(state)
    written = write_map(after, args.out, state.path, args.force) if args.out else None
    if args.json:
        print_json(outcome_json(outcome, written))
        return 0
    mode = "" if outcome.mode == "pile_in" else f" ({outcome.mode})"
    print(f"{args.unit} {verb}{mode} toward {', '.join(outcome.targets)} ({outcome.rule}): "
          f"{len(outcome.paths)} model{'s' if len(outcome.paths) != 1 else ''} moved")
    for line in move_lines(state, after, outcome):
        print(line)
    for line in tried_lines(outcome):
        print(line)
    print("The validator finds no broken clause.")
    if written:
        print(f"Wrote {written}")
    return 0


def add_move_parser(sub, command: str, help_text: str, run: Callable[[Any], int]):
    p = sub.add_parser(command, help=help_text, description=help_text + (
        ". Exit 0 moved, 1 not eligible or no legal move (the broken clauses listed), "
        "2 bad input. With --check MOVED, judge the move MOVED proposes instead: exit 0 legal, "
        "1 a clause broken (one line each), 2 bad input."))
    p.add_argument("map", metavar="MAP", help="map file (TOML)")
    p.add_argument("unit", metavar="UNIT", help="unit id")
    p.add_argument("-o", "--out", metavar="OUT.toml", help="write the map after the move here")
    add_force(p)
    p.add_argument("--json", action="store_true", help="print the move as one JSON object")
    p.add_argument("--check", metavar="MOVED", help=(
        "judge UNIT's positions in MOVED (a map file: straight paths; or the JSON that --json "
        "prints: its paths) as this move from MAP, and list every broken clause"))
    p.set_defaults(run=run)
    return p
