"""One wording for a write that cannot happen (issue 11, item 7): ``render`` (which checks its
output before drawing) said ``cannot write there (permission denied)`` on a read-only file
system where ``pile-in`` (which meets the error when it writes) said ``cannot write: Read-only
file system``.  Both now say ``OUT: cannot write: <the system's reason>``
(``cli.output.cannot_write``)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from tabletop.cli import main, output

ROOT = Path(__file__).resolve().parents[1]
LESSON = str(ROOT / "maps" / "lessons" / "pile-in.toml")
TABLE = str(ROOT / "maps" / "ca-layout-1-table.toml")
EROFS = os.strerror(errno.EROFS)      # "Read-only file system"
EACCES = os.strerror(errno.EACCES)    # "Permission denied"


def _unwritable_folder(monkeypatch, read_only: bool) -> None:
    """Every folder refuses writes, as a read-only mount (or a folder without w) does."""
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, *a, **k:
                        False if mode & os.W_OK else real(p, mode, *a, **k))
    monkeypatch.setattr(output, "_read_only", lambda folder: read_only)


def _failing_save(monkeypatch, code: int) -> None:
    """The map write fails as the system fails it (pile-in checks nothing before writing)."""
    from tabletop.board import mapfile

    def save(*a, **k):
        raise OSError(code, os.strerror(code))
    monkeypatch.setattr(mapfile, "save", save)


@pytest.mark.parametrize("code,read_only", [(errno.EROFS, True), (errno.EACCES, False)])
def test_render_compare_and_pile_in_say_the_same_words(tmp_path, capsys, monkeypatch,
                                                       code, read_only):
    reason = os.strerror(code)
    _failing_save(monkeypatch, code)
    assert main(["pile-in", LESSON, "boyz", "-o", str(tmp_path / "o.toml")]) == 2
    pile_in = capsys.readouterr().err.strip()
    _unwritable_folder(monkeypatch, read_only)
    assert main(["render", LESSON, "-o", str(tmp_path / "x.png")]) == 2
    render = capsys.readouterr().err.strip()
    assert main(["compare", TABLE, TABLE, "-o", str(tmp_path / "c.png")]) == 2
    compare = capsys.readouterr().err.strip()
    assert pile_in == f"{tmp_path / 'o.toml'}: cannot write: {reason}"
    assert render == f"{tmp_path / 'x.png'}: cannot write: {reason}"
    assert compare == f"{tmp_path / 'c.png'}: cannot write: {reason}"
    assert list(tmp_path.iterdir()) == []


def test_write_problem_is_none_for_a_writable_folder(tmp_path):
    assert output.write_problem(str(tmp_path / "x.png")) is None


def test_the_read_only_test_reads_the_mount_flag(tmp_path, monkeypatch):
    # statvfs's ST_RDONLY flag set: the folder is on a read-only file system
    class Flags:
        f_flag = os.ST_RDONLY
    monkeypatch.setattr(os, "statvfs", lambda folder: Flags())
    assert output._read_only(str(tmp_path)) is True
    Flags.f_flag = 0
    assert output._read_only(str(tmp_path)) is False
