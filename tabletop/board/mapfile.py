"""Load and save map files (TOML, docs/map-format.md).

``load(path) -> Battlefield`` reports every problem in a bad file at once as a
``MapSyntaxError`` or ``MapValidationError`` whose ``problems`` are one line
each: ``file: place: what is wrong``.  ``save(state, path)`` writes a file
that loads back to the same state and keeps what the user wrote (a formation
stays a formation while its models stand where it put them; per-model keys
stay per-model).  Coordinates in inches, bottom-left origin, y up.
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from dataclasses import replace
from typing import Any

import tomli_w
from pydantic import ValidationError

from tabletop.board.bases import parse_base
from tabletop.board.config import DECISION_CHOICES, GAMBIT_CHOICES, make_config
from tabletop.board.decision_checks import decision_problems
from tabletop.board.formation import formation_slots
from tabletop.board.input_files import read_bounded, strip_bom
from tabletop.board.lesson import lesson_table
from tabletop.board.limits import MAX_MAP_BYTES, MAX_NESTING
from tabletop.board.measured import resolve_measured
from tabletop.board.profile_values import profile_problems, weapon_problems
from tabletop.board.schema import MapIn, ModelIn, UnitIn
from tabletop.board.state import (
    DEFAULT_FACING,
    Battlefield,
    Decision,
    Deployment,
    Formation,
    Model,
    Objective,
    Player,
    Table,
    Terrain,
    Unit,
    toml_value,
)
from tabletop.errors import MapSyntaxError, MapValidationError

_MESSAGES = {
    "missing": "missing (required)",
    "extra_forbidden": "unknown key",
}


def _place(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("function-after[_models_or_formation(), UnitIn]",):
            continue
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


def _clean(msg: str) -> str:
    msg = re.sub(r"^(Value|Assertion) error, ", "", msg)
    return msg[:1].lower() + msg[1:]


_UNION_TAG = re.compile(r"^(float|int|bool|str|none|literal\[.*\]|list\[.*\]|dict\[.*\]|function-.*)$")
_TAG_WORDS = {"float": "a number", "int": "a whole number", "bool": "true or false", "str": "text"}


def _tag_words(tag: str) -> str:
    if tag.startswith("literal["):
        return tag[len("literal["):-1].replace("'", '"')
    return _TAG_WORDS.get(tag, tag)


#: what each table of the map format is, in docs/map-format.md's words, for a value given
#: where a table belongs (``rect = [1, 1, 0, 0]``): the schema's class names stay inside
_TABLE_WORDS = {
    "MapMeta": "the [map] table (name, ruleset, width, depth)",
    "RulesIn": "the [rules] table of options",
    "PlayerIn": "a player table ({ id = \"...\", ... } or [[players]])",
    "RectIn": "a rectangle table: rect = { centre = [x, y], width = W, depth = D, angle = A } "
              "(inches, degrees; angle optional)",
    "TerrainIn": "a terrain table ([[terrain]])",
    "ObjectiveIn": "an objective table ([[objectives]])",
    "DeploymentIn": "a deployment zone table ([[deployment]])",
    "ModelIn": "a model: [x, y] in inches or a table { at = [x, y], ... }",
    "FormationIn": "a formation table: formation = { front_centre = [x, y], facing = F, "
                   "files = N, ranks = N }",
    "UnitIn": "a unit table ([[units]])",
    "DecisionIn": "a decision table ([[decisions]])",
    "LessonIn": "a lesson step table ([[lesson]])",
}


def _table_words(err: Any) -> str:
    """What the map format expects where a ``model_type`` error found some other value."""
    name = str((err.get("ctx") or {}).get("class_name", ""))
    return _TABLE_WORDS.get(name, "a table ({ key = value, ... } or a [section])")


def _format_errors(path: str, err: ValidationError) -> list[str]:
    """One line per problem: ``file: place: what is wrong``; the alternatives of a
    field that takes one of several types are merged into one line."""
    lines: list[str] = []
    unions: dict[str, tuple[list[str], Any]] = {}
    for e in err.errors():
        loc = tuple(p for p in e["loc"] if not (isinstance(p, str) and ("[" in p and "(" in p)))
        tags = [p for p in loc if isinstance(p, str) and _UNION_TAG.match(p)]
        loc = tuple(p for p in loc if not (isinstance(p, str) and _UNION_TAG.match(p)))
        place = _place(loc)
        if tags:
            if place not in unions:
                unions[place] = ([], e.get("input"))
                lines.append(place)          # placeholder, filled below
            unions[place][0].append(_tag_words(tags[-1]))
            continue
        msg = _MESSAGES.get(e["type"], _clean(e["msg"]))
        if e["type"] == "model_type":   # a value where a table belongs: say which table
            lines.append(f"{path}: {place}: expected {_table_words(e)}, got {e.get('input')!r}")
            continue
        if e["type"] == "too_long":     # a count over a limit (board/limits.py)
            ctx = e.get("ctx") or {}
            msg = (f"at most {ctx.get('max_length')} entries (a limit of the map format), "
                   f"got {ctx.get('actual_length')}")
            lines.append(f"{path}: {place}: {msg}")
            continue
        if e["type"] not in _MESSAGES and "input" in e and e["type"] not in ("value_error",) \
                and not isinstance(e.get("input"), (dict, list)):
            msg += f", got {e['input']!r}"
        # a model-level message of the form "models[i]: ..." names a deeper place
        m = re.match(r"^(models\[\d+\]): (.*)$", msg)
        if m:
            place, msg = f"{place}.{m.group(1)}", m.group(2)
        # a map-level message of the form "units[i]...: ..." names its own place
        m = re.match(r"^(units\[\d+\][\w.\[\]]*): (.*)$", msg)
        if m and place == "(top level)":
            place, msg = m.group(1), m.group(2)
        lines.append(f"{path}: {place}: {msg}")
    out = []
    for line in lines:
        if line in unions:
            words, got = unions[line]
            out.append(f"{path}: {line}: expected {' or '.join(dict.fromkeys(words))}, got {got!r}")
        else:
            out.append(line)
    return out


def read_file(path: str, what: str = "map file") -> bytes:
    """The bytes of ``path``, a regular file of at most ``limits.MAX_MAP_BYTES``
    (``board.input_files.read_bounded``: a FIFO, a device or a socket is refused from its
    ``stat`` before any read, and the read stops one byte past the limit).

    Raises
    ------
    MapSyntaxError
        Missing, a folder, not a regular file, too large, or unreadable (one line).
    """
    return read_bounded(path, what, MAX_MAP_BYTES, "MAX_MAP_BYTES", MapSyntaxError)


def map_text(path: str) -> str:
    """The text of the map file ``path`` (``read_file``), a leading UTF-8 byte-order mark
    dropped (``input_files.strip_bom``: Windows editors write one; it is no part of the TOML).

    Raises
    ------
    MapSyntaxError
        What ``read_file`` raises, or bytes that are not UTF-8 (naming their line).
    """
    raw = read_file(path)
    try:
        return strip_bom(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise MapSyntaxError(f"{path}: line {line}: cannot read: not UTF-8 text "
                             f"(byte 0x{raw[exc.start]:02x})") from None


def _nesting(data: Any) -> int:
    """How deeply ``data``'s arrays and tables nest (the top table is 1), without recursion."""
    deepest, todo = 0, [(data, 1)]
    while todo:
        item, depth = todo.pop()
        deepest = max(deepest, depth)
        if depth > MAX_NESTING:
            break
        if isinstance(item, dict):
            todo.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            todo.extend((v, depth + 1) for v in item)
    return deepest


