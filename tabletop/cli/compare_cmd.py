"""``tabletop compare PUBLISHED MEASURED [--tolerance IN] [--turn-tolerance DEG] [--terrain-only] [--json]
[-o DIFF.png]``: a measured table against its published layout.

Every terrain piece (outline, and which way its walls face), objective and
deployment zone: how far it moved (inches), how far it turned (degrees), in
place or off (``geometry/layout_compare.py``).  Exit 0 when everything is in
place, 1 when something is off, missing or extra, 2 for bad input.
``check MEASURED --layout PUBLISHED`` prints the same under its ``layout`` key.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from tabletop.board.limits import MAX_TABLE_INCHES
from tabletop.cli.common import load_map, print_json
from tabletop.cli.output import add_force, folder_problem, write_problem
from tabletop.errors import TabletopError

if TYPE_CHECKING:   # the geometry is imported where it is used (--help imports none of it)
    from tabletop.geometry.layout_compare import LayoutDiff

__all__ = ["layout_json", "layout_lines", "item_line", "table_line", "picture_out",
           "tolerance_problems",
           "add_parser", "run"]

_DIRECTION = (("right", "left"), ("up", "down"))


def _r(v: float, n: int = 4) -> float:
    return round(v, n) + 0.0        # no -0.0 in the JSON


def layout_json(diff: LayoutDiff) -> dict[str, Any]:
    """The comparison as JSON: tolerances, one object per matched item, missing, extra."""
    return {
        "tolerance": diff.tolerance,
        "turn_tolerance": diff.turn_tolerance,
        "in_place": diff.in_place,
        "off": len(diff.off),
        "items": [{
            "sort": d.sort, "id": d.id, "published_id": d.published_id,
            "matched_by": d.matched_by, "offset": _r(d.offset),
            "shift": [_r(d.shift[0]), _r(d.shift[1])], "turn_deg": _r(d.turn_deg, 2),
            "walls": d.walls, "shape": _r(d.shape), "ok": d.ok, "why": list(d.off),
            "published_at": [_r(d.published_centre[0]), _r(d.published_centre[1])],
            "measured_at": [_r(d.measured_centre[0]), _r(d.measured_centre[1])],
            "kind": d.kind, "published_kind": d.published_kind,
            "outline_distance": _r(d.outline_distance),
            "walls_length": None if d.walls_length is None else _r(d.walls_length),
            "published_walls_length": (None if d.published_walls_length is None
                                       else _r(d.published_walls_length)),
            "walls_face": d.walls_face, "published_walls_face": d.published_walls_face,
            "hint": d.hint,
            "edge_offset": _r(d.edge_offset), "edge": d.edge,
            "edge_from_table": (None if d.edge_from is None
                                else [_r(d.edge_from[0]), _r(d.edge_from[1])]),
        } for d in diff.items],
        "missing_items": [{"sort": m.sort, "id": m.id} for m in diff.missing],
        "extra_items": [{"sort": e.sort, "id": e.id} for e in diff.extra],
        "table": [diff.table[0], diff.table[1]],
        "published_table": [diff.published_table[0], diff.published_table[1]],
        "table_ok": diff.table_ok,
        "terrain_only": diff.terrain_only,
    }


def _moved(dx: float, dy: float) -> str:
    parts = []
    if abs(dx) >= 0.005:
        parts.append(f"{abs(dx):.2f}\" {_DIRECTION[0][dx < 0]}")
    if abs(dy) >= 0.005:
        parts.append(f"{abs(dy):.2f}\" {_DIRECTION[1][dy < 0]}")
    return ", ".join(parts) or "not moved"


def table_line(diff: LayoutDiff) -> str | None:
    """``table 61" x 44", published 60" x 44"`` when the measured table's size differs."""
    return diff.table_text


_SHOWN = ("moved ", "turned ", "walls on the wrong side", "walls face ")


