"""``tabletop view MAP [--size WxH] [--fight [--play] [--seed N]]``: the interactive window (keys: press h in it).

``--fight`` resolves the map's combat phase with its ruleset (as ``tabletop
fight`` does) and opens the window on its steps: ``n``/``p`` step through.
``--play`` (implies ``--fight``) resolves it while the window is open and the
person at it answers every choice the map's ``[[decisions]]`` do not script
(``tabletop.app.interactive``); the steps appear as they are resolved, and
``s`` saves the run (map as read, seed, answers) for ``tabletop fight`` to replay.
"""

from __future__ import annotations

import re

from tabletop.cli.common import MAX_WINDOW_PX, MIN_WINDOW_PX, check_seed, load_map
from tabletop.errors import TabletopError


def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not m:
        raise TabletopError(f"--size: {text!r} is not WIDTHxHEIGHT in pixels, e.g. 1400x900")
    w, h = int(m.group(1)), int(m.group(2))
    if not (MIN_WINDOW_PX[0] <= w <= MAX_WINDOW_PX[0] and MIN_WINDOW_PX[1] <= h <= MAX_WINDOW_PX[1]):
        raise TabletopError(f"--size {text}: give WIDTHxHEIGHT in pixels, from "
                            f"{MIN_WINDOW_PX[0]}x{MIN_WINDOW_PX[1]} to "
                            f"{MAX_WINDOW_PX[0]}x{MAX_WINDOW_PX[1]} (e.g. 1400x900)")
    return w, h


def run(args) -> int:
    check_seed(getattr(args, "seed", None), command="tabletop view")
    state = load_map(args.map)
    size = _size(args.size) if args.size is not None else None
    from tabletop.app.window import run as run_window  # pygame only when a window is wanted

    if getattr(args, "play", False):
        from tabletop.app.interactive import PlaySession
        from tabletop.cli.fight_cmd import ruleset_for
        if ruleset_for(state).fight is None:
            raise TabletopError(f"{args.map}: ruleset {state.ruleset!r} cannot resolve a fight")
        return run_window(state, args.map, size=size, play=PlaySession(state, args.seed))
    if getattr(args, "fight", False):
        from tabletop.cli.fight_cmd import resolve
        res = resolve(state, args.seed)
        return run_window(state, args.map, steps=res.log.steps, events=res.log.events, size=size)
    return run_window(state, args.map, size=size)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "view", help="the interactive window",
        description="Open the board: select, measure (ruler snaps edge to edge), move models, "
                    "overlays, save to a new file. Press h in the window for the keys.")
    p.add_argument("map", metavar="MAP")
    p.add_argument("--size", default=None, metavar="WxH",
                   help="window size in pixels (default: fit the screen; resizable)")
    p.add_argument("--fight", action="store_true",
                   help="resolve the combat phase and step through it (n/p)")
    p.add_argument("--play", action="store_true",
                   help="with --fight: you answer each choice (which unit fights next, gambits, ...) "
                        "while the phase is resolved; implies --fight")
    p.add_argument("--seed", type=int,
                   help="dice seed for --fight (default: the map's [map] seed, else random)")
    p.set_defaults(run=run)
