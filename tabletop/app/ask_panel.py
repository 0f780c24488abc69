"""The question panel of ``view --play``: the question in words and one button per option.

Built with pygame_gui over the bottom (or top) of the board: a text box with the
question (``question_text.question_line`` and the context lines), a button
per option numbered as its key (1-9), the default marked, and "use the
default for the rest".  The panel holds no logic: ``PlayController`` gives
it the texts and two callbacks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIPanel, UITextBox

from tabletop.app.panel import as_html

PAD = 8                  # pixels between the panel's elements
ROW = 32                 # pixel height of a button row
LINE_PX = 25             # pixel height of a text line in the question box (pygame_gui 14pt + leading)
MIN_BUTTON_PX = 200      # a button is at least this wide; the row count follows
MAX_WIDTH_PX = 980       # the panel is at most this wide
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
        Over the top of the board instead of the bottom (to leave the models
        the question is about in sight).
    """

    def __init__(self, manager: pygame_gui.UIManager, board: pygame.Rect, lines: Sequence[str],
                 labels: Sequence[str], default_index: int, on_option: Callable[[int], None],
                 on_rest: Callable[[], None], at_top: bool = False):
        self.manager = manager
        self.lines = list(lines)
        self.labels = list(labels)
        self.default_index = default_index
        self.on_option = on_option
        self.on_rest = on_rest
        self.at_top = at_top
        self.panel: UIPanel | None = None
        self.buttons: list[UIButton] = []
        self.rest_button: UIButton | None = None
        self.layout(board)

    def button_text(self, k: int) -> str:
        key = f"{k + 1}: " if k < 9 else ""
        return key + self.labels[k] + (DEFAULT_MARK if k == self.default_index else "")

    def layout(self, board: pygame.Rect) -> None:
        """(Re)build the widgets over the bottom (or top) of ``board``."""
        self.kill()
        w = min(MAX_WIDTH_PX, board.width - 2 * PAD)
        inner = w - 2 * PAD
        per_row = max(1, min(len(self.labels), inner // MIN_BUTTON_PX))
        rows = -(-len(self.labels) // per_row) + 1          # + the "for the rest" row
        text_h = LINE_PX * len(self.lines) + 14
        h = PAD + text_h + PAD + rows * (ROW + 4) + PAD
        h = min(h, board.height - 2 * PAD)
        top = board.y + PAD if self.at_top else board.bottom - h - PAD
        rect = pygame.Rect(board.x + (board.width - w) // 2, top, w, h)
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
