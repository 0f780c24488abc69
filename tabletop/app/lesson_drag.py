"""The lesson window's legal-region tool: select a model of a pile-in or consolidation step,
see where it may end, drag it to check a spot (issue 10 item 2).

fight-phase.txt 12.03 (pile-in) and 12.08 (consolidation).  While a lesson page shows a
step holding a unit's pile-in or consolidation, a selected model of that unit (the page's
``select``, or one clicked) gets its legal region shaded (``geometry.legal_region`` through
``app.legal_drag.StepMoves``, drawn by ``render.legal_shade``).  Dragging it judges the step's
move with the model at the cursor (``StepMoves.judge``: the validator names each broken
clause), shown in the side panel; releasing puts it back - the lesson's states belong to the
rules and never change.

Coordinates: table inches (origin bottom-left, y up); ``View`` maps board pixels to them.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.app.legal_drag import StepMoves
from tabletop.geometry import Geometry
from tabletop.geometry.legal_region import Region
from tabletop.geometry.probe import models_at
from tabletop.render.lesson_draw import RegionOf
from tabletop.render.lesson_plan import Lesson, LessonPage

__all__ = ["CLICK_SLOP_PX", "LessonDrag", "LessonPick", "lesson_regions"]

XY = tuple[float, float]

CLICK_SLOP_PX = 4
"""Named default: pixels off a base's edge a click still picks it (as ``tabletop view``)."""


def lesson_regions(lesson: Lesson, moves: StepMoves | None = None) -> RegionOf:
    """``region_of(page, model_id)`` for ``render.lesson_draw.LessonPainter``: where the
    model may end its unit's pile-in or consolidation in ``page``'s step (a ``Region``,
    inches), or None when that step moves no unit of the model."""
    moves = moves or StepMoves(lesson.log.events)

    def region_of(page: LessonPage, model_id: str) -> Region | None:
        if page.index == 0:
            return None          # the setup table is no step of the run
        return moves.region(page.step, model_id)
    return region_of


@dataclass
class LessonDrag:
    """A model being dragged: ``model_id``, where the step put it (``start``), the cursor's
    offset from its centre (``offset``) and where it is now (``at``), inches."""

    model_id: str
    start: XY
    offset: XY
    at: XY


class LessonPick:
    """Selection, drag and live check on the lesson's pages.

    ``selected(page)`` is the model chosen on that page (a click), else the page's
    ``select``; ``check`` the lines of the last judgement (``StepMoves.judge``: a headline
    ending ``: legal`` or naming how many clauses are broken, then one line per clause).
    """

    def __init__(self, lesson: Lesson):
        self.lesson = lesson
        self.moves = StepMoves(lesson.log.events)
        self.region_of = lesson_regions(lesson, self.moves)
        self._chosen: dict[int, str | None] = {}
        self.drag: LessonDrag | None = None
        self.check: list[str] = []
        self._check_page: int | None = None

    def selected(self, n: int) -> str | None:
        """The model selected on page ``n`` (0-based)."""
        return self._chosen.get(n, self.lesson.pages[n].entry.select)

    def check_of(self, n: int) -> list[str]:
        """The check lines, when they belong to page ``n``."""
        return self.check if self._check_page == n else []

    def region(self, n: int) -> Region | None:
        """The shaded region of page ``n``'s selected model, or None."""
        mid = self.selected(n)
        return self.region_of(self.lesson.pages[n], mid) if mid else None

    def press(self, n: int, geo: Geometry, at: XY, slop: float) -> None:
        """A left press at table point ``at`` on page ``n`` (``geo`` its table; ``slop``
        inches): a model is selected (a drag starts when its unit moves in the step);
        empty table clears the selection."""
        hits = models_at(geo, at[0], at[1], slop=slop)
        mid = hits[0] if hits else None
        self._chosen[n] = mid
        self.check, self._check_page = [], n
        page = self.lesson.pages[n]
        if mid is None or page.index == 0 or self.moves.move_of(page.step, mid) is None:
            self.drag = None
            return
        m = page.step.state.model(mid)
        self.drag = LessonDrag(mid, (m.x, m.y), (m.x - at[0], m.y - at[1]), (m.x, m.y))

    def move(self, n: int, at: XY) -> None:
        """The cursor at table point ``at`` while dragging: judge the move live."""
        d = self.drag
        if d is None:
            return
        d.at = (round(at[0] + d.offset[0], 3), round(at[1] + d.offset[1], 3))
        self.check = self.moves.judge(self.lesson.pages[n].step, d.model_id, d.at)
        self._check_page = n

    def release(self, n: int) -> None:
        """The button released: the model goes back; the last judgement stays, with a note."""
        d, self.drag = self.drag, None
        if d is not None and d.at != d.start:
            self.check = self.check + [f"{d.model_id} back where the step put it "
                                       f"(the lesson's states are not changed)"]
            self._check_page = n

    def bad(self) -> bool:
        """Whether the last judgement broke a clause."""
        return bool(self.check) and not self.check[0].endswith(": legal")
