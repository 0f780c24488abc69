"""Turn a ``Roster`` into units of a map, placed in a player's deployment zone.

``resolve_bases`` gives every model its base (the shipped table, or ``--base`` overrides) and
lists every name it cannot: nothing is guessed and no unit is dropped.  ``deploy`` lays each
unit out (``layout``: a cluster for 40K and Horus Heresy, a block for The Old World) and puts
it at the first free spot of the zone (``geometry.deploy_area``), in roster order, then builds
the new map through the map reader (so the result is checked as any map is) and checks it
with the geometry snapshot: no base overlaps another, every placed unit is in coherency.

The army faces the table: the direction from the zone's centre to the table's centre,
squared to the nearest of 0, 90, 180 and 270 degrees (named default ``FACING``); a zone
centred on the table faces 90.  Distances are inches.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from tabletop.board import mapfile
from tabletop.board.bases import parse_base
from tabletop.board.state import Battlefield, Deployment
from tabletop.geometry.deploy_area import DeployArea
from tabletop.geometry.snapshot import snapshot
from tabletop.roster.base_table import BaseTable, Found, Missing, normalise
from tabletop.roster.ids import slug
from tabletop.roster.layout import (
    SPREAD_MARGIN,
    Laid,
    SpreadError,
    block,
    cluster,
    crewed,
    grid,
    spread_of,
)
from tabletop.roster.model import Roster, RosterUnit
from tabletop.roster.read import RosterError
from tabletop.rules.describe import plural

#: named default: the army faces from its zone's centre to the table's centre, squared
FACING = "towards the table centre, squared to the table edges"
#: named default: how far apart (inches) the first-fit scan tries spots, along rows and
#: between rows; half an inch packs units as a player would by hand
SCAN_STEP = 0.5
#: each system as a message names it ("a 40K roster")
SYSTEM_NAMES = {"40k": "a 40K", "horus-heresy": "a Horus Heresy", "old-world": "an Old World"}
#: which ruleset each system's units are laid out for
RULESET = {"40k": "fight-phase", "horus-heresy": "fight-phase", "old-world": "rank-and-flank"}


@dataclass
class Resolved:
    """A roster unit with a base per model (``bases[k]`` for its k-th model entry) and
    the reference lines they came from."""

    unit: RosterUnit
    bases: list[str]
    lines: list[int] = field(default_factory=list)
    given: bool = False          # a --base override


class Overrides(dict):
    """``--base`` as ``{key: base}`` (see ``parse_overrides``); ``given[key]`` is the name
    as the user wrote it, for messages."""

    def __init__(self) -> None:
        super().__init__()
        self.given: dict[str, str] = {}


def parse_overrides(items: list[str]) -> Overrides:
    """``["Unit=32mm", "Unit/Model=25mm", ...]`` as ``{key: base}``: the key is the
    normalised name, or ``unit/model`` (each part normalised) for one model of one unit.

    Raises
    ------
    RosterError
        An item without "=" or with a base the map format does not read.
    """
    out = Overrides()
    for item in items:
        name, sep, base = item.partition("=")
        if not sep or not name.strip():
            raise RosterError(f"--base {item!r}: write NAME=SIZE or UNIT/MODEL=SIZE, e.g. "
                              "--base \"Gretchin=25mm\"")
        try:
            parse_base(base.strip())
        except ValueError as exc:
            raise RosterError(f"--base {item!r}: {exc}") from None
        unit, slash, model = name.rpartition("/")
        key = f"{normalise(unit)}/{normalise(model)}" if slash else normalise(name)
        if slash and not (normalise(unit) and normalise(model)):
            raise RosterError(f"--base {item!r}: write UNIT/MODEL=SIZE with both names")
        out[key] = base.strip()
        out.given[key] = name.strip()
    return out


def _unknown_overrides(roster: Roster, overrides: dict[str, str], where: str) -> list[str]:
    """One line per ``--base`` that names no unit or model of ``roster``."""
    names: set[str] = set()
    for unit in roster.units:
        for u in {normalise(unit.name), normalise(unit.sheet)}:
            names.add(u)
            for m in unit.models:
                for mn in {normalise(m.name), normalise(m.sheet)}:
                    names.update((mn, f"{u}/{mn}"))
    given = getattr(overrides, "given", {})
    return [f"{where}: --base \"{given.get(key, key)}={base}\": no unit or model of the roster "
            "is named so" for key, base in overrides.items() if key not in names]


def _suggest(unit: RosterUnit, model: str, got: Missing, per_model: bool) -> str:
    what = f"{unit.sheet}/{model}" if per_model else unit.sheet
    if got.sizes:
        eg = f" (the nearest names stand on {', '.join(got.sizes)})"
    else:
        eg = ""
    return f"give it with --base \"{what}=SIZE\"{eg}"


def resolve_bases(roster: Roster, overrides: dict[str, str], where: str) -> list[Resolved]:
    """Every unit of ``roster`` with its models' bases.  A ``--base`` key is looked up as
    ``unit/model``, then the model's name, then the unit's.

    Raises
    ------
    RosterError
        One line per unit with a model the table cannot give a base (and no ``--base``):
        why, and the nearest names the table knows; one per ``--base`` naming nothing in
        the roster.
    """
    table = BaseTable(roster.system, roster.faction)
    out, problems = [], _unknown_overrides(roster, overrides, where)
    for unit in roster.units:
        bases, lines, given, missing, found_some = [], [], False, None, False
        units_ = [normalise(unit.name), normalise(unit.sheet)]
        for m in unit.models:
            models_ = [normalise(m.name), normalise(m.sheet)]
            over = next((overrides[k] for k in [f"{u}/{mn}" for u in units_ for mn in models_]
                         + models_ + units_ if k in overrides), None)
            if over:
                bases.append(over)
                given = True
                continue
            got = table.find(unit.sheet, m.sheet, tuple(m.gear) + tuple(unit.gear))
            if isinstance(got, Found):
                found_some = True
                bases.append(got.base)
                lines.extend(r.line for r in got.rows if r.line not in lines)
            elif missing is None:
                missing = (m, got)
        if missing is not None:
            m, got = missing
            assert isinstance(got, Missing)
            what = unit.label if m.sheet == unit.sheet else f"{unit.label}, model {m.label}"
            near = f"; nearest: {'; '.join(got.candidates)}" if got.candidates else ""
            problems.append(f"{where}: {what}: {got.reason}{near}; {_suggest(unit, m.sheet, got, found_some)}")
            continue
        out.append(Resolved(unit, bases, lines, given))
    if problems:
        raise RosterError(problems)
    return out


#: named default: the end of a map's name that says its table holds no units ("CA layout 1
#: (empty)", as the shipped bare tables are named); placing units (``tabletop roster``, the
#: editor's ``U`` / ``N``) drops it, since the table is no longer empty
EMPTY_NAME_SUFFIX = " (empty)"


def name_with_units(name: str) -> str:
    """``name`` for a map that now has units: without a trailing ``EMPTY_NAME_SUFFIX``
    ("... Hammer and Anvil (empty)" -> "... Hammer and Anvil"); unchanged otherwise, and
    when nothing would be left."""
    cut = name.removesuffix(EMPTY_NAME_SUFFIX)
    return cut if cut.strip() else name


def army_facing(state: Battlefield, zone: Deployment) -> float:
    """The army's facing (``FACING``), degrees."""
    xs = [p[0] for p in zone.polygon]
    ys = [p[1] for p in zone.polygon]
    dx = state.table.width / 2 - (min(xs) + max(xs)) / 2
    dy = state.table.depth / 2 - (min(ys) + max(ys)) / 2
    if abs(dx) < 1e-9 and abs(dy) < 1e-9:
        return 90.0
    return (round(math.degrees(math.atan2(dy, dx)) / 90.0) * 90.0) % 360.0


