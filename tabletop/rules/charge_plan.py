"""The charge planner: how far, the roll needed, its exact odds, where it lands, the fight.

``plan_charge(state, unit, targets)`` is the library function the CLI (``tabletop
charge``) and the window call.  Distances are inches, along the shortest path a
charge may take (``geometry/charge_paths.py``): round every other base on the
table, friend or foe, except the charging unit's own models (they move with it)
and the target units' models (the path ends against them), and round the
terrain ``rules/charge.py blocking_terrain`` names for each model.

A unit's charge distance to one target: the shortest path of any of its models
to where it stands within engagement range of a model of the target
(fight-phase; 40K: the charge is made when the closest model gets there) or in
base contact with it (rank-and-flank).  With several targets the unit must end
engaged with every one, so its distance is the longest of the per-target
distances (each target reached by its own closest model) and the roll must
reach that.  ``distance`` is reported edge to edge (the path length plus the
engagement range, so a straight 9.0" gap reads 9.0); ``needs`` is how far the
roll must reach (the path length), ``needed`` the smallest roll that does.

The preview's landing keeps the charge's end clauses (measurements.csv 40K
10th Charge): on the table, in coherency (03.03), not within engagement range
of an enemy unit that was not declared a target, within engagement range of
every target when the roll allows (``geometry/charge_landing.py``); a
rank-and-flank block keeps the table and touches no unit but its target.
What a landing still breaks (walled in, no room) is listed in
``landing_problems`` (``landing_legal`` False), never hidden, and then no fight
is previewed (``fight`` says why): there is no legal landing to fight from.
The paths keep out of the engagement range of enemy units that were not
declared (fight-phase, ``rules/charge.py`` CHARGE_AVOID_UNDECLARED: their bases
grown by it in the arena).  The deciding path's end is checked the same way
(``path_warnings``): with that option off, a path that ends within engagement
range of a unit that was not declared is the shortest way there, not a legal
end of the charge; with it on and no path round them, ``path_warnings`` says
so and names the way past them that there is.

The fight preview is bounded (``fight_summary``): exact while the engine's
walk weighs at most PREVIEW_MAX_STATES states, else PREVIEW_RUNS seeded runs,
and it says which (``method``, ``why``), so a plan takes seconds, not tens.

Named default LANDING_ROLL = "median" ([rules] charge_landing_roll: "median" |
"needed"): the roll the preview's landing assumes: the median of the rolls that
make the charge (what a player expects when the charge goes in), or the
smallest that makes it.

Named default LANDING_TURN = True ([rules] charge_landing_turn; fight-phase): a model whose
base is not round (an oval, a rectangle) may turn as it makes its charge move, at no cost
in inches: neither fight-phase.txt nor the presets name a pivot cost, and a player turns
a bike or a vehicle along its route.  The preview tries such a model at its own facing,
then turned to its path's last heading, then facing the target
(``geometry/charge_landing.py`` LANDING_TURNS), and keeps the first facing at which it
ends engaged; ``--json`` ``landing_facings`` names the models that turned.  False: every
model keeps its facing.

Named default LANDING_AIM = "engage" ([rules] charge_landing_aim: "engage" |
"path"; fight-phase): where a model that cannot reach base contact ends.  The
charge clause asks only that the unit end engaged with every target and that
each model make base contact if it can (measurements.csv 40K 10th Charge); it
is silent on the rest of the unit, and a player brings every model that can
into engagement range (it then fights) and the others as near the targets as
the roll and coherency let them (the fight's pile-in, fight-phase.txt 12.03,
may still bring them in): "engage".  "path" is the older landing: each model
along its own shortest path, stepped back until free, so followers queue
behind the first model and may end out of the fight.
"""

from __future__ import annotations

import random
import re
from collections.abc import Generator, Iterator, Sequence
from fractions import Fraction
from typing import Any

from tabletop.board.state import Battlefield
from tabletop.errors import TabletopError
from tabletop.geometry import snapshot
from tabletop.geometry.charge_landing import land_block, land_models_facing
from tabletop.geometry.charge_paths import (
    ChargeArena,
    ChargePath,
    arena_for,
    arena_shapes,
    charger_radius,
    end_shrink,
    goals_for,
)
from tabletop.rules import charge as CH
from tabletop.rules.dice import Dice, enumerate_outcomes

