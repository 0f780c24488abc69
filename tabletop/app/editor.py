"""The table editor: a mode of the window (``tabletop edit``, or ``e`` in ``tabletop view``).

``Editor(app)`` holds what the organiser is doing - the tool (a terrain template, a free
polygon, objectives, zones, a unit), the selected item, a polygon or zone half drawn, the
text typed - and its actions, each of which hands the window a new ``Battlefield``
(``app.editor_ops`` makes them; ``App.edit`` keeps the undo stack and the autosave).
Events reach it through ``app.editor_input``; ``render.editor`` draws it.

Table coordinates are inches, origin bottom-left, y up.  Placing and dragging snap an
item's centre to ``SNAP_IN`` (1"); turning snaps its angle to ``TURN_STEP_DEG`` (15
degrees); a typed ``left 6`` puts the item's nearest extent 6" from the left edge.

Items are named as the map names them: a terrain piece or objective by its id, a
deployment zone ``zone:k`` (k its place among the map's zones, from 0).
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, replace
from typing import Any

from tabletop.app import editor_ops as ops
from tabletop.app.unsaved import autosave_path
from tabletop.board import mapfile
from tabletop.board.bases import parse_base
from tabletop.board.state import Battlefield
from tabletop.board.templates import (
    REFERENCE_DEPLOYMENTS,
    TEMPLATES,
    WALL_FORMS,
    WALLED_KINDS,
    corner_zone,
    edge_zone,
    wall_form,
    wall_form_of,
)
from tabletop.board.writes import write_atomic
from tabletop.errors import TabletopError
from tabletop.rules.describe import plural

__all__ = ["Editor", "SNAP_IN", "TURN_STEP_DEG", "TOOLS", "DEFAULT_FORMATION", "COHERENCY_CLAUSE",
           "formation_layouts"]

SNAP_IN = 1.0
"""Named default: an item placed or dragged in the editor has its centre on a 1" grid
(issue 12: tournament layouts are given to the inch)."""

TURN_STEP_DEG = 15.0
"""Named default: ``r`` / ``R`` turn the selected piece to the next multiple of 15 degrees."""

OFF_TABLE_TOL_IN = 1e-6
"""How far (inches) a piece or objective may reach past a table edge and still be on it:
float noise only (a piece flush with an edge is on the table)."""

DEFAULT_FORMATION = "10 32mm 5"
"""Named default: the formation ``N`` first offers - 10 models on 32mm bases, 5 abreast; after
one is typed, Enter on an empty line repeats the last one typed (a user placing several
alike expects that)."""

WALL_TEXT = {"L": "in an L (a long and a short side)", "whole": "the whole piece",
             "long": "along one long side", "short": "along one short side", "none": "none"}

BLANK_AUTOSAVE_NAME = "table.autosave.toml"
"""Named default: the autosave of a blank table with no ``-o``, in the folder the
command ran in (with ``-o b.toml`` it is ``b.autosave.toml`` beside it)."""

DEFAULT_SAVE_NAME = "table.toml"
"""Named default: a blank table with no ``-o`` is saved as ``table-1.toml`` (the next free
name) in the folder the command ran in."""

COHERENCY_CLAUSE = "coherency, core 03.04"
"""The clause a refused drop names: 40K unit coherency (2" of other models, and, in the
11th preset, every model within 9" of every other; ``[rules] coherency_*``)."""

#: the tools, in the order ``Tab`` would list them: the templates, then the rest
TOOLS = ("select",) + tuple(TEMPLATES) + ("polygon", "objective", "zone", "unit", "formation")

XY = tuple[float, float]


def snap(v: float, step: float = SNAP_IN) -> float:
    """``v`` to the nearest multiple of ``step`` (inches); halves go up."""
    return math.floor(v / step + 0.5) * step + 0.0


@dataclass
class Entry:
    """A line being typed: what it is for (``edge`` | ``formation``) and its text."""

    purpose: str
    text: str = ""
    skip: str = ""      # the opening key's text, dropped if it comes next as TEXTINPUT


@dataclass
class Drag:
    """An item being dragged: where the press was (inches), its centre then, the snapped
    shift so far."""

    item: str
    start: XY
    centre: XY
    shift: XY = (0.0, 0.0)


class Editor:
    """The editor's state and actions (see the module docstring).

    Parameters
    ----------
    app : tabletop.app.app.App
        The window: its ``state``, ``edit(new_state, message)`` and ``message``.
    out : str, optional
        Where ``s`` saves (``-o``); else the next free name beside the map.
    roster : list of tabletop.roster.deploy.Resolved, optional
        Units ``U`` drops, in roster order, for ``player``.
    """

    def __init__(self, app: Any, out: str | None = None, roster: Any = None,
                 system: str | None = None, player: str | None = None):
        self.app = app
        self.active = False
        self.out = out
        self.tool = "select"
        self.selected: str | None = None
        self.poly: list[XY] = []
        self.corner: XY | None = None
        self.entry: Entry | None = None
        self.drag: Drag | None = None
        self.click_at: Any = None       # a left press not yet a click (``editor_input``)
        self.roster = list(roster or [])
        self.system = system
        self.roster_next = 0
        self.formation = DEFAULT_FORMATION
        self.deploy_next = 0
        players = [p.id for p in app.state.players]
        self.player = player if player in players else (players[0] if players else None)

    # ------------------------------------------------------------ mode
    @property
    def state(self) -> Battlefield:
        return self.app.state

    def toggle(self) -> str:
        """``e``: into the editor or out of it."""
        self.active = not self.active
        self.poly, self.corner, self.entry, self.drag = [], None, None, None
        if self.active:
            return "table editor: 1-5 templates, 6 polygon, o objective, d zone, h: keys"
        self.selected = None
        return "left the table editor"

    def set_tool(self, tool: str) -> str:
        self.tool = tool
        self.poly, self.corner = [], None
        if tool in TEMPLATES:
            return f"click to place a {TEMPLATES[tool].name}"
        return {"polygon": "click the corners, Enter closes the polygon",
                "objective": "click to place an objective",
                "zone": f"click two corners of a deployment zone of {self.player}",
                "unit": self._unit_hint(),
                "formation": f"click to place {self.formation} (N: change)",
                "select": "click a piece to select it; drag to move it"}[tool]

    def _unit_hint(self) -> str:
        if not self.roster:
            return "no roster: give --roster ROSTER --player ID, or N for a formation"
        u = self.roster[self.roster_next % len(self.roster)].unit
        return f"click to place {u.label} ({plural(u.model_count, 'model')}) for {self.player}"

    def cancel(self) -> str | None:
        """``Esc``: drop the text, the half-drawn polygon or zone, the drag; else None."""
        if self.entry is not None:
            self.entry = None
            return "typing cancelled"
        if self.drag is not None:
            self.drag = None
            return "move cancelled"
        if self.poly or self.corner is not None:
            self.poly, self.corner = [], None
            return "drawing cancelled"
        return None

    # ------------------------------------------------------------ finding
    def item_at(self, x: float, y: float, slop: float = 0.0) -> str | None:
        """The item under (x, y) inches: an objective's marker, else the topmost terrain
        piece, else a deployment zone; None on bare table."""
        st = self.state
        for o in reversed(st.objectives):
            if math.hypot(x - o.at[0], y - o.at[1]) <= o.marker.radius + slop:
                return o.id
        for t in reversed(st.terrain):
            if ops.contains(t.polygon, x, y):
                return t.id
        for k in range(len(st.deployment) - 1, -1, -1):
            if ops.contains(st.deployment[k].polygon, x, y):
                return f"zone:{k}"
        return None

    def outline(self, item: str) -> tuple[XY, ...]:
        """The item's outline (an objective: its centre alone), inches."""
        st = self.state
        if item.startswith("zone:"):
            return st.deployment[int(item.split(":", 1)[1])].polygon
        if any(o.id == item for o in st.objectives):
            return (st.objective(item).at,)
        return st.terrain_piece(item).polygon

    def centre(self, item: str) -> XY:
        pts = self.outline(item)
        return pts[0] if len(pts) == 1 else ops.centre_of(pts)

    def exists(self, item: str | None) -> bool:
        if item is None:
            return False
        if item.startswith("zone:"):
            return int(item.split(":", 1)[1]) < len(self.state.deployment)
        return any(t.id == item for t in self.state.terrain) or any(
            o.id == item for o in self.state.objectives)

    # ------------------------------------------------------------ clicks
    def click(self, x: float, y: float, slop: float = 0.0) -> str | None:
        """A left click at (x, y) inches with the current tool; returns a message."""
        at = (snap(x), snap(y))
        tool = self.tool
        if tool in TEMPLATES:
            new, tid = ops.add_piece(self.state, tool, at)
            off = self.off_table(new, tid)
            if off:
                return f"{TEMPLATES[tool].name} not placed at {_pt(at)}: it would {off}"
            self.selected = tid
            return self.app.edit(new, f"placed {tid} ({TEMPLATES[tool].name}) centred at {_pt(at)}"
                                      + self._overlap_warning(new, tid))
        if tool == "polygon":
            self.poly.append(at)
            n = len(self.poly)
            return f"polygon: {n} corner{'s' if n != 1 else ''} (Enter closes)"
        if tool == "objective":
            new, oid = ops.add_objective(self.state, at)
            off = self.off_table(new, oid)
            if off:
                return f"objective not placed at {_pt(at)}: it would {off}"
            self.selected = oid
            return self.app.edit(new, f"objective {oid} at {_pt(at)}")
        if tool == "zone":
            t = self.state.table        # a zone's corner clicked past an edge is on that edge
            at = (min(max(at[0], 0.0), t.width), min(max(at[1], 0.0), t.depth))
            if self.corner is None:
                self.corner = at
                return f"zone corner {_pt(at)}: click the opposite corner"
            a, self.corner = self.corner, None
            if a[0] == at[0] or a[1] == at[1]:
                return "a zone needs two corners apart in x and in y"
            new = ops.add_zone(self.state, self.player, corner_zone(a, at))
            self.selected = f"zone:{len(new.deployment) - 1}"
            return self.app.edit(new, f"zone of {self.player} from {_pt(a)} to {_pt(at)}")
        if tool in ("unit", "formation"):
            return self.drop_unit(at)
        self.selected = self.item_at(x, y, slop)
        return None if self.selected is None else self.describe(self.selected)

    def close_polygon(self) -> str:
        """``Enter`` with the polygon tool: the corners clicked become a piece."""
        try:
            new, tid = ops.add_polygon(self.state, self.poly)
        except ValueError as exc:
            self.poly = []      # refused: the next click starts a new outline
            return f"polygon: {exc}; its corners are dropped, click a new outline"
        self.poly = []
        self.selected = tid
        return self.app.edit(new, f"placed {tid} (free polygon, {ops.FREE_POLYGON_KIND})"
                                  + self._overlap_warning(new, tid))

    # ------------------------------------------------------------ dragging
    def press(self, x: float, y: float, slop: float = 0.0) -> bool:
        """A press on the selected item (select tool) starts a drag; returns whether."""
        if self.tool != "select":
            return False
        hit = self.item_at(x, y, slop)
        if hit is None:
            return False
        self.selected = hit
        self.drag = Drag(hit, (x, y), self.centre(hit))
        return True

    def drag_to(self, x: float, y: float) -> None:
        """The drag's centre follows the cursor, snapped to ``SNAP_IN``."""
        d = self.drag
        cx = snap(d.centre[0] + x - d.start[0])
        cy = snap(d.centre[1] + y - d.start[1])
        d.shift = (cx - d.centre[0], cy - d.centre[1])

    def drop(self) -> str | None:
        d, self.drag = self.drag, None
        if d is None or d.shift == (0.0, 0.0):
            return None
        new = ops.move_piece(self.state, d.item, *d.shift)
        c = (d.centre[0] + d.shift[0], d.centre[1] + d.shift[1])
        off = self.off_table(new, d.item) if not self.off_table(self.state, d.item) else ""
        if off:
            return f"{d.item} not moved: at {_pt(c)} it would {off}"
        return self.app.edit(new, f"moved {d.item}: centre {_pt(c)}"
                                  + self._overlap_warning(new, d.item))

    def _overlap_warning(self, state: Battlefield, item: str) -> str:
        """"; warning: ruin-1 overlaps B2 (15.00 sq in)" when terrain piece ``item`` of
        ``state`` overlaps other pieces as ``check`` warns (``ops.piece_overlaps``, the
        ``[rules] terrain_overlap_area`` bound), one clause per piece, and "; warning: 4
        models stand on barricade-2's footprint (...)" when bases stand on its walls or, for
        a barricade or building, anywhere on it (``ops.models_under``); "" when clear or
        when ``item`` is not a piece.  A warning, not a refusal: the user may be halfway
        through moving two pieces."""
        clash = ops.piece_overlaps(state, item)
        out = ("; warning: " + ", ".join(f"{item} overlaps {o} ({a:.2f} sq in)" for o, a in clash)
               if clash else "")
        under = ops.models_under(state, item)
        if under:
            more = f" and {len(under) - 3} more" if len(under) > 3 else ""
            out += (f"; warning: {len(under)} model{'s' if len(under) != 1 else ''} stand"
                    f"{'' if len(under) != 1 else 's'} on {item}'s "
                    f"{'walls' if self._has_walls(state, item) else 'footprint'} "
                    f"({', '.join(under[:3])}{more})")
        return out

    @staticmethod
    def _has_walls(state: Battlefield, item: str) -> bool:
        from tabletop.geometry.layout_checks import SOLID_KINDS
        t = next(t for t in state.terrain if t.id == item)
        return t.kind not in SOLID_KINDS

    def off_table(self, state: Battlefield, item: str) -> str:
        """How the piece or objective ``item`` of ``state`` leaves the table ("run off the
        left edge by 3\""), or "" when it is wholly on it (an objective: its whole marker;
        ``OFF_TABLE_TOL_IN`` allowed).  Zones are not asked: their corners are clamped."""
        if item.startswith("zone:"):
            return ""
        t = state.table
        if any(o.id == item for o in state.objectives):
            o = state.objective(item)
            r = o.marker.radius
            box = (o.at[0] - r, o.at[1] - r, o.at[0] + r, o.at[1] + r)
        else:
            box = ops.extent(state.terrain_piece(item).polygon)
        over = {"left": -box[0], "bottom": -box[1], "right": box[2] - t.width, "top": box[3] - t.depth}
        worst = max(over, key=over.get)
        if over[worst] <= OFF_TABLE_TOL_IN:
            return ""
        return f"run off the {worst} edge by {over[worst]:.2f}\" (the table is {t.width:g}x{t.depth:g})"

    def fit_box(self) -> tuple[float, float, float, float] | None:
        """``f`` in the editor: the box (inches) holding the table and every piece,
        objective and zone, or None when all of them are on the table."""
        st = self.state
        x0, y0, x1, y1 = 0.0, 0.0, st.table.width, st.table.depth
        rings = [t.polygon for t in st.terrain] + [z.polygon for z in st.deployment]
        rings += [((o.at[0] - o.marker.radius, o.at[1] - o.marker.radius),
                   (o.at[0] + o.marker.radius, o.at[1] + o.marker.radius)) for o in st.objectives]
        for r in rings:
            a, b, c, d = ops.extent(r)
            x0, y0, x1, y1 = min(x0, a), min(y0, b), max(x1, c), max(y1, d)
        if (x0, y0, x1, y1) == (0.0, 0.0, st.table.width, st.table.depth):
            return None
        return x0, y0, x1, y1

    # ------------------------------------------------------------ keys on the selection
    def _piece(self) -> str | None:
        if self.selected is None or self.selected.startswith("zone:") or not any(
                t.id == self.selected for t in self.state.terrain):
            return None
        return self.selected

    def turn(self, sign: int) -> str:
        """``r`` / ``R``: the selected piece to the next multiple of ``TURN_STEP_DEG``
        counter-clockwise / clockwise, about its centre."""
        tid = self._piece()
        if tid is None:
            return "select a terrain piece to turn"
        a = ops.piece_angle(self.state.terrain_piece(tid))
        k = math.floor(a / TURN_STEP_DEG + 1e-4) if sign > 0 else math.ceil(a / TURN_STEP_DEG - 1e-4)
        target = (k + sign) * TURN_STEP_DEG
        new = ops.turn_piece(self.state, tid, target - a)
        off = self.off_table(new, tid)
        warn = f" - it would {off}: turn on or move it (t)" if off else ""
        return self.app.edit(new, f"turned {tid} to {target % 180:g} deg{warn}"
                                  + self._overlap_warning(new, tid))

    def mirror(self) -> str:
        """``m``: the selected piece mirrored in its short axis."""
        tid = self._piece()
        if tid is None:
            return "select a terrain piece to mirror"
        new = ops.mirror_piece(self.state, tid)
        return self.app.edit(new, f"mirrored {tid}" + self._overlap_warning(new, tid))

    def cycle_kind(self) -> str:
        """``k``: the selected piece's kind, the next of the map format's kinds.  A kind
        outside ``WALLED_KINDS`` drops the piece's walls, and a template's name ("ruin 6x4")
        takes the new kind ("obstacle 6x4")."""
        tid = self._piece()
        if tid is None:
            return "select a terrain piece to change its kind"
        kinds = ("ruin", "woods", "obstacle", "impassable", "hill", "building")
        t = self.state.terrain_piece(tid)
        kind = kinds[(kinds.index(t.kind) + 1) % len(kinds)] if t.kind in kinds else kinds[0]
        tall = t.tall_part if kind in WALLED_KINDS else None
        name = t.name
        if name and re.fullmatch(re.escape(t.kind) + r" \d+(\.\d+)?x\d+(\.\d+)?", name):
            name = kind + name[len(t.kind):]     # a template's name: "ruin 6x4" -> "obstacle 6x4"
        new = replace(t, kind=kind, tall_part=tall, name=name)
        terrain = tuple(new if p.id == tid else p for p in self.state.terrain)
        dropped = ", its walls dropped" if t.tall_part and not tall else ""
        return self.app.edit(replace(self.state, terrain=terrain), f"{tid} is now {kind}{dropped}")

    def cycle_walls(self) -> str:
        """``w``: the selected piece's walls, the next of ``WALL_FORMS`` (L, whole, long
        side, short side, none) that fits its outline; only a kind of ``WALLED_KINDS``."""
        tid, refused = self._walled_piece()
        if refused:
            return refused
        t = self.state.terrain_piece(tid)
        now = wall_form_of(t.polygon, t.tall_part)
        k = WALL_FORMS.index(now) + 1 if now in WALL_FORMS else 0
        for step in range(len(WALL_FORMS)):
            form = WALL_FORMS[(k + step) % len(WALL_FORMS)]
            try:
                tall = wall_form(t.polygon, form)
            except ValueError:
                continue
            return self._set_walls(tid, tall, WALL_TEXT[form])
        return f"{tid}: no wall form fits it"   # unreachable: "whole" fits any outline

    def _walled_piece(self) -> tuple[str, str]:
        """(the selected piece's id, "") when it is a kind of ``WALLED_KINDS``, else ("",
        the panel's reason)."""
        tid = self._piece()
        if tid is None:
            return "", "select a terrain piece to set its walls"
        kind = self.state.terrain_piece(tid).kind
        if kind not in WALLED_KINDS:
            return "", f"{tid}: a piece of kind {kind} has no walls (k: its kind)"
        return tid, ""

    def _set_walls(self, tid: str, tall, said: str) -> str:
        terrain = tuple(replace(p, tall_part=tall) if p.id == tid else p for p in self.state.terrain)
        return self.app.edit(replace(self.state, terrain=terrain), f"{tid}: walls {said}")

    def _walls_typed(self, line: str) -> str:
        """``W`` then ``8`` / ``block 8``: a wall block the full depth, 8" along the long
        side from its first end; ``long 8`` / ``short 3``: a band that long from the first
        corner; ``whole`` / ``none`` / ``L`` as ``w`` gives them."""
        tid, refused = self._walled_piece()
        if refused:
            return refused
        t = self.state.terrain_piece(tid)
        words = line.split()
        if len(words) == 1 and words[0] not in WALL_FORMS:
            words = ["block", words[0]]
        if not words or len(words) > 2 or words[0] not in WALL_FORMS + ("block",):
            return f"{line!r}: type a length (a wall block), or long 8, short 3, whole, none"
        length = None
        if len(words) == 2:
            try:
                length = float(words[1])
            except ValueError:
                return f"{line!r}: {words[1]!r} is not a length in inches"
        try:
            tall = wall_form(t.polygon, words[0], length)
        except ValueError as exc:
            return f"{line!r}: {exc}"
        said = WALL_TEXT.get(words[0], "") if length is None else {
            "block": f"a block {length:g}\" along the long side from its first end",
            "long": f"{length:g}\" along the long side", "short": f"{length:g}\" along the short side",
            "L": "in an L"}[words[0]]
        return self._set_walls(tid, tall, said)

    def rename(self, line: str) -> str:
        """``i`` then a name: the selected piece's or objective's new id (``B``, ``B2``,
        ``north``), unique among units, pieces and objectives; letters, digits, ``-``,
        ``_`` and ``.``."""
        item = self.selected
        if item is None or item.startswith("zone:") or not self.exists(item):
            return "select a piece or objective to rename"
        new = line.strip()
        if not new or not all(c.isalnum() or c in "-_." for c in new):
            return f"{line!r}: an id is letters, digits, - _ or ."
        if new == item:
            return f"{item} keeps its id"
        if new in ops._taken(self.state):
            return f"{new!r}: that id is taken"
        st = self.state
        st = replace(st, terrain=tuple(replace(t, id=new) if t.id == item else t for t in st.terrain),
                     objectives=tuple(replace(o, id=new) if o.id == item else o for o in st.objectives))
        self.selected = new
        return self.app.edit(st, f"renamed {item} to {new}")

    def delete(self) -> str:
        if self.selected is None or not self.exists(self.selected):
            return "select an item to delete"
        item, self.selected = self.selected, None
        return self.app.edit(ops.remove(self.state, item), f"deleted {item}")

    def mirror_table(self) -> str:
        """``M``: every piece, objective and zone gets its twin about the table centre."""
        before = self.state
        new = ops.mirror_table(before)
        added = (len(new.terrain) - len(before.terrain), len(new.objectives) - len(before.objectives),
                 len(new.deployment) - len(before.deployment))
        clash = ops.twin_overlaps(before, new)
        warn = ("; warning: " + ", ".join(f"{a} lands on {b}" for a, b in clash)) if clash else ""
        return self.app.edit(new, f"mirrored the table: {plural(added[0], 'piece')}, "
                                  f"{plural(added[1], 'objective')}, {plural(added[2], 'zone')} "
                                  f"twinned about the centre{warn}")

    def flip_table(self) -> str:
        """``x``: the whole table reflected left to right - terrain, objectives, zones and
        units (an organiser flipping a layout means the armies to stay in their zones)."""
        n = len(self.state.units)
        units = f", {n} units with it" if n else ""
        return self.app.edit(ops.flip_table(self.state), f"flipped the table left to right{units}")

    def next_deployment(self) -> str:
        """``D``: the zones of the next reference deployment, for the first two players,
        in place of the map's zones."""
        names = list(REFERENCE_DEPLOYMENTS)
        name = names[self.deploy_next % len(names)]
        self.deploy_next += 1
        players = [p.id for p in self.state.players][:2]
        st = replace(self.state, deployment=())
        t = st.table
        for pid, (edge, depth) in zip(players, REFERENCE_DEPLOYMENTS[name]):
            st = ops.add_zone(st, pid, edge_zone(edge, depth, t.width, t.depth), f"{name} ({pid})")
        return self.app.edit(st, f"deployment: {name}")

    def next_player(self) -> str:
        ids = [p.id for p in self.state.players]
        if not ids:
            return "the map has no players"
        self.player = ids[(ids.index(self.player) + 1) % len(ids)] if self.player in ids else ids[0]
        return f"zones and units now go to {self.player}"

    # ------------------------------------------------------------ typing
    def start_entry(self, purpose: str, opened_by: str = "") -> str:
        """Open a typed line for ``purpose`` (``edge`` | ``formation`` | ``walls`` |
        ``rename``).  ``opened_by`` is the text of the key that opened it: pygame sends that
        key's ``TEXTINPUT`` right after its ``KEYDOWN``, and it is not typed into the line."""
        if purpose in ("edge", "rename") and (self.selected is None or not self.exists(self.selected)):
            return ("select an item, then t and an edge and a distance (left 6)" if purpose == "edge"
                    else "select a piece or objective, then i and its new id")
        if purpose == "walls" and self._piece() is None:
            return "select a terrain piece, then W and a wall length (8, long 8, short 3)"
        self.entry = Entry(purpose, skip=opened_by)
        return {"edge": "type an edge and a distance (left 6, top 12.5), Enter",
                "formation": f"type N SIZE FRONTAGE, Enter (empty: {self.formation})",
                "walls": "type a wall block's length (8), or long 8, short 3, whole, none; Enter",
                "rename": f"type the new id of {self.selected}, Enter"}[purpose]

    def type_text(self, s: str) -> None:
        e = self.entry
        if e is None:
            return
        if e.skip and s == e.skip:
            e.skip = ""             # the echo of the key that opened the line
            return
        e.skip = ""
        e.text += s

    def key_in_entry(self) -> None:
        """A key was pressed while the line is open: its text is the user's, not an echo."""
        if self.entry is not None:
            self.entry.skip = ""

    def backspace(self) -> None:
        if self.entry is not None:
            self.entry.skip = ""
            self.entry.text = self.entry.text[:-1]

    def enter(self) -> str | None:
        """``Enter``: finish the typed line, or close the polygon."""
        e = self.entry
        if e is None:
            return self.close_polygon() if self.tool == "polygon" else None
        self.entry = None
        if e.purpose == "edge":
            return self._edge(e.text)
        if e.purpose == "walls":
            return self._walls_typed(e.text)
        if e.purpose == "rename":
            return self.rename(e.text)
        return self._formation(e.text)

    def _edge(self, line: str) -> str:
        words = line.lower().split()
        if len(words) != 2 or words[0] not in ops.EDGES:
            return f"{line!r}: type an edge and a distance, e.g. left 6"
        try:
            d = float(words[1])
        except ValueError:
            return f"{line!r}: {words[1]!r} is not a distance in inches"
        if not (math.isfinite(d) and 0 <= d <= max(self.state.table.width, self.state.table.depth)):
            return f"{line!r}: a distance from an edge is 0 to the table's side"
        item = self.selected
        new = ops.edge_distance(self.state, item, words[0], d)
        off = self.off_table(new, item)
        if off:
            return f"{line!r}: {item} not moved: it would {off}"
        return self.app.edit(new,
                             f"{item}: nearest extent {d:g}\" from the {words[0]} edge"
                             + self._overlap_warning(new, item))

    def _formation(self, line: str) -> str:
        words = (line.strip() or self.formation).split()
        try:
            n, base, f = int(words[0]), words[1], int(words[2])
            parse_base(base)
        except (ValueError, IndexError, TabletopError):
            return f"{line!r}: type N SIZE FRONTAGE, e.g. 10 32mm 5"
        if not (1 <= n <= 200 and 1 <= f <= n):
            return f"{line!r}: 1 to 200 models, a frontage of 1 to N"
        self.formation = f"{n} {base} {f}"
        self.tool = "formation"
        return f"click to place {self.formation}"

    # ------------------------------------------------------------ units
    def _facing(self, at: XY) -> float:
        """The way a unit dropped at ``at`` faces (degrees), the same for every unit of a
        player as ``tabletop roster`` faces an army (``roster.deploy.army_facing``): from
        the player's zone (the one holding ``at``, else the nearest) towards the table's
        centre, squared to the table edges; with no zone of its own, away from the other
        side's zone; on a table with no zones, towards the table's centre from ``at``."""
        from tabletop.roster.deploy import army_facing
        t = self.state.table

        def centre_gap(z) -> float:
            xs = [p[0] for p in z.polygon]
            ys = [p[1] for p in z.polygon]
            return math.hypot((min(xs) + max(xs)) / 2 - at[0], (min(ys) + max(ys)) / 2 - at[1])

        mine = [z for z in self.state.deployment if z.player == self.player]
        if mine:
            z = next((z for z in mine if ops.contains(z.polygon, *at)), None) or min(
                mine, key=centre_gap)
            return army_facing(self.state, z)
        theirs = [z for z in self.state.deployment if z.player != self.player]
        if theirs:
            # the enemy's zone faces the centre; this army faces the other way round
            return (army_facing(self.state, min(theirs, key=centre_gap)) + 180.0) % 360.0
        dx, dy = t.width / 2 - at[0], t.depth / 2 - at[1]
        if abs(dx) < 1e-9 and abs(dy) < 1e-9:
            return 90.0
        return (round(math.degrees(math.atan2(dy, dx)) / 90.0) * 90.0) % 360.0

    def drop_unit(self, at: XY) -> str:
        """A unit for ``player`` at ``at`` (inches): the next roster unit (``unit`` tool), laid
        out as ``tabletop roster`` lays it first (``roster.deploy.first_layout``: a cluster
        within the coherency spread for 40K, a block for rank-and-flank), its first model at
        ``at``; or the typed formation, its front edge centred on ``at`` (a block for
        rank-and-flank; for 40K the first of ``formation_layouts`` that keeps coherency).

        Each layout is checked with the geometry snapshot as ``check`` checks a map.  Refused,
        with a one-line message, when no layout keeps every model within the coherency spread
        (core 03.04), when the unit would be out of coherency (03.03/03.04), or when a base
        would overlap another or stand off the table."""
        from tabletop.roster.layout import SpreadError
        if self.player is None:
            return "the map has no players to give a unit to"
        facing = self._facing(at)
        taken = {u.id for u in self.state.units} | {t.id for t in self.state.terrain} | {
            o.id for o in self.state.objectives}
        if self.tool == "unit":
            if not self.roster:
                return self._unit_hint()
            try:
                table, name = self._roster_table(at, facing, taken)
            except SpreadError:
                return self._too_wide(self._roster_name())
            tries = [(table, "")]
        else:
            n, base, f = self.formation.split()
            name = f"{n} x {base}"
            tries = self._formation_tables(at, facing, int(n), base, int(f))
            if not tries:
                return self._too_wide(name)
        first_bad = None
        first_new: Battlefield | None = None
        for table, note in tries:
            new, bad = self._placed(table)
            if new is None:
                return bad[0]
            first_new = first_new or new
            if not bad:
                if self.tool == "unit":
                    self.roster_next += 1
                uid = table["id"]
                return self.app.edit(new, f"placed {uid} ({name}) at {_pt(at)}, facing "
                                          f"{facing:g} deg" + note + self._zone_warning(new, uid))
            first_bad = first_bad or bad
        hint = ""
        bad = first_bad or []
        if first_new is not None and any(b.endswith("off the table") for b in bad):
            uid = tries[0][0]["id"]
            if self.tool == "formation":
                depth = _depth_behind(first_new, uid, at, facing)
                hint = (f" (the click marks the unit's front centre; it stands {depth:.1f}\" "
                        f"behind it: click further in)")
            else:
                reach = _reach_from(first_new, uid, at)
                hint = (f" (the click marks the unit's first model; the unit reaches "
                        f"{reach:.1f}\" from it: click further in)")
        more = f" and {len(bad) - 3} more" if len(bad) > 3 else ""
        return f"{name} not placed: " + "; ".join(bad[:3]) + more + hint

    def _placed(self, table: dict) -> tuple[Battlefield | None, list[str]]:
        """The map with ``table`` added as a unit and what stops it: its bases overlapping
        others or off the table, else the unit out of coherency, from the geometry snapshot;
        ``(None, [message])`` when the map reader refuses it."""
        from tabletop.geometry import snapshot
        from tabletop.roster.deploy import name_with_units
        data = mapfile.to_dict(self.state)
        data["units"] = list(data.get("units", [])) + [table]
        data["map"]["name"] = name_with_units(data["map"]["name"])     # no longer "(empty)"
        try:
            new = mapfile.from_dict(data, path=self.state.path or "<editor>")
        except TabletopError as exc:
            return None, ["cannot place it: " + "; ".join(exc.problems)]
        geo = snapshot(new)
        uid = table["id"]
        bad = [f"{a} overlaps {b}" for a, b in geo.overlaps
               if uid in (a.rsplit("/", 1)[0], b.rsplit("/", 1)[0])]
        bad += [f"{m} off the table" for m in geo.off_table if m.rsplit("/", 1)[0] == uid]
        if not bad and not geo.in_coherency(uid):
            broken = geo.coherency[uid]
            model = broken.models[0]
            bad.append(f"out of coherency ({COHERENCY_CLAUSE}): {len(broken.models)} of "
                       f"{len(new.unit(uid).models)} models, e.g. {model} "
                       f"{broken.reasons[model]}")
        return new, bad

    def _too_wide(self, name: str) -> str:
        """The refusal for a unit no packing keeps within the coherency spread."""
        from tabletop.roster.deploy import coherency_spread
        spread = coherency_spread(self.state.rules)
        return (f"{name} does not fit within {spread:g}\" ({COHERENCY_CLAUSE}): "
                "use fewer models or smaller bases")

    def _formation_tables(self, at: XY, facing: float, n: int, base: str,
                          files: int) -> list[tuple[dict, str]]:
        """The typed formation's ``[[units]]`` tables to try, best first, each with a note
        for the message when the typed frontage or gap gave way (``formation_layouts``);
        empty when none keeps every model within the coherency spread."""
        uid = ops.free_id(self.state, "unit")
        head: dict = {"id": uid, "name": f"{n} x {base}", "player": self.player, "base": base,
                      "facing": facing}
        if self.state.ruleset == "rank-and-flank":
            from tabletop.roster.layout import block
            laid = block(parse_base(base), [None] * n, facing, files)
            head["formation"] = {"front_centre": list(at), "facing": facing,
                                 "files": laid.files, "ranks": laid.ranks, "count": n}
            return [(head, "")]
        out = []
        for spots, note in formation_layouts(parse_base(base), n, files, facing, self.state.rules):
            table = dict(head)
            table["models"] = [[round(at[0] + x, 4), round(at[1] + y, 4)] for x, y in spots]
            out.append((table, note))
        return out

    def _zone_warning(self, state: Battlefield, uid: str) -> str:
        """" - warning: ..." when the map has zones for the unit's player and a model of
        ``uid`` stands with its centre outside all of them: how many stand outside the
        player's own zone, then, when some of those stand in another player's zone, how
        many in each ("95 of 100 models of attacker stand outside the zone of attacker, 15
        in the zone of defender"); "" otherwise.  A warning, not a refusal: a table can
        show a game under way, where units have left their zones."""
        u = next(x for x in state.units if x.id == uid)
        zones = [z.polygon for z in state.deployment if z.player == u.player]
        if not zones:
            return ""
        out = [m for m in u.models if not any(ops.contains(z, m.x, m.y) for z in zones)]
        if not out:
            return ""
        others = sorted({z.player for z in state.deployment if z.player != u.player})
        inside = [(p, sum(1 for m in out if any(ops.contains(z.polygon, m.x, m.y)
                                                for z in state.deployment if z.player == p)))
                  for p in others]
        theirs = ", ".join(f"{k} in the zone of {p}" for p, k in inside if k)
        return (f" - warning: {len(out)} of {len(u.models)} models of {u.player} stand outside "
                f"the zone of {u.player}" + (f", {theirs}" if theirs else "")
                + " (p: the player units go to)")

    def _roster_name(self) -> str:
        r = self.roster[self.roster_next % len(self.roster)]
        return f"{r.unit.label} ({r.unit.model_count} models)"

    def _roster_table(self, at: XY, facing: float, taken: set[str]) -> tuple[dict, str]:
        """The next roster unit's ``[[units]]`` table, its first model at ``at``, and its
        name.  Raises ``SpreadError`` when no cluster keeps it within the spread."""
        from tabletop.roster.deploy import RULESET, _slug, _unit_table, first_layout
        r = self.roster[self.roster_next % len(self.roster)]
        unit = r.unit
        models = [(m, b) for m, b in zip(unit.models, r.bases) for _ in range(m.count)]
        bases = [parse_base(b) for _, b in models]
        ruleset = RULESET.get(self.system or "40k", self.state.ruleset)
        laid = first_layout(bases, [m.role for m, _ in models], ruleset, facing,
                            self.state.rules.roster_frontage, self.state.rules)
        uid = _slug(unit.name, set(taken))
        return _unit_table(uid, unit, self.player, models, laid, facing, at[0], at[1], ruleset), unit.label

    # ------------------------------------------------------------ saving
    def attach_unsaved(self, editing: bool) -> None:
        """Tell the window's ``Unsaved`` where ``s`` writes (for the quit question, in
        the editor) and, for ``tabletop edit`` (``editing``) on a blank table (no map
        file), where its autosave goes: ``autosave_target()``."""
        un = self.app.unsaved
        un.save_hint = lambda: f"s saves them to {self.save_target()}" if self.active else None
        un.save_target = lambda: self.save_target() if self.active else None
        if editing and un.autosave is None and not self.app.path:
            un.autosave = self.autosave_target()

    def autosave_target(self) -> str:
        """A blank table's autosave: beside ``-o`` (``b.toml`` -> ``b.autosave.toml``), else
        ``BLANK_AUTOSAVE_NAME`` in the folder the command ran in (the next free name when
        one is there already, so an earlier session's work is never written over)."""
        if self.out:
            return autosave_path(self.out)
        if os.path.lexists(BLANK_AUTOSAVE_NAME):
            return mapfile.next_free_path(BLANK_AUTOSAVE_NAME)
        return BLANK_AUTOSAVE_NAME

    def save_target(self) -> str:
        """Where ``s`` writes: ``-o``, else the next free name beside the map (or
        ``DEFAULT_SAVE_NAME`` for a blank table)."""
        if self.out:
            return self.out
        return mapfile.next_free_path(self.app.path or DEFAULT_SAVE_NAME)

    def save(self) -> str | None:
        """``s``: write the table to ``save_target()``.  Over an existing file - above all
        the map that was opened - only once ``y`` answers the question (``app.unsaved``).
        Returns the message."""
        target = self.save_target()
        opened = self.app.path
        if os.path.lexists(target):
            same = bool(opened) and os.path.exists(opened) and os.path.samefile(target, opened)
            what = "the map you opened" if same else "a file that exists"
            return self.app.unsaved.confirm(
                f"overwrite {os.path.basename(target)}",
                f"overwrite {target} ({what})? y: write over it, n: keep it",
                lambda: self.app.message(self._write(target, force=True)))
        return self._write(target, force=False)

    def _write(self, target: str, force: bool) -> str:
        st = self.state
        from tabletop.roster.write import fresh_text, units_appended_text
        text = (units_appended_text(st, self.app.path) or mapfile.edited_text(st, self.app.path)
                or fresh_text(st))
        try:
            write_atomic(target, text, force=force)
        except (OSError, TabletopError) as exc:
            said = f"{target}: cannot write: {exc}"
            self.app.unsaved.save_failed(said)      # the quit question no longer offers s
            return said
        self.app.saved.append(target)
        self.app.unsaved.saved(st)
        return f"saved the table to {target}"

    # ------------------------------------------------------------ panel
    def describe(self, item: str) -> str:
        """One line about an item: what it is, its centre and its distances to the edges."""
        st = self.state
        x0, y0, x1, y1 = ops.extent(self.outline(item))
        W, D = st.table.width, st.table.depth
        c = self.centre(item)
        edges = (f"left {_num(x0)}, right {_num(W - x1)}, bottom {_num(y0)}, "
                 f"top {_num(D - y1)}")
        if item.startswith("zone:"):
            z = st.deployment[int(item.split(":", 1)[1])]
            return f"{item}: zone of {z.player}; {edges}"
        if any(o.id == item for o in st.objectives):
            return f"{item}: objective at {_pt(c)}; {edges}"
        t = st.terrain_piece(item)
        walls = ", walls" if t.tall_part else ""
        return (f"{item}: {t.kind}{walls}, centre {_pt(c)}, turned {ops.piece_angle(t):g} deg; "
                f"{edges}")

    def lines(self) -> list[str]:
        """The panel's info box in the editor."""
        out = [f"table editor - tool: {self.tool}"]
        if self.entry is not None:
            out.append(f"> {self.entry.text}_")
        if self.selected is not None and self.exists(self.selected):
            out.append(self.describe(self.selected))
        out.append(f"zones and units go to: {self.player}")
        st = self.state
        out.append(f"{plural(len(st.terrain), 'piece')}, {plural(len(st.objectives), 'objective')}, "
                   f"{plural(len(st.deployment), 'zone')}, {plural(len(st.units), 'unit')}")
        out.append(f"s saves to {self.save_target()}")
        return out


def formation_layouts(base: Any, n: int, files: int, facing_deg: float,
                      rules: Any) -> list[tuple[list[XY], str]]:
    """A 40K formation of ``n`` models on ``base``, as the layouts to try, best first, each
    with a note for the message ("" for the layout as typed).

    First the typed frontage as ``tabletop roster`` lays a grid, ``files`` abreast at
    ``rules.roster_model_gap`` (inches), then at the roster's tighter gaps down to
    ``rules.roster_min_model_gap``; then the roster's own packing (``roster.layout.cluster``:
    a square grid, else a round hexagonal blob).  Layouts that break the coherency spread
    (core 03.04, ``rules.coherency_spread``) are left out; the caller checks the rest with
    the snapshot (the 2" rule, 03.03).  Spots are inches relative to the middle of the front
    row's front edge (where a block's front centre is), the army facing ``facing_deg``.
    Empty: no packing keeps the spread.
    """
    from tabletop.roster.deploy import coherency_spread
    from tabletop.roster.layout import SPREAD_MARGIN, SpreadError, cluster, grid, spread_of
    bases = [base] * n
    spread = coherency_spread(rules)
    wide = max(1, min(files, n))
    top, low = rules.roster_model_gap, rules.roster_min_model_gap
    gaps = sorted({top} | {g for g in (top / 2, 0.25, low) if low <= g < top}, reverse=True)
    tries = [(grid(bases, facing_deg, g, wide).spots,
              "" if g == top else f" ({wide} abreast, {g:g}\" apart)") for g in gaps]
    try:
        packed = cluster(bases, facing_deg, top, spread, low)
        tries.append((packed.spots, f" (packed as a cluster: {wide} abreast breaks "
                                    f"{COHERENCY_CLAUSE})"))
    except SpreadError:
        pass
    t = math.radians(facing_deg)
    out = []
    for spots, note in tries:
        if spread is not None and n > 1 and spread_of(bases, list(spots)) > spread - SPREAD_MARGIN:
            continue
        ahead = [x * math.cos(t) + y * math.sin(t) for x, y in spots]
        front = [p for p, a in zip(spots, ahead) if a >= max(ahead) - 1e-6]
        cx = sum(p[0] for p in front) / len(front) + math.cos(t) * base.along / 2
        cy = sum(p[1] for p in front) / len(front) + math.sin(t) * base.along / 2
        out.append(([(x - cx, y - cy) for x, y in spots], note))
    return out


def _depth_behind(state: Battlefield, uid: str, at: XY, facing: float) -> float:
    """How far (inches) unit ``uid`` of ``state`` reaches behind ``at`` against ``facing``
    (degrees): the largest distance of a model's centre behind ``at`` along the facing,
    plus half that model's base depth.  What a formation's refusal tells the user: the
    click marks its front centre and the models stand behind it."""
    fx, fy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    return max(-((m.x - at[0]) * fx + (m.y - at[1]) * fy) + m.base.along / 2
               for m in state.unit(uid).models)


def _reach_from(state: Battlefield, uid: str, at: XY) -> float:
    """How far (inches) unit ``uid`` of ``state`` reaches from ``at``: the largest distance
    of a model's centre from it plus half that model's longer base side.  What a roster
    unit's refusal tells the user: the click marks its first model."""
    return max(math.hypot(m.x - at[0], m.y - at[1]) + max(m.base.along, m.base.across) / 2
               for m in state.unit(uid).models)


def _pt(p: XY) -> str:
    return f"({_num(p[0])}, {_num(p[1])})"


def _num(v: float) -> str:
    """Inches for the panel: to the hundredth, never -0 nor 1e-06 (27.999999 -> 28)."""
    r = round(v, 2)
    return f"{0.0 if r == 0 else r:g}"