def pick_zone(state: Battlefield, player: str, zone: str | None, where: str) -> Deployment:
    """The player's deployment zone: the only one, or the one ``zone`` names (its name, or
    its number 1, 2, ... among the player's zones).

    Raises
    ------
    RosterError
        Unknown player, no zone for the player, several and none chosen, or no such zone.
    """
    ids = [p.id for p in state.players]
    if player not in ids:
        raise RosterError(f"{where}: --player {player!r}: no such player (players are "
                          f"{', '.join(ids) or 'none'})")
    zones = [d for d in state.deployment if d.player == player]
    names = ", ".join(f"{k} ({d.name or 'unnamed'})" for k, d in enumerate(zones, 1))
    if not zones:
        raise RosterError(f"{where}: player {player!r} has no deployment zone on this map")
    if zone is None:
        if len(zones) > 1:
            raise RosterError(f"{where}: player {player!r} has {len(zones)} zones: choose one "
                              f"with --zone ({names})")
        return zones[0]
    for k, d in enumerate(zones, 1):
        if zone == str(k) or (d.name and normalise(d.name) == normalise(zone)):
            return d
    raise RosterError(f"{where}: --zone {zone!r}: no such zone of {player!r} ({names})")


def _slug(name: str, taken: set[str]) -> str:
    """A unit id from its name, transliterated to ASCII and unique (``roster.ids.slug``)."""
    return slug(name, taken, "unit")