def read_toml(path: str) -> dict[str, Any]:
    """Read TOML from ``path`` (a regular file, ``read_file``).

    Raises
    ------
    MapSyntaxError
        When the file is missing, not a regular file, too large, unreadable, not UTF-8,
        not valid TOML (with line and column), or nested deeper than ``MAX_NESTING``.
    """
    text = map_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        text = str(exc)
        m = re.search(r"\(at line (\d+), column (\d+)\)", text)
        what = re.sub(r"\s*\(at line \d+, column \d+\)", "", text)
        where = f"line {m.group(1)}, column {m.group(2)}" if m else "toml"
        raise MapSyntaxError(f"{path}: {where}: invalid TOML: {what[:1].lower() + what[1:]}") from None
    except RecursionError:
        raise MapSyntaxError(f"{path}: arrays or tables nested more than {MAX_NESTING} deep "
                             f"(MAX_NESTING)") from None
    if _nesting(data) > MAX_NESTING:
        raise MapSyntaxError(f"{path}: arrays or tables nested more than {MAX_NESTING} deep "
                             f"(MAX_NESTING)")
    return data


def load(path: str) -> Battlefield:
    """Load a map file.

    Parameters
    ----------
    path : str
        A TOML map file as docs/map-format.md describes.

    Returns
    -------
    Battlefield

    Raises
    ------
    MapSyntaxError
        Missing file or TOML syntax error.
    MapValidationError
        Every other problem, all at once, one line each.
    """
    data = read_toml(path)
    state = from_dict(data, path=path)
    return replace(state, path=path)


