#!/usr/bin/env python3
"""Generate the shipped maps in ``maps/`` from the reference figures.

Run from the repository root::

    python tools/make_maps.py [--reference DIR] [--check]

It reads ``terrain-layouts-ca-2025-26.csv``, ``deployment-maps-ca-2025-26.csv``
and ``base-sizes.csv`` (default folder ``reference/`` of the repository, or
``$TABLETOP_REFERENCE``), builds each map, checks it with the same code as
``tabletop check`` (no overlaps, nothing off the table, coherency kept, the
engagements we meant and no others, deployed units wholly inside their zones)
and writes ``maps/*.toml``.  ``--check`` compares instead of writing (exit 1
when a committed map differs from what the script builds).

Every figure is traceable: terrain pieces and zones by their CSV rows, bases by
their line number in base-sizes.csv, named in each map's ``source``.

Coordinates: the two layout CSVs follow the published diagrams, 60" wide by
44" deep with the origin at the top-left and y down; map files have the origin
at the bottom-left and y up, so a diagram point (x, y) is (x, 44 - y).  Model
positions below are written in map coordinates (inches).  Formation positions
(rank-and-flank) are worked out from ``tabletop.board.formation``: a
formation's ``front_centre`` is the middle of its front edge, ranks behind it.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shapely.geometry import Polygon  # noqa: E402  (a tool, not a package layer)

from tabletop.board import mapfile  # noqa: E402
from tabletop.board.bases import parse_base  # noqa: E402
from tabletop.cli.check_cmd import build_report  # noqa: E402
from tabletop.geometry import snapshot  # noqa: E402
from tabletop.geometry.footprints import base_polygon  # noqa: E402

DEFAULT_REFERENCE = Path(os.environ.get("TABLETOP_REFERENCE", str(ROOT / "reference")))
MAPS = ROOT / "maps"
DIAGRAM_DEPTH = 44.0

# Named defaults for terrain kinds (the layouts give footprints and heights, not kinds):
# a piece with a tall part (walls over 4") is a ruin; a piece with only a low part
# (2" or less) is low terrain that models cross and see over: an obstacle.
KIND_WITH_TALL_PART = "ruin"
KIND_LOW_ONLY = "obstacle"

GUIDE = 'GW "Warhammer 40,000 Base Size Guide'
MARINES = "marines"
ORKS = "orks"


# ---------------------------------------------------------------- reading the reference
def parse_points(text: str) -> list[tuple[float, float]]:
    """``"(28,0);(32,0)"`` -> ``[(28.0, 0.0), (32.0, 0.0)]``."""
    out = []
    for part in text.split(";"):
        x, y = part.strip().strip("()").split(",")
        out.append((float(x), float(y)))
    return out


def to_map(points: list[tuple[float, float]], depth: float = DIAGRAM_DEPTH) -> list[list[float]]:
    """Diagram (top-left origin, y down) -> map (bottom-left origin, y up): (x, depth - y)."""
    return [[_r(x), _r(depth - y)] for x, y in points]


def _r(v: float, places: int = 6) -> float | int:
    v = round(float(v), places)
    return int(v) if v == int(v) else v


class Reference:
    """The three CSVs, with line numbers (the header is line 1)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.layouts = self._read("terrain-layouts-ca-2025-26.csv")
        self.deployments = self._read("deployment-maps-ca-2025-26.csv")
        self.bases = self._read("base-sizes.csv")

    def _read(self, name: str) -> list[dict[str, str]]:
        path = self.folder / name
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        for i, row in enumerate(rows):
            row["_line"] = str(i + 2)
        return rows

    # -- bases
    def base(self, faction: str, unit: str, *, system: str = "Warhammer 40,000",
             model: str = "", source: str | None = GUIDE) -> tuple[str, str, str]:
        """(base text for the map, csv line, label) of the first matching row."""
        for row in self.bases:
            if not row["system"].startswith(system) or row["faction"] != faction:
                continue
            if row["unit"] != unit or (model and row["model"] != model):
                continue
            if source and not row["source"].startswith(source):
                continue
            if not model and source == GUIDE and row["model"]:
                continue
            w, d = float(row["width_mm"]), float(row["depth_mm"])
            shape = row["base_shape"]
            if shape == "round":
                text = f"{w:g}mm"
            elif shape == "oval":
                text = f"{w:g}x{d:g}mm oval"
            elif shape in ("square", "rectangle"):
                text = f"{w:g}x{d:g}mm"        # frontage x depth, as the data writes it
            else:
                raise SystemExit(f"base-sizes.csv line {row['_line']}: no usable base ({shape})")
            label = f"{faction} {unit}{': ' + model if model else ''} {row['raw_base_size']}"
            return text, row["_line"], label
        raise SystemExit(f"base-sizes.csv: no row for {system} / {faction} / {unit} / {model!r}")

    # -- terrain and deployment
    def layout(self, number: int) -> list[dict[str, str]]:
        return [r for r in self.layouts if r["layout"] == str(number)]

    def deployment(self, name: str) -> list[dict[str, str]]:
        rows = [r for r in self.deployments if r["map"] == name]
        if not rows:
            raise SystemExit(f"deployment-maps-ca-2025-26.csv: no map {name!r}")
        return rows


def terrain_from_layout(ref: Reference, number: int) -> list[dict]:
    """Every piece of a layout as a map polygon, its tall part kept as ``tall_part``."""
    out = []
    for row in ref.layout(number):
        piece = {
            "id": row["piece"],
            "kind": KIND_WITH_TALL_PART if row["tall_part_in"] else KIND_LOW_ONLY,
            "name": f"layout {number} piece {row['piece']} ({row['size_class']})",
            "polygon": to_map(parse_points(row["outline_in"])),
        }
        if row["tall_part_in"]:
            piece["tall_part"] = to_map(parse_points(row["tall_part_in"]))
        out.append(piece)
    return out


def compass_id(x: float, y: float, cx: float = 30.0, cy: float = 22.0) -> str:
    """An objective id from its place on the map: centre, north, south-west, ..."""
    parts = []
    if y - cy > 4:
        parts.append("north")
    elif cy - y > 4:
        parts.append("south")
    if x - cx > 4:
        parts.append("east")
    elif cx - x > 4:
        parts.append("west")
    return "-".join(parts) or "centre"


def deployment_from_map(ref: Reference, name: str, defender: str, attacker: str
                        ) -> tuple[list[dict], list[dict]]:
    """(deployment zones, objectives) of a published deployment map, in map coordinates.

    The CSV's notes ("18\" from left short edge", "6\" from top edge") show it uses
    the diagrams' convention (top-left origin, y down), so points are flipped too.
    """
    zones, objectives = [], []
    for row in ref.deployment(name):
        if row["element"] in ("defender_zone", "attacker_zone"):
            if row["kind"] != "polygon":
                raise SystemExit(f"{name}: zone kind {row['kind']!r} is not a plain polygon")
            player = defender if row["element"] == "defender_zone" else attacker
            zones.append({"player": player, "name": f"{name} {row['element'].replace('_', ' ')}",
                          "polygon": to_map(parse_points(row["coords_in"]))})
        elif row["element"] == "objective":
            (x, y), = to_map(parse_points(row["coords_in"]))
            objectives.append({"id": compass_id(x, y), "at": [x, y],
                               "name": f"{name}: {row['note']}"})
    return zones, objectives


