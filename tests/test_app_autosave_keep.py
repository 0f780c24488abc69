"""The autosave keeps the map's comments and layout (issue 11 item 7, ``app.autosave_keep``),
and ``r`` refuses what a command refuses (``rules.map_checks``), driven by posted events.

The view is fixed at 10 px per inch with table (0, 0) at pixel (50, 850): table (x, y) is
pixel (50 + 10x, 850 - 10y).  A frame is one ``App.update`` and one ``App.draw``, as the
window's loop does; after each one the autosave on disk is read back whole and must load to
the board shown (never a partial file).  The worker is another process: where a test needs
its result it waits for that process to end (``Popen.wait``), then runs one more frame.
"""

from __future__ import annotations

import os
import signal

import pygame
import pytest
from window_helpers import E, display_fixture, fixed_view_app, keydown, pixel_of, post_and_handle

from tabletop.app import autosave_keep
from tabletop.app.app import App
from tabletop.app.autosave_keep import CANNOT, IDLE_FRAMES, KEPT, rewrite
from tabletop.app.unsaved import autosave_path
from tabletop.board import mapfile
from tabletop.cli import main

MAP = """\
# a club table: this comment must survive the autosave too
[map]
name = "Autosave keep test"
ruleset = "fight-phase"
width = 60
depth = 44

[[players]]
id = "red"      # the attacker
active = true

[[players]]
id = "blue"

# --- red ---
[[units]]
id = "int"
player = "red"
base = "32mm"
profile = { M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }
weapons = [{ name = "Knife", A = 3, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[10, 10], [10, 12]]   # measured 2026-03-14

# --- blue ---
[[units]]
id = "orks"
player = "blue"
base = "32mm"
models = [[20, 10], [22, 10]]
"""

display = display_fixture((1400, 900))
px = pixel_of(900)


def drag_events(start, end):
    """Select the model at ``start``, then drag it to ``end`` (pixels)."""
    out = [E(pygame.MOUSEBUTTONDOWN, pos=start, button=1),
           E(pygame.MOUSEBUTTONUP, pos=start, button=1),
           E(pygame.MOUSEBUTTONDOWN, pos=start, button=1)]
    for k in range(1, 5):
        p = (start[0] + (end[0] - start[0]) * k // 4, start[1] + (end[1] - start[1]) * k // 4)
        out.append(E(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0)))
    out.append(E(pygame.MOUSEBUTTONUP, pos=end, button=1))
    return out


@pytest.fixture
def map_path(tmp_path):
    p = tmp_path / "map.toml"
    p.write_text(MAP, encoding="utf-8")
    return str(p)


@pytest.fixture
def app(map_path, display):
    a = fixed_view_app(map_path, (1400, 900))
    yield a
    a.close()


def frames(app: App, n: int) -> None:
    """``n`` frames; after each the autosave (when there) loads whole to the board shown."""
    auto = autosave_path(app.path)
    for _ in range(n):
        app.update(1 / 60)
        app.draw(pygame.display.get_surface())
        if os.path.exists(auto):
            assert mapfile.to_dict(mapfile.load(auto)) == mapfile.to_dict(app.state)


def finish_worker(app: App) -> None:
    """Wait for the worker process to end, then one frame takes its result."""
    kept = app.unsaved.kept
    assert kept.state == "working" and kept.proc is not None
    kept.proc.wait(timeout=120)
    frames(app, 1)


def move_int1(app: App) -> None:
    # int/1 from (10, 10) 30 px right, 40 px up: to (13, 14), 5" (a 3-4-5 triangle)
    post_and_handle(app, *drag_events(px(10, 10), px(13, 14)))
    assert app.state.model("int/1").at == pytest.approx((13, 14))


def files(map_path: str) -> list[str]:
    return sorted(os.listdir(os.path.dirname(map_path)))


def test_after_idle_frames_the_autosave_keeps_the_maps_comments(app, map_path):
    move_int1(app)
    auto = autosave_path(map_path)
    fast = open(auto, encoding="utf-8").read()
    assert "#" not in fast                          # the fast copy: tomli-w, no comments
    assert app.unsaved.kept.state == "fast"
    frames(app, IDLE_FRAMES - 1)                    # not idle long enough yet
    assert app.unsaved.kept.state == "fast"
    frames(app, 1)                                  # the IDLE_FRAMES-th idle frame starts it
    finish_worker(app)
    assert app.unsaved.kept.state == "kept"
    text = open(auto, encoding="utf-8").read()
    # the map's own text with only int's models line changed: [[10, 10], [10, 12]] ->
    # [[13, 14], [10, 12]] (int/1 moved, int/2 not); its comment after the line is kept
    expected = MAP.replace("models = [[10, 10], [10, 12]]", "models = [[13, 14], [10, 12]]")
    assert text == expected
    assert mapfile.load(auto).model("int/1").at == (13, 14)
    assert files(map_path) == ["map.autosave.toml", "map.toml"]     # no temporary file left
    assert open(map_path, encoding="utf-8").read() == MAP           # the map untouched