def load_all(path: str) -> tuple[Battlefield | None, list[str]]:
    """Read a map file and ``build`` it: ``(state or None, every fault found)``.

    Raises
    ------
    MapSyntaxError
        Missing file or TOML syntax error (nothing more can be checked).
    """
    state, problems = build(read_toml(path), path=path)
    return (replace(state, path=path) if state is not None else None), problems


def _cross_checks(path: str, data: dict[str, Any]) -> list[str]:
    """Checks across tables, run on the raw data so they report even when fields are bad."""
    problems: list[str] = []

    def lst(key: str) -> list[Any]:
        v = data.get(key, [])
        return v if isinstance(v, list) else []

    players = [p.get("id") for p in lst("players") if isinstance(p, dict)]
    if not lst("players") and (lst("units") or lst("decisions")):
        # a measured table of terrain, objectives and zones needs no players; units do
        problems.append(f"{path}: players: missing (required): a map with units needs "
                        "[[players]] (only a terrain-only table may leave them out)")
    seen: dict[str, str] = {}
    for i, pid in enumerate(players):
        if isinstance(pid, str) and pid in seen:
            problems.append(f"{path}: players[{i}].id: duplicate id {pid!r} (also {seen[pid]})")
        elif isinstance(pid, str):
            seen[pid] = f"players[{i}]"
    active = [p for p in lst("players") if isinstance(p, dict) and p.get("active") is True]
    if lst("players") and len(active) != 1:
        problems.append(
            f"{path}: players: exactly one player must have active = true (whose turn it is), "
            f"found {len(active)}")
    known = set(p for p in players if isinstance(p, str))
    ids: dict[str, str] = {}
    for key in ("units", "terrain", "objectives"):
        for i, item in enumerate(lst(key)):
            if not isinstance(item, dict):
                continue
            iid = item.get("id")
            if isinstance(iid, str):
                if iid in ids:
                    problems.append(f"{path}: {key}[{i}].id: duplicate id {iid!r} (also {ids[iid]})")
                else:
                    ids[iid] = f"{key}[{i}]"
    for key in ("units", "deployment", "decisions"):
        if key == "deployment" and not lst("players"):
            continue    # a terrain-only table: zones keep the published layout's player names
        for i, item in enumerate(lst(key)):
            if isinstance(item, dict) and isinstance(item.get("player"), str) \
                    and item["player"] not in known:
                problems.append(
                    f"{path}: {key}[{i}].player: no player {item['player']!r} "
                    f"(players are {', '.join(sorted(known)) or 'none'})")
    for i, item in enumerate(lst("decisions")):
        # a hand-written decision must give its answer (TOML has no null); a saved --play
        # run (``by``) may record a question answered with nothing
        if isinstance(item, dict) and "value" not in item and "by" not in item:
            problems.append(f"{path}: decisions[{i}].value: missing: give the answer, one of "
                            f"the options of choice {item.get('choice')!r}")
    ruleset = data.get("map", {}).get("ruleset") if isinstance(data.get("map"), dict) else None
    known_choices = DECISION_CHOICES.get(ruleset) if isinstance(ruleset, str) else None
    rules: dict[str, Any] = data["rules"] if isinstance(data.get("rules"), dict) else {}
    if known_choices:
        for i, item in enumerate(lst("decisions")):
            choice = item.get("choice") if isinstance(item, dict) else None
            if isinstance(choice, str) and choice not in known_choices:
                problems.append(f"{path}: decisions[{i}].choice: unknown choice {choice!r} for "
                                f"{ruleset} (choices are {', '.join(known_choices)})")
            elif ruleset == "fight-phase" and choice in GAMBIT_CHOICES \
                    and rules.get("challenges") != "gambit":
                # asked only in the gambit Challenge Sub-phase: never on this map
                problems.append(f"{path}: decisions[{i}].choice: {choice!r} is asked only with "
                                f"[rules] challenges = \"gambit\" (this map has no challenges)")
    return problems


def from_dict(data: dict[str, Any], path: str = "<map>") -> Battlefield:
    """Validate a map already read from TOML and build the state (see ``load``).

    Raises
    ------
    MapValidationError
        Every fault ``build`` finds, one located line each, in map order.
    """
    state, problems = build(data, path)
    if problems or state is None:
        raise MapValidationError(problems or f"{path}: the map cannot be read")
    return state