__all__ = ["LANDING_ROLL", "LANDING_OPTIONS", "LANDING_AIM", "LANDING_TURN", "PREVIEW_MAX_STATES", "PREVIEW_RUNS", "Planner", "plan_charge", "reach_list",
           "landing_budget", "move_of", "reach_pieces", "plan_pieces", "odds_grid", "odds_grid_pieces", "landed_state",
           "landing_problems", "path_warnings", "fight_summary", "needs_text", "ANY_ROLL_TEXT"]

LANDING_ROLL = "median"
LANDING_OPTIONS = ("median", "needed")
LANDING_AIM = "engage"
LANDING_TURN = True
#: the fight preview's exact walk weighs at most this many states (the engine's bound,
#: ``walk.MAX_STATES``, is for ``tabletop fight --odds``; a plan is a quick look)
PREVIEW_MAX_STATES = 600
#: ... and past it samples this many seeded runs (a few seconds at worst; the chart says
#: "monte carlo" and the runs)
PREVIEW_RUNS = 200


def move_of(state: Battlefield, unit_id: str) -> float:
    """The unit's Move (the lowest of its models' ``M``/``Move``), inches; 0 when none given."""
    moves = [float(v) for m in state.unit(unit_id).models for k, v in m.profile.items()
             if k.lower() in ("move", "m")]
    return min(moves) if moves else 0.0


def landing_budget(ruleset: str, path_length: float, move: float, tol: float,
                   how: str = LANDING_ROLL) -> float | None:
    """How far the preview's models move (inches): the charge range of the roll LANDING_ROLL
    names among those that make a ``path_length`` charge; None when no roll makes it."""
    rolls = enumerate_outcomes(lambda d: CH.charge_roll(d, ruleset, move))
    good = sorted((r, p) for r, p in rolls.items() if r >= path_length - tol - 1e-9)
    if not good:
        return None
    if how == "needed":
        return float(good[0][0])
    total = sum(p for _, p in good)
    acc = Fraction(0)
    for r, p in good:
        acc += p
        if acc * 2 >= total:
            return float(r)
    return float(good[-1][0])