# ---------------------------------------------------------------- 40K armies
# Profiles: representative 10th-edition datasheet values, typed in for play
# (M, T, Sv, W, Ld, OC; weapons A, WS, S, AP, D); the reference folder has no profiles.
CCW = {"name": "Close combat weapon", "A": 3, "WS": 3, "S": 4, "AP": 0, "D": 1}
CHAINSWORD = {"name": "Astartes chainsword", "A": 4, "WS": 3, "S": 4, "AP": -1, "D": 1}
CHOPPA = {"name": "Choppa", "A": 3, "WS": 3, "S": 4, "AP": -1, "D": 1}
POWER_KLAW = {"name": "Power klaw", "A": 3, "WS": 4, "S": 9, "AP": -2, "D": 2}

MARINE_UNITS = {
    # id: (faction, unit in the base guide, name, profile, weapons, keywords)
    "assault": ("Space Marines", "Assault Intercessor Squad", "Assault Intercessor Squad",
                dict(M=6, T=4, Sv=3, W=2, Ld=6, OC=2), [CHAINSWORD], ["infantry"]),
    "bladeguard": ("Space Marines", "Bladeguard Veteran Squad", "Bladeguard Veteran Squad",
                   dict(M=6, T=4, Sv=3, W=3, Ld=6, OC=1),
                   [{"name": "Master-crafted power weapon", "A": 4, "WS": 3, "S": 5, "AP": -2,
                     "D": 2}], ["infantry"]),
    "intercessors-b": ("Space Marines", "Intercessor Squad", "Intercessor Squad (B)",
                       dict(M=6, T=4, Sv=3, W=2, Ld=6, OC=2), [CCW], ["infantry"]),
    "captain": ("Space Marines", "Captain in Terminator Armour", "Captain in Terminator Armour",
                dict(M=5, T=5, Sv=2, W=6, Ld=6, OC=1),
                [{"name": "Relic weapon", "A": 6, "WS": 2, "S": 5, "AP": -2, "D": 2}],
                ["infantry", "character", "terminator"]),
    "intercessors": ("Space Marines", "Intercessor Squad", "Intercessor Squad (A)",
                     dict(M=6, T=4, Sv=3, W=2, Ld=6, OC=2), [CCW], ["infantry"]),
    "lieutenant": ("Space Marines", "Lieutenant", "Lieutenant",
                   dict(M=6, T=4, Sv=3, W=5, Ld=6, OC=1),
                   [{"name": "Master-crafted power weapon", "A": 5, "WS": 2, "S": 5, "AP": -2,
                     "D": 2}], ["infantry", "character"]),
    "scouts": ("Space Marines", "Scout Squad", "Scout Squad",
               dict(M=6, T=4, Sv=4, W=2, Ld=6, OC=2),
               [{"name": "Combat knife", "A": 3, "WS": 3, "S": 4, "AP": 0, "D": 1}], ["infantry"]),
    "outriders": ("Space Marines", "Outrider Squad", "Outrider Squad",
                  dict(M=12, T=5, Sv=3, W=4, Ld=6, OC=2), [CHAINSWORD], ["mounted"]),
    "terminators": ("Space Marines", "Terminator Squad", "Terminator Squad",
                    dict(M=5, T=5, Sv=2, W=3, Ld=6, OC=1),
                    [{"name": "Power fist", "A": 3, "WS": 3, "S": 8, "AP": -2, "D": 2}],
                    ["infantry", "terminator"]),
    "hellblasters": ("Space Marines", "Hellblaster Squad", "Hellblaster Squad",
                     dict(M=6, T=4, Sv=3, W=2, Ld=6, OC=1), [CCW], ["infantry"]),
}

ORK_UNITS = {
    "boyz": ("Orks", "Boyz", "Boyz", dict(M=6, T=5, Sv=5, W=1, Ld=7, OC=2), [CHOPPA],
             ["infantry", "mob"]),
    "gretchin": ("Orks", "Gretchin", "Gretchin", dict(M=6, T=2, Sv=7, W=1, Ld=8, OC=2),
                 [{"name": "Close combat weapon", "A": 1, "WS": 5, "S": 2, "AP": 0, "D": 1}],
                 ["infantry", "grots"]),
    "nobz": ("Orks", "Nobz", "Nobz", dict(M=6, T=5, Sv=4, W=2, Ld=7, OC=2), [POWER_KLAW],
             ["infantry"]),
    "boyz-2": ("Orks", "Boyz", "Boyz (second mob)", dict(M=6, T=5, Sv=5, W=1, Ld=7, OC=2),
               [CHOPPA], ["infantry", "mob"]),
    "warboss": ("Orks", "Warboss", "Warboss", dict(M=6, T=5, Sv=4, W=6, Ld=6, OC=1),
                [{"name": "Big choppa", "A": 5, "WS": 2, "S": 7, "AP": -1, "D": 2}],
                ["infantry", "character"]),
    "meganobz": ("Orks", "Meganobz", "Meganobz", dict(M=5, T=6, Sv=2, W=3, Ld=7, OC=1),
                 [POWER_KLAW], ["infantry", "mega-armour"]),
    "beastboss": ("Orks", "Beastboss", "Beastboss", dict(M=6, T=5, Sv=4, W=6, Ld=6, OC=1),
                  [{"name": "Beastchoppa", "A": 6, "WS": 2, "S": 6, "AP": -1, "D": 2}],
                  ["infantry", "character"]),
    "warbikers": ("Orks", "Warbikers", "Warbikers", dict(M=12, T=6, Sv=4, W=3, Ld=7, OC=2),
                  [CCW], ["mounted"]),
    "stormboyz": ("Orks", "Stormboyz", "Stormboyz", dict(M=12, T=5, Sv=5, W=1, Ld=7, OC=1),
                  [CHOPPA], ["infantry", "jump-pack"]),
    "kommandos": ("Orks", "Kommandos", "Kommandos", dict(M=6, T=5, Sv=5, W=1, Ld=7, OC=1),
                  [CHOPPA], ["infantry"]),
}


class Sources:
    """Collects the base-sizes.csv lines a map uses, for its ``source``."""

    def __init__(self, ref: Reference):
        self.ref = ref
        self.used: dict[str, str] = {}

    def base(self, faction: str, unit: str, **kw) -> str:
        text, line, label = self.ref.base(faction, unit, **kw)
        self.used[line] = label
        return text

    def text(self) -> str:
        return "base-sizes.csv lines " + ", ".join(
            f"{line} ({label})" for line, label in sorted(self.used.items(), key=lambda kv: int(kv[0])))


