"""Issue 11 item 6 (audit): ``[[decisions]]`` names that can never answer are map errors when the
map loads, so ``check`` refuses what ``fight`` would only override: a gambit or feint value
naming no gambit, a weapon value naming no weapon of the player's models."""

from __future__ import annotations

from pathlib import Path

from tabletop.cli import main

LESSON = Path(__file__).resolve().parents[1] / "maps" / "lessons" / "gambit-challenge.toml"


def _check(capsys, tmp_path, extra: str):
    path = tmp_path / "g.toml"
    path.write_text(LESSON.read_text(encoding="utf-8") + extra, encoding="utf-8")
    code = main(["check", str(path)])
    return code, capsys.readouterr().err, path


def test_a_gambit_or_weapon_no_one_has_is_refused(capsys, tmp_path):
    n = LESSON.read_text(encoding="utf-8").count("[[decisions]]")
    code, err, path = _check(capsys, tmp_path,
                             '\n[[decisions]]\nplayer = "red"\nchoice = "gambit"\nvalue = "Nope"\n'
                             '\n[[decisions]]\nplayer = "blue"\nchoice = "feint"\nvalue = "Guard Up"\n'
                             '\n[[decisions]]\nplayer = "red"\nchoice = "weapon"\nvalue = "Bolter of doom"\n')
    assert code == 2
    lines = err.strip().splitlines()
    assert lines[0].startswith(f"{path}: decisions[{n}].value: 'Nope' is not a gambit (gambit names "
                               f"one of: Seize the Initiative, ")
    assert lines[1] == (f"{path}: decisions[{n + 2}].value: 'Bolter of doom' is no weapon of red's "
                        f"models (weapon names one of: Chainsword, Paragon blade)")
    assert len(lines) == 2          # "Guard Up" is a gambit: fine


def test_names_compare_case_blind(capsys, tmp_path):
    code, err, _ = _check(capsys, tmp_path,
                          '\n[[decisions]]\nplayer = "red"\nchoice = "weapon"\nvalue = " paragon BLADE "\n'
                          '\n[[decisions]]\nplayer = "red"\nchoice = "gambit"\nvalue = "flurry of blows"\n')
    assert code == 0, err
