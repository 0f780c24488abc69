"""The pile-in and consolidation move solver (fight-phase.txt 12.03, 12.08).

``solve_move(state, geo, spec) -> MovePlan``.  The models move one at a
time, those nearest their closest target first; each aims at base contact
with the closest model of its closest target unit (the next closest when
that is out of reach) and ends at the best point of its path that keeps its
own clauses (``reach.py``; pymunk finds the path around the other bases,
Shapely pulls it tight and checks it).  Then, keeping every hard clause:

1. improve: a model that is not engaged tries again with every other model
   where it ended, and takes the new end when it breaks nothing new;
2. engaging consolidation: an unengaged selected enemy unit is aimed at by
   the models nearest to it, until every selected unit is engaged;
3. coherency: while the unit is out of coherency, the move of one model is
   shortened (or dropped) — the choice that leaves fewest models out of
   coherency and most models engaged;
4. the validator (``validator.py``) judges the result; a model whose move
   still breaks one of its own clauses stays where it started.

The result keeps every hard clause it can; what it cannot keep (no target,
the unit cannot end engaged, cannot end in coherency) comes back as
violations naming the clause.  Inches, origin bottom-left, y up.
"""

from __future__ import annotations

import numpy as np

from tabletop.board.state import Battlefield
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.movespec import MoveContext, MovePlan, MoveSpec
from tabletop.geometry.paths import Arena
from tabletop.geometry.reach import Reach, reach_all, reach_best, reach_model
from tabletop.geometry.snapshot import Geometry
from tabletop.geometry.sweeps import XY, core_of, cut_path, gap_matrix, samples
from tabletop.geometry.validator import Found, check

#: improvement rounds (each retries every unengaged model once)
IMPROVE_ROUNDS = 2
#: when shortening a move for coherency, candidate ends are this far apart along its path
SHORTEN_STEP = 0.25
#: models tried per unengaged selected enemy unit (engaging consolidation)
ENGAGE_TRIES = 4

# a model whose move breaks one of these of its own clauses is put back where it started
_OWN_CODES = {"path_start", "path_end", "fixed", "distance", "through_base", "terrain", "order",
              "overlap", "off_table", "closer", "engaged_lost"}


def solve_move(state: Battlefield, geo: Geometry, spec: MoveSpec) -> MovePlan:
    """Make a pile-in (12.03) or consolidation (12.08) move for ``spec.unit``.

    Parameters
    ----------
    state, geo : the state before the move and its snapshot.
    spec : kind ("pile_in" | "ongoing" | "engaging" | "objective"), unit,
        targets (enemy units, or one objective), max distance (inches), rule.

    Returns
    -------
    MovePlan
        Paths and end points of the models that move (others stay), the
        target model each moved toward, an order for the moves, and the
        validator's violations (empty when the move is legal).

    Raises
    ------
    UnknownIdError
        For an unknown unit, target or objective.
    """
    ctx = MoveContext(state, geo, spec)
    if ctx.problems:
        return MovePlan(spec, {}, {}, {}, list(ctx.problems))
    return _Solver(ctx, Arena(state)).solve()