def item_line(d) -> str:
    """One matched item: ``OFF  terrain C: not moved, turned +90.0 deg, walls face south,
    published west``, then any other reason it is off and the swapped-ids hint."""
    name = d.id if d.id == d.published_id else f"{d.id} (published {d.published_id}, by shape)"
    face = f"face {d.walls_face}, published {d.published_walls_face}"
    known = d.walls_face is not None and d.published_walls_face is not None
    if d.walls == "turned":
        # which way they face is told whatever the turn tolerance (it only decides "off")
        walls = f", walls on the wrong side: {face}" if known else ", walls on the wrong side"
    elif any(w.startswith("walls face ") for w in d.off):
        walls = f", walls {face}"
    elif d.walls_face is not None and d.ok:
        walls = ", walls as published"
    else:
        walls = ""
    turn = d.turn_deg + 0.0 if abs(d.turn_deg) >= 0.05 else 0.0     # no "-0.0"
    turned = "" if d.sort == "objective" else f", turned {turn:+.1f} deg{walls}"
    rest = [w for w in d.off if not w.startswith(_SHOWN)]
    if d.hint:
        rest.append(d.hint)
    return (f"  {'OFF ' if not d.ok else 'ok  '} {d.sort} {name}: {_moved(*d.shift)}{turned}"
            + (f"; {'; '.join(rest)}" if rest else ""))


def terrain_only_hint(diff: LayoutDiff, measured) -> str | None:
    """One line suggesting ``--terrain-only`` when the measured table has terrain only (no
    objectives, no deployment zones) and the published layout's are all reported missing;
    None otherwise."""
    if diff.terrain_only or measured.objectives or measured.deployment:
        return None
    if not any(m.sort in ("objective", "deployment") for m in diff.missing):
        return None
    return ("hint: the measured table has terrain only (no objectives, no deployment zones); "
            "give --terrain-only to compare the terrain alone")


def layout_lines(diff: LayoutDiff) -> list[str]:
    """The text report, one line per item, off items first."""
    lines = [f"In place within {diff.tolerance:g}\" and {diff.turn_tolerance:g} deg: "
             f"{len(diff.items) - len(diff.off)} of {len(diff.items)} matched"
             + (f"; {len(diff.missing)} missing" if diff.missing else "")
             + (f"; {len(diff.extra)} extra" if diff.extra else "")
             + ("; terrain only" if diff.terrain_only else "")]
    table = table_line(diff)
    if table:
        lines.append(f"  OFF  {table}")
    lines += [item_line(d) for d in sorted(diff.items, key=lambda d: d.ok)]
    lines += [f"  MISSING {m.sort} {m.id}: in the published layout, not on the table"
              for m in diff.missing]
    lines += [f"  EXTRA   {e.sort} {e.id}: on the table, not in the published layout"
              for e in diff.extra]
    return lines


def picture_out(out: str, inputs: list[str], force: bool = False) -> list[str]:
    """Problems with ``-o OUT.png`` for ``compare`` and ``check`` (one line per problem, one
    problem per cause): an empty name, an input map, a folder, a name not ending .png, an
    existing file without ``--force``, a folder that does not exist (no folder is made) or
    cannot be written."""
    import os

    if not out.strip():
        return ["-o: give a picture file name ending .png (got an empty name)"]
    for path in inputs:
        if os.path.exists(out) and os.path.exists(path) and os.path.samefile(out, path):
            return [f"{out}: -o is the input map {path}; write the picture to a new .png file"]
    if os.path.isdir(out):
        return [f"{out}: -o is a folder; give a file name such as {os.path.join(out, 'diff.png')}"]
    problems = []
    if not out.lower().endswith(".png"):
        problems.append(f"{out}: -o must name a .png file")
    if not force and os.path.lexists(out):
        problems.append(f"{out}: -o: already exists; give --force to replace it, or a new name")
    missing = folder_problem(out)
    if missing:
        problems.append(missing)
    else:
        problems += [p for p in [write_problem(out)] if p]
    return problems