def row_of(x0: float, y: float, n: int, dx: float) -> list[list[float]]:
    return [[_r(x0 + k * dx), _r(y)] for k in range(n)]


def col_of(x: float, y0: float, n: int, dy: float) -> list[list[float]]:
    return [[_r(x), _r(y0 + k * dy)] for k in range(n)]


def make_unit(src: Sources, table: dict, uid: str, player: str, models: list, *,
              charged: bool = False, facing: float | None = None,
              extra: dict[int, dict] | None = None) -> dict:
    """A 40K unit table; ``extra`` maps a model index to per-model keys (name, role, base...)."""
    faction, unit_name, name, profile, weapons, keywords = table[uid]
    out: dict = {"id": uid, "name": name, "player": player,
                 "base": src.base(faction, unit_name),
                 "keywords": list(keywords), "profile": dict(profile),
                 "weapons": [dict(w) for w in weapons]}
    if charged:
        out["charged"] = True
    if facing is not None:
        out["facing"] = facing
    ms: list = []
    for k, at in enumerate(models):
        if extra and k in extra:
            ms.append(dict({"at": at[:2]}, **extra[k]))
        else:
            ms.append(at)
    out["models"] = ms
    return out


# ---- fight scenes on layout 1 (map coordinates; 32mm = 1.26", 25mm = 0.984", 40mm = 1.575",
# 50mm = 1.969").  Worked numbers are in tests/test_maps.py.
def fight_a(src: Sources) -> list[dict]:
    """Assault Intercessors (charged) engaged with a Boyz mob, top of the centre.

    Boyz front column x = 35.0, y 27.0..32.2 every 1.3" (0.04" apart); marines 1-3 at
    x = 35.0 - 1.26 = 33.74: base contact; marines 4-5 at x = 32.74: 1.0" away; marine 6
    1.58" away; marines 7-10 2.3"-3.5" away (out of 2" engagement range, they pile in).
    """
    orks = col_of(35.0, 27.0, 5, 1.3) + col_of(36.3, 27.65, 5, 1.3)
    marines = (col_of(33.74, 27.0, 3, 1.3) + col_of(32.74, 30.9, 2, 1.3)
               + [[32.24, 27.65], [31.5, 29.0], [30.3, 30.2], [30.6, 31.8], [31.3, 33.3]])
    return [
        make_unit(src, MARINE_UNITS, "assault", MARINES, marines, charged=True,
                  extra={0: {"name": "Assault Intercessor Sergeant", "role": "champion"}}),
        make_unit(src, ORK_UNITS, "boyz", ORKS, orks,
                  extra={9: {"name": "Boss Nob", "role": "champion",
                             "profile": {"W": 2}, "weapons": [POWER_KLAW]}}),
    ]


def fight_b(src: Sources) -> list[dict]:
    """Bladeguard that charged but are unengaged, 4" from Gretchin (a pile-in target within 5").

    Bladeguard at x = 23.5 (radius 0.787); Gretchin front column at
    x = 23.5 + 0.787 + 4.0 + 0.492 = 28.78 (rounded); Gretchin 3 is level with Bladeguard 2.
    """
    blade = col_of(23.5, 9.0, 3, 1.7)
    grots = (col_of(28.78, 8.6, 5, 1.05) + col_of(29.85, 9.1, 5, 1.05))
    runtherd = [31.0, 11.1]
    return [
        make_unit(src, MARINE_UNITS, "bladeguard", MARINES, blade, charged=True),
        dict(make_unit(src, ORK_UNITS, "gretchin", ORKS, grots + [runtherd],
                       extra={10: {"name": "Runtherd",
                                   "base": src.base("Orks", "Gretchin: Runtherd"),
                                   "profile": {"T": 5, "Sv": 6, "W": 2}}})),
    ]


def fight_c(src: Sources) -> list[dict]:
    """Nobz engaged (1" apart, no base contact) with Intercessors (B) and a Terminator
    Captain in base contact with the last Nob: one engagement of three units.

    Nobz at x = 40.0, y 2.0..7.2 every 1.3"; intercessors 1-3 at x = 40 - 1.26 - 1.0 = 37.74;
    4-5 at x = 36.4 (2.34" away); captain (radius 0.984) at x = 40 - 0.6299 - 0.9843 = 38.3858,
    y = 7.2, touching Nob 5.
    """
    nobz = col_of(40.0, 2.0, 5, 1.3)
    inter = col_of(37.74, 2.0, 3, 1.3) + [[36.4, 2.65], [36.4, 3.95]]
    return [
        make_unit(src, ORK_UNITS, "nobz", ORKS, nobz),
        make_unit(src, MARINE_UNITS, "intercessors-b", MARINES, inter,
                  extra={0: {"name": "Intercessor Sergeant", "role": "champion"}}),
        make_unit(src, MARINE_UNITS, "captain", MARINES, [[38.3858, 7.2]]),
    ]


def layout1_deployed(src: Sources) -> list[dict]:
    """Units wholly inside their Hammer and Anvil zones (marines x <= 18, orks x >= 42)."""
    return [
        make_unit(src, MARINE_UNITS, "intercessors", MARINES,
                  row_of(7.4, 23.2, 5, 1.4) + row_of(8.1, 24.6, 5, 1.4),
                  extra={0: {"name": "Intercessor Sergeant", "role": "champion"}}),
        make_unit(src, MARINE_UNITS, "lieutenant", MARINES, [[4.6, 24.2]]),
        make_unit(src, MARINE_UNITS, "scouts", MARINES,
                  row_of(2.0, 2.0, 3, 1.2) + row_of(2.6, 3.2, 2, 1.2)),
        make_unit(src, MARINE_UNITS, "outriders", MARINES, col_of(13.5, 1.8, 3, 2.3), facing=0),
        make_unit(src, MARINE_UNITS, "terminators", MARINES, row_of(2.0, 9.0, 5, 1.7)),
        make_unit(src, MARINE_UNITS, "hellblasters", MARINES,
                  col_of(2.5, 30.0, 3, 1.4) + col_of(3.9, 30.7, 2, 1.4)),
        make_unit(src, ORK_UNITS, "boyz-2", ORKS,
                  [p for y in (31.0, 32.35, 33.7, 35.05) for p in row_of(48.0, y, 5, 1.35)],
                  extra={0: {"name": "Boss Nob", "role": "champion", "profile": {"W": 2},
                             "weapons": [POWER_KLAW]}}),
        make_unit(src, ORK_UNITS, "warboss", ORKS, [[47.0, 36.8]]),
        make_unit(src, ORK_UNITS, "meganobz", ORKS, row_of(48.5, 19.5, 3, 1.7)),
        make_unit(src, ORK_UNITS, "beastboss", ORKS, [[57.5, 20.0]]),
        make_unit(src, ORK_UNITS, "warbikers", ORKS, col_of(57.5, 2.0, 3, 2.0), facing=180),
        make_unit(src, ORK_UNITS, "stormboyz", ORKS, col_of(45.0, 2.0, 5, 1.35)),
        make_unit(src, ORK_UNITS, "kommandos", ORKS,
                  row_of(56.0, 31.0, 3, 1.35) + row_of(56.7, 32.35, 2, 1.35)),
    ]


