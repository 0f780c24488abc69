"""``tabletop check MAP [--json]``: the layout report (docs/map-format.md).

Exit status 0 when clean, 1 when problems are found (overlaps, models off the
table, models out of coherency) or warnings given, 2 for bad input: a profile
or weapon value the ruleset's attacks cannot use (``profile_problems``) is
bad input for every command (``cli.common.load_map`` refuses it, exit 2, as
``tabletop fight`` does); only values a map leaves out (``cli.common.MISSING_PROFILE``)
are let pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.board.config import LAYOUT_TOLERANCE, LAYOUT_TURN_TOLERANCE
from tabletop.cli.common import fmt_in, load_map, print_json
from tabletop.cli.compare_cmd import (
    item_line,
    layout_json,
    layout_lines,
    picture_out,
    table_line,
    terrain_only_hint,
    tolerance_problems,
)
from tabletop.cli.output import add_force
from tabletop.errors import TabletopError

if TYPE_CHECKING:   # the geometry and the rules are imported where they are used (--help)
    from tabletop.board.state import Battlefield
    from tabletop.geometry import Geometry

GAPS_SHOWN = 8   # named default: the narrowest terrain gaps the text report lists


def _n(count: int, word: str) -> str:
    """``1 unit``, ``2 units``; words ending in y/s handled."""
    if count == 1:
        return f"{count} {word}"
    if word.endswith("piece"):
        return f"{count} {word}s"
    return f"{count} {word[:-1] + 'ies' if word.endswith('y') else word + 's'}"


def build_report(state: Battlefield, geo: Geometry) -> dict[str, Any]:
    """The ``check --json`` object: pairs sorted, ids within each pair sorted."""
    from tabletop.geometry.layout_checks import layout_warnings, terrain_overlaps

    coherency = [{"unit": uid, "models": list(b.models)} for uid, b in sorted(geo.coherency.items())]
    incoherent = sum(len(c["models"]) for c in coherency)
    return {
        "map": state.name,
        "ruleset": state.ruleset,
        "models": len(geo.ids),
        "overlaps": [list(p) for p in geo.overlaps],
        "off_table": sorted(geo.off_table),
        "base_contact": [list(p) for p in geo.base_contacts],
        "engaged": [list(p) for p in geo.engaged_unit_pairs],
        "coherency": coherency,
        "objectives": [{"id": oid, "within_range": per} for oid, per in geo.objective_ranges.items()],
        "problems": len(geo.overlaps) + len(geo.off_table) + incoherent,
        "warnings": layout_warnings(state),
        "terrain_overlaps": [{"a": a, "b": b, "area": round(area, 4)}
                             for a, b, area in terrain_overlaps(state)],
    }


def terrain_section(state: Battlefield, reference: Battlefield | None = None,
                    reference_path: str | None = None,
                    tolerance: float | None = None,
                    turn_tolerance: float | None = None,
                    terrain_only: bool = False) -> tuple[dict[str, Any], list[str]]:
    """Terrain gaps with the common bases that pass each (and, given ``reference``, the
    comparison with the published layout, ``compare_cmd.layout_json``): JSON fields and
    warnings.  Tolerances default to the reference map's ``layout_tolerance`` (inches)
    and ``layout_turn_tolerance`` (degrees).  The verdicts are ``compare_layouts``'s, the
    one comparison ``tabletop compare`` makes: a warning per item off, missing or extra
    (and for a table of another size)."""
    from tabletop.geometry.layout_compare import compare_layouts
    from tabletop.geometry.terrain_report import terrain_gaps

    gaps = terrain_gaps(state)
    out: dict[str, Any] = {"terrain_gaps": [
        {"a": g.a, "b": g.b, "width": round(g.width, 4), "bases": list(g.bases),
         "ends": [[round(v, 4) for v in p] for p in g.ends] if g.ends else None,
         "table_bases": [{"base": n, "narrow": round(w, 4), "passes": ok}
                         for n, w, ok in g.table_bases],
         "digits": g.digits}
        for g in gaps]}
    warnings: list[str] = []
    if reference is not None:
        diff = compare_layouts(state, reference, tolerance=tolerance,
                               turn_tolerance=turn_tolerance, terrain_only=terrain_only)
        # missing / extra terrain after matching by id, then by nearest shape
        missing = sorted(m.id for m in diff.missing if m.sort == "terrain")
        extra = sorted(e.id for e in diff.extra if e.sort == "terrain")
        # ``deviations`` (kept from before compare): one per matched terrain piece, from the same
        # comparison as ``items``: ``hausdorff`` is how far the outlines stand apart as they are,
        # ``shift`` and ``turn_deg`` compare's, ``ok`` compare's verdict (the only verdict)
        devs = sorted((d for d in diff.items if d.sort == "terrain"),
                      key=lambda d: -d.outline_distance)
        out["layout"] = {
            "reference": reference_path, "tolerance": diff.tolerance,
            "deviations": [{"id": d.id, "hausdorff": round(d.outline_distance, 4),
                            "shift": [round(d.shift[0], 4) + 0.0, round(d.shift[1], 4) + 0.0],
                            "turn_deg": round(d.turn_deg, 2) + 0.0, "ok": d.ok}
                           for d in devs],
            "missing": missing, "extra": extra, **layout_json(diff)}
        table = table_line(diff)
        warnings += [f"the {table}"] if table else []
        warnings += [f"{d.sort} {d.id} is off the published layout: {_off_text(d)}"
                     for d in diff.off]
        warnings += [f"{m.sort} {m.id} of the published layout is missing" for m in diff.missing]
        warnings += [f"{e.sort} {e.id} is not in the published layout" for e in diff.extra]
        hint = terrain_only_hint(diff, state)
        if hint:
            warnings.append(hint.removeprefix("hint: "))
    return out, warnings


def _off_text(d) -> str:
    """Why an item is off, each thing told once: how far it moved, then compare's line
    (shift, turn, walls and the rest), e.g. ``moved 0.79" (0.75" right, 0.25" up, turned
    +0.0 deg)``; the turn and walls only as compare's line tells them."""
    detail = item_line(d).split(": ", 1)[1]
    lead = [w for w in d.off if w.startswith("moved ")]
    return f"{', '.join(lead)} ({detail})" if lead else detail


