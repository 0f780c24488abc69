"""Charge output: each preset cites its own Charge clause (rules/charge.py RULE_CHARGE),
and the words agree with their numbers (no "1 models")."""

from __future__ import annotations

import json

import pytest
from test_charge_plan import GAP9, fp_map

from tabletop.cli import main
from tabletop.rules import charge as CH


@pytest.mark.parametrize("edition,other", [("11th", "10th"), ("10th", "11th")])
def test_each_preset_cites_its_own_charge_clause(write_map, capsys, edition, other):
    # a 9.0" gap: 11th (2" range) needs 7, 10th (1") needs 8 (test_charge_plan); the rule
    # cited is the preset's own: "40K 11th Charge ..." / "measurements.csv 40K 10th Charge"
    path = fp_map(write_map, [("c", "red", [(10, 20)]), ("t", "blue", [(GAP9, 20)])],
                  rules=f'edition = "{edition}"')
    assert main(["charge", path, "c", "t", "--json", "--no-fight"]) == 0
    p = json.loads(capsys.readouterr().out)
    assert p["rule"] == CH.RULE_CHARGE[edition]
    assert f"40K {edition} " in p["rule"] and f"40K {other} " not in p["rule"]
    assert main(["charge", path, "c", "t", "--no-fight"]) == 0
    out = capsys.readouterr().out
    # the text cites it flat, one bracket deep (its inner "(03.04)" loses its brackets)
    flat = CH.RULE_CHARGE[edition].replace(" (", " ").replace(")", "")
    assert flat in out and f"40K {other} Charge" not in out


def test_counts_and_verbs_agree(write_map, capsys):
    # one orks model 4" from one blue model (needs 2: certain): the preview lands 1 model,
    # and the fight line names the winner without a verb that must agree with "orks"
    path = fp_map(write_map, [("c", "red", [(10, 20)]), ("t", "blue", [(10 + 4 + 2 * 0.63, 20)])])
    text = open(path).read().replace('"red"', '"orks"')
    path = write_map(text, "orks.toml")
    assert main(["charge", path, "c", "t", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "1 model placed" in out and "1 models" not in out
    assert "orks wins" not in out
    lost = [line for line in out.splitlines() if line.strip().startswith(("c: loses", "t: loses"))]
    assert lost and all("of 1 model on average" in line for line in lost)


def test_the_winner_line_agrees_with_a_plural_player(write_map, capsys):
    # rank-and-flank (test_charge_front_arc's map, its red player renamed "orks"): the fight
    # preview names each side's chance to win as "combat won by <player>: p%"
    from test_charge_front_arc import MAP
    path = write_map(MAP.format(rules="").replace('"red"', '"orks"'), "rnf.toml")
    assert main(["charge", path, "c", "ahead30", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "combat won by orks:" in out and "orks wins" not in out


def test_fell_back_reads_fallen_back(write_map, capsys):
    path = fp_map(write_map, [("c", "red", [(10, 20)]), ("t", "blue", [(20, 20)])])
    text = open(path).read().replace('id = "c"', 'id = "c"\nstatus = ["fell-back"]')
    path = write_map(text, "fell.toml")
    assert main(["charge", path, "c", "t"]) == 0
    out = capsys.readouterr().out
    assert "c has fallen back this turn" in out and "has fell back" not in out
