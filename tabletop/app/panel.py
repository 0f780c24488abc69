"""The side panel of the window: pygame_gui labels and buttons, and text panes.

The panel holds no logic: ``App`` gives it plain text lines and callbacks,
it shows them.  The one-line labels and the buttons are pygame_gui widgets; the
multi-line boxes (step, info, measure, messages) are ``text_pane.TextPane``: plain
text drawn with pygame's fonts, wrapped, cached and scrolled with the wheel (a
pygame_gui text box took 20-45 ms to lay a step's text out, issue 11 item 3).  Ids
such as ``<unit>/<n>`` show as written.  Everything is rebuilt on a window resize
(``layout``), keeping the texts.
"""

from __future__ import annotations

import html
from collections.abc import Callable

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel

from tabletop.app.text_pane import TextPane

PAD = 8                 # pixels between panel elements
ROW = 30                # pixel height of a button or label row
OVERLAY_BUTTONS_PER_ROW = 3
LABEL_INSET = 12        # pixels a one-line label keeps clear of its edges
ELLIPSIS = "..."


def elide(text: str, width: int, measure: Callable[[str], int]) -> str:
    """``text`` cut at the end and ended with ``...`` so that ``measure`` (pixels of a
    string) is at most ``width``; ``text`` itself when it fits, ``""`` when not even the
    dots do."""
    if measure(text) <= width:
        return text
    lo, hi = 0, len(text)           # the longest head that fits with the dots
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if measure(text[:mid].rstrip() + ELLIPSIS) <= width:
            lo = mid
        else:
            hi = mid - 1
    if lo == 0 and measure(ELLIPSIS) > width:
        return ""
    return text[:lo].rstrip() + ELLIPSIS


def as_html(lines: list[str], bold_first: bool = False) -> str:
    """Plain text lines -> pygame_gui markup (escaped, ``<br>`` between lines)."""
    out = [html.escape(line, quote=False) for line in lines]
    if bold_first and out:
        out[0] = f"<b>{out[0]}</b>"
    return "<br>".join(out)


