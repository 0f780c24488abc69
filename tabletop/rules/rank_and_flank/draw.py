"""What a step of the combat round asks the renderer to draw (plain data, inches).

Keys a step's ``draw`` may carry (``render/rank_and_flank.py`` draws them):

``rnf_units``   {unit: {player, edges: {side: [[x, y], [x, y]]}, facing,
                 front_centre, ranks, files, touched: {side: [enemy units]},
                 disrupted, disrupted_reasons, surrounded}}
``rnf_attacks`` {model: {dice, kind, target, side}}  (kind: front, support,
                 flank, lance, commander, duel)
``rnf_notes``   [str]   why some models do not attack
``rnf_casualties`` [model ids] models that die this round, before they are removed
``casualties``  [[x, y, base, facing]] where they stood, once removed (generic key)
``rnf_wounds``  {unit: {pool, removed, carried}}
``rnf_score``   {totals, breakdown, winner, difference}
``rnf_break``   one break test (BreakResult.to_event())
``rnf_flee``    [{unit, from, to, outcome, reason}]
``rnf_turn``    [{unit, enemy, side, from, to, centre, end, turned, reason}]
``focus``       [[x, y]] the engagement's models, kept in view (generic key)
"""

from __future__ import annotations

from tabletop.geometry import Geometry
from tabletop.geometry.ranks import UnitFormation, UnitSides
from tabletop.rules.rank_and_flank import profiles as P


def unit_record(state, form: UnitFormation, sides: UnitSides, alive=None) -> dict:
    touched: dict[str, list[str]] = {}
    for e, s in sides.enemy_sides.items():
        touched.setdefault(s, []).append(e)
    return {
        "player": form.player,
        "edges": {s: [list(a), list(b)] for s, (a, b) in form.edges().items()},
        "facing": round(form.facing_deg, 3),
        "front_centre": list(form.front_centre),
        "ranks": form.rank_count(alive),
        "files": form.files(alive),
        "rank_bonus_ranks": min(form.full_ranks_behind(P.rank_models(state, form.unit), alive),
                                P.MAX_RANK_BONUS),
        "rank_models": P.rank_models(state, form.unit),
        "touched": touched,
        "disrupted": sides.disrupted,
        "disrupted_reasons": sides.disrupted_reasons,
        "surrounded": sides.surrounded,
    }


def units_draw(state, geo: Geometry, units: list[str], sides: dict[str, UnitSides] | None = None,
               alive: dict[str, set[str]] | None = None) -> dict:
    out = {}
    for u in units:
        if not geo.unit_models(u):
            continue
        form = geo.formation(u)
        s = (sides or {}).get(u) or geo.sides(u)
        out[u] = unit_record(state, form, s, (alive or {}).get(u))
    return out


def attacks_draw(attacks) -> dict:
    return {a.model: {"dice": a.dice, "kind": a.kind, "target": a.target_model or a.target_unit,
                      "side": a.side} for a in attacks}
