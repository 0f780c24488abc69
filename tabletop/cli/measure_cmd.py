"""``tabletop measure MAP A B [--json]``: edge-to-edge distance between two ids.

A and B are model ids (``int/3``), unit ids (closest models), objective ids
(to the marker's edge) or terrain ids (to the outline).  Prints inches to
0.01"; ``--json`` prints ``{"a": ..., "b": ..., "distance": inches}``.
"""

from __future__ import annotations

from tabletop.cli.common import load_map, print_json
from tabletop.errors import UnknownIdError


def run(args) -> int:
    from tabletop.geometry import snapshot  # here, not at the top: --help imports no geometry

    state = load_map(args.map)
    geo = snapshot(state)
    for name, value in (("A", args.a), ("B", args.b)):
        try:
            geo.kind_of(value)
        except UnknownIdError:
            raise UnknownIdError(
                f"{args.map}: {name}: no model, unit, objective or terrain with id {value!r}") from None
    d = geo.distance(args.a, args.b)
    if args.json:
        print_json({"a": args.a, "b": args.b, "distance": round(d, 6)})
    else:
        ka, kb = geo.kind_of(args.a), geo.kind_of(args.b)
        print(f"{args.a} ({ka}) to {args.b} ({kb}): {d:.2f}\" edge to edge")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("measure", help="edge-to-edge distance between two ids",
                       description="Edge-to-edge distance between two ids: model, unit, objective or terrain.")
    p.add_argument("map", metavar="MAP")
    p.add_argument("a", metavar="A", help="model, unit, objective or terrain id")
    p.add_argument("b", metavar="B", help="model, unit, objective or terrain id")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run)