def build(data: dict[str, Any], path: str = "<map>") -> tuple[Battlefield | None, list[str]]:
    """Validate a map already read from TOML and build what can be built: ``(state,
    problems)``, every fault found in one pass (issue 11 audit), each its own located line,
    in map order (``in_map_order``).

    The schema, the cross-table checks and the profile and weapon numbers
    (``profile_values``, also read from the raw tables when the schema fails) are all run
    whatever the others found; the state is built (and its decisions checked) whenever the
    schema and the cross-table checks pass, even with bad profile numbers, so a caller can
    run the ruleset's own profile checks on it too.  ``state`` is None when it cannot be
    built.  A state returned with problems is for finding more faults only, never to use.
    """
    data, measured = resolve_measured(data, path)       # a measured table's tape forms
    problems = measured + _cross_checks(path, data)
    try:
        parsed = MapIn.model_validate(data)
    except ValidationError as err:
        schema = _format_errors(path, err)
        return None, in_map_order(data, schema + problems + _unreported(
            _raw_value_problems(path, data), schema))
    values = _value_problems(path, parsed)
    if problems:
        return None, in_map_order(data, problems + values)
    try:
        config = make_config(parsed.map.ruleset, parsed.rules.model_dump(exclude_none=True))
    except ValueError as exc:
        return None, in_map_order(data, [f"{path}: rules: {exc}"] + values)
    if config.challenges and config.challenges not in ("gambit", "character"):
        return None, in_map_order(data, [f"{path}: rules.challenges: unknown option "
                                         f"{config.challenges!r}"] + values)
    expected = {"fight-phase": "gambit", "rank-and-flank": "character"}[config.ruleset]
    if config.challenges and config.challenges != expected:
        return None, in_map_order(data, [
            f"{path}: rules.challenges: {config.challenges!r} does not apply to "
            f"{config.ruleset}; use {expected!r}"] + values)
    try:
        state = _build_state(path, parsed, config)
    except MapValidationError as exc:
        return None, in_map_order(data, values + list(exc.problems))
    except Exception:           # noqa: BLE001 -- only reached with bad profile numbers:
        if values:              # the build was tried to find more faults; report those found
            return None, in_map_order(data, values)
        raise
    return state, in_map_order(data, values + decision_problems(path, state))


def _build_state(path: str, parsed: MapIn, config: Any) -> Battlefield:
    """The state of a map whose schema and cross-table checks passed."""
    problems: list[str] = []
    units = []
    for i, u in enumerate(parsed.units):
        try:
            units.append(_build_unit(u))
        except ValueError as exc:
            problems.append(f"{path}: units[{i}]: {exc}")
    if problems:
        raise MapValidationError(problems)

    terrain = tuple(_build_terrain(t) for t in parsed.terrain)
    return Battlefield(
        name=parsed.map.name,
        source=parsed.map.source,
        table=Table(parsed.map.width, parsed.map.depth),
        rules=config,
        players=tuple(Player(p.id, p.colour, p.active, p.name) for p in parsed.players),
        units=tuple(units),
        terrain=terrain,
        objectives=tuple(
            Objective(o.id, (o.at[0], o.at[1]), parse_base(o.marker), o.range, o.name)
            for o in parsed.objectives),
        deployment=tuple(
            Deployment(d.player, tuple((p[0], p[1]) for p in d.polygon), d.name)
            for d in parsed.deployment),
        decisions=tuple(Decision(d.player, d.choice, d.value, d.by) for d in parsed.decisions),
        path=path,
        seed=parsed.map.seed,
        lesson=tuple(entry.build() for entry in parsed.lesson),
    )


_PLACE = re.compile(r"^([A-Za-z_]\w*)(?:\[(\d+)\])?")


def in_map_order(data: Any, problems: list[str]) -> list[str]:
    """``problems`` (``file: place: ...`` lines) sorted by where their place is in the map
    file: its top-level table in the order the file gives them, then the entry's index
    (``units[18]`` after ``units[2]``); lines within one entry, and lines naming no place,
    keep their order (a stable sort).  Repeated lines are dropped."""
    tops = list(data) if isinstance(data, dict) else []

    def key(line: str) -> tuple[int, int]:
        rest = line.split(": ", 1)[1] if ": " in line else line
        m = _PLACE.match(rest)
        if not m:
            return (-1, -1)
        top = m.group(1)
        pos = tops.index(top) if top in tops else (-1 if top == "map" else len(tops))
        return (pos, int(m.group(2)) if m.group(2) is not None else -1)

    return sorted(dict.fromkeys(problems), key=key)


def _place_of(line: str) -> str:
    rest = line.split(": ", 1)[1] if ": " in line else line
    return rest.split(": ", 1)[0]


def _unreported(lines: list[str], reported: list[str]) -> list[str]:
    """``lines`` whose place is not already named (or inside a place named) by ``reported``:
    one fault, one line."""
    places = [_place_of(r) for r in reported]
    return [line for line in lines
            if not any(_place_of(line) == p or _place_of(line).startswith(p + ".") for p in places)]


