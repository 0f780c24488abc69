"""``tabletop roster ROSTER --map TABLE.toml --player ID -o OUT.toml [--zone Z] [--frontage N]
[--base "Unit=32mm" ...] [--force] [--json]``: an exported army list as units of a map.

Reads BattleScribe ``.ros``/``.rosz``, New Recruit ``.json`` and the 40K app's text export
(``tabletop/roster/read.py``), gives every model its base from the shipped table
(``tabletop/roster/base_table.py``) or ``--base``, places the units in the player's
deployment zone (``tabletop/roster/deploy.py``) and writes OUT (never over the map read,
over another existing file only with ``--force``, never into a folder that does not exist;
everything else the map holds is kept).  A name the table does not know stops the command
(exit 2) with one line per unit naming the nearest names it knows.
"""

from __future__ import annotations

import os

from tabletop.board.limits import MAX_UNIT_MODELS
from tabletop.cli.common import check_out, load_map, print_json
from tabletop.cli.output import add_force, cannot_write
from tabletop.errors import TabletopError, capped

HELP = "place an exported army list (BattleScribe, New Recruit, 40K app) in a deployment zone"


def run(args) -> int:
    from tabletop.roster.deploy import (
        check_ruleset,
        deploy,
        parse_overrides,
        pick_zone,
        resolve_bases,
    )
    from tabletop.roster.read import read_roster
    from tabletop.rules.describe import plural

    if args.frontage is not None and not 1 <= args.frontage <= MAX_UNIT_MODELS:
        # a block wider than the largest unit a map may hold has no second rank to form
        raise TabletopError(f"--frontage {args.frontage}: a block is 1 to {MAX_UNIT_MODELS} "
                            f"files wide (MAX_UNIT_MODELS)")
    check_out(args.out, args.map, args.force)      # its folder too: roster never makes one
    overrides = parse_overrides(args.base or [])
    state = load_map(args.map)
    zone = pick_zone(state, args.player, args.zone, args.map)
    roster = read_roster(args.roster)
    if not roster.units:
        raise TabletopError(f"{args.roster}: no units in the roster; nothing to place")
    check_ruleset(state, roster.system, args.roster)
    resolved = resolve_bases(roster, overrides, args.roster)
    placed = deploy(state, resolved, roster.system, args.player, zone, args.roster,
                    frontage=args.frontage)
    _write(placed, args)
    if args.json:
        print_json({"roster": args.roster, "format": roster.format, "system": roster.system,
                    "system_name": roster.system_name, "faction": roster.faction,
                    "map": args.map, "out": args.out, "player": args.player,
                    "zone": placed.zone.name, "facing": placed.facing,
                    "models": sum(u["models"] for u in placed.units), "units": placed.units,
                    "warnings": list(roster.warnings)})
    else:
        print(f"{args.roster}: {plural(len(placed.units), 'unit')}, "
              f"{plural(sum(u['models'] for u in placed.units), 'model')} ({roster.system_name}) "
              f"placed in "
              f"{placed.zone.name or 'the zone of ' + args.player}, facing {placed.facing:g} deg")
        for u in placed.units:
            shape = (f"block {u['files']} x {u['ranks']}" if u["layout"] == "block"
                     else "cluster")
            given = " (--base)" if u["base_given"] else ""
            name = u["name"] if u["datasheet"] == u["name"] else f"{u['name']} ({u['datasheet']})"
            print(f"  {u['id']}: {name}, {plural(u['models'], 'model')} on "
                  f"{'/'.join(u['bases'])}{given}, {shape}")
        for line in capped(roster.warnings, what="warning"):   # as many lines as an error at most
            print(f"warning: {line}")
        print(f"wrote {args.out}")
    return 0


def _write(placed, args) -> None:
    """OUT: the map's text with the roster's units as ``[[units]]`` tables, one model a line,
    under a header naming the roster and the map (``roster/write.py``)."""
    from tabletop.board.writes import write_atomic
    from tabletop.roster.write import roster_map_text
    check_out(args.out, args.map, args.force)
    text = roster_map_text(placed.state, placed.tables, args.map,
                           f"Placed by tabletop roster: {os.path.basename(args.roster)} on "
                           f"{os.path.basename(args.map)} (player {args.player})")
    try:
        write_atomic(args.out, text, force=args.force, keep=(args.map,))
    except TabletopError:
        raise
    except OSError as exc:
        raise TabletopError(cannot_write(args.out, exc)) from None


def add_parser(sub) -> None:
    p = sub.add_parser("roster", help=HELP, description=(
        "Read an exported army list (BattleScribe .ros/.rosz, New Recruit .json, the 40K "
        "app's text export), give each model its base from the shipped base-size table, "
        "and place the units in the player's deployment zone of MAP, written to OUT."))
    p.add_argument("roster", metavar="ROSTER")
    p.add_argument("--map", required=True, metavar="TABLE.toml", help="the map to deploy on")
    p.add_argument("--player", required=True, metavar="ID", help="the player the units belong to")
    p.add_argument("-o", "--out", required=True, metavar="OUT.toml",
                   help="the map to write (never the map read)")
    p.add_argument("--zone", metavar="Z",
                   help="the deployment zone (name or number) when the player has several")
    p.add_argument("--frontage", type=int, metavar="N",
                   help="files of a rank-and-flank block (default: [rules] roster_frontage, 5)")
    p.add_argument("--base", action="append", metavar="\"NAME[/MODEL]=SIZE\"",
                   help="a base for a unit or model the table does not know, e.g. "
                        "\"Gretchin=25mm\", or for one model of a unit, "
                        "\"Mek Gunz/Mek Gun=60mm\" (repeatable)")
    add_force(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run)
