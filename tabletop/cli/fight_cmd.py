"""``tabletop fight MAP [--seed N] [-o OUT.toml] [--frames DIR] [--json] [--odds]``.

Resolves the map's combat phase end to end through its ruleset,
``find_ruleset(state.ruleset).fight(state, dice, decisions, log) ->
Resolution``, so it serves every ruleset that registers a ``fight`` hook.
The text output prints each event as it happens (every roll with its
purpose, dice, target and result); ``--json`` prints
``{"events": [...], "steps": [...], "seed": N, ...}`` at the end.  ``-o``
writes the state after the phase (removed models dropped, a unit with none
left dropped, moved models moved, wounds lost and status recorded);
``--frames DIR`` writes one PNG per step, each framed round its own step
(``--frames-view phase``: one view round the whole phase; ``table``: the
whole table).  ``--odds`` prints the ruleset's
odds (``ruleset.odds(state)``; ``--runs N`` and ``--seed N`` passed on
when given) instead of resolving.

Named default ``DEFAULT_SEED``: without ``--seed`` the map's ``[map] seed``
is used (a run saved by ``view --play``), else a seed is drawn at random and
printed, so any run can be replayed.  Exit status 0, or 2 for bad input
(and "no odds for this ruleset").
"""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING, Any

from tabletop.cli.common import (
    check_frames_dir,
    check_out,
    check_runs,
    check_seed,
    load_map,
    print_json,
    write_map,
)
from tabletop.cli.output import add_force, cannot_write
from tabletop.errors import TabletopError, printable

if TYPE_CHECKING:   # the rules are imported where they are used: --help imports none of them
    from tabletop.board.state import Battlefield
    from tabletop.rules.events import EventLog
    from tabletop.rules.registry import Resolution, Ruleset

DEFAULT_SEED = "the map's [map] seed, else random, printed"


def ruleset_for(state: Battlefield) -> Ruleset:
    """The map's ruleset (bad names become one-line errors, exit 2)."""
    from tabletop.rules.registry import find_ruleset

    try:
        return find_ruleset(state.ruleset)
    except ValueError as exc:
        raise TabletopError(f"{state.path}: {exc}") from None


def run_seed(state: Battlefield, seed: int | None) -> int:
    """The dice seed of a run: ``seed`` when given (``--seed``), else the map's own
    (``[map] seed``, written by ``view --play``'s save), else one drawn at random."""
    if seed is not None:
        return seed
    if state.seed is not None:
        return state.seed
    return random.randrange(1, 1_000_000)


def resolve(state: Battlefield, seed: int | None = None, log: EventLog | None = None,
            decisions: Any = None) -> Resolution:
    """Resolve ``state``'s combat phase with its ruleset: seeded dice (``seed``, else the
    map's ``[map] seed``), the map's scripted decisions (through ``decisions``, a
    ``rules.decisions.Decisions`` of them, when the caller wants to read which were used).
    Used by ``fight`` and by ``view --fight``.

    Raises
    ------
    TabletopError
        The ruleset has no ``fight`` hook, or the map lacks what it needs.
    """
    from tabletop.rules.decisions import Decisions
    from tabletop.rules.dice import Dice
    from tabletop.rules.events import EventLog

    ruleset = ruleset_for(state)
    if ruleset.fight is None:
        raise TabletopError(f"{state.path}: ruleset {state.ruleset!r} cannot resolve a fight")
    log = log if log is not None else EventLog()
    dice = Dice(seed if seed is not None else state.seed, log)
    if decisions is None:
        decisions = Decisions(state.decisions, log)
    return ruleset.fight(state, dice, decisions, log)


def unused_decisions(state: Battlefield, decisions: Any) -> list[str]:
    """One ``path: warning: ...`` line per ``[[decisions]]`` entry the phase never asked
    for (a choice this fight has no question of, or more entries than questions): such
    an entry is ignored, and a person who wrote it should know (``decisions.used`` holds
    the indices taken)."""
    out = []
    for i, d in enumerate(state.decisions):
        if i not in decisions.used:
            out.append(f"{state.path}: warning: decisions[{i}]: {d.player}'s {d.choice} "
                       f"= {d.value!r} was never asked this phase; it is ignored")
    return out


