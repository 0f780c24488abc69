"""Challenge odds for ``tabletop fight MAP --odds``: a table a player can read.

For every combat of the map (the geometry's engagement groups) the pair that
would fight - the map's scripted ``issue_challenge``/``accept_challenge``
when it has them, else the default policy's - and then:

- gambit challenges (``challenges = "gambit"``): for every gambit pair the
  Face-Off allows (the Challenger's player choosing first), each side's
  chance to win, the chance of a draw and each side's expected combat
  resolution points, for one round (``gambit_rows.ODDS_ROUNDS``), exact: each
  pair's gambits scripted and the sub-phase's own rows walked
  (``gambit_rows.pair_odds``); then the pair the default policy plays.  Outside support is counted from the table
  as the map stands (before the phase's pile-in), the duellists set aside.
  Every pair also carries each side's full distribution of Glory Step points
  and its "at least k" figures (``points_dist``, ``points_at_least``, from the
  same walk); the text prints them for the default policy's pair only, one
  line per player, so the table stays readable.
- character challenges (``challenges = "character"``): each possible
  challenger against each character who could accept: its chance to kill
  the other and live, both dying, both living, and each side's expected
  combat score from the challenge (capped overkill), exact.
"""

from __future__ import annotations

from typing import Any

from tabletop.board.state import Battlefield
from tabletop.rules.challenges.tables import geometry
from tabletop.rules.odds_summary import PCT_WIDTH, short_pct


def _scripted(state: Battlefield, player: str, choice: str) -> Any:
    for d in state.decisions:
        if d.player == player and d.choice == choice:
            return d.value
    return None


def challenge_odds(state: Battlefield) -> dict[str, Any]:
    """JSON-ready odds of the map's challenges (module docstring); ``{"combats": [...]}``."""
    kind = state.rules.challenges
    out: dict[str, Any] = {"challenges": kind, "combats": []}
    for combat in geometry(state).engagements:
        if kind == "gambit":
            rec = _gambit_combat(state, tuple(combat))
        elif kind == "character":
            rec = _character_combat(state, tuple(combat))
        else:
            rec = None
        if rec is not None:
            out["combats"].append(rec)
    return out


def _gambit_combat(state: Battlefield, combat: tuple[str, ...]) -> dict[str, Any] | None:
    from tabletop.rules.challenges.gambit_rows import (
        duel_start,
        duel_value,
        duellists_of,
        eligible,
        odds_summary,
    )
    active = state.active_player
    for issuer in (active, state.other_player(active)):
        other = state.other_player(issuer)
        mine, theirs = eligible(state, combat, issuer), eligible(state, combat, other)
        if not mine or not theirs:
            continue
        c = _scripted(state, issuer, "issue_challenge")
        if c not in mine:
            c = max(mine, key=lambda x: min(duel_value(state, combat, issuer, x, a) for a in theirs))
        a = _scripted(state, other, "accept_challenge")
        if a not in theirs:
            a = min(theirs, key=lambda y: duel_value(state, combat, issuer, c, y))
        start = duel_start(state, combat, issuer, c, a)
        ch = start.memo.challenge.challenges[-1]
        ds = duellists_of(ch)
        summary = odds_summary(start)
        return {"combat": list(combat), "kind": "gambit", "challenger": c, "challenged": a,
                "players": [issuer, other],
                "weapons": {p: _weapon(state, p, ds[p], ds[q]) for p, q in ((issuer, other), (other, issuer))},
                "outside_support": dict(ch.support), **summary}
    return None


def _weapon(state: Battlefield, player: str, mine: Any, theirs: Any) -> str:
    """The weapon ``player``'s duellist fights with: the map's scripted ``weapon`` when it
    names one of its weapons (case-blind), else the default (``gambit_rows.best_weapon``)."""
    from tabletop.rules.challenges.gambit_rows import best_weapon
    said = _scripted(state, player, "weapon")
    for wp in mine.weapons:
        if isinstance(said, str) and wp.name.strip().lower() == said.strip().lower():
            return str(wp.name)
    return best_weapon(mine, theirs)


