"""Issue 11 audit, second pass (items 6 and 7): no command makes folders for its output,
every command refuses a map with a bad profile number at load (the unit's index in the map
file as the place), one load lists every fault, ``check`` runs the lesson entries' checks,
long map strings are shortened in error lines.  Every position is written here."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mapkit import cli

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "maps" / "lessons" / "pile-in.toml"   # intercessors engaged with boyz


# --- 1. a missing output folder is refused, never made --------------------------------------

@pytest.mark.parametrize("argv", [
    ["render", LESSON, "-o", "{out}/a/b/x.png"],
    ["fight", LESSON, "--seed", "1", "-o", "{out}/a/b/x.toml"],
    ["pile-in", LESSON, "intercessors", "-o", "{out}/a/b/x.toml"],
    ["consolidate", LESSON, "intercessors", "-o", "{out}/a/b/x.toml"],
    ["lesson", LESSON, "--gif", "{out}/a/b/g.gif"],
    ["layout", "export", LESSON, "-o", "{out}/a/b/x.json"],
])
def test_missing_output_folder_is_refused_not_made(tmp_path, capsys, argv):
    argv = [str(a).replace("{out}", str(tmp_path)) for a in argv]
    out = argv[argv.index("-o") + 1] if "-o" in argv else argv[argv.index("--gif") + 1]
    flag = "-o" if "-o" in argv else "--gif"
    code, _, err = cli(capsys, *argv)
    assert code == 2
    # the one wording of cli/output.py: the folder named is out's own folder, tmp/a/b
    assert err.strip() == (f"{out}: the folder {tmp_path / 'a' / 'b'} does not exist "
                           f"({flag} makes no folders)")
    assert not (tmp_path / "a").exists()            # nothing made, not even the first level


def test_frames_folder_is_made_but_never_its_parents(tmp_path, capsys):
    frames = tmp_path / "a" / "fr"
    code, _, err = cli(capsys, "fight", LESSON, "--seed", "1", "--frames", frames)
    assert code == 2
    assert err.strip() == (f"{frames}: the folder {tmp_path / 'a'} does not exist "
                           f"(--frames makes the frames folder only, never its parents)")
    assert not (tmp_path / "a").exists()
    # the frames folder itself, under an existing folder, is still made (README)
    frames = tmp_path / "fr"
    code, _, err = cli(capsys, "fight", LESSON, "--seed", "1", "--frames", frames)
    assert code == 0, err
    assert frames.is_dir() and any(frames.iterdir())


def test_the_writer_itself_makes_no_folders(tmp_path):
    from tabletop.board.writes import write_atomic
    with pytest.raises(FileNotFoundError):
        write_atomic(str(tmp_path / "a" / "x.txt"), "x", force=False)
    assert not (tmp_path / "a").exists()