def layout2_deployed(src: Sources) -> list[dict]:
    """Both armies wholly inside the Crucible of Battle triangles.

    Defender (marines): bottom-left, x/30 + y/44 <= 1; attacker (orks): top-right,
    x >= 60 - 30 y / 44.  Spots are clear of layout 2's pieces.
    """
    return [
        make_unit(src, MARINE_UNITS, "intercessors", MARINES,
                  row_of(15.0, 1.5, 5, 1.4) + row_of(15.7, 2.9, 5, 1.4),
                  extra={0: {"name": "Intercessor Sergeant", "role": "champion"}}),
        make_unit(src, MARINE_UNITS, "assault", MARINES,
                  col_of(1.5, 1.2, 5, 1.4) + col_of(2.9, 1.2, 5, 1.4),
                  extra={0: {"name": "Assault Intercessor Sergeant", "role": "champion"}}),
        make_unit(src, MARINE_UNITS, "terminators", MARINES, col_of(5.5, 1.5, 5, 1.7)),
        make_unit(src, MARINE_UNITS, "hellblasters", MARINES,
                  [[1.5, 9.5], [2.9, 9.5], [1.5, 10.9], [2.9, 10.9], [2.2, 12.3]]),
        make_unit(src, MARINE_UNITS, "scouts", MARINES,
                  row_of(1.2, 21.5, 3, 1.2) + row_of(1.8, 22.7, 2, 1.2)),
        make_unit(src, MARINE_UNITS, "outriders", MARINES,
                  [[15.3, 10.2], [17.5, 10.2], [15.3, 13.9]], facing=90),
        make_unit(src, MARINE_UNITS, "bladeguard", MARINES, row_of(9.0, 1.5, 3, 1.7)),
        make_unit(src, MARINE_UNITS, "intercessors-b", MARINES,
                  row_of(8.8, 21.2, 3, 1.3) + row_of(9.45, 22.5, 2, 1.3),
                  extra={0: {"name": "Intercessor Sergeant", "role": "champion"}}),
        make_unit(src, MARINE_UNITS, "captain", MARINES, [[3.0, 25.2]]),
        make_unit(src, MARINE_UNITS, "lieutenant", MARINES, [[3.0, 30.0]]),
        make_unit(src, ORK_UNITS, "boyz-2", ORKS,
                  [p for y in (29.2, 30.55, 31.9, 33.25, 34.6) for p in row_of(53.0, y, 4, 1.35)],
                  extra={0: {"name": "Boss Nob", "role": "champion", "profile": {"W": 2},
                             "weapons": [POWER_KLAW]}}),
        make_unit(src, ORK_UNITS, "boyz", ORKS, row_of(53.0, 37.0, 5, 1.35) + row_of(53.0, 38.35, 5, 1.35),
                  extra={9: {"name": "Boss Nob", "role": "champion", "profile": {"W": 2},
                             "weapons": [POWER_KLAW]}}),
        make_unit(src, ORK_UNITS, "kommandos", ORKS, row_of(53.0, 41.5, 5, 1.35)),
        make_unit(src, ORK_UNITS, "gretchin", ORKS,
                  row_of(38.0, 41.3, 5, 1.1) + row_of(38.0, 42.4, 5, 1.1) + [[43.7, 41.85]],
                  extra={10: {"name": "Runtherd", "base": src.base("Orks", "Gretchin: Runtherd"),
                              "profile": {"T": 5, "Sv": 6, "W": 2}}}),
        make_unit(src, ORK_UNITS, "nobz", ORKS, col_of(43.3, 30.0, 5, 1.35)),
        make_unit(src, ORK_UNITS, "warboss", ORKS, [[44.8, 37.5]]),
        make_unit(src, ORK_UNITS, "meganobz", ORKS, row_of(53.5, 20.5, 3, 1.7)),
        make_unit(src, ORK_UNITS, "beastboss", ORKS, [[49.8, 22.5]]),
        make_unit(src, ORK_UNITS, "warbikers", ORKS, col_of(58.0, 8.0, 3, 1.9), facing=180),
        make_unit(src, ORK_UNITS, "stormboyz", ORKS,
                  row_of(56.3, 17.0, 3, 1.35) + row_of(56.95, 18.35, 2, 1.35)),
    ]


PLAYERS_40K = [
    {"id": MARINES, "name": "Space Marines (defender)", "colour": "#2f5fa8", "active": True},
    {"id": ORKS, "name": "Orks (attacker)", "colour": "#4f8a2b"},
]


def ca_map(ref: Reference, layout: int, deployment: str, name: str, units_fn) -> dict:
    src = Sources(ref)
    zones, objectives = deployment_from_map(ref, deployment, MARINES, ORKS)
    units = units_fn(src)
    source = (
        f"terrain: terrain-layouts-ca-2025-26.csv layout {layout} (GW Chapter Approved "
        f"Tournament Companion 2025-26 Terrain Layout {layout}), every piece, diagram (x, y) -> "
        f"map (x, 44 - y); deployment and objectives: deployment-maps-ca-2025-26.csv "
        f"'{deployment}' (same flip); bases: {src.text()}; profiles: representative "
        f"10th-edition datasheet values (not from the reference folder)")
    return {
        "map": {"name": name, "ruleset": "fight-phase", "width": 60, "depth": 44,
                "source": source},
        "rules": {"edition": "11th"},
        "players": PLAYERS_40K,
        "terrain": terrain_from_layout(ref, layout),
        "objectives": objectives,
        "deployment": zones,
        "units": units,
    }


#: the players of the empty tables (``maps/*-table.toml``): named for their role in the
#: deployment map, so ``tabletop roster ... --player defender`` reads as the mission does
PLAYERS_TABLE = [
    {"id": "defender", "name": "Defender", "colour": "#2f5fa8", "active": True},
    {"id": "attacker", "name": "Attacker", "colour": "#4f8a2b"},
]


def ca_table(ref: Reference, layout: int, deployment: str, name: str) -> dict:
    """A layout's table with no units: the same terrain, objectives and zones as
    ``ca_map``, players ``defender`` and ``attacker``: a table to deploy a roster on."""
    zones, objectives = deployment_from_map(ref, deployment, "defender", "attacker")
    source = (
        f"terrain: terrain-layouts-ca-2025-26.csv layout {layout} (GW Chapter Approved "
        f"Tournament Companion 2025-26 Terrain Layout {layout}), every piece, diagram (x, y) -> "
        f"map (x, 44 - y); deployment and objectives: deployment-maps-ca-2025-26.csv "
        f"'{deployment}' (same flip)")
    return {
        "map": {"name": name, "ruleset": "fight-phase", "width": 60, "depth": 44,
                "source": source},
        "rules": {"edition": "11th"},
        "players": PLAYERS_TABLE,
        "terrain": terrain_from_layout(ref, layout),
        "objectives": objectives,
        "deployment": zones,
        "units": [],
    }


