"""The label placer (render/label_place.py) and the lesson frames that use it
(render/lesson_labels.py): a label never covers a model or another label.

Rectangles are pygame.Rect (left, top, width, height), screen pixels, y down.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from tabletop.board import mapfile
from tabletop.render.label_place import (
    LEADER_AFTER_PX,
    LabelPlacer,
    Placed,
    along,
    around,
    corners,
    overlap_area,
)
from tabletop.render.lesson_draw import LessonPainter
from tabletop.render.lesson_movie import GIF_SIZE
from tabletop.render.lesson_plan import Frame, build_lesson
from tabletop.render.motion import MOVE_ANIMATION_FRAMES
from tests.mapkit import lesson_painter

LESSONS = Path(__file__).resolve().parent.parent / "maps" / "lessons"
R = pygame.Rect


@pytest.fixture(scope="module", autouse=True)
def _fonts():
    pygame.font.init()
    yield


# ---------------------------------------------------------------- the placer alone
ANCHOR = R(100, 100, 40, 20)      # a unit's pixels: x 100..140, y 100..120
SIZE = (30, 10)


def test_around_lists_below_above_right_left_first():
    c = around(ANCHOR, SIZE, gap=5, rings=1)
    # below: centred (120 - 30 // 2 = 105), 5 px under the bottom (120 + 5 = 125)
    assert c[0] == R(105, 125, 30, 10)
    # above: its bottom 5 px over the top: 100 - 5 - 10 = 85
    assert c[1] == R(105, 85, 30, 10)
    # right: 140 + 5 = 145, centred on y 110: 110 - 10 // 2 = 105
    assert c[2] == R(145, 105, 30, 10)
    # left: 100 - 5 - 30 = 65
    assert c[3] == R(65, 105, 30, 10)
    assert len(c) == 12           # and the four corners, below/above flush left and right


def test_first_free_candidate_wins():
    # a base right under the unit takes the "below" place; "above" is free
    placer = LabelPlacer(R(0, 0, 400, 300), bases=[R(110, 124, 20, 20)])
    p = placer.place("plate", "u", around(ANCHOR, SIZE, gap=5), ANCHOR)
    assert p.rect == R(105, 85, 30, 10) and p.overlap == 0
    assert not p.leader           # its bottom (95) is 5 px over the anchor (100): no leader
    # the next label keeps clear of it and of the base: below and above are taken -> right
    q = placer.place("plate", "v", around(ANCHOR, SIZE, gap=5), ANCHOR)
    assert q.rect == R(145, 105, 30, 10)


def test_a_candidate_off_the_bounds_is_passed_over():
    # bounds end at y 130: below (y 125..135) sticks out, so "above" is taken
    placer = LabelPlacer(R(0, 0, 400, 130))
    assert placer.place("plate", "u", around(ANCHOR, SIZE, gap=5)).rect == R(105, 85, 30, 10)


def test_no_free_place_gives_the_least_covered_one_bases_weighing_more():
    a, b = R(0, 0, 30, 10), R(100, 0, 30, 10)
    # a over a base by 10 x 10 = 100 px (cost 10 * 100 = 1000); b over a plate by
    # 30 x 10 = 300 px (cost 6 * 300 = 1800): a is chosen, then with a plate over 5 x 10 =
    # 50 px of b instead (cost 300) b is
    placer = LabelPlacer(R(0, 0, 200, 50), bases=[R(20, 0, 10, 10)], blocked=[R(100, 0, 30, 10)])
    rect, over = placer.choose([a, b])
    assert rect == a and over == 100
    placer = LabelPlacer(R(0, 0, 200, 50), bases=[R(20, 0, 10, 10)], blocked=[R(125, 0, 5, 10)])
    rect, over = placer.choose([a, b])
    assert rect == b and over == 50


def test_overlap_area_sums_each_rect():
    # (10..20) x (0..10) over two rects: 5 x 10 = 50 and 10 x 5 = 50
    assert overlap_area(R(10, 0, 10, 10), [R(15, 0, 20, 20), R(0, 5, 40, 5)]) == 100


def test_corners_and_free():
    c = corners(R(0, 0, 200, 100), (50, 20), inset=6)
    # top left (6, 6); top right 200 - 6 - 50 = 144; bottom 100 - 6 - 20 = 74
    assert c == [R(6, 6, 50, 20), R(144, 6, 50, 20), R(6, 74, 50, 20), R(144, 74, 50, 20)]
    placer = LabelPlacer(R(0, 0, 200, 100), bases=[R(10, 10, 5, 5), R(150, 10, 5, 5)])
    assert placer.free(c) == R(6, 74, 50, 20)    # both top corners hold a base
    assert placer.placed == []                   # free() keeps nothing


def test_along_a_path_starts_beside_its_middle():
    # a level path (0, 50) -> (100, 50): its middle (50, 50), normal (0, 1) (screen y down);
    # a 20 x 10 label stands 10 / 2 + 7 = 12 px off it: centre (50, 62), then (50, 38)
    c = along([(0.0, 50.0), (100.0, 50.0)], (20, 10), gap=7)
    assert c[0] == R(40, 57, 20, 10)
    assert c[1] == R(40, 33, 20, 10)


def test_a_far_label_has_a_leader():
    near = Placed("plate", "u", R(0, 30 + LEADER_AFTER_PX - 1, 10, 10), R(0, 0, 10, 30), 0)
    far = Placed("plate", "u", R(0, 30 + LEADER_AFTER_PX + 1, 10, 10), R(0, 0, 10, 30), 0)
    assert not near.leader and far.leader


def test_the_placer_is_deterministic():
    def run():
        placer = LabelPlacer(R(0, 0, 300, 300), bases=[R(90, 90, 60, 60)])
        return [placer.place("plate", str(k), around(R(100, 100, 40, 40), (50, 12))).rect
                for k in range(6)]
    assert run() == run()
    assert len({tuple(r) for r in run()}) == 6      # six labels, six places


# ---------------------------------------------------------------- every shipped lesson
def _base_rects(state, view):
    """Each model's base bounds in pixels, worked out here apart from the placer."""
    from tabletop.geometry.footprints import base_polygon
    out = {}
    for u in state.units:
        for m in u.models:
            x0, y0, x1, y1 = base_polygon(m.base, m.x, m.y, m.facing_deg).bounds
            (a, b), (c, d) = view.to_screen(x0, y1), view.to_screen(x1, y0)
            out[m.id] = R(int(a), int(b), max(1, int(c - a)), max(1, int(d - b)))
    return out


