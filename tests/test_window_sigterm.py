"""``kill PID`` (SIGTERM) on a window with unsaved work ends it at once (issue 11, "nothing
lost"): no quit question, no traceback, exit status 143 (128 + SIGTERM, as a shell reports
it), the autosave holding the work as on the way out by ``q`` then ``y``, the map untouched.

Each test runs ``tests/window_signal_driver.py`` in a subprocess under the dummy video
driver: it opens ``tabletop view`` (``edit``: the map's first model moved 1" along +x, as a
drag would) or ``tabletop view --play`` (``play``: the first question answered with its
default, as Enter would), prints ``ready`` once the autosave holds that work, and the test
sends SIGTERM.  Before the fix SDL turned SIGTERM into a ``QUIT`` event, which asked the
quit question and left the window open.  The time-outs only stop a hung window; nothing is
timed.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from test_app_unsaved import MAP  # the unsaved-work tests' table, a comment on top

from tabletop.board import mapfile

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "tests" / "window_signal_driver.py"
HUNG_S = 60      # a window that has not said ready / ended by then is hung (not a timing)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is a POSIX signal")


def _run_and_term(mode: str, path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, str(DRIVER), mode, str(path), "2"], cwd=path.parent,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()       # "ready": the work is unsaved, the autosave has it
        assert line == "ready\n", (line, proc.stderr.read() if proc.stderr else "")
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=HUNG_S)
    except BaseException:
        proc.kill()
        proc.communicate()
        raise
    return subprocess.CompletedProcess(proc.args, proc.returncode, line + out, err)


def test_sigterm_on_the_edit_window_keeps_the_moves_in_the_autosave(tmp_path):
    path = tmp_path / "map.toml"
    path.write_text(MAP, encoding="utf-8")
    got = _run_and_term("edit", path)
    assert got.returncode == 128 + signal.SIGTERM == 143
    assert got.stderr == ""                         # no traceback, no question
    assert path.read_text(encoding="utf-8") == MAP  # the map itself is not written
    # the autosave is the board: int/1 moved from (10, 10) by 1" along +x to (11, 10), the
    # rest as in the map
    auto = mapfile.load(str(tmp_path / "map.autosave.toml"))
    assert (auto.model("int/1").x, auto.model("int/1").y) == pytest.approx((11.0, 10.0))
    assert (auto.model("int/2").x, auto.model("int/2").y) == pytest.approx((10.0, 12.0))
    assert (auto.model("orks/1").x, auto.model("orks/1").y) == pytest.approx((20.0, 10.0))


def test_sigterm_on_the_play_window_keeps_the_answers_in_the_play_autosave(tmp_path):
    path = tmp_path / "map.toml"
    shutil.copy(ROOT / "maps" / "lessons" / "character-challenge.toml", path)
    before = path.read_bytes()
    got = _run_and_term("play", path)
    assert got.returncode == 143
    assert got.stderr == ""
    assert path.read_bytes() == before
    # seed 2: the first question is red's challenge (character-challenge.txt: the active
    # player may issue one first), its default red's Captain spears/2, the only character of
    # red's block; answered at the window, so the autosave holds it, by "window"
    with open(tmp_path / "map.play-autosave.toml", "rb") as fh:
        data = tomllib.load(fh)
    assert [(d["player"], d["choice"], d["value"], d.get("by")) for d in data["decisions"]] == [
        ("red", "issue_challenge", "spears/2", "window")]
    assert data["map"]["seed"] == 2
    assert not (tmp_path / "map.autosave.toml").exists()     # the board's autosave: no moves