class Planner:
    """Charge paths for one charging unit, its arenas built once per kind of model.

    Raises TabletopError for an unknown unit.
    """

    def __init__(self, state: Battlefield, unit_id: str, targets: tuple[str, ...] = (), *,
                 avoid: bool = True):
        self.state = state
        self.unit_id = unit_id
        self.unit = state.unit(unit_id)
        self.geo = snapshot(state)
        self.rules = state.rules
        self.rnf = state.ruleset == "rank-and-flank"
        self.reach = 0.0 if self.rnf else self.rules.engagement_range
        self.move = move_of(state, unit_id) if self.rnf else 0.0
        self.skip = (unit_id,)
        # the declared targets' bases are obstacles the paths end against, never cross
        self.ends = tuple(targets)
        # the enemy units whose engagement range the paths keep out of (CHARGE_AVOID_UNDECLARED);
        # none without declared targets (the odds shading asks where a charge may end at all)
        self.keep_off = tuple(CH.blocking_units(state, unit_id, targets)) if avoid and targets else ()
        self._arenas: dict[Any, ChargeArena] = {}

    def terrain(self, model) -> list[tuple]:
        return [poly for _, poly in CH.blocking_terrain(self.state, model)]

    def arena(self, model) -> ChargeArena:
        key = (model.base, tuple(CH.blocking_terrain(self.state, model)))
        if key not in self._arenas:
            self._arenas[key] = arena_for(self.state, model, self.skip, self.terrain(model),
                                          self.keep_off, self.reach, self.ends)
        return self._arenas[key]

    def arena_pieces(self) -> Iterator[int]:
        """Build (in pieces: ``ChargeArena.pieces``) every arena the unit's models need and
        keep them, so the paths after it cost no arena; yields each piece's counted work."""
        for m in self.unit.models:
            key = (m.base, tuple(CH.blocking_terrain(self.state, m)))
            if key not in self._arenas:
                self._arenas[key] = yield from ChargeArena.pieces(
                    arena_shapes(self.state, self.skip, self.terrain(m), self.keep_off, self.reach,
                                 self.ends, end_shrink(charger_radius(m))),
                    charger_radius(m))

    def to_target(self, target_id: str) -> tuple[ChargePath, str]:
        """The shortest charge path from any model of the unit to ``target_id`` and the model
        that takes it."""
        targets = self.state.unit(target_id).models
        best: tuple[ChargePath, str] | None = None
        for m in self.unit.models:
            p = self.arena(m).shortest(m.at, goals_for(m, targets, self.reach), tol=self.rules.tol)
            if best is None or p.length < best[0].length:
                best = (p, m.id)
        assert best is not None
        return best

    def target_row(self, target_id: str, dice: Dice | None = None) -> dict[str, Any]:
        """One target's figures: ``{id, distance, needs, needed, probability, probability_fraction,
        model, target_model, path, straight, declarable, side?}``."""
        path, model = self.to_target(target_id)
        tol = self.rules.tol
        gap = min(self.geo.model_distance(a, b) for a in self.geo.unit_models(self.unit_id)
                  for b in self.geo.unit_models(target_id))
        row: dict[str, Any] = {"id": target_id, "model": model, "target_model": path.goal,
                               "straight": round(gap, 4), "found": path.found}
        if path.found:
            odds = CH.roll_odds(self.state.ruleset, path.length, move=self.move, tol=tol)
            row.update(distance=round(path.length + self.reach, 4), needs=round(path.length, 4),
                       needed=CH.roll_needed(self.state.ruleset, path.length, move=self.move, tol=tol),
                       path=[[round(x, 4), round(y, 4)] for x, y in path.points])
        else:
            odds = Fraction(0)
            row.update(distance=None, needs=None, needed=None, path=[])
        declarable = True
        if not self.rnf and gap > CH.CHARGE_DECLARE_RANGE + tol:
            declarable = False
            odds = Fraction(0)
        refused = CH.target_refusal(self.state, self.geo, self.unit_id, target_id)
        if refused is not None:
            declarable = False
            odds = Fraction(0)
            row["reason"] = refused
        row["declarable"] = declarable
        row["needs_text"] = needs_text(row, self.state.ruleset, self.move)
        row["probability"] = float(odds)
        row["probability_fraction"] = f"{odds.numerator}/{odds.denominator}"
        if self.rnf:
            from tabletop.rules.rank_and_flank.charge_arc import charger_arc
            call = charger_arc(self.geo, self.unit_id, target_id, dice, self.rules.charge_arc_tie,
                               self.unit.player)
            row.update(side=call.arc, arc=call)
        return row


#: what a rank-and-flank charge whose Move alone reaches says of its roll (the higher D6
#: is at least 1, so every roll makes it: "needs 1" would read as if a roll were asked)
ANY_ROLL_TEXT = "made on any roll"


def needs_text(row: dict[str, Any], ruleset: str, move: float = 0.0) -> str:
    """What one target row (``Planner.target_row``, or a plan) asks of the roll, as words a
    player reads, never a bare None: "needs 7"; "cannot declare: <why>" (no roll asked);
    "no path round the bases and terrain in the way"; "out of reach: needs more than 12\""
    (the ruleset's longest charge, ``charge.max_reach``; Move + 6 in rank-and-flank);
    ``ANY_ROLL_TEXT`` when the unit's Move alone reaches (rank-and-flank needing a 1 on the
    higher die: every roll makes it, 100%)."""
    if not row.get("declarable", True):
        why = row.get("reason")
        if why is None:
            why = (f"{row['straight']:.2f}\" away, more than the {CH.CHARGE_DECLARE_RANGE:g}\" "
                   f"a charge may be declared at" if row.get("straight") is not None
                   else f"more than {CH.CHARGE_DECLARE_RANGE:g}\" away")
        return f"cannot declare: {why}"
    if row.get("needs") is None:
        return "no path round the bases and terrain in the way"
    if row.get("needed") is None:
        return f"out of reach: needs more than {CH.max_reach(ruleset, move):g}\""
    if ruleset == "rank-and-flank" and row["needed"] <= 1:
        return ANY_ROLL_TEXT        # Move + the higher D6: even a 1 reaches
    return f"needs {row['needed']}"


def _public(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k != "arc"}


def reach_list(state: Battlefield, unit_id: str, seed: int | None = None) -> list[dict[str, Any]]:
    """Every enemy unit the charge could reach (probability > 0, declarable), best odds first
    then nearest: rows as ``Planner.target_row``."""
    gen = reach_pieces(state, unit_id, seed)
    while True:
        try:
            next(gen)
        except StopIteration as done:
            return done.value