def steps_json(log: EventLog) -> list[dict[str, Any]]:
    return [{"title": s.title, "rule": s.rule, "events": [s.events.start, s.events.stop]}
            for s in log.steps]


def write_frames(log: EventLog, folder: str, framing: str = "step") -> list[str]:
    """One PNG per step (``tabletop.render.steps.save_frames``), framed as ``framing``
    says (``step``: each zoomed to its own action; ``phase``: one view round all of
    them; ``table``: the whole table)."""
    try:
        from tabletop.render.steps import save_frames
    except ImportError as exc:
        raise TabletopError(f"{folder}: --frames needs the renderer ({exc})") from None
    try:
        return save_frames(log.steps, folder, log.events, framing=framing)
    except OSError as exc:
        raise TabletopError(cannot_write(folder, exc, "cannot write frames")) from None


def _warn_if_broken(state) -> None:
    """One line on stderr when the table is not legal (the fight still runs)."""
    from tabletop.geometry import snapshot
    from tabletop.rules.describe import plural
    geo = snapshot(state)
    bad = [plural(len(geo.overlaps), "overlapping pair") if geo.overlaps else "",
           f"{plural(len(geo.off_table), 'model')} off the table" if geo.off_table else "",
           f"{plural(len(geo.coherency), 'unit')} out of coherency" if geo.coherency else ""]
    bad = [b for b in bad if b]
    if bad:
        print(f"{state.path}: warning: the table is not legal ({', '.join(bad)}); "
              f"`tabletop check {state.path}` lists them", file=sys.stderr)