@pytest.mark.parametrize("name", sorted(p.stem for p in LESSONS.glob("*.toml")))
def test_no_lesson_label_covers_a_model_or_another_label(name):
    if name == "flank-charge":      # its turn to face takes seconds to plan: planned once a
        lesson, painter = lesson_painter(name)      # session (test_lesson_pictures.py too)
    else:
        lesson = build_lesson(mapfile.load(str(LESSONS / f"{name}.toml")))
        painter = LessonPainter(lesson, GIF_SIZE)
    surface = pygame.Surface(GIF_SIZE)
    frames = lesson.timeline(MOVE_ANIMATION_FRAMES)
    # every still and dice frame, and every third slide frame (the models mid-way)
    frames = [f for f in frames if f.kind != "slide" or f.k % 3 == 0]
    seen = 0
    for frame in frames:
        painter.draw(surface, frame)
        labels = painter.labels
        step, _geo, view, _ov = painter.page_parts(frame.page)
        if frame.kind == "slide":
            bases = dict(enumerate(labels.bases))
        else:
            bases = _base_rects(step.state, view)
            assert len(bases) == len(labels.bases)
        placed = labels.placed
        seen += len(placed)
        for i, p in enumerate(placed):
            hit = [mid for mid, r in bases.items() if p.rect.colliderect(r)]
            assert hit == [], (frame, p.kind, p.name, p.rect, hit)
            others = [q.name for q in placed[i + 1:] if p.rect.colliderect(q.rect)]
            assert others == [], (frame, p.kind, p.name, others)
            assert p.rect.collidelist(labels.others) < 0, (frame, p.kind, p.name)
            assert p.rect.colliderect(painter.board_rect)
        # the panels other drawers place (the challenge's words, the outside-support and
        # focus boxes, the key) cover no base either (issue 10 item 2: the duel's words sat
        # on the front ranks, the support box on the blue duellist, the key on the table)
        for r in labels.others:
            hit = [mid for mid, b in bases.items() if r.colliderect(b)]
            assert hit == [], (frame, r, hit)
    assert seen      # every lesson has labels (at least its units' plates)


def test_surrounded_score_box_sits_in_a_free_corner_and_the_plate_clears_the_status_box():
    # surrounded.toml, the combat score page ("+1 for the rear, no ranks for the militia"):
    # before, the wolf riders' plate lay over the militia's SURROUNDED / DISRUPTED box and
    # the score box over the top right of the table
    lesson = build_lesson(mapfile.load(str(LESSONS / "surrounded.toml")))
    n = next(k for k, p in enumerate(lesson.pages) if "rank-and-flank-combat.txt" in p.entry.clause
             and "score" in p.entry.clause.lower())
    painter = LessonPainter(lesson, GIF_SIZE)
    painter.draw(pygame.Surface(GIF_SIZE), Frame(n, "still", 0))
    by = {(p.kind, p.name): p for p in painter.labels.placed}
    score = by[("score", "combat score")]
    table = painter.page_parts(n)[0]
    assert score.rect.colliderect(by[("status", "militia")].rect) is False
    assert by[("plate", "wolf-riders")].rect.colliderect(by[("status", "militia")].rect) is False
    # a corner: 6 px in from two edges of the table's pixels
    from tabletop.geometry import snapshot
    from tabletop.render.board import make_canvas
    view = painter.page_parts(n)[2]
    t = make_canvas(pygame.Surface(painter.board_rect.size), table.state, snapshot(table.state),
                    view).table_rect()
    assert score.rect.left - t.left == 6 or t.right - score.rect.right == 6
    assert score.rect.top - t.top == 6 or t.bottom - score.rect.bottom == 6


