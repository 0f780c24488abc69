"""The question panel of ``view --play``: the question in words and one button per option.

Built with pygame_gui over the board: a text box with the question
(``question_text.question_line`` and the context lines), a button per option
numbered as its key (1-9), the default marked, and "use the default for the
rest".  The panel holds no logic: ``PlayController`` gives it the texts, two
callbacks and the rectangles it must leave in sight (the rings of the models
the options name, ``avoid``).

Where it docks (``dock``): the first place, in ``DOCK_ORDER`` (the side the
controller prefers first), that covers none of ``avoid``, at its full width,
then narrower (``DOCK_WIDTHS``, more rows of buttons); when no place is clear
the one covering least (``render.label_place``: the same placer as the lesson
labels), and ``covers`` says so (the controller then pans the view).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIPanel, UITextBox

from tabletop.app.panel import as_html
from tabletop.render.label_place import LabelPlacer

PAD = 8                  # pixels between the panel's elements
ROW = 32                 # pixel height of a button row
LINE_PX = 25             # pixel height of a text line in the question box (pygame_gui 14pt + leading)
MIN_BUTTON_PX = 200      # a button is at least this wide; the row count follows
MAX_WIDTH_PX = 980       # the panel is at most this wide
DOCK_ORDER = ("centre", "left", "right")
"""Named default: where along the board's top (or bottom) edge the panel is tried, in order;
the preferred edge (``at_top``) first, then the other."""

DOCK_WIDTHS = (1.0, 0.66, 0.5)
"""Named default: the panel's widths tried, as shares of its full width, before it settles
for covering a named model (narrower panels hold fewer buttons a row, so grow taller)."""

DEFAULT_MARK = "  [default]"
FOR_REST_TEXT = "use the default for the rest (d)"


class AskPanel:
    """One question on screen.

    Parameters
    ----------
    manager : pygame_gui.UIManager
    board : pygame.Rect
        The board's rect (window pixels); the panel sits over its bottom.
    lines : list of str
        The question (first line, bold) and its context lines.
    labels : list of str
        One per option, in order; option k is key k + 1.
    default_index : int
        The option the default policy would choose (marked).
    on_option : callable(int)
        Called with the option's index when its button is pressed.
    on_rest : callable()
        "use the default for the rest".
    at_top : bool
        Try the top of the board before the bottom (to leave the models the
        question is about in sight).
    avoid : list of pygame.Rect
        Window pixels the panel should not cover (the named models' rings).
    keys : list of str, optional
        The key named on each option's button (``"y"``: ``y: quit``); default the numbers
        1-9 (none past 9).
    rest : bool
        Whether the panel has the "use the default for the rest" button (a y/n question
        asked over the board, ``PlayController.ask_quit``, has not).
    """

    def __init__(self, manager: pygame_gui.UIManager, board: pygame.Rect, lines: Sequence[str],
                 labels: Sequence[str], default_index: int, on_option: Callable[[int], None],
                 on_rest: Callable[[], None], at_top: bool = False,
                 avoid: Sequence[pygame.Rect] = (), keys: Sequence[str] | None = None,
                 rest: bool = True):
        self.manager = manager
        self.lines = list(lines)
        self.labels = list(labels)
        self.default_index = default_index
        self.on_option = on_option
        self.on_rest = on_rest
        self.at_top = at_top
        self.keys = list(keys) if keys is not None else [str(k + 1) for k in range(min(9, len(labels)))]
        self.rest = rest
        self.avoid = [pygame.Rect(r) for r in avoid]
        self.covers = False
        """Whether the docked panel covers some of ``avoid`` (no clear place was found)."""
        self.panel: UIPanel | None = None
        self.buttons: list[UIButton] = []
        self.rest_button: UIButton | None = None
        self.layout(board)

    def button_text(self, k: int) -> str:
        key = f"{self.keys[k]}: " if k < len(self.keys) else ""
        return key + self.labels[k] + (DEFAULT_MARK if k == self.default_index else "")

    def _height(self, w: int, board: pygame.Rect) -> int:
        """The panel's pixel height at width ``w``."""
        per_row = self._per_row(w)
        rows = -(-len(self.labels) // per_row) + self.rest     # + the "for the rest" row
        text_h = LINE_PX * len(self.lines) + 14
        h = PAD + text_h + PAD + rows * (ROW + 4) + PAD
        return min(h, board.height - 2 * PAD)

    def _per_row(self, w: int) -> int:
        return max(1, min(len(self.labels), (w - 2 * PAD) // MIN_BUTTON_PX))

    def dock(self, board: pygame.Rect) -> pygame.Rect:
        """Where the panel goes over ``board`` (window pixels), clear of ``avoid`` when it can
        be (module docstring); sets ``covers``."""
        full = min(MAX_WIDTH_PX, board.width - 2 * PAD)
        inner = board.inflate(-2 * PAD, -2 * PAD)
        placer = LabelPlacer(inner, bases=self.avoid)
        edges = ("top", "bottom") if self.at_top else ("bottom", "top")
        every = []
        for share in DOCK_WIDTHS:
            w = max(min(full, MIN_BUTTON_PX + 2 * PAD), int(full * share))
            h = self._height(w, board)
            cands = []
            for edge in edges:
                y = inner.top if edge == "top" else inner.bottom - h
                for where in DOCK_ORDER:
                    x = {"centre": board.x + (board.width - w) // 2, "left": inner.left,
                         "right": inner.right - w}[where]
                    cands.append(pygame.Rect(x, y, w, h))
            every += cands
            spot = placer.free(cands)
            if spot is not None:
                self.covers = False
                return spot
        rect, _over = placer.choose(every)
        self.covers = rect.collidelist(self.avoid) >= 0
        return rect

    def layout(self, board: pygame.Rect, avoid: Sequence[pygame.Rect] | None = None) -> None:
        """(Re)build the widgets over ``board`` where ``dock`` puts them (``avoid``, when
        given, replaces the rectangles to leave in sight)."""
        self.kill()
        if avoid is not None:
            self.avoid = [pygame.Rect(r) for r in avoid]
        rect = self.dock(board)
        w, h = rect.size
        inner = w - 2 * PAD
        per_row = self._per_row(w)
        rows = -(-len(self.labels) // per_row) + self.rest     # + the "for the rest" row
        text_h = LINE_PX * len(self.lines) + 14
        self.panel = UIPanel(rect, starting_height=6, manager=self.manager)
        UITextBox(as_html(self.lines, bold_first=True), pygame.Rect(PAD, PAD, inner, text_h),
                  self.manager, container=self.panel)
        y = PAD + text_h + PAD
        bw = (inner - (per_row - 1) * 4) // per_row
        self.buttons = []
        for k in range(len(self.labels)):
            row, col = divmod(k, per_row)
            r = pygame.Rect(PAD + col * (bw + 4), y + row * (ROW + 4), bw, ROW)
            b = UIButton(r, self.button_text(k), self.manager, container=self.panel,
                         tool_tip_text=self.labels[k], command=partial(self.on_option, k))
            if k == self.default_index:
                b.select()
            self.buttons.append(b)
        if not self.rest:
            return
        y += (rows - 1) * (ROW + 4)
        self.rest_button = UIButton(pygame.Rect(PAD, y, min(inner, 2 * MIN_BUTTON_PX + 60), ROW),
                                    FOR_REST_TEXT, self.manager, container=self.panel,
                                    tool_tip_text="the default policy answers every later question",
                                    command=self._rest)

    def _rest(self) -> None:      # no parameter: pygame_gui then passes no event data
        self.on_rest()

    @property
    def rect(self) -> pygame.Rect:
        return self.panel.rect if self.panel is not None else pygame.Rect(0, 0, 0, 0)

    def kill(self) -> None:
        """Remove the widgets."""
        if self.panel is not None:
            self.panel.kill()
            self.panel = None
        self.buttons, self.rest_button = [], None