def _passes(bases: list[str]) -> str:
    """``passes 25mm to 50mm round, 75x42mm oval`` for the common bases through a gap."""
    rounds = [b for b in bases if "oval" not in b]
    ovals = [b.replace(" oval", "") for b in bases if "oval" in b]
    if not bases:
        return "no common base passes"
    parts = []
    if rounds:
        parts.append(f"{rounds[0]} to {rounds[-1]} round" if len(rounds) > 1 else f"{rounds[0]} round")
    if ovals:
        parts.append(", ".join(ovals) + " oval")
    return "passes " + "; ".join(parts)


def _edge_overrun(state: Battlefield, geo: Geometry, mid: str) -> str:
    minx, miny, maxx, maxy = geo.footprint(mid).bounds
    w, d = state.table.width, state.table.depth
    over = {"left": -minx, "bottom": -miny, "right": maxx - w, "top": maxy - d}
    edge, by = max(over.items(), key=lambda kv: kv[1])
    return f"{by:.2f}\" past the {edge} edge"


def _control(state: Battlefield, geo: Geometry, per: dict[str, list[str]]) -> str:
    """Objective control by summed OC (fight-phase), else by model count."""
    totals = {}
    for player, models in per.items():
        total = 0
        for mid in models:
            oc = geo.model(mid).profile.get("OC")
            total += oc if isinstance(oc, (int, float)) else 1
        totals[player] = total
    ranked = sorted(totals.items(), key=lambda kv: -kv[1])
    if not ranked or ranked[0][1] == 0:
        return "nobody holds it"
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return "contested (equal)"
    return f"held by {ranked[0][0]}"