def tolerance_problems(tolerance: float | None, turn_tolerance: float | None,
                       names: tuple[str, str] = ("--tolerance", "--turn-tolerance")
                       ) -> list[str]:
    """One line per bad tolerance given on the command line: inches must be a finite
    number above 0 and at most ``MAX_TABLE_INCHES`` (``inf`` or 1e308 would pass any table,
    0 none), degrees above 0 and at most 180.  ``None`` (not given: the published map's
    value) is fine."""
    problems = []
    if tolerance is not None and not (math.isfinite(tolerance) and 0 < tolerance <= MAX_TABLE_INCHES):
        problems.append(f"{names[0]}: must be a finite number of inches above 0 and at most "
                        f"{MAX_TABLE_INCHES:g} (MAX_TABLE_INCHES), got {tolerance:g}")
    if turn_tolerance is not None and not 0 < turn_tolerance <= 180:
        problems.append(f"{names[1]}: must be degrees above 0 and at most 180, "
                        f"got {turn_tolerance:g}")
    return problems


def _tolerances(args) -> tuple[float | None, float | None]:
    problems = tolerance_problems(args.tolerance, args.turn_tolerance)
    if problems:
        raise TabletopError(problems)
    return args.tolerance, args.turn_tolerance


def run(args) -> int:
    from tabletop.geometry.layout_compare import compare_layouts

    tol, turn_tol = _tolerances(args)
    if args.output is not None:
        from tabletop.cli.render_cmd import headless
        bad = picture_out(args.output, [args.measured, args.published], args.force)
        if bad:
            raise TabletopError(bad)
        headless()
    published = load_map(args.published)
    measured = load_map(args.measured)
    diff = compare_layouts(measured, published, tolerance=tol, turn_tolerance=turn_tol,
                           terrain_only=args.terrain_only)
    wrote = None
    if args.output:
        from tabletop.render.compare import render_compare
        from tabletop.render.image import save_png
        try:
            save_png(render_compare(published, measured, diff), args.output, force=args.force,
                     keep=(args.measured, args.published))
        except TabletopError:
            raise
        except OSError as exc:
            raise TabletopError(f"{args.output}: cannot write: {exc}") from None
        wrote = args.output
    if args.json:
        out = {"published": args.published, "measured": args.measured, **layout_json(diff)}
        if wrote:
            out["picture"] = wrote
        print_json(out)
    else:
        print(f"{measured.name} against the published layout {published.name}")
        print("\n".join(layout_lines(diff)))
        hint = terrain_only_hint(diff, measured)
        if hint:
            print(hint)
        if wrote:
            print(f"wrote {wrote}")
    return 0 if diff.in_place else 1


def add_parser(sub) -> None:
    from tabletop.board.config import LAYOUT_TOLERANCE, LAYOUT_TURN_TOLERANCE

    p = sub.add_parser(
        "compare", help="a measured table against its published layout: moved, turned, walls, missing",
        description="Compare every terrain piece (outline and walls), objective and deployment zone "
                    "of a measured table with the published layout. Exit 0 all in place, 1 something "
                    "off, missing or extra, 2 bad input.")
    p.add_argument("published", metavar="PUBLISHED", help="map file of the published layout")
    p.add_argument("measured", metavar="MEASURED", help="map file of the table as measured")
    p.add_argument("--tolerance", type=float, metavar="IN",
                   help=f"inches an item may be off and still be in place (default: the published "
                        f"map's layout_tolerance, {LAYOUT_TOLERANCE:g})")
    p.add_argument("--turn-tolerance", type=float, metavar="DEG",
                   help=f"degrees an item may be turned (default: layout_turn_tolerance, "
                        f"{LAYOUT_TURN_TOLERANCE:g})")
    p.add_argument("--terrain-only", action="store_true",
                   help="compare the terrain alone: objectives and deployment zones are not "
                        "compared (a table measured for its terrain)")
    p.add_argument("--json", action="store_true", help="print the comparison as one JSON object")
    p.add_argument("-o", "--output", metavar="DIFF.png",
                   help="draw the published layout ghosted under the measured one, with an arrow "
                        "on each item that is off")
    add_force(p)
    p.set_defaults(run=run)