# ---------------------------------------------------------------- rank-and-flank
def tow_unit(uid: str, name: str, player: str, base: str, profile: dict, keywords: list,
             front_centre: tuple[float, float], facing: float, files: int, ranks: int,
             count: int | None = None, models: list[dict] | None = None,
             charged: bool = False) -> dict:
    out: dict = {"id": uid, "name": name, "player": player, "base": base,
                 "keywords": keywords, "profile": profile}
    if charged:
        out["charged"] = True
    formation = {"front_centre": [_r(front_centre[0]), _r(front_centre[1])], "facing": facing,
                 "files": files, "ranks": ranks}
    if count is not None:
        formation["count"] = count
    out["formation"] = formation
    if models:
        out["models"] = models
    return out


# Profiles for the rank-and-flank text (Move, Skill, Power, Defense, Attacks, Wounds,
# Discipline): representative values typed in for play, not from the reference folder.
STATE_TROOPS = dict(Move=4, Skill=3, Power=3, Defense=3, Attacks=1, Wounds=1, Discipline=7)
CAPTAIN = dict(Skill=5, Power=4, Defense=4, Attacks=3, Wounds=2, Discipline=8)
ORC_BOY = dict(Move=4, Skill=3, Power=3, Defense=4, Attacks=1, Wounds=1, Discipline=7)
ORC_BIGBOSS = dict(Skill=5, Power=4, Defense=5, Attacks=3, Wounds=2, Discipline=8)
WOLF_RIDER = dict(Move=9, Skill=2, Power=3, Defense=3, Attacks=1, Wounds=1, Discipline=6)
KNIGHT = dict(Move=7, Skill=4, Power=3, Defense=5, Attacks=1, Wounds=1, Discipline=8)
GOBLIN = dict(Move=4, Skill=2, Power=3, Defense=3, Attacks=1, Wounds=1, Discipline=6)
BLACK_ORC = dict(Move=4, Skill=4, Power=4, Defense=4, Attacks=1, Wounds=1, Discipline=8)
FLAGELLANT = dict(Move=4, Skill=2, Power=3, Defense=3, Attacks=1, Wounds=1, Discipline=10)

TOW = "Warhammer: The Old World"
TOW_EMPIRE, TOW_GREENSKINS = "The Empire of Man", "Orc and Goblin Tribes"


def tow_base(src: Sources, faction: str, unit: str, model: str = "") -> str:
    """A Warhammer: The Old World base (frontage x depth) from base-sizes.csv."""
    return src.base(faction, unit, system=TOW, model=model, source=None)


def old_world_map(ref: Reference) -> dict:
    """72" x 48": a 5x4 Halberdier block engaged front (Orc Mob) and right flank (Wolf Riders).

    Halberdiers (25x25mm = 0.984") face 90 with front_centre (36, 24): front edge y = 24,
    files x 33.539..38.461, ranks back to y = 24 - 4 x 0.984 = 20.063.  The Orc Mob (30x30mm =
    1.181") faces 270 with the same front_centre: its front edge is the same line y = 24,
    4 files wide (x 33.638..38.362).  The Wolf Riders (25x50mm) face 180 with front_centre on
    the middle of the Halberdiers' right flank: (38.461, 22.031), 4 files x 25mm = the flank's
    4 ranks x 25mm.
    """
    src = Sources(ref)
    halb_base = tow_base(src, TOW_EMPIRE, "State Troops", "State Trooper")
    captain_base = tow_base(src, TOW_EMPIRE, "Captain of the Empire")
    orc_base = tow_base(src, TOW_GREENSKINS, "Orc Mobs")
    bigboss_base = tow_base(src, TOW_GREENSKINS, "Orc Bigboss")
    wolf_base = tow_base(src, TOW_GREENSKINS, "Giant Wolf")
    knight_base = tow_base(src, TOW_EMPIRE, "Empire Warhorse")
    flag_base = tow_base(src, TOW_EMPIRE, "Flagellants")
    goblin_base = tow_base(src, TOW_GREENSKINS, "Night Goblin Mobs")
    black_orc_base = tow_base(src, TOW_GREENSKINS, "Black Orc Mobs")
    # 20x20mm: The Old World data has no 20x20 base; the Empire's older regiments are on
    # 20x20mm (Warhammer Fantasy Battle 6th ed row), fielded here as a legacy regiment.
    spear_base = src.base("The Empire", "Archer, Crossbowman, Spearman, Free Company, Halberdier, "
                          "Huntsman, Swordsman, Handgunner, Greatsword, Flagellant",
                          system="Warhammer Fantasy Battle", source=None)
    assert captain_base == halb_base and bigboss_base == orc_base

    hb = parse_base(halb_base)
    front = (36.0, 24.0)
    right_flank_x = front[0] + 5 * hb.across / 2          # 36 + 2.4606 = 38.4606
    flank_mid_y = front[1] - 4 * hb.along / 2             # 24 - 1.9685 = 22.0315

    units = [
        tow_unit("halberdiers", "State Troops (Halberdiers)", "empire", halb_base, STATE_TROOPS,
                 ["infantry", "halberd"], front, 90, 5, 4,
                 models=[{"file": 3, "rank": 1, "name": "Captain of the Empire",
                          "role": "commander", "profile": CAPTAIN},
                         {"file": 2, "rank": 1, "name": "Standard Bearer", "role": "standard"},
                         {"file": 4, "rank": 1, "name": "Drummer", "role": "musician"}]),
        tow_unit("orc-mob", "Orc Mob", "greenskins", orc_base, ORC_BOY,
                 ["infantry", "choppas"], front, 270, 4, 5,
                 models=[{"file": 2, "rank": 1, "name": "Orc Bigboss", "role": "commander",
                          "profile": ORC_BIGBOSS}]),
        tow_unit("wolf-riders", "Goblin Wolf Riders", "greenskins", wolf_base, WOLF_RIDER,
                 ["cavalry", "fast-cavalry", "spears"], (right_flank_x, flank_mid_y), 180, 4, 1,
                 charged=True),
        # not engaged: deployed in the 12"-deep zones along the long edges
        tow_unit("spearmen", "State Troops (Spearmen, legacy 20mm bases)", "empire", spear_base,
                 STATE_TROOPS, ["infantry", "spear-and-shield"], (16.0, 10.0), 90, 5, 4),
        tow_unit("knights", "Empire Knights", "empire", knight_base, KNIGHT,
                 ["cavalry", "lance"], (56.0, 10.0), 90, 5, 1,
                 models=[{"file": 3, "rank": 1, "name": "Preceptor", "role": "champion"}]),
        tow_unit("flagellants", "Flagellants", "empire", flag_base, FLAGELLANT,
                 ["infantry", "fearless"], (36.0, 8.0), 90, 5, 3),
        tow_unit("night-goblins", "Night Goblin Mob", "greenskins", goblin_base, GOBLIN,
                 ["infantry", "spear-and-shield"], (20.0, 38.0), 270, 6, 4),
        tow_unit("black-orcs", "Black Orc Mob", "greenskins", black_orc_base, BLACK_ORC,
                 ["infantry", "halberd"], (52.0, 38.0), 270, 5, 3),
    ]
    terrain = [
        {"id": "wood", "kind": "woods", "name": "Drakwald copse",
         "polygon": [[4, 20], [9, 18], [13, 21], [12, 27], [6, 28], [3, 25]]},
        {"id": "hill", "kind": "hill", "name": "Gallows hill",
         "polygon": [[58, 20], [64, 18], [69, 21], [68, 27], [61, 28], [57, 25]]},
        {"id": "fence", "kind": "obstacle", "name": "Field fence",
         "rect": {"centre": [24, 16], "width": 8, "depth": 0.25, "angle": 0}},
        {"id": "watchtower", "kind": "building", "name": "Watchtower",
         "rect": {"centre": [36, 44.5], "width": 4, "depth": 4, "angle": 15}},
    ]
    source = (
        "rank-and-flank table 72\" x 48\"; deployment zones 12\" deep along the long edges "
        "(measurements.csv WHFB 7th Deployment row: 12\" deep on a 4' table); bases: "
        + src.text() + "; profiles: representative values typed in for play (not from the "
        "reference folder); terrain: invented for this table")
    return {
        "map": {"name": "Old World 72x48 - halberdiers caught front and flank",
                "ruleset": "rank-and-flank", "width": 72, "depth": 48, "source": source},
        "players": [{"id": "empire", "name": "The Empire of Man", "colour": "#c8a02a"},
                    {"id": "greenskins", "name": "Orc and Goblin Tribes", "colour": "#3d7a2a",
                     "active": True}],
        "terrain": terrain,
        "deployment": [
            {"player": "empire", "name": "Empire deployment zone",
             "polygon": [[0, 0], [72, 0], [72, 12], [0, 12]]},
            {"player": "greenskins", "name": "Greenskin deployment zone",
             "polygon": [[0, 36], [72, 36], [72, 48], [0, 48]]},
        ],
        "units": units,
    }


