"""Charge mode in the window: ``c`` plans a charge for the selected unit, ``C`` shades the
table by charge odds (issue 10 item 1; the planner is ``rules/charge_plan.py``).

``ChargeMode`` holds what the mode shows and works it out a counted piece per
frame (``update``; no thread, no clock):

- entering: the enemy units in reach (``reach_pieces``), each marked with its
  odds; a unit that may not declare a charge is told why (``rules.charge.refusal``)
  and the mode is not entered;
- hovering an enemy model: its unit's path, distance, roll needed and odds;
- clicking an enemy model declares its unit a target, again undeclares it;
  with several the farthest decides (``plan_pieces``); the landing is ghosted
  and the panel shows the plan and the chart of the fight that follows;
- the fight is sampled run by run (``rules.charge_fight.FightSampler``:
  ``FIGHT_RUNS_PER_FRAME`` a frame, up to ``PREVIEW_RUNS``), the chart redrawn as
  they come, labelled "sampled N runs" and its standard error (``tabletop charge``
  keeps the exact preview);
- ``C``: the chance that a charge ending at each point of a ``SHADE_STEP_IN`` grid
  is made (``rules.reach_odds.odds_field_pieces``: one distance field for the unit,
  the chance read per band), worked out in counted pieces between frames, with a
  "shading... N%" line in the panel meanwhile (``SHADE_PROGRESS_STEP``), then kept
  per unit and table (``shades``).  Esc, or selecting a model of another unit,
  cancels the shading while it is worked out (``cancel_shade``).  Once ready it is
  drawn under the bases and the unit name plates: the board is drawn whole with the
  shading as its ``under`` layer (``render.charge_shade.draw_shaded_board``, kept
  until the view, table or selection change), then the odds marks over it.

Each frame runs generator pieces until their counted work (leg tests, arena
vertices; ``PIECE_WORK`` a piece) reaches ``WORK_PER_FRAME``, about 30 ms on the
machine it was measured on; a single Shapely operation (one union of the grown
bases) is not split.  Window named defaults (not rules), module constants here.
Inches, origin bottom-left, y up.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pygame

from tabletop.app.plates import PlateCache
from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry
from tabletop.render import prims
from tabletop.render.charge_plan import draw_fight_chart, draw_plan, tag_placer
from tabletop.render.charge_plan import percent as _pct
from tabletop.render.charge_shade import (
    MARK_HALO,
    MARK_INK,
    draw_odds_marks,
    draw_shaded_board,
    shade_layer,
)
from tabletop.render.label_place import Placed
from tabletop.render.view import View
from tabletop.rules import charge as CH
from tabletop.rules.charge_fight import FightSampler
from tabletop.rules.charge_plan import (
    PREVIEW_RUNS,
    landed_state,
    plan_pieces,
    reach_pieces,
)
from tabletop.rules.reach_odds import odds_field_pieces

__all__ = ["ChargeMode", "WORK_PER_FRAME", "PIECE_WORK", "FIGHT_RUNS_PER_FRAME",
           "SHADE_STEP_IN", "SHADE_PROGRESS_STEP", "PLAN_SEED", "MARK_INK", "MARK_HALO"]

#: counted work a frame may do (leg tests and arena vertices; about 1 us each, so ~30 ms
#: with the pieces' own cost, measured on the 60x44 layout)
WORK_PER_FRAME = 20_000
#: a piece's own cost, counted as this much work (a piece is a few numpy calls)
PIECE_WORK = 150
#: seeded fight runs per frame (one is ~10 ms on the 60x44 layout's Stormboyz charge)
FIGHT_RUNS_PER_FRAME = 1
#: grid step of the odds shading, inches (as ``tabletop charge --shade``)
SHADE_STEP_IN = 0.5
#: the panel's "shading... N%" line moves in steps of this share (fewer re-laid text boxes)
SHADE_PROGRESS_STEP = 0.1
#: the seed of the plan (a rank-and-flank arc tie) and of the fight's first run
PLAN_SEED = 1

HOVER_COLOUR = (120, 220, 255)


class Job:
    """A generator of counted work (``yield work``) whose return value is kept."""

    def __init__(self, gen: Generator[int, None, Any]):
        self.gen = gen
        self.done = False
        self.value: Any = None

    def run(self, budget: int) -> int:
        """Run pieces until ``budget`` counted work is used or the job ends; returns the work."""
        used = 0
        while not self.done and used < budget:
            try:
                used += int(next(self.gen)) + PIECE_WORK
            except StopIteration as end:
                self.done, self.value = True, end.value
        return used


@dataclass
class Shade:
    """The odds grid of one unit on one table: ``probs`` is ``nan`` until the job is done,
    then the chances; ``progress["done"]`` the share of the work done (0 to 1)."""

    xs: np.ndarray
    ys: np.ndarray
    probs: np.ndarray
    job: Job
    progress: dict[str, float] = field(default_factory=dict)
    layer: tuple[Any, Any] | None = field(default=None)

    @property
    def shown_progress(self) -> int:
        """The share done as the panel shows it: a whole percent, in SHADE_PROGRESS_STEP steps."""
        step = SHADE_PROGRESS_STEP
        return int(round(100 * step * int(self.progress.get("done", 0.0) / step + 1e-9)))


class ChargeMode:
    """What charge mode shows for the window (``App.charge``); see the module docstring."""

    def __init__(self) -> None:
        self.unit: str | None = None
        self.state: Battlefield | None = None
        self.rows: list[dict[str, Any]] | None = None     # reach_list's rows once ready
        self.hover: str | None = None
        self.declared: list[str] = []
        self.plan: dict[str, Any] | None = None
        self.fight: FightSampler | None = None
        self.shade_on = False
        self.shades: dict[tuple[str, int], tuple[Battlefield, Shade]] = {}
        # the shaded board drawn: (view (scale, origin x, origin y), what else it shows, image)
        self._board: tuple[tuple, tuple, pygame.Surface] | None = None
        self.placed: list[Placed] = []      # the marks and tags the last frame drew
        self._plates = PlateCache()
        self._reach: Job | None = None
        self._plan: Job | None = None

    @property
    def active(self) -> bool:
        return self.unit is not None

    # ------------------------------------------------------------ entering and leaving
    def enter(self, state: Battlefield, geo: Geometry, unit_id: str) -> str:
        """Start planning a charge by ``unit_id``; returns what the panel should say (why
        not, for a unit that may not declare one)."""
        why = CH.refusal(state, geo, unit_id)
        if why is not None:
            return f"{unit_id} may not charge: {why}"
        self.unit, self.state = unit_id, state
        self.rows, self.hover, self.declared = None, None, []
        self.plan, self.fight, self._plan = None, None, None
        self._reach = Job(reach_pieces(state, unit_id, PLAN_SEED))
        return (f"charge mode: {unit_id}; hover an enemy unit for its odds, click to declare "
                f"(again: undeclare), C shades the table, c or Esc leaves")

    def leave(self) -> str:
        unit = self.unit
        self.unit = self.state = None
        self.rows, self.hover, self.declared = None, None, []
        self.plan, self.fight, self._plan, self._reach = None, None, None, None
        self._board = None
        return f"left charge mode ({unit})"

    def toggle_shade(self) -> str:
        """``C``: shade the table by the charge odds of the mode's unit, or stop."""
        self.shade_on = not self.shade_on
        if not self.shade_on:
            return "charge odds shading off"
        if self.unit is None:
            self.shade_on = False
            return "C shades charge odds in charge mode: select a unit, then c"
        self.shade()
        return (f"shading the table by the odds of a charge by {self.unit} ending there "
                f"({SHADE_STEP_IN:g}\" grid, worked out a piece a frame; Esc cancels)")

    @property
    def shading(self) -> bool:
        """Whether the shading is on and still being worked out."""
        sh = self.shade() if self.shade_on else None
        return sh is not None and not sh.job.done

    def cancel_shade(self) -> str:
        """Esc or a new selection while the shading is worked out: stop it and forget the
        part done (``C`` starts it afresh); returns what the panel says."""
        if self.unit is not None:
            self.shades.pop((self.unit, id(self.state)), None)
        self.shade_on = False
        return f"charge odds shading cancelled ({self.unit})"

    def selected(self, model_id: str | None) -> str | None:
        """The window selected ``model_id`` (or nothing): a model of another unit than the
        charging one cancels a shading being worked out (selecting nothing does not);
        returns the message, or None."""
        if model_id is None:
            return None
        if self.shading and model_id.rsplit("/", 1)[0] != self.unit:
            return self.cancel_shade()
        return None

    def shade(self) -> Shade | None:
        """The odds grid of the mode's unit on its table (made once, then kept)."""
        if self.unit is None or self.state is None:
            return None
        key = (self.unit, id(self.state))
        got = self.shades.get(key)
        if got is not None and got[0] is self.state:
            return got[1]
        t = self.state.table
        xs = np.arange(SHADE_STEP_IN / 2, t.width, SHADE_STEP_IN)
        ys = np.arange(SHADE_STEP_IN / 2, t.depth, SHADE_STEP_IN)
        probs = np.full((len(ys), len(xs)), np.nan)
        progress: dict[str, float] = {"done": 0.0}
        sh = Shade(xs, ys, probs, Job(self._shade_pieces(xs, ys, probs, progress)), progress)
        self.shades[key] = (self.state, sh)
        return sh

    def _shade_pieces(self, xs, ys, probs, progress):
        """The odds field of the mode's unit (``odds_field_pieces``), copied into ``probs``
        at its end."""
        got, _ = yield from odds_field_pieces(self.state, self.unit, xs, ys, progress)
        probs[:] = got

    def follow(self, state: Battlefield, geo: Geometry) -> str | None:
        """The table changed (a move, undo, reload): plan afresh for the same unit, or leave
        when it cannot charge any more; returns a message or None."""
        if self.unit is None or state is self.state:
            return None
        if not state.has_unit(self.unit):
            return self.leave()
        keep = [t for t in self.declared if state.has_unit(t)]
        said = self.enter(state, geo, self.unit)
        if self.unit is None:
            return said
        for t in keep:
            self.toggle(t)
        return None

    # ------------------------------------------------------------ mouse
    def enemy_of(self, model_id: str | None) -> str | None:
        """The unit of ``model_id`` when it is an enemy of the charging unit, else None."""
        if model_id is None or self.state is None or self.unit is None:
            return None
        unit = model_id.rsplit("/", 1)[0]
        if not self.state.has_unit(unit):
            return None
        return unit if self.state.unit(unit).player != self.state.unit(self.unit).player else None

    def hover_at(self, model_id: str | None) -> bool:
        """The mouse is over ``model_id`` (or nothing); returns whether the hover changed."""
        unit = self.enemy_of(model_id)
        changed = unit != self.hover
        self.hover = unit
        return changed

    def click(self, model_id: str | None) -> str | None:
        """A click in charge mode: on an enemy model, (un)declare its unit (returns the
        message); elsewhere None (the window does what a click does)."""
        unit = self.enemy_of(model_id)
        if unit is None:
            return None
        return self.toggle(unit)

    def toggle(self, unit: str) -> str:
        if unit in self.declared:
            self.declared.remove(unit)
            said = f"{unit} undeclared"
        else:
            self.declared.append(unit)
            said = f"{unit} declared a target of {self.unit}'s charge"
        self.plan, self.fight = None, None
        self._plan = (Job(plan_pieces(self.state, self.unit, list(self.declared), PLAN_SEED,
                                      fight=False)) if self.declared else None)
        return said

    # ------------------------------------------------------------ a frame's work
    def update(self, budget: int = WORK_PER_FRAME) -> bool:
        """Work a frame's counted pieces: the reach list, the plan, the shading, then
        ``FIGHT_RUNS_PER_FRAME`` runs of the fight; returns whether anything changed."""
        if self.unit is None:
            return False
        changed = False
        left = budget
        if self._reach is not None and not self._reach.done:
            left -= self._reach.run(left)
            if self._reach.done:
                self.rows = self._reach.value
                changed = True
        if left > 0 and self._plan is not None and not self._plan.done:
            left -= self._plan.run(left)
            if self._plan.done:
                self.plan = self._plan.value
                landed = landed_state(self.state, self.plan)
                self.fight = (FightSampler(landed, self.unit, list(self.declared), PLAN_SEED)
                              if landed is not None else None)
                changed = True
        if left > 0 and self.shade_on:
            sh = self.shade()
            if sh is not None and not sh.job.done:
                before = (sh.shown_progress, sh.job.done)
                left -= sh.job.run(left)
                changed |= (sh.shown_progress, sh.job.done) != before
        if self.fight is not None and not self.fight.failed and self.fight.runs < PREVIEW_RUNS:
            for _ in range(FIGHT_RUNS_PER_FRAME):
                self.fight.step()
            changed = True
        return changed

    @property
    def working(self) -> bool:
        """Whether pieces are left (the reach list, the plan, the shading or the fight)."""
        sh = self.shade() if self.shade_on else None
        return self.active and (
            (self._reach is not None and not self._reach.done)
            or (self._plan is not None and not self._plan.done)
            or (sh is not None and not sh.job.done)
            or (self.fight is not None and not self.fight.failed
                and self.fight.runs < PREVIEW_RUNS))

    # ------------------------------------------------------------ text
    def row_of(self, unit: str) -> dict[str, Any] | None:
        for r in self.rows or []:
            if r["id"] == unit:
                return r
        return None

    def describe(self, unit: str) -> str:
        """One target's figures: path distance, the roll needed and its exact odds."""
        if self.rows is None:
            return f"{unit}: working out the reach..."
        r = self.row_of(unit)
        if r is None:
            return f"{unit}: out of reach (no roll makes the charge)"
        return (f"{unit}: {r['distance']:.2f}\" along the path, needs {r['needed']}: "
                f"{_pct(r['probability'])} ({r['probability_fraction']})")

    def lines(self) -> list[str]:
        """The panel's text in charge mode."""
        out = [f"Charge: {self.unit}", "hover an enemy unit; click declares / undeclares; "
               "C shades odds; c or Esc leaves"]
        if self.rows is None:
            out.append("working out the enemy units in reach...")
        elif not self.rows:
            out.append("no enemy unit in reach")
        else:
            out.append("in reach: " + "; ".join(f"{r['id']} {_pct(r['probability'])}"
                                                for r in self.rows))
        if self.hover is not None:
            out.append("hover " + self.describe(self.hover))
        if self.declared:
            out.append("declared: " + ", ".join(self.declared))
            p = self.plan
            if p is None:
                out.append("planning...")
            elif not p.get("eligible", True):
                out.append(p["reason"])
            else:
                d = "no path" if p["distance"] is None else f"{p['distance']:.2f}\""
                if p.get("needed") is None or p.get("needs_text", "").startswith("cannot"):
                    out.append(f"{p['target']} (farthest) decides: {d}, {p.get('needs_text')}")
                else:
                    of = " to reach" if p.get("landing_problems") else ""
                    out.append(f"{p['target']} (farthest) decides: {d}, needs {p['needed']}: "
                               f"{_pct(p['probability'])} ({p['odds_fraction']}){of}")
                if p.get("landing_roll"):
                    out.append(f"landing ghosted for a roll of {p['landing_roll']['inches']:g}\"")
                for prob in p.get("landing_problems", []):
                    out.append(f"landing: {prob}")
        sh = self.shade() if self.shade_on else None
        if sh is not None:
            # (in SHADE_PROGRESS_STEP steps: the text box is laid out afresh at each change)
            out.append("odds shading: ready" if sh.job.done else
                       f"shading... {sh.shown_progress}% (Esc cancels)")
        return out

    # ------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, view: View, state: Battlefield, geo: Geometry, *,
             overlays=frozenset(), selected: str | None = None, theme=None,
             moving: bool = False, bounds: pygame.Rect | None = None) -> None:
        """Over the window's board on ``surface``: the board again with the shading under its
        bases and name plates (once ready; ``overlays``, ``selected`` and ``theme`` as the
        window draws its board), then the odds marks, the hovered path and the plan.
        ``moving``: the view is being panned or zoomed; the last shaded board is shifted and
        scaled to it (as the window does its own), and drawn afresh once it stops.
        Every mark and tag is placed with one shared ``LabelPlacer`` (``tag_placer``) clear
        of the bases and the board's name plates (``plates``), inside ``bounds`` (pixels;
        default the whole ``surface``, the window's board); they are kept in ``placed``."""
        if self.unit is None:
            return
        sh = self.shade() if self.shade_on else None
        if sh is not None and sh.job.done:
            self._draw_shaded(surface, view, state, geo, sh, frozenset(overlays), selected, theme,
                              moving)
        placer = tag_placer(surface, view, state, geo,
                            self.plates(surface, view, state, geo, frozenset(overlays), selected,
                                        theme), bounds or surface.get_rect())
        if self.plan is not None and self.declared:
            draw_plan(surface, view, state, self.plan, placer=placer)
        skip = self.declared if self.plan is not None else ()
        draw_odds_marks(surface, view, geo, self.rows or [], skip,   # (draw_plan labels those)
                        placer=placer)
        self.placed = list(placer.placed)
        if self.hover is not None and self.hover not in self.declared:
            r = self.row_of(self.hover)
            if r is not None and len(r.get("path", [])) > 1:
                prims.arrow(surface, [view.to_screen(*p) for p in r["path"]], HOVER_COLOUR, 3)

    def plates(self, surface, view: View, state: Battlefield, geo: Geometry, overlays,
               selected, theme) -> list[pygame.Rect]:
        """The unit name plates the window's board puts on ``surface`` (``plates.PlateCache``):
        the marks and tags keep clear of them."""
        return self._plates.plates(surface.get_size(), view, state, geo, overlays, selected,
                                   theme)

    def _draw_shaded(self, surface, view, state, geo, sh: Shade, overlays, selected, theme,
                     moving: bool) -> None:
        size = surface.get_size()
        at = (view.scale, view.origin_x, view.origin_y)
        same = (size, overlays, selected, theme, state, geo, sh)
        old = self._board
        kept = old is not None and old[1][:3] == same[:3] and all(
            a is b for a, b in zip(old[1][3:], same[3:]))
        if kept and old is not None and old[0] != at and moving:
            # (imported here: app imports this module)
            from tabletop.app.app import moved_image
            surface.blit(*moved_image(old[2], old[0], at, size))
            return
        if not kept or old is None or old[0] != at:
            key = (size, *at)
            if sh.layer is None or sh.layer[0] != key:
                sh.layer = (key, shade_layer(view, sh.xs, sh.ys, sh.probs, SHADE_STEP_IN))
            img = pygame.Surface(size)
            draw_shaded_board(img, state, geo, view, sh.layer[1], overlays=overlays,
                              selected=selected, theme=theme)
            old = self._board = (at, same, img)
        surface.blit(old[2], (0, 0))

    def draw_chart(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """The fight that follows, as a chart in ``rect`` (window pixels): the sampled runs
        so far (``draw_fight_chart``)."""
        if not self.declared:
            return
        if self.fight is None:
            draw_fight_chart(surface, rect, None, ["planning..." if self.plan is None
                                                   else "no landing: no fight to preview"],
                             compact=True)
            return
        draw_fight_chart(surface, rect, self.fight.summary(), compact=True)
