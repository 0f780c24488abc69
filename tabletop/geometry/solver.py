"""The pile-in and consolidation move solver (fight-phase.txt 12.03, 12.08).

``solve_move(state, geo, spec) -> MovePlan``.  The models move one at a
time, those nearest their closest target first (ties: unit order).  The
first pass is made twice and the better kept (more models engaged, then in
base contact, then fewer out of coherency: ``PASS_PREFERS_ENGAGED``): once with contact slots assigned to all the models together
(``assign.py``: slots touching two enemy models first, as many models as can
have one, least total distance), once with each model aiming at the free
contact spot nearest to it on the closest models of its closest target.  A
model ends at the best point of its path that keeps its own clauses
(``reach.py``; the path round the other bases is an analytic slide for round
bases among round bases, ``slides.py``, else pymunk steering; it is pulled
tight and checked).  Then, keeping every hard clause:

1. improve: a model that is not engaged tries again with every other model
   where it ended, and takes the new end when it breaks nothing new;
2. engaging consolidation: an unengaged selected enemy unit is aimed at by
   the models nearest to it, until every selected unit is engaged;
3. coherency: while the unit is out of coherency, one model's move changes
   — shortened along its path, dropped, or sent to a spot near its friends
   (``cohere.repair_spots``: within coherency range of a friend, and where it
   can, still engaged with its target) — the change that leaves fewest
   models out of coherency, then least shortfall, then most models engaged
   (the spots are routed best first, only as far as that choice needs:
   ``_apply_best``);
4. the validator (``validator.py``) judges the result; a model whose move
   still breaks one of its own clauses stays where it started.

The first pass is made once when it left nothing for the other to gain
(``first_pass_complete``: every model that can end engaged and in base contact
does, and no clause is broken but the unit's coherency, which step 3 mends,
or the unit's engagement when no model can be engaged), and the second is cut
short once it cannot leave as many models engaged as the first (``first_pass``).
The solve is a generator (``solve_steps``) that
yields after each step - one model's route in a pass, one retry, one
coherency change - so a window can cut it over frames (``pieces.py``);
``solve_move`` runs it to its end, and the plan is the same however it is cut.

Named default ``MIN_GAIN``: the solver makes no move that gains nothing a
player could measure.  A move is kept only if it ends at least ``MIN_GAIN``
closer to the model's closest target (or objective), or it makes the model
engaged (within range of the objective) where it started not, or dropping it
would break a clause (coherency).  Closing the last few hundredths of an inch
to base contact does not count: on the table a model 0.05" from an enemy
already touches it.  The rule itself asks only "closer" (more than the
tolerance, ``tolerance.closer``): the validator accepts any such move; the
solver just does not propose shuffles of a few hundredths of an inch.

The result keeps every hard clause it can; what it cannot keep (no target,
the unit cannot end engaged, cannot end in coherency) comes back as
violations naming the clause.  Every choice compares rounded distances and
breaks ties by unit order (``sweeps.TIE_DECIMALS``), so the same fight
anywhere on the table gives the same moves.  Inches, origin bottom-left, y up.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Generator

import numpy as np

from tabletop.board.state import Battlefield
from tabletop.geometry import pieces
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.assign import assign_slots
from tabletop.geometry.cohere import UnitCoherency, repair_spots
from tabletop.geometry.movespec import MoveContext, MovePlan, MoveSpec
from tabletop.geometry.paths import Arena, Obstacle, free_at, near_obstacles
from tabletop.geometry.reach import (
    Reach,
    obstacles_for,
    reach_all,
    reach_best,
    reach_model,
    reach_spot,
)
from tabletop.geometry.snapshot import Geometry
from tabletop.geometry.sweeps import XY, cut_path, samples, tie, ties
from tabletop.geometry.validator import Found, check, possible_findings

#: improvement rounds (each retries every unengaged model once)
IMPROVE_ROUNDS = 2
#: when shortening a move for coherency, candidate ends are this far apart along its path
SHORTEN_STEP = 0.25
#: models tried per unengaged selected enemy unit (engaging consolidation)
ENGAGE_TRIES = 4
#: inches: a move that gains less than this and does not make the model engaged
#: is not made (see the module docstring)
MIN_GAIN = 0.1
#: spots near its friends tried per model and round when repairing coherency
REPAIR_TRIES = 4

#: of the two first passes (``_Solver.solve``) the one that leaves more models
#: engaged (within range of the objective), then more in base contact, is kept,
#: before the one that leaves fewer models out of coherency (03.03): the
#: coherency step that follows (``_Solver.cohere``) mends coherency from either,
#: and 12.03 asks for coherency only "if possible", while a model engaged in the
#: first pass and not in the other is a model that fights.  Other broken clauses
#: still come first.  Named default: ``[rules] pile_in_prefers_engaged`` (this value when
#: a map does not set it).
PASS_PREFERS_ENGAGED = True

#: findings a first pass may leave and still be complete (``first_pass_complete``):
#: the unit out of coherency (left to the coherency step), the unit not engaged or
#: not within range of the objective when no model can be (``out_of_reach``)
SECOND_PASS_CANNOT_MEND = frozenset({"coherency", "unit_engaged", "unit_objective"})

# a model whose move breaks one of these of its own clauses is put back where it started
_OWN_CODES = {"path_start", "path_end", "path_off_table", "fixed", "distance", "through_base",
              "terrain", "order", "overlap", "off_table", "closer", "engaged_lost"}


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
    key = ("solve_move", spec, tuple((m.id, m.x, m.y, m.facing_deg) for m in state.models()))
    return pieces.run(key, lambda: solve_steps(state, geo, spec))


def solve_steps(state: Battlefield, geo: Geometry, spec: MoveSpec
                ) -> Generator[None, None, MovePlan]:
    """``solve_move`` as a generator: it yields after each step (one model's
    route in a pass, one retry, one coherency change) and returns the
    ``MovePlan``; the same plan however it is run (``pieces.run``)."""
    ctx = MoveContext(state, geo, spec)
    if ctx.problems:
        return MovePlan(spec, {}, {}, {}, list(ctx.problems))
    return (yield from _Solver(ctx, Arena(state)).solve())


class _Solver:
    def __init__(self, ctx: MoveContext, arena: Arena):
        self.ctx = ctx
        self.arena = arena
        self.moves: dict[str, Reach] = {}
        self.cache: dict = {}
        # validator findings and move order by the moves made (``found``)
        self.checked: dict[tuple, tuple[list[Found], list[str]]] = {}
        # each moved model's own findings, kept between checks (``validator.check``'s memo)
        self.check_memo: dict[tuple, tuple[Found, ...]] = {}
        self._radii_of: tuple[np.ndarray, np.ndarray] | None = None
        # ``repair_spots_scored``: which spots have room and keep the model's own clauses, by
        # model, spots and the bases near
        self._kept_spots: dict[tuple, np.ndarray] = {}
        # ``shorter`` by model: the move it was asked about and the answer
        self._shorter: dict[str, tuple[Reach, list[Reach | None]]] = {}
        # the ``quality`` of the first pass made already, if any (``first_pass``)
        self.beat: tuple | None = None

    # ------------------------------------------------------------ state
    def where(self, but: str | None = None) -> dict[str, XY]:
        out = {m: r.end for m, r in self.moves.items()}
        if but is not None:
            out.pop(but, None)
        return out

    def positions(self) -> dict[str, XY]:
        return {m: r.end for m, r in self.moves.items()}

    def paths(self) -> dict[str, list[XY]]:
        return {m: r.path for m, r in self.moves.items()}

    def found(self, order: list[str] | None = None) -> list[Found]:
        """The validator's findings (``possible=False``) on the current moves,
        remembered by the moves' paths: a solve asks again and again about the
        same moves (each coherency round, each pass's quality), and the answer
        depends on nothing else."""
        key = tuple((m, tuple(map(tuple, self.moves[m].path))) for m in self.ctx.ids
                    if m in self.moves)
        hit = self.checked.get(key)
        if hit is None:
            got: list[str] = []
            hit = (check(self.ctx, self.positions(), self.paths(), possible=False,
                         arena=self.arena, order_out=got, memo=self.check_memo), got)
            self.checked[key] = hit
        if order is not None:
            order[:] = hit[1]
        return list(hit[0])

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
    def solve(self) -> Generator[None, None, MovePlan]:
        ctx = self.ctx
        best = None
        for use_slots in (True, False):
            self.moves = {}
            self.beat = None if best is None else best[0]
            made = yield from self.first_pass(use_slots)
            if made is False:
                continue                    # cut short: it could not be kept
            yield from self.sanitise()
            key = self.quality()
            if best is None or key > best[0]:
                best = (key, dict(self.moves))
            if self.first_pass_complete():
                break                       # nothing a second first pass could add
        assert best is not None             # the loop above runs at least once
        self.moves = best[1]
        yield from self.prune()
        yield from self.improve()
        if ctx.spec.kind == "engaging":
            yield from self.engage_all()
        yield from self.cohere()
        yield from self.improve()
        yield from self.sanitise()
        yield from self.prune()
        order: list[str] = []
        base = self.found(order)
        yield
        # ``check(possible=True)``: the findings so far, then the "if possible" ones
        violations = [f.violation for f in
                      [*base, *possible_findings(ctx, self.positions(), self.paths(), base,
                                                 arena=self.arena, cache=self.cache)]]
        return MovePlan(ctx.spec, self.paths(), self.positions(),
                        {m: self.closest(m, r.end) for m, r in self.moves.items()}, violations,
                        [m for m in order if m in self.moves])

    def quality(self) -> tuple:
        """How good the moves are: fewest broken clauses, then most models engaged
        (within range of the objective), then most in base contact, then nearest;
        with ``PASS_PREFERS_ENGAGED`` the models out of coherency are counted after
        those in base contact, not with the other broken clauses."""
        ctx = self.ctx
        found = self.keys(self.found())
        achieved = contact = 0
        dist = 0.0
        for m in ctx.ids:
            at = [self.moves[m].end if m in self.moves else ctx.start[m]]
            achieved += bool(ctx.achieved_at(m, at)[0]) if ctx.target.get(m) else 0
            contact += bool(ctx.contact_at(m, at)[0]) if ctx.target.get(m) else 0
            dist += float(ctx.dist_at(m, at)[0]) if ctx.target.get(m) else 0.0
        if getattr(ctx.rules, "pile_in_prefers_engaged", PASS_PREFERS_ENGAGED):
            mend = sum(1 for code, _ in found if code == "coherency")
            return (-(len(found) - mend), achieved, contact, -mend, -tie(dist))
        return (-len(found), achieved, contact, 0, -tie(dist))

    def first_pass_complete(self) -> bool:
        """Every model that could end engaged (within range of the objective) and in
        base contact does, and the moves break no clause but those the other first
        pass cannot mend (``SECOND_PASS_CANNOT_MEND``): it is not made.

        The other pass differs only in the spots the models aim at on the enemy,
        so with every model that can touch an enemy touching one it can gain no
        model engaged or in base contact (``quality``'s second and third keys).
        The unit left unengaged (not within range of the objective) with every
        model engaged that could be means no model could be: the other pass
        leaves it so too.  Models left out of coherency (03.03) are mended by
        the coherency step (``cohere``) from whichever pass is kept; the other
        pass would only be kept if, before that step, it left fewer of them."""
        ctx = self.ctx
        if any(f.code not in SECOND_PASS_CANNOT_MEND for f in self.found()):
            return False
        for m in ctx.movable():
            if not ctx.target.get(m):
                continue
            r = self.moves.get(m)
            if not (r.achieved if r is not None else ctx.achieved_at(m, [ctx.start[m]])[0]) \
                    and not ctx.out_of_reach(m):
                return False
            if ctx.objective is None and not (r.contact if r is not None else
                                               ctx.contact_at(m, [ctx.start[m]])[0]) \
                    and ctx.start_dist[m] - ctx.spec.max_distance <= ctx.tol:
                return False
        return True

    def first_pass(self, use_slots: bool) -> Generator[None, None, bool]:
        """Every model that may move, nearest its target first: toward its contact
        slot (``assign.py``) when ``use_slots`` and it has one, else (or when the
        slot is not reached) toward the nearest free contact spot; never ending
        on a slot kept for a model that moves later.

        ``self.beat``: the ``quality`` of a pass made already.  When that pass broke no
        clause but coherency (``PASS_PREFERS_ENGAGED``), this one is cut short
        (False returned) as soon as it cannot leave as many models engaged (within
        range of the objective): a model that has moved ends engaged only if its
        move does or it started so (``sanitise`` may put it back), one still to
        move only if it is not out of reach (``out_of_reach``) or started so; it
        could not be kept.  As many engaged, it is cut short too once it cannot
        leave as many in base contact (a model ends in contact only if it started
        so, or its move does, or, still to move, its closest target is at most
        the maximum distance away).  True: every model had its turn."""
        ctx = self.ctx
        movers = ctx.movable()
        can: dict[str, bool] | None = None
        can_touch: dict[str, bool] = {}
        beat = self.beat
        bar = bar_touch = 0
        prefers = getattr(ctx.rules, "pile_in_prefers_engaged", PASS_PREFERS_ENGAGED)
        if beat is not None and prefers and beat[0] == 0:
            bar = int(beat[1])          # models engaged by the pass made already
            bar_touch = int(beat[2])    # and in base contact
            mover = set(movers)
            at_start = {m: bool(ctx.achieved_at(m, [ctx.start[m]])[0])
                        for m in ctx.ids if ctx.target.get(m)}
            can = {m: a or (m in mover and not ctx.out_of_reach(m))
                   for m, a in at_start.items()}
            # base contact: only a model that starts in it, or moves at most the
            # maximum distance from its closest target (a gap shrinks by no more
            # than the distance moved); none toward an objective (``contact_at``)
            touch_start = {m: bool(ctx.contact_at(m, [ctx.start[m]])[0]) for m in at_start}
            can_touch = {m: t or (m in mover and ctx.objective is None and bool(
                tolmod.in_contact(ctx.start_dist[m] - ctx.spec.max_distance, ctx.tol)))
                for m, t in touch_start.items()}
        slots = {}
        if use_slots:
            static = [ob for ob in obstacles_for(ctx, None, {}) if ob.id not in set(movers)]
            slots = assign_slots(ctx, self.arena, movers, static)
            yield
        for k, mid in enumerate(movers):
            later = [Obstacle(f"(slot {m})", ctx.models[m].base, *slots[m].xy,
                              ctx.models[m].facing_deg) for m in movers[k + 1:] if m in slots]
            r = None
            if mid in slots:
                s = slots[mid]
                r = reach_model(ctx, self.arena, mid, self.where(), cache=self.cache,
                                spots=[(s.aim, s.xy)], avoid=later)
            if r is None or not r.contact:
                alt = reach_model(ctx, self.arena, mid, self.where(), cache=self.cache,
                                  avoid=later)
                if alt is not None and (r is None or alt.score > r.score):
                    r = alt
            if r is not None and self.worth(mid, r):
                self.moves[mid] = r
            yield
            if can is not None and mid in can:
                can[mid] = at_start[mid] or (mid in self.moves and self.moves[mid].achieved)
                can_touch[mid] = touch_start[mid] or (mid in self.moves and
                                                      self.moves[mid].contact)
                # kept only if better (``quality``): it cannot leave more models
                # engaged, or as many and more in base contact
                if (sum(can.values()), sum(can_touch.values())) < (bar, bar_touch):
                    return False
        return True

    def closest(self, mid: str, end: XY) -> str:
        """The model of the model's closest target nearest to where it ends (the one
        its distance to the target is measured to), or the objective."""
        ctx = self.ctx
        if ctx.objective is not None:
            return ctx.objective.id
        ids = ctx.target_models(ctx.target[mid])
        return ids[int(np.argmin(ties(ctx.gaps_at(mid, [end], ctx.target[mid])[0])))]

    def worth(self, mid: str, r: Reach) -> bool:
        """``MIN_GAIN``: the move gains at least that much, or makes the model
        engaged (within range of the objective)."""
        ctx = self.ctx
        if r.achieved and not ctx.achieved_at(mid, [ctx.start[mid]])[0]:
            return True
        return tie(ctx.start_dist[mid] - r.dist) >= MIN_GAIN

    def prune(self) -> Generator[None, None, None]:
        """Drop every move not ``worth`` making, unless dropping it breaks a clause."""
        now = self.keys(self.found())
        for mid in [m for m in self.ctx.ids if m in self.moves]:
            if not self.worth(mid, self.moves[mid]):
                new = self.try_change(mid, None, now)
                if new is not None:
                    now = new
                yield

    def sanitise(self) -> Generator[None, None, None]:
        """Put back every model whose move breaks one of its own clauses."""
        for _ in range(len(self.ctx.ids) + 1):
            bad = {f.model for f in self.found() if f.code in _OWN_CODES and f.model in self.moves}
            yield
            if not bad:
                return
            for m in bad:
                self.moves.pop(m, None)

    def improve(self) -> Generator[None, None, None]:
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
                yield
                if r is None or (cur is not None and r.score <= cur.score) \
                        or not self.worth(mid, r):
                    continue
                new = self.try_change(mid, r, now)
                if new is not None:
                    now, changed = new, True
            if not changed:
                return

    def engage_all(self) -> Generator[None, None, None]:
        """Engaging consolidation: the unit must end engaged with every selected
        unit (12.08).  For each selected unit not engaged yet, the models nearest
        to it try to reach it — and, when a model is the only one engaged with
        another selected unit, to stay engaged with that one too."""
        ctx = self.ctx
        for t in ctx.spec.targets:
            if self._engaged_with(t):
                continue
            now = self.keys(self.found())
            order = sorted(ctx.movable(),
                           key=lambda m: (tie(ctx.dist_at(m, [ctx.start[m]], t)[0]),
                                          ctx.ids.index(m)))
            for mid in order[:ENGAGE_TRIES]:
                keep = tuple(u for u in ctx.spec.targets if u != t and self._engaged_with(u)
                             and not self._engaged_with(u, but=mid))
                if keep:
                    r = reach_all(ctx, self.arena, mid, self.where(but=mid), (t, *keep),
                                  cache=self.cache)
                else:
                    r = reach_model(ctx, self.arena, mid, self.where(but=mid), goal=t,
                                    cache=self.cache)
                yield
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
    def at_list(self, moves: dict[str, Reach] | None = None) -> list[XY]:
        """Every model's position (unit order) with these moves (default: the current ones)."""
        moves = self.moves if moves is None else moves
        return [moves[m].end if m in moves else self.ctx.start[m] for m in self.ctx.ids]

    def shorter(self, mid: str) -> list[Reach | None]:
        """Shorter versions of a model's move that keep its own clauses, longest first, then none."""
        ctx, r = self.ctx, self.moves[mid]
        hit = self._shorter.get(mid)
        if hit is not None and hit[0] is r:
            return list(hit[1])             # the same move as last round: the same answer
        out: list[Reach | None] = []
        pts = samples(r.path, SHORTEN_STEP)
        ends = [p for p in pts[1:-1] if p[0] < r.length - 1e-9]
        if ends:
            xy = [p[1] for p in ends]
            dist, achieved, contact = ctx.measure_at(mid, xy)
            oks = ctx.ok_at(mid, xy, dist)
            for k in range(len(ends) - 1, -1, -1):
                if not oks[k]:
                    continue
                s = ends[k][0]
                out.append(Reach(mid, cut_path(r.path, s), r.aim, bool(achieved[k]),
                                 bool(contact[k]), float(dist[k]), s))
        out.append(None)
        self._shorter[mid] = (r, out)
        return list(out)

    def keep_mask(self, mid: str, pts) -> np.ndarray:
        """For each spot: moving ``mid`` there keeps the unit's own after-moving
        clause where ``mid`` alone keeps it now (12.03 the unit engaged; 12.08
        engaging: engaged with each selected unit; objective: within range)."""
        ctx = self.ctx
        at = dict(zip(ctx.ids, self.at_list()))
        others = [m for m in ctx.ids if m != mid]
        ok = np.ones(len(pts), dtype=bool)
        kind = ctx.spec.kind
        if kind == "objective":
            if ctx.in_range_at(mid, [at[mid]])[0] and \
                    not any(ctx.in_range_at(m, [at[m]])[0] for m in others):
                ok &= ctx.in_range_at(mid, pts)
            return ok
        units = ctx.spec.targets if kind == "engaging" else (None,) if kind == "pile_in" else ()
        for u in units:
            group = ctx.spec.targets if u is None else (u,)

            def engaged(m, where, group=group):
                return np.any([ctx.engaged_at(m, where, t) for t in group], axis=0)
            if engaged(mid, [at[mid]])[0] and not any(engaged(m, [at[m]])[0] for m in others):
                ok &= engaged(mid, pts)
        return ok

    def repair_spots_scored(self, mid: str, coh: UnitCoherency, bad: int, short: float,
                            allowed: set | None = None) -> _RepairQueue | None:
        """The spots nearer its friends ``mid`` could move to that leave the unit nearer
        coherency (``cohere.repair_spots``), keeping its own clauses and the unit's, in
        the order they are tried (fewest models out of coherency, least shortfall, then
        engaged, in base contact, nearest its target, shortest as the crow flies), as a
        ``_RepairQueue`` that routes them one at a time (``reach_spot``), or None when
        there are none.  With ``allowed`` (the findings a change may leave), no spot
        lands on a friend in an overlap not allowed (``_lands_on_friend``): no route is
        made to a spot the change would be refused for."""
        ctx = self.ctx
        m = ctx.models[mid]
        if coh.cannot_help(ctx.ids.index(mid), self.at_list(), bad, short):
            return None
        at = dict(zip(ctx.ids, self.at_list()))
        goals = ctx.spec.targets if ctx.spec.kind == "engaging" else ()
        pts = repair_spots(ctx, mid, at, goals, self.arena.margin)
        if not len(pts):
            return None
        # the masks are independent (the same spots whatever their order): the ones
        # that keep fewest first, the coherency score (a sort per spot) last, on the
        # spots left.  Room (a quarter to a third of the spots in a packed unit) is
        # looked for among the bases a spot within the move can touch
        # (``near_obstacles``), not the table; the model's own clauses (about half
        # kept) measure against every target model
        start = ctx.start[mid]
        near = near_obstacles(m.base, start, obstacles_for(ctx, mid, self.where(but=mid)),
                              ctx.spec.max_distance)
        # room and the model's own clauses depend only on the spots and the bases
        # near: remembered by those (a coherency round asks again about the models
        # none of whose neighbours moved since the last)
        key = (mid, pts.shape, pts.tobytes(), tuple((ob.id, ob.x, ob.y) for ob in near))
        kept = self._kept_spots.get(key)
        if kept is None:
            kept = free_at(self.arena, m.base, m.facing_deg, start, near, pts)
            if kept.any():
                kept[kept] = ctx.ok_at(mid, pts[kept])
            self._kept_spots[key] = kept
        pts = pts[kept]
        if len(pts) and allowed is not None:
            pts = pts[~self._on_friends(mid, pts, allowed)]
        if len(pts):
            pts = pts[self.keep_mask(mid, pts)]
        if not len(pts):
            return None
        i = ctx.ids.index(mid)
        nbad, nshort = coh.score_moving(i, pts, self.at_list())
        nshort = ties(nshort)
        better = (nbad < bad) | ((nbad == bad) & (nshort < tie(short)))
        pts, nbad, nshort = pts[better], nbad[better], nshort[better]
        if not len(pts):
            return None
        dist, achieved, contact = ctx.measure_at(mid, pts)
        # nearer the target by less than the tolerance is not nearer (tolerance.closer)
        dist = np.floor(ties(dist) / ctx.tol)
        crow = ties(np.hypot(pts[:, 0] - start[0], pts[:, 1] - start[1]))
        order = np.lexsort((np.arange(len(pts)), crow, dist, ~contact, ~achieved, nshort, nbad))
        return _RepairQueue(self, mid, pts[order], nbad[order].tolist(), nshort[order].tolist())

    def cohere(self) -> Generator[None, None, None]:
        """Change one model's move at a time until the unit is in coherency: shorten
        or drop a move, or send a model out of coherency (failing that, any other)
        to a spot near its friends; each step takes the change leaving fewest
        models out of coherency, then least shortfall, then most models engaged,
        then the models nearest their targets (in all, to the tolerance), then the
        shortest moves."""
        ctx = self.ctx
        coh = UnitCoherency(ctx)
        for _ in range(4 * len(ctx.ids)):
            bad, short = coh.score(self.at_list())
            if not bad:
                return
            now = self.keys(self.found())
            allowed = now | {("coherency", m) for m in ctx.ids}
            current = (len(bad), tie(short))
            movable = [m for m in ctx.movable()]
            first = [m for m in movable if m in bad]
            rest = [m for m in movable if m not in bad]
            applied = False
            at_listed = self.at_list()
            at_now = np.asarray(at_listed, dtype=float)
            for who in (first, rest):
                options = []
                for mid in [m for m in ctx.ids if m in self.moves]:
                    if who is rest:
                        break                 # shortening was tried with the first group
                    if coh.cannot_help(ctx.ids.index(mid), at_listed, *current):
                        yield                 # no end of its leaves the unit nearer
                        continue              # coherency (``repair_spots_scored`` reads the same bound)
                    alts = self.shorter(mid)
                    ends = np.array([a.end for a in alts if a is not None],
                                    dtype=float).reshape(-1, 2)
                    on = iter(self._on_friends(mid, ends, allowed, at_now).tolist())
                    # every shortened end tested at once (``_lands_on_friend``)
                    options.extend(self._options(coh, mid, [
                        alt for alt in alts
                        if not (next(on) if alt is not None else
                                self._lands_on_friend(mid, None, allowed, at_now))]))
                    yield
                queues = []
                for mid in who:
                    q = self.repair_spots_scored(mid, coh, *current, allowed)
                    if q is not None:
                        queues.append(q)
                    yield
                applied = yield from self._apply_best(coh, options, queues, current, allowed,
                                                      at_now)
                if applied:
                    break
            if not applied:
                return

    def _apply_best(self, coh: UnitCoherency, options: list[tuple], queues: list[_RepairQueue],
                    current: tuple, allowed: set, at_now: np.ndarray
                    ) -> Generator[None, None, bool]:
        """Try the changes best first (``_option``'s key, then the order they were
        listed: ``options`` first, then each queue's spots in turn) until one is
        accepted (``try_change``) or none left would leave the unit nearer coherency
        than ``current``.  A repair spot is routed only when it could come next: a
        spot's route ends at the spot (or within half the tolerance of it), so its
        option's first two keys (models out of coherency, shortfall) are the spot's,
        known before routing, but for what half the tolerance can change; an option
        is tried once no spot still to route has smaller first keys.  On every bench
        case and shipped map this chooses as routing each queue's first
        ``REPAIR_TRIES`` spots did (every end position the same), without routing the
        spots it never reaches.  True when a change was made."""
        heap: list[tuple[tuple, tuple, str, Reach | None]] = [
            (key, (0, k), mid, alt) for k, (key, _, mid, alt) in enumerate(options)]
        heapq.heapify(heap)
        while True:
            heads = [(h, n) for n, h in enumerate(q.head() for q in queues) if h is not None]
            head = min(heads) if heads else None
            if heap and (head is None or heap[0][0][:2] < head[0]):
                key, _, mid, alt = heapq.heappop(heap)
                if key[:2] >= current:
                    return False
                yield
                if self.try_change(mid, alt, allowed) is not None:
                    return True
                continue
            if head is None or head[0] >= current:
                return False
            q = queues[head[1]]
            rank = q.tried
            alt = q.advance()
            yield
            # a repair spot is free of where its friends stand deeper than its start
            # is (``free_at``): a friend that ended on its start leaves spots the
            # validator refuses; they are not scored
            if alt is not None and not self._lands_on_friend(q.mid, alt, allowed, at_now):
                key, _, mid, _ = self._options(coh, q.mid, [alt])[0]
                heapq.heappush(heap, (key, (1, head[1], rank), mid, alt))

    def _lands_on_friend(self, mid: str, alt: Reach | None, allowed: set,
                         at: np.ndarray | None = None) -> bool:
        """Whether ``alt`` ends ``mid`` overlapping (by more than twice the
        tolerance, so the validator's overlap test agrees) a round friend where
        it ends now (``at``: every model's position, unit order; default
        ``at_list()``), an overlap not already allowed: ``try_change`` would
        refuse it, so it is not scored.  ``alt`` None (the move dropped): ``mid``
        at its start, against the friends that move (the validator reports an
        overlap only where a model moved).  Round bases only (centres and
        radii); else False."""
        if at is None:
            at = np.asarray(self.at_list(), dtype=float)
        ctx = self.ctx
        m = ctx.models[mid]
        if not m.base.is_round or ("overlap", mid) in allowed:
            return False
        radii, round_ = self._radii()
        x, y = alt.end if alt is not None else ctx.start[mid]
        g = np.hypot(at[:, 0] - x, at[:, 1] - y) - m.base.radius - radii
        hit = round_ & (g < -2.0 * ctx.tol)
        if alt is None:
            hit &= np.array([o in self.moves for o in ctx.ids], dtype=bool)
        hit[ctx.ids.index(mid)] = False
        return any(("overlap", ctx.ids[k]) not in allowed for k in np.nonzero(hit)[0].tolist())

    def _on_friends(self, mid: str, pts: np.ndarray, allowed: set,
                    at: np.ndarray | None = None) -> np.ndarray:
        """For each spot (k, 2): ``mid`` standing there overlaps a friend where it
        ends now (``at``: every model's position, unit order; default
        ``at_list()``) as ``_lands_on_friend`` tells (more than twice the
        tolerance, an overlap not in ``allowed``).  Round bases only; else all
        False."""
        ctx = self.ctx
        m = ctx.models[mid]
        out = np.zeros(len(pts), dtype=bool)
        if not m.base.is_round or ("overlap", mid) in allowed or not len(pts):
            return out
        radii, round_ = self._radii()
        if at is None:
            at = np.asarray(self.at_list(), dtype=float)
        g = np.hypot(pts[:, None, 0] - at[None, :, 0], pts[:, None, 1] - at[None, :, 1]) \
            - m.base.radius - radii[None, :]
        cols = round_ & np.array([("overlap", o) not in allowed for o in ctx.ids], dtype=bool)
        cols[ctx.ids.index(mid)] = False
        return ((g < -2.0 * ctx.tol) & cols[None, :]).any(axis=1)

    def _radii(self) -> tuple[np.ndarray, np.ndarray]:
        """Every model's radius (inches) and whether its base is round, unit order."""
        if self._radii_of is None:
            bases = [self.ctx.models[o].base for o in self.ctx.ids]
            self._radii_of = (np.array([b.radius for b in bases], dtype=float),
                              np.array([b.is_round for b in bases], dtype=bool))
        return self._radii_of

    def _options(self, coh: UnitCoherency, mid: str, alts: list[Reach | None]) -> list[tuple]:
        """``_option`` for each of ``alts`` (changes of one model's move), the unit's
        coherency of all of them measured at once (``score_moving``: only the
        model's row and column of the gaps change)."""
        if not alts:
            return []
        ctx = self.ctx
        ends = [alt.end if alt is not None else ctx.start[mid] for alt in alts]
        nbad, nshort = coh.score_moving(ctx.ids.index(mid), ends, self.at_list())
        return [self._option(coh, mid, alt, (int(b), float(s)))
                for alt, b, s in zip(alts, nbad.tolist(), nshort.tolist())]

    def _option(self, coh: UnitCoherency, mid: str, alt: Reach | None,
                score: tuple[int, float] | None = None) -> tuple:
        """The sort key of changing ``mid``'s move to ``alt`` (None: dropped), and
        the change.  ``score``: (models out of coherency, shortfall) with the change,
        when known (``_options``)."""
        trial = dict(self.moves)
        if alt is None:
            del trial[mid]
        else:
            trial[mid] = alt
        if score is None:
            left, left_short = coh.score(self.at_list(trial))
            score = (len(left), left_short)
        engaged = sum(1 for x in trial.values() if x.achieved)
        near = sum(x.dist for x in trial.values()) + sum(
            self.ctx.start_dist[m] for m in self.ctx.ids if m not in trial)
        key = (score[0], tie(score[1]), -engaged, int(tie(near) / self.ctx.tol),
               tie(sum(x.length for x in trial.values())), self.ctx.ids.index(mid))
        return key, 0, mid, alt


class _RepairQueue:
    """One model's repair spots in the order they are tried (``repair_spots_scored``),
    routed one at a time (``reach_spot``): at most ``2 * REPAIR_TRIES`` spots tried
    (a spot within twice the tolerance of one tried already is skipped) and at most
    ``REPAIR_TRIES`` reached."""

    def __init__(self, solver: _Solver, mid: str, pts: np.ndarray, nbad: list[int],
                 nshort: list[float]):
        self.solver, self.mid = solver, mid
        self.pts, self.nbad, self.nshort = pts, nbad, nshort
        self.k = 0                  # the next spot to look at
        self.tried: int = 0
        self.reached = 0
        self._tried_at: list[XY] = []

    def head(self) -> tuple[int, float] | None:
        """(models out of coherency, shortfall) of the next spot to be routed, or None
        when no more are tried."""
        if self.tried >= 2 * REPAIR_TRIES or self.reached >= REPAIR_TRIES:
            return None
        tol = self.solver.ctx.tol
        while self.k < len(self.pts):
            p = (float(self.pts[self.k, 0]), float(self.pts[self.k, 1]))
            if not any(math.dist(p, q) < 2 * tol for q in self._tried_at):
                return (int(self.nbad[self.k]), float(self.nshort[self.k]))
            self.k += 1
        return None

    def advance(self) -> Reach | None:
        """Route the spot ``head`` names; its ``Reach`` or None (not reached)."""
        assert self.head() is not None
        s = self.solver
        p = (float(self.pts[self.k, 0]), float(self.pts[self.k, 1]))
        self.k += 1
        self.tried += 1
        self._tried_at.append(p)
        r = reach_spot(s.ctx, s.arena, self.mid, s.where(but=self.mid), p)
        if r is not None:
            self.reached += 1
        return r
