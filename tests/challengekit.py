"""Builders for challenge tests: small maps written as data, loaded through the real map code.

Coordinates are inches, origin bottom-left, y up.  32mm round bases have a
radius of 0.62992" (32 / 25.4 / 2): two of them 1.26" apart centre to centre
are in base contact (gap 0.00016" <= the 0.02" tolerance).
"""

from __future__ import annotations

from typing import Any

from tabletop.board import mapfile
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import FixedDice
from tabletop.rules.events import EventLog

R32 = 32 / 25.4 / 2
TROOPER = {"WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 7, "Sv": 3}
BLADE = {"name": "Blade", "A": 1, "WS": 3, "S": 4, "AP": 0, "D": 1}


def model(x: float, y: float, **kw: Any) -> dict[str, Any]:
    return {"at": [x, y], **kw}


def unit(uid: str, player: str, models: list, *, base: str = "32mm", profile: dict | None = None,
         weapons: list | None = None, keywords: list | None = None, status: list | None = None,
         **kw: Any) -> dict[str, Any]:
    out = {"id": uid, "player": player, "base": base, "profile": dict(profile or TROOPER),
           "weapons": list(weapons if weapons is not None else [BLADE]),
           "keywords": list(keywords or []), "status": list(status or []),
           "models": [m if isinstance(m, dict) else {"at": list(m)} for m in models]}
    out.update(kw)
    return out


def battlefield(units: list, *, ruleset: str = "fight-phase", challenges: str | None = "gambit",
                active: str = "red", decisions: list | None = None, width: float = 48.0,
                depth: float = 30.0, rules: dict | None = None):
    r = dict(rules or {})
    if challenges:
        r["challenges"] = challenges
    data = {
        "map": {"name": "test", "ruleset": ruleset, "width": width, "depth": depth},
        "rules": r,
        "players": [{"id": "red", "active": active == "red"}, {"id": "blue", "active": active == "blue"}],
        "units": units,
        "decisions": [{"player": p, "choice": c, "value": v} for p, c, v in (decisions or [])],
    }
    return mapfile.from_dict(data)


def harness(state, faces: list[int] | None = None, decisions: list | None = None):
    """(log, dice, decisions) for a run: FixedDice when faces are given."""
    from tabletop.board.state import Decision
    log = EventLog()
    dice = FixedDice(faces or [], log)
    scripted = list(state.decisions) + [Decision(p, c, v) for p, c, v in (decisions or [])]
    return log, dice, Decisions(scripted, log)


def events(log, kind: str) -> list[dict[str, Any]]:
    return [e.to_dict() for e in log.events if e.type == kind]


def duellist_for(player: str = "red", **kw: Any):
    """A gambit-challenge Duellist with plain defaults (WS 4, S 4, T 4, Sv 3+, W 2, I 4, A 2, Ld 8)."""
    from tabletop.rules.challenges.duellist import Duellist, Weapon
    base = dict(model_id=f"{player}/1", player=player, ws=4, s=4, t=4, sv=3, inv=None, w=2, i=4, a=2,
                ld=8, heavy=False, light=False, edge=0, paragon=False, command=False,
                weapons=(Weapon("Blade"),))
    base.update(kw)
    return Duellist(**base)