# one unit's values as ``_table_problems`` reads them: (its index, its profile or None, its
# weapons as (index, table)), and its models' (index, profile or None, weapons as
# (index, table))
_Tables = tuple[int, Any, list[tuple[int, Any]], list[tuple[int, Any, list[tuple[int, Any]]]]]


def _table_problems(ruleset: str, units: list[_Tables]) -> list[str]:
    """Profile and weapon values as numbers with their bounds (``profile_values``), one
    line each, at their places (``units[i].models[j].weapons[k]``)."""
    problems: list[str] = []
    for i, profile, weapons, models in units:
        if profile is not None:
            problems += profile_problems(profile, ruleset, f"units[{i}].profile")
        for k, w in weapons:
            problems += weapon_problems(w, f"units[{i}].weapons[{k}]")
        for j, mprofile, mweapons in models:
            if mprofile:
                problems += profile_problems(mprofile, ruleset, f"units[{i}].models[{j}].profile")
            for k, w in mweapons:
                problems += weapon_problems(w, f"units[{i}].models[{j}].weapons[{k}]")
    return problems


def _raw_value_problems(path: str, data: dict[str, Any]) -> list[str]:
    """``_value_problems`` read from the raw tables (the schema failed, so there is no parsed
    map): every unit, model and weapon table that is a table is checked; a table of the wrong
    shape is the schema's to report."""
    meta = data.get("map")
    ruleset = meta.get("ruleset") if isinstance(meta, dict) else None
    if ruleset not in ("fight-phase", "rank-and-flank"):
        return []                   # bounds depend on the ruleset; the schema names it

    def tables(ws: Any) -> list[tuple[int, Any]]:
        return [(k, dict(w)) for k, w in enumerate(ws if isinstance(ws, list) else [])
                if isinstance(w, dict)]

    def profile(t: dict) -> Any:
        return dict(t["profile"]) if isinstance(t.get("profile"), dict) else None

    units = data.get("units")
    found: list[_Tables] = []
    for i, u in enumerate(units if isinstance(units, list) else []):
        if not isinstance(u, dict):
            continue
        models = u.get("models")
        found.append((i, profile(u), tables(u.get("weapons")),
                      [(j, profile(m), tables(m.get("weapons")))
                       for j, m in enumerate(models if isinstance(models, list) else [])
                       if isinstance(m, dict)]))
    return [f"{path}: {line}" for line in _table_problems(ruleset, found)]


def _value_problems(path: str, parsed: MapIn) -> list[str]:
    """Profile and weapon values as numbers with their bounds (``profile_values``), one line
    each; a value written ``"3+"`` is stored as 3; and each model's ``wounds_lost``."""
    problems = _table_problems(parsed.map.ruleset, [
        (i, u.profile, list(enumerate(u.weapons)),
         [(j, m.profile, list(enumerate(m.weapons or ()))) for j, m in enumerate(u.models or ())])
        for i, u in enumerate(parsed.units)])
    for i, u in enumerate(parsed.units):
        for j, m in enumerate(u.models or ()):
            if m.wounds_lost:
                problems += _wounds_lost_problem(m.wounds_lost, m.profile or {}, u.profile,
                                                 f"units[{i}].models[{j}].wounds_lost")
    return [f"{path}: {line}" for line in problems]


def _wounds_lost_problem(lost: int, own: dict[str, Any], unit: dict[str, Any],
                         place: str) -> list[str]:
    """A model's ``wounds_lost`` must leave it a wound: at most its wounds characteristic
    (``W``; rank-and-flank ``Wounds``, any case; the model's own profile before its unit's)
    less one, since a model that has lost them all is removed, not left on the table
    (a model is destroyed and removed when its last wound is lost; rank-and-flank-combat.txt
    "Wounds and casualties" removes one each time the pool reaches its Wounds).  No
    line when the characteristic is missing or is not a number (reported elsewhere)."""
    wounds = None
    for table in (own, unit):
        for key, value in table.items():
            if key in ("W",) or key.lower() == "wounds":
                wounds = value
                break
        if wounds is not None:
            break
    if isinstance(wounds, bool) or not isinstance(wounds, int) or lost < wounds:
        return []
    return [f"{place}: a model of {wounds} wound{'s' if wounds != 1 else ''} can have lost at most "
            f"{wounds - 1} (one that lost them all is removed), got {lost}"]


def rect_polygon(centre: list[float] | tuple[float, float], width: float, depth: float,
                 angle: float) -> tuple[tuple[float, float], ...]:
    """Corners of a rectangle ``width`` along x and ``depth`` along y, turned ``angle`` degrees."""
    cx, cy = centre
    t = math.radians(angle)
    c, s = math.cos(t), math.sin(t)
    pts = []
    for dx, dy in ((-width / 2, -depth / 2), (width / 2, -depth / 2),
                   (width / 2, depth / 2), (-width / 2, depth / 2)):
        pts.append((round(cx + dx * c - dy * s, 9), round(cy + dx * s + dy * c, 9)))
    return tuple(pts)


