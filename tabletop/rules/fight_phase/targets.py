"""Target selections a pile-in or consolidation move may make, searched so that the default
policy never makes a legal move impossible (fight-phase.txt 12.03, 12.08; docs/design.md "Conventions: Decisions").

12.03 BEFORE MOVING lets an unengaged unit select one or more of the enemy
units within 5"; 12.08's engaging mode one or more of the enemy units within
3"; its objective mode one of the objectives within 3".  A selection that
looks natural can still leave no legal move: the closest unit behind
impassable terrain, or two units pulling the models apart out of coherency.
When no ``[[decisions]]`` answer is scripted, ``search`` tries selections and
keeps the best legal one; a scripted choice is used as it is.

Named defaults (a player's choice the text leaves open):

``SELECTION_ORDER``
    The order selections are tried in.  First the ruleset's own default
    selection (``moving.PILE_IN_TARGETS``: every unit within 5";
    ``ENGAGING_TARGETS`` / ``OBJECTIVE_TARGET``: the closest), so a map
    where that default has a legal move keeps the move it always had.  Then
    nearest first: every single unit by its distance to the moving unit
    (edge to edge, inches; id on a tie), then pairs, then threes ...; within
    a size the selections holding nearer units come first (combinations of
    the nearest-first list).  Single units are also the cheap tries: the
    fewer units selected, the fewer clauses the move must meet (12.08
    engaging: engaged with *all* selected units).  Objective consolidation
    selects one objective, so only singles.
``TARGET_SELECTIONS_TRIED`` (``[rules] target_selections_tried``, 7 in every preset)
    At most this many selections are tried, in that order: each try is one
    run of the move solver (about 0.4 s for 20 models), so the bound keeps
    a crowded table from stalling the phase.  7 is every selection among
    three candidate units.
``SELECTION_SCORE``
    Of the legal moves, the one that leaves the most models of the moving
    unit engaged (with any enemy model) is kept, the earlier in the order on
    a tie.  The search stops as soon as a legal move engages every model of
    the unit: no selection can do better.  Objective consolidation engages
    no one, so there the first legal selection (the nearest objective with
    a legal move) is kept and the search stops.

Inches throughout.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tabletop.board.config import TARGET_SELECTIONS_TRIED
from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry

if TYPE_CHECKING:
    from tabletop.rules.fight_phase.moving import MoveOutcome

__all__ = ["SELECTION_ORDER", "SELECTION_SCORE", "TARGET_SELECTIONS_TRIED", "Search", "Tried",
           "as_value", "key", "search", "selection_order"]

SELECTION_ORDER = "the ruleset's default selection, then single units nearest first, then pairs, ..."
SELECTION_ORDER_SHORT = "the default first, then nearest first"
SELECTION_SCORE = "most models of the moving unit engaged; the earlier selection on a tie"

Selection = tuple[str, ...]


def key(selection: Iterable[str]) -> Selection:
    """A selection as the rules write it: one id, or several sorted by id."""
    return tuple(sorted(selection))


def as_value(selection: Sequence[str]) -> Any:
    """A selection as a ``[[decisions]]`` value: the id for one, a sorted list for several."""
    sel = key(selection)
    return sel[0] if len(sel) == 1 else list(sel)


def selection_order(geo: Geometry, unit_id: str, candidates: Sequence[str], first: Sequence[str],
                    max_size: int | None = None) -> Iterator[Selection]:
    """Every selection of ``candidates`` (unit or objective ids) in ``SELECTION_ORDER``,
    lazily (there are 2**n - 1 of them): ``first`` (the ruleset's default), then the
    others of 1, 2, ... ``max_size`` ids (default: all), nearest to ``unit_id`` first.

    Each selection is a tuple of ids sorted by id.  Raises ``UnknownIdError`` for an
    unknown id (from the geometry).
    """
    nearest = sorted(candidates, key=lambda c: (geo.distance(unit_id, c), c))
    head = key(first)
    yield head
    top = len(nearest) if max_size is None else min(max_size, len(nearest))
    for size in range(1, top + 1):
        for combo in itertools.combinations(nearest, size):
            sel = key(combo)
            if sel != head:
                yield sel


@dataclass(frozen=True)
class Tried:
    """One selection the search tried: ``legal`` move or not, ``engaged`` models of the
    moving unit engaged after it (0 when illegal), ``reason`` its first broken clause."""

    targets: Selection
    legal: bool
    engaged: int = 0
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: {targets: [ids], legal, engaged, reason}."""
        return {"targets": list(self.targets), "legal": self.legal, "engaged": self.engaged,
                "reason": self.reason}

    def line(self) -> str:
        """``b + c: no legal move (r/1 ends further from b (12.03))`` or ``b: legal, 2 models engaged``."""
        what = " + ".join(self.targets)
        if self.legal:
            return f"{what}: legal, {self.engaged} model{'s' if self.engaged != 1 else ''} engaged"
        return f"{what}: no legal move" + (f" ({self.reason})" if self.reason else "")


@dataclass
class Search:
    """What ``search`` found: every selection ``tried`` in order, the solved ``outcomes``
    by selection, and the ``best`` legal selection (None when none is legal)."""

    tried: list[Tried] = field(default_factory=list)
    outcomes: dict[Selection, MoveOutcome] = field(default_factory=dict)
    best: Selection | None = None

    @property
    def legal(self) -> list[Selection]:
        """The legal selections, in the order tried."""
        return [t.targets for t in self.tried if t.legal]


def _engaged_models(state: Battlefield, outcome: MoveOutcome) -> int:
    """Models of the moving unit engaged with an enemy model after ``outcome``'s move.  The
    table after it is derived from ``state``'s snapshot (``context.moved_geometry``: only the
    moved models measured again) and kept by placement, so the move's step reuses it."""
    from tabletop.rules.fight_phase.context import geometry, moved_geometry
    child = outcome.state_after(state)
    moved = set(outcome.plan.positions) if outcome.plan is not None else set()
    after = geometry(moved_geometry(state, child, moved))
    return sum(1 for m in after.unit_models(outcome.unit) if after.model_engaged(m))


def search(state: Battlefield, order: Iterable[Selection],
           solve: Callable[[Selection], MoveOutcome], limit: int | None = None,
           engaging: bool = True) -> Search:
    """Try selections from ``order`` (``selection_order``) with ``solve(selection) ->
    MoveOutcome`` (the solved and validated move), at most ``limit`` of them (default
    ``state.rules.target_selections_tried``), and keep the best legal one
    (``SELECTION_SCORE``; module docstring).  ``engaging=False`` (objective
    consolidation) keeps the first legal one.

    Raises ``ValueError`` when ``limit`` is below 1.
    """
    limit = state.rules.target_selections_tried if limit is None else limit
    if limit < 1:
        raise ValueError(f"target_selections_tried must be at least 1, got {limit}")
    out = Search()
    best_score = -1
    for sel in itertools.islice(order, limit):
        outcome = solve(sel)
        out.outcomes[sel] = outcome
        if not outcome.legal:
            lines = outcome.violation_lines()
            out.tried.append(Tried(sel, False, 0, lines[0] if lines else ""))
            continue
        engaged = _engaged_models(state, outcome)
        out.tried.append(Tried(sel, True, engaged))
        if engaged > best_score:
            out.best, best_score = sel, engaged
        if not engaging or engaged >= len(state.unit(outcome.unit).models):
            break
    return out

