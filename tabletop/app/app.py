"""The window's logic, apart from the main loop so tests can post events to it.

``App(state, path, size, steps=None, events=None)`` takes pygame events in
``handle(event)`` and draws in ``draw(surface)``.  The board fills the left
of the window (its top-left corner is the window's, so board pixels are
window pixels); the pygame_gui panel fills the right.  Table coordinates
are inches, origin bottom-left, y up; ``self.view`` maps them to pixels.

Tools (see ``keys.BINDINGS`` for the full list; the key handler dispatches from it):

- a left click selects the model under the cursor and its unit;
- a left drag from empty table (or from a base that is not selected, or
  with shift held) is a ruler; an end on a base snaps edge to edge to it,
  so base to base it reads ``Geometry.distance`` exactly;
- a left drag from the selected model moves it; on release onto another
  base (``probe.overlaps_at``) it goes back to where it started;
- the right button drags the view, the wheel zooms about the cursor;
- ``v`` / ``V`` (shift) judge the selected unit's models, from where the map
  put them, as a pile-in / a consolidation (``move_checker.py``): the panel
  lists each broken clause, the board rings each offending model in red and
  draws each path; dragging a model of a unit that may pile in reads its
  distance from that start against the 3" (red past it).

The legend (``render.board.draw_legend``) is a strip under the board, ``l``
hides it.  Drawing is ``render.board.draw_board`` / ``draw_step``; this
module draws only the tools' feedback (ruler, move line, labels).

The state is never changed in place: a move makes a new ``Battlefield``
(``with_positions``) and a new snapshot; ``u`` goes back.  ``s`` writes a new
file next to the map (``mapfile.next_free_path``), never over one.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pygame
import pygame_gui

from tabletop.app import editor_input, keys, text
from tabletop.app.board_theme import board_theme
from tabletop.app.charge_mode import ChargeMode
from tabletop.app.editor import Editor
from tabletop.app.help_overlay import draw_help, layout_help
from tabletop.app.legal_drag import StepMoves
from tabletop.app.move_checker import MoveChecker
from tabletop.app.panel import Panel
from tabletop.app.rings import RingTool
from tabletop.app.step_build import STEP_WORK_PER_FRAME, Build
from tabletop.app.unsaved import Unsaved
from tabletop.board import mapfile
from tabletop.board.state import Battlefield
from tabletop.board.writes import OutputExistsError
from tabletop.errors import TabletopError
from tabletop.geometry import Geometry, snapshot
from tabletop.geometry.drawing_carry import moved_for_drawing
from tabletop.geometry.footprints import base_polygon
from tabletop.geometry.probe import closest_points, models_at, overlaps_at
from tabletop.render.board import OVERLAYS, draw_base, draw_board, draw_legend
from tabletop.render.editor import draw_editor
from tabletop.render.framing import frame_box, view_for_box
from tabletop.render.legal_shade import draw_legal_region
from tabletop.render.legend import legend_height, legend_key
from tabletop.render.motion import MOVE_ANIMATION_FRAMES, Motion
from tabletop.render.redraw import LABELS_PER_FRAME, PIXELS_PER_FRAME, Drawn, redraw_board
from tabletop.render.rings import draw_ring
from tabletop.render.step_draw import draw_of
from tabletop.render.steps import DEFAULT_STEP_OVERLAYS, step_pieces
from tabletop.render.theme import DEFAULT_THEME
from tabletop.render.theme import font as theme_font
from tabletop.render.view import View
from tabletop.rules.events import Event, Step
from tabletop.rules.map_checks import load_checked

# named defaults of the window
DEFAULT_SIZE = (1400, 900)      # pixels
MIN_SIZE = (800, 500)           # pixels; smaller resizes are clamped
PANEL_WIDTH = 400               # pixels of the right-hand panel
ZOOM_STEP = 1.15                # scale factor per wheel notch
PAN_STEP_PX = 40                # pixels per arrow key press
DRAG_THRESHOLD_PX = 4           # a press that moves less than this is a click
CLICK_SLOP_PX = 3               # a click this far outside a base still picks it
FIT_MARGIN_PX = 30              # margin around the table when fitting the view
POSITION_DECIMALS = 2           # a dropped model's centre is rounded to 0.01"
LABEL_FONT_PX = 22              # the ruler and drag labels
LEGEND_MAX_FRACTION = 0.3       # the legend strip takes at most this share of the window height
LEGEND_ONLY_WHOLE = True        # the window opens with the legend only when it fits whole in that
                                # share (a laptop's short window gives the board the room; l shows it)
MESSAGES_SHOWN = 6              # messages kept in the panel (newest first)
FOLLOW_STEPS = True             # step-through: each step is framed round its own action (z toggles)
SETTLE_S = 0.15                 # after the last wheel notch or arrow key, the board is redrawn in full;
                                # until then the last full image is shifted and scaled
PANEL_BOXES_PER_FRAME = 1       # changed panel text panes laid out afresh per frame (Panel.flush):
                                # a step or an answer changes several; one a frame keeps each
                                # frame's share small (a pane: a few ms, app.text_pane)
PANEL_WAITS_FOR_BOARD = True    # a frame whose map board is drawn again (a drop, a selection)
                                # rebuilds no panel box; the next frame does (never two in a row;
                                # the frames that place a drop's labels over time do not count)
DEFAULT_SAVE_NAME = "tabletop-map.toml"   # when the state has no file of its own
SAVE_NAME_TRIES = 100           # s: names tried when the free one is taken meanwhile
INPUT_EVENTS = (pygame.KEYDOWN, pygame.KEYUP, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP,
                pygame.MOUSEMOTION, pygame.MOUSEWHEEL, pygame.TEXTINPUT)
                                # the person at the window: not idle (the autosave's rewrite
                                # waits app.autosave_keep.IDLE_FRAMES frames without these)

PANEL_BG = (34, 36, 40)
RULER_COLOUR = (255, 214, 64)
DRAG_COLOUR = (120, 220, 255)
BAD_COLOUR = (235, 70, 60)
SELECT_COLOUR = (255, 240, 120)

XY = tuple[float, float]


@dataclass
class Press:
    """A left-button press not yet known to be a click, a ruler or a move."""

    pos: tuple[int, int]          # window pixels
    table: XY                     # inches
    hit: str | None               # model under the cursor
    shift: bool


@dataclass
class Ruler:
    """A measurement: ends are model ids or table points; ``a``/``b`` the drawn ends (inches)."""

    start: str | XY
    end: str | XY
    a: XY
    b: XY
    length: float
    active: bool = True

    def describe(self) -> str:
        def name(e):
            return e if isinstance(e, str) else f"({e[0]:.2f}, {e[1]:.2f})"
        how = "edge to edge" if isinstance(self.start, str) or isinstance(self.end, str) else "straight"
        return f"ruler: {text.inches(self.length)}  {name(self.start)} to {name(self.end)}, {how}"


@dataclass
class Drag:
    """A model being moved: its centre at the start, the grab offset, where it is now."""

    model_id: str
    start: XY
    offset: XY
    at: XY
    overlaps: list[str] = field(default_factory=list)
    origin: XY | None = None        # where the map put it, when its unit may pile in
    limit: float | None = None      # the pile-in maximum distance then, inches
    in_step: bool = False           # step-through: judged live as the step's move, never kept
    bad: bool = False               # ... and the validator names a broken clause

    @property
    def moved(self) -> float:
        """Straight-line distance of the centre from its start, inches."""
        return math.hypot(self.at[0] - self.start[0], self.at[1] - self.start[1])

    @property
    def from_origin(self) -> float:
        """Straight-line distance of the centre from where the map put it, inches."""
        o = self.origin if self.origin is not None else self.start
        return math.hypot(self.at[0] - o[0], self.at[1] - o[1])


class App:
    """The interactive board.

    Parameters
    ----------
    state : Battlefield
    path : str, optional
        The map file (``r`` reloads it; ``s`` saves next to it).  Defaults to
        ``state.path``.
    size : (int, int)
        Window size in pixels.
    steps : list of Step, optional
        Step-through mode: ``n``/``p`` move between steps, drawn with
        ``draw_step``; moving models is off (the states belong to the rules).
    events : list of Event or EventLog, optional
        The events the steps index into (for the rolls panel).
    play : tabletop.app.interactive.PlaySession, optional
        Play mode (``view --fight --play``): the session drives the phase on
        the rules engine a little each frame (no thread), its steps join the
        step-through as they come and the person answers its questions
        (``tabletop.app.play``).
    """

    def __init__(self, state: Battlefield, path: str | None = None,
                 size: tuple[int, int] = DEFAULT_SIZE, steps: Sequence[Step] | None = None,
                 events: Sequence[Event] | Any = None, play: Any = None,
                 edit: dict[str, Any] | None = None):
        pygame.font.init()
        self.state = state
        self.geo: Geometry = snapshot(state)
        self.path = path if path is not None else state.path
        self.steps: list[Step] = list(steps or [])
        self.step_index = 0
        self.events: list[Event] = list(getattr(events, "events", events) or [])
        self.session = play
        self.play = None            # the PlayController, made once the panel exists
        self.overlays: frozenset[str] = DEFAULT_STEP_OVERLAYS if self.step_mode else frozenset()
        self.selected: str | None = None
        self.ruler: Ruler | None = None
        self.drag: Drag | None = None
        self.press: Press | None = None
        self.pan_from: tuple[int, int] | None = None
        self.undo_stack: list[Battlefield] = []     # survives a reload (u goes back past it)
        self.unsaved = Unsaved(self.path, state)    # q / r / close ask first; the autosave
        self.checker = MoveChecker(state)   # v / V: moves since the map was (re)loaded
        self.step_moves = StepMoves(self.events)   # a step's pile-in: legal region, live check
        self.step_check: list[str] = []
        self.last_moved: str | None = None
        self.messages: list[str] = []
        self._message_kind: str | None = None     # the newest message's kind (``message``)
        self.saved: list[str] = []
        self.running = True
        self.help_shown = False
        self.help_page = 0
        self.rings = RingTool()             # g / G / b: range rings (app.rings)
        self.charge = ChargeMode()          # c / C: charge mode (app.charge_mode)
        self.editor = Editor(self, **(edit or {}))  # e: the table editor (app.editor)
        if edit is not None:                # tabletop edit: the window opens in it
            self.editor.toggle()
        self.editor.attach_unsaved(edit is not None)    # a blank table's autosave; where s writes
        self.mouse_pos: tuple[int, int] = (0, 0)
        self._cache: tuple[int, Battlefield, Geometry] | None = None
        self._board: tuple[Any, Geometry, pygame.Surface] | None = None
        self._drawn: Drawn | None = None    # what the map's board image shows (render.redraw)
        self._build: Build | None = None    # a step's picture being built over frames (app.step_build)
        self._last_img: pygame.Surface | None = None    # the step picture shown last
        self._panel_flushed = False     # this frame's update laid a panel box out: no step building
        self._legend: tuple[Any, Battlefield, pygame.Surface, tuple] | None = None
        self._info: tuple[Battlefield, Geometry, str, list[str]] | None = None  # model_lines kept
        self.settle_s = SETTLE_S
        self.follow = FOLLOW_STEPS and bool(self.steps)
        self.animate_frames = MOVE_ANIMATION_FRAMES   # 0: moves jump (render.motion)
        self.motion: Motion | None = None   # the shown step's moves sliding, while they do
        self._motion_index = self.step_index    # the step the motion was last worked out for
        self.catch_up = False           # play: steps came while a move slid; show the newest after
        self._settle_at = 0.0           # time.monotonic() when the view last stops moving
        self._panel_waited = False      # the last update left the panel for the board's redraw
        self._info_due = False          # the info box's text is to be worked out (``refresh``)
        self.size = (max(MIN_SIZE[0], size[0]), max(MIN_SIZE[1], size[1]))
        self.manager = pygame_gui.UIManager(self.size)
        self.manager.preload_fonts([{"name": "noto_sans", "point_size": 14, "style": "bold",
                                     "antialiased": "1"}])
        self.legend_shown = True
        self.legend_rect = pygame.Rect(0, 0, 0, 0)
        self.board_rect, self.panel_rect = self._rects(self.size)
        self.view = self.fitted_view()     # the legend's scale bar needs a scale first
        self._place_legend()
        if LEGEND_ONLY_WHOLE and self.legend_cut():
            self.legend_shown = False
            self._place_legend()
            self.messages.append("l: legend (hidden: the window is too short to show it whole)")
        self.view = self.fitted_view()
        actions = {"save": self.save, "reload": self.reload, "undo": self.undo,
                   "help": self.toggle_help, "fit": self.fit, "prev": lambda: self.go_step(-1),
                   "next": lambda: self.go_step(+1)}
        for name in OVERLAYS:
            actions[f"overlay:{name}"] = lambda n=name: self.toggle_overlay(n)
        self.panel = Panel(self.manager, self.panel_rect, OVERLAYS, actions, steps=self.step_mode)
        if play is not None:
            from tabletop.app.play import PlayController
            self.play = PlayController(self, play)
        offer = None if self.step_mode else self.unsaved.offer()
        if offer:
            self.messages.append(offer)
        self.refresh()

    # ------------------------------------------------------------ layout
    @staticmethod
    def _rects(size: tuple[int, int]) -> tuple[pygame.Rect, pygame.Rect]:
        w, h = size
        pw = min(PANEL_WIDTH, w // 2)
        return pygame.Rect(0, 0, w - pw, h), pygame.Rect(w - pw, 0, pw, h)

    def _place_legend(self) -> None:
        """Split the board column: the board above, the legend strip below (``l`` hides it).

        The strip is as tall as the legend needs with every overlay's key, at
        most ``LEGEND_MAX_FRACTION`` of the window, so toggling overlays never
        moves the board.
        """
        col = pygame.Rect(0, 0, self.panel_rect.x, self.size[1])
        if not self.legend_shown:
            self.board_rect, self.legend_rect = col, pygame.Rect(0, col.bottom, col.width, 0)
            return
        need = legend_height(self.state, self.view, col.width, overlays=OVERLAYS)
        h = min(need, int(col.height * LEGEND_MAX_FRACTION))
        self.board_rect = pygame.Rect(0, 0, col.width, col.height - h)
        self.legend_rect = pygame.Rect(0, col.height - h, col.width, h)

    def legend_cut(self) -> bool:
        """Whether the legend strip, as placed now, is too short for all of the legend."""
        if not self.legend_shown:
            return False
        need = legend_height(self.state, self.view, self.legend_rect.width, overlays=OVERLAYS)
        return need > self.legend_rect.height

    def toggle_legend(self) -> None:
        """``l``: show or hide the legend strip under the board."""
        self.legend_shown = not self.legend_shown
        self._place_legend()

    def fitted_view(self) -> View:
        t = self.state.table
        return View.fit(t.width, t.depth, self.board_rect.width, self.board_rect.height,
                        margin_px=FIT_MARGIN_PX)

    def fit(self) -> None:
        """Show the whole table (``f``); in the editor, with whatever lies off it."""
        box = self.editor.fit_box() if self.editor.active else None
        r = self.board_rect
        self.view = (view_for_box(box, r.width, r.height, FIT_MARGIN_PX) if box is not None
                     else self.fitted_view())

    def frame_step(self) -> None:
        """Show the part of the table the current step is about (``render.framing``, as
        the saved frames do): its moves, its fighting unit and their foes, its
        casualties; the whole table for a step about nothing in particular."""
        if not self.step_mode or not self.steps:
            return          # --play before its first step: nothing to frame yet
        step = self.steps[self.step_index]
        r = self.board_rect
        t = step.state.table
        aspect = max(1, r.width - 2 * FIT_MARGIN_PX) / max(1, r.height - 2 * FIT_MARGIN_PX)
        box = frame_box(step, self.shown_geo, t.width, t.depth, aspect)
        self.view = (view_for_box(box, r.width, r.height, FIT_MARGIN_PX) if box is not None
                     else self.fitted_view())

    def toggle_follow(self) -> None:
        """``z`` (step-through): frame each step round its action as it is shown, or not."""
        if not self.step_mode:
            self.message("z frames each step of a step-through (tabletop view MAP --fight)")
            return
        self.follow = not self.follow
        if self.follow:
            self.frame_step()
        self.message("each step framed round its action" if self.follow
                     else "the view stays where you put it (f: whole table)")

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size: the panel is rebuilt and the help laid out afresh; a
        view that showed the whole table is fitted to the new board, one zoomed or panned
        by hand keeps its scale."""
        fitted = self.view == self.fitted_view()
        self.size = (max(MIN_SIZE[0], int(size[0])), max(MIN_SIZE[1], int(size[1])))
        self.manager.set_window_resolution(self.size)
        self.board_rect, self.panel_rect = self._rects(self.size)
        self._place_legend()
        self.panel.layout(self.panel_rect)
        if self.play is not None:
            self.play.layout()
        if fitted:
            self.view = self.fitted_view()
        elif self.step_mode and self.follow and self.steps:
            self.frame_step()
        self.refresh(force=True)

    # ------------------------------------------------------------ what is shown
    @property
    def step_mode(self) -> bool:
        return bool(self.steps) or self.session is not None

    def shown(self) -> tuple[Battlefield, Geometry]:
        """The state on screen and its snapshot: the step's in step-through, else the map's.

        A model being dragged is drawn over the map at the cursor; the
        snapshot is only rebuilt when it is dropped.
        """
        if not self.steps:
            return self.state, self.geo
        if self._cache is None or self._cache[0] != self.step_index:
            st = self.steps[self.step_index].state
            prev = self._cache
            if prev is not None and prev[1].table == st.table and prev[1].rules == st.rules \
                    and prev[1].terrain == st.terrain:
                geo = prev[2].moved(st)     # steps move or remove a few models: derived
            else:
                geo = snapshot(st)
            self._cache = (self.step_index, st, geo)
        return self._cache[1], self._cache[2]

    @property
    def shown_state(self) -> Battlefield:
        return self.shown()[0]

    @property
    def shown_geo(self) -> Geometry:
        return self.shown()[1]

    def selected_unit(self) -> list[str]:
        """Model ids of the selected model's unit (empty when nothing is selected)."""
        if self.selected is None:
            return []
        return self.shown_geo.unit_models(self.selected.rsplit("/", 1)[0])

    # ------------------------------------------------------------ events
    def handle(self, event: pygame.event.Event) -> bool:
        """Take one pygame event; returns whether the window should stay open."""
        consumed = self.manager.process_events(event)
        if self.editor.drag is not None and event.type == pygame.MOUSEBUTTONUP:
            consumed = False    # a drag released over the panel still ends (editor_input)
        if self.editor.active and not consumed and editor_input.handle(self, event):
            return self.running
        t = event.type
        if t in INPUT_EVENTS:
            self.unsaved.input()        # not idle: the autosave's rewrite waits (app.autosave_keep)
            if self.play is not None:
                self.play.input()       # ... and the play autosave's
        if t == pygame.QUIT:
            self.quit()         # the close button: asks first when moves are unsaved
        elif t == pygame.VIDEORESIZE:
            self.resize(event.size)
        elif t == pygame.KEYDOWN and not consumed:
            self._key(event)
        elif t == pygame.MOUSEMOTION:
            self.mouse_pos = tuple(event.pos)
            self._motion(event.pos)
        elif t == pygame.MOUSEBUTTONDOWN:
            self.mouse_pos = tuple(event.pos)
            if not consumed and self.board_rect.collidepoint(event.pos):
                self._down(event)
        elif t == pygame.MOUSEBUTTONUP:
            self._up(event)
        elif t == pygame.MOUSEWHEEL and not consumed:
            pos = getattr(event, "pos", None) or self.mouse_pos
            notches = getattr(event, "precise_y", None) or event.y
            if self.panel.scroll(pos, notches):
                pass                    # a text pane of the panel scrolled
            elif self.board_rect.collidepoint(pos):
                self.zoom(pos, ZOOM_STEP ** notches)
        if not self.running:
            self.close()
        return self.running

    def terminate(self) -> None:
        """End the window now, asking nothing (SIGTERM: ``window.sigterm_caught``).  The
        work is kept as on the way out by ``q`` and ``y``: the board's moves in its autosave
        (written after every change, ``app.unsaved``), a ``--play`` run's answers in the play
        autosave (written now when the last answer is not in it yet,
        ``PlayController.flush_autosave``); the map itself is never written.  A question
        open (quit, reload, overwrite) is dropped with what it held."""
        self.unsaved.pending = None
        self.unsaved.prompt = None
        if self.play is not None:
            self.play.flush_autosave()
        self.running = False

    def close(self) -> None:
        """The window is closing: stop a play session and the autosave's rewrite (the
        autosave written last stays whole)."""
        self.unsaved.close()
        if self.play is not None:
            self.play.close()

    def _key(self, event) -> None:
        """A key: a ring distance being typed, then the open question (--play), take it
        first, else the action ``keys.BINDINGS`` binds it to."""
        if self.unsaved.pending is not None:
            taken, said = self.unsaved.answer(keys.key_name(event))
            if said:
                self.message(said)
            if taken:
                return
        if self.rings.typing:
            taken, said = self.rings.type_key(keys.key_name(event))
            if said:
                self.message(said, "ring")
            if taken:
                return
        if self.play is not None and self.play.key(event):
            return
        action = keys.action_for(event)
        if action is not None:
            self.key_actions()[action]()

    def key_actions(self) -> dict[str, Any]:
        """Every action a key of ``keys.BINDINGS`` may name, by name."""
        def pan(dx: int, dy: int):
            def go() -> None:
                self.view.pan(dx, dy)
                self._moved_view()
            return go
        return {
            "escape": self.escape, "quit": self.quit, "help": self.toggle_help,
            "cycle_overlays": self.cycle_overlays, "save": self.save, "reload": self.reload,
            "undo": self.undo, "next_step": lambda: self.go_step(+1),
            "prev_step": lambda: self.go_step(-1), "fit": self.fit,
            "toggle_legend": self.toggle_legend, "toggle_follow": self.toggle_follow,
            "check_pile_in": lambda: self.check_move("pile_in"),
            "check_consolidation": lambda: self.check_move("consolidate"),
            "pan_left": pan(PAN_STEP_PX, 0), "pan_right": pan(-PAN_STEP_PX, 0),
            "pan_up": pan(0, PAN_STEP_PX), "pan_down": pan(0, -PAN_STEP_PX),
            "ring_next": lambda: self.message(self.rings.next(self.shown_state, self.selected), "ring"),
            "ring_type": lambda: self.message(self.rings.start_typing(self.selected), "ring"),
            "ring_around": lambda: self.message(self.rings.toggle_around(self.selected), "ring"),
            "load_autosave": self.load_autosave, "edit": self.edit_key,
            "charge_mode": self.charge_key, "charge_shade": lambda: self.message(
                self.charge.toggle_shade()),
        }

    def edit_key(self) -> None:
        """``e``: the table editor (``app.editor``), or leave it."""
        if self.step_mode:
            self.message("e edits the map (tabletop view MAP or tabletop edit), not a step-through")
            return
        if self.charge.active:
            self.message(self.charge.leave())
        self.drag = self.press = self.ruler = None
        self.message(self.editor.toggle())

    def edit(self, state: Battlefield, said: str) -> str:
        """The editor changed the map to ``state``: the board before goes on the undo stack
        (``u``), the autosave follows; returns ``said`` for the panel."""
        self.undo_stack.append(self.state)
        self.set_state(state)
        self.changed()
        return said

    def charge_key(self) -> None:
        """``c``: charge mode for the selected unit (``app.charge_mode``), or leave it."""
        if self.charge.active:
            self.message(self.charge.leave())
        elif self.step_mode:
            self.message("c plans a charge on the map (tabletop view MAP), not in a step-through")
        elif self.selected is None:
            self.message("select a model of the unit to charge with, then c")
        else:
            self.message(self.charge.enter(self.state, self.geo, self.selected.rsplit("/", 1)[0]))

    def quit(self) -> None:
        """``q``, ``Esc`` or the close button: close, asking first (y/n in the panel) when
        the board holds moves not saved (``app.unsaved``)."""
        def go() -> None:
            self.running = False
        said = self.play.quit_question() if self.play is not None else None
        if said:                # --play: the person's answers not saved (app.play)
            self.message(self.unsaved.confirm("quit", said, go))
            self.play.ask_quit(said)    # over the board, in the question panel's place
            return
        self.ask("quit", go)

    def ask(self, what: str, action) -> None:
        """Run ``action`` now, or once ``y`` answers the question when moves are unsaved."""
        said = self.unsaved.guard(what, self.state, action)
        if said:
            self.message(said)

    def changed(self) -> None:
        """The board's state changed: the autosave follows it (``app.unsaved``)."""
        said = self.unsaved.changed(self.state)
        if said:
            self.message(said)

    def load_autosave(self) -> None:
        """``a``: put the autosave beside the map on the board (``u`` goes back)."""
        if self.step_mode:
            self.message("the autosave holds moves of the map, not of a step-through")
            return
        found = self.unsaved.found() or self.unsaved.autosave or ""
        try:
            state = self.unsaved.load_autosave()
        except TabletopError as exc:
            self.message("\n".join(exc.problems))
            return
        self.undo_stack.append(self.state)
        self.set_state(state)
        self.changed()
        self.message(f"loaded the autosave "
                     f"{os.path.basename(found) if found == self.unsaved.autosave else found}")

    def escape(self) -> None:
        """``Esc``: close the help, else cancel a drag, else quit."""
        if self.help_shown:
            self.toggle_help()
        elif self.drag is not None:
            self.message(f"{self.drag.model_id}: move cancelled")
            self.drag = self.press = None
            self.refresh()
        elif self.charge.shading:
            self.message(self.charge.cancel_shade())
        elif self.charge.active:
            self.message(self.charge.leave())
        else:
            self.quit()

    def _down(self, event) -> None:
        if event.button == 1:
            tx, ty = self.view.to_table(*event.pos)
            hits = models_at(self.shown_geo, tx, ty, slop=CLICK_SLOP_PX / self.view.scale)
            shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
            self.press = Press(tuple(event.pos), (tx, ty), hits[0] if hits else None, shift)
        elif event.button in (2, 3):
            self.pan_from = tuple(event.pos)

    def _motion(self, pos) -> None:
        if self.charge.active and self.board_rect.collidepoint(pos):
            tx, ty = self.view.to_table(*pos)
            hits = models_at(self.geo, tx, ty, slop=CLICK_SLOP_PX / self.view.scale)
            if self.charge.hover_at(hits[0] if hits else None):
                self.refresh()
        if self.pan_from is not None:
            self.view.pan(pos[0] - self.pan_from[0], pos[1] - self.pan_from[1])
            self.pan_from = tuple(pos)
        p = self.press
        if p is None:
            return
        if self.drag is None and (self.ruler is None or not self.ruler.active):
            if math.hypot(pos[0] - p.pos[0], pos[1] - p.pos[1]) < DRAG_THRESHOLD_PX:
                return
            self._start_tool(p)
        tx, ty = self.view.to_table(*pos)
        if self.drag is not None:
            self._drag_to(tx, ty)
        elif self.ruler is not None and self.ruler.active:
            self._ruler_to(tx, ty)

    def _start_tool(self, p: Press) -> None:
        if p.hit is not None and p.hit == self.selected and not p.shift:
            if self.step_mode and self.shown_region() is not None:
                m = self.shown_state.model(p.hit)
                self.drag = Drag(p.hit, (m.x, m.y), (m.x - p.table[0], m.y - p.table[1]), (m.x, m.y),
                                 in_step=True)
                self.ruler = None
                return
            if self.step_mode:
                self.message("step-through: the states belong to the rules; moving models is off "
                             "(ruler instead)")
            else:
                m = self.state.model(p.hit)
                self.drag = Drag(p.hit, (m.x, m.y), (m.x - p.table[0], m.y - p.table[1]), (m.x, m.y))
                lim = self.checker.pile_in_limit(self.state, p.hit, geo=self.geo)
                if lim is not None:
                    self.drag.origin, self.drag.limit = lim
                self.ruler = None
                return
        start = p.hit if p.hit is not None else p.table
        self.ruler = Ruler(start, p.table, p.table, p.table, 0.0)

    def _drag_to(self, tx: float, ty: float) -> None:
        d = self.drag
        x = round(tx + d.offset[0], POSITION_DECIMALS)
        y = round(ty + d.offset[1], POSITION_DECIMALS)
        d.at = (x, y)
        if d.in_step:
            self.step_check = self.step_moves.judge(self.steps[self.step_index], d.model_id, d.at)
            d.bad = bool(self.step_check) and not self.step_check[0].endswith(": legal")
            self.refresh()
            return
        d.overlaps = overlaps_at(self.state, d.model_id, x, y, geo=self.geo)
        self.refresh()

    def _ruler_to(self, tx: float, ty: float) -> None:
        r = self.ruler
        geo = self.shown_geo
        hits = [h for h in models_at(geo, tx, ty, slop=CLICK_SLOP_PX / self.view.scale)
                if h != r.start]
        r.end = hits[0] if hits else (tx, ty)
        r.a, r.b, r.length = closest_points(geo, r.start, r.end)
        self.refresh()

    def _up(self, event) -> None:
        if event.button in (2, 3):
            self.pan_from = None
            return
        if event.button != 1:
            return
        if self.drag is not None:
            self._drop()
        elif self.ruler is not None and self.ruler.active:
            self.ruler.active = False
        elif self.press is not None and self.charge.active and self.press.hit is not None \
                and (said := self.charge.click(self.press.hit)) is not None:
            self.message(said)
        elif self.press is not None and self.play is not None \
                and self.play.click_badge(self.press.pos):
            pass                        # the click on an option's number answered the question
        elif self.press is not None and not (self.play is not None and self.press.hit is not None
                                             and self.play.click(self.press.hit)):
            self.select(self.press.hit)
            if self.press.hit is None:
                self.ruler = None
        self.press = None
        self.refresh()

    def _drop(self) -> None:
        d, self.drag = self.drag, None
        if d.at == d.start:
            return
        if d.in_step:
            self.message("\n".join(self.step_check + [f"{d.model_id} back where the step put it "
                                                       f"(the rules' states are not changed)"]))
            return
        if d.overlaps:
            self.message(f"{d.model_id} not moved: its base would overlap {', '.join(d.overlaps)}; "
                         f"back at ({d.start[0]:.2f}, {d.start[1]:.2f})")
            return
        self.undo_stack.append(self.state)
        self.last_moved = d.model_id
        self.set_state(self.state.with_positions({d.model_id: d.at}), moved=(d.model_id,))
        self.changed()
        note = " (off the table)" if d.model_id in self.geo.off_table else ""
        self.message(f"moved {d.model_id} {text.inches(d.moved)} to ({d.at[0]:.2f}, {d.at[1]:.2f}){note}")

    # ------------------------------------------------------------ actions
    def zoom(self, pos, factor: float) -> None:
        """Zoom by ``factor`` keeping the table point under ``pos`` (pixels) fixed."""
        self.view.zoom_about(pos[0], pos[1], factor)
        self._moved_view()

    def _moved_view(self) -> None:
        """The wheel or a key moved the view: show the last board image moved until
        ``settle_s`` passes without another, then draw the board afresh."""
        self._settle_at = time.monotonic() + self.settle_s

    @property
    def view_moving(self) -> bool:
        """Whether the view is being dragged, wheeled or panned by keys right now."""
        return self.pan_from is not None or time.monotonic() < self._settle_at

    def select(self, model_id: str | None) -> None:
        """Select a model (and so its unit), or nothing."""
        self.selected = model_id
        if (said := self.charge.selected(model_id)) is not None:
            self.message(said)      # another unit: the charge odds shading is cancelled
        self.refresh()

    def set_state(self, state: Battlefield, moved: Sequence[str] | None = None) -> None:
        """Show ``state``; ``moved``: the only models that moved since the state shown (a
        drop), so its snapshot is derived from the last one (``Geometry.moved``: only the
        pairs touching them measured again, the other bases' and units' outlines carried
        over: ``geometry.drawing_carry``) instead of built afresh."""
        self.geo = moved_for_drawing(self.geo, state, moved) if moved is not None else snapshot(state)
        self.state = state
        self._cache = None
        self.checker.result = None      # a verdict on the positions before
        said = self.charge.follow(state, self.geo)
        if said:
            self.messages.append(said)
            self._message_kind = None
        if self.selected is not None and self.selected not in self.geo.ids:
            self.selected = None
        self.refresh()

    def undo(self) -> None:
        """Put back the state before the last move (``u``)."""
        if not self.undo_stack:
            self.message("nothing to undo")
            return
        self.set_state(self.undo_stack.pop())
        self.changed()
        self.message("undid the last move")

    def save(self) -> str | None:
        """Write the state shown to a new file beside the map (``s``); returns its path.

        In play mode the file is the run instead (``PlayController.save``): the map
        as read, the seed and every answer so far, which ``tabletop fight`` replays.
        """
        target = mapfile.next_free_path(self.path or DEFAULT_SAVE_NAME)
        if self.play is not None:
            done = self.play.save(target)
            if done is not None:
                self.saved.append(done)
            return done
        for _ in range(SAVE_NAME_TRIES):
            try:
                mapfile.save(self.shown_state, target, source=self.path)
                break
            except OutputExistsError:
                # taken since it was picked (a file or a link appeared): never written
                # through; the next free name
                target = mapfile.next_free_path(target)
            except (OSError, TabletopError) as exc:
                said = f"{target}: cannot write: {exc}"
                self.unsaved.save_failed(said)      # the quit question no longer offers s
                self.message(said)
                return None
        else:
            self.message(f"{target}: no free name to save to")
            return None
        self.saved.append(target)
        if not self.step_mode:
            self.unsaved.saved(self.state)
        what = f"step {self.step_index + 1} " if self.step_mode else ""
        self.message(f"saved {what}to {os.path.basename(target)} ({target})")
        return target

    def reload(self) -> None:
        """Load the map file again (``r``), asking first when moves are unsaved; a bad file
        leaves the state as it is.  The board before goes on the undo stack: ``u`` brings
        back what a reload replaced."""
        self.ask("reload", self._reload)

    def _reload(self) -> None:
        if not self.path:
            self.message("nothing to reload: this board has no map file")
            return
        try:
            # every check a command makes (rules.map_checks): a map edited to a profile the
            # rules cannot use is refused here, not when the phase runs
            state = load_checked(self.path)
        except TabletopError as exc:
            n = len(exc.problems)
            head = f"reload failed; the board is unchanged ({n} problem{'s' if n != 1 else ''}):"
            self.message("\n".join([head, *exc.problems]))
            return
        if not self.step_mode:
            self.undo_stack.append(self.state)
        self.unsaved.loaded(state)
        self.ruler = self.drag = self.press = None
        self.set_state(state)
        self.changed()
        self.checker.reset(state)
        self._place_legend()
        self.message(f"reloaded {os.path.basename(self.path)}")

    def toggle_help(self) -> None:
        """``h``: show the help over the window; again: its next page, or close it after the
        last (``help_overlay``: it is laid out afresh for the window's size each frame)."""
        if self.help_shown and self.help_page + 1 < self.help_layout().pages:
            self.help_page += 1
            return
        self.help_shown = not self.help_shown
        self.help_page = 0

    def help_layout(self):
        """The help overlay laid out for the window as it is now (``help_overlay.HelpLayout``)."""
        entries = editor_input.help_entries() if self.editor.active else keys.help_entries()
        return layout_help(entries, self.size, self.help_page)

    def toggle_overlay(self, name: str) -> None:
        self.overlays = self.overlays ^ {name}
        self.refresh()

    def cycle_overlays(self) -> None:
        """``o``: none, then each overlay alone, then all of them, then none again."""
        modes = [frozenset()] + [frozenset([o]) for o in OVERLAYS] + [frozenset(OVERLAYS)]
        k = modes.index(self.overlays) if self.overlays in modes else 0
        self.overlays = modes[(k + 1) % len(modes)]
        self.message("overlays: " + (", ".join(o for o in OVERLAYS if o in self.overlays) or "none"))

    def go_step(self, delta: int) -> None:
        """``n`` / ``p``: the next or previous step (step-through only)."""
        if not self.step_mode:
            self.message("no steps to go through (step-through comes from the rules commands)")
            return
        if not self.steps:
            self.message("no step yet: the first one is being resolved")
            return
        k = self.step_index + delta
        if not 0 <= k < len(self.steps):
            self.message("at the last step" if delta > 0 else "at the first step")
            return
        prev = self._cache
        self.step_index = k
        self.ruler = None
        self.catch_up = False
        self.sync_motion()
        if self.selected is not None and self.selected not in self.shown_geo.ids:
            self.selected = None
        step = self.steps[k]        # its keys read the window's snapshots, not new ones
        before = prev[2] if prev is not None and getattr(step, "before", None) is prev[1] else None
        draw_of(step, geo=self.shown_geo, before_geo=before)
        if self.follow:
            self.frame_step()
        self.refresh()

    # ------------------------------------------------------------ moves sliding
    @property
    def animating(self) -> bool:
        """Whether the shown step's moves are sliding along their paths now."""
        return self.motion is not None

    def sync_motion(self) -> None:
        """The shown step changed: going forward to a step with pile-in or consolidation
        moves starts them sliding (``render.motion``, ``animate_frames`` frames, frame 0
        drawn first); going back, or to a step without moves, shows it at once."""
        k = self.step_index
        if k == self._motion_index:
            return
        forward = k > self._motion_index
        self._motion_index = k
        self.motion = None
        if forward and self.steps and self.animate_frames > 0:
            self.motion = Motion.of(self.steps[k], self.animate_frames)

    def _advance_motion(self) -> None:
        """One frame of the slide on; at its end the step is drawn as usual and, in play,
        the view catches up with the steps that came meanwhile."""
        if self.motion is None or self._building_background():
            return          # (the slide waits for its background)
        self.motion.advance()
        if not self.motion.done:
            return
        self.motion = None
        if self.catch_up and self.steps:
            self.catch_up = False
            self.step_index = len(self.steps) - 1
            self.ruler = None
            if self.selected is not None and self.selected not in self.shown_geo.ids:
                self.selected = None
            self.refresh()

    def check_unit(self) -> str | None:
        """The unit ``v`` checks: the selected model's, else the last one moved."""
        model = self.selected or self.last_moved
        unit = model.rsplit("/", 1)[0] if model else None
        return unit if unit and self.state.has_unit(unit) else None

    def check_move(self, kind: str = "pile_in"):
        """``v`` (pile-in, 12.03) / ``V`` (consolidation, 12.08): judge the unit's positions
        now against where the map put them (``app.move_checker``); the panel lists each
        broken clause, the board rings each offending model and draws the paths.
        Returns the ``rules.move_check.MoveCheck`` (None when nothing was checked)."""
        if self.step_mode:
            self.message("v / V check moves made by hand on the map (tabletop view MAP), "
                         "not a step-through")
            return None
        unit = self.check_unit()
        if unit is None:
            self.message("select a model of the unit to check, then v (pile-in) or V "
                         "(consolidation)")
            return None
        try:
            result = self.checker.check(self.state, unit, kind)
        except TabletopError as exc:
            self.message("\n".join(exc.problems))
            return None
        self.message(self.checker.report(result))
        return result

    def drag_readout(self) -> tuple[str, bool] | None:
        """While a model of a unit that may pile in is dragged: (``3.50" / 3"``, past the
        limit?), measured straight from where the map put it (12.03); else None."""
        d = self.drag
        if d is None or d.limit is None:
            return None
        dist = d.from_origin
        return f'{text.inches(dist)} / {d.limit:g}"', dist > d.limit + self.state.rules.tol

    def message(self, entry: str, kind: str | None = None) -> None:
        """Add a message (lines joined by newlines); the panel shows the newest first.
        A message of ``kind`` (``"ring"``: the range-ring tool's) replaces the newest one
        when that is of the same kind, so a tool's running prompt (``G``, each typed digit,
        ``g`` cycling) stays one line instead of filling the box."""
        same = kind is not None and self.messages and self._message_kind == kind
        kept = self.messages[:-1] if same else self.messages
        self.messages = (kept + [entry])[-MESSAGES_SHOWN:]
        self._message_kind = kind
        self.refresh()

    def message_lines(self) -> list[str]:
        """The messages as panel lines, newest entry first."""
        return [line for entry in reversed(self.messages) for line in entry.split("\n")]

    # ------------------------------------------------------------ panel text
    def shown_region(self):
        """The selected model's legal region when the shown step is its unit's pile-in or
        consolidation (``app.legal_drag``), else None."""
        if not self.steps or self.selected is None or self.selected not in self.shown_geo.ids:
            return None
        return self.step_moves.region(self.steps[self.step_index], self.selected)

    def measure_text(self) -> str:
        if self.drag is not None and self.drag.in_step:
            return "\n".join(self.step_check) or f"moving {self.drag.model_id}"
        if self.drag is not None:
            d = self.drag
            s = f"moving {d.model_id}: {text.inches(d.moved)} from its start"
            ro = self.drag_readout()
            if ro is not None:
                s += f"; pile-in: {ro[0]} from where the map put it" + (
                    ", past the limit (12.03)" if ro[1] else "")
            return s + (f"; would overlap {', '.join(d.overlaps)}" if d.overlaps else "")
        if self.ruler is not None:
            return self.ruler.describe()
        return "left-drag on the table to measure"

    def info_lines(self) -> list[str]:
        if self.editor.active:
            return self.editor.lines()
        if self.charge.active:
            return self.charge.lines()
        state, geo = self.shown()
        if self.selected is None:
            return ["click a model to see it here"]
        kept = self._info
        if kept is not None and kept[0] is state and kept[1] is geo and kept[2] == self.selected:
            return kept[3]      # a frame refreshes the panel several times: worked out once
        lines = text.model_lines(state, geo, self.selected)
        self._info = (state, geo, self.selected, lines)
        return lines

    def refresh(self, force: bool = False) -> None:
        """Push the current texts to the panel (each box only rebuilds when it changed)."""
        if not hasattr(self, "panel"):
            return
        p = self.panel
        st = self.shown_state if self.step_mode else self.state
        p.set_text("title", st.name)
        fname = os.path.basename(self.path) if self.path else "(no file)"
        if self.saved:
            fname += f"  - saved {os.path.basename(self.saved[-1])}"
        p.set_text("file", fname)
        if self.drag is None:   # the info box follows the state, not every mouse motion
            if PANEL_WAITS_FOR_BOARD and self._board_pending():
                self._info_due = True   # worked out in the panel's turn (``update``): a drop's
            else:                       # or a selection's frame is the board's
                self._set_info()
        p.set_text("measure", self.measure_text().split("\n"))
        p.set_text("messages", self.message_lines() or ["h: help"])
        if self.step_mode:
            lines = text.step_lines(self.steps, self.step_index, self.events)
            label = f"step {min(self.step_index + 1, len(self.steps))} / {len(self.steps)}"
            if self.play is not None:
                lines = self.play.step_lines(lines)
                label += f" - {self.play.short_status()}"
            p.set_text("step", lines, bold_first=True)
            p.set_text("step_label", label)
        p.set_overlays(self.overlays, force=force)

    def _set_info(self) -> None:
        """The info box's text for the state and selection now."""
        self._info_due = False
        self.panel.set_text("info", self.info_lines(), bold_first=True)

    # ------------------------------------------------------------ drawing
    def update(self, dt: float) -> None:
        """Move a sliding move one frame on (``render.motion``: frames are counted, not
        timed), take a play session's news, rebuild at most ``PANEL_BOXES_PER_FRAME``
        changed text boxes of the panel, then advance the widgets by ``dt`` seconds."""
        self._advance_motion()
        # the autosave rewritten in the map's words once idle (another process; app.autosave_keep)
        self.unsaved.tick(busy=self.press is not None or self.drag is not None
                          or self.pan_from is not None or self.editor.drag is not None)
        if self.charge.update():
            self.refresh()
        if self.play is not None:
            self.play.poll()
        self.sync_motion()
        boxes = PANEL_BOXES_PER_FRAME
        if self.play is not None:
            boxes = self.play.panel_boxes(boxes)    # none in a frame that draws a new step
        self._panel_flushed = False
        if PANEL_WAITS_FOR_BOARD and self._board_pending() and (
                not self._panel_waited or self._labels_pending()):
            # the board's redraw has this frame to itself; a frame that only places a
            # drop's labels does not count as one the panel waited for (the change after
            # them, a new selection say, still has its own frame)
            self._panel_waited = not self._labels_pending()
        else:
            self._panel_waited = False
            if self._info_due and self.drag is None:
                self._set_info()
            self._panel_flushed = self.panel.flush(boxes) > 0
        self.manager.update(dt)

    def _board_pending(self) -> bool:
        """Whether this frame's ``draw`` draws the map's board again for a new table,
        snapshot or selection (a step-through's steps rebuild their boxes as before)."""
        if self.step_mode:
            return False
        if self._board is None or self._labels_pending():
            return True
        key, geo = self._board[0], self._board[1]
        return geo is not self.geo or key[5] != self.selected

    def _labels_pending(self) -> bool:
        """Whether the map's board still places labels over the next frames
        (``render.redraw.LABELS_PER_FRAME``) or redraws a big change aside
        (``render.redraw.PIXELS_PER_FRAME``); the panel waits for them."""
        return self._drawn is not None and (self._drawn.pending is not None
                                            or self._drawn.drawing is not None)

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the board, the tools and the panel onto ``surface`` (the window)."""
        surface.fill(PANEL_BG)
        state, geo = self.shown()
        rect = self.board_rect.clip(surface.get_rect())
        board = surface.subsurface(rect)
        img, offset = self._board_image(rect.size, state, geo)
        if offset != (0, 0) or img.get_size() != rect.size:
            board.fill(DEFAULT_THEME.background)
        board.blit(img, offset)
        self._draw_tools(board, geo)
        if self.play is not None:
            self.play.draw_over(board, geo)
        legend = self.legend_rect.clip(surface.get_rect())
        if legend.height > 0:
            surface.blit(self._legend_image(legend.size, state), legend.topleft)
        self.panel.draw(surface)        # the text panes, under any pygame_gui tool tip
        self.manager.draw_ui(surface)
        if self.charge.active:
            self.charge.draw_chart(surface, self.chart_rect())
        if self.help_shown:
            draw_help(surface, self.help_layout())

    def _board_image(self, size, state: Battlefield, geo: Geometry):
        """The board drawn by render and where to blit it.

        Kept until the state, view, overlays or selection change.  While the
        view moves (``view_moving``: the right button drags it, or the wheel or
        an arrow key moved it less than ``settle_s`` ago) the last full image is
        shifted and scaled to the new view instead, and the board is drawn
        afresh once it stops.
        """
        v = self.view
        self.sync_motion()
        key = (size, v.scale, v.origin_x, v.origin_y, self.overlays, self.selected,
               self.step_index if self.step_mode else None)
        if self.motion is not None:
            # the step drawn once without its moved models (built over frames, the slide
            # waiting for it), and them over it where they are now; the step's own picture
            # is built once the slide ends, its last frame shown meanwhile (app.step_build)
            bg = self._motion_background(size, v)
            if bg is None:
                return self._last_image(size), (0, 0)
            img = bg.copy()
            self.motion.draw(img, v)
            self._last_img = img
            return img, (0, 0)
        if self._board is not None and self._board[1] is geo:
            old = self._board[0]
            if old == key and not self._labels_pending():
                return self._board[2], (0, 0)
            if self.view_moving and old[0] == key[0] and old[4:] == key[4:]:
                return moved_image(self._board[2], old[1:4], (v.scale, v.origin_x, v.origin_y), size)
        if not (self.step_mode and self.steps):
            # the map's board at the same view: only what changed (a drop, a selection) is drawn
            # again on the last image (render.redraw); a new view draws a new image whole
            old = self._board[2] if self._board is not None else None
            same = old is not None and self._board[0][:5] == key[:5] and self._drawn is not None
            img = old if same else pygame.Surface(size)
            self._drawn = redraw_board(img, self._drawn if same else None, state, geo, v,
                                       overlays=self.overlays, selected=self.selected,
                                       theme=board_theme(size), work=LABELS_PER_FRAME,
                                       pixels=PIXELS_PER_FRAME)
            self._board = (key, geo, img)
            return img, (0, 0)
        self._drawn = None
        if self.step_mode and self.steps:
            # built over frames (app.step_build); the last picture stays until it is done
            img = self._step_picture(size, key, geo, self._step_work())
            if img is None:
                return self._last_image(size), (0, 0)
            self._last_img = img
            return img, (0, 0)
        img = pygame.Surface(size)
        draw_board(img, state, geo, v, overlays=self.overlays, selected=self.selected,
                   theme=board_theme(size))
        self._board = (key, geo, img)
        return img, (0, 0)

    def _step_picture(self, size, key, geo: Geometry, budget: int | None) -> pygame.Surface | None:
        """The shown step's picture for ``key``, built up to ``budget`` work this frame
        (``render.steps.step_pieces``, None: whole); None until it is done."""
        b = self._build
        if b is None or b.key != key:
            img = pygame.Surface(size)
            # the panel shows the step's title, clause and rolls: no caption plate on the board
            b = self._build = Build(key, img, step_pieces(
                img, self.steps[self.step_index], self.view, geo=geo, events=self.events,
                overlays=self.overlays, caption=False, theme=board_theme(size)))
        if not b.run(budget):
            return None
        self._build = None
        img = b.surface
        region = self.shown_region()
        if region is not None:
            draw_legal_region(img, region, self.view)
        if self.selected is not None and self.selected in geo.ids:
            self._outline(img, geo, self.selected, SELECT_COLOUR)
        self._board = (key, geo, img)
        return img

    def _motion_background(self, size, v: View) -> pygame.Surface | None:
        """The sliding step's background (``Motion.background``), built over frames; None
        until it is done."""
        theme = board_theme(size)
        m = self.motion
        assert m is not None
        bkey = m.background_key(size, v, self.overlays, theme)
        kept = m.kept_background(bkey)
        if kept is not None:
            return kept
        b = self._build
        key = ("background", id(m), bkey)
        if b is None or b.key != key:
            img = pygame.Surface(size)
            b = self._build = Build(key, img, m.background_pieces(
                img, v, events=self.events, overlays=self.overlays, theme=theme))
        if not b.run(self._step_work()):
            return None
        self._build = None
        return m.kept_background(bkey)

    @property
    def building(self) -> bool:
        """Whether the board's picture is still being built over the next frames (a
        step's, ``app.step_build``, or a drop's labels, ``render.redraw.LABELS_PER_FRAME``)."""
        return self._build is not None or self._labels_pending()

    def _step_work(self) -> int | None:
        """This frame's share of step building: all before the first picture, none in a
        frame whose update laid a panel text box out (tens of ms), else
        ``STEP_WORK_PER_FRAME``."""
        if self._last_img is None:
            return None
        return 0 if self._panel_flushed else STEP_WORK_PER_FRAME

    def _building_background(self) -> bool:
        return self._build is not None and self._build.key[0] == "background"

    def _last_image(self, size) -> pygame.Surface:
        """The picture the board showed last (a blank one of ``size`` before any)."""
        if self._last_img is None:
            self._last_img = pygame.Surface(size)
        return self._last_img

    def _legend_image(self, size, state: Battlefield) -> pygame.Surface:
        """The legend strip's picture, kept while what it shows (``legend.legend_key``:
        not the models' places, so a drop keeps it) and its size stay the same."""
        key = (size, self.view.scale, self.overlays)
        if self._legend is not None and self._legend[1] is not state:
            old_key, old_state, old_img, shown = self._legend
            if old_key == key and shown == legend_key(state, self.view, self.overlays):
                self._legend = (key, state, old_img, shown)   # a move: the same legend
        if self._legend is not None and self._legend[1] is state and (
                self._legend[0] == key or (self.view_moving and self._legend[0][0] == size)):
            return self._legend[2]   # (the scale bar catches up when the view settles)
        img = pygame.Surface(size)
        draw_legend(img, state, self.view, img.get_rect(), overlays=self.overlays)
        self._legend = (key, state, img, legend_key(state, self.view, self.overlays))
        return img

    def _outline(self, surface, geo: Geometry, model_id: str, colour) -> None:
        pts = [self.view.to_screen(x, y) for x, y in geo.footprint(model_id).exterior.coords]
        pygame.draw.lines(surface, colour, True, pts, 2)

    def _label(self, surface, s: str, at: XY, colour) -> pygame.Rect:
        """A small dark label centred above ``at`` (surface pixels); returns its rectangle."""
        img = theme_font(LABEL_FONT_PX).render(s, True, colour)
        r = img.get_rect(midbottom=(int(at[0]), int(at[1]) - 6))
        bg = r.inflate(8, 4)
        pygame.draw.rect(surface, (20, 20, 20), bg, border_radius=4)
        surface.blit(img, r)
        return bg

    def chart_rect(self) -> pygame.Rect:
        """Where charge mode draws the fight's chart: over the panel's measure and messages
        boxes (window pixels)."""
        boxes = [self.panel.boxes[n].rect for n in ("measure", "messages") if n in self.panel.boxes]
        return boxes[0].union(boxes[-1]) if boxes else self.panel_rect

    def _draw_tools(self, surface, geo: Geometry) -> None:
        v = self.view
        if self.charge.active and not self.step_mode:
            self.charge.draw(surface, v, self.state, geo, overlays=self.overlays,
                             selected=self.selected, theme=board_theme(surface.get_size()),
                             moving=self.view_moving)
        ring = self.rings.ring(self.shown_state, self.selected)
        if ring is not None:
            draw_ring(surface, v, ring.outlines, ring.label)
        if not self.step_mode:
            self.checker.draw(surface, v, self.state)
        if self.ruler is not None:
            r = self.ruler
            a, b = v.to_screen(*r.a), v.to_screen(*r.b)
            pygame.draw.line(surface, RULER_COLOUR, a, b, 2)
            for p in (a, b):
                pygame.draw.circle(surface, RULER_COLOUR, (int(p[0]), int(p[1])), 4)
            self._label(surface, text.inches(r.length), ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2),
                        RULER_COLOUR)
        if self.drag is not None:
            d = self.drag
            colour = BAD_COLOUR if d.overlaps or d.bad else DRAG_COLOUR
            s, e = v.to_screen(*d.start), v.to_screen(*d.at)
            on = self.shown_state if d.in_step else self.state
            m = on.model(d.model_id).moved_to(*d.at)
            footprint = base_polygon(m.base, m.x, m.y, m.facing_deg)
            player = DEFAULT_THEME.player_colours(on).get(on.owner(m.id), (128, 128, 128))
            draw_base(surface, v, footprint, m, player, DEFAULT_THEME)
            pygame.draw.lines(surface, colour, True, [v.to_screen(x, y) for x, y in footprint.exterior.coords], 2)
            pygame.draw.line(surface, colour, s, e, 2)
            pygame.draw.circle(surface, colour, (int(s[0]), int(s[1])), 3)
            label = text.inches(d.moved) + (f"  overlaps {', '.join(d.overlaps)}" if d.overlaps else "")
            ro = self.drag_readout()
            if ro is not None:   # the pile-in limit, from where the map put the model
                if d.origin != d.start:
                    o = v.to_screen(*d.origin)
                    pygame.draw.line(surface, colour, o, e, 1)
                label = f"pile-in {ro[0]}" + (f"  overlaps {', '.join(d.overlaps)}" if d.overlaps else "")
                colour = BAD_COLOUR if ro[1] or d.overlaps else colour
            self._label(surface, label, e, colour)
        draw_editor(surface, v, self.editor, self.mouse_pos)


