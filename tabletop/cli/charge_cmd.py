"""``tabletop charge MAP UNIT TARGET [--json]``: a charge plan.

Prints the edge-to-edge distance between the closest models of the two
units, what the charge roll must reach and the exact odds of making it
(``rules/charge.py``), and where it lands:

- rank-and-flank: the side of the target the charger lands on: the arc
  (quadrants from the target's corners at 45 degrees, measurements.csv TOW
  "Arcs") holding most of the charger's front rank
  (``rules/rank_and_flank/charge_arc.py``); a tie is settled by the map's
  ``[rules] charge_arc_tie``: a D6 rolled with ``--seed`` (named default
  CHARGE_ARC_TIE "roll"), or the arc of the middle of the charger's front
  edge ("front-edge centre");
- fight-phase: the target's closest models (CLOSEST_SHOWN of them) and
  their distances.

``--json`` prints ``{unit, target, ruleset, distance, closest, charge_roll,
needs, odds, odds_fraction, declare_range?, side?, arc_point?, arc_counts?,
arc_models?, arc_tie?, arc_how?, arc_rule?, arc_roll?, seed?, closest_targets?}``.
Exit 0, or 2 for bad input (unknown unit, a target that is not an enemy).
"""

from __future__ import annotations

import random

from tabletop.cli.common import check_seed, load_map, need_unit, print_json
from tabletop.errors import TabletopError
from tabletop.geometry import snapshot
from tabletop.rules import charge as CH
from tabletop.rules.dice import Dice
from tabletop.rules.rank_and_flank.charge_arc import ARC_RULE, charger_arc

CLOSEST_SHOWN = 3


def _move_of(state, unit_id: str) -> float:
    moves = []
    for m in state.unit(unit_id).models:
        for k, v in m.profile.items():
            if k.lower() in ("move", "m"):
                moves.append(float(v))
    if not moves:
        raise TabletopError(f"{state.path}: unit {unit_id!r}: profile has no Move")
    return min(moves)


def plan(state, unit_id: str, target_id: str, seed: int | None = None) -> dict:
    """The charge plan as a dict (see the module docstring); ``seed`` seeds the D6 that
    settles a tie between arcs (random when None; the seed used is reported).

    Raises
    ------
    TabletopError
        Unknown ids, a friendly target, a charger without Move (rank-and-flank).
    """
    need_unit(state, unit_id, "UNIT")
    need_unit(state, target_id, "TARGET")
    if state.unit(unit_id).player == state.unit(target_id).player:
        raise TabletopError(f"{state.path}: TARGET: {target_id!r} is not an enemy of {unit_id!r}")
    geo = snapshot(state)
    pairs = [(geo.model_distance(a, b), a, b) for a in geo.unit_models(unit_id)
             for b in geo.unit_models(target_id)]
    d, a, b = min(pairs)
    rules = state.rules
    out: dict = {"unit": unit_id, "target": target_id, "ruleset": state.ruleset,
                 "distance": round(d, 4), "closest": [a, b]}
    if state.ruleset == "rank-and-flank":
        move = _move_of(state, unit_id)
        odds = CH.charge_odds("rank-and-flank", d, move=move, tol=rules.tol)
        if seed is None:
            seed = random.randrange(1, 1_000_000)
        call = charger_arc(geo, unit_id, target_id, Dice(seed), rules.charge_arc_tie,
                           state.unit(unit_id).player)
        x, y = call.point
        out.update(charge_roll=f"Move {move:g} + the higher of 2D6", move=move,
                   needs=round(CH.needed("rank-and-flank", d), 4),
                   rule=CH.RULE_RNF, side=call.arc, arc_point=[round(x, 4), round(y, 4)],
                   side_rule="measurements.csv TOW 1st Arcs", arc_rule=ARC_RULE, arc_counts=call.counts, arc_models=call.models,
                   arc_tie=list(call.tied), arc_how=call.how, arc_roll=list(call.roll))
        if call.roll:
            out["seed"] = seed
    else:
        er = rules.engagement_range
        odds = CH.charge_odds("fight-phase", d, engagement_range=er, tol=rules.tol)
        if d > CH.CHARGE_DECLARE_RANGE + rules.tol:
            odds = odds * 0
            out["declare_range"] = f"more than {CH.CHARGE_DECLARE_RANGE:g}\": cannot declare"
        near = sorted(((geo.model_distance(m, t), t) for t in geo.unit_models(target_id)
                       for m in geo.unit_models(unit_id)), key=lambda p: p[0])
        seen: list = []
        for dist, t in near:
            if t not in [s[1] for s in seen]:
                seen.append((dist, t))
            if len(seen) == CLOSEST_SHOWN:
                break
        out.update(charge_roll="2D6", needs=round(CH.needed("fight-phase", d, er), 4),
                   engagement_range=er, rule=CH.RULE_FIGHT,
                   closest_targets=[{"model": t, "distance": round(dist, 4)} for dist, t in seen])
    out["odds"] = float(odds)
    out["odds_fraction"] = f"{odds.numerator}/{odds.denominator}"
    return out


