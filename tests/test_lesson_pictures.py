"""Lesson pictures (``tabletop lesson --gif``): what a frame shows (issue 10 item 2 leftovers).

- a unit that turns to face (flank-charge, rank-and-flank-combat.txt Fleeing: a unit that
  held with one enemy on its flank turns to face it) slides as one body, so no two bases
  overlap on any frame of the slide (``render.lesson_slide.Slide``), checked with the
  geometry layer's own overlap test on each frame's positions;
- a unit whose every model slides keeps its label plate on the sliding models;
- in the surrounded lesson no label or note box covers a base;
- every frame of every shipped lesson shows the whole table (the consolidation lesson used to
  zoom on its focus and crop the top of the board).
"""

from __future__ import annotations

import math
from pathlib import Path

import pygame
import pytest

from tabletop.board import mapfile
from tabletop.geometry import snapshot
from tabletop.geometry.footprints import base_polygon
from tabletop.render import lesson_draw, prims
from tabletop.render.lesson_draw import LessonPainter
from tabletop.render.lesson_movie import GIF_SIZE
from tabletop.render.lesson_plan import build_lesson
from tabletop.render.motion import MOVE_ANIMATION_FRAMES, point_along
from tabletop.render.theme import DEFAULT_THEME
from tests.mapkit import lesson_painter

LESSONS = Path(__file__).resolve().parent.parent / "maps" / "lessons"
WINDOW_SIZE = (1366, 768)       # app.lesson_window.LESSON_WINDOW_SIZE


@pytest.fixture(scope="module", autouse=True)
def _fonts():
    pygame.font.init()
    yield


@pytest.fixture(scope="module")
def flank():
    """The flank-charge lesson, its "Turning to face" page and one painter for the session:
    the painter plans the page's slide once (``LessonPainter.slide``, the slow part: some
    seconds) and every test here reads that plan; each draw starts its labels afresh
    (``painter.labels``), so no test sees another's."""
    lesson, painter = lesson_painter("flank-charge")    # shared with test_label_place.py
    n = next(k for k, p in enumerate(lesson.pages) if p.entry.title == "Turning to face")
    assert painter.slide_frames == MOVE_ANIMATION_FRAMES and painter.size == GIF_SIZE
    return lesson, n, painter


def test_the_turn_to_face_slide_never_lays_a_base_over_another(flank):
    lesson, n, painter = flank
    page = lesson.pages[n]
    before, after = lesson.pages[n - 1].step.state, page.step.state
    # the spearmen (19 models, 25x25mm = 0.984" squares, a 5 x 4 block facing 90) turn to
    # face the wolf riders on their right flank: every model ends facing 0, a 90 degree turn
    # clockwise, and the block is the old one turned about one point (a 4 x 5 block)
    assert sorted(page.moves) == sorted(f"spearmen/{k}" for k in range(1, 20))
    assert {before.model(m).facing_deg for m in page.moves} == {90.0}
    assert {after.model(m).facing_deg for m in page.moves} == {0.0}
    slide = painter.slide(n)        # Slide(before, after, page.moves, MOVE_ANIMATION_FRAMES)
    assert slide.before is before and slide.after is after and slide.moves is page.moves
    for k in range(MOVE_ANIMATION_FRAMES + 1):
        assert snapshot(slide.table(k)).overlaps == [], k
    # frame 0 is where they stood, the last where the rules put them
    for mid in page.moves:
        a, b = before.model(mid), after.model(mid)
        assert slide.poses(0)[mid] == pytest.approx((a.x, a.y, 90.0), abs=1e-9)
        assert slide.poses(MOVE_ANIMATION_FRAMES)[mid] == pytest.approx((b.x, b.y, 0.0), abs=1e-9)
    # halfway through the straight slide the block is a jumble: spearmen/1 goes from
    # (16.03, 13.51) to (19.97, 14.48) and spearmen/2 from (17.02, 13.51) to (19.97, 13.50),
    # so at 1/2 they stand at (18.00, 13.99) and (18.49, 13.50): 0.49" and 0.49" apart,
    # under a base's 0.984" width - the overlap the old straight slide drew
    half = {m: point_along(page.moves[m], 0.5) for m in page.moves}
    straight = after.with_models(after.model(m).moved_to(x, y) for m, (x, y) in half.items())
    assert ("spearmen/1", "spearmen/2") in snapshot(straight).overlaps