def _character_combat(state: Battlefield, combat: tuple[str, ...]) -> dict[str, Any] | None:
    from tabletop.rules.challenges.character import characters_in, may_accept
    from tabletop.rules.challenges.character_duel import duel_odds, fighters
    geo = geometry(state)
    rows = []
    for player in (state.active_player, state.other_player(state.active_player)):
        for c in characters_in(state, combat, player):
            for a in may_accept(state, geo, combat, c):
                o = duel_odds(*fighters(state, c, a))
                other = state.owner(a)
                rows.append({"challenger": c, "challenged": a, "players": [player, other],
                             "win": {p: float(v) for p, v in o["win"].items()},
                             "both_die": float(o["both_die"]), "both_survive": float(o["both_survive"]),
                             "expected_score": {p: float(v) for p, v in o["expected_score"].items()}})
    if not rows:
        return None
    return {"combat": list(combat), "kind": "character", "pairs": rows}


def _pct(x: float) -> str:
    return short_pct(x, PCT_WIDTH)


def _pts(k: str) -> str:
    return f"{k} pt" if k == "1" else f"{k} pts"


def points_line(row: dict[str, Any], player: str) -> str:
    """One player's Glory Step points of a gambit pair row (``pairs[]`` or ``policy``) as text:
    each count with its chance, then the "at least k" chances at each count k >= 1 it can
    score (where the upper tail changes; ``points_at_least`` in ``--json`` has every k), e.g.
    ``0 pts 70.1%, 1 pt 20.0%, 2 pts 9.9%; at least 1 29.9%, 2 9.9%``; the at-least part is
    left out when the player cannot score.  Raises ``KeyError`` for a row without the keys."""
    dist = row["points_dist"][player]
    text = ", ".join(f"{_pts(k)} {_pct(p).strip()}" for k, p in dist.items())
    tail = row["points_at_least"][player]
    bits = [f"{k} {_pct(tail[k]).strip()}" for k in dist if k != "0" and k in tail]
    return f"{text}; at least {', '.join(bits)}" if bits else text


def odds_lines(report: dict[str, Any]) -> list[str]:
    """The report as text lines: a header per combat and one row per pair."""
    lines: list[str] = []
    if not report["combats"]:
        return ["No challenge is possible: no combat has a character on each side."]
    for rec in report["combats"]:
        lines.append(f"Challenge odds in the combat {' + '.join(rec['combat'])} "
                     f"({rec['kind']} challenge; one round, exact)")
        if rec["kind"] == "gambit":
            p1, p2 = rec["players"]
            lines.append(f"  {rec['challenger']} ({p1}, {rec['weapons'][p1]}) v {rec['challenged']} "
                         f"({p2}, {rec['weapons'][p2]}); outside support {p1} +{rec['outside_support'][p1]}, "
                         f"{p2} +{rec['outside_support'][p2]}")
            head = (f"  {p1 + ' chooses first':<22} {p2 + ' replies':<22} {p1 + ' wins':>9} "
                    f"{p2 + ' wins':>9} {'draw':>7} {'E pts ' + p1:>10} {'E pts ' + p2:>10}")
            lines.append(head)
            for row in rec["pairs"]:
                g = row["gambits"]
                lines.append(f"  {g[p1]:<22} {g[p2]:<22} {_pct(row['win'][p1]):>9} {_pct(row['win'][p2]):>9} "
                             f"{_pct(row['draw']):>7} {row['expected_points'][p1]:>10.2f} "
                             f"{row['expected_points'][p2]:>10.2f}")
            pol = rec["policy"]
            ban = f" (Feint and Riposte names {pol['banned'][0]})" if pol.get("banned") else ""
            lines.append(f"  default policy: {p1} {pol['gambits'][p1]}{ban}, {p2} {pol['gambits'][p2]}: "
                         f"{p1} wins {_pct(pol['win'][p1]).strip()}, {p2} wins {_pct(pol['win'][p2]).strip()}, "
                         f"draw {_pct(pol['draw']).strip()}")
            lines.append("  glory points this round under the default policy (gambit-challenge.txt, Glory Step):")
            w = max(len(p1), len(p2))
            for p in (p1, p2):
                lines.append(f"    {p:<{w}}  {points_line(pol, p)}")
        else:
            lines.append(f"  {'challenger':<14} {'accepted by':<14} {'challenger wins':>16} "
                         f"{'accepter wins':>14} {'both die':>9} {'both live':>10} {'E score':>14}")
            for row in rec["pairs"]:
                p1, p2 = row["players"]
                lines.append(f"  {row['challenger']:<14} {row['challenged']:<14} {_pct(row['win'][p1]):>16} "
                             f"{_pct(row['win'][p2]):>14} {_pct(row['both_die']):>9} "
                             f"{_pct(row['both_survive']):>10} "
                             f"{row['expected_score'][p1]:>6.2f} v {row['expected_score'][p2]:<5.2f}")
    return lines