def _keywords(unit: RosterUnit) -> list[str]:
    out = []
    for k in unit.keywords:
        word = re.sub(r"\s+", "-", k.strip().lower())
        if word and word not in out:
            out.append(word)
    return out


@dataclass
class Placement:
    """The map with the roster's units, and what was placed (for the report)."""

    state: Battlefield
    units: list[dict[str, Any]]
    facing: float
    zone: Deployment
    tables: list[dict[str, Any]] = field(default_factory=list)   # the new [[units]]


def check_ruleset(state: Battlefield, system: str, where: str) -> str:
    """The ruleset ``system``'s units are laid out for, when it is the map's.

    Raises
    ------
    RosterError
        The map's ruleset is another (``an Old World roster is laid out for rank-and-flank,
        but the map's ruleset is fight-phase``).
    """
    ruleset = RULESET[system]
    if state.ruleset != ruleset:
        raise RosterError(f"{where}: {SYSTEM_NAMES[system]} roster is laid out for {ruleset}, "
                          f"but the map's ruleset is {state.ruleset}")
    return ruleset


def _layouts(unit: RosterUnit, bases: list, roles: list, ruleset: str, facing: float,
             frontage: int, rules, where: str) -> list[Laid]:
    """The unit's layouts to try, best first: for a block its one block (the frontage is the
    user's), for a cluster the compact grid (or blob), then wider, shallower grids
    (``ceil(sqrt n)`` + 1 files up to all abreast), then narrower, deeper ones, each within
    the coherency spread: a zone, or the room left in it, that cannot take the square may
    take a line or a column."""
    try:
        first = first_layout(bases, roles, ruleset, facing, frontage, rules)
    except SpreadError as exc:
        raise RosterError(f"{where}: {unit.label}: {exc}; split the unit or set "
                          "[rules] roster_min_model_gap lower") from None
    out = [first]
    if ruleset == "rank-and-flank":
        return out
    spread = coherency_spread(rules)
    n = len(bases)
    square = math.ceil(math.sqrt(n))
    for cols in list(range(square + 1, n + 1)) + list(range(square - 1, 0, -1)):
        shaped = grid(bases, facing, rules.roster_model_gap, cols)
        if spread is None or n < 2 or spread_of(bases, list(shaped.spots)) <= spread - SPREAD_MARGIN:
            out.append(shaped)
    return out


def first_layout(bases: list, roles: list, ruleset: str, facing: float, frontage: int,
                 rules) -> Laid:
    """A unit's layout as ``tabletop roster`` tries it first (the editor's ``U`` drops it so):
    for rank-and-flank its block ``frontage`` files wide, or, for a unit of several base
    sizes (a war machine and its crew), models in base contact (``layout.crewed``); else the
    compact cluster, packed as a round blob when the grid would break the coherency spread
    (``layout.cluster``).  ``bases[k]`` and ``roles[k]`` are the k-th model's; ``facing`` is
    degrees; distances in ``rules`` are inches.

    Raises
    ------
    SpreadError
        No cluster keeps every model within ``coherency_spread(rules)`` (03.04).
    """
    if ruleset == "rank-and-flank":
        if len({(b.along_mm, b.across_mm, b.shape) for b in bases}) > 1:
            return crewed(bases, facing, frontage)      # a war machine and its crew
        return block(bases[0], roles, facing, frontage)
    return cluster(bases, facing, rules.roster_model_gap, coherency_spread(rules),
                   rules.roster_min_model_gap)