def moved_image(img: pygame.Surface, old: tuple[float, float, float], new: tuple[float, float, float],
                size: tuple[int, int]) -> tuple[pygame.Surface, tuple[int, int]]:
    """The part of ``img`` (drawn with view ``old`` = (scale, origin x, origin y)) that
    shows on a ``size`` board under view ``new``, scaled, and where to blit it.

    A table point at screen ``p`` under ``old`` is at ``o' + (p - o) * k`` under
    ``new`` (``k`` the ratio of the scales), so the old image scaled by ``k`` goes
    at ``o' - o * k``; only the piece that lands on the board is scaled.
    """
    k = new[0] / old[0]
    ox, oy = new[1] - old[1] * k, new[2] - old[2] * k
    if abs(k - 1.0) < 1e-9:
        return img, (round(ox), round(oy))
    w, h = size
    src = pygame.Rect(math.floor(-ox / k), math.floor(-oy / k), math.ceil(w / k) + 2, math.ceil(h / k) + 2)
    src = src.clip(img.get_rect())
    if src.w <= 0 or src.h <= 0:
        return pygame.Surface((1, 1)), (w, h)
    out = (max(1, round(src.w * k)), max(1, round(src.h * k)))
    piece = pygame.transform.scale(img.subsurface(src), out)
    return piece, (round(ox + src.x * k), round(oy + src.y * k))
