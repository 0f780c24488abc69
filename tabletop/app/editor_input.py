"""The table editor's keys and mouse: its key table and the event handler.

``EDITOR_BINDINGS`` is the editor's part of the key table (``app.keys.Binding`` rows): the
README's "Editing a table" section is ``readme_table()`` of it, and a test checks they
agree.  While the editor is on, ``handle(app, event)`` takes an event first and returns
whether it used it; what it leaves (the wheel, the right-button pan, the arrows, ``f``,
``h``, ``u``, ``q``, a y/n question) goes on to the window as in ``view``.

A line typed in the editor (``t``: an edge distance, ``N``: a formation) comes as pygame
``TEXTINPUT`` events; ``Enter`` ends it, ``Backspace`` takes a character back, ``Esc``
drops it, and no other key acts while it is open.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from tabletop.app import keys
from tabletop.app.keys import Binding

__all__ = ["EDITOR_BINDINGS", "handle", "readme_table"]

CLICK_SLOP_PX = 3       # named default: a click this far outside an objective's marker picks it

EDITOR_BINDINGS: tuple[Binding, ...] = (
    Binding("`e`", "leave the editor (back to the board as in `view`)", (("e", "leave"),)),
    Binding("`1` / `2` / `3` / `4`", "ruin 12x6 / 10x5 / 8x4 / 6x4, walls in an L on a long and "
            "a short side: click to place it, centre on the 1\" grid",
            (("1", "tool:ruin-12x6"), ("2", "tool:ruin-10x5"), ("3", "tool:ruin-8x4"),
             ("4", "tool:ruin-6x4"))),
    Binding("`5`", "barricade 2x6: click to place it", (("5", "tool:barricade-2x6"),)),
    Binding("`6`", "free polygon: click its corners (1\" grid), `Enter` closes it",
            (("6", "tool:polygon"),)),
    Binding("`0`", "select: click an item to select it, drag it to move it (centre snaps to 1\")",
            (("0", "tool:select"),)),
    Binding("`o`", "objective: click to place a 40mm marker (the map's objective range)",
            (("o", "tool:objective"),)),
    Binding("`d` / `D`", "deployment zone: click two corners / the next reference deployment "
            "(Hammer and Anvil, Dawn of War) for the first two players",
            (("d", "tool:zone"), ("D", "deployment"))),
    Binding("`p`", "the player new zones and units go to (cycles)", (("p", "player"),)),
    Binding("`U` / `N`", "drop a unit: the next unit of `--roster` at the click / a formation "
            "(type N SIZE FRONTAGE, e.g. `10 32mm 5`, then click)",
            (("U", "tool:unit"), ("N", "formation"))),
    Binding("`r` / `R`", "turn the selected piece to the next 15 degrees counter-clockwise / "
            "clockwise", (("r", "turn_ccw"), ("R", "turn_cw"))),
    Binding("`m`", "mirror the selected piece (its short wall to the other end)",
            (("m", "mirror"),)),
    Binding("`t`", "type an edge and a distance (`left 6`, `top 12`), `Enter`: the selected "
            "item's nearest extent goes that far from that edge", (("t", "type_edge"),)),
    Binding("`k`", "the selected piece's kind: ruin, woods, obstacle, impassable, hill, building "
            "(a kind other than ruin or building drops its walls)", (("k", "kind"),)),
    Binding("`w` / `W`", "the selected piece's walls: cycle L, whole piece, one long side, one "
            "short side, none / type a wall block's length (`8`: the full depth, 8\" from the "
            "first end; `m` puts it at the other end) or `long 8`, `short 3`",
            (("w", "walls"), ("W", "type_walls"))),
    Binding("`i`", "type a new id for the selected piece or objective (`B`, `B2`, `north`)",
            (("i", "rename"),)),
    Binding("`Delete`", "delete the selected item", (("delete", "delete"),)),
    Binding("`M`", "mirror the table: each piece, objective and zone gets a twin turned 180 "
            "degrees about the centre, unless it has one already", (("M", "mirror_table"),)),
    Binding("`x`", "flip the whole table left to right: terrain, objectives, zones and units",
            (("x", "flip_table"),)),
    Binding("`s`", "save to `-o` (else a new file beside the map); over an existing file - the "
            "map opened above all - only after `y`", (("s", "save"),)),
    Binding("`Esc`", "drop the typed line, the half-drawn polygon or zone, or the drag; else "
            "leave the editor", (("escape", "escape"),)),
)

_ACTIONS = {name: action for b in EDITOR_BINDINGS for name, action in b.keys}


def readme_table() -> str:
    """The README's editor key table (markdown), generated from ``EDITOR_BINDINGS``."""
    lines = ["| input | does |", "| --- | --- |"]
    lines += [f"| {b.label} | {b.does} |" for b in EDITOR_BINDINGS]
    return "\n".join(lines)


