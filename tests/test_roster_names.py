"""Roster names (issue 12 leftover 2): a New Recruit ``customName`` is the unit's (model's)
name, the datasheet's kept beside it; ids are ASCII, transliterated (``roster.ids``).

The rosters are written inline: small New Recruit JSON exports of our own making.
"""

from __future__ import annotations

import json

import pytest

from tabletop.board import mapfile
from tabletop.roster.ids import ascii_text, slug
from tabletop.roster.tree import read_tree
from tests.mapkit import cli_expect, deploy_roster
from tests.test_roster import ROOT


def _squad(custom: str | None, models: int, sergeant_custom: str | None = None) -> dict:
    """An Intercessor Squad selection: a sergeant and ``models - 1`` Intercessors."""
    unit = {"name": "Intercessor Squad", "type": "unit", "number": 1,
            "categories": [{"name": "Infantry"}],
            "selections": [
                {"name": "Intercessor Sergeant", "type": "model", "number": 1},
                {"name": "Intercessor", "type": "model", "number": models - 1}]}
    if custom is not None:
        unit["customName"] = custom
    if sergeant_custom is not None:
        unit["selections"][0]["customName"] = sergeant_custom
    return unit


def _roster(*units: dict) -> dict:
    return {"roster": {"name": "Names", "gameSystemName": "Warhammer 40,000 10th Edition",
                       "forces": [{"catalogueName": "Imperium - Space Marines",
                                   "selections": list(units)}]}}


def test_custom_name_is_the_units_name_and_the_datasheet_is_kept():
    roster = read_tree(_roster(_squad("Ωmega Squad", 5, "Brother Tarn"), _squad(None, 5)),
                       "newrecruit", "names.json")
    omega, plain = roster.units
    assert (omega.name, omega.datasheet, omega.sheet) == (
        "Ωmega Squad", "Intercessor Squad", "Intercessor Squad")
    assert omega.label == "Ωmega Squad (Intercessor Squad)"
    sergeant = omega.models[0]
    assert (sergeant.name, sergeant.sheet) == ("Brother Tarn", "Intercessor Sergeant")
    # the role comes from the datasheet's model name ("sergeant": champion, tree.ROLE_WORDS)
    assert sergeant.role == "champion"
    assert (plain.name, plain.datasheet, plain.label) == ("Intercessor Squad", None, "Intercessor Squad")


@pytest.mark.parametrize("name, want", [
    ("Ωmega Squad", "omega-squad"),      # Ω followed by "mega": the letter is omega's "o"
    ("Ω Squad", "o-squad"),              # Greek by sound (GREEK_LETTERS): omega is "o"
    # issue 12 finding 10: NFKD drops the accents (έ -> ε, ί -> ι), then letter by letter:
    # κ k, ε e, ν n, τ t, α a, υ y, ρ r, ο o, ι i | ι i, π p, π p, ε e, ι i, ς s
    ("Κένταυροι Ιππείς", "kentayroi-ippeis"),
    # θ th, χ ch, ψ ps, ξ x, φ f, η i, β v, γ g, δ d, ζ z, λ l, μ m, ω o
    ("θχψ ξφηβ γδζλμω", "thchps-xfiv-gdzlmo"),
    ("Crème Brûlée", "creme-brulee"),    # NFKD drops the accents
    ("Ørk Straße", "ork-strasse"),       # "O WITH STROKE" -> o; sharp s -> ss (ID_LETTER_NAMES)
    ("Жук", "zheuka"),                   # CYRILLIC ... ZHE, U, KA: their names' last words
    ("★", "unit"),                       # a symbol splits words; nothing left: the fallback
])
def test_ids_are_transliterated_to_ascii(name, want):
    assert slug(name, set()) == want


def test_ids_stay_unique():
    taken = {"omega-squad"}
    # "Omega Squad" and "Ωmega Squad" both read omega-squad: the next free is -2, then -3
    assert slug("Omega Squad", taken) == "omega-squad-2"
    assert slug("Ωmega Squad", taken) == "omega-squad-3"
    assert ascii_text("Σigma") == "sigma"      # the letter's name is written in lower case


def test_roster_command_writes_the_custom_name_and_an_ascii_id(tmp_path, capsys):
    table = ROOT / "maps" / "ca-layout-1-table.toml"
    got, out = deploy_roster(capsys, tmp_path, _roster(_squad("Ωmega Squad", 5, "Brother Tarn"),
                                                       _squad("Omega Squad", 5)),
                             table, "--json", player="defender", roster_name="names.json")
    report = json.loads(got.out)
    # both squads' bases come from the datasheet's name (Intercessors: 32mm)
    assert [(u["id"], u["name"], u["datasheet"], u["bases"]) for u in report["units"]] == [
        ("omega-squad", "Ωmega Squad", "Intercessor Squad", ["32mm"]),
        ("omega-squad-2", "Omega Squad", "Intercessor Squad", ["32mm"])]
    state = mapfile.load(str(out))
    first = state.unit("omega-squad")
    assert first.name == "Ωmega Squad (Intercessor Squad)"
    assert [m.name for m in first.models][:2] == ["Brother Tarn (Intercessor Sergeant)", "Intercessor"]
    # --base answers to the custom name as to the datasheet's
    out2 = tmp_path / "out2.toml"
    cli_expect(capsys, "roster", tmp_path / "names.json", "--map", table, "--player", "defender",
               "-o", out2, "--base", "Ωmega Squad=40mm")
    assert mapfile.load(str(out2)).unit("omega-squad").base.across_mm == 40


ROS = """<?xml version="1.0" encoding="UTF-8"?>
<roster name="Names" gameSystemName="Warhammer 40,000 10th Edition"
        xmlns="http://www.battlescribe.net/schema/rosterSchema">
  <forces><force catalogueName="Imperium - Space Marines"><selections>
    <selection name="Captain" customName="Þór the Bold" number="1" type="model">
      <categories><category name="Character"/></categories>
    </selection>
  </selections></force></forces>
</roster>
"""


def test_battlescribe_custom_name_attribute(tmp_path):
    from tabletop.roster.read import read_roster
    src = tmp_path / "names.ros"
    src.write_text(ROS, encoding="utf-8")
    unit, = read_roster(str(src)).units
    # the .ros attribute reads as New Recruit's key; a one-model character is its commander
    assert (unit.label, unit.models[0].role) == ("Þór the Bold (Captain)", "commander")
    # Þ -> th (ID_LETTER_NAMES), ó -> o (NFKD)
    assert slug(unit.name, set()) == "thor-the-bold"
