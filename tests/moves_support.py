"""Helpers for the pile-in and consolidation tests (tests/test_geometry_moves*.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from shapely.geometry import LineString, Point

from tabletop.board.config import make_config
from tabletop.board.mapfile import load
from tabletop.geometry import snapshot
from tabletop.geometry.moves import PILE_IN_RULE, MoveSpec, pile_in_targets
from tabletop.geometry.sweeps import path_length

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
MAPS = Path(__file__).resolve().parent.parent / "maps"
R32 = 32 / 25.4 / 2          # 0.62992" radius of a 32mm base
D32 = 2 * R32                # 1.25984"


def scenario(name: str, **rules):
    """(state, geo) of tests/scenarios/<name>.toml, with ``[rules]`` overrides."""
    state = load(str(SCENARIOS / f"{name}.toml"))
    if rules:
        merged = dict(state.rules.written)
        merged.update(rules)
        state = dataclasses.replace(state, rules=make_config(state.rules.ruleset, merged))
    return state, snapshot(state)


def pile_in_spec(state, geo, unit: str = "r") -> MoveSpec:
    targets, _ = pile_in_targets(state, geo, unit)
    return MoveSpec("pile_in", unit, tuple(targets), state.rules.pile_in_distance, PILE_IN_RULE)


def min_gap_along(path, radius: float, centre, other_radius: float) -> float:
    """Smallest edge-to-edge gap between a round base moving along ``path`` and a
    round base standing at ``centre`` (inches; negative: the bases cross)."""
    line = LineString(path) if len(path) > 1 else Point(path[0])
    return line.distance(Point(centre)) - radius - other_radius


def length(path) -> float:
    return path_length(path)
