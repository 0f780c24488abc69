"""Nothing lost at the window, part two (issue 11 item 7, new-user audit): a map in a
read-only folder, and the temporary file a killed window leaves.

Driven by posted pygame events (``SDL_VIDEODRIVER=dummy``).  The view is fixed at 10 px per
inch with table (0, 0) at pixel (50, 850): table (x, y) is pixel (50 + 10x, 850 - 10y).

A read-only folder: the map's folder is made ``0555``; the tests may run as root, where
that does not stop a write, so ``tempfile.mkstemp`` (where every writer of the project,
``board.writes`` and ``app.autosave_keep``, makes its file) is also made to refuse that
folder with ``EROFS`` ("[Errno 30] Read-only file system"), as the audit saw.  The per-user
fallback folder is ``$XDG_STATE_HOME/tabletop/autosave``, with ``XDG_STATE_HOME`` a folder
of the test's own.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import tempfile
import time

import pygame
import pytest
from window_helpers import E, display_fixture, fixed_view_app, keydown, pixel_of, post_and_handle

from tabletop.app import autosave_place
from tabletop.app.autosave_place import fallback_path, leftovers
from tabletop.app.unsaved import autosave_path
from tabletop.board import mapfile

MAP = """\
# a table in a read-only folder
[map]
name = "Read-only test"
ruleset = "fight-phase"
width = 60
depth = 44

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "int"
player = "red"
base = "32mm"
models = [[10, 10], [10, 12]]

