"""A lesson map's faults are all reported at once, one line each, exit 2 (issue 10,
audit-uses finding 5): the faults the map's load finds (a clause naming a section its rule
text does not have, a step that is no whole number) together with those the phase run
finds (unknown overlay, model and focus ids, a step out of range, a title matching
nothing, a step going backwards).  Before, the load's faults stopped the check.

The table: red's r/1 (32mm, r = 0.62992") at (6, 8), charged; blue's e/1 at (9.5, 8): gap
3.5 - 1.26 = 2.24" > 2" (11th engagement range), so r piles in (fight-phase.txt 12.03).
"""

from __future__ import annotations

import pytest

from tabletop.cli import main

MAP = """
[map]
name = "All faults"
ruleset = "fight-phase"
width = 20
depth = 16
seed = 5

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "r"
player = "red"
base = "32mm"
charged = true
profile = { M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }
weapons = [{ name = "Close combat weapon", A = 3, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[6, 8]]

[[units]]
id = "e"
player = "blue"
base = "32mm"
profile = { M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }
weapons = [{ name = "Close combat weapon", A = 3, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[9.5, 8]]

[[lesson]]
title = "Section that is not there"
text = "x"
clause = "fight-phase.txt 99.99"
step = "setup"

[[lesson]]
title = "Half a step, and names that are not there"
text = "x"
clause = "fight-phase.txt 12.03"
step = 2.5
overlays = ["sparkles"]
select = "r/9"
focus = ["nobody"]

[[lesson]]
title = "Pile-in"
text = "x"
clause = "fight-phase.txt 12.03"
step = "r makes its pile-in"

[[lesson]]
title = "Too far"
text = "x"
clause = "fight-phase.txt 12.04"
step = 99

[[lesson]]
title = "No such title"
text = "x"
clause = "fight-phase.txt 12.04"
step = "a dragon flies"

[[lesson]]
title = "Backwards"
text = "x"
clause = "fight-phase.txt 12.04"
step = 1
"""


def test_every_fault_at_once(tmp_path, capsys):
    path = tmp_path / "faults.toml"
    path.write_text(MAP, encoding="utf-8")
    assert main(["lesson", str(path), "--gif", str(tmp_path / "x.gif")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    want = [
        "lesson[0].clause: fight-phase.txt has no section 99.99",
        "lesson[1].step: give \"setup\", a whole step number",
        "lesson[1].overlays[0]: unknown overlay 'sparkles'",
        "lesson[1].select: no model 'r/9'",
        "lesson[1].focus[0]: no model, unit or objective 'nobody'",
        "lesson[3].step: step 99, but the phase run has",
        "lesson[4].step: no step of the phase run",
        "lesson[5].step: step 1 comes before step",
    ]
    assert len(err) == len(want), err                # one line each, nothing else
    for line, w in zip(err, want):
        assert w in line and line.startswith(str(path)), (line, w)
    assert not (tmp_path / "x.gif").exists()


@pytest.mark.parametrize("text, section, ok", [
    ("fight-phase.txt", "12.03", True),                  # 12.01 .. 12.09 exist
    ("fight-phase.txt", "99.99", False),
    ("fight-phase.txt", "12.02-12.06", True),            # a range: both ends exist
    ("fight-phase.txt", "12.02-12.10", False),
    ("fight-phase.txt", "12.04 (1)", True),              # the author's words in brackets
    ("rank-and-flank-combat.txt", "Who attacks", True),  # a heading
    ("rank-and-flank-combat.txt", "Attack", True),       # opens "Attack roll"
    ("rank-and-flank-combat.txt", "Shooting", False),
    ("gambit-challenge.txt", "Step 5 (Glory)", True),    # the text announces 5 steps
    ("gambit-challenge.txt", "Step 6", False),
    ("character-challenge.txt", "¶7", True),             # 7 paragraphs under the title
    ("character-challenge.txt", "¶8", False),
    ("character-challenge.txt", "", True),               # the whole text
])
def test_a_clause_must_name_a_section_of_its_rule_text(text, section, ok):
    from tabletop.board.lesson import section_problem
    assert (section_problem(text, section) is None) == ok
