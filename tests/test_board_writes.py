"""board.writes: every write through a temporary file of its own, renamed into place;
and mapfile.save editing the document it read (comments and layout kept)."""

from __future__ import annotations

import os

import pytest

from tabletop.board import mapfile
from tabletop.board.writes import OutputExistsError, atomic_target, write_atomic

COMMENTED = """\
# Club table, measured on Tuesday
[map]
name = "Comments"   # what the club calls it
ruleset = "fight-phase"
width = 44
depth = 30

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

# the squad that charged
[[units]]
id = "R"
player = "red"
base = "32mm"
models = [
  [10, 10],     # sergeant
  [10, 12.5],   # the one that moves
]

[[units]]
id = "B"
player = "blue"
base = "32mm"
models = [[20, 10]]
# end of file
"""


def test_existing_target_needs_force(tmp_path):
    p = tmp_path / "out.txt"
    p.write_text("precious")
    with pytest.raises(OutputExistsError, match="already exists"):
        write_atomic(str(p), "new", force=False)
    assert p.read_text() == "precious"
    write_atomic(str(p), "new", force=True)
    assert p.read_text() == "new"
    assert sorted(os.listdir(tmp_path)) == ["out.txt"]      # no temporary file left


def test_fixed_temporary_names_of_a_user_are_never_touched(tmp_path):
    # the old writers used out.toml.tmp and .out.png.tmp.png: a user's files of those names
    # were overwritten and then renamed away
    mine = {"out.toml.tmp": "mine 1", ".out.png.tmp.png": "mine 2"}
    for name, text in mine.items():
        (tmp_path / name).write_text(text)
    write_atomic(str(tmp_path / "out.toml"), "x", force=False)
    write_atomic(str(tmp_path / "out.png"), b"y", force=False)
    for name, text in mine.items():
        assert (tmp_path / name).read_text() == text
    assert sorted(os.listdir(tmp_path)) == sorted([*mine, "out.toml", "out.png"])


def test_a_link_at_the_target_is_replaced_not_written_through(tmp_path):
    victim = tmp_path / "victim.toml"
    victim.write_text("keep me")
    link = tmp_path / "out.toml"
    link.symlink_to(victim)
    with pytest.raises(OutputExistsError):          # a link is an existing file
        write_atomic(str(link), "new", force=False)
    write_atomic(str(link), "new", force=True)
    assert victim.read_text() == "keep me"
    assert not link.is_symlink() and link.read_text() == "new"


def test_the_file_read_is_never_written_even_with_force(tmp_path):
    src = tmp_path / "map.toml"
    src.write_text("the map")
    with pytest.raises(OutputExistsError, match="the file that was read"):
        write_atomic(str(src), "other", force=True, keep=[str(src)])
    assert src.read_text() == "the map"


def test_a_failed_write_leaves_nothing_behind(tmp_path):
    (tmp_path / "out.png").write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with atomic_target(str(tmp_path / "out.png"), force=True) as tmp:
            with open(tmp, "wb") as fh:
                fh.write(b"half")
            raise RuntimeError("the writer died")
    assert (tmp_path / "out.png").read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["out.png"]


def test_saving_after_a_move_keeps_every_comment_and_changes_only_that_line(tmp_path):
    src = tmp_path / "map.toml"
    src.write_text(COMMENTED)
    state = mapfile.load(str(src))
    out = mapfile.save(state.with_positions({"R/2": (11.25, 13.5)}), str(tmp_path / "map-1.toml"))
    old, new = COMMENTED.splitlines(), open(out, encoding="utf-8").read().splitlines()
    assert len(old) == len(new)
    changed = [(a, b) for a, b in zip(old, new) if a != b]
    # R/2 moved from (10, 12.5) to (11.25, 13.5): only its line, its comment kept
    assert changed == [("  [10, 12.5],   # the one that moves", "  [11.25, 13.5],   # the one that moves")]
    assert mapfile.load(out).model("R/2").at == (11.25, 13.5)
    assert src.read_text() == COMMENTED


def test_saving_after_a_casualty_drops_only_that_model(tmp_path):
    src = tmp_path / "map.toml"
    src.write_text(COMMENTED)
    state = mapfile.load(str(src)).without_models(["R/1"])
    text = open(mapfile.save(state, str(tmp_path / "after.toml")), encoding="utf-8").read()
    # R/2 keeps its id (n = 2) once R/1 is gone; every comment line but the removed
    # model's own is still there
    for line in COMMENTED.splitlines():
        if line.strip().startswith("#"):
            assert line in text
    assert mapfile.load(str(tmp_path / "after.toml")).unit("R").models[0].id == "R/2"
