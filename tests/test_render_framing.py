"""Per-step framing of teaching frames (tabletop.render.framing, steps.draw_frame/save_frames).

tests/scenarios/frame-zoom.toml: a 60" x 44" table with two fights far apart; a/2 (32mm,
radius 0.63") is shown moving from (36, 33) to where it stands, (38, 31.5).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pygame
import pytest

from tabletop.board import mapfile
from tabletop.geometry import snapshot
from tabletop.render.framing import fit_box, frame_box, step_box, view_for_box, zoom_gain
from tabletop.render.inset import draw_inset
from tabletop.render.step_draw import with_keys
from tabletop.render.steps import caption_height, draw_frame, save_frames
from tabletop.render.theme import DEFAULT_THEME
from tabletop.rules.events import Step

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
RED = (176, 58, 46)
SIZE = (1200, 900)


@pytest.fixture(scope="module")
def state():
    return mapfile.load(str(SCENARIOS / "frame-zoom.toml"))


def move_step(state):
    return with_keys(Step("red: a piles in", "fight-phase.txt 12.03", state, range(0)), {
        "arrows": {"a/2": [[36.0, 33.0], [38.0, 31.5]]},
        "ghosts": {"a/2": [36.0, 33.0, 90.0]},
        "selected_unit": "a",
        "highlight": {"a/1": "amber", "b/1": "amber", "c/1": "amber", "d/1": "amber"}})


def test_step_box_round_the_move_the_unit_and_its_foes(state):
    # points: the path (36, 33), (38, 31.5); unit a (38, 30), (38, 31.5); b engaged with a:
    # (39.3, 30).  The highlight rings c and d too, but it is not the step's action.
    # x 36..39.3 + 2.5 pad = 33.5..41.8 (8.3 < 14: 14 about 37.65 -> 30.65..44.65)
    # y 30..33 + 2.5 = 27.5..35.5 (8 < 14: 14 about 31.5 -> 24.5..38.5)
    step = move_step(state)
    assert step_box(step, snapshot(state)) == pytest.approx((30.65, 24.5, 44.65, 38.5))
    # without the snapshot the engaged enemy is not known: x 36..38 -> 33.5..40.5 -> 30..44
    assert step_box(step) == pytest.approx((30.0, 24.5, 44.0, 38.5))


def test_fit_box_widens_to_the_frame_and_stays_on_the_table():
    # 14 x 14 at aspect 1.5 -> 21 wide about x 37.65: 27.15..48.15, on the table as it is
    assert fit_box((30.65, 24.5, 44.65, 38.5), 60, 44, 1.5) == pytest.approx((27.15, 24.5, 48.15, 38.5))
    # near the right edge: 21 wide about 55 would pass x 60, so it slides to 39..60
    assert fit_box((48.0, 10.0, 62.0, 24.0), 60, 44, 1.5) == pytest.approx((39.0, 10.0, 60.0, 24.0))
    # a box deeper than the table is centred on it: 50 deep -> y -3..47
    assert fit_box((0, 0, 10, 50), 60, 44, 1.5)[1] == pytest.approx(-3.0)


def test_zoom_gain_and_small_tables_stay_whole(state):
    # whole table at aspect 1.5: min(1.5 / 60, 1 / 44) = 1/44; a 21 x 14 box: min(1.5/21, 1/14)
    # = 1/14 -> 44 / 14 = 3.14 times closer
    assert zoom_gain((27.15, 24.5, 48.15, 38.5), 60, 44, 1.5) == pytest.approx(44 / 14)
    # on a 24" x 18" table the same 21 x 14 window is only min(1.5/24, 1/18) = 1/18 ->
    # 18/14 = 1.29 times closer (< FOCUS_MIN_GAIN 1.4): the frame shows the whole table
    small = dataclasses.replace(state, table=dataclasses.replace(state.table, width=24.0, depth=18.0))
    step = with_keys(Step("t", "", small, range(0)), {"arrows": {"c/1": [[9.0, 8.0], [10.0, 8.0]]}})
    assert frame_box(step, None, 24.0, 18.0, 1.5) is None


def test_a_phase_step_with_only_highlights_shows_the_whole_table(state):
    step = Step("Start of the Fight phase", "fight-phase.txt 12.01", state, range(0),
                {"highlight": {"a/1": "amber", "c/1": "amber"}})
    assert step_box(step, snapshot(state)) is None
    surface = pygame.Surface(SIZE)
    view, box = draw_frame(surface, step)
    top = caption_height(step, None, SIZE[0])
    assert box is None
    assert view.scale == pytest.approx(view_for_box((0, 0, 60, 44), SIZE[0], SIZE[1] - top, 36).scale)


def test_the_moved_model_fills_a_zoomed_frame_and_the_other_fight_is_out(state):
    step = move_step(state)
    surface = pygame.Surface(SIZE)
    view, box = draw_frame(surface, step)
    top = caption_height(step, None, SIZE[0])
    board = pygame.Rect(0, top, SIZE[0], SIZE[1] - top)
    # the board area below the caption is 1200 x (900 - top) px, 36 px margins: the 14" deep
    # window widens to 14 x (1128 / (828 - top)) about x 37.65
    w = 14 * (SIZE[0] - 72) / (SIZE[1] - top - 72)
    assert box == pytest.approx((37.65 - w / 2, 24.5, 37.65 + w / 2, 38.5))

    def screen(x, y):
        sx, sy = view.to_screen(x, y)
        return round(sx), round(sy) + top      # the view is relative to the board area

    # the end of the move, 0.3" right of and below a/2's centre (clear of the arrowhead,
    # which comes in from the upper left, and of the facing tick, which points up): red
    end = screen(38.3, 31.2)
    assert board.collidepoint(end) and tuple(surface.get_at(end))[:3] == RED
    # the start is inside the frame too; the other fight is not
    assert board.collidepoint(screen(36.0, 33.0))
    assert not board.collidepoint(screen(10.0, 8.0))
    # 14" fill the board's depth: (828 - top) / 14 px per inch, about 3x the whole table's
    assert view.scale == pytest.approx((SIZE[1] - top - 72) / 14)
    # a thumbnail of the whole table in the bottom right corner with the zoom rectangle
    corner = surface.subsurface(pygame.Rect(SIZE[0] - 270, SIZE[1] - 200, 270, 200))
    yellow = sum(tuple(corner.get_at((x, y)))[:3] == DEFAULT_THEME.selected
                 for x in range(0, 270, 1) for y in range(0, 200, 2))
    assert yellow > 60


def test_inset_outlines_the_zoom_rectangle():
    # plate (0, 0, 240, 179), inner (6, 6, 228, 167): scale min(228/60, 167/44) = 3.7955,
    # origin x 6 + (228 - 60 x 3.7955) / 2 = 6.136, origin y 6 + (167 + 44 x 3.7955) / 2 = 173.
    # box (27.15, 24.5, 48.15, 38.5): left 6.136 + 27.15 x 3.7955 = 109.2 -> 109,
    # top 173 - 38.5 x 3.7955 = 26.9 -> 27, 21 x 3.7955 = 80 px wide
    state = mapfile.load(str(SCENARIOS / "frame-zoom.toml"))
    surface = pygame.Surface((300, 250))
    surface.fill((0, 0, 0))
    plate = draw_inset(surface, state, pygame.Rect(0, 0, 240, 179), (27.15, 24.5, 48.15, 38.5))
    assert plate == pygame.Rect(0, 0, 240, 179)
    yellow = DEFAULT_THEME.selected
    assert tuple(surface.get_at((140, 27)))[:3] == yellow            # top edge
    assert tuple(surface.get_at((109, 60)))[:3] == yellow            # left edge
    assert tuple(surface.get_at((140, 60)))[:3] != yellow            # inside: the table
    assert tuple(surface.get_at((270, 100)))[:3] == (0, 0, 0)        # outside the plate


def test_save_frames_zooms_each_step_and_keeps_the_old_single_view(state, tmp_path):
    other = with_keys(Step("blue: d piles in", "fight-phase.txt 12.03", state, range(0)), {
        "arrows": {"d/1": [[12.5, 8.0], [11.3, 8.0]]}, "selected_unit": "d"})
    steps = [move_step(state), other]
    per_step = save_frames(steps, str(tmp_path / "step"), size=(600, 450))
    phase = save_frames(steps, str(tmp_path / "phase"), size=(600, 450), framing="phase")
    table = save_frames(steps, str(tmp_path / "table"), size=(600, 450), zoom=False)
    imgs = {k: [pygame.image.load(p) for p in paths]
            for k, paths in (("step", per_step), ("phase", phase), ("table", table))}
    # zoomed per step: the two frames show different parts of the table, so they differ
    # far more than the two whole-table ones, which differ only where d/1 moved
    def changed(a, b):
        return sum(a.get_at((x, y)) != b.get_at((x, y)) for x in range(0, 600, 6) for y in range(120, 450, 6))
    assert changed(*imgs["step"]) > 3 * changed(*imgs["table"])
    with pytest.raises(ValueError, match="framing"):
        save_frames(steps, str(tmp_path / "bad"), framing="zoomed")


def test_fight_frames_view_option(capsys, tmp_path):
    from tabletop.cli import main
    lesson = str(Path(__file__).resolve().parent.parent / "maps" / "lessons/pile-in.toml")
    for view in ("step", "phase", "table"):
        folder = tmp_path / view
        assert main(["fight", lesson, "--seed", "1", "--frames", str(folder), "--frames-view", view]) == 0
        # the lesson's eleven steps (seed 1): start, pile-in step, two pile-ins, Fight step,
        # two fights (the boyz survive to fight back), consolidation step, two
        # consolidations, end
        assert len(list(folder.glob("*.png"))) == 11
    capsys.readouterr()