#: counted work of one charge path search after its arena is built (the window's budget
#: counts it so; a search over a few grown shapes is a few hundred leg tests)
PATH_WORK = 400


def reach_pieces(state: Battlefield, unit_id: str,
                 seed: int | None = None) -> Generator[int, None, list[dict[str, Any]]]:
    """``reach_list`` in pieces (a generator whose value is the list): yields the counted
    work of each piece (arena vertices, ``PATH_WORK`` a path search), so a window can work
    it out across frames; the rows are ``reach_list``'s."""
    rows = []
    geo = snapshot(state)
    rnf = state.ruleset == "rank-and-flank"
    longest = CH.max_reach(state.ruleset, move_of(state, unit_id) if rnf else 0.0)
    reach = 0.0 if rnf else state.rules.engagement_range
    for u in state.units:
        if u.player == state.unit(unit_id).player:
            continue
        gap = min(geo.model_distance(a, b) for a in geo.unit_models(unit_id)
                  for b in geo.unit_models(u.id))
        if gap - reach > longest + state.rules.tol:     # a path is never shorter than the gap
            continue
        pl = Planner(state, unit_id, (u.id,))
        yield from pl.arena_pieces()
        row = pl.target_row(u.id, Dice(seed if seed is not None else 1))
        yield PATH_WORK * len(pl.unit.models)
        if row["probability"] > 0:
            rows.append(_public(row))
    rows.sort(key=lambda r: (-r["probability"], r["distance"], r["id"]))
    return rows


def plan_charge(state: Battlefield, unit_id: str, targets: list[str], seed: int | None = None,
                *, landing: bool = True, fight: bool = True) -> dict[str, Any]:
    """The charge plan of ``unit_id`` against ``targets`` (one or more enemy unit ids).

    Returns a JSON-ready dict: ``distance``, ``needs``, ``needed``, ``probability`` (the
    unit's: the farthest target decides), ``side`` (rank-and-flank, of the first target),
    ``path`` (the deciding path, [[x, y], ...]), ``targets`` [{id, distance, needed,
    probability, side?, path, ...}], ``landing`` {model: [x, y]}, ``landing_roll``,
    ``fight`` (see ``fight_summary``), or ``{"eligible": False, "reason": str}`` when the
    unit may not declare a charge, or not against one of ``targets`` (rank-and-flank: not
    in its front arc, ``rules/charge.py target_refusal``; then ``target`` names it and
    ``targets`` [{id, reason}]).  Raises TabletopError for bad ids (a friendly target).
    """
    gen = plan_pieces(state, unit_id, targets, seed, landing=landing, fight=fight)
    while True:
        try:
            next(gen)
        except StopIteration as done:
            return done.value