def text_report(state: Battlefield, geo: Geometry, report: dict[str, Any],
                layout_text: list[str] | None = None) -> str:
    """A readable report a tournament organiser would hand to a player (``layout_text``:
    ``compare_cmd.layout_lines`` of the comparison with the published layout)."""
    from tabletop.geometry.terrain_report import widest_base

    r = state.rules
    lines = []
    edition = f", {r.edition} edition presets" if state.ruleset == "fight-phase" else ""
    lines.append(f"{state.name} - {state.ruleset}{edition}")
    lines.append(f"Table {state.table.width:g}\" x {state.table.depth:g}\", "
                 f"{_n(len(state.units), 'unit')}, {_n(report['models'], 'model')}, "
                 f"{_n(len(state.terrain), 'terrain piece')}, {_n(len(state.objectives), 'objective')}")
    if state.source:
        lines.append(f"Source: {state.source}")
    er = "base contact" if r.engages_by_contact else f"{r.engagement_range:g}\""
    coh = "formation" if r.coherency_range is None else (
        f"{r.coherency_range:g}\" of {r.coherency_neighbours} (7+: {r.coherency_neighbours_7plus})"
        + (f", all within {r.coherency_spread:g}\"" if r.coherency_spread else ""))
    lines.append(f"Measured edge to edge; tolerance {r.contact_tolerance:g}\"; engagement {er}; "
                 f"coherency {coh}")
    lines.append("")

    def section(title: str, items: list[str], empty: str) -> None:
        lines.append(f"{title} ({len(items)})" if items else f"{title}: {empty}")
        lines.extend(f"  {s}" for s in items)

    section("Overlapping bases",
            [f"{a} and {b} overlap by {fmt_in(-geo.gap(a, b)) if geo.gap(a, b) < 0 else 'their edges'}"
             for a, b in report["overlaps"]], "none")
    section("Off the table", [f"{m} goes {_edge_overrun(state, geo, m)}" for m in report["off_table"]],
            "none")
    coh_items = []
    for c in report["coherency"]:
        b = geo.coherency[c["unit"]]
        for m in b.models:
            coh_items.append(f"{m}: {b.reasons[m]}")
    section("Out of coherency", coh_items, "every unit holds coherency")
    lines.append("")
    section("Engaged units", [f"{a} <-> {b}" for a, b in report["engaged"]], "none")
    section("Base contact with the enemy", [f"{a} touches {b}" for a, b in report["base_contact"]],
            "none")
    lines.append("")
    if state.objectives:
        lines.append("Objectives (range from the marker's edge)")
        for o in report["objectives"]:
            obj = state.objective(o["id"])
            parts = [f"{p}: {', '.join(ms) if ms else '-'}" for p, ms in o["within_range"].items()]
            where = (f"  {o['id']} at ({obj.at[0]:g}, {obj.at[1]:g}), "
                     f"{state.objective_range(obj):g}\"")
            if not parts:       # a terrain-only table: no players to hold it
                lines.append(f"{where} range; no players on the table")
                continue
            lines.append(f"{where}: " + "; ".join(parts)
                         + f" -> {_control(state, geo, o['within_range'])}")
        lines.append("")
    if state.terrain:
        who, size = widest_base(state)
        gaps = report.get("terrain_gaps", [])
        lines.append(f"Terrain gaps (narrowest {min(len(gaps), GAPS_SHOWN)} of {len(gaps)} under 6\")"
                     if gaps else "Terrain gaps: none under 6\"")
        for g in gaps[:GAPS_SHOWN]:
            n = g["digits"]
            tight = (f" - narrower than the widest base ({who}, narrow side {size:.{n}f}\")"
                     if who and g["width"] < size - 1e-9 else "")
            passes = _passes(g["bases"])
            here = [f"{b['base']} ({b['narrow']:.{n}f}\") {'passes' if b['passes'] else 'does not'}"
                    for b in g["table_bases"]]
            lines.append(f"  {g['a']} to {g['b']}: {g['width']:.{n}f}\"{tight}; {passes}"
                         + (f"; on the table: {', '.join(here)}" if here else ""))
        lines.append("")
    if "layout" in report:
        lay = report["layout"]
        lines.append(f"Against the published layout {lay['reference']} "
                     f"(in place within {lay['tolerance']:g}\")")
        if layout_text:
            lines.extend(f"  {t}" if not t.startswith(" ") else t for t in layout_text)
        lines.append("")
    if report["warnings"]:
        section("Layout warnings", report["warnings"], "none")
        lines.append("")
    n = report["problems"]
    kinds = [f"{len(report['overlaps'])} overlapping pair{'s' if len(report['overlaps']) != 1 else ''}"
             if report["overlaps"] else "",
             f"{len(report['off_table'])} off the table" if report["off_table"] else "",
             f"{len(coh_items)} out of coherency" if coh_items else ""]
    if n == 0:
        lines.append("Problems: none - the layout is legal" if not report["warnings"] else
                     f"Problems: none, but {len(report['warnings'])} warning"
                     f"{'s' if len(report['warnings']) != 1 else ''} above")
    else:
        lines.append(f"Problems: {n} ({', '.join(k for k in kinds if k)})")
    return "\n".join(lines)


def lesson_checked(path: str) -> Battlefield:
    """``load_map(path)``, and on a map with ``[[lesson]]`` entries every check ``tabletop
    lesson`` makes of them (``render.lesson_plan.build_lesson``: steps, ids, overlays, the
    order), so ``check`` passes no lesson that ``lesson`` refuses, with the same lines.
    Checking a lesson's steps runs its phase with the lesson's dice (slow on a big table),
    so only a map with lesson entries pays for it.

    Raises
    ------
    MapSyntaxError, MapValidationError, LessonError
        One located line per fault (the CLI exits 2).
    """
    from tabletop.cli.lesson_cmd import load_lesson_map

    state, faults, skip = load_lesson_map(path)
    if state.lesson or faults:
        from tabletop.render.lesson_plan import build_lesson
        build_lesson(state, faults=faults, skip=skip)
    return state


