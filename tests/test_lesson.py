"""``tabletop lesson``: a map's ``[[lesson]]`` steps over its phase run (issue 10 item 2).

The small map here (fight-phase, "11th" preset: engagement range 2"): red's r/1 (32mm, radius
0.62992") at (10, 10) charged; blue's e/1 at (13.5, 10): the gap is 3.5 - 2 x 0.62992 =
2.24" > 2", so nobody is engaged and r may pile in (fight-phase.txt 12.03: it made a charge
move; e is within 5").  Its pile-in moves r/1 (up to 3") into engagement, so the phase step
"r makes its pile-in move" moves one model and no dice are rolled before the Fight step.

Frames (render.lesson_plan): per lesson step, MOVE_ANIMATION_FRAMES slide frames when a model
moved since the previous lesson step (never the first shown), 1 still, 1 per roll.
"""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from tabletop.app.lesson_window import (
    HOLD_TICKS,
    ROLL_TICKS,
    LessonPlayer,
    LessonWindow,
    run_lesson_window,
)
from tabletop.board import mapfile
from tabletop.cli import main
from tabletop.render.lesson_plan import build_lesson, frame_count
from tabletop.render.motion import MOVE_ANIMATION_FRAMES

LESSONS = sorted((Path(__file__).resolve().parent.parent / "maps" / "lessons").glob("*.toml"))

MAP = """
[map]
name = "Lesson test"
ruleset = "fight-phase"
width = 24
depth = 18
seed = 3

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "r"
player = "red"
base = "32mm"
charged = true
profile = { M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }
weapons = [{ name = "Close combat weapon", A = 3, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[10, 10]]

[[units]]
id = "e"
player = "blue"
base = "32mm"
profile = { M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }
weapons = [{ name = "Close combat weapon", A = 3, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[13.5, 10]]

[[lesson]]
title = "Not engaged yet"
text = "A 2.24 inch gap."
clause = "fight-phase.txt 12.03"
step = "setup"
overlays = ["engagement"]

[[lesson]]
title = "r piles in"
text = "It ends engaged."
clause = "fight-phase.txt 12.03"
step = "r makes its pile-in"
select = "r/1"
"""

# lesson step 1: setup, 1 still; lesson step 2: r/1 moved -> 30 slide + 1 still + 0 rolls
EXPECTED_FRAMES = 1 + (MOVE_ANIMATION_FRAMES + 1 + 0)     # = 32