def _page_frame(name: str, title: str):
    lesson = build_lesson(mapfile.load(str(LESSONS / f"{name}.toml")))
    n = next(k for k, p in enumerate(lesson.pages) if p.entry.title == title)
    painter = LessonPainter(lesson, GIF_SIZE)
    surface = pygame.Surface(GIF_SIZE)
    painter.draw(surface, lesson.timeline(MOVE_ANIMATION_FRAMES, [n])[-1])
    step, _geo, view, _ov = painter.page_parts(n)
    return painter, step, view


def test_the_duel_words_are_placed_clear_of_the_blocks():
    # character-challenge "The duel": the words naming the pair were written from the right of
    # the duellists straight across the front ranks; now the placer puts them where they
    # cover no base, and the later labels keep clear of them
    from tabletop.render import prims
    from tabletop.render.theme import DEFAULT_THEME

    painter, step, view = _page_frame("character-challenge", "The duel")
    tw, th = prims.font(DEFAULT_THEME.font_small).size("challenge: spears/2 v swords/2")
    words = [r for r in painter.labels.others if r.size == (tw + 4, th + 2)]
    assert len(words) == 1
    bases = _base_rects(step.state, view)
    assert [m for m, b in bases.items() if words[0].colliderect(b)] == []


def test_the_outside_support_box_keeps_off_the_pair_set_aside():
    # gambit-challenge "Focus: who strikes first": the duellists stand in the set-aside box
    # right of the combat; the outside-support panel used to be stacked over the blue one
    painter, step, view = _page_frame("gambit-challenge", "Focus: who strikes first")
    from tabletop.geometry.footprints import base_polygon
    from tabletop.render.step_draw import draw_of
    value = draw_of(step)["challenge"]
    spots = []                                          # each duellist's base, in pixels
    for mid, (x, y) in value["aside"].items():
        m = value["models"][mid]
        x0, y0, x1, y1 = base_polygon(m.base, x, y, m.facing_deg).bounds
        (a, b), (c, d) = view.to_screen(x0, y1), view.to_screen(x1, y0)
        spots.append(R(int(a), int(b), int(c - a), int(d - b)))
    assert len(spots) == 2
    for r in painter.labels.others:
        if r.collidelist(spots) >= 0:                   # only the set-aside box itself
            assert all(r.contains(p) for p in spots) and r.w < 200, r


def test_the_key_fits_a_free_corner_of_the_table_off_its_rulers():
    # character-challenge "Who attacks": the key's note (why two characters do not attack)
    # wrapped at KEY_NOTE_WIDTH_PX, so the key is narrower than half the 1280 x 720 frame's
    # board (870 px) and sits inside the table's pixels (its rulers outside stay readable)
    from tabletop.render.rank_and_flank import KEY_NOTE_WIDTH_PX

    painter, step, view = _page_frame("character-challenge", "Who attacks")
    (x0, y0), (x1, y1) = view.to_screen(0, step.state.table.depth), view.to_screen(
        step.state.table.width, 0)
    table = R(round(x0), round(y0), round(x1 - x0), round(y1 - y0))
    big = [r for r in painter.labels.others if r.h > 100]      # the key: 10+ lines
    assert len(big) == 1
    key = big[0]
    assert key.w < 870 * 0.7 and KEY_NOTE_WIDTH_PX == 380
    assert table.contains(key), (key, table)
    bases = _base_rects(step.state, view)
    assert [m for m, b in bases.items() if key.colliderect(b)] == []


def test_no_label_hides_the_flight_arrow():
    # rear-charge "They break": the handgunners flee 4" straight away from the orcs (heading
    # 90, up the screen); their status box ("3 wide x 1 deep") used to sit across the arrow
    from tabletop.render.step_draw import draw_of

    painter, step, view = _page_frame("rear-charge", "They break")
    (rec,) = draw_of(step)["rnf_flee"]
    a, b = view.to_screen(*rec["from"]), view.to_screen(*rec["to"])
    assert abs(a[0] - b[0]) < 1 and a[1] - b[1] > 50     # 4" up the screen
    for p in painter.labels.placed:
        assert not p.rect.clipline(a, b), (p.kind, p.name, p.rect)