def plan_pieces(state: Battlefield, unit_id: str, targets: list[str], seed: int | None = None,
                *, landing: bool = True, fight: bool = True
                ) -> Generator[int, None, dict[str, Any]]:
    """``plan_charge`` in pieces (a generator whose value is the plan): its arenas are built
    a piece at a time (``Planner.arena_pieces``, yielding counted work), the paths, landing
    and fight after them in one piece.  Raises as ``plan_charge``."""
    geo = snapshot(state)
    why = CH.refusal(state, geo, unit_id)
    if why is not None:
        return {"unit": unit_id, "ruleset": state.ruleset, "eligible": False, "reason": why}
    for t in targets:
        if state.unit(t).player == state.unit(unit_id).player:
            raise TabletopError(f"{state.path}: TARGET: {t!r} is not an enemy of {unit_id!r}")
    for t in targets:
        refused = CH.target_refusal(state, geo, unit_id, t)
        if refused is not None:
            return {"unit": unit_id, "ruleset": state.ruleset, "eligible": False,
                    "reason": refused, "target": t,
                    "targets": [{"id": u, "reason": CH.target_refusal(state, geo, unit_id, u)}
                                for u in targets]}
    if seed is None:
        seed = random.randrange(1, 1_000_000)
    dice = Dice(seed)
    pl = Planner(state, unit_id, tuple(targets))
    yield from pl.arena_pieces()
    rows = [pl.target_row(t, dice) for t in targets]
    worst = max(rows, key=lambda r: (r["needs"] is None, r["needs"] or 0.0))
    odds = Fraction(0)
    if all(r["found"] and r["declarable"] for r in rows):
        odds = CH.roll_odds(state.ruleset, worst["needs"], move=pl.move, tol=state.rules.tol)
    out: dict[str, Any] = {
        "unit": unit_id, "target": worst["id"], "ruleset": state.ruleset, "eligible": True,
        "distance": worst["distance"], "needs": worst["needs"],
        "needed": (CH.roll_needed(state.ruleset, worst["needs"], move=pl.move, tol=state.rules.tol)
                   if worst["needs"] is not None else None),
        "probability": float(odds), "odds": float(odds),
        "odds_fraction": f"{odds.numerator}/{odds.denominator}",
        "path": worst["path"], "closest": [worst["model"], worst["target_model"]],
        "targets": [_public(r) for r in rows], "seed": seed,
    }
    undeclared = [r for r in rows if not r["declarable"]]
    out["needs_text"] = needs_text(undeclared[0] if undeclared else
                                   {**worst, "needed": out["needed"]}, state.ruleset, pl.move)
    if not pl.rnf and worst["found"] and worst["path"]:
        out["path_warnings"] = path_warnings(state, unit_id, targets, worst["model"],
                                             worst["path"][-1], pl.reach)
    elif not pl.rnf and pl.keep_off:
        # no path keeps out of the undeclared units' engagement range: say what the way
        # past them would break (the path itself is not offered as a legal charge)
        direct = Planner(state, unit_id, tuple(targets), avoid=False)
        row = direct.target_row(worst["id"], dice)
        if row["found"] and row["path"]:
            out["path_warnings"] = [
                f"no charge path to {worst['id']} keeps out of the engagement range of "
                f"{', '.join(pl.keep_off)} (not declared); the shortest way past them "
                f"({row['distance']:.2f}\") passes within it"] + path_warnings(
                    state, unit_id, targets, row["model"], row["path"][-1], pl.reach)
    if pl.rnf:
        out["side"] = rows[0]["side"]
        out["move"] = pl.move
        out["_arc"] = rows[0]["arc"]
    if landing and odds > 0:
        how = getattr(state.rules, "charge_landing_roll", LANDING_ROLL)
        budget = landing_budget(state.ruleset, worst["needs"], pl.move, state.rules.tol, how)
        if budget is not None:
            landed, spots, paths = _land(pl, targets, rows, budget)
            out["landing_roll"] = {"how": how, "inches": budget}
            out["landing"] = {m: [round(x, 4), round(y, 4)] for m, (x, y) in spots.items()}
            if pl.rnf and spots:
                out["landing_facing"] = round(landed.model(next(iter(spots))).facing_deg, 4)
            turned = {m: round(landed.model(m).facing_deg, 4) for m in spots
                      if landed.model(m).facing_deg != state.model(m).facing_deg}
            if turned and not pl.rnf:
                out["landing_facings"] = turned
            out["landing_paths"] = {m: [[round(x, 4), round(y, 4)] for x, y in p]
                                    for m, p in paths.items()}
            out["landing_engaged"] = sorted(t for t in targets
                                            if snapshot(landed).within(unit_id, t, pl.reach
                                                                       + state.rules.tol))
            problems = landing_problems(landed, unit_id, targets, pl.reach,
                                        None if pl.rnf else paths)
            out["landing_legal"] = not problems
            out["landing_problems"] = problems
            if fight and problems:
                out["fight"] = {"method": "none",
                                "why": "no legal landing was found (see the landing's "
                                       "problems), so there is no fight to preview"}
            elif fight:
                out["fight"] = fight_summary(landed, unit_id, targets)
    return out