def _build_terrain(t: Any) -> Terrain:
    tall = tuple((p[0], p[1]) for p in t.tall_part) if t.tall_part is not None else None
    if t.rect is not None:
        r = t.rect
        return Terrain(t.id, t.kind, rect_polygon(r.centre, r.width, r.depth, r.angle),
                       rect=r.model_dump(), name=t.name, tall_part=tall)
    return Terrain(t.id, t.kind, tuple((p[0], p[1]) for p in t.polygon), name=t.name,
                   tall_part=tall)


_MODEL_KEYS = ("facing", "name", "role", "base", "profile", "weapons", "keywords", "status",
               "wounds_lost")


def _make_model(u: UnitIn, n: int, x: float, y: float, m: ModelIn | None,
                unit_facing: float | None) -> Model:
    written = frozenset(k for k in _MODEL_KEYS if m is not None and k in m.model_fields_set)
    profile = dict(u.profile)
    if m is not None and m.profile:
        profile.update(m.profile)
    facing = m.facing if (m is not None and m.facing is not None) else unit_facing
    return Model(
        id=f"{u.id}/{n}",
        x=float(x), y=float(y),
        facing_deg=float(facing if facing is not None else DEFAULT_FACING),
        base=parse_base(m.base) if (m is not None and m.base) else parse_base(u.base),
        profile=profile,
        weapons=tuple(m.weapons if (m is not None and m.weapons is not None) else u.weapons),
        keywords=tuple(u.keywords) + tuple(m.keywords or () if m is not None else ()),
        name=m.name if m is not None else None,
        role=m.role if m is not None else None,
        wounds_lost=m.wounds_lost if m is not None else 0,
        status=tuple(m.status or ()) if m is not None else (),
        written=written,
    )


def _build_unit(u: UnitIn) -> Unit:
    base = parse_base(u.base)
    models: list[Model] = []
    formation = None
    layout = None
    facing = u.facing
    if u.formation is not None:
        f = u.formation
        count = f.count if f.count is not None else f.files * f.ranks
        formation = Formation((f.front_centre[0], f.front_centre[1]), f.facing, f.files,
                              f.ranks, count)
        facing = f.facing if facing is None else facing
        slots = formation_slots(formation.front_centre, f.facing, f.files, f.ranks, count, base)
        extras: dict[int, ModelIn] = {}
        queue = []
        for i, m in enumerate(u.models or []):
            if m.file is not None or m.rank is not None:
                if m.file is None or m.rank is None:
                    raise ValueError(f"models[{i}]: give both file and rank to place it in the formation")
                idx = next((k for k, s in enumerate(slots) if s[0] == m.file and s[1] == m.rank), None)
                if idx is None:
                    raise ValueError(f"models[{i}]: no slot at file {m.file}, rank {m.rank} in this formation")
                extras[idx] = m
            else:
                queue.append(m)
        free = [k for k in range(len(slots)) if k not in extras]
        if len(queue) > len(free):
            raise ValueError(f"models: {len(u.models or [])} model tables but the formation has {len(slots)} models")
        for k, m in zip(free, queue):
            extras[k] = m
        for k, (_, _, x, y) in enumerate(slots):
            models.append(_make_model(u, k + 1, x, y, extras.get(k), facing))
        layout = tuple((m.x, m.y, m.facing_deg) for m in models)
    else:
        for k, m in enumerate(u.models or []):
            assert m.at is not None   # the schema gives every model of a unit without a formation its at
            models.append(_make_model(u, m.n if m.n is not None else k + 1, m.at[0], m.at[1], m, facing))
    return Unit(
        id=u.id, player=u.player, base=base, models=tuple(models), name=u.name,
        keywords=tuple(u.keywords), profile=dict(u.profile), weapons=tuple(u.weapons),
        charged=u.charged, status=tuple(u.status), facing_deg=facing,
        formation=formation, formation_layout=layout,
    )


# --------------------------------------------------------------------- save
def _num(v: float) -> float | int:
    """A number as written: 12 for 12.0; full precision for computed positions, so a
    saved map loads back to exactly the same state."""
    v = float(v)
    if v == int(v) and abs(v) < 1e12:
        return int(v)
    return v


