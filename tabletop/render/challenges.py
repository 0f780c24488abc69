"""Drawers for the challenge steps (keys worked out in ``render/challenge_keys.py``).

``DRAWERS`` (read by ``steps.DRAWERS``, the one table of drawers):

- ``challenge``: the gambit challenge's pair set aside beside the combat (a
  dashed box, the two bases in base contact, their names, a cross on a model
  removed, a dashed leader back to the combat); for a character challenge
  (no ``models``): a gold ring round each duellist and crossed swords between.
- ``gambits``: the gambits chosen this Face-Off (who chose first, any gambit
  Feint and Riposte named).
- ``focus_roll``: each Focus Roll: dice, every modifier by name, the total and
  the Challenge Advantage (``advantage``).
- ``support``: the friendly models counted for outside support, ringed in
  their player's colour with the bonus beside them.
- ``blows``: the Strike Step per model: attacks, hits, wounds, unsaved, lost.
- ``points``: the Glory Step's combat resolution points (``reason``).
- ``returned``: where returning models are placed: a ring and an arrow from
  where they stood.
- ``disgraced``: a red ring and "DISGRACED" on each such model.
- ``scores``/``overkill``: a character challenge's combat score and counted overkill.

Panels stack in the frame's bottom-right corner; everything on the table is
drawn from inches through the view.
"""

from __future__ import annotations

import math

import pygame

from tabletop.geometry.footprints import base_polygon
from tabletop.geometry.placement import ASIDE_GAP, ASIDE_LABEL, ASIDE_PAD
from tabletop.render import prims
from tabletop.render.board import Canvas, draw_base, ring_model
from tabletop.render.label_place import LABEL_RINGS, LEADER_AFTER_PX, LabelPlacer, around
from tabletop.render.rank_and_flank import _PANELS, PANEL_PLATE
from tabletop.render.theme import shade

# named defaults: colours
DUEL_GOLD = (215, 170, 20)
DISGRACE_RED = (190, 20, 20)
PANEL_TEXT = (25, 25, 25)
RULER_CLEAR = 4            # px between the panels and the table's bottom edge (the ruler below it)


def _panel(c: Canvas, lines, colours, border) -> None:
    """A text plate in the bottom-right stack the rank-and-flank panels share (no overlaps),
    kept above the table's bottom ruler when that ruler is in the frame (``RULER_CLEAR`` px)."""
    size = prims.text_size(lines, pad=6, spacing=2)
    sw, sh = c.surface.get_size()
    r = c.table_rect()
    floor = sh - 10
    if r.bottom < sh:                              # the inch ruler runs under the table's edge
        floor = min(floor, r.bottom - RULER_CLEAR)
    x = sw - size[0] - 10
    y = floor - size[1]
    stack = _PANELS.setdefault(id(c), [])
    for k in list(_PANELS)[:-8]:                   # frames long drawn (as the shared stack does)
        if k != id(c):
            _PANELS.pop(k, None)
    for rect in sorted(stack, key=lambda q: -q.bottom):
        if rect.left < x + size[0] and x < rect.right and rect.top < y + size[1] and y < rect.bottom:
            y = rect.top - size[1] - 8
    if pygame.Rect((x, y), size).collidelist(c.bases + c.taken) >= 0:
        # the stacked place hides a model: the first place down a side of the table that
        # covers no base, panel or label (``render.label_place``), else the stacked place
        spot = LabelPlacer(c.surface.get_rect(), c.bases, c.taken).free(
            _panel_places(r.clip(c.surface.get_rect()), size, floor))
        if spot is not None:
            x, y = spot.topleft
    rect = prims.text_plate(c.surface, lines, (x, y), PANEL_TEXT, PANEL_PLATE, border, pad=6, spacing=2,
                            colours=colours)
    stack.append(rect)
    c.taken.append(rect)


def _panel_places(table: pygame.Rect, size: tuple[int, int], floor: int) -> list[pygame.Rect]:
    """Places for a panel of ``size`` px when the stacked corner hides a model, in order: up
    the table's right side, then its left side, from the bottom, a panel height at a time."""
    w, h = size
    out = []
    for x in (table.right - w - 10, table.left + 10):
        y = floor - h
        while y >= table.top:
            out.append(pygame.Rect(x, y, w, h))
            y -= h // 2 + 4
    return out


def _pcol(c: Canvas, player: str):
    return c.colours.get(player, (90, 90, 90))