def _land(pl: Planner, targets: list[str], rows: list[dict[str, Any]], budget: float):
    state = pl.state
    paths: dict[str, tuple[tuple[float, float], ...]]
    if pl.rnf:
        spots, facing = land_block(pl.geo, pl.unit_id, targets[0], rows[0]["side"], state.rules.tol,
                                   state=state)
        models = [state.model(m).moved_to(x, y, facing) for m, (x, y) in spots.items()]
        paths = {m: (state.model(m).at, xy) for m, xy in spots.items()}
    else:
        first = pl.unit.models[0]
        # the landing keeps off what blocks the path and, by default, off ruin walls
        # (CH.CHARGE_LAND_ON_WALLS)
        spots, paths, facings = land_models_facing(
            state, pl.unit_id, targets, budget, pl.reach, pl.arena,
            [poly for _, poly in CH.landing_terrain(state, first)], state.rules.tol,
            getattr(state.rules, "charge_landing_aim", LANDING_AIM),
            turn=getattr(state.rules, "charge_landing_turn", LANDING_TURN))
        # a model that turned (LANDING_TURN) lands at its new facing; the others keep theirs
        models = [state.model(m).moved_to(x, y, facings[m]
                                          if facings[m] != state.model(m).facing_deg else None)
                  for m, (x, y) in spots.items()]
    landed = state.with_models(models)
    unit = landed.unit(pl.unit_id)
    from tabletop.board.frozen import evolve
    landed = landed.with_unit(evolve(unit, charged=True))
    return landed, spots, paths


def landing_problems(landed: Battlefield, unit_id: str, targets: list[str],
                     reach: float, paths: dict[str, Any] | None = None) -> list[str]:
    """What the landed charger breaks of the charge's end clauses (measurements.csv 40K 10th
    Charge; rank-and-flank: contact for ``reach`` 0), one line each: a model off the table,
    the unit out of coherency, within ``reach`` (+ tolerance) of an enemy unit that is not a
    target, not within it of a target; with ``paths`` ({model id: [(x, y), ...]}, inches,
    fight-phase), a model whose path passes through an enemy base, a target's included
    (models move round other models: a charge ends against a target, never through one).
    Empty: a legal landing."""
    geo = snapshot(landed)
    tol = landed.rules.tol
    out = [f"{m} is off the table" for m in geo.off_table if m.rsplit("/", 1)[0] == unit_id]
    if paths:
        from tabletop.geometry.charge_landing import paths_through
        out += [f"{m}'s path passes through {o}" for m, o in paths_through(landed, unit_id, paths, tol)]
    broken = geo.coherency.get(unit_id)
    if broken is not None:
        out.append(f"{unit_id} ends out of coherency (03.03)")
    me = landed.unit(unit_id).player
    for u in landed.units:
        if u.player == me or u.id == unit_id:
            continue
        near = geo.within(unit_id, u.id, reach + tol)
        if u.id in targets and not near:
            out.append(f"{unit_id} ends not engaged with its target {u.id}")
        elif u.id not in targets and near:
            out.append(f"{unit_id} ends engaged with {u.id}, which it did not declare "
                       f"({CH.rule_flat(landed.rules)})")
    return out


def path_warnings(state: Battlefield, unit_id: str, targets: list[str], model_id: str,
                  end: tuple[float, float] | list[float], reach: float) -> list[str]:
    """What the end of the deciding charge path breaks (fight-phase): ``model_id`` stood
    with its centre at ``end`` (table inches; the path's last point) within ``reach``
    (the engagement range, inches, + tolerance) of an enemy unit that is not in
    ``targets``: one line each, naming the unit (measurements.csv 40K 10th Charge: a
    charge may not end there).  Empty when the end is clear."""
    x, y = end
    moved = state.with_models([state.model(model_id).moved_to(float(x), float(y))])
    geo = snapshot(moved)
    me = state.unit(unit_id).player
    out = []
    for u in state.units:
        if u.player == me or u.id in targets:
            continue
        gap = min(geo.model_distance(model_id, t) for t in geo.unit_models(u.id))
        if gap <= reach + state.rules.tol:
            out.append(f"the shortest path ends within engagement range of {u.id}, which was "
                       f"not declared: that end is not legal")
    return out


_MISSING = re.compile(r"^(?:.*: )?units\[(\d+)\]\.profile\.(\w+): missing")


def why_no_fight(e: TabletopError, unit_ids: Sequence[str] | None = None) -> str:
    """One line for a fight preview the rules could not run: missing profile values are
    gathered into one sentence ("no profile to fight with: T, Sv, W missing on unit-2,
    boyz"), any other problems follow, joined by "; ".

    ``unit_ids`` are the ids of the units of the table the rules ran on, in order: a
    problem's ``units[i]`` is named by ``unit_ids[i]`` (the preview runs on a copy holding
    only the charger and its targets, so its index is not the map file's).  Without them,
    or past their end, the index is kept as ``units[i]``.  Never raises."""
    fields: list[str] = []
    where: list[str] = []
    other: list[str] = []
    for p in e.problems:
        m = _MISSING.match(p)
        if m is None:
            other.append(p.replace("\n", " "))
            continue
        i = int(m.group(1))
        name = unit_ids[i] if unit_ids is not None and i < len(unit_ids) else f"units[{i}]"
        where += [name] if name not in where else []
        fields += [m.group(2)] if m.group(2) not in fields else []
    parts = ([f"no profile to fight with: {', '.join(fields)} missing on {', '.join(where)}"]
             if fields else []) + other
    return "; ".join(parts)