class _Solver:
    def __init__(self, ctx: MoveContext, arena: Arena):
        self.ctx = ctx
        self.arena = arena
        self.moves: dict[str, Reach] = {}
        self.cache: dict = {}

    # ------------------------------------------------------------ state
    def where(self, but: str | None = None) -> dict[str, XY]:
        out = {m: r.end for m, r in self.moves.items()}
        out.pop(but, None)
        return out

    def positions(self) -> dict[str, XY]:
        return {m: r.end for m, r in self.moves.items()}

    def paths(self) -> dict[str, list[XY]]:
        return {m: r.path for m, r in self.moves.items()}

    def found(self, order: list[str] | None = None) -> list[Found]:
        return check(self.ctx, self.positions(), self.paths(), possible=False,
                     arena=self.arena, order_out=order)

    @staticmethod
    def keys(found: list[Found]) -> set[tuple[str, str | None]]:
        return {(f.code, f.model) for f in found}

    def try_change(self, mid: str, reach: Reach | None, now: set) -> set | None:
        """Apply a change to one model's move when it breaks nothing new; the new keys or None."""
        old = self.moves.get(mid)
        if reach is None:
            self.moves.pop(mid, None)
        else:
            self.moves[mid] = reach
        new = self.keys(self.found())
        if new <= now:
            return new
        if old is None:
            self.moves.pop(mid, None)
        else:
            self.moves[mid] = old
        return None

    # ------------------------------------------------------------ passes
    def solve(self) -> MovePlan:
        ctx = self.ctx
        for mid in ctx.movable():
            r = reach_model(ctx, self.arena, mid, self.where(), cache=self.cache)
            if r is not None:
                self.moves[mid] = r
        self.sanitise()
        self.improve()
        if ctx.spec.kind == "engaging":
            self.engage_all()
        self.cohere()
        self.improve()
        self.sanitise()
        order: list[str] = []
        self.found(order)
        violations = [f.violation for f in check(ctx, self.positions(), self.paths(),
                                                 arena=self.arena, cache=self.cache)]
        return MovePlan(ctx.spec, self.paths(), self.positions(),
                        {m: self.closest(m, r.end) for m, r in self.moves.items()}, violations,
                        [m for m in order if m in self.moves])

    def closest(self, mid: str, end: XY) -> str:
        """The model of the model's closest target nearest to where it ends (the one
        its distance to the target is measured to), or the objective."""
        ctx = self.ctx
        if ctx.objective is not None:
            return ctx.objective.id
        ids = ctx.target_models(ctx.target[mid])
        return ids[int(np.argmin(ctx.gaps_at(mid, [end], ctx.target[mid])[0]))]

    def sanitise(self) -> None:
        """Put back every model whose move breaks one of its own clauses."""
        for _ in range(len(self.ctx.ids) + 1):
            bad = {f.model for f in self.found() if f.code in _OWN_CODES and f.model in self.moves}
            if not bad:
                return
            # the model that moved last in the first pass is the likeliest culprit
            for m in bad:
                self.moves.pop(m, None)

    def improve(self) -> None:
        """Each model not engaged (not within range) tries again with the others where they end."""
        ctx = self.ctx
        now = self.keys(self.found())
        for _ in range(IMPROVE_ROUNDS):
            changed = False
            for mid in ctx.movable():
                cur = self.moves.get(mid)
                if (cur is not None and cur.achieved) or ctx.out_of_reach(mid):
                    continue
                r = reach_best(ctx, self.arena, mid, self.where(but=mid), cache=self.cache)
                if r is None or (cur is not None and r.score <= cur.score):
                    continue
                new = self.try_change(mid, r, now)
                if new is not None:
                    now, changed = new, True
            if not changed:
                return

    def engage_all(self) -> None:
        """Engaging consolidation: the unit must end engaged with every selected
        unit (12.08).  For each selected unit not engaged yet, the models nearest
        to it try to reach it — and, when a model is the only one engaged with
        another selected unit, to stay engaged with that one too."""
        ctx = self.ctx
        for t in ctx.spec.targets:
            if self._engaged_with(t):
                continue
            now = self.keys(self.found())
            order = sorted(ctx.movable(), key=lambda m: float(ctx.dist_at(m, [ctx.start[m]], t)[0]))
            for mid in order[:ENGAGE_TRIES]:
                keep = tuple(u for u in ctx.spec.targets if u != t and self._engaged_with(u)
                             and not self._engaged_with(u, but=mid))
                if keep:
                    r = reach_all(ctx, self.arena, mid, self.where(but=mid), (t, *keep),
                                  cache=self.cache)
                else:
                    r = reach_model(ctx, self.arena, mid, self.where(but=mid), goal=t,
                                    cache=self.cache)
                if r is None or not r.achieved:
                    continue
                old = self.moves.get(mid)
                self.moves[mid] = r
                new = self.keys(self.found())
                if self._engaged_with(t) and new - now <= {("possible", mid)}:
                    break
                if old is None:
                    self.moves.pop(mid)
                else:
                    self.moves[mid] = old

    def _engaged_with(self, t: str, but: str | None = None) -> bool:
        """Some model of the unit (other than ``but``) ends engaged with enemy unit ``t``."""
        ctx = self.ctx
        for m in ctx.ids:
            if m == but:
                continue
            at = self.moves[m].end if m in self.moves else ctx.start[m]
            if ctx.engaged_at(m, [at], t)[0]:
                return True
        return False

    # ------------------------------------------------------------ coherency
    def incoherent(self, moves: dict[str, Reach]) -> tuple[set[str], float]:
        """Models of the unit out of coherency with these moves (core rules 03.03),
        and by how much in all (inches short of the range, over the spread)."""
        ctx = self.ctx
        r, tol = ctx.rules, ctx.tol
        n = len(ctx.ids)
        if n < 2:
            return set(), 0.0
        at = [moves[m].end if m in moves else ctx.start[m] for m in ctx.ids]
        if all(ctx.models[m].base.is_round for m in ctx.ids):
            xy = np.asarray(at, dtype=float)
            rad = np.array([ctx.models[m].base.radius for m in ctx.ids])
            g = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1]) \
                - rad[:, None] - rad[None, :]
        else:
            parts = [core_of(ctx.models[m].base, ctx.models[m].facing_deg, p)
                     for m, p in zip(ctx.ids, at)]
            g = gap_matrix([c for c, _ in parts], [p for _, p in parts],
                           [c for c, _ in parts], [p for _, p in parts], tol)
        np.fill_diagonal(g, np.inf)
        if r.coherency_range is None:
            kth = g.min(axis=1)
            bad = ~tolmod.in_contact(kth, tol)
            excess = np.maximum(0.0, kth)
        else:
            kth = np.sort(g, axis=1)[:, min(r.coherency_needed(n), n - 1) - 1]
            bad = ~tolmod.within(kth, r.coherency_range, tol)
            excess = np.maximum(0.0, kth - r.coherency_range)
            if r.coherency_spread is not None:
                np.fill_diagonal(g, 0.0)
                far = ~tolmod.within(g, r.coherency_spread, tol)
                bad |= far.any(axis=1)
                excess = excess + np.maximum(0.0, g - r.coherency_spread).sum(axis=1)
        return {ctx.ids[k] for k in np.nonzero(bad)[0].tolist()}, float(excess[bad].sum())

    def shorter(self, mid: str) -> list[Reach | None]:
        """Shorter versions of a model's move that keep its own clauses, longest first, then none."""
        ctx, r = self.ctx, self.moves[mid]
        out: list[Reach | None] = []
        pts = samples(r.path, SHORTEN_STEP)
        ends = [p for p in pts[1:-1] if p[0] < r.length - 1e-9]
        oks = ctx.ok_at(mid, [p[1] for p in ends]) if ends else []
        for (s, p, _), ok in zip(reversed(ends), list(oks)[::-1]):
            if not ok:
                continue
            path = cut_path(r.path, s)
            d = float(ctx.dist_at(mid, [p])[0])
            out.append(Reach(mid, path, r.aim, bool(ctx.achieved_at(mid, [p])[0]),
                             bool(ctx.contact_at(mid, [p])[0]), d, s))
        out.append(None)
        return out

    def cohere(self) -> None:
        """Shorten or drop moves, one at a time, until the unit is in coherency:
        each step takes the change leaving fewest models out of coherency, then
        least shortfall, then most models engaged, then the longest moves."""
        for _ in range(4 * len(self.ctx.ids)):
            bad, short = self.incoherent(self.moves)
            if not bad:
                return
            now = self.keys(self.found())
            options = []
            for mid in list(self.moves):
                for alt in self.shorter(mid):
                    trial = dict(self.moves)
                    if alt is None:
                        del trial[mid]
                    else:
                        trial[mid] = alt
                    left, left_short = self.incoherent(trial)
                    engaged = sum(1 for x in trial.values() if x.achieved)
                    key = (len(left), round(left_short, 6), -engaged,
                           -sum(x.length for x in trial.values()))
                    options.append((key, mid, alt))
            options.sort(key=lambda o: o[0])
            allowed = now | {("coherency", m) for m in self.ctx.ids}
            applied = False
            for key, mid, alt in options:
                if key[:2] >= (len(bad), round(short, 6)):
                    break
                if self.try_change(mid, alt, allowed) is not None:
                    applied = True
                    break
            if not applied:
                return
