"""The naive all-pairs baseline for the snapshot's pair questions.

Every pair of models, one ``shapely.distance`` call on their two footprint
polygons (a Python loop, no spatial index), then the same questions the
snapshot answers: enemy base contacts, engaged unit pairs and coherency
(03.03: each model within ``coherency_range`` of enough others, and every
model within ``coherency_spread`` of every other).  Benchmarks time the
snapshot against it; tests cross-check the snapshot's answers with it.
Distances are inches, edge to edge; round bases are the footprints'
128-gons, so a gap can read up to 0.0002" wide of the exact circle gap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import shapely

from tabletop.board.state import Battlefield
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.footprints import base_polygon


@dataclass
class NaiveAnswers:
    """What the naive loop found over the pairs it was given.

    ``base_contacts`` and ``engaged_unit_pairs`` are sorted pairs of ids (each
    pair sorted); ``incoherent`` maps a unit id to its model ids out of
    coherency.  ``pairs`` counts the pairs measured.
    """

    base_contacts: list[tuple[str, str]] = field(default_factory=list)
    engaged_unit_pairs: list[tuple[str, str]] = field(default_factory=list)
    incoherent: dict[str, list[str]] = field(default_factory=dict)
    pairs: int = 0


def footprints(state: Battlefield) -> list:
    """Footprint polygons of every model, in ``state.models()`` order."""
    return [base_polygon(m.base, m.x, m.y, m.facing_deg) for m in state.models()]


def naive_answers(state: Battlefield, shapes: Sequence, pairs: Sequence[tuple[int, int]] | None = None
                  ) -> NaiveAnswers:
    """Measure ``pairs`` (index pairs into ``shapes``; every pair when None) one by one.

    The coherency answer is only complete when every pair is measured.
    """
    models = list(state.models())
    n = len(models)
    rules, tol = state.rules, state.rules.tol
    owner = {u.id: u.player for u in state.units}
    unit_of = [m.unit_id for m in models]
    player_of = [owner[u] for u in unit_of]
    size = {u.id: len(u.models) for u in state.units}
    near = [0] * n
    far = [False] * n
    contacts, engaged = [], set()
    if pairs is None:
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    count = 0
    for i, j in pairs:
        g = shapely.distance(shapes[i], shapes[j])
        count += 1
        if unit_of[i] == unit_of[j]:
            if rules.coherency_range is None:
                if tolmod.in_contact(g, tol):
                    near[i] += 1
                    near[j] += 1
            else:
                if tolmod.within(g, rules.coherency_range, tol):
                    near[i] += 1
                    near[j] += 1
                if rules.coherency_spread is not None and not tolmod.within(
                        g, rules.coherency_spread, tol):
                    far[i] = far[j] = True
        elif player_of[i] != player_of[j]:
            if tolmod.in_contact(g, tol):
                contacts.append(tuple(sorted((models[i].id, models[j].id))))
            hit = tolmod.in_contact(g, tol) if rules.engages_by_contact else tolmod.within(
                g, rules.engagement_range, tol)
            if hit:
                engaged.add(tuple(sorted((unit_of[i], unit_of[j]))))
    incoherent: dict[str, list[str]] = {}
    for k, m in enumerate(models):
        if size[unit_of[k]] < 2:
            continue
        need = 1 if rules.coherency_range is None else rules.coherency_needed(size[unit_of[k]])
        if near[k] < need or far[k]:
            incoherent.setdefault(unit_of[k], []).append(m.id)
    return NaiveAnswers(sorted(contacts), sorted(engaged), incoherent, count)
