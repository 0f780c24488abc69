"""Set-ups shared by the command tests: run the command line and capture what it says, write
an inline map or roster to a temporary folder, deploy a roster on an inline table.

Paths may be given as ``Path`` or ``str``; every argument reaches ``tabletop`` as text.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from tabletop.cli import main


def cli(capsys, *argv: Any) -> tuple[int, str, str]:
    """``tabletop ARGV...`` in this process: ``(exit status, stdout, stderr)``."""
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def cli_expect(capsys, *argv: Any, code: int = 0):
    """``tabletop ARGV...``, asserting its exit status is ``code``; the captured output
    (``.out``, ``.err``)."""
    got = main([str(a) for a in argv])
    out = capsys.readouterr()
    assert got == code, out.err
    return out


def write(folder: Path, name: str, content: str | dict | list) -> Path:
    """Write ``content`` to ``folder/name`` (UTF-8): text as it is, a dict or list as
    JSON; the path written."""
    path = Path(folder) / name
    text = content if isinstance(content, str) else json.dumps(content)
    path.write_text(text, encoding="utf-8")
    return path


def deploy_roster(capsys, folder: Path, roster: str | dict, table: str | Path, *extra: Any,
                  player: str = "a", roster_name: str = "r.json", code: int = 0):
    """``tabletop roster ROSTER --map TABLE --player PLAYER -o OUT EXTRA...``: ``roster`` is
    JSON (a dict) or a roster file's text (named ``roster_name``), ``table`` the text of an
    inline map (written to ``t.toml``) or the ``Path`` of a map.  Asserts the exit status is
    ``code``; returns ``(captured output, OUT)``."""
    if isinstance(table, str):
        table = write(folder, "t.toml", table)
    src = write(folder, roster_name, roster)
    out = Path(folder) / "o.toml"
    got = cli_expect(capsys, "roster", src, "--map", table, "--player", player, "-o", out, *extra,
                 code=code)
    return got, out


@functools.cache
def lesson_painter(name: str):
    """``(lesson, painter)`` for ``maps/lessons/NAME.toml``: ``build_lesson`` and a
    ``LessonPainter`` at the GIF's size, made once per test session.  The painter keeps
    what it has worked out (each page's parts, each slide's plan, each still board), all
    of it fixed by the lesson and the frame, and each draw starts its labels afresh, so the
    tests that share it see what a painter of their own would draw.  Kept for the lessons
    whose slides take seconds to plan (flank-charge's turn to face), not for every lesson:
    a painter holds a board picture per page."""
    from tabletop.board import mapfile
    from tabletop.render.lesson_draw import LessonPainter
    from tabletop.render.lesson_movie import GIF_SIZE
    from tabletop.render.lesson_plan import build_lesson

    root = Path(__file__).resolve().parents[1]
    lesson = build_lesson(mapfile.load(str(root / "maps" / "lessons" / f"{name}.toml")))
    return lesson, LessonPainter(lesson, GIF_SIZE)
