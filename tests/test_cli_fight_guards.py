"""Guards a user hits with ``fight`` and ``check`` (exit 2 before any work; warnings)."""

from __future__ import annotations

import json
from pathlib import Path

from tabletop.cli import main

LESSON = str(Path(__file__).resolve().parent.parent / "maps" / "lessons/pile-in.toml")


def test_frames_folder_with_another_runs_frames_is_refused_before_resolving(tmp_path, capsys):
    folder = tmp_path / "frames"
    folder.mkdir()
    (folder / "001-start-of-the-fight-phase.png").write_bytes(b"old")
    assert main(["fight", LESSON, "--seed", "1", "--frames", str(folder)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""                       # nothing resolved, nothing printed
    assert "already holds 1 frames of another run" in captured.err
    assert (folder / "001-start-of-the-fight-phase.png").read_bytes() == b"old"


def test_out_must_be_a_toml_map(tmp_path, capsys):
    assert main(["fight", LESSON, "--seed", "1", "-o", str(tmp_path / "out.png")]) == 2
    assert "give a name ending in .toml" in capsys.readouterr().err
    assert not (tmp_path / "out.png").exists()


def test_frames_view_needs_frames(capsys):
    assert main(["fight", LESSON, "--frames-view", "phase"]) == 2
    assert capsys.readouterr().err.strip() == "--frames-view: give --frames DIR too"


def test_fight_warns_on_an_illegal_table(write_map, capsys):
    text = Path(LESSON).read_text(encoding="utf-8")
    # put a second unit's model on top of the first intercessor
    path = write_map(text + '\n[[units]]\nid = "extra"\nplayer = "marines"\nbase = "32mm"\n'
                     'profile = { M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }\n'
                     'weapons = [{ name = "Knife", A = 1, WS = 3, S = 4, AP = 0, D = 1 }]\n'
                     'models = [[1, 1]]\n')
    from tabletop.board import mapfile
    first = mapfile.load(path).units[0].models[0]
    path = write_map(Path(path).read_text().replace("models = [[1, 1]]",
                                                    f"models = [[{first.x}, {first.y + 0.3}]]"))
    assert main(["fight", path, "--seed", "1", "--json"]) == 0
    captured = capsys.readouterr()
    json.loads(captured.out)                        # stdout stays pure JSON
    assert "warning: the table is not legal (1 overlapping pair)" in captured.err


def test_check_reports_unusable_profiles_but_not_missing_ones(write_map, capsys):
    path = write_map("""
    [map]
    name = "p"
    ruleset = "fight-phase"
    width = 24
    depth = 18
    [[players]]
    id = "red"
    active = true
    [[units]]
    id = "a"
    player = "red"
    base = "32mm"
    profile = { T = 4, Sv = 3, W = 1 }
    weapons = [{ name = "Bad", A = -3, WS = 3, S = 4, AP = 0, D = 1 }]
    models = [[5, 5]]
    [[units]]
    id = "layout-only"
    player = "red"
    base = "32mm"
    models = [[10, 5]]
    """)
    # an unusable value is bad input, as `fight` says (exit 2, the same one line, no JSON);
    # the layout-only unit's missing profile is not reported by check
    assert main(["check", path, "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"{path}: units[0].weapons[0].A: must be a whole number or dice "
                                f"such as \"D3\" or \"D6+1\", got -3"]


def test_layout_tolerance_needs_layout(capsys):
    assert main(["check", LESSON, "--layout-tolerance", "1"]) == 2
    assert "give --layout REF.toml too" in capsys.readouterr().err