[[units]]
id = "orks"
player = "blue"
base = "32mm"
models = [[20, 10], [22, 10]]
"""

display = display_fixture((1400, 900))
px = pixel_of(900)


def key(k: int, uni: str = "") -> pygame.event.Event:
    return keydown(k, uni)


def drag(start, end) -> list:
    """Select the model at ``start``, then drag it to ``end`` (pixels)."""
    out = [E(pygame.MOUSEBUTTONDOWN, pos=start, button=1),
           E(pygame.MOUSEBUTTONUP, pos=start, button=1),
           E(pygame.MOUSEBUTTONDOWN, pos=start, button=1)]
    for k in range(1, 5):
        p = (start[0] + (end[0] - start[0]) * k // 4, start[1] + (end[1] - start[1]) * k // 4)
        out.append(E(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0)))
    out.append(E(pygame.MOUSEBUTTONUP, pos=end, button=1))
    return out


def move_int1(app) -> None:
    # int/1 from (10, 10) 30 px right and 40 px up: to (13, 14), 5" (a 3-4-5 triangle)
    post_and_handle(app, *drag(px(10, 10), px(13, 14)))
    assert app.state.model("int/1").at == pytest.approx((13, 14))


@pytest.fixture
def folders(tmp_path, monkeypatch):
    """(map path, state home): the map in ``maps/`` (a day old), the state home empty."""
    maps = tmp_path / "maps"
    maps.mkdir()
    path = maps / "pile-in.toml"
    path.write_text(MAP, encoding="utf-8")
    day_ago = time.time() - 86400
    os.utime(path, (day_ago, day_ago))
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    return str(path), state


def read_only(folder: str, monkeypatch) -> None:
    """Make ``folder`` read-only: ``chmod 0555``, and (for root, whom that does not stop)
    ``tempfile.mkstemp`` refusing it with EROFS.  Undone by ``monkeypatch`` and
    ``writable``."""
    os.chmod(folder, 0o555)
    real = tempfile.mkstemp
    folder = os.path.realpath(folder)

    def mkstemp(*args, **kwargs):
        where = kwargs.get("dir")
        if where is not None and os.path.realpath(where) == folder:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), where)
        return real(*args, **kwargs)
    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)


def writable(folder: str, monkeypatch) -> None:
    monkeypatch.undo()
    os.chmod(folder, 0o755)


def test_a_read_only_folder_keeps_the_moves_in_the_fallback_and_says_where(folders, monkeypatch):
    path, state = folders
    maps = os.path.dirname(path)
    read_only(maps, monkeypatch)
    monkeypatch.setenv("XDG_STATE_HOME", str(state))    # (read_only's undo keeps it set)
    app = fixed_view_app(path, (1400, 900))
    move_int1(app)
    fb = fallback_path(autosave_path(path))
    assert fb.startswith(str(state / "tabletop" / "autosave") + os.sep)
    assert os.path.basename(fb).startswith("pile-in-") and fb.endswith(".autosave.toml")
    said = app.message_lines()
    assert any("cannot write" in m and "[Errno 30]" in m and f"kept in {fb}" in m for m in said)
    assert mapfile.load(fb).model("int/1").at == (13, 14)
    # s fails (the folder is read-only); q says where the moves are and that s failed
    post_and_handle(app, key(pygame.K_s, "s"))
    assert app.saved == []
    post_and_handle(app, key(pygame.K_q, "q"))
    question = app.message_lines()[0]
    assert question.startswith("quit with unsaved moves? y: quit (the moves stay in "
                               f"{fb}: the map's folder cannot be written), n: keep the board "
                               "(s failed: ")
    post_and_handle(app, key(pygame.K_y, "y"))
    assert not app.running
    app.close()
    # nothing was written beside the map; the moves are in the fallback
    assert os.listdir(maps) == ["pile-in.toml"]
    assert open(path, encoding="utf-8").read() == MAP
    assert mapfile.load(fb).model("int/1").at == (13, 14)
    # the next opening offers the fallback by its full path, and a loads it
    again = fixed_view_app(path, (1400, 900))
    assert any(f"an autosave newer than the map is there: {fb} (a: load it" in m
               for m in again.messages)
    post_and_handle(again, key(pygame.K_a, "a"))
    assert again.state.model("int/1").at == pytest.approx((13, 14))
    assert again.message_lines()[0] == f"loaded the autosave {fb}"
    again.close()
    writable(maps, monkeypatch)


def test_no_file_at_all_the_quit_question_says_the_moves_will_be_lost(folders, monkeypatch):
    path, state = folders
    maps = os.path.dirname(path)
    read_only(maps, monkeypatch)
    state.write_text("a file, not a folder: the fallback cannot be made under it\n")
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    app = fixed_view_app(path, (1400, 900))
    move_int1(app)
    assert any("[Errno 30]" in m and "no file holds the moves (quitting loses them)" in m
               for m in app.message_lines())
    assert app.unsaved.where is None
    # a second move: the same problem is not said again
    n = len(app.messages)
    post_and_handle(app, *drag(px(10, 12), px(10, 15)))
    assert not any("no file holds" in m for m in app.messages[n:])
    post_and_handle(app, key(pygame.K_q, "q"))
    question = app.message_lines()[0]
    assert "stay in" not in question
    # s writes beside the map, where the autosave could not: it is not offered
    assert question == ("quit with unsaved moves? y: quit (the autosave cannot be "
                        "written: the moves are in no file and will be lost), n: keep "
                        f"the board (s cannot save: {maps} cannot be written)")
    post_and_handle(app, key(pygame.K_n, "n"))      # keep the board: the moves are shown
    assert app.running and app.state.model("int/2").at == pytest.approx((10, 15))
    # the reload question says where the moves go too: u's history, no file
    post_and_handle(app, key(pygame.K_r, "r"))
    assert app.message_lines()[0].startswith(
        "reload with unsaved moves? y: reload (u brings the moves back; no file keeps them)")
    post_and_handle(app, key(pygame.K_n, "n"))
    app.close()
    assert os.listdir(maps) == ["pile-in.toml"]
    writable(maps, monkeypatch)


def test_a_read_only_folder_the_questions_say_where_the_autosave_is_not_offer_s(folders,
                                                                              monkeypatch):
    # issue 11 item 7: before any s, the questions offered "s saves them to a new file",
    # which writes beside the map, in the folder the autosave could not be written to
    path, state = folders
    maps = os.path.dirname(path)
    read_only(maps, monkeypatch)
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    app = fixed_view_app(path, (1400, 900))
    move_int1(app)
    fb = fallback_path(autosave_path(path))
    post_and_handle(app, key(pygame.K_q, "q"))
    assert app.message_lines()[0] == (
        f"quit with unsaved moves? y: quit (the moves stay in {fb}: the map's folder cannot "
        f"be written), n: keep the board (s cannot save: {maps} cannot be written)")
    post_and_handle(app, key(pygame.K_n, "n"))
    post_and_handle(app, key(pygame.K_r, "r"))
    assert app.message_lines()[0] == (
        "reload with unsaved moves? y: reload (u brings the moves back; no file keeps them), "
        f"n: keep the board (s cannot save: {maps} cannot be written; the moves are kept in "
        f"{fb})")
    post_and_handle(app, key(pygame.K_n, "n"))
    app.close()
    assert os.listdir(maps) == ["pile-in.toml"]
    writable(maps, monkeypatch)


def test_the_folder_writable_again_puts_the_autosave_back_beside_the_map(folders, monkeypatch):
    path, state = folders
    maps = os.path.dirname(path)
    read_only(maps, monkeypatch)
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    app = fixed_view_app(path, (1400, 900))
    move_int1(app)
    fb = fallback_path(autosave_path(path))
    assert app.unsaved.where == fb and os.path.isfile(fb)
    writable(maps, monkeypatch)
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    # int/2 (10, 12) -> (10, 15), 3": written beside the map; the fallback, older, goes
    post_and_handle(app, *drag(px(10, 12), px(10, 15)))
    auto = autosave_path(path)
    assert app.unsaved.where == auto and not os.path.exists(fb)
    back = mapfile.load(auto)
    assert back.model("int/1").at == (13, 14) and back.model("int/2").at == (10, 15)
    post_and_handle(app, key(pygame.K_q, "q"))
    assert "(the moves stay in pile-in.autosave.toml)" in app.message_lines()[0]
    app.close()


LEFT = ".pile-in.autosave.toml-k3x_9q2a.tmp.toml"     # mkstemp's 8 random characters


def test_only_this_maps_own_old_leftovers_are_removed_on_opening(folders, monkeypatch):
    path, state = folders
    maps = os.path.dirname(path)
    fb_folder = os.path.dirname(fallback_path(autosave_path(path)))
    os.makedirs(fb_folder)
    fb_left = "." + os.path.basename(fallback_path(autosave_path(path))) + "-abcdefgh.tmp.toml"
    others = [".pile-in.autosave.toml-k3x_9q2.tmp.toml",       # 7 random characters
              ".pile-in.autosave.toml-k3x_9q2ab.tmp.toml",     # 9
              ".pile-in.autosave.toml-K3X_9Q2A.tmp.toml",      # capitals: not mkstemp's
              ".other.autosave.toml-k3x_9q2a.tmp.toml",        # another map's
              ".pile-in.toml-k3x_9q2a.tmp.toml",               # the map's own save (s)
              ".pile-in.autosave.toml-k3x_9q2a.tmp.toml.bak",
              "pile-in.autosave.toml-k3x_9q2a.tmp.toml"]       # no leading dot
    hour_ago = time.time() - 3600
    for name in [LEFT, *others]:
        p = os.path.join(maps, name)
        with open(p, "w") as fh:
            fh.write("x")
        os.utime(p, (hour_ago, hour_ago))
    p = os.path.join(fb_folder, fb_left)
    with open(p, "w") as fh:
        fh.write("x")
    os.utime(p, (hour_ago, hour_ago))
    # a name that fits but was written after this process started (a window open on the
    # same map meanwhile is writing it), and a link that fits: both kept
    young = ".pile-in.autosave.toml-young123.tmp.toml"
    with open(os.path.join(maps, young), "w") as fh:
        fh.write("x")
    later = autosave_place.PROCESS_STARTED + 60
    os.utime(os.path.join(maps, young), (later, later))
    link = ".pile-in.autosave.toml-linkabcd.tmp.toml"
    os.symlink(path, os.path.join(maps, link))
    app = fixed_view_app(path, (1400, 900))
    app.close()
    assert sorted(os.listdir(maps)) == sorted(["pile-in.toml", young, link, *others])
    assert os.listdir(fb_folder) == []
    assert open(path, encoding="utf-8").read() == MAP       # the link's target untouched


WINDOW = """\
import os, signal, sys
from tabletop.app.unsaved import Unsaved
from tabletop.board import mapfile
path = sys.argv[1]
state = mapfile.load(path)
u = Unsaved(path, state)
u.changed(state.with_positions({"int/1": (13.0, 14.0)}))    # a drop: the fast autosave
u.kept.start(u.where, path)      # idle: the rewrite's worker starts on its temporary file
print(u.kept.proc.pid, u.kept.tmp, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def _ended(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="waits for the worker via /proc")
def test_a_window_killed_while_its_autosave_is_rewritten_leaves_nothing_after_reopening(folders):
    path, _ = folders
    maps = os.path.dirname(path)
    # a window (another process): a drop, the idle rewrite's worker started, then kill -9
    window = subprocess.run([sys.executable, "-c", WINDOW, path], capture_output=True,
                            text=True, timeout=120)
    assert window.returncode == -signal.SIGKILL, window.stderr
    pid, tmp = window.stdout.split()
    for _ in range(1200):               # the orphaned worker ends on its own (~1 s)
        if _ended(int(pid)):
            break
        time.sleep(0.05)
    assert sorted(os.listdir(maps)) == sorted(["pile-in.autosave.toml", "pile-in.toml",
                                               os.path.basename(tmp)])
    assert os.path.dirname(tmp) == maps and leftovers(autosave_path(path), time.time() + 1) \
        == [tmp]
    # a new window (a process started after the kill: PROCESS_STARTED is later) opens it
    later = os.stat(tmp).st_mtime + 1
    before = autosave_place.PROCESS_STARTED
    autosave_place.PROCESS_STARTED = later
    try:
        again = fixed_view_app(path, (1400, 900))
    finally:
        autosave_place.PROCESS_STARTED = before
    assert sorted(os.listdir(maps)) == ["pile-in.autosave.toml", "pile-in.toml"]
    # the autosave holds the drop, and the next opening offers it
    assert mapfile.load(autosave_path(path)).model("int/1").at == (13, 14)
    assert any("pile-in.autosave.toml (a: load it" in m for m in again.messages)
    again.close()
