"""A lesson laid out as frames: the map's phase run once, each ``[[lesson]]`` entry tied to
the step it shows, and the animation steps between them (no pygame here).

``build_lesson(state)`` runs the map's phase with its ruleset, its own seed (``[map] seed``,
else ``LESSON_SEED``) and its ``[[decisions]]``, so a lesson replays exactly, then resolves
each entry's ``step`` (``board.lesson``) to a step of that run and checks its overlays and
ids.  Entries go forward through the phase: each shows the steps after the previous
entry's, up to its own (``LessonPage.span``).

**Animation steps.**  A page is drawn as a run of frames (``LessonPage.frames``):

- ``slide``: when a model's place differs between the table the previous page showed and
  this page's table, ``slide_frames`` frames (``MOVE_ANIMATION_FRAMES`` in the window) in
  which every moved model slides along its path: its pile-in and consolidation paths in
  the span, joined, or a straight line for any other move (a unit closing up, fleeing,
  models set aside), frame ``k`` of ``n`` drawing it ``k / n`` of the way along
  (``render.motion.point_along``), ``k = 0 .. n - 1``;
- ``still``: the page's table with nothing rolled yet shown;
- ``dice``: one frame per roll in the span, the ``j``-th adding the ``j``-th roll.

So a page has ``slide_frames * moved + 1 + rolls`` frames (``moved`` 1 when anything moved,
else 0; the first page never slides), and a lesson the sum over its pages: a GIF holds
exactly that many frames.

Coordinates are inches, origin bottom-left, y up.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tabletop.board.lesson import SETUP, LessonStep
from tabletop.board.state import Battlefield
from tabletop.errors import TabletopError
from tabletop.render.options import OVERLAYS
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import Dice
from tabletop.rules.events import EventLog, Step
from tabletop.rules.registry import find_ruleset

__all__ = ["LESSON_SEED", "Frame", "Lesson", "LessonError", "LessonPage", "build_lesson",
           "frame_count"]

LESSON_SEED = 1
"""Named default: the dice seed of a lesson map that names none in ``[map] seed``, so a lesson
always replays the same run (a teacher writes notes about rolls that must come again)."""

XY = tuple[float, float]


class LessonError(TabletopError):
    """A ``[[lesson]]`` entry that does not fit the map or its phase run."""


@dataclass(frozen=True)
class Frame:
    """One animation step: page ``page`` (0-based), ``kind`` ``"slide"`` (frame ``k`` of the
    page's slide), ``"still"`` (``k`` = 0) or ``"dice"`` (``k`` rolls shown, from 1)."""

    page: int
    kind: str
    k: int


@dataclass
class LessonPage:
    """One ``[[lesson]]`` entry tied to the phase run.

    ``step`` is the phase step shown (a ``rules.events.Step``; the setup table is a step of
    its own with no events), ``index`` its 1-based number in the run (0 for setup),
    ``span`` the steps since the previous page's (whose events and moves the page shows),
    ``moves`` ``{model id: path}`` of the models that moved in the span, ``rolls`` the roll
    events of the span in order.
    """

    entry: LessonStep
    step: Step
    index: int
    span: list[Step]
    moves: dict[str, list[XY]] = field(default_factory=dict)
    rolls: list[Any] = field(default_factory=list)

    def frames(self, slide_frames: int, first: bool = False) -> list[tuple[str, int]]:
        """``[(kind, k), ...]`` of this page (module docstring)."""
        out: list[tuple[str, int]] = []
        if self.moves and not first and slide_frames > 0:
            out += [("slide", k) for k in range(slide_frames)]
        out.append(("still", 0))
        out += [("dice", j) for j in range(1, len(self.rolls) + 1)]
        return out


@dataclass
class Lesson:
    """A lesson map ready to show: its pages, the run's log and the seed it used."""

    state: Battlefield
    pages: list[LessonPage]
    log: EventLog
    seed: int

    def timeline(self, slide_frames: int, pages: Sequence[int] | None = None) -> list[Frame]:
        """Every animation step of ``pages`` (0-based; all by default), in order."""
        chosen = range(len(self.pages)) if pages is None else pages
        out: list[Frame] = []
        for n, p in enumerate(chosen):
            out += [Frame(p, kind, k) for kind, k in self.pages[p].frames(slide_frames, first=n == 0)]
        return out


def frame_count(lesson: Lesson, slide_frames: int, pages: Sequence[int] | None = None) -> int:
    """How many animation steps (GIF frames) ``pages`` of ``lesson`` take: per page,
    ``slide_frames`` if a model moved (never on the first page shown), 1 still, 1 per roll."""
    return len(lesson.timeline(slide_frames, pages))


def run_phase(state: Battlefield, seed: int) -> EventLog:
    """The map's phase resolved by its ruleset with seeded dice and its ``[[decisions]]``.

    Raises
    ------
    LessonError
        The ruleset cannot resolve a phase.
    """
    try:
        ruleset = find_ruleset(state.ruleset)
    except ValueError as exc:
        raise LessonError(f"{state.path}: {exc}") from None
    if ruleset.fight is None:
        raise LessonError(f"{state.path}: ruleset {state.ruleset!r} cannot resolve a phase to teach")
    log = EventLog()
    ruleset.fight(state, Dice(seed, log), Decisions(state.decisions, log), log)
    return log


def _find_step(entry: LessonStep, steps: Sequence[Step], after: int, where: str) -> int:
    """The 1-based index of the step ``entry.step`` names (0 for setup), not before ``after``."""
    value = entry.step
    if isinstance(value, str) and value.strip().lower() == SETUP:
        found = 0
    elif isinstance(value, int):
        if value > len(steps):
            raise LessonError(f"{where}.step: step {value}, but the phase run has {len(steps)} "
                              f"steps (tabletop fight lists them)")
        found = value
    else:
        want = str(value).strip().lower()
        hits = [k for k, s in enumerate(steps, start=1) if k >= max(after, 1) and want in s.title.lower()]
        earlier = [k for k, s in enumerate(steps, start=1) if want in s.title.lower()]
        if not hits and earlier:
            found = earlier[-1]
        elif not hits:
            raise LessonError(f"{where}.step: no step of the phase run from step {max(after, 1)} on "
                              f"has {value!r} in its title (tabletop fight lists them)")
        else:
            found = hits[0]
    if found < after:
        raise LessonError(f"{where}.step: step {found} comes before step {after}, shown by the "
                          f"previous lesson step; lesson steps go forward through the phase")
    return found


def _check_entry(entry: LessonStep, state: Battlefield, where: str) -> list[str]:
    """Every problem of ``entry``'s overlays and ids on ``state``, one line each."""
    out: list[str] = []
    for i, name in enumerate(entry.overlays):
        if name.lower() != "all" and name.lower() not in OVERLAYS:
            out.append(f"{where}.overlays[{i}]: unknown overlay {name!r} (choose from "
                       f"{', '.join(OVERLAYS)}, all)")
    if entry.select is not None and not _has_model(state, entry.select):
        out.append(f"{where}.select: no model {entry.select!r} on the table")
    objectives = {o.id for o in state.objectives}
    for i, ident in enumerate(entry.focus):
        if not (_has_model(state, ident) or state.has_unit(ident) or ident in objectives):
            out.append(f"{where}.focus[{i}]: no model, unit or objective {ident!r} on the table")
    if entry.arcs is not None and not state.has_unit(entry.arcs):
        out.append(f"{where}.arcs: no unit {entry.arcs!r} on the table")
    elif entry.arcs is not None and state.ruleset != "rank-and-flank":
        out.append(f"{where}.arcs: charge arcs are drawn on rank-and-flank maps only")
    return out


def _has_model(state: Battlefield, mid: str) -> bool:
    try:
        state.model(mid)
    except KeyError:
        return False
    return True


def span_moves(before: Battlefield, span: Sequence[Step], log: EventLog) -> dict[str, list[XY]]:
    """``{model id: path}`` of every model on the table after ``span`` whose centre differs
    from ``before``: its pile-in and consolidation paths in the span, joined, ending where
    it stands; a straight line from where it stood for a model moved any other way."""
    if not span:
        return {}
    after = span[-1].state
    paths: dict[str, list[XY]] = {}
    for st in span:
        for k in st.events:
            ev = log.events[k]
            for mid, path in (getattr(ev, "moves", None) or {}).items():
                pts = [(float(p[0]), float(p[1])) for p in path]
                if pts:
                    paths.setdefault(mid, []).extend(pts)
    out: dict[str, list[XY]] = {}
    for u in after.units:
        for m in u.models:
            try:
                old = before.model(m.id)
            except KeyError:
                continue
            if math.dist((old.x, old.y), (m.x, m.y)) < 1e-6:
                continue
            path = paths.get(m.id) or []
            pts = [(old.x, old.y)] + [p for p in path if p != (old.x, old.y)]
            if math.dist(pts[-1], (m.x, m.y)) > 1e-6:
                pts.append((m.x, m.y))
            out[m.id] = pts
    return out


def build_lesson(state: Battlefield, seed: int | None = None, *, faults: Sequence[str] = (),
                 skip: Iterable[int] = ()) -> Lesson:
    """Run ``state``'s phase and tie each ``[[lesson]]`` entry to its step.

    Parameters
    ----------
    state : Battlefield
        A map with ``[[lesson]]`` entries (``board.lesson``).
    seed : int or None
        The dice seed; the map's ``[map] seed`` when None, else ``LESSON_SEED``.

    Raises
    ------
    LessonError
        No ``[[lesson]]`` entries; an entry naming no step of the run, going back through
        the phase, naming an unknown overlay or an id not on the table.  One located line
        per problem (``maps/x.toml: lesson[2].step: ...``), every entry checked: an entry
        whose step is unknown has its ids checked on the setup table and is skipped.
        ``faults`` (lines the map's load found in ``[[lesson]]`` entries) are raised with
        these, in entry order; the entries of ``skip`` (their step was one of the faults)
        have only their overlays and ids checked, on the setup table.
    """
    path = state.path or "<map>"
    if not state.lesson:
        raise LessonError(f"{path}: no [[lesson]] steps (a lesson map lists what each step shows "
                          f"and says; see the README's Lessons section)")
    seed = seed if seed is not None else (state.seed if state.seed is not None else LESSON_SEED)
    log = run_phase(state, seed)
    setup = Step("Setup: the table before the phase", "", state, range(0, 0), None, log)
    pages: list[LessonPage] = []
    problems: list[str] = []
    after = 0
    skipped = set(skip)
    for i, entry in enumerate(state.lesson):
        where = f"{path}: lesson[{i}]"
        if i in skipped:
            problems += _check_entry(entry, state, where)
            continue
        try:
            index = _find_step(entry, log.steps, after, where)
        except LessonError as exc:
            problems += exc.problems + _check_entry(entry, state, where)
            continue
        step = setup if index == 0 else log.steps[index - 1]
        found = _check_entry(entry, step.state, where)
        if found:
            problems += found
            after = index
            continue
        span = list(log.steps[after:index]) if pages else list(log.steps[:index])
        before = pages[-1].step.state if pages else state
        rolls = [log.events[k] for st in span for k in st.events if log.events[k].type == "roll"]
        pages.append(LessonPage(entry, step, index, span, span_moves(before, span, log), rolls))
        after = index
    if problems or faults:
        raise LessonError(_in_entry_order([*faults, *problems]))
    return Lesson(state, pages, log, seed)


def _in_entry_order(lines: Sequence[str]) -> list[str]:
    """Fault lines sorted by the ``lesson[N]`` they name (stable: a line naming none first)."""
    def key(line: str) -> int:
        m = re.search(r": lesson\[(\d+)\]", line)
        return int(m.group(1)) if m else -1
    return sorted(lines, key=key)