def test_closing_right_after_a_move_leaves_the_autosave_in_the_maps_words(app, map_path):
    # q then y at once after a drag: no idle spell, so the rewrite is done on the way out
    move_int1(app)
    auto = autosave_path(map_path)
    assert "#" not in open(auto, encoding="utf-8").read()       # the fast copy so far
    app.close()
    expected = MAP.replace("models = [[10, 10], [10, 12]]", "models = [[13, 14], [10, 12]]")
    assert open(auto, encoding="utf-8").read() == expected
    assert app.unsaved.kept.state == "kept"
    assert files(map_path) == ["map.autosave.toml", "map.toml"]     # no temporary file left
    assert open(map_path, encoding="utf-8").read() == MAP


def test_closing_while_the_worker_runs_waits_for_it(app, map_path):
    move_int1(app)
    frames(app, IDLE_FRAMES)                         # the worker starts
    assert app.unsaved.kept.state == "working"
    app.close()
    expected = MAP.replace("models = [[10, 10], [10, 12]]", "models = [[13, 14], [10, 12]]")
    assert open(autosave_path(map_path), encoding="utf-8").read() == expected
    assert files(map_path) == ["map.autosave.toml", "map.toml"]


def test_input_keeps_the_window_from_being_idle(app, map_path):
    move_int1(app)
    frames(app, IDLE_FRAMES - 1)
    post_and_handle(app, E(pygame.MOUSEMOTION, pos=(700, 300), rel=(1, 0), buttons=(0, 0, 0)))
    frames(app, IDLE_FRAMES - 1)                    # counted again from the motion
    assert app.unsaved.kept.state == "fast"
    # a press held (a drag about to start) is not idle either, however many frames
    post_and_handle(app, E(pygame.MOUSEBUTTONDOWN, pos=px(13, 14), button=1))
    frames(app, IDLE_FRAMES + 5)
    assert app.unsaved.kept.state == "fast"
    post_and_handle(app, E(pygame.MOUSEBUTTONUP, pos=px(13, 14), button=1))
    frames(app, IDLE_FRAMES)
    assert app.unsaved.kept.state == "working"
    finish_worker(app)
    assert app.unsaved.kept.state == "kept"


def test_a_change_while_the_worker_runs_stops_it_and_the_newer_board_wins(app, map_path):
    move_int1(app)
    frames(app, IDLE_FRAMES)
    kept = app.unsaved.kept
    assert kept.state == "working"
    old_proc, old_tmp = kept.proc, kept.tmp
    assert os.path.exists(old_tmp)
    # int/2 (10, 12) -> (10, 15), 3": a fast copy of the new board at once; the old
    # worker is stopped and its temporary file removed, never renamed over the new copy
    post_and_handle(app, *drag_events(px(10, 12), px(10, 15)))
    assert kept.state == "fast" and kept.proc is None and not os.path.exists(old_tmp)
    old_proc.wait(timeout=120)
    frames(app, IDLE_FRAMES)
    finish_worker(app)
    text = open(autosave_path(map_path), encoding="utf-8").read()
    assert text == MAP.replace("models = [[10, 10], [10, 12]]", "models = [[13, 14], [10, 15]]")
    assert files(map_path) == ["map.autosave.toml", "map.toml"]


def test_a_killed_worker_leaves_the_fast_copy_whole(app, map_path):
    move_int1(app)
    auto = autosave_path(map_path)
    fast = open(auto, "rb").read()
    frames(app, IDLE_FRAMES)
    kept = app.unsaved.kept
    kept.proc.send_signal(signal.SIGKILL)           # killed at whatever point it had reached
    kept.proc.wait(timeout=120)
    frames(app, 1)
    assert kept.state == "cannot"
    assert open(auto, "rb").read() == fast          # the fast copy, whole
    assert files(map_path) == ["map.autosave.toml", "map.toml"]
    assert mapfile.load(auto).model("int/1").at == (13, 14)