def run(args) -> int:
    from tabletop.geometry import snapshot
    from tabletop.geometry.layout_compare import compare_layouts
    from tabletop.geometry.terrain_report import terrain_gaps
    from tabletop.rules.registry import find_ruleset

    state = lesson_checked(args.map)
    if args.layout_tolerance is not None and not args.layout:
        raise TabletopError("--layout-tolerance: give --layout REF.toml too")
    ruleset = find_ruleset(state.ruleset)
    profile_warn = ruleset.profile_warnings
    reference = load_map(args.layout) if args.layout else None
    turn_tol = args.layout_turn_tolerance
    if turn_tol is not None and not args.layout:
        raise TabletopError("--layout-turn-tolerance: give --layout REF.toml too")
    bad_tol = tolerance_problems(args.layout_tolerance, turn_tol,
                                 ("--layout-tolerance", "--layout-turn-tolerance"))
    if bad_tol:
        raise TabletopError(bad_tol)
    if args.output is not None:
        from tabletop.cli.render_cmd import headless
        bad = picture_out(args.output, [args.map] + ([args.layout] if args.layout else []),
                          args.force)
        if bad:
            raise TabletopError(bad)
        headless()
    geo = snapshot(state)
    report = build_report(state, geo)
    if args.terrain_only and not args.layout:
        raise TabletopError("--terrain-only: give --layout REF.toml too")
    extra, warnings = terrain_section(state, reference, args.layout, args.layout_tolerance,
                                      turn_tol, args.terrain_only)
    diff = None if reference is None else compare_layouts(
        state, reference, tolerance=args.layout_tolerance, turn_tolerance=turn_tol,
        terrain_only=args.terrain_only)
    report.update(extra)
    report["warnings"] = report["warnings"] + warnings
    # the profile and weapon values the attacks cannot use were refused by load_map (every
    # command refuses them, exit 2, the same lines); absent ones (MISSING_PROFILE) pass
    if profile_warn is not None:
        # profile keys and weapon rules words the ruleset does not read: never silently ignored
        report["warnings"] += [line.split(": ", 1)[1] for line in profile_warn(state)]
    if args.output:
        from tabletop.render.compare import render_gaps
        from tabletop.render.image import save_png
        try:
            save_png(render_gaps(state, terrain_gaps(state), diff=diff, published=reference),
                     args.output, force=args.force, keep=(args.map,))
        except TabletopError:
            raise
        except OSError as exc:
            raise TabletopError(f"{args.output}: cannot write: {exc}") from None
        report["picture"] = args.output
    if args.json:
        print_json(report)
    else:
        print(text_report(state, geo, report, layout_lines(diff) if diff is not None else None))
        if args.output:
            print(f"wrote {args.output}")
    return 1 if report["problems"] or report["warnings"] else 0


def add_parser(sub) -> None:
    p = sub.add_parser("check", help="layout report: overlaps, off-table, coherency, engagement, objectives",
                       description="Layout report. Exit 0 clean, 1 problems found, 2 bad input.")
    p.add_argument("map", metavar="MAP", help="map file (TOML)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--layout", metavar="REF.toml",
                   help="a map of the published layout: how far each terrain piece (walls included), "
                        "objective and deployment zone is off it (as tabletop compare)")
    p.add_argument("--layout-tolerance", type=float, metavar="INCHES",
                   help=f"a piece within this of the published layout is in place (default: the "
                        f"layout's layout_tolerance, {LAYOUT_TOLERANCE:g})")
    p.add_argument("--layout-turn-tolerance", type=float, metavar="DEG",
                   help=f"a piece turned at most this is in place (default: the layout's "
                        f"layout_turn_tolerance, {LAYOUT_TURN_TOLERANCE:g})")
    p.add_argument("--terrain-only", action="store_true",
                   help="with --layout: compare the terrain alone (objectives and deployment "
                        "zones are not compared)")
    p.add_argument("-o", "--output", metavar="OUT.png",
                   help="draw the map with its narrowest terrain gaps (and, with --layout, the "
                        "published layout ghosted and an arrow on each piece that is off)")
    add_force(p)
    p.set_defaults(run=run)
