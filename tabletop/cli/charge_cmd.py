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
arc_models?, arc_tie?, arc_how?, arc_rule?, arc_roll?, seed?, closest_targets?,
landing?, landing_facing? (rank-and-flank: degrees the landed block faces),
landing_facings? (fight-phase: {model: degrees} of the models that turned to land),
landing_problems?, path_warnings? (fight-phase: what the deciding path's end breaks)}``.
Exit 0, or 2 for bad input (unknown unit, a target that is not an enemy).
"""

from __future__ import annotations

import random

from tabletop.cli.common import check_seed, load_map, need_unit, print_json
from tabletop.cli.output import add_force, cannot_write, check_new_output, check_output_folder
from tabletop.errors import TabletopError

# the geometry and the rules are imported inside the functions that use them, so that
# ``tabletop charge --help`` imports none of them (issue 11 item 4)

CLOSEST_SHOWN = 3


def plan(state, unit_id: str, target_id: str | list[str] | None, seed: int | None = None, *,
         landing: bool = True, fight: bool = True) -> dict:
    """The charge plan as a dict (see the module docstring); ``seed`` seeds the D6 that
    settles a tie between arcs (random when None; the seed used is reported when rolled).
    ``target_id`` may be one id, a list of ids, or None/[] (every enemy unit in reach).

    Raises
    ------
    TabletopError
        Unknown ids, a friendly target, a charger without Move (rank-and-flank).
    """
    from tabletop.geometry import snapshot
    from tabletop.rules import charge as CH
    from tabletop.rules.charge_plan import plan_charge, reach_list
    from tabletop.rules.rank_and_flank.charge_arc import ARC_RULE

    need_unit(state, unit_id, "UNIT")
    targets = [target_id] if isinstance(target_id, str) else list(target_id or [])
    for i, t in enumerate(targets):
        need_unit(state, t, "TARGET")
        if t in targets[:i]:
            raise TabletopError(f"{state.path}: TARGET: {t!r} is given twice; name each target once")
        if state.unit(unit_id).player == state.unit(t).player:
            raise TabletopError(f"{state.path}: TARGET: {t!r} is not an enemy of {unit_id!r}")
    if state.ruleset == "rank-and-flank" and not any(
            k.lower() in ("move", "m") for m in state.unit(unit_id).models for k in m.profile):
        raise TabletopError(f"{state.path}: unit {unit_id!r}: profile has no Move")
    geo = snapshot(state)
    for what, uid in [("UNIT", unit_id)] + [("TARGET", t) for t in targets]:
        off = [m for m in geo.off_table if m.rsplit("/", 1)[0] == uid]
        if off:
            raise TabletopError(f"{state.path}: {what}: {uid!r} is off the table "
                                f"({', '.join(off)}): a charge is planned on the table only")
    why = CH.refusal(state, geo, unit_id)
    if why is not None:
        return {"unit": unit_id, "ruleset": state.ruleset, "eligible": False, "reason": why,
                **({"target": targets[0], "targets": [{"id": t} for t in targets]} if targets else {})}
    if not targets:
        rows = reach_list(state, unit_id, seed)
        return {"unit": unit_id, "ruleset": state.ruleset, "eligible": True, "in_reach": rows,
                "targets": rows}
    if seed is None:
        seed = random.randrange(1, 1_000_000)
    out = plan_charge(state, unit_id, targets, seed, landing=landing, fight=fight)
    if not out.get("eligible", True):
        return out
    rules = state.rules
    d = out["distance"]
    if state.ruleset == "rank-and-flank":
        move = out["move"]
        call = out.pop("_arc")
        x, y = call.point
        out.update(charge_roll=f"Move {move:g} + the higher of 2D6", move=move,
                   rule=CH.RULE_RNF, side=call.arc, arc_point=[round(x, 4), round(y, 4)],
                   side_rule="measurements.csv TOW 1st Arcs", arc_rule=ARC_RULE,
                   arc_counts=call.counts, arc_models=call.models,
                   arc_tie=list(call.tied), arc_how=call.how, arc_roll=list(call.roll))
        if not call.roll:
            out.pop("seed", None)
    else:
        out.pop("seed", None)
        er = rules.engagement_range
        if any(not r["declarable"] for r in out["targets"]):
            out["declare_range"] = f"more than {CH.CHARGE_DECLARE_RANGE:g}\": cannot declare"
        near = sorted(((geo.model_distance(m, t), t) for t in geo.unit_models(out["target"])
                       for m in geo.unit_models(unit_id)), key=lambda p: p[0])
        seen: list = []
        for dist, t in near:
            if t not in [s[1] for s in seen]:
                seen.append((dist, t))
            if len(seen) == CLOSEST_SHOWN:
                break
        out.update(charge_roll="2D6", engagement_range=er, rule=CH.rule_for(rules),
                   closest_targets=[{"model": t, "distance": round(dist, 4)} for dist, t in seen])
    if d is None:
        out["distance"] = None
    return out


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def _flat(rule: str) -> str:
    """A rule citation with its inner brackets dropped (it sits inside one pair)."""
    return rule.replace(" (", " ").replace(")", "").replace("(", "")


def _needs(row: dict, p: dict) -> str:
    """A row's (or the plan's) roll as words, never a bare None (``needs_text``)."""
    from tabletop.rules.charge_plan import needs_text

    if row.get("needs_text"):
        return row["needs_text"]
    return needs_text(row, p["ruleset"], p.get("move", 0.0))


def text(p: dict) -> str:
    """The plan as lines a player reads."""
    from tabletop.rules.describe import plural

    if not p.get("eligible", True):
        return f"{p['unit']} may not charge: {p['reason']}"
    if "in_reach" in p:
        if not p["in_reach"]:
            return f"{p['unit']}: no enemy unit within reach of a charge"
        lines = [f"{p['unit']}: enemy units within reach of a charge, best odds first"]
        for r in p["in_reach"]:
            side = f", lands on its {r['side']}" if r.get("side") else ""
            lines.append(f"  {r['id']}: {r['distance']:.2f}\" (path), {_needs(r, p)}, "
                         f"{_pct(r['probability'])} ({r['probability_fraction']}){side}")
        return "\n".join(lines)
    names = ", ".join(t["id"] for t in p["targets"])
    lines = [f"Charge: {p['unit']} -> {names} ({p['ruleset']})"]
    if p["distance"] is None:
        lines.append(f"No path: {p['target']} cannot be reached round the bases and terrain "
                     f"in the way")
    else:
        lines.append(f"Distance: {p['distance']:.2f}\" edge to edge along the charge path "
                     f"({p['closest'][0]} to {p['closest'][1]}; straight "
                     f"{p['targets'][[t['id'] for t in p['targets']].index(p['target'])]['straight']:.2f}\")")
    if len(p["targets"]) > 1:
        lines.append("Targets (the charge must end engaged with every one; the farthest decides):")
        for t in p["targets"]:
            dist = "no path" if t["distance"] is None else f"{t['distance']:.2f}\""
            odds = (f", {_pct(t['probability'])}" if t.get("declarable", True)
                    and t.get("needed") is not None else "")
            lines.append(f"  {t['id']}: {dist}, {_needs(t, p)}{odds}")
    blocked = [t for t in p["targets"] if not t.get("declarable", True)]
    if blocked:
        # a charge that cannot be declared asks no roll and has no odds
        for t in blocked:
            lines.append(f"Cannot declare the charge at {t['id']}: "
                         f"{_needs(t, p).removeprefix('cannot declare: ')}")
    else:
        rule = _flat(p["rule"])
        if p["distance"] is not None:
            if p["ruleset"] == "rank-and-flank":
                lines.append(f"Charge range: {p['charge_roll']}; it must reach {p['needs']:.2f}\" "
                             f"to base contact: "
                             + (f"the higher die needs {p['needed']}"
                                if p["needed"] is not None and p["needed"] > 1
                                else _needs(p, p)) + f" ({rule})")
            else:
                lines.append(f"Charge roll: 2D6; it must reach {p['needs']:.2f}\" (distance - "
                             f"engagement range {p['engagement_range']:g}\"): {_needs(p, p)} ({rule})")
        if p["distance"] is None or p["needed"] is None:
            lines.append(f"Odds of making it: 0% ({_needs(p, p)})")
        elif p.get("landing_problems"):
            lines.append(f"Odds of the roll reaching: {100 * p['odds']:.1f}% ({p['odds_fraction']}, "
                         f"exact); not the odds of a legal landing: none was found (below)")
        else:
            lines.append(f"Odds of making it: {100 * p['odds']:.1f}% ({p['odds_fraction']}, exact)")
    for w in p.get("path_warnings", []):
        lines.append(f"  warning: {w}")
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
        lines.append(f"Lands on: {p['targets'][0]['id']}'s {side} ({why}; arcs at 45 degrees from "
                     f"the corners)")
    else:
        shown = ", ".join(f"{c['model']} {c['distance']:.2f}\"" for c in p["closest_targets"])
        lines.append(f"Closest target models: {shown}")
    if "landing" in p:
        lr = p["landing_roll"]
        eng = ", ".join(p["landing_engaged"]) or "nothing"
        lines.append(f"Preview landing (a roll of {lr['inches']:g}\", the {lr['how']} roll that "
                     f"makes it): {plural(len(p['landing']), 'model')} placed, engaged with {eng}")
        for why in p.get("landing_problems", []):
            lines.append(f"  no legal landing found: {why}")
    f = p.get("fight")
    if f:
        if f.get("method") == "none":
            lines.append(f"Fight that follows: no odds ({f.get('why', '')})")
        else:
            how = f['method'] + (f", {f['runs']} runs" if f.get("runs") else "")
            lines.append(f"Fight that follows ({how}):")
            if f.get("why") and f["method"] != "exact":
                lines.append(f"  sampled: {f['why']}")
            for u, r in f["units"].items():
                if "expected_models_lost" in r:
                    lines.append(f"  {u}: loses {r['expected_models_lost']:.2f} of "
                                 f"{plural(r['models'], 'model')} on average, destroyed "
                                 f"{_pct(r['p_destroyed'])}")
            for pl, w in f.get("win", {}).items():
                # "won by": agrees with a player named in the singular or plural ("orks")
                lines.append(f"  combat won by {pl}: {_pct(w)}")
            for u, b in f.get("breaks", {}).items():
                lines.append(f"  {u} breaks {_pct(b)}")
    return "\n".join(lines)


def run(args) -> int:
    check_seed(args.seed, command="tabletop charge")
    if args.shade and not args.out:
        raise TabletopError("--shade draws the table: give -o PLAN.png")
    if args.out and not args.out.lower().endswith(".png"):
        raise TabletopError(f"-o {args.out}: the plan picture is a .png file")
    if args.out:
        check_output_folder(args.out)
        check_new_output(args.out, args.map, args.force)
    state = load_map(args.map)
    if args.shade:
        from tabletop.cli.charge_shade import shade_run
        return shade_run(state, args)
    p = plan(state, args.unit, args.targets, args.seed, fight=not args.no_fight)
    if args.out:
        from tabletop.render.charge_plan import save_plan_png
        try:
            save_plan_png(state, p, args.out, force=args.force)
        except OSError as exc:
            if isinstance(exc, TabletopError):
                raise
            raise TabletopError(cannot_write(args.out, exc)) from None
        p["picture"] = args.out
    if args.json:
        print_json(p)
    else:
        print(text(p))
        if args.out:
            print(f"Wrote {args.out}")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("charge", help="charge plan: distance, odds, side of the target it lands on",
                       description="Charge plan: the shortest path a charge may take round bases "
                                   "and terrain, the roll needed and its exact odds, where it "
                                   "lands and the fight that follows. Without TARGET: every "
                                   "enemy unit in reach. Exit 0, or 2 for bad input.")
    p.add_argument("map", metavar="MAP", help="map file (TOML)")
    p.add_argument("unit", metavar="UNIT", help="the charging unit's id")
    p.add_argument("targets", metavar="TARGET", nargs="*", default=[],
                   help="target unit id(s); the charge must end engaged with every one")
    p.add_argument("--json", action="store_true", help="print the plan as one JSON object")
    p.add_argument("-o", dest="out", metavar="PLAN.png", default=None,
                   help="draw the plan: path, landing, distance and odds, the fight's chart")
    add_force(p)
    p.add_argument("--shade", action="store_true",
                   help="with -o: shade the table by the odds of a charge ending there")
    p.add_argument("--no-fight", dest="no_fight", action="store_true",
                   help="skip the preview of the fight that follows (the slow part of a plan)")
    p.add_argument("--seed", type=int, default=None,
                   help="seed of the D6 that settles a tie between arcs (rank-and-flank)")
    p.set_defaults(run=run)
