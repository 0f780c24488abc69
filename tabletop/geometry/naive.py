"""All-pairs baselines for the snapshot's pair questions (no spatial index).

``exact_answers`` is the honest one the benchmark times: every pair measured on the
snapshot's own exact shapes (round bases analytic, numpy per model).  ``naive_answers``
is the older loop over footprint polygons, kept as an independent cross-check:

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

import numpy as np
import shapely

from tabletop.board.state import Battlefield
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.footprints import base_polygon, core_and_pad, shrunk


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
    contacts: list[tuple[str, str]] = []
    engaged: set[tuple[str, str]] = set()
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
                a, b = models[i].id, models[j].id
                contacts.append((a, b) if a <= b else (b, a))
            hit = tolmod.in_contact(g, tol) if rules.engages_by_contact else tolmod.within(
                g, rules.engagement_range, tol)
            if hit:
                ua, ub = unit_of[i], unit_of[j]
                engaged.add((ua, ub) if ua <= ub else (ub, ua))
    incoherent: dict[str, list[str]] = {}
    for k, m in enumerate(models):
        if size[unit_of[k]] < 2:
            continue
        need = 1 if rules.coherency_range is None else rules.coherency_needed(size[unit_of[k]])
        if near[k] < need or far[k]:
            incoherent.setdefault(unit_of[k], []).append(m.id)
    return NaiveAnswers(sorted(contacts), sorted(engaged), incoherent, count)


@dataclass
class ExactAnswers:
    """What ``exact_answers`` found: ``base_contacts`` and ``engaged_unit_pairs`` (sorted
    pairs of ids, each pair sorted), ``incoherent`` (unit id -> its model ids out of
    coherency, in order), ``objective_ranges`` (as ``Geometry.objective_ranges``) and
    ``pairs`` (model pairs measured)."""

    base_contacts: list[tuple[str, str]]
    engaged_unit_pairs: list[tuple[str, str]]
    incoherent: dict[str, list[str]]
    objective_ranges: dict[str, dict[str, list[str]]]
    pairs: int


def exact_answers(state: Battlefield) -> ExactAnswers:
    """The honest all-pairs baseline: every pair of models measured on the snapshot's own
    exact shapes, no spatial index.

    Round bases are centre and radius (the gap is the centre distance minus the radii,
    numpy over all later models at once, one model at a time); ovals and rectangles are
    the footprint polygons the snapshot uses, through ``shapely.distance`` (one call per
    model over its later models).  Then the snapshot's questions: enemy base contacts
    (gap at most the tolerance, overlaps left out: intersecting by more than it, or two
    polygons still intersecting once each is shrunk by half of it), engaged unit pairs,
    coherency (03.03, as ``Geometry.coherency`` decides it) and which models of each
    player stand within each objective's range (inches, edge to edge, with the
    tolerance).
    """
    models = list(state.models())
    n = len(models)
    rules, tol = state.rules, state.rules.tol
    eps = tolmod.EPS
    owner = {u.id: u.player for u in state.units}
    unit_of = [m.unit_id for m in models]
    units = {u: k for k, u in enumerate(dict.fromkeys(unit_of))}
    ucode = np.array([units[u] for u in unit_of], dtype=np.intp)
    players = {p: k for k, p in enumerate(dict.fromkeys(owner[u] for u in unit_of))}
    pcode = np.array([players[owner[u]] for u in unit_of], dtype=np.intp)
    xy = np.array([[m.x, m.y] for m in models], dtype=float).reshape(-1, 2)
    is_round = np.array([m.base.shape == "round" for m in models], dtype=bool)
    pads = np.zeros(n)
    cores = np.empty(n, dtype=object)
    for k, m in enumerate(models):
        cores[k], pads[k] = core_and_pad(m.base, m.x, m.y, m.facing_deg)
    size = np.bincount(ucode, minlength=len(units))[ucode] if n else ucode
    need = np.ones(n, dtype=np.intp)
    if rules.coherency_range is not None:
        need = np.where(size >= 7, rules.coherency_neighbours_7plus, rules.coherency_neighbours)
    coh_limit = (tol if rules.coherency_range is None else rules.coherency_range + tol) + eps
    eng_limit = (0.0 if rules.engages_by_contact else rules.engagement_range) + tol + eps
    near = np.zeros(n, dtype=np.intp)
    far = np.zeros(n, dtype=bool)
    contacts: list[tuple[str, str]] = []
    engaged: set[tuple[str, str]] = set()
    half = tol / 2.0
    for i in range(n - 1):
        j = np.arange(i + 1, n)
        g = np.empty(len(j))
        rr = is_round[j] & is_round[i]
        dx = xy[j[rr], 0] - xy[i, 0]
        dy = xy[j[rr], 1] - xy[i, 1]
        g[rr] = np.sqrt(dx * dx + dy * dy)
        if not rr.all():
            g[~rr] = shapely.distance(cores[i], cores[j[~rr]])
        g -= pads[i] + pads[j]
        same = ucode[j] == ucode[i]
        hit = same & (g <= coh_limit)
        near[i] += int(hit.sum())
        near[j[hit]] += 1
        if rules.coherency_range is not None and rules.coherency_spread is not None:
            out = same & (g > rules.coherency_spread + tol + eps)
            if out.any():
                far[i] = True
                far[j[out]] = True
        enemy = pcode[j] != pcode[i]
        for k in np.nonzero(enemy & (g <= eng_limit))[0].tolist():
            a, b = unit_of[i], unit_of[int(j[k])]
            engaged.add((a, b) if a <= b else (b, a))
        for k in np.nonzero(enemy & (g <= tol + eps))[0].tolist():
            jk = int(j[k])
            overlap = g[k] < -tol - eps or (
                g[k] <= 0 and pads[i] == 0 and pads[jk] == 0
                and shrunk(cores[i], half).intersects(shrunk(cores[jk], half)))
            if not overlap:
                a, b = models[i].id, models[jk].id
                contacts.append((a, b) if a <= b else (b, a))
    incoherent: dict[str, list[str]] = {}
    for k in np.nonzero((size >= 2) & ((near < need) | far))[0].tolist():
        incoherent.setdefault(unit_of[k], []).append(models[k].id)
    objectives: dict[str, dict[str, list[str]]] = {}
    for o in state.objectives:
        rng = state.objective_range(o)
        per: dict[str, list[str]] = {p.id: [] for p in state.players}
        if n:
            d = np.empty(n)
            dx, dy = xy[is_round, 0] - o.at[0], xy[is_round, 1] - o.at[1]
            d[is_round] = np.sqrt(dx * dx + dy * dy)
            if not is_round.all():
                d[~is_round] = shapely.distance(cores[~is_round], shapely.points(*o.at))
            d = np.maximum(0.0, d - pads - o.marker.radius)
            for k in np.nonzero(d <= rng + tol + eps)[0].tolist():
                per[owner[unit_of[k]]].append(models[k].id)
        objectives[o.id] = per
    return ExactAnswers(sorted(contacts), sorted(engaged), incoherent, objectives,
                        n * (n - 1) // 2)