def test_a_window_killed_before_the_rename_leaves_the_fast_copy(app, map_path, monkeypatch):
    move_int1(app)
    auto = autosave_path(map_path)
    fast = open(auto, "rb").read()
    frames(app, IDLE_FRAMES)
    kept = app.unsaved.kept
    kept.proc.wait(timeout=120)
    tmp = kept.tmp

    def killed(src, dst):
        raise KeyboardInterrupt          # the window dies as it would rename
    monkeypatch.setattr(autosave_keep.os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        frames(app, 1)
    monkeypatch.undo()
    assert open(auto, "rb").read() == fast          # the autosave: the fast copy, whole
    # the worker's file is whole too (it was fsync-ed before it ended): the kept text
    assert mapfile.load(tmp).model("int/1").at == (13, 14)
    assert os.path.basename(tmp).startswith(".map.autosave.toml-") and ".tmp" in tmp


def test_save_and_undo_back_to_the_map_drop_the_autosave_and_its_worker(app, map_path):
    move_int1(app)
    frames(app, IDLE_FRAMES)
    tmp = app.unsaved.kept.tmp
    post_and_handle(app, keydown(pygame.K_u, "u"))  # back to the map as loaded
    assert app.unsaved.kept.state == "none" and not os.path.exists(tmp)
    assert files(map_path) == ["map.toml"]
    frames(app, IDLE_FRAMES + 1)
    assert app.unsaved.kept.proc is None
    # s keeps the map's comments too (mapfile.save edits the map's document)
    move_int1(app)
    post_and_handle(app, keydown(pygame.K_s, "s"))
    saved = os.path.join(os.path.dirname(map_path), "map-1.toml")
    assert open(saved, encoding="utf-8").read() == MAP.replace(
        "models = [[10, 10], [10, 12]]", "models = [[13, 14], [10, 12]]")
    assert app.unsaved.kept.state == "none"
    assert files(map_path) == ["map-1.toml", "map.toml"]


def test_the_worker_never_makes_a_file_nor_writes_a_map_it_cannot_keep(tmp_path, map_path):
    state = mapfile.load(map_path)
    auto = str(tmp_path / "a.autosave.toml")
    with open(auto, "w", encoding="utf-8") as fh:
        fh.write(mapfile.dumps(state))
    gone = str(tmp_path / ".gone.tmp.toml")
    assert rewrite(auto, map_path, gone) == CANNOT and not os.path.exists(gone)  # removed meanwhile
    bad = tmp_path / "bad.toml"
    bad.write_text("[map\n", encoding="utf-8")       # a map that no longer reads
    out = tmp_path / ".out.tmp.toml"
    out.write_text("", encoding="utf-8")
    assert rewrite(auto, str(bad), str(out)) == CANNOT and out.read_text() == ""
    assert rewrite(auto, map_path, str(out)) == KEPT and out.read_text(encoding="utf-8") == MAP


# ------------------------------------------------------------------ r checks as the CLI does
BOWTIE = """
[[terrain]]
id = "ruin"
kind = "ruin"
polygon = [[30, 20], [34, 24], [34, 20], [30, 24]]
"""


@pytest.mark.parametrize("edit", [
    # a terrain outline that crosses itself at (32, 22): mapfile.load took it, the
    # snapshot's shapes do not (geometry.layout_checks.shape_problems)
    lambda t: t + BOWTIE,
    # a profile's A = 1.5: attacks are whole numbers (board.profile_values)
    lambda t: t.replace("profile = { M = 6,", "profile = { A = 1.5, M = 6,"),
], ids=["shape", "profile"])
def test_reload_of_a_map_a_command_refuses_shows_its_line_and_keeps_the_board(
        app, map_path, edit, capsys):
    move_int1(app)
    before = app.state
    with open(map_path, "w", encoding="utf-8") as fh:
        fh.write(edit(MAP))
    assert main(["check", map_path]) == 2
    cli_lines = capsys.readouterr().err.splitlines()
    assert len(cli_lines) == 1 and cli_lines[0].startswith(f"{map_path}: ")
    post_and_handle(app, keydown(pygame.K_r, "r"), keydown(pygame.K_y, "y"))
    assert app.state is before                      # the board kept
    assert app.messages[-1].splitlines() == [
        "reload failed; the board is unchanged (1 problem):", *cli_lines]
    frames(app, 3)                                  # and it goes on drawing
    assert app.running


def test_the_autosave_is_checked_as_a_map_when_loaded(app, map_path):
    auto = autosave_path(map_path)
    with open(auto, "w", encoding="utf-8") as fh:
        fh.write(MAP + BOWTIE)
    before = app.state
    post_and_handle(app, keydown(pygame.K_a, "a"))
    assert app.state is before
    assert app.messages[-1] == (f"{auto}: terrain[0].polygon: the outline crosses itself "
                                f"at (32 22)")


def test_the_cli_and_the_window_share_one_missing_profile_wording():
    from tabletop.cli import common
    from tabletop.rules import map_checks
    assert common.MISSING_PROFILE == map_checks.MISSING_PROFILE