def help_entries() -> list[tuple[str, str]]:
    """(input, what it does) for the help overlay in the editor: its own keys, then the
    window's rows it leaves as they are (none of whose keys it takes, and not the left
    button, which is its own)."""
    mine = [(b.plain_label, b.plain_does) for b in EDITOR_BINDINGS]
    left = [b for b in keys.BINDINGS
            if not any(k in _ACTIONS for k, _ in b.keys)
            and not b.plain_label.startswith(("left", "shift + left", "click", "`1`"))
            and not b.plain_does.startswith("--play")]
    return mine + [(b.plain_label, b.plain_does) for b in left]


@dataclass
class _Press:
    pos: tuple[int, int]
    table: tuple[float, float]


def _say(app, said: str | None) -> None:
    if said:
        app.message(said)
    else:
        app.refresh()


def _run(app, action: str, opened: str = "") -> None:
    ed = app.editor
    if action.startswith("tool:"):
        _say(app, ed.set_tool(action.split(":", 1)[1]))
        return
    if action == "leave":
        _say(app, ed.toggle())
    elif action == "escape":
        said = ed.cancel()
        _say(app, said if said is not None else ed.toggle())
    else:
        _say(app, {
            "deployment": ed.next_deployment, "player": ed.next_player,
            "formation": lambda: ed.start_entry("formation", opened),
            "turn_ccw": lambda: ed.turn(+1), "turn_cw": lambda: ed.turn(-1),
            "mirror": ed.mirror, "type_edge": lambda: ed.start_entry("edge", opened),
            "walls": ed.cycle_walls, "type_walls": lambda: ed.start_entry("walls", opened),
            "rename": lambda: ed.start_entry("rename", opened),
            "kind": ed.cycle_kind, "delete": ed.delete, "mirror_table": ed.mirror_table,
            "flip_table": ed.flip_table, "save": ed.save,
        }[action]())


def _key(app, event) -> bool:
    ed = app.editor
    if app.unsaved.pending is not None:
        return False                        # the window's y/n question takes it
    name = keys.key_name(event)
    if ed.entry is not None:
        if name in ("return", "enter"):
            _say(app, ed.enter())
        elif name == "backspace":
            ed.backspace()
            app.refresh()
        elif name == "escape":
            _say(app, ed.cancel())
        else:
            ed.key_in_entry()
        return True
    if name in ("return", "enter"):
        _say(app, ed.enter())
        return True
    action = _ACTIONS.get(name) or _ACTIONS.get(name.lower())
    if action is None:
        return False
    _run(app, action, getattr(event, "unicode", "") or "")
    return True


def handle(app, event) -> bool:
    """Take ``event`` for the editor when it is on; returns whether it was used."""
    ed = app.editor
    if not ed.active:
        return False
    t = event.type
    if t == pygame.KEYDOWN:
        return _key(app, event)
    if t == pygame.TEXTINPUT:
        if ed.entry is None:
            return False
        ed.type_text(event.text)
        app.refresh()
        return True
    slop = CLICK_SLOP_PX / app.view.scale
    if t == pygame.MOUSEBUTTONDOWN and event.button == 1:
        if not app.board_rect.collidepoint(event.pos):
            return False
        app.mouse_pos = tuple(event.pos)
        tx, ty = app.view.to_table(*event.pos)
        if not ed.press(tx, ty, slop):
            ed.click_at = _Press(tuple(event.pos), (tx, ty))
        app.refresh()
        return True
    if t == pygame.MOUSEMOTION:
        app.mouse_pos = tuple(event.pos)
        if ed.drag is not None:
            ed.drag_to(*app.view.to_table(*event.pos))
            app.refresh()
            return True
        return False
    if t == pygame.MOUSEBUTTONUP and event.button == 1:
        if ed.drag is not None and not app.board_rect.collidepoint(event.pos):
            item, ed.drag = ed.drag.item, None      # released over the panel: left where it was
            _say(app, f"dropped outside the table: {item} not moved")
            app.refresh()
            return True
        if ed.drag is not None:
            said = ed.drop()
            _say(app, said if said is not None else (
                ed.describe(ed.selected) if ed.exists(ed.selected) else None))
            return True
        press, ed.click_at = getattr(ed, "click_at", None), None
        if press is not None:
            _say(app, ed.click(*press.table, slop))
            return True
    return False