def fight_summary(landed: Battlefield, unit_id: str, targets: list[str], *,
                  max_states: int = PREVIEW_MAX_STATES, runs: int = PREVIEW_RUNS) -> dict[str, Any]:
    """The fight that follows the landing, from the ruleset's own odds (``find_ruleset(...).odds``)
    on a table holding only the charger and its targets: ``{method, why?, runs?, units: {id:
    {models, expected_models_lost, p_destroyed, models_lost: {n: p}}}, win?: {player:
    p}, breaks?: {unit: p}}``; ``{"method": "none", "why": str}`` when nothing is engaged.
    Exact while the walk weighs at most ``max_states`` states, else ``runs`` seeded runs."""
    from tabletop.board.frozen import evolve
    from tabletop.rules.registry import find_ruleset
    keep = {unit_id, *targets}
    only = evolve(landed, units=tuple(u for u in landed.units if u.id in keep), decisions=())
    ruleset = find_ruleset(landed.ruleset)
    if ruleset.odds is None:
        return {"method": "none", "why": f"{landed.ruleset} has no odds"}
    try:
        if landed.ruleset == "rank-and-flank":
            got = ruleset.odds(only, max_paths=max_states, runs=runs)
        else:
            # past the bound the fight is sampled by ``_sampled_summary`` (one run here)
            got = ruleset.odds(only, max_states=max_states, runs=1)
    except TabletopError as e:
        return {"method": "none", "why": why_no_fight(e, [u.id for u in only.units])}
    out: dict[str, Any] = {"method": "none", "units": {}}
    if landed.ruleset == "rank-and-flank":
        engs = [e for e in got.get("engagements", []) if unit_id in e["units"]]
        if not engs:
            return {"method": "none", "why": "the landing engages nothing"}
        eng = engs[0]
        out["method"] = eng.get("method", "exact")
        if out["method"] != "exact":
            out.update(why=eng.get("why"), runs=eng.get("runs"))
        out["win"] = eng.get("win", {})
        out["tie"] = eng.get("tie")
        out["breaks"] = eng.get("breaks", {})
        for u in eng["units"]:
            out["units"][u] = {"models": len(only.unit(u).models)}
        return out
    out["method"] = got.get("method", "none")
    rows = {r["unit"]: r for r in got.get("units", [])}
    if not rows:
        return {"method": "none", "why": got.get("why", "the landing engages nothing")}
    if out["method"] == "monte carlo":
        return _sampled_summary(only, unit_id, targets, runs, _preview_why(got.get("why"), max_states))
    for u, r in rows.items():
        # each unit's own losses (the odds row's ``models_lost``: every history's count of
        # its models lost, whoever removed them), so a charger fighting two targets and
        # each target get a chart of their own
        lost = {int(k): float(p) for k, p in r["models_lost"].items()}
        out["units"][u] = {"models": r["models"], "expected_models_lost": r["expected_models_lost"],
                           "p_destroyed": r["p_destroyed"], "models_lost": lost}
    return out


def _preview_why(why: str | None, max_states: int) -> str:
    """Why the preview sampled, worded for ``tabletop charge`` (the odds' own text names
    ``fight --odds`` flags that ``charge`` does not have)."""
    if why is None or why.startswith("an exact walk would weigh more than"):
        return (f"an exact walk would weigh more than {max_states:,} states (the charge "
                f"preview's bound, rules.charge_plan.PREVIEW_MAX_STATES)")
    return re.sub(r"\s*\([^()]*--[^()]*\)", "", why)