def _try_place(state: Battlefield, units: list, order: list[int], zone: Deployment,
               rules, facing: float) -> tuple[dict[int, tuple[Laid, float, float]], list[int]]:
    """Place ``units[k]`` (``(resolved, models, bases, layouts)``) in ``order``, each at the
    first fit of its first layout that fits: ``{k: (layout, dx, dy)}`` and the ``k`` that
    found no room."""
    area = DeployArea(state, zone.polygon, rules.roster_unit_gap)
    done: dict[int, tuple[Laid, float, float]] = {}
    failed = []
    for k in order:
        _, _, bases, layouts = units[k]
        facing_ = facing
        for laid in layouts:
            placed = [(b, x, y, facing_) for b, (x, y) in zip(bases, laid.spots)]
            shift = area.first_fit(placed, facing_, SCAN_STEP)
            if shift is not None:
                area.occupy([(b, x + shift[0], y + shift[1], f) for b, x, y, f in placed])
                done[k] = (laid, shift[0], shift[1])
                break
        else:
            failed.append(k)
    return done, failed


def deploy(state: Battlefield, resolved: list[Resolved], system: str, player: str,
           zone: Deployment, where: str, frontage: int | None = None) -> Placement:
    """Place every resolved unit in ``zone`` and return the new map.

    Units are placed in roster order, each at the first spot of the zone (front edge first)
    where one of its layouts fits (``_layouts``); when one finds no room, the whole army is
    placed again largest unit first (``PACK_ORDER``), which packs a small zone tighter.

    Raises
    ------
    RosterError
        The map's ruleset is not the roster's, a unit too big for the coherency spread,
        units that fit nowhere in the zone (every one named, with why: too big for the zone
        even alone, or no room left beside the others), or the result overlaps or breaks
        coherency (each names the unit).
    """
    ruleset = check_ruleset(state, system, where)
    rules = state.rules
    frontage = frontage or rules.roster_frontage
    facing = army_facing(state, zone)
    taken = {u.id for u in state.units} | {t.id for t in state.terrain} | {
        o.id for o in state.objectives}
    units = []
    for r in resolved:
        models = [(m, b) for m, b in zip(r.unit.models, r.bases) for _ in range(m.count)]
        bases = [parse_base(b) for _, b in models]
        layouts = _layouts(r.unit, bases, [m.role for m, _ in models], ruleset, facing,
                           frontage, rules, where)
        units.append((r, models, bases, layouts))
    order = list(range(len(units)))
    done, failed = _try_place(state, units, order, zone, rules, facing)
    if failed:
        big_first = sorted(order, key=lambda k: -sum(b.along * b.across for b in units[k][2]))
        done2, failed2 = _try_place(state, units, big_first, zone, rules, facing)
        if len(failed2) < len(failed):
            done, failed = done2, failed2
    if failed:
        raise RosterError([_why(units[k], state, zone, rules, facing, where) for k in failed])
    tables, report = [], []
    for k, (r, models, _bases, _) in enumerate(units):
        unit = r.unit
        laid, dx, dy = done[k]
        uid = _slug(unit.name, taken)
        tables.append(_unit_table(uid, unit, player, models, laid, facing, dx, dy, ruleset))
        report.append({"id": uid, "name": unit.name, "datasheet": unit.sheet,
                       "models": len(models),
                       "bases": sorted({b for _, b in models}), "base_given": r.given,
                       "reference_lines": r.lines, "points": unit.points,
                       "layout": "block" if laid.files else "cluster",
                       **({"files": laid.files, "ranks": laid.ranks} if laid.files else {})})
    data = mapfile.to_dict(state)
    data["units"] = list(data.get("units", [])) + tables
    if tables:
        data["map"]["name"] = name_with_units(data["map"]["name"])
    new = mapfile.from_dict(data, path=where)
    _check(new, [t["id"] for t in tables], where)
    return Placement(new, report, facing, zone, tables)