def _model_table(m: Model, unit: Unit, with_at: bool) -> dict[str, Any]:
    """The keys of one model worth writing: what the user wrote for it and what changed."""
    out: dict[str, Any] = {}
    if with_at:
        out["at"] = [_num(m.x), _num(m.y)]
    inherited = unit.facing_deg if unit.facing_deg is not None else DEFAULT_FACING
    if "facing" in m.written or abs(m.facing_deg - inherited) > 1e-9:
        out["facing"] = _num(m.facing_deg)
    if m.name is not None:
        out["name"] = m.name
    if m.role is not None:
        out["role"] = m.role
    if m.wounds_lost:
        out["wounds_lost"] = m.wounds_lost
    if "base" in m.written or m.base.text != unit.base.text:
        out["base"] = m.base.text
    own = {k: v for k, v in m.profile.items() if unit.profile.get(k) != v}
    if own:
        out["profile"] = own
    if "weapons" in m.written or tuple(m.weapons) != tuple(unit.weapons):
        out["weapons"] = [dict(w) for w in m.weapons]
    own_kw = [k for k in m.keywords if k not in unit.keywords]
    if own_kw:
        out["keywords"] = own_kw
    if m.status:
        out["status"] = list(m.status)
    return out


def _formation_holds(unit: Unit) -> bool:
    if unit.formation is None or unit.formation_layout is None:
        return False
    if len(unit.models) != len(unit.formation_layout):
        return False
    for i, (m, (x, y, f)) in enumerate(zip(unit.models, unit.formation_layout)):
        if m.id != f"{unit.id}/{i + 1}":
            return False
        if abs(m.x - x) > 1e-9 or abs(m.y - y) > 1e-9 or abs(m.facing_deg - f) > 1e-9:
            return False
    return True


def _unit_table(unit: Unit) -> dict[str, Any]:
    out: dict[str, Any] = {"id": unit.id}
    if unit.name:
        out["name"] = unit.name
    out["player"] = unit.player
    out["base"] = unit.base.text
    if unit.keywords:
        out["keywords"] = list(unit.keywords)
    if unit.profile:
        out["profile"] = dict(unit.profile)
    if unit.weapons:
        out["weapons"] = [dict(w) for w in unit.weapons]
    if unit.charged:
        out["charged"] = True
    if unit.status:
        out["status"] = list(unit.status)
    if _formation_holds(unit):
        f = unit.formation
        assert f is not None
        if unit.facing_deg is not None and unit.facing_deg != f.facing:
            out["facing"] = _num(unit.facing_deg)
        out["formation"] = {"front_centre": [_num(f.front_centre[0]), _num(f.front_centre[1])],
                            "facing": _num(f.facing), "files": f.files, "ranks": f.ranks,
                            "count": f.count}
        tables = [_model_table(m, unit, with_at=False) for m in unit.models]
        if any(tables):
            # place each table explicitly by its slot so order never matters
            slots = formation_slots(f.front_centre, f.facing, f.files, f.ranks, f.count, unit.base)
            out["models"] = [dict(t, file=slots[i][0], rank=slots[i][1])
                             for i, t in enumerate(tables) if t]
        return out
    if unit.facing_deg is not None:
        out["facing"] = _num(unit.facing_deg)
    models: list[Any] = []
    for k, m in enumerate(unit.models):
        t = _model_table(m, unit, with_at=True)
        number = int(m.id.rsplit("/", 1)[1])
        if number != k + 1:
            t["n"] = number   # keep the id (e.g. after casualties) so reports and events still match
        if set(t) == {"at"}:
            models.append(t["at"])
        elif set(t) == {"at", "facing"}:
            models.append(t["at"] + [t["facing"]])
        else:
            models.append(t)
    out["models"] = models
    return out