def _sampled_summary(only: Battlefield, unit_id: str, targets: list[str], runs: int,
                     why: str) -> dict[str, Any]:
    """The preview's fight sampled the window's way (``charge_fight.FightSampler``: ``runs``
    seeded runs, each unit's own losses counted run by run, so a unit fighting several
    units gets its own chart): ``fight_summary``'s shape, ``method`` "monte carlo"."""
    from tabletop.rules.charge_fight import FightSampler
    fs = FightSampler(only, unit_id, list(targets), 1)
    for _ in range(runs):
        fs.step()
        if fs.failed:
            break
    got = fs.summary()
    if got.get("method") == "none":
        return got
    units = {u: {"models": r["models"], "expected_models_lost": r["expected_models_lost"],
                 "p_destroyed": r["p_destroyed"], "models_lost": r["models_lost"]}
             for u, r in got["units"].items()}
    return {"method": "monte carlo", "units": units, "why": why, "runs": got["runs"],
            "se": got.get("se")}


def odds_grid(state: Battlefield, unit_id: str, points, *, tol: float | None = None):
    """Charge odds on the table: for each of ``points`` ((N, 2) array, inches), the chance
    that a charge by ``unit_id`` whose closest model's centre ends there is made (the
    shortest path from the nearest of its models round bases and blocking terrain, against
    the ruleset's charge roll; "within" with the map tolerance).

    Returns ``(probabilities, path lengths)``, two (N,) float arrays (``inf`` length and 0
    probability past the longest roll or walled off).
    """
    import numpy as np
    tol = state.rules.tol if tol is None else tol
    pl = Planner(state, unit_id)
    unit = state.unit(unit_id)
    arena = pl.arena(unit.models[0])
    limit = CH.max_reach(state.ruleset, pl.move)
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    lengths = arena.distances_from([m.at for m in unit.models], pts, limit + tol)
    return _roll_probs(state, pl.move, lengths, tol), lengths


def _roll_probs(state: Battlefield, move: float, lengths, tol: float):
    """The chance the ruleset's charge roll reaches each of ``lengths`` (inches, an array)."""
    import numpy as np
    rolls = enumerate_outcomes(lambda d: CH.charge_roll(d, state.ruleset, move))
    probs = np.zeros(len(lengths))
    for r, p in rolls.items():
        probs += float(p) * (r >= lengths - tol - 1e-9)
    return probs


def odds_grid_pieces(state: Battlefield, unit_id: str, xs, ys, out) -> Iterator[int]:
    """``odds_grid`` over the grid ``xs`` x ``ys`` (inches) in pieces, for the window.

    ``out`` is a (len(ys), len(xs)) float array: each row is filled with ``nan`` first and
    with its chances once it is done, so a caller may draw what is ready.  Yields the
    counted work of each piece (the arena's vertices, the path search's leg tests:
    ``ChargeArena.pieces`` / ``distance_pieces``); no clock is read, and the chances are
    those ``odds_grid`` gives for the same points.
    """
    import numpy as np
    tol = state.rules.tol
    out[:] = np.nan
    pl = Planner(state, unit_id)
    unit = state.unit(unit_id)
    first = unit.models[0]
    arena = yield from ChargeArena.pieces(arena_shapes(state, (unit_id,), pl.terrain(first)),
                                          charger_radius(first))
    limit = CH.max_reach(state.ruleset, pl.move)
    xs = np.asarray(xs, dtype=float)
    chunks = [np.column_stack([xs, np.full(len(xs), float(y))]) for y in ys]
    lengths = [np.empty(len(xs)) for _ in ys]
    for work, done in arena.distance_pieces([m.at for m in unit.models], chunks, limit + tol,
                                            lengths):
        if done is not None:
            out[done] = _roll_probs(state, pl.move, lengths[done], tol)
        yield work


def landed_state(state: Battlefield, plan: dict[str, Any]) -> Battlefield | None:
    """The table after the plan's landing (``plan["landing"]``: each charging model at its
    spot, facing kept or turned as the plan says; the unit marked ``charged``), or None when
    the plan has no landing."""
    spots = plan.get("landing")
    if not spots:
        return None
    from tabletop.board.frozen import evolve
    turned = plan.get("landing_facings") or {}
    models = [state.model(m).moved_to(x, y, plan.get("landing_facing"))
              if plan.get("landing_facing") is not None
              else state.model(m).moved_to(x, y, turned.get(m))
              for m, (x, y) in spots.items()]
    landed = state.with_models(models)
    return landed.with_unit(evolve(landed.unit(plan["unit"]), charged=True))
