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


def test_a_gambit_choice_on_a_map_without_gambit_challenges_is_refused(capsys, tmp_path):
    # re-audit 9: a `gambit` decision on a map with no challenges passed check, never to be used
    src = Path(__file__).resolve().parents[1] / "maps" / "lessons" / "overrun.toml"
    path = tmp_path / "o.toml"
    path.write_text(src.read_text(encoding="utf-8")
                    + '\n[[decisions]]\nplayer = "red"\nchoice = "gambit"\nvalue = "Guard Up"\n',
                    encoding="utf-8")
    assert main(["check", str(path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"{path}: decisions[0].choice: 'gambit' is asked only with [rules] challenges = "
        f"\"gambit\" (this map has no challenges)")


def test_seed_on_exact_odds_is_said_to_be_unused(capsys):
    src = str(Path(__file__).resolve().parents[1] / "maps" / "lessons" / "overrun.toml")
    assert main(["fight", src, "--odds", "--seed", "5"]) == 0
    assert "tabletop fight: --seed 5: not used: the odds are exact" in capsys.readouterr().err
