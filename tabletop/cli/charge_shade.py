"""``tabletop charge MAP UNIT --shade -o PLAN.png``: the table shaded by charge odds.

Every point of a grid (``SHADE_STEP`` inches) is shaded by the chance that a charge by
UNIT ending there is made (``rules/reach_odds.py odds_field``: one distance field for the
unit, the chance read per band), drawn under the bases and name plates
(``render/charge_shade.py``); each enemy unit in reach is marked with its odds
(``reach_list``).  ``--json`` prints ``{unit, ruleset, step,
in_reach: [...], picture}``.  Exit 0, or 2 for bad input.
"""

from __future__ import annotations

import numpy as np

from tabletop.cli.common import need_unit, print_json
from tabletop.cli.output import cannot_write
from tabletop.errors import TabletopError
from tabletop.geometry import snapshot
from tabletop.rules import charge as CH
from tabletop.rules.charge_plan import reach_list
from tabletop.rules.reach_odds import odds_field

#: grid step of the shading, inches
SHADE_STEP = 0.5


def shade_run(state, args) -> int:
    need_unit(state, args.unit, "UNIT")
    why = CH.refusal(state, snapshot(state), args.unit)
    if why is not None:
        out = {"unit": args.unit, "ruleset": state.ruleset, "eligible": False, "reason": why}
        print_json(out) if args.json else print(f"{args.unit} may not charge: {why}")
        return 0
    xs = np.arange(SHADE_STEP / 2, state.table.width, SHADE_STEP)
    ys = np.arange(SHADE_STEP / 2, state.table.depth, SHADE_STEP)
    probs, _ = odds_field(state, args.unit, xs, ys)
    rows = reach_list(state, args.unit, args.seed)
    from tabletop.render.charge_shade import save_shade_png
    try:
        save_shade_png(state, args.unit, xs, ys, probs, SHADE_STEP, rows,
                       args.out, force=args.force)
    except OSError as exc:
        if isinstance(exc, TabletopError):
            raise
        raise TabletopError(cannot_write(args.out, exc)) from None
    if args.json:
        print_json({"unit": args.unit, "ruleset": state.ruleset, "eligible": True,
                    "step": SHADE_STEP, "in_reach": rows, "picture": args.out})
    else:
        for r in rows:
            print(f"{r['id']}: {r['distance']:.2f}\" (path), {r.get('needs_text') or 'needs ' + str(r['needed'])}, "
                  f"{100 * r['probability']:.1f}%")
        print(f"Wrote {args.out}")
    return 0