def _why(entry, state: Battlefield, zone: Deployment, rules, facing: float, where: str) -> str:
    """Why a unit found no room: too big for the zone even alone, or no room left."""
    r, models, bases, layouts = entry
    name = zone.name or "the zone"
    alone = DeployArea(state, zone.polygon, rules.roster_unit_gap)
    if any(alone.first_fit([(b, x, y, facing) for b, (x, y) in zip(bases, laid.spots)],
                           facing, SCAN_STEP) is not None for laid in layouts):
        return (f"{where}: {r.unit.label} ({plural(len(models), 'model')}) finds no room left "
                f"in {name} beside the other units (try a larger zone, fewer units, or a smaller [rules] "
                f"roster_unit_gap than {rules.roster_unit_gap:g}\")")
    laid = layouts[0]
    xs = [x for x, _ in laid.spots]
    ys = [y for _, y in laid.spots]
    size = f"{max(xs) - min(xs) + max(b.across for b in bases):.1f}\" x " \
           f"{max(ys) - min(ys) + max(b.along for b in bases):.1f}\""
    shape = (f"a block {laid.files} x {laid.ranks}" if laid.files else "its tightest layout")
    hint = " (give a wider --frontage)" if laid.files else ""
    return (f"{where}: {r.unit.label} ({plural(len(models), 'model')}) cannot fit in {name} even "
            f"alone: {shape} is about {size}{hint}")


def coherency_spread(rules) -> float | None:
    """The coherency spread (03.04, inches) a cluster must keep; None when the rules set
    none (or coherency is base contact, rank-and-flank)."""
    if rules.coherency_range is None or rules.coherency_spread is None:
        return None
    return rules.coherency_spread


def _unit_table(uid: str, unit: RosterUnit, player: str, models, laid, facing: float,
                dx: float, dy: float, ruleset: str) -> dict[str, Any]:
    first, base0 = models[0]
    out: dict[str, Any] = {"id": uid, "name": unit.label, "player": player, "base": base0}
    if _keywords(unit):
        out["keywords"] = _keywords(unit)
    if first.profile:
        out["profile"] = dict(first.profile)
    if first.weapons and ruleset == "fight-phase":
        out["weapons"] = [dict(w) for w in first.weapons]
    out["facing"] = facing
    rows = []
    for k, (m, b) in enumerate(models):
        t: dict[str, Any] = {}
        if m.label != unit.label:
            t["name"] = m.label
        if m.role:
            t["role"] = m.role
        if b != base0:
            t["base"] = b
        if m.profile and m.profile != first.profile:
            t["profile"] = dict(m.profile)
        if ruleset == "fight-phase" and m.weapons != first.weapons:
            t["weapons"] = [dict(w) for w in m.weapons]
        if laid.files:
            if t:
                t["file"], t["rank"] = laid.slots[k]
                rows.append(t)
        else:
            x, y = laid.spots[k]
            t["at"] = [round(x + dx, 4), round(y + dy, 4)]
            rows.append(t)
    if laid.files:
        out["formation"] = {"front_centre": [round(dx, 4), round(dy, 4)], "facing": facing,
                            "files": laid.files, "ranks": laid.ranks, "count": len(models)}
        if rows:
            out["models"] = rows
    else:
        out["models"] = rows
    return out


def _check(state: Battlefield, ids: list[str], where: str) -> None:
    geo = snapshot(state)
    mine = set(ids)
    problems = [f"{where}: {a} overlaps {b}" for a, b in geo.overlaps
                if a.rsplit("/", 1)[0] in mine or b.rsplit("/", 1)[0] in mine]
    problems += [f"{where}: {uid} is not in coherency after placing" for uid in ids
                 if not geo.in_coherency(uid)]
    if problems:
        raise RosterError(problems)
