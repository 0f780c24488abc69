"""Code health in CI (issue 11 item 8): ruff over the package, the tests and the tools, and
mypy over ``board/``, ``geometry/`` and ``rules/`` with no errors; no file names a path of
the machine it was made on.

Both tools are test dependencies (``pip install -e '.[test]'``), so the README's test command
and ``.ci/run`` run them; each runs as its own process, configured by ``pyproject.toml``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: the packages mypy must pass with no error (issue 11 item 8)
TYPED = ["tabletop/board", "tabletop/geometry", "tabletop/rules"]


def _tool(name: str) -> list[str]:
    """The command that runs ``name`` from this interpreter's environment."""
    exe = Path(sys.executable).with_name(name)
    if exe.exists():
        return [str(exe)]
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]'")
    return [found]


def _run(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing():
    out = _run(_tool("ruff") + ["check", "tabletop", "tests", "tools"])
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]


def test_mypy_finds_no_error_in_board_geometry_rules():
    out = _run(_tool("mypy") + ["--no-error-summary", *TYPED])
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]


def test_no_file_names_a_path_of_the_machine_it_was_made_on():
    machine = re.compile(r"/(?:work|root|home/[a-z]+|tmp/[a-z]+)/[\w.-]+/")
    found = []
    for path in [*ROOT.glob("tabletop/**/*"), *ROOT.glob("maps/**/*.toml"),
                 *ROOT.glob("tools/*.py"), *ROOT.glob("docs/*.md"), ROOT / "README.md"]:
        if not path.is_file() or path.suffix not in {".py", ".toml", ".md", ".csv", ".txt"}:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if machine.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not found, "\n".join(found)
