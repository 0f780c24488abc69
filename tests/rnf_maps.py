"""Builders for hand-worked rank-and-flank scenario maps (tests only).

A formation's ``front_centre`` is the middle of its front edge; ``facing`` is
degrees counter-clockwise from +x.  With 25x25mm bases one model is
25/25.4 = 0.98425" square.
"""

from __future__ import annotations

from typing import Any

from tabletop.board.mapfile import from_dict

INF = {"Move": 4, "Skill": 3, "Power": 3, "Defense": 3, "Attacks": 1, "Wounds": 1,
       "Discipline": 7}
B25 = 25 / 25.4   # one 25mm base, inches


def unit(uid: str, player: str, front_centre, facing: float, files: int, ranks: int,
         count: int | None = None, base: str = "25x25mm", profile: dict | None = None,
         keywords=(), models: list | None = None, charged: bool = False, **extra: Any) -> dict:
    d: dict[str, Any] = {
        "id": uid, "player": player, "base": base,
        "profile": dict(INF, **(profile or {})), "keywords": list(keywords),
        "formation": {"front_centre": list(front_centre), "facing": facing, "files": files,
                      "ranks": ranks, "count": count if count is not None else files * ranks},
    }
    if models:
        d["models"] = models
    if charged:
        d["charged"] = True
    d.update(extra)
    return d


def rnf_map(*units: dict, width: float = 48.0, depth: float = 48.0, rules: dict | None = None,
            decisions: list | None = None):
    data: dict[str, Any] = {
        "map": {"name": "test", "ruleset": "rank-and-flank", "width": width, "depth": depth},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": list(units),
    }
    if rules:
        data["rules"] = rules
    if decisions:
        data["decisions"] = decisions
    return from_dict(data)


def plan(state, units=None):
    """The planned round of the (first) engagement: a RoundContext."""
    from tabletop.geometry import snapshot
    from tabletop.rules.decisions import Decisions
    from tabletop.rules.rank_and_flank.round import plan_round
    geo = snapshot(state)
    units = units or geo.engagements[0]
    return plan_round(state, geo, units, Decisions(state.decisions))


def attacks_of(ctx, unit_id):
    """{model: (kind, dice, target)} for one unit's planned attacks."""
    return {a.model: (a.kind, a.dice, a.target_model or a.target_unit)
            for a in ctx.attacks if a.unit == unit_id}


def run(state, faces):
    """Resolve the combat phase with scripted dice; returns (Resolution, log, dice)."""
    from tabletop.rules.decisions import Decisions
    from tabletop.rules.dice import FixedDice
    from tabletop.rules.events import EventLog
    from tabletop.rules.rank_and_flank import fight
    log = EventLog()
    dice = FixedDice(faces, log)
    res = fight(state, dice, Decisions(state.decisions, log), log)
    return res, log, dice


def events(log, type_):
    return [e.data for e in log.events if e.type == type_]
