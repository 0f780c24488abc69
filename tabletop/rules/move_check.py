"""Check a proposed pile-in or consolidation move (fight-phase.txt 12.03, 12.08).

Used by ``tabletop pile-in|consolidate MAP UNIT --check MOVED`` and by the
window's ``v`` / ``V`` keys: some positions for a unit's models (from a file
or dragged by hand) are judged as the unit's pile-in or consolidation move
from the state before it.

The move is set up exactly as the real one is: ``move_setup`` calls the
ruleset's own ``pile_in`` / ``consolidate`` hook (eligibility, 12.08 mode,
targets through ``Decisions``: scripted ``[[decisions]]`` or the named
defaults of ``fight_phase.moving``) and keeps the ``MoveSpec`` it built; the
solver's answer is thrown away.  ``check_move`` then hands the proposed
positions to ``geometry.moves.validate_move``, which lists every broken
clause per model with the numbers (``r/4 moved 3.41" > 3" (12.03)``).

Named default ``CHECK_PATHS``: a model whose path is not given moves in a
straight line from where it stands to its proposed centre (a map file holds
no paths; a drag in the window is a straight line).  A straight line that
clips a base is reported as such even when a path round it exists: give the
path (``--check`` on the JSON that ``pile-in --json`` prints) to have it
judged instead.

Inches, origin bottom-left, y up.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tabletop.board.state import Battlefield
from tabletop.errors import TabletopError
from tabletop.geometry import Geometry, snapshot
from tabletop.geometry.moves import MoveSpec, Violation, validate_move
from tabletop.rules.decisions import Decisions
from tabletop.rules.events import EventLog
from tabletop.rules.registry import find_ruleset

XY = tuple[float, float]

CHECK_PATHS = "straight line from start to end where no path is given"
#: the two moves that can be checked, by ruleset hook name
CHECK_KINDS = {"pile_in": "pile-in", "consolidate": "consolidation"}


@dataclass(frozen=True)
class MoveSetup:
    """What the real move would be, set up from the state before it.

    ``kind`` is "pile_in" or "consolidate"; ``mode`` "pile_in", "ongoing",
    "engaging", "objective" or "none"; ``spec`` the ``MoveSpec`` the rules
    built (None when the unit may not make the move: ``refusal`` says why).
    """

    unit: str
    kind: str
    mode: str
    rule: str
    targets: tuple[str, ...] = ()
    spec: MoveSpec | None = None
    refusal: str | None = None

    @property
    def eligible(self) -> bool:
        return self.refusal is None and self.spec is not None

    @property
    def max_distance(self) -> float | None:
        """The move's maximum distance in inches (None when not eligible)."""
        return self.spec.max_distance if self.spec is not None else None

    def describe(self) -> str:
        """``r pile-in (fight-phase.txt 12.03) toward e`` or ``r consolidation (engaging) ...``."""
        what = CHECK_KINDS[self.kind]
        if self.kind == "consolidate" and self.mode not in ("none", ""):
            what += f" ({self.mode})"
        toward = f" toward {', '.join(self.targets)}" if self.targets else ""
        return f"{self.unit} {what} ({self.rule}){toward}"


def ruleset_move(state: Battlefield, kind: str, command: str | None = None) -> Callable[..., Any]:
    """The map's ruleset hook ``kind`` ("pile_in" | "consolidate").

    Raises
    ------
    TabletopError
        An unknown move kind or ruleset, or a ruleset without that move
        (``command`` names it in the message; default the move's name).
    """
    if kind not in CHECK_KINDS:
        raise TabletopError(f"unknown move {kind!r}: use one of {', '.join(CHECK_KINDS)}")
    try:
        ruleset = find_ruleset(state.ruleset)
    except ValueError as exc:
        raise TabletopError(f"{state.path}: {exc}") from None
    hook = getattr(ruleset, kind, None)
    if hook is None:
        raise TabletopError(f"{state.path}: {command or CHECK_KINDS[kind]} is a fight-phase move; "
                            f"this map's ruleset is {state.ruleset!r}")
    return hook