# ---------------------------------------------------------------- lessons
def lesson_pile_in(ref: Reference) -> dict:
    """Pile-in (fight-phase.txt 12.03).  Orks in a column at x = 14 (32mm, 0.04" apart)."""
    src = Sources(ref)
    orks = col_of(14.0, 8.0, 3, 1.3)                     # o1 (14, 8), o2 (14, 9.3), o3 (14, 10.6)
    marines = [
        [12.74, 8.0],   # 1: base contact with o1: 14 - 12.74 - 1.26 = 0
        [11.24, 10.6],  # 2: 1.5" from o3: 14 - 11.24 - 1.26 = 1.5
        [6.74, 10.6],   # 3: 6" from o3: 14 - 6.74 - 1.26 = 6.0 (3" of move leaves it 3.0")
        [10.0, 8.0],    # 4: marine 1 stands between it and o1 (2.74" away): it must go round
        [9.3, 10.6],    # 5: keeps 3 and 4 in coherency (1.3" and 1.43" away)
    ]
    units = [
        make_unit(src, MARINE_UNITS, "intercessors", MARINES, marines,
                  extra={0: {"name": "Intercessor Sergeant", "role": "champion"}}),
        make_unit(src, ORK_UNITS, "boyz", ORKS, orks),
    ]
    units[0]["name"] = "Intercessor Squad"
    units[1]["name"] = "Boyz"
    return {
        "map": {"name": "Lesson: pile-in", "ruleset": "fight-phase", "width": 24, "depth": 18,
                "source": "hand-built lesson; bases: " + src.text()},
        "rules": {"edition": "11th"},
        "players": PLAYERS_40K,
        "units": units,
        "lesson": PILE_IN_STEPS,
    }


# [[lesson]] steps of the lessons this script writes (tabletop lesson MAP): the project's own
# words, each citing the clause it teaches; "step" names a step of the phase run (seed 1)
PILE_IN_STEPS = [
    {"title": "Before the fight", "step": "setup", "clause": "fight-phase.txt 12.03",
     "overlays": ["engagement"], "focus": ["intercessors", "boyz"],
     "text": "The Intercessors are engaged with the Boyz: one marine touches an ork's base, one "
             "stands 1.5\" away, one 6\" away, and one has a friend between it and the enemy. "
             "Engaged units may pile in up to 3\"."},
    {"title": "The active player piles in first", "step": "Pile-in step",
     "clause": "fight-phase.txt 12.02",
     "text": "Both sides make their pile-in moves, the player whose turn it is first. Being "
             "engaged makes both units eligible; their pile-in targets are the enemy units they "
             "are engaged with."},
    {"title": "A model in base contact stays put", "step": "intercessors makes its pile-in",
     "clause": "fight-phase.txt 12.03", "select": "intercessors/1",
     "text": "The sergeant already touches an ork, so it may not move at all. Every other marine "
             "moves up to 3\" and must end closer to the closest ork."},
    {"title": "Where may a marine end?", "step": "intercessors makes its pile-in",
     "clause": "fight-phase.txt 12.03", "select": "intercessors/2", "overlays": ["engagement"],
     "text": "The shade is where the marine that stood 1.5\" off may end: light where it is "
             "within 3\" by a clear path and closer to the closest ork, strong where it is also "
             "engaged with that ork, which the clause asks for when it can be done. In the "
             "window, click a marine to shade it, drag it to test a spot."},
    {"title": "Closer, and engaged where it can be", "step": "intercessors makes its pile-in",
     "clause": "fight-phase.txt 12.03", "select": "intercessors/3", "overlays": ["engagement"],
     "text": "The marine 6\" away gets 3\" closer but is still 3\" off: it cannot reach the 2\" "
             "engagement range, so closer is enough. The one behind the sergeant walks round "
             "his base, never through it."},
    {"title": "After the move", "step": "intercessors makes its pile-in",
     "clause": "fight-phase.txt 12.03", "overlays": ["coherency", "engagement"],
     "text": "The unit must still be engaged, every model that started engaged must still be, "
             "and the squad must be in coherency."},
    {"title": "The Boyz cannot move", "step": "boyz makes its pile-in",
     "clause": "fight-phase.txt 12.03",
     "text": "Every ork already touches a marine, so none of them may move: their pile-in "
             "leaves them where they stand."},
    {"title": "Then the fight", "step": "intercessors fights", "clause": "fight-phase.txt 12.05",
     "text": "Piling in brought more marines into engagement range, so more of them attack. "
             "Each roll appears as it is made."},
]