def write(tmp_path: Path, text: str = MAP, name: str = "lesson.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def lesson_of(tmp_path, text=MAP):
    return build_lesson(mapfile.load(write(tmp_path, text)))


@pytest.fixture(scope="module")
def display():
    pygame.display.init()
    pygame.font.init()
    yield


# ------------------------------------------------------------------ the shipped lessons
@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_every_shipped_lesson_plays_through(path):
    lesson = build_lesson(mapfile.load(str(path)))
    assert 3 <= len(lesson.pages) <= 8
    indices = [p.index for p in lesson.pages]
    assert indices == sorted(indices)                    # forward through the phase
    for page in lesson.pages:
        assert page.entry.clause.split()[0].endswith(".txt")
        assert page.step.state is not None
    # the animation steps: per page slide (if moved, not the first) + 1 still + 1 per roll
    want = sum((MOVE_ANIMATION_FRAMES if p.moves and k else 0) + 1 + len(p.rolls)
               for k, p in enumerate(lesson.pages))
    assert frame_count(lesson, MOVE_ANIMATION_FRAMES) == want


def test_the_pile_in_lesson_shows_the_sergeant_stay_and_the_rest_move():
    lesson = build_lesson(mapfile.load(str(LESSONS[0].parent / "pile-in.toml")))
    piled = next(p for p in lesson.pages if p.entry.select == "intercessors/1")
    # intercessors/1 starts in base contact with boyz/1 (12.74 + 1.26 = 14): it may not move
    assert "intercessors/1" not in piled.moves
    assert {"intercessors/2", "intercessors/3", "intercessors/4"} <= set(piled.moves)


# ------------------------------------------------------------------ frames and the GIF
def test_the_frame_count_is_worked_out_from_moves_and_rolls(tmp_path):
    lesson = lesson_of(tmp_path)
    assert [p.index for p in lesson.pages] == [0, 3]     # setup; step 3 is red's pile-in
    assert sorted(lesson.pages[1].moves) == ["r/1"] and lesson.pages[1].rolls == []
    assert frame_count(lesson, MOVE_ANIMATION_FRAMES) == EXPECTED_FRAMES == 32


def test_the_gif_has_one_frame_per_animation_step(tmp_path, capsys):
    from PIL import Image
    path = write(tmp_path)
    out = tmp_path / "lesson.gif"
    assert main(["lesson", path, "--gif", str(out), "--size", "400x240", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["frames"] == EXPECTED_FRAMES and d["output"] == str(out)
    assert [s["frames"] for s in d["steps"]] == [1, 31]   # setup 1; 30 slide + 1 still
    with Image.open(out) as im:
        assert im.n_frames == EXPECTED_FRAMES
        assert im.size == (400, 240)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".lesson-")]   # no temp left


def test_step_n_writes_only_that_step(tmp_path, capsys):
    from PIL import Image
    out = tmp_path / "two.gif"
    assert main(["lesson", write(tmp_path), "--gif", str(out), "--step", "2", "--size", "320x200"]) == 0
    with Image.open(out) as im:
        assert im.n_frames == 1      # the first step shown never slides in: 1 still, 0 rolls


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("change, where", [
    (('step = "r makes its pile-in"', "step = 99"), "lesson[1].step: step 99, but the phase run has"),
    (('step = "r makes its pile-in"', 'step = "a dragon flies"'), "lesson[1].step: no step"),
    (('overlays = ["engagement"]', 'overlays = ["engagment"]'), "lesson[0].overlays[0]: unknown overlay 'engagment'"),
    (('select = "r/1"', 'select = "r/9"'), "lesson[1].select: no model 'r/9'"),
    (('select = "r/1"', 'select = "r/1"\narcs = "zz"'), "lesson[1].arcs: no unit 'zz'"),
    (('select = "r/1"', 'select = "r/1"\narcs = "r"'), "lesson[1].arcs: charge arcs are drawn on "
                                                        "rank-and-flank maps only"),
    (('step = "setup"', "step = 4"), "lesson[1].step: step 3 comes before step 4"),
    (('step = "setup"', "step = 0"), "lesson[0].step"),
    (('clause = "fight-phase.txt 12.03"\nstep = "setup"', 'step = "setup"'), "lesson[0].clause"),
])
def test_a_bad_lesson_entry_is_one_located_line(tmp_path, capsys, change, where):
    text = MAP.replace(*change, 1)
    assert text != MAP
    assert main(["lesson", write(tmp_path, text), "--gif", str(tmp_path / "x.gif")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and where in err[0] and "lesson.toml" in err[0], err
    assert not (tmp_path / "x.gif").exists()


@pytest.mark.parametrize("change, where", [
    # the rule texts are the four rule files the project cites (RULE_TEXTS); "nosuch.txt" is none of them
    (('clause = "fight-phase.txt 12.03"\nstep = "r makes', 'clause = "nosuch.txt 1.2"\nstep = "r makes'),
     "lesson[1].clause: unknown rule text 'nosuch.txt'"),
    # a step number is whole: 2.5 is neither a step number nor text, one line (not one per type)
    (('step = "r makes its pile-in"', "step = 2.5"), "lesson[1].step: give \"setup\", a whole step number"),
    # found by the long fuzz profile: a clause of one control character (\x1f) is not stripped as
    # whitespace by the schema but str.split() splits on it, leaving no words (was an IndexError)
    (('clause = "fight-phase.txt 12.03"\nstep = "r makes', 'clause = "\\u001f"\nstep = "r makes'),
     "lesson[1].clause: a clause names a rule text, then its section; this one is blank"),
])
def test_a_bad_clause_file_or_a_fractional_step_is_refused_at_load_in_one_line(
        tmp_path, capsys, change, where):
    text = MAP.replace(*change, 1)
    assert text != MAP
    assert main(["lesson", write(tmp_path, text), "--gif", str(tmp_path / "x.gif")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and where in err[0] and "lesson.toml" in err[0], err
    assert not (tmp_path / "x.gif").exists()


def test_every_fault_of_the_lesson_steps_is_reported_one_line_each(tmp_path, capsys):
    # three faults in two entries: entry 0's overlay and focus, entry 1's step; all three are
    # reported (before, only the first stopped the check)
    text = (MAP.replace('overlays = ["engagement"]', 'overlays = ["engagment"]\nfocus = ["nobody"]', 1)
               .replace('step = "r makes its pile-in"', 'step = "a dragon flies"', 1))
    assert main(["lesson", write(tmp_path, text), "--gif", str(tmp_path / "x.gif")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3, err
    assert "lesson[0].overlays[0]: unknown overlay 'engagment'" in err[0]
    assert "lesson[0].focus[0]: no model, unit or objective 'nobody'" in err[1]
    assert "lesson[1].step: no step" in err[2]
    assert not (tmp_path / "x.gif").exists()


def test_outputs_never_write_over_the_map_and_mp4_names_what_to_install(tmp_path, capsys):
    path = write(tmp_path, name="m.gif")       # a map saved under a .gif name
    assert main(["lesson", path, "--gif", path]) == 2
    assert "is the map itself" in capsys.readouterr().err
    assert Path(path).read_text(encoding="utf-8") == MAP
    from tabletop.render.lesson_movie import mp4_missing
    if mp4_missing():
        assert main(["lesson", write(tmp_path), "--mp4", str(tmp_path / "x.mp4")]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "imageio-ffmpeg" in err[0] and "pip install" in err[0]
    assert main(["lesson", str(tmp_path / "missing.toml"), "--gif", str(tmp_path / "y.gif")]) == 2


def test_a_map_without_lesson_steps_says_so(tmp_path, capsys):
    text = MAP.split("[[lesson]]")[0]
    assert main(["lesson", write(tmp_path, text), "--gif", str(tmp_path / "x.gif")]) == 2
    assert "no [[lesson]] steps" in capsys.readouterr().err


def test_lesson_steps_round_trip_through_the_map_file(tmp_path):
    state = mapfile.load(write(tmp_path))
    again = mapfile.from_dict(__import__("tomllib").loads(mapfile.dumps(state)))
    assert again.lesson == state.lesson and len(state.lesson) == 2
    assert state.lesson[1].select == "r/1" and state.lesson[0].overlays == ("engagement",)


# ------------------------------------------------------------------ the window
def post(k):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def test_the_window_steps_with_posted_keys(tmp_path, display):
    lesson = lesson_of(tmp_path)
    pygame.display.set_mode((800, 480))
    window = LessonWindow(lesson, (800, 480))
    p = window.player
    assert (p.page, p.frame.kind) == (0, "still")
    post(pygame.K_n)
    window.pump()
    assert (p.page, p.frame.kind, p.frame.k) == (1, "slide", 0)     # r/1 slides in
    for _ in range(MOVE_ANIMATION_FRAMES):                           # one slide frame a tick
        p.tick()
        window.draw(pygame.display.get_surface())
    assert p.frame.kind == "still" and not p.animating
    post(pygame.K_p)
    window.pump()
    assert (p.page, p.frame.kind) == (0, "still")                   # back: shown as it ends
    post(pygame.K_RIGHT)
    post(pygame.K_LEFT)
    window.pump()
    assert p.page == 0
    post(pygame.K_SPACE)                                             # play: on after the hold
    window.pump()
    assert p.playing
    for _ in range(HOLD_TICKS):
        p.tick()
    assert p.page == 1
    for _ in range(MOVE_ANIMATION_FRAMES + HOLD_TICKS):
        p.tick()
    assert p.page == 1 and not p.playing                             # stops at the last step
    post(pygame.K_q)
    window.pump()
    assert not p.running


def test_dice_appear_one_roll_at_a_time(tmp_path):
    text = MAP + '\n[[lesson]]\ntitle = "r fights"\ntext = "Rolls."\nclause = "fight-phase.txt 12.05"\nstep = "r fights"\n'
    lesson = lesson_of(tmp_path, text)
    page = lesson.pages[2]
    assert page.rolls and not page.moves
    p = LessonPlayer(lesson, start=1)
    p.next()
    assert p.frame.kind == "still"
    for _ in range(ROLL_TICKS):
        p.tick()
    assert (p.frame.kind, p.frame.k) == ("dice", 1)
    for _ in range(ROLL_TICKS * len(page.rolls)):
        p.tick()
    assert (p.frame.kind, p.frame.k) == ("dice", len(page.rolls))


def test_run_lesson_window_quits_on_q(tmp_path, display):
    lesson = lesson_of(tmp_path)
    pygame.display.init()
    post(pygame.K_n)
    post(pygame.K_q)
    # the window opens on the dummy driver; q ends the loop long before max_ticks
    assert run_lesson_window(lesson, 0, (640, 400), max_ticks=200) == 0


def test_lesson_json_keeps_its_documented_contract(tmp_path, capsys):
    from test_json_contract import Contract
    c = Contract("lesson")
    assert main(["lesson", write(tmp_path), "--gif", str(tmp_path / "c.gif"), "--size", "320x200",
                 "--json"]) == 0
    c.check(json.loads(capsys.readouterr().out), "lesson")
    c.assert_covered()


def test_json_alone_prints_the_steps_and_opens_no_window(monkeypatch, capsys):
    # --help says --json prints the lesson's steps and frames; alone it needs no display
    import tabletop.app.lesson_window as lw

    def no_window(*a, **k):
        raise AssertionError("a window was opened")
    monkeypatch.setattr(lw, "run_lesson_window", no_window)
    path = str(Path(__file__).resolve().parent.parent / "maps" / "lessons" / "pile-in.toml")
    assert main(["lesson", path, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["output"] is None and got["frames"] > 0 and len(got["steps"]) >= 1
