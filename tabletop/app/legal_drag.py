"""The step-through's legal region and live check (``tabletop view MAP --fight``).

When the shown step holds a unit's pile-in or consolidation (a ``pile_in`` /
``consolidate`` event, fight-phase.txt 12.03 / 12.08) and a model of that
unit is selected, ``StepMoves.region`` gives where that model may have ended
(``geometry.legal_region``: from its start, the rest of its unit where the
step put them - the named default ``legal_region.REGION_OTHERS``), which the
window shades (``render.legal_shade``).  Dragging the model judges the move
live: the step's move with the dragged model at the cursor, its path the
region's shortest clear path there (a straight line where none is within
reach), through ``geometry.validator``; each broken clause is named.  The
rules' states are never changed: on release the model goes back.

The lesson window can use the same object: ``StepMoves(events)``, then
``region(step, model_id)`` and ``judge(step, model_id, at)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tabletop.board.state import Battlefield
from tabletop.errors import TabletopError
from tabletop.geometry import snapshot
from tabletop.geometry.legal_region import Region, legal_region
from tabletop.geometry.moves import MoveSpec, validate_move
from tabletop.rules.events import Event, Step

XY = tuple[float, float]
MOVE_EVENTS = ("pile_in", "consolidate")
WHAT = {"pile_in": "pile-in", "consolidate": "consolidation"}


@dataclass(frozen=True)
class StepMove:
    """One unit's move in a step: its spec, where its models started, their paths."""

    spec: MoveSpec
    kind: str                      # "pile_in" | "consolidate"
    starts: dict[str, XY]
    paths: dict[str, list[XY]]
    after: Battlefield             # the step's state (every move made)

    @property
    def before(self) -> Battlefield:
        """The step's state with this unit's moved models back at their starts."""
        return self.after.with_positions(self.starts)

    def describe(self) -> str:
        mode = f" ({self.spec.kind})" if self.kind == "consolidate" else ""
        return f"{self.spec.unit} {WHAT[self.kind]}{mode} ({self.spec.rule})"


class StepMoves:
    """Finds a step's moves and keeps the last region worked out."""

    def __init__(self, events: Sequence[Event]):
        self.events = events
        self._region: tuple[tuple, Region | str] | None = None

    def move_of(self, step: Step, model_id: str) -> StepMove | None:
        """The pile-in or consolidation of ``model_id``'s unit in ``step``, or None."""
        unit = model_id.rsplit("/", 1)[0]
        evs = step.log.events if step.log is not None else self.events
        for i in step.events:
            if i >= len(evs):
                break
            ev = evs[i]
            if ev.type in MOVE_EVENTS and getattr(ev, "unit", None) == unit:
                kind = "pile_in" if ev.type == "pile_in" else ev.mode
                spec = MoveSpec(kind, unit, tuple(ev.targets), float(ev.max_distance), ev.rule)
                starts = {m: (float(v[0]), float(v[1])) for m, v in ev.starts.items()}
                paths = {m: [tuple(map(float, p)) for p in path] for m, path in ev.moves.items()}
                return StepMove(spec, ev.type, starts, paths, step.state)
        return None

    def region(self, step: Step, model_id: str) -> Region | None:
        """Where ``model_id`` may have ended its move in ``step`` (None: no such move,
        or the rules' move cannot be set up again)."""
        move = self.move_of(step, model_id)
        if move is None:
            return None
        key = (id(step), model_id)
        if self._region is None or self._region[0] != key:
            start = move.starts.get(model_id, step.state.model(model_id).at)
            state = step.state.with_positions({model_id: start})
            try:
                got: Region | str = legal_region(state, model_id, move.spec)
            except TabletopError as exc:
                got = "; ".join(exc.problems)
            self._region = (key, got)
        got = self._region[1]
        return got if isinstance(got, Region) else None

    def judge(self, step: Step, model_id: str, at: XY) -> list[str]:
        """The step's move with ``model_id`` ending at ``at`` (inches), judged by the
        validator: ``[headline, broken clause, ...]`` (just the headline when legal)."""
        move = self.move_of(step, model_id)
        if move is None:
            return []
        region = self.region(step, model_id)
        positions = {m: step.state.model(m).at for m in move.starts}
        positions[model_id] = at
        paths = {m: p for m, p in move.paths.items() if m != model_id}
        path = region.path_to(at) if region is not None else None
        start = move.starts.get(model_id, step.state.model(model_id).at)
        paths[model_id] = path if path is not None else [start, at]
        before = move.before
        try:
            found = validate_move(before, snapshot(before), move.spec, positions, paths)
        except TabletopError as exc:
            return [f"check: {move.describe()}: {'; '.join(exc.problems)}"]
        n = len(found)
        head = f"check: {model_id} to ({at[0]:.2f}, {at[1]:.2f}), {move.describe()}: " + (
            "legal" if not n else f"{n} broken clause{'s' if n != 1 else ''}")
        return [head] + [f"  {v.message}" for v in found]
