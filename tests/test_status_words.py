"""Unknown status words are refused at load (issue 10 item 1, landing-fix 3; named default
board/statuses.py KNOWN_STATUSES, [rules] extra_statuses).  A typo of "advanced" would
otherwise give charge odds to a unit that may not charge."""

from __future__ import annotations

import pytest
from test_charge_plan import fp_map

from tabletop.cli import main


def _with_status(write_map, words: str, rules: str = "", model: bool = False) -> str:
    path = fp_map(write_map, [("a", "red", [(10, 20)]), ("t", "blue", [(16, 20)])], rules=rules)
    text = open(path).read()
    if model:
        text = text.replace("models = [[10, 20]]",
                            f"models = [{{ at = [10, 20], status = {words} }}]")
    else:
        text = text.replace('id = "a"\n', f'id = "a"\nstatus = {words}\n')
    open(path, "w").write(text)
    return path


@pytest.mark.parametrize("cmd", [["check"], ["charge", "{map}", "a", "t"]])
def test_an_unknown_status_is_refused_with_one_located_line(write_map, capsys, cmd):
    path = _with_status(write_map, '["sleepy"]')
    argv = [path if c == "{map}" else c for c in cmd] + ([path] if cmd == ["check"] else [])
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "units[0].status: unknown status 'sleepy' on unit a" in err[0]
    assert "advanced, fell-back, fleeing" in err[0]


def test_a_typo_of_advanced_gets_no_odds(write_map, capsys):
    assert main(["charge", _with_status(write_map, '["advnaced"]'), "a", "t"]) == 2
    assert "unknown status 'advnaced'" in capsys.readouterr().err


def test_a_model_status_is_checked_and_located(write_map, capsys):
    assert main(["check", _with_status(write_map, '["fel-back"]', model=True)]) == 2
    assert "units[0].models[0].status: unknown status 'fel-back'" in capsys.readouterr().err


def test_known_words_any_case_and_extra_statuses_load(write_map, capsys):
    # "Advanced" (any case) is known: the charge is refused with its reason, exit 0
    assert main(["charge", _with_status(write_map, '["Advanced"]'), "a", "t"]) == 0
    assert "has advanced this turn" in capsys.readouterr().out
    # a word the map names in [rules] extra_statuses loads, and bars nothing
    path = _with_status(write_map, '["sleepy", "challenge:t/1"]', rules='extra_statuses = ["sleepy"]')
    assert main(["charge", path, "a", "t"]) == 0
    assert "needs" in capsys.readouterr().out