def move_setup(state: Battlefield, unit_id: str, kind: str, decisions: Decisions | None = None,
               log: EventLog | None = None, fought: bool = False) -> MoveSetup:
    """Set up ``unit_id``'s pile-in (``kind="pile_in"``) or consolidation (``"consolidate"``)
    from ``state`` exactly as the ruleset's own move does (module docstring).

    ``fought`` is the consolidate hook's "was eligible to fight this phase"
    (``consolidate --fought``).  The hook only sets the move up
    (``solve=False``): the solver does not run.

    Raises
    ------
    TabletopError
        The map's ruleset is unknown or has no such move.
    UnknownIdError
        ``unit_id`` is not a unit of ``state``.
    """
    hook = ruleset_move(state, kind)
    log = log if log is not None else EventLog()
    decisions = decisions if decisions is not None else Decisions(state.decisions, log)
    extra = {"fought": fought} if kind == "consolidate" else {}
    outcome = hook(state, unit_id, decisions, log, solve=False, **extra)
    spec = outcome.spec
    refusal = outcome.refusal
    if refusal is None and spec is None:
        refusal = f"{unit_id}: the rules set up no {CHECK_KINDS[kind]} move"
    return MoveSetup(unit_id, kind, outcome.mode, outcome.rule, tuple(outcome.targets),
                     spec if refusal is None else None, refusal)


@dataclass
class MoveCheck:
    """The validator's verdict on proposed positions for a unit.

    ``start`` / ``end``: every model of the unit, before and as proposed
    (inches); ``paths``: the path judged for each moved model;
    ``violations``: every broken clause (empty for a legal move).
    """

    setup: MoveSetup
    start: dict[str, XY] = field(default_factory=dict)
    end: dict[str, XY] = field(default_factory=dict)
    paths: dict[str, list[XY]] = field(default_factory=dict)
    violations: list[Violation] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return self.setup.eligible and not self.violations

    @property
    def moved(self) -> list[str]:
        """Moved model ids, in unit order."""
        return [m for m in self.end if m in self.paths]

    @property
    def distances(self) -> dict[str, float]:
        """Length of each moved model's path, inches."""
        return {m: _length(p) for m, p in self.paths.items()}

    @property
    def offenders(self) -> list[str]:
        """Models named by a broken clause, in unit order."""
        named = {v.model for v in self.violations}
        return [m for m in self.end if m in named]

    def lines(self) -> list[str]:
        """One line per broken clause with its numbers and rule (or why no move is allowed)."""
        if not self.setup.eligible:
            return [f"{self.setup.unit}: not eligible: {self.setup.refusal}"]
        return [v.message for v in self.violations]

    def verdict(self) -> str:
        """``legal``, ``2 broken clauses`` or ``not eligible``."""
        if not self.setup.eligible:
            return "not eligible"
        n = len(self.violations)
        return "legal" if not n else f"{n} broken clause{'s' if n != 1 else ''}"

    def headline(self) -> str:
        """``r pile-in (fight-phase.txt 12.03) toward e: legal`` / ``...: 2 broken clauses``."""
        return f"{self.setup.describe()}: {self.verdict()}"

    def move_lines(self) -> list[str]:
        """``r/2: (22.00, 18.74) -> (21.00, 18.74) moved 1.00"`` for each moved model."""
        out = []
        for m, d in self.distances.items():
            (ax, ay), (bx, by) = self.start[m], self.end[m]
            out.append(f"{m}: ({ax:.2f}, {ay:.2f}) -> ({bx:.2f}, {by:.2f}) moved {d:.2f}\"")
        return out


def _xy(p: Sequence[float]) -> XY:
    """A point (inches) as a pair of floats."""
    x, y = p
    return (float(x), float(y))


def _length(path: Sequence[XY]) -> float:
    return sum(math.dist(path[k], path[k + 1]) for k in range(len(path) - 1))


def check_move(state: Battlefield, setup: MoveSetup, positions: Mapping[str, XY],
               paths: Mapping[str, Sequence[XY]] | None = None,
               geo: Geometry | None = None) -> MoveCheck:
    """Judge ``positions`` ({model id: (x, y)}, inches; models left out stay) as
    ``setup``'s move from ``state`` (the state before it, which ``setup`` was
    made from).  ``paths`` ({model id: [(x, y), ...]}) where known, else
    ``CHECK_PATHS``.  A model counts as moved when it ends more than
    ``rules.tol`` from its start or its given path is longer than that (as
    the validator counts it).

    Raises
    ------
    UnknownIdError
        A position or path names a model that is not in the unit.
    """
    unit = state.unit(setup.unit)
    start = {m.id: (float(m.x), float(m.y)) for m in unit.models}
    end = {m: _xy(positions.get(m, start[m])) for m in start}
    out = MoveCheck(setup, start, end)
    if not setup.eligible:
        return out
    assert setup.spec is not None   # an eligible move has its spec
    geo = geo if geo is not None else snapshot(state)
    given = dict(paths or {})
    out.violations = list(validate_move(state, geo, setup.spec, positions, given))
    tol = state.rules.tol
    for m in start:
        p = [_xy(q) for q in given[m]] if m in given else [start[m], end[m]]
        if math.dist(start[m], end[m]) > tol or (m in given and _length(p) > tol):
            out.paths[m] = p
    return out