FLANK_STEPS = [
    {"title": "Wolf Riders on the flank", "step": "setup", "clause": "rank-and-flank-combat.txt Who attacks",
     "focus": ["spearmen", "wolf-riders"],
     "text": "The Wolf Riders charged and stand flush against the right flank of a block five "
             "wide and four deep. Which side an enemy touches decides who may fight."},
    {"title": "Only the flank file fights back", "step": "who attacks",
     "clause": "rank-and-flank-combat.txt Who attacks",
     "text": "Facing the flank, only the spearmen along that side attack, with no supporting "
             "attacks from behind them: most of the block stands idle."},
    {"title": "Blows struck together", "step": "blows struck",
     "clause": "rank-and-flank-combat.txt Engagements",
     "text": "Every model attacks at once, then saves are rolled; casualties come off only after "
             "everyone has struck."},
    {"title": "The rank bonus is lost", "step": "combat score",
     "clause": "rank-and-flank-combat.txt Combat score",
     "text": "An enemy on the flank disrupts the block: its rank bonus (up to +2) counts for "
             "nothing, and the riders add +1 for the flank. That swing decides the combat."},
    {"title": "Break test", "step": "break test", "clause": "rank-and-flank-combat.txt Break tests",
     "text": "The losers roll 2D6 against their Discipline, plus ranks, minus the score "
             "difference; fail and they flee."},
    {"title": "Turning to face", "step": "turns to face", "clause": "rank-and-flank-combat.txt Fleeing",
     "text": "A unit that held with a single enemy on its flank turns to face it, ready for the "
             "next round."},
]

REAR_STEPS = [
    {"title": "An Orc Mob in the rear", "step": "setup", "clause": "rank-and-flank-combat.txt Who attacks",
     "focus": ["handgunners", "orc-mob"],
     "text": "The Orc Mob charged into the back of a unit only one rank deep. The handgunners' "
             "Captain stands in that one rank."},
    {"title": "Nobody fights to the rear", "step": "who attacks",
     "clause": "rank-and-flank-combat.txt Who attacks",
     "text": "Troops caught from behind make no attacks. A commander fights to the rear only when "
             "its unit is a single rank deep, as here, so the Captain duels the Bigboss."},
    {"title": "Blows struck", "step": "blows struck", "clause": "rank-and-flank-combat.txt Commanders in combat",
     "text": "The orcs hit the troops; the two commanders strike only each other."},
    {"title": "+1 for the rear, and no ranks", "step": "combat score",
     "clause": "rank-and-flank-combat.txt Combat score",
     "text": "The orcs score their wounds and +1 for the rear; the handgunners are disrupted and "
             "had only one rank anyway."},
    {"title": "They break", "step": "break test", "clause": "rank-and-flank-combat.txt Fleeing",
     "text": "Losing by a lot, the handgunners fail their break test and run their full Move "
             "directly away from the orcs."},
]


def rnf_lesson(name: str, src: Sources, units: list[dict]) -> dict:
    """A 36" x 24" rank-and-flank lesson table; the greenskins (the chargers) are active."""
    return {
        "map": {"name": name, "ruleset": "rank-and-flank", "width": 36, "depth": 24,
                "source": "hand-built lesson; bases: " + src.text()},
        "players": [{"id": "empire", "colour": "#c8a02a"},
                    {"id": "greenskins", "colour": "#3d7a2a", "active": True}],
        "units": units,
    }


def lesson_flank(ref: Reference) -> dict:
    """Flank charge: Wolf Riders (charged) flush against the right flank of a 5x4 block."""
    src = Sources(ref)
    halb_base = tow_base(src, TOW_EMPIRE, "State Troops", "State Trooper")
    wolf_base = tow_base(src, TOW_GREENSKINS, "Giant Wolf")
    hb = parse_base(halb_base)
    front = (18.0, 14.0)
    flank = (front[0] + 5 * hb.across / 2, front[1] - 4 * hb.along / 2)   # (20.4606, 12.0315)
    units = [
        tow_unit("spearmen", "State Troops (Spearmen)", "empire", halb_base, STATE_TROOPS,
                 ["infantry", "spear-and-shield"], front, 90, 5, 4),
        tow_unit("wolf-riders", "Goblin Wolf Riders", "greenskins", wolf_base, WOLF_RIDER,
                 ["cavalry", "fast-cavalry"], flank, 180, 4, 2, charged=True),
    ]
    return {**rnf_lesson("Lesson: flank charge", src, units), "lesson": FLANK_STEPS}


def lesson_rear(ref: Reference) -> dict:
    """Rear charge into a unit one rank deep (its commander may fight to the rear)."""
    src = Sources(ref)
    troop_base = tow_base(src, TOW_EMPIRE, "State Troops", "State Trooper")
    orc_base = tow_base(src, TOW_GREENSKINS, "Orc Mobs")
    tb = parse_base(troop_base)
    front = (18.0, 12.0)
    rear_edge = (front[0], front[1] - tb.along)            # (18, 11.015748)
    units = [
        tow_unit("handgunners", "State Missile Troops (one rank)", "empire", troop_base,
                 STATE_TROOPS, ["infantry"], front, 90, 5, 1,
                 models=[{"file": 3, "rank": 1, "name": "Captain of the Empire",
                          "role": "commander", "profile": CAPTAIN}]),
        tow_unit("orc-mob", "Orc Mob", "greenskins", orc_base, ORC_BOY, ["infantry", "choppas"],
                 rear_edge, 90, 4, 3, charged=True,
                 models=[{"file": 2, "rank": 1, "name": "Orc Bigboss", "role": "commander",
                          "profile": ORC_BIGBOSS}]),
    ]
    return {**rnf_lesson("Lesson: rear charge", src, units), "lesson": REAR_STEPS}


# ---------------------------------------------------------------- headers and checks
GENERATED = "# Generated by tools/make_maps.py from reference/*.csv: edit the script, not this file.\n"