def run(args) -> int:
    from tabletop.cli.event_text import printer
    from tabletop.rules.events import EventLog

    for flag, given in (("--exact", args.exact), ("--sample", args.sample),
                        ("--runs", args.runs is not None)):
        if given and not args.odds:
            raise TabletopError(f"tabletop fight: {flag}: only with --odds (it sets how the odds "
                                f"are worked out)")
    check_runs(args.runs, command="tabletop fight")
    if args.exact and args.sample:
        raise TabletopError("tabletop fight: --exact and --sample: give one (weigh every "
                            "outcome, or sample)")
    for flag, given in (("-o", args.out), ("--frames", args.frames),
                        ("--frames-view", getattr(args, "frames_view", None))):
        if given and args.odds:
            raise TabletopError(f"tabletop fight: {flag}: not with --odds (the odds resolve no "
                                f"single fight to write or draw)")
    check_seed(args.seed, command="tabletop fight")
    if args.force and not args.out:
        print("tabletop fight: --force: not used: it lets -o OUT.toml overwrite, and no -o was "
              "given", file=sys.stderr)
    state = load_map(args.map)
    if args.out:
        check_out(args.out, state.path, args.force)
    if getattr(args, "frames_view", None) and not args.frames:
        raise TabletopError("--frames-view: give --frames DIR too")
    if args.frames:
        check_frames_dir(args.frames)
    _warn_if_broken(state)
    ruleset = ruleset_for(state)
    if ruleset.profile_warnings is not None:
        for line in ruleset.profile_warnings(state):
            path, _, text = line.partition(": ")
            print(f"{path}: warning: {text}", file=sys.stderr)
    if args.odds:
        report = None
        if state.rules.challenges:          # challenge odds (tabletop.rules.challenges.report)
            from tabletop.rules.challenges.report import challenge_odds, odds_lines
            report = challenge_odds(state)
            if not args.json:
                print("\n".join(odds_lines(report)))
            if ruleset.odds is None:
                if args.json:
                    print_json(report)
                return 0
        if ruleset.odds is None:
            raise TabletopError(f"{args.map}: no odds for this ruleset ({state.ruleset})")
        opts = {k: v for k, v in (("runs", args.runs), ("seed", args.seed)) if v is not None}
        if args.exact:
            opts["exhaustive"] = True
            if not args.json:
                print("--exact: weighing every chance outcome, up to 200,000 states; a big "
                      "fight can take minutes (--sample is quick)", file=sys.stderr)
        if args.sample:
            opts["exact"] = False
            if not args.json and args.runs is None:
                print("--sample: sampling until every standard error is under 0.5 percentage "
                      "points or the cap of runs; a big table can take minutes (--runs N sets "
                      "the number of runs)", file=sys.stderr)
        odds = ruleset.odds(state, **opts)
        if not args.sample and _exact(odds):
            for flag, value in (("--runs", args.runs), ("--seed", args.seed)):
                if value is not None:
                    print(f"tabletop fight: {flag} {value}: not used: the odds are exact "
                          f"(every chance outcome weighed); --sample samples runs", file=sys.stderr)
        if args.json:
            # the challenge report's own keys stay at the top level too (extend, never break)
            print_json({**report, **odds, "challenge_odds": report}
                       if report is not None and isinstance(odds, dict) else odds)
        elif isinstance(odds, dict) and isinstance(odds.get("text"), str):
            print(odds["text"])
        else:
            for k, v in (odds.items() if isinstance(odds, dict) else [("odds", odds)]):
                print(f"{k}: {v}")
        return 0
    seed = run_seed(state, args.seed)
    log = EventLog()
    header = [f"{state.name} - {state.ruleset}, seed {seed}"]
    if not args.json:
        # the header goes out with the first event, so a map the ruleset refuses before any
        # event (a profile error) prints only its one-line error
        show = printer(sys.stdout)

        def with_header(ev) -> None:
            if header:
                print(header.pop())
            show(ev)
        log.listeners.append(with_header)
    from tabletop.rules.decisions import Decisions
    decisions = Decisions(state.decisions, log)
    res = resolve(state, seed, log, decisions)
    if header and not args.json:
        print(header.pop())
    unused = unused_decisions(state, decisions)
    for line in unused:
        print(printable(line), file=sys.stderr)
    written = write_map(res.state, args.out, state.path, args.force) if args.out else None
    frames = write_frames(log, args.frames, getattr(args, "frames_view", None) or "step") if args.frames else []
    if args.json:
        print_json({"map": state.name, "ruleset": state.ruleset, "seed": seed,
                    "events": log.to_list(), "steps": steps_json(log), "output": written,
                    "frames": frames,
                    "decisions_unused": [i for i in range(len(state.decisions))
                                         if i not in decisions.used]})
        return 0
    if written:
        print(f"Wrote {written}")
    if frames:
        print(f"Wrote {len(frames)} frames to {args.frames}")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("fight", help="resolve the map's combat phase end to end, printing each roll",
                       description="Resolve the map's combat phase with its ruleset, printing each "
                                   "roll. Exit 0, or 2 for bad input.")
    p.add_argument("map", metavar="MAP", help="map file (TOML)")
    p.add_argument("--seed", type=int,
                   help="dice seed (default: the map's [map] seed, else random, printed)")
    p.add_argument("-o", "--out", metavar="OUT.toml", help="write the state after the phase here")
    add_force(p)
    p.add_argument("--frames", metavar="DIR", help="write one PNG per step into DIR")
    p.add_argument("--frames-view", choices=("step", "phase", "table"), default=None,
                   help="frame each PNG round its own step (default), round the whole phase's "
                        "action, or show the whole table")
    p.add_argument("--json", action="store_true", help="print {\"events\": [...], ...} as JSON")
    p.add_argument("--odds", action="store_true", help="print the ruleset's odds instead of resolving")
    p.add_argument("--runs", type=int, metavar="N",
                   help="with --odds: Monte Carlo runs when the odds cannot be enumerated exactly")
    p.add_argument("--sample", action="store_true",
                   help="with --odds: skip the exact walk and sample at once (--runs N runs, "
                        "else until the standard errors are under half a percentage point or "
                        "the cap)")
    p.add_argument("--exact", action="store_true",
                   help="with --odds: weigh every chance outcome however many states it takes "
                        "(up to 200,000) instead of sampling past the usual bound of 6,000")
    p.set_defaults(run=run)


def _exact(odds: object) -> bool:
    """Whether ``odds`` (a ruleset's ``--odds`` result) came out exact: the fight phase's
    ``method``, or every rank-and-flank engagement's."""
    if not isinstance(odds, dict):
        return False
    if "method" in odds:
        return odds["method"] == "exact"
    engagements = odds.get("engagements") or []
    return bool(engagements) and all(e.get("method") == "exact" for e in engagements)