class Panel:
    """Widgets on the right of the window.

    Parameters
    ----------
    manager : pygame_gui.UIManager
    rect : pygame.Rect
        Where the panel goes, window pixels.
    overlays : sequence of str
        Overlay names, one toggle button each.
    actions : dict[str, Callable[[], None]]
        Callbacks by button name: ``save``, ``reload``, ``undo``, ``help``,
        ``fit``, ``prev``, ``next`` and ``overlay:<name>``.
    steps : bool
        Whether to show the step-through row and text box.
    """

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect, overlays, actions:
                 dict[str, Callable[[], None]], steps: bool = False):
        self.manager = manager
        self.overlays = list(overlays)
        self.actions = actions
        self.steps = steps
        self.texts: dict[str, str] = {"title": "", "file": "", "info": "", "measure": "",
                                      "step": "", "messages": "", "step_label": ""}
        self.selected_overlays: frozenset[str] = frozenset()
        self.elements: list = []
        self.buttons: dict[str, UIButton] = {}
        self.boxes: dict[str, TextPane | UILabel] = {}
        self.lines: dict[str, tuple[list[str], bool]] = {}     # pane name -> (lines, bold first)
        self.stale: dict[str, tuple[list[str], bool]] = {}     # pane name -> new text, not laid out
        self.layout(rect)

    # ------------------------------------------------------------ building
    def _button(self, name: str, rect: pygame.Rect, text: str, tip: str) -> None:
        action = self.actions.get(name)

        def command() -> None:      # pygame_gui passes data to one-parameter commands
            if action is not None:
                action()

        b = UIButton(rect, text, self.manager, tool_tip_text=tip, command=command)
        self.buttons[name] = b
        self.elements.append(b)

    def _fitted(self, box: UILabel, text: str) -> str:
        """``text`` elided to fit one-line label ``box`` (a long map name or file name would
        otherwise run past the panel's edge and be cut mid-letter)."""
        room = box.rect.width - LABEL_INSET
        return elide(text, room, lambda t: box.font.size(t)[0]) or " "

    def _box(self, name: str, rect: pygame.Rect, label: bool = False) -> None:
        if label:
            box = UILabel(rect, " ", self.manager)
            if self.texts[name]:
                box.set_text(self._fitted(box, self.texts[name]))
            self.elements.append(box)
        else:
            box = TextPane(rect)
            lines, bold = self.lines.get(name, ([], False))
            box.set_text(lines, bold)
        self.boxes[name] = box

    def layout(self, rect: pygame.Rect) -> None:
        """(Re)build every widget inside ``rect`` (window pixels), keeping the texts."""
        for e in self.elements:
            e.kill()
        self.elements, self.buttons, self.boxes = [], {}, {}
        self.stale = {}                     # the boxes are built with the texts as they are
        self.rect = pygame.Rect(rect)
        x, w = rect.x + PAD, rect.width - 2 * PAD
        y = rect.y + PAD
        self._box("title", pygame.Rect(x, y, w, ROW - 4), label=True)
        y += ROW - 4
        self._box("file", pygame.Rect(x, y, w, ROW - 6), label=True)
        y += ROW
        per_row = OVERLAY_BUTTONS_PER_ROW
        bw = (w - (per_row - 1) * 4) // per_row
        for k, name in enumerate(self.overlays):
            row, col = divmod(k, per_row)
            self._button(f"overlay:{name}", pygame.Rect(x + col * (bw + 4), y + row * (ROW + 4), bw, ROW),
                         name, f"show or hide the {name} overlay (o cycles)")
        y += ((len(self.overlays) + per_row - 1) // per_row) * (ROW + 4)
        row = [("save", "Save (s)", "save to a new file"), ("reload", "Reload (r)", "reload from disk"),
               ("undo", "Undo (u)", "undo the last move"), ("fit", "Fit (f)", "fit the table"),
               ("help", "Help (h)", "keys and mouse")]
        bw = (w - (len(row) - 1) * 4) // len(row)
        for k, (name, text, tip) in enumerate(row):
            self._button(name, pygame.Rect(x + k * (bw + 4), y, bw, ROW), text, tip)
        y += ROW + PAD
        if self.steps:
            bw = 90
            self._button("prev", pygame.Rect(x, y, bw, ROW), "< Prev (p)", "previous step")
            self._box("step_label", pygame.Rect(x + bw + 4, y, w - 2 * bw - 8, ROW), label=True)
            self._button("next", pygame.Rect(x + w - bw, y, bw, ROW), "Next (n) >", "next step")
            y += ROW + 4
        avail = max(200, rect.bottom - PAD - y)
        parts = [("info", 0.5), ("measure", 0.15), ("messages", 0.35)]
        if self.steps:
            parts = [("step", 0.36), ("info", 0.34), ("measure", 0.1), ("messages", 0.2)]
        scale = 1.0 / sum(f for _, f in parts)
        for name, frac in parts:
            h = int(avail * frac * scale) - 4
            self._box(name, pygame.Rect(x, y, w, h))
            y += h + 4
        self.set_overlays(self.selected_overlays, force=True)

    # ------------------------------------------------------------ updating
    def set_text(self, name: str, lines: list[str] | str, bold_first: bool = False) -> None:
        """Show ``lines`` in box ``name`` (only laid out again when the text changed, by
        ``flush``).  ``texts[name]`` keeps a pane's text as markup (escaped, ``<br>``
        between lines), what changed is told by it."""
        box = self.boxes.get(name)
        if isinstance(box, UILabel):
            text = lines if isinstance(lines, str) else " ".join(lines)
            if text != self.texts[name]:
                self.texts[name] = text
                box.set_text(self._fitted(box, text) if text else " ")
            return
        text = lines if isinstance(lines, str) else as_html(lines, bold_first)
        if text != self.texts.get(name):
            self.texts[name] = text
            plain = lines.split("\n") if isinstance(lines, str) else list(lines)
            self.lines[name] = (plain, bold_first)
            if box is not None:
                self.stale.pop(name, None)
                self.stale[name] = self.lines[name]     # laid out by ``flush``, oldest first

    def flush(self, limit: int | None = None) -> int:
        """Lay out the text panes whose text changed since, at most ``limit`` of them
        (None: all), the longest waiting first; returns how many.

        A pane lays a new text out in a few milliseconds (a text seen before comes
        from its cache); the window still lays out ``PANEL_BOXES_PER_FRAME`` a frame
        (``App.update``), so a step that changes several never adds them all to one
        frame."""
        done = 0
        while self.stale and (limit is None or done < limit):
            name = next(iter(self.stale))
            lines, bold = self.stale.pop(name)
            box = self.boxes.get(name)
            if isinstance(box, TextPane):
                box.set_text(lines, bold)
                done += 1
        return done

    def panes(self) -> list[TextPane]:
        """The text panes, top to bottom."""
        return [b for b in self.boxes.values() if isinstance(b, TextPane)]

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the text panes (the widgets are pygame_gui's: ``UIManager.draw_ui``)."""
        for pane in self.panes():
            pane.draw(surface)

    def scroll(self, pos: tuple[int, int], notches: float) -> bool:
        """The wheel turned ``notches`` (positive: up) over window pixel ``pos``: the pane
        there scrolls; returns whether ``pos`` is over a pane."""
        for pane in self.panes():
            if pane.rect.collidepoint(pos):
                pane.scroll(notches)
                return True
        return False

    def set_overlays(self, shown: frozenset[str], force: bool = False) -> None:
        """Mark the overlay buttons that are on."""
        if shown == self.selected_overlays and not force:
            return
        self.selected_overlays = frozenset(shown)
        for name in self.overlays:
            b = self.buttons.get(f"overlay:{name}")
            if b is not None:
                b.select() if name in shown else b.unselect()