def test_consolidation_plate_keeps_off_the_start_ghosts():
    # consolidation "Only an objective near": holders/1 and holders/3 move 1.9" towards
    # objective A; the faint bases where they started (the ``ghosts`` key) used to sit under
    # the "holders" plate
    from tabletop.geometry.footprints import base_polygon
    from tabletop.render.step_draw import draw_of

    painter, step, view = _page_frame("consolidation", "Only an objective near: objective consolidation")
    ghosts = draw_of(step)["ghosts"]
    assert sorted(ghosts) == ["holders/1", "holders/3"]
    rects = []
    for mid, (x, y, f) in ghosts.items():
        x0, y0, x1, y1 = base_polygon(step.state.model(mid).base, x, y, f).bounds
        (a, b), (c, d) = view.to_screen(x0, y1), view.to_screen(x1, y0)
        rects.append(R(int(a), int(b), int(c - a), int(d - b)))
    for p in painter.labels.placed:
        assert p.rect.collidelist(rects) < 0, (p.kind, p.name, p.rect)


def test_closest_target_lines_go_under_the_bases_and_the_objective_count(monkeypatch):
    # the same page: the orange lines from each model to objective A were drawn over the
    # objective's control count ("red 3 / blue 0"), drawn with the bases by the objectives
    # overlay; a lesson now draws them first, before any base (LESSON_UNDER_KEYS)
    from tabletop.render import lesson_labels
    from tabletop.render.steps import DRAWERS

    assert "lines" in lesson_labels.LESSON_UNDER_KEYS
    fn, layer = DRAWERS["lines"]
    seen = []

    def spy(c, value):
        seen.append(len(c.bases))      # bases drawn so far on this canvas
        fn(c, value)
    monkeypatch.setitem(DRAWERS, "lines", (spy, layer))
    _page_frame("consolidation", "Only an objective near: objective consolidation")
    assert seen and all(n == 0 for n in seen), seen


def test_a_plate_prefers_a_place_whose_leader_crosses_no_other_base():
    from tabletop.render.label_place import LabelPlacer, leader_line
    # the named unit: anchor (100, 100)-(140, 140); another unit's base (150, 110)-(170, 130)
    # right beside it.  The first candidate (200, 110, 40, 20) stands 60 px right, so it has
    # a leader: from its nearest point to the anchor's centre (120, 120), i.e. (200, 120),
    # to the anchor's edge (140, 120): y = 120 runs across the other base (x 150 to 170).
    # The second, (20, 110, 40, 20) on the left, leads from (60, 120) to (100, 120): clear.
    anchor = pygame.Rect(100, 100, 40, 40)
    other = pygame.Rect(150, 110, 20, 20)
    right, left = pygame.Rect(200, 110, 40, 20), pygame.Rect(20, 110, 40, 20)
    placer = LabelPlacer(pygame.Rect(0, 0, 400, 300), bases=[pygame.Rect(anchor), other])
    assert leader_line(right, anchor) == ((200, 120), (140, 120))
    assert placer.leader_crosses(right, anchor) and not placer.leader_crosses(left, anchor)
    assert placer.place("plate", "u", [right, left], anchor).rect == left
    # with no clear leader on offer the first free place is still taken
    placer2 = LabelPlacer(pygame.Rect(0, 0, 400, 300), bases=[pygame.Rect(anchor), other])
    assert placer2.place("plate", "u", [right], anchor).rect == right


def test_the_turned_spearmen_plate_leads_across_no_wolf_rider():
    from tabletop.render import lesson_draw
    lesson = build_lesson(mapfile.load(str(Path(__file__).resolve().parent.parent / "maps"
                                           / "lessons" / "flank-charge.toml")))
    n = next(k for k, p in enumerate(lesson.pages) if p.entry.title == "Turning to face")
    painter = LessonPainter(lesson, GIF_SIZE)
    painter.draw(pygame.Surface(GIF_SIZE), lesson.timeline(MOVE_ANIMATION_FRAMES, [n])[-1])
    placer = painter.labels
    plate = next(p for p in placer.placed if p.kind == "plate" and p.name == "spearmen")
    # the old picture put it right of the riders, its leader across three of their bases
    assert not (plate.leader and any(b.inflate(-2, -2).clipline(*leader_line_of(plate))
                                     for b in placer.bases if not plate.anchor.contains(b)))
    # the block turned about where it stood: no start ghosts of it (a stray faded file)
    keys = lesson_draw.draw_of(painter.page_parts(n)[0])
    assert not any(m.startswith("spearmen/") for m in keys.get("ghosts") or {})


def leader_line_of(p):
    from tabletop.render.label_place import leader_line
    return leader_line(p.rect, p.anchor)
