"""Whether a Consolidation step can start a fight, asked of the odds walk's ends of the
Fight step (fight-phase.txt 12.07-12.08; ``odds``).

Consolidation rolls no dice; the only dice after the Fight step are the fights an
engaging consolidation starts (12.08 AFTER MOVING: the enemy units engaged with the
consolidated unit that have not been selected to fight this phase are selected now).  So
the odds walk first weighs the phase up to Consolidation, one engagement at a time
(``engine.factored``), and asks of every table it ends on whether such a fight is
possible at all; only from the tables where one is does it walk Consolidation (the
consolidation moves solved on every such table, which costs far more), and there it makes
each move only while a fight can still follow (``quiet``).  A sampled run does the same.

A fight needs, at the start of the Consolidation step, a unit ``U`` and enemy units ``X``
and ``E`` such that (``ConsolidationCheck.possible``):

- ``U`` is on the table, may consolidate (it was eligible to fight, or was selected) and is
  not engaged: a unit engaged at the start of the step stays engaged until a fight happens
  (an ongoing consolidation keeps every model that started engaged engaged, and removing
  models needs dice), so it makes an ongoing consolidation, which starts no fight;
- ``X`` is within ``CONSOLIDATION_MODE_RANGE`` (3") of ``U`` when ``U`` picks its mode,
  so that it makes an engaging one;
- ``E`` has not been selected to fight and is within the consolidation distance plus the
  engagement range of ``U`` when ``U`` moves, so that ``U`` can end engaged with it;
- some model of ``U`` can reach, within the consolidation distance, a point closer to an
  ``X`` than it starts (12.08 WHILE MOVING) and within the engagement range of ``E``, and
  the unit can end engaged with that ``X`` (AFTER MOVING: an engaging consolidation must end
  engaged with every unit it selected, else it is not made); for a unit of one model, at
  that same point (``geometry.consolidation_reach.can_end_engaged``).

``U`` moves only in its own consolidation; ``X`` and ``E`` can have moved before it by at
most the consolidation distance each, and only if they may consolidate and are the active
player's while ``U`` is not (12.07: the player whose turn it is makes all their moves
first).  Distances here are between model centres less each base's bounding radius (its
half-diagonal), never more than the true distance, so the test can say "possible" when no fight can happen, never the
reverse.  Whether ``U`` is engaged is read from the geometry of its own engagement (a unit
of another engagement is never engaged with it: ``odds_split``'s ``check``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from tabletop.geometry.consolidation_reach import Models, can_end_engaged, models_of, unit_gap
from tabletop.geometry.movespec import CONSOLIDATION_MODE_RANGE
from tabletop.rules.engine.machine import PhaseState
from tabletop.rules.fight_phase.context import geometry

__all__ = ["ConsolidationCheck"]

_SELECTED, _EVER = 0, 1     # places of the flags in ``odds_split``'s inner data (``_SETS``)
GAPS_KEPT = 200_000         # pairs of units whose gap ``ConsolidationCheck`` keeps
NODES_KEPT = 256            # nodes whose stands ``ConsolidationCheck`` keeps
class ConsolidationCheck:
    """The module docstring's test for the nodes of one odds walk: the engagements
    ``groups`` (unit ids), ``split`` the walk's ``factored.Split`` (its ``splice``),
    ``players`` every unit's player.  What is worked out per engagement and inner state is
    kept for the next node."""

    def __init__(self, groups: Sequence[Sequence[str]], split: Any,
                 players: dict[str, str]) -> None:
        self.groups = [tuple(g) for g in groups]
        self._players = players
        self.in_parts = {u for g in self.groups for u in g}
        self._at = {u: n for g in self.groups for n, u in enumerate(g)}    # place in its part
        self.split = split
        self._engaged: dict[tuple[int, Hashable], tuple[bool, ...]] = {}
        self._gaps: dict[tuple[int, int], tuple[Models, Models, float]] = {}
        self._reach: dict[tuple, tuple[Models, list, list, bool]] = {}     # ``_can_reach``, kept
        # ids of what a node's stands are read from -> (those objects, the stands, each
        # stand's ``_starts`` as worked out): kept while those objects are
        self._nodes: dict[tuple, tuple[tuple, list[tuple], dict[int, bool]]] = {}

    def _node(self, template: PhaseState, dists: Sequence[dict]
              ) -> tuple[list[tuple], dict[int, bool]]:
        """The node's stands (``_stands``) and a dict for their ``_starts``, kept per node."""
        memo = template.memo
        objs = (template.battlefield, memo.selected, memo.ever_eligible) + tuple(dists)
        k = tuple(map(id, objs))
        got = self._nodes.get(k)
        if got is None or not all(a is b for a, b in zip(got[0], objs)):
            if len(self._nodes) >= NODES_KEPT:
                self._nodes.clear()
            got = self._nodes[k] = (objs, self._stands(template, dists), {})
        return got[1], got[2]

    def _starter(self, template: PhaseState, dists: Sequence[dict], n: int) -> bool:
        """``_starts`` of the node's ``n``-th stand, worked out once per node."""
        stands, starts = self._node(template, dists)
        got = starts.get(n)
        if got is None:
            got = starts[n] = self._starts(template, dists, stands, stands[n])
        return got

    def possible(self, template: PhaseState, dists: Sequence[dict[Hashable, tuple[Any, Any]]]
                 ) -> bool:
        """Whether some table of the node (``template`` with each part's inner states
        ``dists``, ``engine.factored``; at the start of Consolidation or in it) has a
        ``U``, ``X`` and ``E`` (module docstring):
        every inner state of a part counts, whatever the other parts' are (so "possible"
        may be said of no one table, never left unsaid)."""
        stands, _ = self._node(template, dists)
        for n, (i, k, uid, _, _, may) in enumerate(stands):
            if i is None or not may or self._engaged_flags(template, dists, i, k)[self._at[uid]]:
                continue        # (``_starts`` would say no: asked here first, for speed)
            if self._starter(template, dists, n):
                return True
        return False

    def quiet(self, answered: PhaseState, i: int, dists: Sequence[dict]) -> bool:
        """Whether the consolidation move under way in ``answered`` (``memo.move``, of a unit
        of part ``i``; the node's parts' inner states ``dists``) can be left unmade by the
        odds walk: no unit of the node can start a fight any more (``possible``, asked of
        the table as it stands, with every move still to come allowed for).  Then no fight
        follows, and nothing else reads where a unit ends its consolidation.  Asked before
        each move, so the moves are made while a fight can still follow, and left unmade
        once none can."""
        return not self.possible(answered, dists)

    def _stands(self, template: PhaseState, dists: Sequence[dict]) -> list[tuple]:
        """Every unit's stands on the node: (part or None, inner key or None, unit id,
        models as (x, y, bounding radius), selected, may consolidate), one per inner state of
        its part with a chance above 0 in which it is on the table."""
        bf, memo = template.battlefield, template.memo
        stands: list[tuple] = []
        for u in bf.units:
            if u.id not in self.in_parts:
                stands.append((None, None, u.id, models_of(u),
                               u.id in memo.selected,
                               u.id in memo.selected or u.id in memo.ever_eligible))
        for i, g in enumerate(self.groups):
            for k, (data, p) in dists[i].items():
                if not p:
                    continue
                units, sets, _ = data
                for uid, obj, flags in zip(g, units, sets):
                    if obj is not None:
                        stands.append((i, k, uid, models_of(obj), flags[_SELECTED],
                                       flags[_SELECTED] or flags[_EVER]))
        return stands

    def _starts(self, template: PhaseState, dists: Sequence[dict], stands: list[tuple],
                s: tuple) -> bool:
        """Whether stand ``s`` is a ``U`` with an ``X`` and an ``E`` among ``stands``."""
        i, k, uid, models, _, may = s
        if i is None or not may or self._is_engaged(template, dists, i, k, uid):
            return False
        r = template.battlefield.rules
        move = r.consolidate_distance
        reach_e = move + max(r.engagement_range, 0.0) + r.tol
        reach_x = CONSOLIDATION_MODE_RANGE + r.tol
        player = self._players
        # the enemy units move before ``U`` only when they are the active player's (12.07:
        # the player whose turn it is consolidates first)
        first = player[uid] != template.battlefield.active_player
        xs, es = [], []
        for j, k2, vid, others, selected, moves in stands:
            if player[vid] == player[uid] or (j == i and k2 != k):
                continue        # a friend, or the same engagement's other inner state
            slack = move if moves and first else 0.0
            gap = self._gap(models, others) - slack
            if gap <= reach_x:
                xs.append((others, slack))
            if not selected and gap <= reach_e:
                es.append((others, slack))
        if not xs or not es:
            return False
        key = (id(models), tuple((id(o), sl) for o, sl in xs), tuple((id(o), sl) for o, sl in es))
        got = self._reach.get(key)
        if got is None or got[0] is not models or any(a[0] is not b[0] for a, b in zip(got[1], xs)) \
                or any(a[0] is not b[0] for a, b in zip(got[2], es)):
            if len(self._reach) >= GAPS_KEPT:
                self._reach.clear()
            got = self._reach[key] = (models, xs, es, can_end_engaged(
                models, xs, es, move + r.tol, max(r.engagement_range, 0.0) + r.tol))
        return got[3]

    def _gap(self, a: Models, b: Models) -> float:
        """``unit_gap(a, b)``, worked out once per pair of (kept, frozen) model tuples: most
        inner states share their units with others."""
        k = (id(a), id(b))
        got = self._gaps.get(k)
        if got is None or got[0] is not a or got[1] is not b:
            if len(self._gaps) >= GAPS_KEPT:
                self._gaps.clear()
            got = self._gaps[k] = (a, b, unit_gap(a, b))
        return got[2]

    def _engaged_flags(self, template: PhaseState, dists: Sequence[dict], i: int,
                       k: Hashable) -> tuple[bool, ...]:
        """Whether each unit of part ``i`` is engaged in its inner state ``k`` (in the
        part's order; ``_is_engaged``)."""
        got = self._engaged.get((i, k))
        if got is None:
            self._is_engaged(template, dists, i, k, self.groups[i][0])
            got = self._engaged[(i, k)]
        return got

    def _is_engaged(self, template: PhaseState, dists: Sequence[dict], i: int, k: Hashable,
                    uid: str) -> bool:
        """Whether ``uid`` is engaged in part ``i``'s inner state ``k``, from the geometry of
        the template with that inner state spliced in (only its own engagement can be
        engaged with it)."""
        got = self._engaged.get((i, k))
        if got is None:
            st = self.split.splice(template, i, dists[i][k][0])
            geo = geometry(st.battlefield)
            got = self._engaged[(i, k)] = tuple(geo.unit_engaged(u) for u in self.groups[i])
        return got[self._at[uid]]