def test_the_turn_to_face_pivots_the_block_in_place_beside_the_riders(flank):
    lesson, n, painter = flank
    page = lesson.pages[n]
    before, after = lesson.pages[n - 1].step.state, page.step.state
    mids = sorted(page.moves)

    def centre(poses):
        return (sum(poses[m][0] for m in mids) / len(mids),
                sum(poses[m][1] for m in mids) / len(mids))
    # start: the 5 x 4 block facing 90, front edge y = 14 from x = 15.54 to 20.46, so its
    # 20 centres average (18, 14 - 2 x 0.984 = 12.03); the spearman lost in the fight
    # (spearmen/20, rear right corner at (19.97, 10.56)) leaves the 19 at
    # ((20 x 18 - 19.97) / 19, (20 x 12.03 - 10.56) / 19) = (17.90, 12.11)
    start = centre({m: (before.model(m).x, before.model(m).y) for m in mids})
    assert start == pytest.approx((17.90, 12.11), abs=0.01)
    # end: facing 0 with its new front flush against the riders at x = 20.46; five ranks
    # deep, so the rank centres run 20.46 - 0.49 = 19.97 back to 15.54 + 0.49 = 16.03
    end = centre({m: (after.model(m).x, after.model(m).y) for m in mids})
    assert end == pytest.approx((18.57, 12.62), abs=0.01)
    slide = painter.slide(n)        # Slide(before, after, page.moves, MOVE_ANIMATION_FRAMES)
    dx, dy = end[0] - start[0], end[1] - start[1]
    worst = 0.0
    for k in range(MOVE_ANIMATION_FRAMES + 1):
        c = centre(slide.poses(k))
        u = max(0.0, min(1.0, ((c[0] - start[0]) * dx + (c[1] - start[1]) * dy)
                         / (dx * dx + dy * dy)))
        worst = max(worst, math.dist(c, (start[0] + u * dx, start[1] + u * dy)))
        st = snapshot(slide.table(k))
        assert not [p for p in st.overlaps if any(q.startswith("wolf-riders/") for q in p)], k
    # turned 45 degrees the block (4.92" x 3.94") reaches (4.92 + 3.94) / 2 / sqrt(2) = 3.13"
    # from its centre across x, against 2.46" square on: to clear the riders' edge at
    # x = 20.46 its centre must stand at x <= 17.33, 0.57" short of the segment's nearest
    # point (17.90, 12.11).  So the centre stays within 0.75" of the straight way from start
    # to end (the old plan swung it 4.3" left, to x = 13.65 at frame 15)
    assert worst <= 0.75


