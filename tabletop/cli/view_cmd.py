"""``tabletop view MAP [--size WxH]``: the interactive window (keys: press h in it)."""

from __future__ import annotations

import re

from tabletop.cli.common import load_map
from tabletop.errors import TabletopError


def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not m:
        raise TabletopError(f"--size: {text!r} is not WIDTHxHEIGHT in pixels, e.g. 1400x900")
    return int(m.group(1)), int(m.group(2))


def run(args) -> int:
    state = load_map(args.map)
    size = _size(args.size)
    from tabletop.app.window import run as run_window  # pygame only when a window is wanted

    return run_window(state, args.map, size=size)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "view", help="the interactive window",
        description="Open the board: select, measure (ruler snaps edge to edge), move models, "
                    "overlays, save to a new file. Press h in the window for the keys.")
    p.add_argument("map", metavar="MAP")
    p.add_argument("--size", default="1400x900", metavar="WxH", help="window size in pixels")
    p.set_defaults(run=run)
