"""Every command that writes a file refuses an existing one without --force (exit 2, one
line, the file untouched) and replaces it with --force; never the map it read."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.cli import main

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = ROOT / "maps" / "ca-layout-1-hammer-and-anvil.toml"
LESSON = ROOT / "maps" / "lessons" / "pile-in.toml"

# R charged and stands 3 - 1.26 = 1.74" from B (32mm bases, r 0.63"): it may pile in and
# consolidate; N, 10" away, may charge B.
SMALL = """\
[map]
name = "Force test"
ruleset = "fight-phase"
width = 44
depth = 30

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "R"
player = "red"
base = "32mm"
charged = true
profile = { M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }
weapons = [{ name = "Knife", A = 2, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[10, 10]]

[[units]]
id = "N"
player = "red"
base = "32mm"
profile = { M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }
weapons = [{ name = "Knife", A = 2, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[10, 20]]

[[units]]
id = "B"
player = "blue"
base = "32mm"
profile = { M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }
weapons = [{ name = "Knife", A = 2, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[13, 10]]
"""

# (command line with {map} and {out}, output name, exit codes with --force)
COMMANDS = {
    "render": (["render", "{map}", "-o", "{out}"], "out.png", (0,)),
    "fight": (["fight", "{map}", "-o", "{out}"], "out.toml", (0,)),
    "pile-in": (["pile-in", "{map}", "R", "-o", "{out}"], "out.toml", (0,)),
    "consolidate": (["consolidate", "{map}", "R", "--fought", "-o", "{out}"], "out.toml", (0,)),
    "charge": (["charge", "{map}", "N", "B", "-o", "{out}"], "out.png", (0,)),
    "check": (["check", "{map}", "-o", "{out}"], "out.png", (0, 1)),
    "compare": (["compare", str(LAYOUT), "{map}", "-o", "{out}"], "out.png", (0, 1)),
    "lesson": (["lesson", str(LESSON), "--gif", "{out}", "--step", "1", "--size", "320x200"],
               "out.gif", (0,)),
}


def _argv(name: str, map_path: Path, out: Path) -> list[str]:
    argv, _, _ = COMMANDS[name]
    return [a.format(map=map_path, out=out) for a in argv]


@pytest.mark.parametrize("name", list(COMMANDS))
def test_an_existing_output_needs_force(name, tmp_path, capsys):
    map_path = tmp_path / "map.toml"
    map_path.write_text(LAYOUT.read_text() if name == "compare" else SMALL)
    out = tmp_path / COMMANDS[name][1]
    out.write_bytes(b"precious")
    assert main(_argv(name, map_path, out)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "already exists" in err[0] and "--force" in err[0]
    assert out.read_bytes() == b"precious"
    assert main(_argv(name, map_path, out) + ["--force"]) in COMMANDS[name][2]
    assert out.read_bytes() != b"precious"
    # nothing but the map and the output in the folder: no temporary file left
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({"map.toml", out.name})


@pytest.mark.parametrize("name", ["render", "fight", "pile-in", "check"])
def test_force_never_writes_the_map_read(name, tmp_path, capsys):
    map_path = tmp_path / "map.toml"
    map_path.write_text(SMALL)
    out = map_path if name in ("fight", "pile-in") else tmp_path / "map.png"
    if out != map_path:
        out.symlink_to(map_path)        # the picture named as a link to the map itself
    assert main(_argv(name, map_path, out) + ["--force"]) == 2
    assert "input map" in capsys.readouterr().err
    assert map_path.read_text() == SMALL