def _name(m) -> str:
    return f"{m.name} ({m.id})" if getattr(m, "name", None) else m.id


def draw_challenge(c: Canvas, value: dict) -> None:
    """The pair set aside beside the combat, or the two duellists ringed on the table."""
    if not value:
        return
    t = c.theme
    models = value.get("models") or {}
    aside = value.get("aside") or {}
    if not models or not aside:
        ids = set(c.geo.ids)
        pair = [m for m in (value.get("challenger"), value.get("challenged")) if m and m in ids]
        for mid in pair:
            ring_model(c, mid, DUEL_GOLD, 4, 4)
        if len(pair) == 2:
            a, b = (c.geo.model(m) for m in pair)
            pa, pb = c.pt(a.x, a.y), c.pt(b.x, b.y)
            mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
            # the words go where they cover no base or panel (``render.label_place``):
            # beside the pair first, further out when the blocks round it are packed
            text = f"challenge: {pair[0]} v {pair[1]}"
            tw, th = prims.font(t.font_small).size(text)
            reach = c.px(max(a.base.radius, b.base.radius)) + 4
            pair_box = prims.bbox([pa, pb], round(reach))
            placer = LabelPlacer(c.table_rect().inflate(40, 40).clip(c.surface.get_rect()),
                                 c.bases, c.taken)
            spot = placer.place("challenge", text, around(pair_box, (tw + 4, th + 2),
                                                          rings=LABEL_RINGS * 3), pair_box).rect
            if not spot.inflate(2 * LEADER_AFTER_PX, 2 * LEADER_AFTER_PX).colliderect(pair_box):
                end = (min(max(spot.centerx, pair_box.left), pair_box.right),
                       min(max(spot.centery, pair_box.top), pair_box.bottom))
                start = (min(max(end[0], spot.left), spot.right),
                         min(max(end[1], spot.top), spot.bottom))
                pygame.draw.line(c.surface, shade(DUEL_GOLD, 0.5), start, end, 2)
            prims.outlined_text(c.surface, text, t.font_small, shade(DUEL_GOLD, 0.5),
                                (255, 255, 255), spot.center, anchor="center")
            c.taken.append(spot)
            _swords(c, mid, max(8.0, c.px(0.35)))
        return
    removed = set(value.get("removed") or [])
    box = _aside_rect(c, value, models, aside)
    c.taken.append(pygame.Rect(box))        # panels and labels keep off the pair set aside
    prims.fill_polygon(c.surface, [box.topleft, box.topright, box.bottomright, box.bottomleft], (255, 248, 220, 200))
    prims.dashed_polyline(c.surface, [box.topleft, box.topright, box.bottomright, box.bottomleft],
                          shade(DUEL_GOLD, 0.8), 2, 8, 5, closed=True)
    title = "set aside: challenge"
    if prims.text_size([(title, t.font_small)])[0] <= box.width + 2 * c.px(ASIDE_GAP):
        prims.text(c.surface, title, t.font_small, shade(DUEL_GOLD, 0.5), (box.centerx, box.top - 2),
                   anchor="midbottom")
    players = value.get("players") or []
    n = len(models)
    for k, (mid, m) in enumerate(models.items()):
        x, y = aside[mid]
        player = players[k] if k < len(players) else None
        col = _pcol(c, player) if player else (128, 128, 128)
        fp = base_polygon(m.base, x, y, m.facing_deg)
        draw_base(c.surface, c.view, fp, m.moved_to(x, y), col, t, alpha=90 if mid in removed else 255)
        sx, sy = c.pt(x, y)
        if mid in removed:
            size = max(6.0, c.px(m.base.radius) * 0.7)
            prims.cross(c.surface, (sx, sy), size + 1, (255, 255, 255), 7)
            prims.cross(c.surface, (sx, sy), size, DISGRACE_RED, 4)
    # the names, one line each, in the strip under the bases: only when they fit the box
    _aside_names(c, box, [_name(m) for m in models.values()], [m.id for m in models.values()], n)
    combat = value.get("combat") or []
    cms = [m for u in combat if c.state.has_unit(u) for m in c.state.unit(u).models]
    if cms:
        cx = sum(m.x for m in cms) / len(cms)
        cy = sum(m.y for m in cms) / len(cms)
        end = (box.left if box.centerx >= c.pt(cx, cy)[0] else box.right, box.centery)
        prims.dashed_polyline(c.surface, [c.pt(cx, cy), end], shade(DUEL_GOLD, 0.8), 2, 6, 5)