def to_dict(state: Battlefield) -> dict[str, Any]:
    """The map as a TOML-ready dict (the inverse of ``from_dict``)."""
    meta: dict[str, Any] = {"name": state.name, "ruleset": state.ruleset,
                            "width": _num(state.table.width), "depth": _num(state.table.depth)}
    if state.source:
        meta["source"] = state.source
    if state.seed is not None:
        meta["seed"] = state.seed
    out: dict[str, Any] = {"map": meta}
    if state.rules.written:
        out["rules"] = dict(state.rules.written)
    players = []
    for p in state.players:
        d: dict[str, Any] = {"id": p.id}
        if p.name:
            d["name"] = p.name
        if p.colour:
            d["colour"] = p.colour
        if p.active:
            d["active"] = True
        players.append(d)
    out["players"] = players
    if state.terrain:
        terrain = []
        for t in state.terrain:
            d = {"id": t.id, "kind": t.kind}
            if t.name:
                d["name"] = t.name
            if t.rect is not None:
                d["rect"] = {k: (_num(v) if isinstance(v, (int, float)) else [_num(c) for c in v])
                             for k, v in t.rect.items()}
            else:
                d["polygon"] = [[_num(x), _num(y)] for x, y in t.polygon]
            if t.tall_part is not None:
                d["tall_part"] = [[_num(x), _num(y)] for x, y in t.tall_part]
            terrain.append(d)
        out["terrain"] = terrain
    if state.objectives:
        objs = []
        for o in state.objectives:
            d = {"id": o.id, "at": [_num(o.at[0]), _num(o.at[1])]}
            if o.name:
                d["name"] = o.name
            if o.marker.text != "40mm":
                d["marker"] = o.marker.text
            if o.range is not None:
                d["range"] = _num(o.range)
            objs.append(d)
        out["objectives"] = objs
    if state.deployment:
        out["deployment"] = [
            dict({"player": d.player, "polygon": [[_num(x), _num(y)] for x, y in d.polygon]},
                 **({"name": d.name} if d.name else {}))
            for d in state.deployment]
    if state.units:
        out["units"] = [_unit_table(u) for u in state.units]
    if state.decisions:
        # in their order (scripted answers are taken in order): a None value has no key
        out["decisions"] = [
            dict({"player": d.player, "choice": d.choice},
                 **({"value": toml_value(d.value)} if d.value is not None else {}),
                 **({"by": d.by} if d.by else {}))
            for d in state.decisions]
    if state.lesson:
        out["lesson"] = [lesson_table(entry) for entry in state.lesson]
    return out


_NUM_ARRAY = re.compile(r"\[\s*\n((?:[ \t]*-?[0-9][0-9.eE+-]*,[ \t]*\n)+)[ \t]*\]")


def _compact(text: str) -> str:
    """Put arrays of plain numbers (points) on one line: ``[10, 12]``."""
    return _NUM_ARRAY.sub(
        lambda m: "[" + ", ".join(v.strip().rstrip(",") for v in m.group(1).splitlines()) + "]",
        text)


def dumps(state: Battlefield) -> str:
    """The map as TOML text (tomli-w, with points kept on one line)."""
    return _compact(tomli_w.dumps(to_dict(state)))


def edited_text(state: Battlefield, source: str | None) -> str | None:
    """The TOML of ``state`` written into the document of the file ``source`` (tomlkit,
    ``board.toml_edit``): its comments and layout kept, only what changed rewritten.
    None when there is no such file or it no longer loads, or the edit would not load
    back to ``state`` exactly (then the map is written afresh with ``dumps``)."""
    if not source or not os.path.isfile(source):
        return None
    from tabletop.board import toml_edit  # tomlkit only when a map is saved
    try:
        text = map_text(source)
        base = to_dict(from_dict(tomllib.loads(text), path=source))
        new = to_dict(state)
        out = toml_edit.edit(text, base, new)
        if to_dict(from_dict(tomllib.loads(out), path=source)) != new:
            return None
    except Exception:       # noqa: BLE001 - any trouble: write the map afresh instead
        return None
    return out


def save(state: Battlefield, path: str, *, force: bool = False, header: str = "",
         source: str | None = None, overwrite: bool | None = None) -> str:
    """Write the map to ``path`` (``board.writes.write_atomic``: a temporary file of its
    own renamed into place); ``header`` (lines of text) goes first as ``#`` comments.

    The file is the document of ``source`` (default ``state.path``, the file the state
    was read from) with only what changed rewritten, so the user's comments and layout
    survive (``edited_text``); a state with no readable source is written afresh.
    ``overwrite`` is the old name of ``force``.

    Raises
    ------
    OutputExistsError
        (a ``TabletopError``) ``path`` exists and ``force`` is false: nothing the
        user wrote is overwritten silently; or ``path`` is ``source``.
    OSError
        The file cannot be written.
    """
    from tabletop.board.writes import write_atomic

    if overwrite is not None:
        force = overwrite
    src = source if source is not None else state.path
    text = edited_text(state, src)
    if text is None:
        text = dumps(state)
    if header:
        text = "".join(f"# {line}".rstrip() + "\n" for line in header.splitlines()) + "\n" + text
    return write_atomic(path, text, force=force, keep=(src,) if src else ())


def next_free_path(path: str) -> str:
    """``maps/x.toml`` -> ``maps/x-1.toml`` (or -2, ...) that does not exist yet."""
    stem, ext = os.path.splitext(path)
    m = re.match(r"^(.*)-(\d+)$", stem)
    if m:
        stem = m.group(1)
    n = 1
    while os.path.lexists(f"{stem}-{n}{ext or '.toml'}"):     # a dangling link is taken too
        n += 1
    return f"{stem}-{n}{ext or '.toml'}"
