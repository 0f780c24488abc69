"""`charge` never prints a bare None (issue 10, audit-uses finding 4, audit-r12 item 7):
out of reach reads "out of reach: needs more than 12"", a charge that cannot be declared
says only that and why, odds of reaching are never passed off as odds of a legal landing,
and a reason sits in one pair of brackets.  32mm bases, r = 0.629921"; 11th preset:
engagement range 2", 2D6 at most 12, declare range 12"."""

from __future__ import annotations

from test_charge_plan import R, fp_map

from tabletop.board.mapfile import load as load_map
from tabletop.cli import main
from tabletop.cli.charge_cmd import plan as cli_plan
from tabletop.cli.charge_cmd import text

WALL = """
[[terrain]]
id = "wall"
kind = "impassable"
polygon = [[8, 0], [9, 0], [9, 10], [8, 10]]
"""


def test_out_of_reach_says_so(write_map, capsys):
    from tabletop.render.charge_plan import _odds_line
    # the wall of test_charge_landing_legal: the path must go over the wall, at least
    # 9.137 + 1 + 9.137 - 3.26 = 16.01" of roll > 12: no 2D6 makes it
    path = fp_map(write_map, [("a", "red", [(5, 2)]), ("t", "blue", [(12, 2)])], terrain=WALL)
    p = cli_plan(load_map(path), "a", ["t"], 1, fight=False)
    out = text(p)
    assert "None" not in out and "0/1" not in out
    assert 'out of reach: needs more than 12"' in out
    assert "Odds of making it: 0% (out of reach: needs more than 12\")" in out
    assert p["needs_text"] == 'out of reach: needs more than 12"'
    assert _odds_line(p) == 'Out of reach: needs more than 12"'


def test_cannot_declare_says_only_that(write_map):
    # a 13.0" gap (centres 13 + 2r apart) is more than the 12" declare range: no roll is
    # asked for and no odds are given (before: "needs 11" and then "cannot declare")
    path = fp_map(write_map, [("a", "red", [(10, 20)]), ("t", "blue", [(10 + 13.0 + 2 * R, 20)])])
    out = text(cli_plan(load_map(path), "a", ["t"], 1, fight=False))
    assert 'Cannot declare the charge at t: 13.00" away, more than the 12" a charge may be ' \
           'declared at' in out
    assert "needs" not in out and "Odds" not in out and "None" not in out


def test_odds_of_reaching_are_not_odds_of_a_legal_landing(write_map):
    from tabletop.render.charge_plan import _odds_line
    # the wording of a plan whose landing breaks a clause (the problem is set by hand below)
    path = fp_map(write_map, [("a", "red", [(10, 20)]), ("t", "blue", [(16, 20)])])
    p = cli_plan(load_map(path), "a", ["t"], 1, fight=False)
    # gap 6 - 2r = 4.74", the roll must reach 2.74": 3+ on 2D6 = 35/36
    assert p["needed"] == 3 and p["odds_fraction"] == "35/36"
    p["landing_problems"] = ["a ends engaged with n, which it did not declare (x)"]
    out = text(p)
    assert "Odds of the roll reaching: 97.2% (35/36, exact); not the odds of a legal landing" in out
    assert "Odds of making it" not in out
    assert _odds_line(p).endswith("to reach (no legal landing)")


def test_reasons_are_one_bracket_deep(write_map, capsys):
    path = fp_map(write_map, [("a", "red", [(5, 2)]), ("t", "blue", [(12, 2)])], terrain=WALL)
    assert main(["charge", path, "a", "t", "--no-fight"]) == 0
    for line in capsys.readouterr().out.splitlines():
        depth = 0
        for ch in line:
            depth += {"(": 1, ")": -1}.get(ch, 0)
            assert depth <= 1, line