def _aside_rect(c: Canvas, value: dict, models: dict, aside: dict) -> pygame.Rect:
    """The set-aside box on screen: the rules' box in table inches (``placement.aside_box``), or,
    for a step written without one, the bases' extent grown by ``ASIDE_PAD`` inches."""
    b = value.get("box")
    if b:
        (x0, y1), (x1, y0) = c.pt(b[0], b[3]), c.pt(b[2], b[1])
        return pygame.Rect(round(x0), round(y1), round(x1 - x0), round(y0 - y1))
    pts = []
    for mid, m in models.items():
        x, y = aside[mid]
        pts += c.pts(base_polygon(m.base, x, y, m.facing_deg).exterior.coords)
    return prims.bbox(pts, c.px(ASIDE_PAD))


def _aside_names(c: Canvas, box: pygame.Rect, names: list[str], ids: list[str], n: int) -> None:
    """Names (else ids) of the set-aside models in the box's bottom strip, when they fit inside it."""
    t = c.theme
    for labels in (names, ids):
        sizes = [prims.text_size([(s, t.font_small)]) for s in labels]
        strip = c.px(ASIDE_LABEL)
        if max(w for w, _ in sizes) <= box.width - 6 and sum(h for _, h in sizes) <= strip + c.px(ASIDE_PAD):
            y = box.bottom - 3 - sum(h for _, h in sizes)
            for s, (_, h) in zip(labels, sizes):
                prims.outlined_text(c.surface, s, t.font_small, PANEL_TEXT, (255, 255, 255), (box.centerx, y),
                                    anchor="midtop")
                y += h
            return


def _swords(c: Canvas, centre, r: float) -> None:
    x, y = centre
    for sgn in (1, -1):
        a, b = (x - r, y - sgn * r), (x + r, y + sgn * r)
        pygame.draw.line(c.surface, (255, 255, 255), a, b, 6)
        pygame.draw.line(c.surface, shade(DUEL_GOLD, 0.7), a, b, 3)


def draw_gambits(c: Canvas, value: dict) -> None:
    t = c.theme
    draw = getattr(c, "draw", {}) or {}
    first = draw.get("first")
    lines = [("Face-Off: gambits", t.font_label)]
    colours = [PANEL_TEXT]
    for player, name in (value or {}).items():
        tag = " (chose first)" if player == first else ""
        lines.append((f"{player}: {name}{tag}", t.font_label))
        colours.append(shade(_pcol(c, player), 0.7))
    for b in draw.get("banned") or []:
        lines.append((f"Feint and Riposte names {b}: not allowed to the other player", t.font_small))
        colours.append((120, 70, 0))
    _panel(c, lines, colours, DUEL_GOLD)


def draw_focus(c: Canvas, value: dict) -> None:
    t = c.theme
    adv = (getattr(c, "draw", {}) or {}).get("advantage")
    lines = [("Focus Rolls", t.font_label)]
    colours = [PANEL_TEXT]
    for player, rec in (value or {}).items():
        dice = rec.get("dice") or []
        mods = rec.get("modifiers") or {}
        parts = " ".join(f"{v:+d} {k}" for k, v in mods.items())
        if len(dice) > 1:
            how = "lowest discarded" if rec.get("keep") == "highest" else "highest discarded"
            roll = f"{len(dice)}D6 [{', '.join(map(str, dice))}], {how}: {rec.get('kept')}"
        else:
            roll = f"D6 [{dice[0]}]" if dice else "D6"
        lines.append((f"{player}: {roll} {parts} = {rec.get('total')}", t.font_label))
        colours.append(shade(_pcol(c, player), 0.7))
        if rec.get("dropped"):
            lines.append((f"   no bonus from: {', '.join(rec['dropped'])}", t.font_small))
            colours.append((120, 70, 0))
    if adv:
        lines.append((f"Challenge Advantage: {adv} (strikes first, +1 attack)", t.font_label))
        colours.append(shade(_pcol(c, adv), 0.6))
    _panel(c, lines, colours, DUEL_GOLD)


def draw_support(c: Canvas, value: dict) -> None:
    """Ring every friendly model counted for outside support; a panel line per player."""
    ids = set(c.geo.ids)
    t = c.theme
    lines = [("Outside support (counted models ringed)", t.font_label)]
    colours = [PANEL_TEXT]
    for player, rec in (value or {}).items():
        col = _pcol(c, player)
        counted = [m for m in rec.get("models") or [] if m in ids]
        for mid in counted:
            ring_model(c, mid, shade(col, 0.7), 3, 3)
        lines.append((f"{player}: {len(counted)} model{'s' if len(counted) != 1 else ''} -> "
                          f"+{rec.get('bonus', 0)}", t.font_small))
        colours.append(shade(col, 0.7))
    _panel(c, lines, colours, (120, 120, 120))


