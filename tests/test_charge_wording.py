"""Charge output: each preset cites its own Charge clause (rules/charge.py RULE_CHARGE),
and the words agree with their numbers (no "1 models")."""

from __future__ import annotations

import json

import pytest

from tabletop.cli import main
from tabletop.rules import charge as CH

from test_charge_plan import GAP9, fp_map


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
    assert CH.RULE_CHARGE[edition] in out and f"40K {other} Charge" not in out
