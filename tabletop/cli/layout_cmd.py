"""``tabletop layout import LAYOUT.json [MORE.json ...] -o MAP.toml [--layout ID]
[--deployment ID] [--force] [--json]`` and ``tabletop layout export MAP.toml -o
LAYOUT.json [--force] [--json]``: the community's terrain-layout JSON (40kdc-data
``terrain-layout`` / ``deployment-pattern`` schemas) into a map and out of one.

Reading and the mapping of heights to kinds are ``tabletop/layout_io/read.py``, writing
``tabletop/layout_io/write.py``.  Files are written through ``board.writes`` (never over
an existing file without ``--force``, never over the file read).
"""

from __future__ import annotations

import json
import sys

from tabletop.cli.common import check_out, load_map, print_json
from tabletop.cli.output import add_force, cannot_write, check_new_output, check_output_folder
from tabletop.errors import TabletopError, capped

HELP = "terrain-layout JSON (40kdc-data schema) into a map, or a map out to it"


def _import(args) -> int:
    from tabletop.board import mapfile
    from tabletop.geometry.layout_checks import shape_problems
    from tabletop.layout_io.read import Sources, read_files, relocate, to_map_dict
    from tabletop.rules.describe import plural

    if not args.out:
        raise TabletopError("tabletop layout import: -o MAP.toml is required")
    check_out(args.out, None, args.force)
    files = ", ".join(args.files)
    sources = Sources()
    data = to_map_dict(read_files(args.files), files, args.layout, args.deployment, sources)
    try:
        state = mapfile.from_dict(data, path=args.out)
    except TabletopError as exc:     # a map error is one of the input file's pieces
        raise TabletopError(relocate(exc.problems, args.out, sources)) from None
    problems = shape_problems(state)
    if problems:
        raise TabletopError(relocate(problems, args.out, sources))
    try:
        mapfile.save(state, args.out, force=args.force, source="",
                     header=f"Imported by tabletop layout import from {files}")
    except OSError as exc:
        raise TabletopError(cannot_write(args.out, exc)) from None
    for w in capped(sources.warnings, what="warning"):   # as many lines as an error at most
        print(f"warning: {w}", file=sys.stderr)
    if args.json:
        print_json({"files": list(args.files), "out": args.out, "name": state.name,
                    "width": state.table.width, "depth": state.table.depth,
                    "terrain": [{"id": t.id, "kind": t.kind, "tall_part": t.tall_part is not None}
                                for t in state.terrain],
                    "objectives": [o.id for o in state.objectives],
                    "deployment": [d.player for d in state.deployment],
                    "warnings": list(sources.warnings)})
    else:
        print(f"{files}: {plural(len(state.terrain), 'terrain piece')}, "
              f"{plural(len(state.objectives), 'objective')}, "
              f"{plural(len(state.deployment), 'deployment zone')} on a {state.table.width:g}\" x "
              f"{state.table.depth:g}\" table (players {', '.join(p.id for p in state.players)})")
        print(f"wrote {args.out}")
    return 0


def _export(args) -> int:
    from tabletop.board.writes import write_atomic
    from tabletop.layout_io.write import to_layout_json

    if len(args.files) != 1:
        raise TabletopError("tabletop layout export: give one map: layout export MAP.toml -o LAYOUT.json")
    src = args.files[0]
    if not args.out:
        raise TabletopError("tabletop layout export: -o LAYOUT.json is required")
    if not args.out.lower().endswith(".json"):
        raise TabletopError(f"{args.out}: -o writes layout JSON; give a name ending in .json")
    check_output_folder(args.out)
    check_new_output(args.out, src, args.force)
    state = load_map(src)
    entities = to_layout_json(state)
    try:
        write_atomic(args.out, json.dumps(entities, indent=2, ensure_ascii=False) + "\n",
                     force=args.force, keep=(src,))
    except TabletopError:
        raise
    except OSError as exc:
        raise TabletopError(cannot_write(args.out, exc)) from None
    layout = entities[0]
    if args.json:
        print_json({"map": src, "out": args.out, "layout_id": layout["id"],
                    "deployment_pattern_id": entities[1]["id"] if len(entities) > 1 else None,
                    "pieces": len(layout["pieces"]), "objectives": len(state.objectives),
                    "zones": len(state.deployment)})
    else:
        print(f"{src}: {len(state.terrain)} terrain pieces ({len(layout['pieces'])} layout pieces), "
              f"{len(state.objectives)} objectives, {len(state.deployment)} deployment zones")
        print(f"wrote {args.out}")
    return 0


def run(args) -> int:
    return _import(args) if args.action == "import" else _export(args)


def add_parser(sub) -> None:
    p = sub.add_parser("layout", help=HELP, description=(
        "import: read terrain-layout JSON (a layout, its deployment pattern and any terrain "
        "templates it names, in one file or several) and write a map of it. "
        "export: write a map's terrain, objectives and deployment zones as layout JSON."))
    p.add_argument("action", choices=("import", "export"))
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="import: the layout JSON file(s); export: the map")
    p.add_argument("-o", "--out", metavar="OUT", help="the map (import) or JSON (export) to write")
    p.add_argument("--layout", metavar="ID", help="import: the layout when the files hold several")
    p.add_argument("--deployment", metavar="ID",
                   help="import: the deployment pattern (default: the one the layout names, "
                        "or the only one given)")
    add_force(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run)