def draw_blows(c: Canvas, value: dict) -> None:
    t = c.theme
    lines = [("Strike Step", t.font_label)]
    colours = [PANEL_TEXT]
    for mid, b in (value or {}).items():
        lines.append((f"{mid}: {b.get('attacks')} attacks, {b.get('hits')} hits, {b.get('wounds')} wounds, "
                      f"{b.get('unsaved')} unsaved, {b.get('damage')} Wounds lost by the foe", t.font_small))
        colours.append(PANEL_TEXT)
    _panel(c, lines, colours, (120, 120, 120))


def draw_points(c: Canvas, value: dict) -> None:
    t = c.theme
    reason = (getattr(c, "draw", {}) or {}).get("reason", "")
    if value:
        lines = [(f"Glory: won by {p}, +{n} combat resolution", t.font_caption) for p, n in value.items()]
        colours = [shade(_pcol(c, p), 0.6) for p in value]
    else:
        lines, colours = [("Glory: a draw, no points", t.font_caption)], [PANEL_TEXT]
    if reason:
        lines.append((reason, t.font_small))
        colours.append((60, 60, 60))
    _panel(c, lines, colours, DUEL_GOLD)


def draw_returned(c: Canvas, value: dict) -> None:
    ids = set(c.geo.ids)
    for mid, rec in (value or {}).items():
        if mid not in ids:
            continue
        ring_model(c, mid, (40, 160, 80), 4, 4)
        at, frm = rec.get("at"), rec.get("from")
        m = c.geo.model(mid)
        if frm and math.hypot(at[0] - frm[0], at[1] - frm[1]) > 0.05:
            prims.dashed_circle(c.surface, c.pt(*frm), c.px(m.base.radius), (40, 160, 80), 2)
            prims.arrow(c.surface, [c.pt(*frm), c.pt(*at)], (40, 160, 80), 3, 10)
    t = c.theme
    lines = [("Resolution: models that fought the challenge return (ringed green)", t.font_label)]
    for mid, rec in (value or {}).items():
        at, frm = rec.get("at"), rec.get("from")
        moved = f", {math.hypot(at[0] - frm[0], at[1] - frm[1]):.2f}\" from where it stood" if frm else ""
        lines.append((f"{mid} at ({at[0]:.2f}, {at[1]:.2f}){moved}", t.font_small))
    _panel(c, lines, [PANEL_TEXT] * len(lines), (40, 160, 80))


def draw_disgraced(c: Canvas, value) -> None:
    ids = set(c.geo.ids)
    for mid in value or []:
        if mid not in ids:
            continue
        ring_model(c, mid, DISGRACE_RED, 4, 4)
        m = c.geo.model(mid)
        sx, sy = c.pt(m.x, m.y)
        prims.outlined_text(c.surface, "DISGRACED", c.theme.font_small, DISGRACE_RED, (255, 255, 255),
                            (sx, sy - c.px(m.base.radius) - 12))


def draw_scores(c: Canvas, value: dict) -> None:
    t = c.theme
    over = (getattr(c, "draw", {}) or {}).get("overkill") or {}
    lines = [("Challenge: combat score", t.font_label)]
    colours = [PANEL_TEXT]
    for p, n in (value or {}).items():
        extra = f" (overkill +{over[p]} counted, at most +3)" if over.get(p) else ""
        lines.append((f"{p}: +{n}{extra}", t.font_label))
        colours.append(shade(_pcol(c, p), 0.7))
    _panel(c, lines, colours, DUEL_GOLD)


DRAWERS = {key: (fn, layer) for key, fn, layer in (
    ("challenge", draw_challenge, "over"), ("gambits", draw_gambits, "over"),
    ("focus_roll", draw_focus, "over"), ("support", draw_support, "over"),
    ("blows", draw_blows, "over"), ("points", draw_points, "over"),
    ("returned", draw_returned, "over"), ("disgraced", draw_disgraced, "over"),
    ("scores", draw_scores, "over"))}
"""The challenge draw keys (``step_draw.draw_of``): ``{key: (fn(canvas, value), layer)}``."""
