"""A ``[[decisions]]`` entry the phase never asks for is ignored, and ``fight`` says so
(audit 9 finding 5: ``gambit = "Guard Up"`` on a map without challenges passed without a
word; that one is now a map error, test_decision_names); ``--json`` lists the entries'
indices under ``decisions_unused``."""

from __future__ import annotations

import json
from pathlib import Path

from tabletop.cli import main

ROOT = Path(__file__).resolve().parent.parent
OVERRUN = (ROOT / "maps" / "lessons" / "overrun.toml").read_text(encoding="utf-8")
CHAMPION = str(ROOT / "tests" / "scenarios" / "gambit-lone-champion.toml")

# gambit challenges on, but no unit has a character: no challenge, so no gambit is asked
NEVER = """

[rules]
challenges = "gambit"

[[decisions]]
player = "red"
choice = "gambit"
value = "Guard Up"
"""


def test_a_decision_no_question_asks_for_is_named(write_map, capsys):
    # the overrun lesson with gambit challenges on has no character: no gambit is ever asked
    path = write_map(OVERRUN + NEVER)
    assert main(["fight", path, "--seed", "3"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"{path}: warning: decisions[0]: red's gambit = 'Guard Up' was never "
                   "asked this phase; it is ignored"]
    assert main(["fight", path, "--seed", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["decisions_unused"] == [0]


def test_used_decisions_give_no_warning_and_an_unasked_prolong_does(capsys):
    # seed 1: the challenge's first round removes tac/4, so the fifth entry (red's
    # prolong = false) is never asked; the first four (issue, accept, two gambits) are used
    assert main(["fight", CHAMPION, "--seed", "1", "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["decisions_unused"] == [4]
    assert "decisions[4]: red's prolong = False was never asked" in out.err
    assert "decisions[0]" not in out.err
