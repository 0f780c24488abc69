"""``tabletop edit [MAP] [--table 44x60] [-o OUT.toml] [--roster ROSTER --player ID]``: the
table editor (keys: press h in it, or the README's "Editing a table").

Without MAP the window opens on a blank table of ``--table`` inches (default 44x60; the
long side lies along x, as every shipped map's does), ruleset ``--ruleset`` (fight-phase),
players ``BLANK_PLAYERS``.  ``s`` saves to ``-o`` (else the next free name beside MAP);
over an existing file - the MAP opened above all - only once ``y`` answers in the window.
``--roster`` with ``--player`` reads an army list as ``tabletop roster`` does (every model
given its base, or one line per unknown name) and ``U`` drops its units one by one.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from tabletop.board.limits import MAX_TABLE_INCHES
from tabletop.cli.common import load_map
from tabletop.errors import TabletopError

if TYPE_CHECKING:   # the map reader is imported where it is used: --help reads no map
    from tabletop.board.state import Battlefield

HELP = "the table editor: place terrain, objectives, zones and units, and save a map"

DEFAULT_TABLE = "44x60"
"""Named default: a blank table is 44" x 60", the 40K Strike Force table of the shipped
layouts."""

BLANK_PLAYERS = ("red", "blue")
"""Named default: a blank table's two players (the first active); ``--player`` names the
first instead when it is neither."""


MIN_TABLE_SIDE_IN = 12.0
"""Named default: the shortest side ``--table`` takes (inches).  The editor's largest
template is a 12" ruin; a table it cannot hold is a typing slip (0.1x0.1), not a table."""


def parse_table(text: str) -> tuple[float, float]:
    """``"44x60"`` -> (60.0, 44.0): (width along x, depth along y), inches, the long side
    along x whichever is written first.

    Raises
    ------
    TabletopError
        Not two positive numbers joined by x, or a side under ``MIN_TABLE_SIDE_IN`` or
        over ``MAX_TABLE_INCHES``.
    """
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[xX]\s*(\d+(?:\.\d+)?)\s*", text)
    if not m:
        raise TabletopError(f"--table {text!r}: give two sides in inches, e.g. 44x60")
    a, b = float(m.group(1)), float(m.group(2))
    if not (MIN_TABLE_SIDE_IN <= a <= MAX_TABLE_INCHES and MIN_TABLE_SIDE_IN <= b <= MAX_TABLE_INCHES
            and math.isfinite(a + b)):
        raise TabletopError(f"--table {text}: each side from {MIN_TABLE_SIDE_IN:g} to "
                            f"{MAX_TABLE_INCHES:g} inches")
    return max(a, b), min(a, b)


def blank_table(width: float, depth: float, ruleset: str, first: str | None = None) -> Battlefield:
    """An empty table: no terrain, objectives, zones or units; two players."""
    from tabletop.board import mapfile

    players = list(BLANK_PLAYERS)
    if first and first not in players:
        players[0] = first
    state = mapfile.from_dict({
        "map": {"name": "New table", "ruleset": ruleset, "width": width, "depth": depth},
        "players": [{"id": players[0], "active": True}, {"id": players[1]}]}, path="<blank table>")
    return replace(state, path=None)        # no file: no autosave, s saves to a new name


def build(args) -> tuple[Battlefield, str | None, dict]:
    """(the state, the map path or None, ``Editor`` keyword arguments) for ``args``.

    Raises
    ------
    TabletopError
        A bad MAP, ``--table``, ``-o``, roster or player (one line each; exit 2).
    """
    if args.out is not None:
        if os.path.isdir(args.out):
            raise TabletopError(f"{args.out}: -o is a folder; give a file name such as "
                                f"{os.path.join(args.out, 'table.toml')}")
        if not args.out.lower().endswith(".toml"):
            raise TabletopError(f"{args.out}: -o writes a map file; give a name ending in .toml")
        from tabletop.cli.output import check_output_folder
        check_output_folder(args.out)              # the editor's save makes no folders either
    if (args.roster is None) != (args.player is None):
        raise TabletopError("--roster and --player go together: the units need a player")
    roster = resolved = None
    if args.roster is not None:
        from tabletop.roster.deploy import parse_overrides, resolve_bases
        from tabletop.roster.read import read_roster
        roster = read_roster(args.roster)
        resolved = resolve_bases(roster, parse_overrides(args.base or []), args.roster)
    if args.map is not None:
        if args.table is not None:
            raise TabletopError("--table is for a blank table; MAP has its own size")
        state = load_map(args.map)
    else:
        from tabletop.roster.deploy import RULESET
        ruleset = RULESET[roster.system] if roster is not None else args.ruleset
        w, d = parse_table(args.table or DEFAULT_TABLE)
        state = blank_table(w, d, ruleset, args.player)
    if args.player is not None and args.player not in [p.id for p in state.players]:
        raise TabletopError(f"{args.map or '<blank table>'}: --player {args.player!r}: no such "
                            f"player (players are "
                            f"{', '.join(p.id for p in state.players)})")
    if roster is not None:
        from tabletop.roster.deploy import RULESET
        if RULESET[roster.system] != state.ruleset:
            raise TabletopError(f"{args.roster}: a {roster.system} roster is laid out for "
                                f"{RULESET[roster.system]}, but the map's ruleset is "
                                f"{state.ruleset}")
    edit = {"out": args.out, "roster": resolved, "system": roster.system if roster else None,
            "player": args.player}
    return state, args.map, edit


def run(args) -> int:
    state, path, edit = build(args)
    from tabletop.app.window import run as run_window  # pygame only when a window is wanted
    from tabletop.cli.view_cmd import _size
    size = _size(args.size) if args.size is not None else None
    return run_window(state, path, size=size, edit=edit)


def add_parser(sub) -> None:
    p = sub.add_parser("edit", help=HELP, description=(
        "Open the table editor on MAP, or on a blank table: place ruins, barricades and free "
        "polygons from templates, objectives, deployment zones and units; move, turn (15 "
        "degrees), mirror; s saves to -o. Press h in the window for the keys."))
    p.add_argument("map", metavar="MAP", nargs="?", default=None)
    p.add_argument("--table", metavar="AxB", default=None,
                   help="a blank table's sides in inches, the long side along x "
                        f"(default {DEFAULT_TABLE})")
    p.add_argument("--ruleset", choices=("fight-phase", "rank-and-flank"), default="fight-phase",
                   help="a blank table's ruleset (default fight-phase; a roster's system decides)")
    p.add_argument("-o", "--out", metavar="OUT.toml", default=None,
                   help="where s saves (default: a new file beside MAP); an existing file only "
                        "after y in the window")
    p.add_argument("--roster", metavar="ROSTER", help="an army list whose units U drops")
    p.add_argument("--player", metavar="ID", help="the player the roster's units belong to")
    p.add_argument("--base", action="append", metavar="\"NAME=SIZE\"",
                   help="a base for a roster unit the table does not know (repeatable)")
    p.add_argument("--size", default=None, metavar="WxH",
                   help="window size in pixels (default: fit the screen; resizable)")
    p.set_defaults(run=run)
