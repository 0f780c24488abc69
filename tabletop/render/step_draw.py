"""What a teaching step shows, worked out from its typed events and its tables.

The rules emit facts only (``tabletop.rules.events``: typed events, and a
``Step`` with the table before and after it); they choose nothing about
drawing.  ``draw_of(step)`` turns those facts into the draw keys the drawers
of ``render.steps.DRAWERS`` understand (``arrows``, ``reach``, ``highlight``,
``casualties``, ``challenge``, ``rnf_units``, ...), through ``EVENT_DRAWS``,
the one explicit table from event class to the function that adds its keys,
then ``STEP_DRAWS``, the few rules that read a step as a whole (the Fight
phase's engaged-model rings, the casualties).  Colours and highlight
choices live here and in the drawers, nowhere in the rules.

Coordinates are inches, origin bottom-left, y up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry, snapshot
from tabletop.render import challenge_keys, rnf_keys
from tabletop.rules import events as E

__all__ = ["ENGAGED_COLOUR", "EVENT_DRAWS", "STEP_DRAWS", "StepFacts", "draw_of", "with_keys"]

ENGAGED_COLOUR = "amber"
"""Named default: the ring round every model within engagement range of an enemy model in a
Fight-phase frame."""


class StepFacts:
    """One step's facts for the functions of ``EVENT_DRAWS``: the step, its events, the
    table after it (``state``, ``geo``) and before it (``before``, ``before_geo``: the
    previous step's table, or the step's own for a log's first step), and every event up to
    the end of the step (``history``)."""

    def __init__(self, step: Any, geo: Geometry | None = None, before_geo: Geometry | None = None):
        self.step = step
        self.state: Battlefield = step.state
        self.before: Battlefield = getattr(step, "before", None) or step.state
        log = getattr(step, "log", None)
        self.log_steps: Sequence[Any] = log.steps if log is not None else ()
        everything: Sequence[Any] = log.events if log is not None else ()
        self.history = list(everything[:step.events.stop])
        self.events = [everything[i] for i in step.events if 0 <= i < len(everything)]
        self._geo: Geometry | None = geo
        self._before_geo: Geometry | None = before_geo

    @property
    def geo(self) -> Geometry:
        if self._geo is None:
            self._geo = snapshot(self.state)
        return self._geo

    @property
    def before_geo(self) -> Geometry:
        if self._before_geo is None:
            self._before_geo = self.geo if self.before is self.state else snapshot(self.before)
        return self._before_geo

    def last_seen(self, model_id: str) -> Any:
        """The model ``model_id`` as it last stood on the table at or before this step (a
        set-aside duellist: as it was set aside), or None."""
        tables = [self.state, self.before]
        k = next((i for i, st in enumerate(self.log_steps) if st is self.step), len(self.log_steps))
        for st in reversed(self.log_steps[:k]):
            tables += [st.state, st.before]
        for t in tables:
            if t is not None and _has(t, model_id):
                return t.model(model_id)
        return None

    def latest(self, cls: type, since: int = 0) -> Any:
        """The last event of class ``cls`` in the history from index ``since``, or None."""
        for e in reversed(self.history[since:]):
            if isinstance(e, cls):
                return e
        return None

    def position(self, any_id: str | None) -> tuple[float, float] | None:
        """Where a model or objective of the table after the step stands, or None."""
        if not any_id:
            return None
        try:
            return self.state.model(any_id).at
        except KeyError:
            pass
        try:
            return self.state.objective(any_id).at
        except KeyError:
            return None


Draw = dict[str, Any]
EventDraw = Callable[[Draw, Any, StepFacts], None]


def engaged_highlight(geo: Geometry) -> dict[str, str]:
    """Every model within engagement range of an enemy model: ``{model id: colour}``."""
    return {m: ENGAGED_COLOUR for m in sorted({m for pair in geo.engaged_model_pairs for m in pair})}


# ---------------------------------------------------------------- Fight phase
def _move(d: Draw, ev: Any, f: StepFacts) -> None:
    """A pile-in or consolidation: each path as an arrow, where the models that may move can
    reach (``max_distance`` round where they stood), the moved models' start ghosts, and a
    line from each moved model's end to the closest model (or objective) of its target."""
    paths = ev.moves
    d["selected_unit"] = ev.unit
    d["arrows"] = {m: [list(p) for p in path] for m, path in paths.items()}
    d["reach"] = {m: [s[0], s[1], ev.max_distance] for m, s in ev.starts.items()}
    d["ghosts"] = {m: list(ev.starts[m]) for m in paths if m in ev.starts}
    lines = []
    for m in paths:
        at = f.position(ev.closest.get(m))
        if at is not None:
            lines.append([list(paths[m][-1]), list(at)])
    d["lines"] = lines


def _no_move(d: Draw, ev: Any, f: StepFacts) -> None:
    if ev.searched:
        d["selected_unit"] = ev.unit


def _fought(d: Draw, ev: Any, f: StepFacts) -> None:
    """A unit's attacks: the unit, and the models engaged as they were made (the table
    before the step)."""
    d.setdefault("selected_unit", ev.unit)
    d.setdefault("highlight", engaged_highlight(f.before_geo))


FIGHT_PHASE_TYPES = (E.PileIn, E.Consolidate, E.AttacksResolved, E.NoAttacks)
"""Event classes that make a step a Fight-phase step: its engaged models are ringed."""

FIGHT_PHASE_STEPS = frozenset({"start", "pile_in", "fight", "consolidate", "end"})
"""The ``phase_step`` steps of fight-phase.txt 12.01-12.09 (not the challenge sub-phase's)."""


def _fight_phase_highlight(d: Draw, f: StepFacts) -> None:
    if any(isinstance(e, FIGHT_PHASE_TYPES) or (isinstance(e, E.NoMove) and e.searched)
           or (isinstance(e, E.PhaseStep) and e.step in FIGHT_PHASE_STEPS) for e in f.events):
        d.setdefault("highlight", engaged_highlight(f.geo))


def _casualties(d: Draw, f: StepFacts) -> None:
    """A cross where each model removed in the step stood (the table before it)."""
    gone: list[str] = []
    for e in f.events:
        if isinstance(e, E.Removed):
            gone.append(e.model)
        elif isinstance(e, E.Destroyed) and e.models:
            gone += [m for m in e.models if m not in gone]
    out = []
    for mid in gone:
        if _has(f.state, mid):
            continue
        try:
            m = f.before.model(mid)
        except KeyError:
            continue
        out.append([m.x, m.y, m.base.text, m.facing_deg])
    if out:
        d["casualties"] = out


def _has(state: Battlefield, mid: str) -> bool:
    try:
        state.model(mid)
    except KeyError:
        return False
    return True


EVENT_DRAWS: dict[type, EventDraw] = {
    E.PileIn: _move,
    E.Consolidate: _move,
    E.NoMove: _no_move,
    E.AttacksResolved: _fought,
    E.NoAttacks: _fought,
    **challenge_keys.EVENT_KEYS,
}
"""Event class -> ``fn(draw, event, facts)`` adding the keys that event shows."""

STEP_DRAWS: tuple[Callable[[Draw, StepFacts], None], ...] = (
    rnf_keys.step_keys, _fight_phase_highlight, _casualties)
"""Rules that read a step as a whole, after ``EVENT_DRAWS``, in order."""


def draw_of(step: Any, geo: Geometry | None = None, before_geo: Geometry | None = None) -> Draw:
    """The draw keys of ``step`` (a ``rules.events.Step``), worked out once and kept on it.

    ``{key: value}`` as ``render.steps.DRAWERS`` reads them; ``{}`` for a step with nothing
    to show.  ``geo`` / ``before_geo``: snapshots of ``step.state`` / ``step.before`` the
    caller has (the window derives one from the last step's), read instead of making them.
    """
    cached = getattr(step, "_draw_keys", None)
    if cached is not None:
        return cached
    f = StepFacts(step, geo, before_geo)
    d: Draw = {}
    for ev in f.events:
        fn = EVENT_DRAWS.get(type(ev))
        if fn is not None:
            fn(d, ev, f)
    for rule in STEP_DRAWS:
        rule(d, f)
    try:
        step._draw_keys = d
    except AttributeError:
        pass
    return d


def with_keys(step: Any, keys: dict[str, Any]) -> Any:
    """``step`` drawn with ``keys`` as given instead of the keys its events make (for the
    drawers' own tests, and tools that draw keys by hand); returns ``step``."""
    step._draw_keys = dict(keys)
    return step