def text(p: dict) -> str:
    lines = [f"Charge: {p['unit']} -> {p['target']} ({p['ruleset']})",
             f"Distance: {p['distance']:.2f}\" edge to edge ({p['closest'][0]} to {p['closest'][1]})"]
    if p["ruleset"] == "rank-and-flank":
        lines.append(f"Charge range: {p['charge_roll']}; it must reach {p['needs']:.2f}\" "
                     f"to base contact ({p['rule']})")
    else:
        lines.append(f"Charge roll: 2D6; it must reach {p['needs']:.2f}\" (distance - engagement "
                     f"range {p['engagement_range']:g}\") ({p['rule']})")
        if p.get("declare_range"):
            lines.append(f"Target is {p['declare_range']}")
    lines.append(f"Odds of making it: {100 * p['odds']:.1f}% ({p['odds_fraction']}, exact)")
    if p["ruleset"] == "rank-and-flank":
        side = p["side"] + (" flank" if p["side"] in ("left", "right") else "")
        counts = ", ".join(f"{a} {n}" for a, n in p["arc_counts"].items() if n)
        if p["arc_how"] == "majority":
            why = f"most of {p['unit']}'s front rank stands in its {p['side']} arc ({counts})"
        elif p["arc_how"] == "roll":
            why = (f"{p['unit']}'s front rank ties ({counts}): D6 {p['arc_roll'][-1]} "
                   f"(seed {p['seed']}) gives the {p['side']} arc")
        else:
            why = (f"{p['unit']}'s front rank ties ({counts}): its front-edge centre "
                   f"({p['arc_point'][0]:.2f}, {p['arc_point'][1]:.2f}) stands in the "
                   f"{p['side']} arc")
        lines.append(f"Lands on: {p['target']}'s {side} ({why}; arcs at 45 degrees from "
                     f"the corners)")
    else:
        shown = ", ".join(f"{c['model']} {c['distance']:.2f}\"" for c in p["closest_targets"])
        lines.append(f"Closest target models: {shown}")
    return "\n".join(lines)


def run(args) -> int:
    check_seed(args.seed)
    state = load_map(args.map)
    p = plan(state, args.unit, args.target, args.seed)
    if args.json:
        print_json(p)
    else:
        print(text(p))
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("charge", help="charge plan: distance, odds, side of the target it lands on",
                       description="Charge plan: distance (closest models, edge to edge), the odds "
                                   "of making it, and where it lands. Exit 0, or 2 for bad input.")
    p.add_argument("map", metavar="MAP", help="map file (TOML)")
    p.add_argument("unit", metavar="UNIT", help="the charging unit's id")
    p.add_argument("target", metavar="TARGET", help="the target unit's id")
    p.add_argument("--json", action="store_true", help="print the plan as one JSON object")
    p.add_argument("--seed", type=int, default=None,
                   help="seed of the D6 that settles a tie between arcs (rank-and-flank)")
    p.set_defaults(run=run)