HEADERS = {
    "ca-layout-1-hammer-and-anvil.toml": (
        "# Chapter Approved 2025-26 terrain layout 1 with the Hammer and Anvil deployment map,\n"
        "# Space Marines (defender, left) against Orks (attacker, right), mid-game in the Fight\n"
        "# phase: Assault Intercessors (charged) engaged with Boyz, three pairs in base contact;\n"
        "# Bladeguard (charged, unengaged) 4\" from Gretchin: an overrun pile-in target within 5\"\n"
        "# (fight-phase.txt 12.03, 12.06); Nobz engaged with Intercessors and a Terminator Captain.\n"),
    "ca-layout-2-crucible-of-battle.toml": (
        "# Chapter Approved 2025-26 terrain layout 2 with the Crucible of Battle deployment map:\n"
        "# both armies deployed wholly inside their triangular zones, nobody engaged.\n"),
    "ca-layout-1-table.toml": (
        "# Chapter Approved 2025-26 terrain layout 1 with the Hammer and Anvil deployment map,\n"
        "# empty: terrain, objectives and zones only, players defender and attacker.  Deploy a\n"
        "# roster on it: tabletop roster LIST --map maps/ca-layout-1-table.toml --player defender\n"),
    "ca-layout-2-table.toml": (
        "# Chapter Approved 2025-26 terrain layout 2 with the Crucible of Battle deployment map,\n"
        "# empty: terrain, objectives and zones only, players defender and attacker.\n"),
    "old-world-72x48.toml": (
        "# Rank-and-flank on a 72\" x 48\" table: a 5x4 block of Halberdiers engaged to its front by\n"
        "# an Orc Mob and to its right flank by Wolf Riders that charged (rank-and-flank-combat.txt\n"
        "# \"Engagements\": three units in one engagement; \"Who attacks\"; \"Combat score\": +1\n"
        "# flank, the Halberdiers are disrupted).  The two commanders are in base contact\n"
        "# (\"Commanders in combat\": they duel).  Other units stand deployed, not engaged.\n"),
    "lessons/pile-in.toml": (
        "# Lesson: pile-in (fight-phase.txt 12.03).  Teaches: models in base contact with an\n"
        "# enemy cannot be moved (intercessors/1); every other model moves up to 3\" and must end\n"
        "# closer to the closest pile-in target, engaged with it if possible: intercessors/2 is\n"
        "# 1.5\" away (already within 2\" engagement range, it may close to base contact),\n"
        "# intercessors/3 is 6\" away (3\" of move leaves it 3\", outside the 2\" engagement\n"
        "# range: it only gets closer; a model 5\" away would end 2\" away, engaged),\n"
        "# intercessors/4 has intercessors/1 between it and the enemy (it must go round, never\n"
        "# through a base).  After moving the unit must be engaged and in coherency (03.03).\n"),
    "lessons/flank-charge.toml": (
        "# Lesson: flank charge (rank-and-flank-combat.txt \"Who attacks\", \"Combat score\").\n"
        "# Teaches: Wolf Riders that charged (charged = true) stand flush against the right flank\n"
        "# of a 5x4 block.  Only the models along the engaged flank fight back, with no supporting\n"
        "# attacks; the chargers score +1 for the flank and the block is disrupted (no rank bonus).\n"),
    "lessons/rear-charge.toml": (
        "# Lesson: rear charge (rank-and-flank-combat.txt \"Who attacks\": Rear - nobody attacks;\n"
        "# \"Commanders in combat\": a commander fights to the rear only if its unit is a single\n"
        "# rank deep; \"Combat score\": +1 rear, disrupted).  Teaches: an Orc Mob that charged\n"
        "# (charged = true) stands flush against the rear of a unit one rank deep; the troops\n"
        "# cannot fight back but their Captain can, against the Orc Bigboss (they duel).\n"),
}


def check(name: str, data: dict, expect_engaged: list[tuple[str, str]],
          mid_table: tuple[str, ...] = ()) -> str:
    """Build the state, run the check report and the zone checks; return the TOML text."""
    state = mapfile.from_dict(data, path=name)
    geo = snapshot(state)
    report = build_report(state, geo)
    problems = []
    if report["problems"]:
        problems.append(f"{name}: check finds {report['problems']} problems: "
                        f"overlaps {report['overlaps']}, off table {report['off_table']}, "
                        f"coherency {report['coherency']}")
    engaged = [tuple(p) for p in report["engaged"]]
    want = sorted(tuple(sorted(p)) for p in expect_engaged)
    if engaged != want:
        problems.append(f"{name}: engaged {engaged}, expected {want}")
    zones = {}
    for d in state.deployment:
        zones.setdefault(d.player, []).append(Polygon(d.polygon))
    for u in state.units:
        if u.id in mid_table or not zones:
            continue        # the fights are mid-table, not in a zone
        for m in u.models:
            fp = base_polygon(m.base, m.x, m.y, m.facing_deg)
            if not any(z.buffer(1e-9).covers(fp) for z in zones.get(u.player, [])):
                problems.append(f"{name}: {m.id} at ({m.x}, {m.y}) is not wholly inside a "
                                f"{u.player} deployment zone")
    # objectives: nobody within 0.05" of the edge of range, so the tests' lists are clear-cut
    for o in state.objectives:
        limit = state.objective_range(o)
        for mid in geo.ids:
            d = geo.distance(mid, o.id)
            if abs(d - limit) < 0.05:
                problems.append(f"{name}: {mid} is {d:.3f}\" from objective {o.id}: too close "
                                f"to its {limit}\" range to read clearly")
    if problems:
        raise SystemExit("\n".join(problems))
    text = mapfile.dumps(state)
    return GENERATED + HEADERS[name] + "\n" + text


def build_all(ref: Reference) -> dict[str, str]:
    out = {}
    out["ca-layout-1-hammer-and-anvil.toml"] = check(
        "ca-layout-1-hammer-and-anvil.toml",
        ca_map(ref, 1, "Hammer and Anvil",
               "CA 2025-26 layout 1 - Hammer and Anvil (fight phase under way)",
               lambda src: fight_a(src) + fight_b(src) + fight_c(src) + layout1_deployed(src)),
        [("assault", "boyz"), ("captain", "nobz"), ("intercessors-b", "nobz")],
        mid_table=("assault", "boyz", "bladeguard", "gretchin", "nobz", "intercessors-b",
                   "captain"))
    out["ca-layout-2-crucible-of-battle.toml"] = check(
        "ca-layout-2-crucible-of-battle.toml",
        ca_map(ref, 2, "Crucible of Battle", "CA 2025-26 layout 2 - Crucible of Battle (deployed)",
               layout2_deployed),
        [])
    out["ca-layout-1-table.toml"] = check(
        "ca-layout-1-table.toml",
        ca_table(ref, 1, "Hammer and Anvil", "CA 2025-26 layout 1 - Hammer and Anvil (empty)"), [])
    out["ca-layout-2-table.toml"] = check(
        "ca-layout-2-table.toml",
        ca_table(ref, 2, "Crucible of Battle", "CA 2025-26 layout 2 - Crucible of Battle (empty)"),
        [])
    out["old-world-72x48.toml"] = check(
        "old-world-72x48.toml", old_world_map(ref),
        [("halberdiers", "orc-mob"), ("halberdiers", "wolf-riders")],
        mid_table=("halberdiers", "orc-mob", "wolf-riders"))
    out["lessons/pile-in.toml"] = check("lessons/pile-in.toml", lesson_pile_in(ref),
                                       [("intercessors", "boyz")])
    out["lessons/flank-charge.toml"] = check("lessons/flank-charge.toml", lesson_flank(ref),
                                            [("spearmen", "wolf-riders")])
    out["lessons/rear-charge.toml"] = check("lessons/rear-charge.toml", lesson_rear(ref),
                                           [("handgunners", "orc-mob")])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE,
                        help="folder with the reference CSVs (default %(default)s)")
    parser.add_argument("--check", action="store_true",
                        help="compare with the committed maps instead of writing them")
    args = parser.parse_args(argv)
    built = build_all(Reference(args.reference))
    differ = []
    for name, text in built.items():
        path = MAPS / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                differ.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    if differ:
        print("differ from the script's output: " + ", ".join(differ))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
