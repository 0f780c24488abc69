"""Combat score (rank-and-flank-combat.txt "Combat score").

Each side adds up, once all attacks are made and casualties removed (the
contacts are those when the blows were struck: rank-and-flank-combat.txt
"Engagements"/Attack, every unit attacks at the same time and casualties come
off afterwards, so killing the models a flanker touched takes neither its
bonus away nor gives the enemy its ranks back):

- +1 per wound its units caused, including wounds beyond what was needed
  to kill;
- +1 for each of its units in contact with an enemy's flank;
- +1 for each of its units in contact with an enemy's rear;
- for each of its units that is not disrupted, +1 for a second rank and +1
  for a third (ranks of at least ``profiles.rank_models`` models); a unit
  that counts none gets a "ranks +0" item saying why (``no_ranks_why``);
- banners and abilities: ``war-banner`` +WAR_BANNER_SCORE, a living
  standard bearer +STANDARD_SCORE (named defaults in ``profiles``).

A unit is disrupted if any enemy touches its flank or rear, or if it fights
more than one enemy unit (``geometry.ranks.UnitSides``).  The higher total
wins; equal totals: nobody tests.

Named default FLANK_BONUS_PER = "unit": a unit on the flanks of two enemy
units still scores +1 ("for each of your units in contact with an enemy's
flank"); one on an enemy's flank and another's rear scores both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tabletop.board.state import Battlefield
from tabletop.geometry.ranks import FLANKS, UnitFormation, UnitSides
from tabletop.rules.rank_and_flank import clauses as C
from tabletop.rules.rank_and_flank import profiles as P

FLANK_BONUS_PER = "unit"


@dataclass
class Score:
    """Totals per player, the itemised ``breakdown`` (one dict per source and
    unit), the ``winner`` (None on a tie), losers and the ``difference``."""

    totals: dict[str, int]
    breakdown: list[dict] = field(default_factory=list)
    winner: str | None = None
    losers: list[str] = field(default_factory=list)
    difference: int = 0


_BANNERS: dict[tuple[int, str], tuple] = {}


def _banners(state: Battlefield, unit_id: str):
    """(True or the ids of models with a war banner, ids of standard bearers), per unit."""
    unit = state.unit(unit_id)
    key = (id(unit), unit_id)
    got = _BANNERS.get(key)
    if got is None or got[0] is not unit:
        banners = True if P.has(unit, P.WAR_BANNER) else {m.id for m in unit.models
                                                          if P.has(m, P.WAR_BANNER)}
        standards = {m.id for m in unit.models if (m.role or "") == "standard"}
        got = (unit, banners, standards)
        if len(_BANNERS) > 256:
            _BANNERS.clear()
        _BANNERS[key] = got
    return got[1], got[2]


def no_ranks_why(form: UnitFormation, alive: set[str], need: int) -> str:
    """Why a unit counts no rank behind its front: too narrow for a rank of ``need``
    models, one rank deep, or a second rank too short."""
    rows = form.rank_rows(alive)
    if rows and len(rows[0]) < need:
        return f"{len(rows[0])} wide: a rank needs {need} models"
    if len(rows) < 2:
        return "one rank deep: no rank behind the front"
    return f"rank 2 holds {len(rows[1])}: a rank needs {need} models"


def combat_score(state: Battlefield, units: list[str], forms: dict[str, UnitFormation],
                 sides: dict[str, UnitSides], caused: dict[str, int],
                 alive: dict[str, set[str]], extra: list[dict] | None = None) -> Score:
    """Add up every source for each player with units in the engagement.

    ``sides`` are the sides touched when the blows were struck (the round's
    one snapshot, ``RoundContext.sides``): flank and rear bonuses and
    disrupted come from them; ``forms`` and ``alive`` the formations and
    living models once casualties are removed (ranks are counted from the
    models left); ``caused`` wounds caused per attacking unit; ``extra`` more
    items (a challenge's rows) of the same shape as the breakdown.  A unit with
    no model left scores only its wounds caused.
    """
    standing = {u: standing_items(state, units, u, forms[u], sides, alive.get(u)) for u in units}
    return total_score(state, units, caused, standing, extra)


def standing_items(state: Battlefield, units: list[str], u: str, form: UnitFormation,
                   sides: dict[str, UnitSides], alive: set[str] | None) -> list[dict]:
    """Unit ``u``'s combat score items besides its wounds caused (flank, rear, ranks,
    banners), from the sides touched when the blows were struck and its living models
    ``alive`` (none: no items)."""
    items: list[dict] = []
    if not alive:
        return items

    def item(source: str, score: int, rule: str, why: str = "") -> None:
        if score:
            items.append({"player": state.unit(u).player, "unit": u, "source": source,
                          "score": score, "rule": rule, **({"why": why} if why else {})})

    on_flank = [e for e in units if e != u and sides[e].enemy_sides.get(u) in FLANKS]
    on_rear = [e for e in units if e != u and sides[e].enemy_sides.get(u) == "rear"]
    if on_flank:
        item("flank", 1, C.COMBAT_SCORE, f"on the flank of {', '.join(on_flank)}")
    if on_rear:
        item("rear", 1, C.COMBAT_SCORE, f"on the rear of {', '.join(on_rear)}")
    own = sides[u]
    ranks = min(form.full_ranks_behind(P.rank_models(state, u), alive), P.MAX_RANK_BONUS)
    if own.disrupted and ranks:
        items.append({"player": state.unit(u).player, "unit": u, "source": "ranks", "score": 0,
                      "rule": C.DISRUPTED,
                      "why": "disrupted: " + "; ".join(own.disrupted_reasons)})
    elif ranks:
        item("ranks", ranks, C.COMBAT_SCORE,
             f"{ranks} rank{'s' if ranks != 1 else ''} of {P.rank_models(state, u)}+ behind the front")
    else:
        items.append({"player": state.unit(u).player, "unit": u, "source": "ranks", "score": 0,
                      "rule": C.COMBAT_SCORE,
                      "why": no_ranks_why(form, alive, P.rank_models(state, u))})
    banners, standards = _banners(state, u)
    if banners is True or (banners & alive):
        item("war banner", P.WAR_BANNER_SCORE, C.COMBAT_SCORE)
    if standards & alive:
        item("standard", P.STANDARD_SCORE, C.COMBAT_SCORE)
    return items


def total_score(state: Battlefield, units: list[str], caused: dict[str, int],
                standing: dict[str, list[dict]], extra: list[dict] | None = None) -> Score:
    """The score from each unit's wounds caused, its ``standing`` items (``standing_items``)
    and ``extra`` items, in that order per unit; the winner, losers and difference."""
    players = []
    for u in units:
        p = state.unit(u).player
        if p not in players:
            players.append(p)
    items: list[dict] = []
    for u in units:
        n = caused.get(u, 0)
        if n:
            items.append({"player": state.unit(u).player, "unit": u, "source": "wounds caused",
                          "score": n, "rule": C.COMBAT_SCORE})
        items.extend(dict(it) for it in standing[u])
    items.extend(extra or [])
    totals = {p: 0 for p in players}
    for it in items:
        totals[it["player"]] = totals.get(it["player"], 0) + it["score"]
    winner, losers, diff = result_of(totals)
    return Score(totals, items, winner, losers, diff)


def result_of(totals: dict[str, int]) -> tuple[str | None, list[str], int]:
    """``(winner, losers, difference)`` of the totals per player (combat score points):
    the one player with the highest total wins by its lead over the next; a tie at the top
    (or one player alone) has no winner, no losers and difference 0."""
    best = max(totals.values()) if totals else 0
    top = [p for p, t in totals.items() if t == best]
    if len(top) == 1 and len(totals) > 1:
        winner = top[0]
        losers = [p for p in totals if p != winner]
        return winner, losers, best - max(t for p, t in totals.items() if p != winner)
    return None, [], 0
