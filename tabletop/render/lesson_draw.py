"""Drawing a lesson's frames: the board on the left, the side panel on the right.

A frame (``render.lesson_plan.Frame``) of a page is drawn as ``draw_lesson_frame``:

- the board: the page's phase step drawn as the teaching frames draw it
  (``render.steps.draw_step``: arrows, reach, casualties, ...) with the page's extra
  overlays, its ``select``ed model ringed and the models its ``focus`` names ringed in
  ``FOCUS_COLOUR``; every page shows the whole table (one steady view, so slides read well
  and nothing of the board is ever cropped);
  on a ``slide`` frame the moved models are drawn at their frame's poses
  (``render.lesson_slide.Slide``: along their paths, a rigidly turning unit turned as one
  body so no base passes through another) over the step's drawing without them;
- on every frame the labels (unit plates, status boxes, move lengths, the combat score) are
  placed by one placer on the table the frame shows (``render.lesson_labels``), clear of
  every base and of each other; a combat score with no free corner goes in the panel;
- on a ``still`` or ``dice`` frame of a pile-in or consolidation step whose ``select``ed
  model belongs to the moving unit, where that model may legally end, shaded
  (``render.legal_shade``; the region comes from the ``region_of`` the caller passes, as
  ``app.legal_drag.StepMoves`` works it out: render does not read the rules' moves itself);
- the panel: the page number, title, clause, the note, any check lines the caller gives
  (the lesson window's live drag check), and the dice rolled in the page's steps as they
  appear (on a ``dice`` frame, the first ``k``; the newest marked), and the frame's number
  in the lesson.

Coordinates are inches, origin bottom-left, y up; the ``View`` turns them into pixels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pygame

from tabletop.geometry import snapshot
from tabletop.geometry.footprints import base_polygon
from tabletop.geometry.legal_region import Region
from tabletop.render import prims
from tabletop.render import rank_and_flank as rnf
from tabletop.render.board import draw_base
from tabletop.render.framing import view_for_box
from tabletop.render.legal_shade import draw_legal_region
from tabletop.render.lesson_arcs import arc_keys
from tabletop.render.lesson_labels import (
    FrameLabels,
    draw_labels,
    draw_unlabelled,
    place_labels,
)
from tabletop.render.lesson_plan import Frame, Lesson, LessonPage
from tabletop.render.lesson_slide import Pose, Slide, follow_record
from tabletop.render.motion import MOVE_ANIMATION_FRAMES
from tabletop.render.options import resolve_overlays
from tabletop.render.step_draw import draw_of, with_keys
from tabletop.render.steps import DEFAULT_STEP_OVERLAYS
from tabletop.render.theme import DEFAULT_THEME, Theme, shade
from tabletop.rules.describe import describe

__all__ = ["LESSON_PANEL_FRACTION", "PAGE_SELECT", "LessonPainter", "RegionOf", "draw_lesson_frame"]

RegionOf = Callable[[LessonPage, str], "Region | None"]
"""``region_of(page, model_id)``: where the model may end the page step's pile-in or
consolidation (``geometry.legal_region.Region``), or None when the step moves no unit of it."""

PAGE_SELECT = "page"
"""``LessonPainter.draw``'s ``selected`` default: the page's own ``select``."""

CHECK_OK = (150, 230, 150)
CHECK_BAD = (255, 120, 110)

LESSON_PANEL_FRACTION = 0.32
"""Named default: share of the frame's width the side panel takes (title, clause, note, dice)."""

LESSON_NOTE_LINES = 9
"""Named default: the most lines a page's note wraps onto in the panel."""

PANEL_PAD = 14


LESSON_VIEW_MARGIN_PX = 36
"""Named default: pixels kept round the table in a lesson frame (the edge rulers' numbers)."""

FOCUS_COLOUR = "#ffd23c"
"""Ring colour of the models a page's ``focus`` names (``board.lesson``)."""


