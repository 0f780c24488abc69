"""Layout JSON -> map dict (the plain TOML tables ``board.mapfile.from_dict`` reads).

A file holds one entity (a terrain layout, a deployment pattern or a terrain template,
told apart by ``pieces``, ``zones`` or ``kind`` + ``footprint``), a list of them (as the
40kdc-data ``data/core/*.json`` files are), or an object of such lists keyed
``terrain-layouts`` / ``deployment-patterns`` / ``terrain-templates``.  Several files may
be given (a layout, its pattern, the templates it names).

Conventions: the JSON is y-down inches from the top-left corner; the map is y-up from the
bottom-left, so (x, y) -> (x, depth - y).  Heights become kinds and tall parts by the
named defaults below (the board is 2D: DESIGN.md "Heights").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from tabletop.board.input_files import read_bounded, strip_bom
from tabletop.board.json_text import JsonTextError, parse_json
from tabletop.board.limits import MAX_COORD_INCHES, MAX_TABLE_INCHES
from tabletop.errors import TabletopError
from tabletop.layout_io.carry import entity_id, objective_entity_id, tag_of, untag
from tabletop.layout_io.place import convex_hull, footprint_vertices, orient, place, to_map
from tabletop.layout_io.schema import DeploymentPattern, Piece, TerrainLayout, TerrainTemplate

__all__ = ["LayoutError", "MAX_LAYOUT_BYTES", "MAX_LAYOUT_ENTITIES", "read_files", "to_map_dict", "Sources", "relocate", "DEFAULT_BOARD_IN",
           "RUIN_MIN_HEIGHT_IN", "TALL_MIN_HEIGHT_IN", "UNKNOWN_HEIGHT_KIND", "SIDE_NAMES"]

#: the table when a layout gives no ``board``: 60" x 44", the schema's own stated default
DEFAULT_BOARD_IN = (60.0, 44.0)
#: named default: an area piece at least this tall (inches) is a ruin, a lower one an
#: obstacle (barricades, craters, crates).  3" is where the schema's own text has height
#: start to matter (Plunging Fire); a barricade is about 2".
RUIN_MIN_HEIGHT_IN = 3.0
#: named default: a piece at least this tall (inches) is a map's ``tall_part`` (the map
#: format's "part over 4\" tall": walls).  A ruin area this tall with no wall features is
#: tall all over; the wall features of an area become its tall part.
TALL_MIN_HEIGHT_IN = 4.0
#: named default: the kind of an area with no height (nor a template height): tournament
#: layout areas are ruins unless told otherwise
UNKNOWN_HEIGHT_KIND = "ruin"
#: the two sides of a deployment pattern as map players: id -> display name.  Named default:
#: an imported map always has both players, even when the pattern gives one side no zone
#: (or there is no pattern), so either army can be placed on it (``roster``, ``edit``)
SIDE_NAMES = {"attacker": "Attacker", "defender": "Defender"}
SIDE_COLOURS = {"attacker": "#b03a2e", "defender": "#2f5fa8"}

_KINDS = {"terrain-layouts": TerrainLayout, "deployment-patterns": DeploymentPattern,
          "terrain-templates": TerrainTemplate}
_TAGS = {"rectangle", "right-triangle", "polygon"}


#: named default: the largest layout JSON file read, in bytes.  A 40kdc-data ``data/core``
#: file of every layout of a season is under 1 MB; a FIFO or a device is refused before this
#: applies (``board.input_files.read_bounded``)
MAX_LAYOUT_BYTES = 10 * 1024 * 1024
#: named default: the most entities (layouts, deployment patterns, terrain templates) one
#: layout file holds, counted before any is checked: a season's ``data/core`` files hold a
#: few dozen each; a file of a million entries is refused at once, not checked one by one
MAX_LAYOUT_ENTITIES = 1000


class LayoutError(TabletopError):
    """A layout JSON file that cannot be read or does not fit the schema."""


@dataclass
class Entities:
    """What the files hold, each entity with the place it was read from."""
    layouts: list[tuple[str, TerrainLayout]] = field(default_factory=list)
    patterns: list[tuple[str, DeploymentPattern]] = field(default_factory=list)
    templates: dict[str, TerrainTemplate] = field(default_factory=dict)


def _path(loc: tuple[Any, ...], prefix: str) -> str:
    out = prefix
    prev: Any = None
    for p in loc:
        if isinstance(p, int):
            out += f"[{p}]"
        elif p in _TAGS and prev in ("footprint", "shape"):
            pass
        else:
            out += ("." if out else "") + str(p)
        prev = p
    return out or "(top)"


#: the longest value a message echoes as written; past it the value is cut ("...")
SHOWN_VALUE_CHARS = 40


def shown(value: Any) -> str:
    """``value`` as a message shows it: a whole number of more than 20 digits in
    e-notation (10**400 -> ``1e+400``, ``-1.23e+25``), a float as Python writes it
    (``1e+308``, ``1e+09``: ``:g``), anything else as its ``repr`` cut to ``SHOWN_VALUE_CHARS`` characters."""
    if isinstance(value, int) and not isinstance(value, bool) and len(str(abs(value))) > 20:
        digits = str(abs(value))
        mant = (digits[0] + "." + digits[1:4]).rstrip("0").rstrip(".")
        return f"{'-' if value < 0 else ''}{mant}e+{len(digits) - 1}"
    text = f"{value:g}" if isinstance(value, float) else repr(value)
    return text if len(text) <= SHOWN_VALUE_CHARS else text[:SHOWN_VALUE_CHARS - 3] + "..."


def _errors(path: str, prefix: str, err: ValidationError) -> list[str]:
    lines = []
    for e in err.errors():
        msg = e["msg"].removeprefix("Value error, ")
        got = e.get("input")
        if e["type"] == "too_long":     # pieces: the map format's MAX_TERRAIN
            ctx = e.get("ctx") or {}
            msg = (f"at most {ctx.get('max_length')} entries (a limit of the map format), "
                   f"got {ctx.get('actual_length')}")
        elif not isinstance(got, (dict, list)) and e["type"] != "missing":
            msg += f", got {shown(got)}"
        lines.append(f"{path}: {_path(tuple(e['loc']), prefix)}: {msg}")
    return lines


def _kind_of(obj: Any) -> str | None:
    if not isinstance(obj, dict):
        return None
    if "pieces" in obj:
        return "terrain-layouts"
    if "zones" in obj:
        return "deployment-patterns"
    if "footprint" in obj and "kind" in obj:
        return "terrain-templates"
    return None


def _entries(doc: Any) -> list[tuple[str, Any, str | None]]:
    """(place, object, kind) for every entity in a parsed file."""
    if isinstance(doc, list):
        return [(f"[{i}]", o, _kind_of(o)) for i, o in enumerate(doc)]
    if isinstance(doc, dict) and _kind_of(doc) is None and any(k in _KINDS for k in doc):
        out = []
        for k, v in doc.items():
            if k not in _KINDS:
                continue
            items = v if isinstance(v, list) else [v]
            out += [(f"{k}[{i}]", o, k) for i, o in enumerate(items)]
        return out
    return [("", doc, _kind_of(doc))]


def read_files(paths: list[str]) -> Entities:
    """Read and validate every entity in ``paths``.

    Raises
    ------
    LayoutError
        One line per problem: ``file: JSON path: what is wrong`` (a file that is not
        JSON: ``file: line L column C: ...``).
    """
    found = Entities()
    problems: list[str] = []
    for path in paths:
        try:
            raw = read_bounded(path, "layout .json file", MAX_LAYOUT_BYTES, "MAX_LAYOUT_BYTES",
                               LayoutError)
            doc = parse_json(strip_bom(raw.decode("utf-8")), path)
        except LayoutError as exc:
            problems += exc.problems
            continue
        except JsonTextError as exc:
            problems.append(str(exc))
            continue
        except UnicodeDecodeError:
            problems.append(f"{path}: not a text file (layout JSON is UTF-8 text)")
            continue
        entries = _entries(doc)
        if len(entries) > MAX_LAYOUT_ENTITIES:
            problems.append(f"{path}: {len(entries):,} entities (layouts, deployment patterns, "
                            f"terrain templates); a layout file holds at most "
                            f"{MAX_LAYOUT_ENTITIES:,} (MAX_LAYOUT_ENTITIES)")
            continue
        for place_, obj, kind in entries:
            if kind is None:
                problems.append(f"{path}: {place_ or '(top)'}: not a terrain layout (pieces), "
                                "deployment pattern (zones) or terrain template (kind, footprint)")
                continue
            try:
                model: BaseModel = _KINDS[kind].model_validate(obj)
            except ValidationError as err:
                problems += _errors(path, place_, err)
                continue
            where = f"{path}: {place_}" if place_ else path
            if isinstance(model, TerrainLayout):
                found.layouts.append((where, model))
            elif isinstance(model, DeploymentPattern):
                found.patterns.append((where, model))
            else:
                found.templates[model.id] = model   # type: ignore[attr-defined]
    if problems:
        raise LayoutError(problems)
    return found


def _pick(items: list[tuple[str, Any]], want: str | None, what: str, flag: str,
          files: str) -> tuple[str, Any] | None:
    if want is not None:
        for it in items:
            if it[1].id == want:
                return it
        have = ", ".join(m.id for _, m in items) or "none"
        raise LayoutError(f"{files}: {flag} {want}: no {what} has that id (there are: {have})")
    if len(items) > 1:
        raise LayoutError(f"{files}: {len(items)} {what}s ({', '.join(m.id for _, m in items)}); "
                          f"choose one with {flag} ID")
    return items[0] if items else None


def _kind_for(height: float | None, has_walls: bool) -> str:
    if has_walls:
        return "ruin"
    if height is None:
        return UNKNOWN_HEIGHT_KIND
    return "ruin" if height >= RUIN_MIN_HEIGHT_IN else "obstacle"


def _slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "x"


def to_map_dict(found: Entities, files: str, layout_id: str | None = None,
                deployment_id: str | None = None,
                sources: Sources | None = None) -> dict[str, Any]:
    """The map (plain TOML tables) of one layout and one deployment pattern.

    The layout is the only one given or ``layout_id``; the pattern is ``deployment_id``,
    else the layout's ``deployment_pattern_id`` when that pattern was given, else the only
    one given.  Pieces become ``[[terrain]]`` (an area's wall features its ``tall_part``),
    objective pieces and the pattern's objectives ``[[objectives]]``, zones
    ``[[deployment]]`` of players ``attacker`` / ``defender``.  All points in inches, y-up.

    ``sources``, when given, is filled with where in the input each row of the map came
    from (``relocate`` turns a map error into one about the input file and piece).

    Raises
    ------
    LayoutError
        Nothing to import, an unknown or ambiguous id, a piece whose template was not
        given, a feature whose parent area is missing.
    """
    src = sources if sources is not None else Sources()
    lay = _pick(found.layouts, layout_id, "terrain layout", "--layout", files)
    named = lay[1].deployment_pattern_id if lay is not None else None
    if deployment_id is None and lay is not None and named and found.patterns:
        # the layout names its pattern: that one, never another one silently
        if not any(p.id == named for _, p in found.patterns):
            have = ", ".join(p.id for _, p in found.patterns)
            raise LayoutError(f"{_at(lay[0], 'deployment_pattern_id')}: {named}: no deployment "
                              f"pattern in the files has that id (there are: {have}); pass "
                              "--deployment ID to use another")
        deployment_id = named
    pat = _pick(found.patterns, deployment_id, "deployment pattern", "--deployment", files)
    if lay is None and pat is None:
        raise LayoutError(f"{files}: no terrain layout and no deployment pattern to import")
    layout = lay[1] if lay else None
    pattern = pat[1] if pat else None
    problems = _out_of_bounds(lay, pat)
    if problems:
        raise LayoutError(problems)
    width, depth = DEFAULT_BOARD_IN
    if layout is not None and layout.board is not None:
        width, depth = layout.board.width, layout.board.height
    edition = (layout or pattern).game_version.edition.removesuffix("th")  # type: ignore[union-attr]
    rules = {"edition": f"{edition}th"} if f"{edition}th" in ("10th", "11th") else {}

    terrain: list[dict[str, Any]] = []
    objectives: list[dict[str, Any]] = []
    if layout is not None:
        src.pieces = _at(lay[0], "pieces")
        terrain, objectives = _pieces(layout, lay[0], found.templates, depth, problems, src)
    if problems:
        raise LayoutError(problems)
    if pattern is not None:
        for i, p in enumerate(pattern.objectives):
            at = to_map((p.x, p.y), depth)
            if any(abs(o["at"][0] - at[0]) < 1e-6 and abs(o["at"][1] - at[1]) < 1e-6 for o in objectives):
                continue
            src.objectives.append(_at(pat[0], f"objectives[{i}]"))  # type: ignore[index]
            objectives.append({"id": objective_id(None, objectives), "at": at,
                               "name": f"{pattern.name}: objective {i + 1}"})
    _off_table(terrain, objectives, src, width, depth)
    deployment = []
    player_of = {s: s for s in SIDE_NAMES}
    if pattern is not None:
        player_of = _players(pattern)
        for k, z in enumerate(pattern.zones):
            src.deployment.append(_at(pat[0], f"zones[{k}]"))  # type: ignore[index]
            pts = footprint_vertices(z.shape)    # type: ignore[arg-type]
            poly = [to_map((z.position.x + x, z.position.y + y), depth) for x, y in pts]
            if _is_off(poly, width, depth):
                xs, ys = [q[0] for q in poly], [q[1] for q in poly]
                src.warnings.append(f"{src.deployment[-1]}: the zone reaches off the {width:g}\" "
                                    f"x {depth:g}\" table (x {min(xs):.4g}..{max(xs):.4g}, "
                                    f"y {min(ys):.4g}..{max(ys):.4g} on the map)")
            row: dict[str, Any] = {"player": player_of[z.player], "polygon": poly}
            zname = tag_of(z.name)[1] if player_of[z.player] != z.player else z.name
            row["name"] = zname or f"{pattern.name} {z.player} zone"
            deployment.append(row)
    # a pattern named after its layout ("X deployment", as export names it) adds nothing
    name = " / ".join(m.name for m in (layout, pattern) if m is not None
                      and not (m is pattern and layout is not None
                               and m.name.startswith(layout.name)))
    source = "layout JSON " + files + ": " + ", ".join(
        f"{what} {m.id}" + (f" ({m.source})" if m.source else "")
        for what, m in (("terrain layout", layout), ("deployment pattern", pattern)) if m is not None)
    out: dict[str, Any] = {
        "map": {"name": name, "ruleset": "fight-phase", "width": width, "depth": depth,
                "source": source},
        "players": [{"id": player_of[s], "name": SIDE_NAMES[s], "colour": SIDE_COLOURS[s],
                     "active": i == 0} for i, s in enumerate(sorted(SIDE_NAMES))],
    }
    if rules:
        out["rules"] = rules
    out["terrain"] = terrain
    out["objectives"] = objectives
    out["deployment"] = deployment
    return out


def _out_of_bounds(lay: tuple[str, TerrainLayout] | None,
                   pat: tuple[str, DeploymentPattern] | None) -> list[str]:
    """One line per input number too large to place, naming the input file and field
    (``board.width``, ``pieces[0] (id "ab"): position.x``), before anything is placed
    from it: a board side over ``MAX_TABLE_INCHES``, a position, footprint size or point
    past ``MAX_COORD_INCHES`` (the map reader's own bounds, board/limits.py).  Checked
    here so that one bad value is one line about what the user wrote, not lines about
    the points computed from it or the map file never written."""
    out: list[str] = []

    def coord(where: str, field_: str, v: float, what: str = "within {}\" of the table's "
              "corner") -> None:
        if not abs(v) <= MAX_COORD_INCHES:
            out.append(f"{where}: {field_}: inches {what.format(f'{MAX_COORD_INCHES:g}')} "
                       f"(MAX_COORD_INCHES), got {shown(v)}")

    def shape(where: str, name: str, fp: Any) -> None:
        if fp is None:
            return
        if hasattr(fp, "points"):
            for k, q in enumerate(fp.points):
                coord(where, f"{name}.points[{k}].x", q.x, "within {}\" of its position")
                coord(where, f"{name}.points[{k}].y", q.y, "within {}\" of its position")
        else:
            coord(where, f"{name}.width", fp.width, "up to {}\"")
            coord(where, f"{name}.height", fp.height, "up to {}\"")

    if lay is not None:
        where, layout = lay
        if layout.board is not None:
            for f, v in (("width", layout.board.width), ("height", layout.board.height)):
                if v > MAX_TABLE_INCHES:
                    out.append(f"{_at(where, 'board.' + f)}: the table size is inches; {shown(v)}\" "
                               f"is more than {MAX_TABLE_INCHES:g}\" (MAX_TABLE_INCHES)")
        for i, p in enumerate(layout.pieces):
            at = _named(_at(where, f"pieces[{i}]"), p)
            coord(at, "position.x", p.position.x)
            coord(at, "position.y", p.position.y)
            shape(at, "footprint", p.footprint)
            if p.objective is not None and p.objective.position is not None:
                coord(at, "objective.position.x", p.objective.position.x)
                coord(at, "objective.position.y", p.objective.position.y)
    if pat is not None:
        where, pattern = pat
        for k, z in enumerate(pattern.zones):
            at = _at(where, f"zones[{k}]")
            coord(at, "position.x", z.position.x)
            coord(at, "position.y", z.position.y)
            shape(at, "shape", z.shape)
        for k, q in enumerate(pattern.objectives):
            at = _at(where, f"objectives[{k}]")
            coord(at, "x", q.x)
            coord(at, "y", q.y)
    return out


def _players(pattern: DeploymentPattern) -> dict[str, str]:
    """Side (attacker / defender) -> map player id: the tag every zone of that side carries
    at the end of its name ("... [orks]", written by ``layout export``: ``carry.tagged``),
    else the side itself.  Two sides tagged with one id keep their side names."""
    out: dict[str, str] = {}
    for side in SIDE_NAMES:
        tags = {tag_of(z.name)[0] for z in pattern.zones if z.player == side}
        one = tags.pop() if len(tags) == 1 else None
        out[side] = one if one is not None and one not in SIDE_NAMES else side
    if len(set(out.values())) < len(out):
        return {s: s for s in SIDE_NAMES}
    return out


@dataclass
class Sources:
    """Where each row of the imported map came from in the input: ``terrain[i]`` holds
    ``{"polygon": place, "tall_part": place}``, ``objectives[i]`` and ``deployment[i]`` a
    place (``file: [3].pieces[6] (id "b2")``); ``pieces`` the layout's pieces list;
    ``warnings`` what imported but looks wrong (a piece off the table)."""
    terrain: list[dict[str, str]] = field(default_factory=list)
    objectives: list[str] = field(default_factory=list)
    deployment: list[str] = field(default_factory=list)
    pieces: str = ""
    warnings: list[str] = field(default_factory=list)


def _at(where: str, tail: str) -> str:
    """``file: [3]`` + ``pieces[6]`` -> ``file: [3].pieces[6]`` (``file`` + ... -> ``file: ...``)."""
    return f"{where}.{tail}" if ": " in where else f"{where}: {tail}"


_MAP_PLACE = re.compile(r"^(?P<kind>terrain|objectives|deployment)(?:\[(?P<i>\d+)\])?"
                        r"(?:\.(?P<field>[a-z_]+))?(?P<rest>.*)$")


def relocate(problems: list[str], out: str, sources: Sources) -> list[str]:
    """Map problems (``out: terrain[4].polygon: ...``, from reading or checking the map built
    in memory) as problems of the input file and piece (``file: [3].pieces[6] (id "b2"):
    polygon: ...``); other lines are kept as they are."""
    fixed = []
    for line in problems:
        head = f"{out}: "
        m = _MAP_PLACE.match(line[len(head):]) if line.startswith(head) else None
        if m is None:
            fixed.append(line)
            continue
        kind, i, fld, rest = m.group("kind"), m.group("i"), m.group("field"), m.group("rest")
        place = None
        if i is None and kind == "terrain" and sources.pieces:
            place = sources.pieces
        elif i is not None:
            k = int(i)
            if kind == "terrain" and k < len(sources.terrain):
                place = sources.terrain[k].get(fld or "polygon") or sources.terrain[k]["polygon"]
            elif kind == "objectives" and k < len(sources.objectives):
                place = sources.objectives[k]
            elif kind == "deployment" and k < len(sources.deployment):
                place = sources.deployment[k]
        if place is None:
            fixed.append(line)
            continue
        what = f"{fld}{rest}" if fld else rest.lstrip(": ")
        fixed.append(f"{place}: {what}" if what else place)
    return fixed


#: an objective's name that is also a map id keeps it as its id ("centre" -> ``centre``)
_OBJECTIVE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*[a-z0-9]$")


def objective_id(name: str | None, taken: list[dict[str, Any]]) -> str:
    """The map id of an imported objective: its ``name`` when that is a valid id
    (lowercase letters, digits and dashes, 2 characters or more) not taken yet, else
    ``objective-N`` (N the first free number from the objective's place in the list)."""
    used = {o["id"] for o in taken}
    if name and _OBJECTIVE_ID.match(name) and name not in used:
        return name
    n = len(taken) + 1
    while f"objective-{n}" in used:
        n += 1
    return f"objective-{n}"


#: named default: how far (inches) a piece, an objective or a deployment zone may reach
#: past the table's edge before the import warns (the map format's contact tolerance:
#: measured layouts round)
OFF_TABLE_WARN_IN = 0.02


def _is_off(pts: list[Any], width: float, depth: float) -> bool:
    """Whether a point of ``pts`` (map inches) lies past the table by more than
    ``OFF_TABLE_WARN_IN``."""
    t = OFF_TABLE_WARN_IN
    return any(x < -t or y < -t or x > width + t or y > depth + t for x, y in pts)


def _off_table(terrain: list[dict[str, Any]], objectives: list[dict[str, Any]], src: Sources,
               width: float, depth: float) -> None:
    """A warning (``src.warnings``) for each piece or objective that reaches past the
    table by more than ``OFF_TABLE_WARN_IN``: the schema allows it, a layout never means it."""
    def off(pts: list[list[float]]) -> bool:
        return _is_off(pts, width, depth)

    for k, row in enumerate(terrain):
        if off(row["polygon"]):
            xs = [p[0] for p in row["polygon"]]
            ys = [p[1] for p in row["polygon"]]
            src.warnings.append(f"{src.terrain[k]['polygon']}: reaches off the {width:g}\" x "
                                f"{depth:g}\" table (x {min(xs):.4g}..{max(xs):.4g}, "
                                f"y {min(ys):.4g}..{max(ys):.4g} on the map)")
    for k, obj in enumerate(objectives):
        if off([obj["at"]]) and k < len(src.objectives):
            src.warnings.append(f"{src.objectives[k]}: the objective stands off the {width:g}\" "
                                f"x {depth:g}\" table, at ({obj['at'][0]:.4g}, "
                                f"{obj['at'][1]:.4g}) on the map")


def _footprint(p: Piece, templates: dict[str, TerrainTemplate], where: str,
               problems: list[str]) -> tuple[list[tuple[float, float]] | None, float | None]:
    height = p.height_inches
    if p.footprint is not None:
        fp = p.footprint
        if height is None and p.template in templates:
            height = templates[p.template].default_height_inches
    elif p.template in templates:
        fp = templates[p.template].footprint
        height = height if height is not None else templates[p.template].default_height_inches
    elif p.template is None:
        problems.append(f"{where}: neither a footprint nor a template: a piece needs one "
                        "to have a shape")
        return None, None
    else:
        problems.append(f"{where}: template {p.template}: not given (pass the terrain-templates "
                        "file too, or give the piece a footprint)")
        return None, None
    return footprint_vertices(fp), height


def _area_key(p: Piece, i: int) -> str:
    """The key an area's walls are gathered under: its id (features name it by
    ``parent_area_id``), else its index (a template's composed features only)."""
    return p.id if p.id else f"#{i}"


def _carried(local: list[tuple[float, float]], at: tuple[float, float], rotation: float,
             mirror: str, parent: Piece) -> list[tuple[float, float]]:
    """A feature's footprint placed in its parent area's centroid-local frame, then carried
    by the parent's mirror, turn and position (board y-down inches)."""
    out = []
    for v in place(local, at, rotation, mirror):
        ox, oy = orient(v, parent.rotation_degrees, parent.mirror)
        out.append((parent.position.x + ox, parent.position.y + oy))
    return out


def _named(at: str, p: Piece) -> str:
    return f'{at} (id "{p.id}")' if p.id else at


def _pieces(layout: TerrainLayout, where: str, templates: dict[str, TerrainTemplate],
            depth: float, problems: list[str], src: Sources
            ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    first: dict[str, int] = {}
    for i, p in enumerate(layout.pieces):
        if p.id is None:
            continue
        if p.id in first:
            problems.append(f"{_named(_at(where, f'pieces[{i}]'), p)}: id {p.id}: also the id of "
                            f"pieces[{first[p.id]}]; every piece of a layout has its own id")
        else:
            first[p.id] = i
    areas: dict[str, Piece] = {p.id: p for p in layout.pieces if p.id and p.parent_area_id is None}
    placed: list[tuple[int, Piece, list[tuple[float, float]], float | None, str]] = []
    Wall = tuple[list[tuple[float, float]], "float | None", str]
    walls: dict[str, list[Wall]] = {}
    for i, p in enumerate(layout.pieces):
        at = _named(_at(where, f"pieces[{i}]"), p)
        local, height = _footprint(p, templates, at, problems)
        if local is None:
            continue
        if p.parent_area_id is not None:
            parent = areas.get(p.parent_area_id)
            if parent is None:
                problems.append(f"{at}: parent_area_id {p.parent_area_id}: no area piece has that id")
                continue
            walls.setdefault(p.parent_area_id, []).append((_carried(
                local, (p.position.x, p.position.y), p.rotation_degrees, p.mirror, parent),
                height, at))
            continue
        pts = place(local, (p.position.x, p.position.y), p.rotation_degrees, p.mirror)
        placed.append((i, p, pts, height, at))
        tpl = templates.get(p.template or "") if p.footprint is None else None
        for k, f in enumerate(tpl.features if tpl is not None else []):
            ftpl = templates.get(f.template)
            fat = f"{at}: template {tpl.id}: features[{k}]"    # type: ignore[union-attr]
            if ftpl is None:
                problems.append(f"{fat}: template {f.template}: not given (pass the "
                                "terrain-templates file that holds it)")
                continue
            walls.setdefault(_area_key(p, i), []).append((_carried(
                footprint_vertices(ftpl.footprint), (f.position.x, f.position.y),
                f.rotation_degrees, f.mirror, p), ftpl.default_height_inches, fat))
    terrain: list[dict[str, Any]] = []
    objectives: list[dict[str, Any]] = []
    used: set[str] = set()
    for i, p, pts, height, at in placed:
        if p.is_objective or p.objective_role or p.objective is not None:
            meta = p.objective
            pos = meta.position if meta is not None and meta.position is not None else p.position
            # an exported map objective carries its map id in its name ("... [centre]")
            mid, oname = untag(p.name, p.id, objective_entity_id)
            oid = mid if mid and mid not in {o["id"] for o in objectives} else \
                objective_id(oname, objectives)
            obj: dict[str, Any] = {"id": oid, "at": to_map((pos.x, pos.y), depth)}
            if meta is not None and meta.control_range_inches is not None:
                obj["range"] = meta.control_range_inches
            label = oname or p.id or f"piece {i + 1}"
            obj["name"] = f"{label}" + (f" ({p.objective_role})" if p.objective_role else "")
            objectives.append(obj)
            src.objectives.append(at)
        if not p.terrain:
            continue       # an empty area: a bare objective marker, not terrain
        its_walls = walls.get(_area_key(p, i), [])
        tall_walls = [(w, a) for w, h, a in its_walls if h is None or h >= TALL_MIN_HEIGHT_IN]
        kind = _kind_for(height, bool(its_walls))
        # an exported map piece carries its map id in its name ("... [A]": carry.tagged)
        mid, pname = untag(p.name, p.id, lambda t: entity_id(t, "t"))
        tid = mid or p.id or f"piece-{i + 1}"
        while tid in used:
            tid += "-2"
        used.add(tid)
        row: dict[str, Any] = {"id": tid, "kind": kind,
                               "polygon": [to_map(v, depth) for v in pts]}
        where_row = {"polygon": at, "rect": at, "tall_part": at}
        if pname:
            row["name"] = pname
        if tall_walls:
            ring = tall_walls[0][0] if len(tall_walls) == 1 else convex_hull(
                [v for w, _ in tall_walls for v in w])
            row["tall_part"] = [to_map(v, depth) for v in ring]
            where_row["tall_part"] = " and ".join(a for _, a in tall_walls)
        elif kind == "ruin" and height is not None and height >= TALL_MIN_HEIGHT_IN:
            row["tall_part"] = [to_map(v, depth) for v in pts]
        terrain.append(row)
        src.terrain.append(where_row)
    return terrain, objectives