def test_the_painter_draws_the_planned_slide(flank):
    lesson, n, painter = flank
    slide = painter.slide(n)
    before = lesson.pages[n - 1].step.state
    # the block turns steadily as it goes: halfway (frame 15 of 30) every spearman faces
    # 90 - 90 / 2 = 45
    mid_frame = slide.poses(MOVE_ANIMATION_FRAMES // 2)
    assert {round(p[2], 6) for p in mid_frame.values()} == {45.0}
    # frame 7 of 30: each faces 90 - 90 x 7 / 30 = 69
    quarter = slide.poses(7)
    assert {round(p[2], 6) for p in quarter.values()} == {90.0 - 90.0 * 7 / 30}
    assert before.model("spearmen/1").facing_deg == 90.0


def test_a_sliding_unit_keeps_its_label_plate_on_its_models(flank):
    from tabletop.render.lesson_plan import Frame
    lesson, n, painter = flank
    k = MOVE_ANIMATION_FRAMES // 2
    _step, _geo, view, _ov = painter.page_parts(n)
    poses = painter.slide(n).poses(k)
    surface = pygame.Surface(GIF_SIZE)
    painter.draw(surface, Frame(n, "slide", k))
    plates = [p for p in painter.labels.placed if p.kind == "plate" and p.name == "spearmen"]
    assert len(plates) == 1
    rect = plates[0].rect
    pts = [view.to_screen(x, y) for x, y, _f in poses.values()]
    # beside the spearmen where they are on this frame: its anchor is round every one of
    # them, and it stands within LEADER_AFTER_PX of it (no leader line)
    assert not plates[0].leader
    assert all(plates[0].anchor.collidepoint(p) for p in pts)
    # and the frame the painter draws has the plate there (the label plate's colour, 228/255
    # opaque over the table: within 12 of it on each channel)
    inside = rect.inflate(-8, -8)
    colours = {tuple(surface.get_at((x, inside.centery)))[:3]
               for x in range(inside.left, inside.right)}
    assert any(all(abs(a - b) <= 12 for a, b in zip(c, DEFAULT_THEME.label_plate[:3]))
               for c in colours)


def _base_rects(geo, view):
    out = {}
    for mid in geo.ids:
        x0, y0, x1, y1 = geo.footprint(mid).bounds
        (a, b), (c, d) = view.to_screen(x0, y1), view.to_screen(x1, y0)
        out[mid] = pygame.Rect(int(a), int(b), max(1, int(c - a)), max(1, int(d - b)))
    return out


@pytest.mark.parametrize("size", [(960, 540), GIF_SIZE, WINDOW_SIZE])
def test_in_the_surrounded_lesson_no_box_covers_a_base(size, monkeypatch):
    lesson = build_lesson(mapfile.load(str(LESSONS / "surrounded.toml")))
    plates: list = []
    real = prims.text_plate

    def spy(surface, lines, topleft, *a, **k):
        rect = real(surface, lines, topleft, *a, **k)
        plates.append((rect, lines[0][0]))
        return rect
    monkeypatch.setattr(prims, "text_plate", spy)
    painter = LessonPainter(lesson, size)
    surface = pygame.Surface(size)
    for frame in lesson.timeline(MOVE_ANIMATION_FRAMES):
        if frame.kind == "slide":
            continue
        plates.clear()
        painter._boards.clear()          # draw the board afresh, so its plates are seen
        painter.draw(surface, frame)
        _step, geo, view, _ov = painter.page_parts(frame.page)
        # a base's rect less 2 px all round: a plate touching a base's anti-aliased rim is not
        # "over" it (the old drawing laid the militia's box 29 x 20 px over orc-mob/6 at 960x540)
        bases = {mid: r.inflate(-4, -4) for mid, r in _base_rects(geo, view).items()}
        assert plates
        for rect, what in plates:
            covered = [mid for mid, r in bases.items() if rect.colliderect(r)]
            assert covered == [], (frame, what, covered)


@pytest.mark.parametrize("name", sorted(p.stem for p in LESSONS.glob("*.toml")))
def test_every_frame_shows_the_whole_table(name):
    lesson = build_lesson(mapfile.load(str(LESSONS / f"{name}.toml")))
    painter = LessonPainter(lesson, GIF_SIZE)
    t = lesson.state.table
    for n in range(len(lesson.pages)):
        _step, _geo, view, _ov = painter.page_parts(n)
        # the table's corners (0, 0) and (width, depth) inches land inside the board area
        for x, y in ((0.0, 0.0), (t.width, t.depth)):
            sx, sy = view.to_screen(x, y)
            assert 0 <= sx <= painter.board_rect.w and 0 <= sy <= painter.board_rect.h, (n, x, y)


def test_focus_rings_the_models_it_names():
    lesson = build_lesson(mapfile.load(str(LESSONS / "consolidation.toml")))
    painter = LessonPainter(lesson, GIF_SIZE)
    n = next(k for k, p in enumerate(lesson.pages) if "ongoing" in p.entry.focus)
    step, _geo, _view, _ov = painter.page_parts(n)
    ringed = step._draw_keys["highlight"]
    for uid in ("ongoing", "brute"):
        for m in step.state.unit(uid).models:
            assert m.id in ringed
    assert lesson_draw.FOCUS_COLOUR in ringed.values()


def test_a_partly_sliding_unit_plate_counts_all_its_models(monkeypatch):
    # pile-in.toml: the intercessors are 5 models; in the pile-in the sergeant, in base
    # contact, stays (fight-phase.txt 12.03) and the other 4 slide.  Mid-slide the unit's
    # plate must say "5 models" (before: the background, drawn without the 4 sliding models,
    # labelled the sergeant alone "intercessors · 1 model").
    from tabletop.render.lesson_plan import Frame
    lesson = build_lesson(mapfile.load(str(LESSONS / "pile-in.toml")))
    n = next(k for k, p in enumerate(lesson.pages)
             if any(m.startswith("intercessors/") for m in p.moves))
    unit = lesson.pages[n].step.state.unit("intercessors")
    moving = [m for m in lesson.pages[n].moves if m.startswith("intercessors/")]
    assert len(unit.models) == 5 and 0 < len(moving) < 5      # a partly sliding unit
    seen: list[str] = []
    real = prims.text_plate

    def spy(surface, lines, *a, **k):
        seen.extend(text for text, _size in lines)
        return real(surface, lines, *a, **k)
    monkeypatch.setattr(prims, "text_plate", spy)
    painter = LessonPainter(lesson, GIF_SIZE)
    painter.draw(pygame.Surface(GIF_SIZE), Frame(n, "slide", MOVE_ANIMATION_FRAMES // 2))
    plates = [t for t in seen if t.startswith("intercessors · ")]
    assert plates and all(t.startswith("intercessors · 5 models") for t in plates), plates


def test_the_gif_keeps_the_legal_region_bands_apart(tmp_path):
    # pile-in step 4 ("Where may a marine end?", fight-phase.txt 12.03) shades where the
    # marine that stood 1.5" off may end: LEGAL_FILL (120, 200, 255, a=70) where it may end,
    # ENGAGED_FILL (40, 150, 255, a=150) on top where it also ends engaged.  The GIF's
    # palette used to come from step 1's picture alone, which has no shading, and merged both
    # bands into one grey-blue (129, 144, 164).
    from PIL import Image, ImageSequence

    from tabletop.app.lesson_drag import lesson_regions
    from tabletop.render.lesson_movie import _pictures, write_gif

    lesson = build_lesson(mapfile.load(str(LESSONS / "pile-in.toml")))
    n = next(k for k, p in enumerate(lesson.pages) if p.entry.title == "Where may a marine end?")
    timeline = lesson.timeline(MOVE_ANIMATION_FRAMES, [0, n])
    regions = lesson_regions(lesson)
    *_, raw = _pictures(lesson, timeline, GIF_SIZE, MOVE_ANIMATION_FRAMES, regions)
    still = Image.frombytes("RGB", GIF_SIZE, raw)
    out = tmp_path / "pile-in.gif"
    write_gif(lesson, str(out), timeline, slide_frames=MOVE_ANIMATION_FRAMES, region_of=regions)
    *_, last = (f.convert("RGB") for f in ImageSequence.Iterator(Image.open(out)))
    # two pixels picked on the 1280 x 720 still, each the middle of a 7 x 7 patch of one
    # colour: (463, 234) in the light band above the marines (exact colour (96, 164, 220)),
    # (460, 272) in the strong band by the ork (exact colour (51, 139, 229))
    light, strong = (463, 234), (460, 272)
    assert still.getpixel(light) == (96, 164, 220)
    assert still.getpixel(strong) == (51, 139, 229)

    def gap(a, b):
        return max(abs(x - y) for x, y in zip(a, b))
    for spot in (light, strong):            # each within 3 units a channel of the picture's
        assert gap(last.getpixel(spot), still.getpixel(spot)) <= 3, spot
    # and the bands stay apart: 96 - 51 = 45 units of red between them, at least 30 kept
    assert gap(last.getpixel(light), last.getpixel(strong)) >= 30


def test_the_charge_arcs_lesson_draws_the_arcs_and_the_side_each_charger_hits():
    # charge-arcs.toml: the spearmen, 5 x 4 of 25 mm (0.984") squares facing 90 (up), front
    # edge y = 14 from x = 15.54 to 20.46, rear edge y = 14 - 4 x 0.984 = 10.06
    # (measurements.csv TOW "Arcs": lines at 45 degrees from the four corners)
    from tabletop.render.lesson_arcs import arc_keys, hit_words

    lesson = build_lesson(mapfile.load(str(LESSONS / "charge-arcs.toml")))
    pages = {p.entry.title: k for k, p in enumerate(lesson.pages)}
    assert all(p.entry.arcs == "spearmen" for p in lesson.pages)
    st = lesson.pages[0].step.state
    keys = arc_keys(st, snapshot(st), "spearmen", ("wolf-riders", "goblins", "trolls", "orc-mob"))
    starts = sorted((round(a[0], 2), round(a[1], 2)) for a, _ in keys["lines"])
    assert starts == [(15.54, 10.06), (15.54, 14.0), (20.46, 10.06), (20.46, 14.0)]
    for a, b in keys["lines"]:          # each at 45 degrees: as far across as along
        assert abs(abs(b[0] - a[0]) - abs(b[1] - a[1])) < 1e-6
        assert abs(b[0] - a[0]) > 20    # long enough to leave the 36" x 24" table
    hits = {r["unit"]: r for r in keys["chargers"]}
    # wolf riders: all 4 of their front rank left of x = 15.54 and nearer the left edge's
    # line than the front's or rear's: the left flank; the line ends mid left edge,
    # (15.54, (14 + 10.06) / 2 = 12.03)
    assert hits["wolf-riders"]["arc"] == "left"
    assert hits["wolf-riders"]["counts"]["left"] == 4
    assert hits["wolf-riders"]["to"] == pytest.approx((15.54, 12.03), abs=0.01)
    # goblins: 5 wide, 4.06" below the spearmen's rear, x 16.03 to 19.97: the rear, line to
    # mid rear edge (18, 10.06)
    assert hits["goblins"]["arc"] == "rear" and hits["goblins"]["counts"]["rear"] == 5
    assert hits["goblins"]["to"] == pytest.approx((18.0, 10.06), abs=0.01)
    # trolls: centres 7.33" right of x = 20.46 but only 1.43" to 4.57" ahead of y = 14: the
    # right flank, all 3 (the map's own comment works it out)
    assert hits["trolls"]["arc"] == "right" and hits["trolls"]["counts"]["right"] == 3
    assert hits["orc-mob"]["arc"] == "front" and hits["orc-mob"]["counts"]["front"] == 4
    assert hit_words(hits["wolf-riders"]) == "hits the left flank (front rank: 4 of 4 in that arc)"

    painter = LessonPainter(lesson, GIF_SIZE)
    surface = pygame.Surface(GIF_SIZE)
    n = pages["The Wolf Riders: a flank"]
    painter.draw(surface, lesson.timeline(MOVE_ANIMATION_FRAMES, [n])[-1])
    placed = {(p.kind, p.name): p for p in painter.labels.placed}
    assert {name for kind, name in placed if kind == "arc"} == {"front", "left", "right", "rear"}
    assert ("hit", "wolf-riders") in placed
    for p in painter.labels.placed:           # none of them over a base
        assert p.rect.collidelist(painter.labels.bases) < 0, p
    # square bases are picked out by their own outline, not a ring: the page selects
    # wolf-riders/1 (25 x 50 mm) and focuses the spearmen
    step = painter.page_parts(n)[0]
    keys = lesson_draw.draw_of(step)
    assert "selected" not in keys
    assert "wolf-riders/1" in keys["lesson_outline"] and "spearmen/1" in keys["lesson_outline"]
    assert not any(m.startswith(("spearmen/", "wolf-riders/")) for m in keys.get("highlight") or {})


def test_a_formation_record_follows_its_models_turn_and_shift():
    from tabletop.render.lesson_slide import follow_record

    # two models at (0, 0) and (2, 0) facing 90 end; on the frame both face 0 (a turn of -90)
    # with their middle moved from (1, 0) to (5, 5): a point (x, y) goes to
    # (5, 5) + rot(-90)((x, y) - (1, 0)), rot(-90)(u, v) = (v, -u)
    rec = {"edges": {"front": ((0.0, 1.0), (2.0, 1.0))}, "front_centre": (1.0, 1.0),
           "facing": 90.0, "files": 2}
    ends = {"u/1": (0.0, 0.0, 90.0), "u/2": (2.0, 0.0, 90.0)}
    poses = {"u/1": (5.0, 6.0, 0.0), "u/2": (5.0, 4.0, 0.0)}   # (-1, 0) -> (0, 1); (1, 0) -> (0, -1)
    out = follow_record(rec, ends, poses)
    (a, b), = out["edges"].values()
    assert a == pytest.approx((6.0, 6.0))       # (-1, 1) -> (1, 1), + (5, 5)
    assert b == pytest.approx((6.0, 4.0))       # (1, 1) -> (1, -1), + (5, 5)
    assert out["front_centre"] == pytest.approx((6.0, 5.0))   # (0, 1) -> (1, 0)
    assert out["facing"] == pytest.approx(0.0) and out["files"] == 2
    with pytest.raises(ValueError):
        follow_record(rec, ends, {})


def test_a_turning_unit_keeps_its_outline_and_status_box_on_its_sliding_bases(flank):
    lesson, n, painter = flank
    surface = pygame.Surface(GIF_SIZE)
    slide = painter.slide(n)
    frames = [f for f in lesson.timeline(MOVE_ANIMATION_FRAMES)
              if f.page == n and f.kind == "slide"]
    assert len(frames) == MOVE_ANIMATION_FRAMES
    for frame in frames:
        painter.draw(surface, frame)
        status = next(p for p in painter.labels.placed if (p.kind, p.name) == ("status", "spearmen"))
        # the box's anchor is the pixel box of the spearmen's marked edges, 14 px round
        # (``rank_and_flank.status_plate_parts``); the edges are the block's outline, so on
        # every frame every corner of every sliding spearman's base lies in that box (3 px
        # slack for rounding), and the box is no wider or taller than the bases' own box plus
        # one base's diagonal (0.984" x 1.414 = 1.39", the 19-model block's missing corner)
        # (the old code kept the edges where the turn ends: 22 px off on the first frame)
        view = painter.page_parts(n)[2]
        edges = status.anchor.inflate(-28, -28)
        grown = edges.inflate(6, 6)
        corners = [view.to_screen(px, py)
                   for mid, (x, y, f) in slide.poses(frame.k).items() if mid.startswith("spearmen/")
                   for px, py in base_polygon(lesson.state.model(mid).base, x, y, f).exterior.coords]
        for sx, sy in corners:
            assert grown.collidepoint(sx, sy), (frame.k, sx, sy, edges)
        slack = view.length(1.39) + 3
        assert edges.w <= max(c[0] for c in corners) - min(c[0] for c in corners) + slack
        assert edges.h <= max(c[1] for c in corners) - min(c[1] for c in corners) + slack


@pytest.mark.parametrize("size", [(640, 360), (1280, 720)])
def test_each_arc_name_stands_in_its_own_arc(size):
    # charge-arcs.toml: the spearmen's block runs x 15.54 to 20.46, y 10.06 to 14 (5 x 4 of
    # 0.984" squares facing 90).  A point is in the arc of the side it stands furthest out
    # beyond (the 45-degree corner lines are where two sides are equally far out): e.g.
    # (31.75, 6.26), where the old 640 x 360 picture wrote "left flank arc", is 31.75 -
    # 20.46 = 11.29 right of the right side but only 10.06 - 6.26 = 3.80 below the rear:
    # the right arc; (23.54, -0.07), where it wrote "right flank arc", is 10.13 below the
    # rear and 3.08 right of the right side: the rear arc
    lesson = build_lesson(mapfile.load(str(LESSONS / "charge-arcs.toml")))
    n = next(k for k, p in enumerate(lesson.pages) if p.entry.title == "The Wolf Riders: a flank")
    painter = LessonPainter(lesson, size)
    painter.draw(pygame.Surface(size), lesson.timeline(MOVE_ANIMATION_FRAMES, [n])[-1])
    view = painter.page_parts(n)[2]
    x0, x1, y0, y1 = 15.54, 20.46, 10.06, 14.0

    def arc(x, y):          # outward distance beyond each side; the greatest names the arc
        out = {"front": y - y1, "rear": y0 - y, "left": x0 - x, "right": x - x1}
        return max(out, key=lambda s: out[s])
    assert arc(31.75, 6.26) == "right" and arc(23.54, -0.07) == "rear"
    names = {p.name: p.rect for p in painter.labels.placed if p.kind == "arc"}
    assert set(names) == {"front", "rear", "left", "right"}
    for side, rect in names.items():
        assert arc(*view.to_table(*rect.center)) == side, (side, view.to_table(*rect.center))