class LessonPainter:
    """Draws ``lesson``'s frames on surfaces of one size; keeps each page's view, step with
    its draw keys and snapshot, and each slide's background, so a frame is cheap to redraw.

    ``slide_frames`` is the slide length (``MOVE_ANIMATION_FRAMES``); ``total`` the frame
    count the footer shows (0: none shown); ``region_of`` (``RegionOf``) gives the legal
    region shaded round a selected model of a pile-in or consolidation step (None: no shade).
    """

    def __init__(self, lesson: Lesson, size: tuple[int, int], *, theme: Theme | None = None,
                 slide_frames: int = MOVE_ANIMATION_FRAMES, keys_hint: str = "",
                 region_of: RegionOf | None = None) -> None:
        self.lesson = lesson
        self.region_of = region_of
        self.size = (int(size[0]), int(size[1]))
        self.theme = theme or DEFAULT_THEME
        self.slide_frames = slide_frames
        self.keys_hint = keys_hint
        w, h = self.size
        self.panel_w = max(160, int(w * LESSON_PANEL_FRACTION))
        self.board_rect = pygame.Rect(0, 0, max(1, w - self.panel_w), h)
        self.panel_rect = pygame.Rect(self.board_rect.right, 0, self.panel_w, h)
        self._pages: dict[tuple[int, str | None], tuple[Any, Any, Any, frozenset[str]]] = {}
        self._slides: dict[int, Slide] = {}
        self._boards: dict[tuple[int, str | None], tuple[pygame.Surface, FrameLabels]] = {}
        self._backs: dict[int, tuple[pygame.Surface, Any]] = {}
        self.labels = FrameLabels()
        """The labels of the frame drawn last (``render.lesson_labels.FrameLabels``)."""

    # ------------------------------------------------------------ per page
    def _box(self, page: LessonPage) -> tuple[float, float, float, float]:
        """The table rectangle a page shows: the whole table, on every page, so a lesson never
        crops the board and a slide never leaves the picture."""
        t = self.lesson.state.table
        return (0.0, 0.0, t.width, t.depth)

    def _focus_rings(self, page: LessonPage) -> dict[str, str]:
        """``{model id: colour}``: the models of the units and models the page's ``focus``
        names, ringed in ``FOCUS_COLOUR`` (objectives it names are not ringed)."""
        st = page.step.state
        out: dict[str, str] = {}
        for ident in page.entry.focus:
            if st.has_unit(ident):
                out.update(dict.fromkeys((m.id for m in st.unit(ident).models), FOCUS_COLOUR))
            elif "/" in ident:
                out[ident] = FOCUS_COLOUR
        return out

    def page_parts(self, n: int, selected: str | None = PAGE_SELECT):
        """``(step with its draw keys, snapshot, view, overlays)`` of page ``n`` with
        ``selected`` ringed (default: the page's ``select``)."""
        page = self.lesson.pages[n]
        if selected == PAGE_SELECT:
            selected = page.entry.select
        key = (n, selected)
        if key not in self._pages:
            keys = _without_turn_ghosts(dict(draw_of(page.step)))
            rings = self._focus_rings(page)
            st = page.step.state
            square = {m: c for m, c in rings.items() if _square(st, m)}
            rings = {m: c for m, c in rings.items() if m not in square}
            if rings:          # the step's own rings win over the focus ring
                keys["highlight"] = {**rings, **(keys.get("highlight") or {})}
            if square:         # a square or oblong base: its own outline, not a ring
                keys["lesson_outline"] = {m: c for m, c in square.items()
                                          if m not in (keys.get("highlight") or {})}
            if page.entry.arcs:
                keys["lesson_arcs"] = arc_keys(st, snapshot(st), page.entry.arcs,
                                               page.entry.focus)
            if selected and _square(st, selected):
                # a square or oblong base is picked out by its own outline, not a ring
                keys["lesson_outline"] = {**(keys.get("lesson_outline") or {}),
                                          selected: self.theme.selected}
            elif selected:
                keys["selected"] = selected
            step = with_keys(replace(page.step), keys)
            same = next((v for k, v in self._pages.items() if k[0] == n), None)
            if same is not None:      # one view and snapshot per page, whoever is selected
                self._pages[key] = (step, same[1], same[2], same[3])
            else:
                view = view_for_box(self._box(page), self.board_rect.w, self.board_rect.h,
                                    LESSON_VIEW_MARGIN_PX)
                overlays = DEFAULT_STEP_OVERLAYS | resolve_overlays(page.entry.overlays)
                self._pages[key] = (step, snapshot(step.state), view, overlays)
        return self._pages[key]

    def slide(self, n: int) -> Slide:
        """Page ``n``'s slide (``render.lesson_slide.Slide``), planned once: from the table
        the previous page showed to page ``n``'s."""
        if n not in self._slides:
            page = self.lesson.pages[n]
            before = self.lesson.pages[n - 1].step.state if n else self.lesson.state
            self._slides[n] = Slide(before, page.step.state, page.moves, self.slide_frames)
        return self._slides[n]

    def region(self, n: int, selected: str | None = PAGE_SELECT) -> Region | None:
        """Where ``selected`` (default: page ``n``'s ``select``) may end page ``n``'s pile-in
        or consolidation, from ``region_of``; None when nothing is selected, no
        ``region_of`` was given, or the step moves no unit of that model."""
        if selected == PAGE_SELECT:
            selected = self.lesson.pages[n].entry.select
        if not selected or self.region_of is None:
            return None
        return self.region_of(self.lesson.pages[n], selected)

    # ------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, frame: Frame, number: int = 0, total: int = 0, *,
             selected: str | None = PAGE_SELECT, check: Sequence[str] = ()) -> None:
        """Draw ``frame`` on ``surface`` (of ``size``); ``number`` of ``total`` in the footer.
        ``selected`` is the model ringed and, on a still or dice frame, shaded where it may
        end the step's move (default: the page's ``select``); ``check`` lines (a drag's
        judgement, ``app.legal_drag.StepMoves.judge``) go in the panel under the note."""
        surface.fill(self.theme.background)
        board = surface.subsurface(self.board_rect)
        step, geo, view, overlays = self.page_parts(frame.page, selected)
        page = self.lesson.pages[frame.page]
        if frame.kind == "slide":
            still = _still_mates(step.state, page.moves)
            back = self._backs.get(frame.page)
            if back is None:
                # the step without the sliding models (the models of a unit that partly
                # slides are all drawn over it, so its plate counts every model), drawn once
                # with none of the labels the frame places (``render.lesson_labels``)
                # a sliding formation's outline and side markings are drawn each frame
                # where its models are (``follow_record``), not once where the step leaves it
                rest = step.state.without_models({**page.moves, **still})
                img = pygame.Surface(board.get_size())
                img.fill(self.theme.background)
                keys = dict(draw_of(step))
                sliding = _sliding_sides(keys, page.moves)
                if sliding:
                    keys["rnf_units"] = {u: r for u, r in keys["rnf_units"].items()
                                         if u not in sliding}
                canvas = draw_unlabelled(img, with_keys(replace(step, state=rest), keys), view,
                                         geo=snapshot(rest), theme=self.theme, overlays=overlays)
                back = self._backs[frame.page] = (img, canvas)
            board.blit(back[0], (0, 0))
            poses = {**still, **self.slide(frame.page).poses(frame.k)}
            draw_slide_bases(board, view, step.state, poses, self.theme)
            shown_table = step.state.with_models(step.state.model(mid).moved_to(x, y, f)
                                                 for mid, (x, y, f) in poses.items())
            keys = dict(draw_of(step))
            sliding = _sliding_sides(keys, page.moves)
            if sliding:
                ends = {m.id: (m.x, m.y, m.facing_deg) for m in step.state.models()}
                moved = {u: follow_record(rec, {m: e for m, e in ends.items()
                                                if m.rsplit("/", 1)[0] == u}, poses)
                         for u, rec in sliding.items()}
                rnf.draw_unit_sides(replace(back[1], surface=board), moved)
                keys["rnf_units"] = {**keys["rnf_units"], **moved}
            labels = place_labels(back[1], with_keys(replace(step), keys) if sliding else step,
                                  shown_table, view, self.theme)
            draw_labels(board, labels)
        else:
            key = (frame.page, self.lesson.pages[frame.page].entry.select
                   if selected == PAGE_SELECT else selected)
            kept = self._boards.get(key)
            if kept is None:
                drawn = pygame.Surface(board.get_size())
                drawn.fill(self.theme.background)
                canvas = draw_unlabelled(drawn, step, view, geo=geo, theme=self.theme,
                                         overlays=overlays)
                region = self.region(frame.page, key[1])
                if region is not None:
                    draw_legal_region(drawn, region, view)
                placed = place_labels(canvas, step, step.state, view, self.theme)
                draw_labels(drawn, placed)
                kept = self._boards[key] = (drawn, placed)
            board.blit(kept[0], (0, 0))
            labels = kept[1]
        self.labels = labels
        shown = frame.k if frame.kind == "dice" else 0
        self.draw_panel(surface, frame.page, shown, number, total, check=check,
                        boxes=labels.panel)

    def draw_panel(self, surface: pygame.Surface, n: int, rolls_shown: int, number: int = 0,
                   total: int = 0, check: Sequence[str] = (),
                   boxes: Sequence[tuple[list, list]] = ()) -> None:
        """The side panel of page ``n`` with its first ``rolls_shown`` rolls and ``check``
        lines (the first a headline ending ``: legal`` when the move is legal), and any
        ``boxes`` (``(lines, colours)``: a combat score with no free corner on the board)."""
        t = self.theme
        r = self.panel_rect
        pygame.draw.rect(surface, t.caption_plate[:3], r)
        pygame.draw.line(surface, shade(t.caption_text, 0.5), r.topleft, r.bottomleft, 2)
        page = self.lesson.pages[n]
        width = r.w - 2 * PANEL_PAD
        x, y = r.x + PANEL_PAD, r.y + PANEL_PAD
        where = "setup" if page.index == 0 else f"phase step {page.index} of {len(self.lesson.log.steps)}"
        y = prims.text(surface, prims.fit_text(f"Lesson step {n + 1} of {len(self.lesson.pages)}  ({where})",
                                                t.font_small, width), t.font_small,
                       shade(t.caption_text, 0.75), (x, y)).bottom + 6
        for line in prims.wrap_text(page.entry.title, t.font_caption, width, 3, indent=""):
            y = prims.text(surface, line, t.font_caption, t.caption_text, (x, y)).bottom + 2
        y = prims.text(surface, prims.fit_text(page.entry.clause, t.font_small, width), t.font_small,
                       t.caption_rule, (x, y + 2)).bottom + 10
        for line in prims.wrap_text(page.entry.text, t.font_caption_text, width, LESSON_NOTE_LINES,
                                    indent=""):
            y = prims.text(surface, line, t.font_caption_text, t.caption_text, (x, y)).bottom + 2
        y += 12
        if check:
            colour = CHECK_OK if check[0].endswith(": legal") else CHECK_BAD
            for entry in check:
                for part in prims.wrap_text(entry.strip(), t.font_small, width, 3):
                    y = prims.text(surface, part, t.font_small, colour, (x, y)).bottom + 3
            y += 10
        for lines, colours in boxes:
            for (text, size), colour in zip(lines, colours):
                for part in prims.wrap_text(text.strip(), size, width, 2):
                    y = prims.text(surface, part, size, _on_panel(colour), (x, y)).bottom + 2
            y += 10
        footer_h = 2 * (t.font_small + 6) + PANEL_PAD
        self._draw_dice(surface, page, rolls_shown, x, y, width, r.bottom - footer_h)
        fy = r.bottom - footer_h + 6
        if self.keys_hint:
            prims.text(surface, prims.fit_text(self.keys_hint, t.font_small, width), t.font_small,
                       shade(t.caption_text, 0.7), (x, fy))
        if total:
            prims.text(surface, f"frame {number} / {total}", t.font_small, shade(t.caption_text, 0.6),
                       (x, fy + t.font_small + 6))

    def draw_panel_badge(self, surface: pygame.Surface, text: str) -> None:
        """A small badge (``"playing"``) at the panel's top right."""
        t = self.theme
        img = prims.font(t.font_small).render(text, True, (20, 22, 26))
        rect = img.get_rect(topright=(self.panel_rect.right - PANEL_PAD, self.panel_rect.y + PANEL_PAD))
        pygame.draw.rect(surface, t.caption_rule, rect.inflate(10, 4), border_radius=4)
        surface.blit(img, rect)

    def _draw_dice(self, surface, page: LessonPage, shown: int, x: int, y: int, width: int,
                   bottom: int) -> None:
        t = self.theme
        if not page.rolls:
            return
        head = f"Dice: {shown} of {len(page.rolls)} rolls"
        y = prims.text(surface, head, t.font_small, t.caption_rule, (x, y)).bottom + 4
        lines: list[tuple[str, bool]] = []
        for j, ev in enumerate(page.rolls[:shown], start=1):
            text = describe(ev) or f"{ev.get('purpose')}: {ev.get('dice')}"
            for part in prims.wrap_text(text, t.font_small, width, 2):
                lines.append((part, j == shown))
        room = max(0, (bottom - y) // (t.font_small + 3))
        for text, newest in lines[-room:] if room else []:
            colour = (255, 236, 150) if newest else shade(t.caption_text, 0.85)
            y = prims.text(surface, text, t.font_small, colour, (x, y)).bottom + 3


def _square(state, mid: str) -> bool:
    """True when model ``mid`` stands on ``state`` on a base that is not round (square,
    oblong or oval: highlighted by its own outline, ``render.lesson_labels.draw_outlines``)."""
    unit = mid.rsplit("/", 1)[0]
    if not state.has_unit(unit):
        return False
    try:
        return state.unit(unit).model(mid).base.shape != "round"
    except KeyError:
        return False


def _on_panel(colour) -> tuple[int, int, int]:
    """A box's text colour (dark, for a light plate) made light enough for the dark panel."""
    r, g, b = colour[:3]
    if 0.299 * r + 0.587 * g + 0.114 * b >= 140:
        return (r, g, b)
    return (int(r + (255 - r) * 0.7), int(g + (255 - g) * 0.7), int(b + (255 - b) * 0.7))


def _sliding_sides(keys: dict, moves) -> dict:
    """``{unit id: its rnf_units record}`` of the formations drawn with sides in ``keys``
    that have a model sliding (``moves``)."""
    touched = {mid.rsplit("/", 1)[0] for mid in moves}
    return {u: rec for u, rec in (keys.get("rnf_units") or {}).items() if u in touched}


def _still_mates(state, moves) -> dict[str, Pose]:
    """``{model id: (x, y, facing_deg)}`` of the models that do not slide but belong to a unit
    one of whose models does (where they stand on ``state``, inches): drawn with the sliding
    ones, so the unit's plate follows it with its real model count."""
    touched = {mid.rsplit("/", 1)[0] for mid in moves}
    return {m.id: (m.x, m.y, m.facing_deg) for u in state.units if u.id in touched
            for m in u.models if m.id not in moves}


def draw_slide_bases(surface: pygame.Surface, view, state, poses: dict[str, Pose],
                     theme: Theme) -> None:
    """Each sliding model's base at its pose ``(x, y, facing_deg)`` (inches), in its player's
    colour."""
    colours = theme.player_colours(state)
    for mid, (x, y, f) in poses.items():
        m = state.model(mid).moved_to(x, y, f)
        col = colours.get(state.owner(mid), (128, 128, 128))
        draw_base(surface, view, base_polygon(m.base, x, y, f), m, col, theme)


def draw_lesson_frame(surface: pygame.Surface, lesson: Lesson, frame: Frame, *,
                      theme: Theme | None = None, slide_frames: int = MOVE_ANIMATION_FRAMES) -> None:
    """Draw one ``frame`` of ``lesson`` on the whole of ``surface`` (``LessonPainter.draw``)."""
    LessonPainter(lesson, surface.get_size(), theme=theme, slide_frames=slide_frames).draw(surface, frame)


def _without_turn_ghosts(keys: dict) -> dict:
    """``keys`` without the start ghosts of a unit that turns to face (``rnf_turn``,
    rank-and-flank-combat.txt "Fleeing": a unit held by one enemy on its flank or rear turns
    to face it).  Such a block turns about where it stood, so its start ghosts lie almost all
    under its own new bases and what shows is a stray file of faded bases beside it; where
    it stood and faced is drawn instead by the turn's grey old-facing arrow from its old
    centre, and the slide shows the turn itself."""
    turned = {rec.get("unit") for rec in keys.get("rnf_turn") or [] if rec.get("turned", True)}
    if not turned or not keys.get("ghosts"):
        return keys
    keys["ghosts"] = {m: g for m, g in keys["ghosts"].items()
                      if m.rsplit("/", 1)[0] not in turned}
    if not keys["ghosts"]:
        del keys["ghosts"]
    return keys
