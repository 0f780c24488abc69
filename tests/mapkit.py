"""Set-ups shared by the command tests: run the command line and capture what it says, write
an inline map or roster to a temporary folder, deploy a roster on an inline table.

Paths may be given as ``Path`` or ``str``; every argument reaches ``tabletop`` as text.
"""

from __future__ import annotations

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
