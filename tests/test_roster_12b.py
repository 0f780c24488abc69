"""Audit 12b findings on the roster import (app text vehicles, flying-base sizes, warnings).

Rosters are written inline (trimmed copies of a new user's 40K app export).
"""

from __future__ import annotations

from tabletop.roster.app_text import read_app_text

#: a trimmed copy of a 40K app export: one vehicle whose bullets are its wargear, one squad
TAU = """Kauyon Strike (985 Points)

T'au Empire
Kauyon
Strike Force (2000 Points)

OTHER DATASHEETS

Hammerhead Gunship (145 Points)
  • 1x Armoured hull
  • 1x Railgun
  • 2x Seeker missile
  • 1x Twin smart missile system

Crisis Battlesuits (130 Points)
  • 1x Crisis Shas'vre
    ◦ 1x Battlesuit fists
    ◦ 2x Missile pod
  • 2x Crisis Shas'ui
    ◦ 2x Battlesuit fists
    ◦ 4x Burst cannon

Exported with App Version: v1.26.0 (70), Data Version: v584
"""


def test_app_vehicle_bullets_are_its_wargear():
    roster = read_app_text(TAU, "tau.txt")
    units = {u.name: u for u in roster.units}
    ham = units["Hammerhead Gunship"]
    # no "◦" lines; the base table gives the unit a Large Flying Base and no model rows, and
    # knows none of the four names: 1 model (the unit's own) carrying the 4 wargear lines
    assert ham.model_count == 1
    assert [(m.name, m.count) for m in ham.models] == [("Hammerhead Gunship", 1)]
    assert ham.models[0].gear == ["Armoured hull", "Railgun", "Seeker missile",
                                  "Twin smart missile system"]
    # the squad is unchanged: 1 + 2 = 3 models
    assert units["Crisis Battlesuits"].model_count == 3
    assert roster.warnings == []


def test_app_bare_counts_of_an_unknown_unit_warn_in_one_line():
    text = TAU.replace("Hammerhead Gunship", "Homebrew Skimmer")
    roster = read_app_text(text, "tau.txt")
    units = {u.name: u for u in roster.units}
    # unknown unit, bare lines with a "2x": read as models (1+1+2+1 = 5), with one warning
    assert units["Homebrew Skimmer"].model_count == 5
    assert len(roster.warnings) == 1
    assert roster.warnings[0].startswith("tau.txt: line 9: Homebrew Skimmer: read its bullets")


def test_flying_bases_have_their_sizes():
    from tabletop.roster.base_table import BaseTable
    # reference/base-sizes.csv: the GW guide names "Large Flying Base" (Doomsday Ark, Hammerhead
    # Gunship) without a size; the Wahapedia export gives each unit "60mm flying base"
    for faction, unit in (("Necrons", "Doomsday Ark"), ("T'au Empire", "Hammerhead Gunship")):
        got = BaseTable("40k", faction).find(unit, unit)
        assert got.base == "60mm", got
        assert "size from Wahapedia" in got.rows[0].source
    # Vyper: the export has no "Vyper" row; 60mm is what it gives most often for the guide's
    # Large Flying Base units.  Windriders (Small Flying Base): the export's 32mm
    assert BaseTable("40k", "Aeldari").find("Vyper", "Vyper").base == "60mm"
    assert BaseTable("40k", "Aeldari").find("Windriders", "Windrider").base == "32mm"


def test_roster_places_the_hammerhead_without_base(capsys, tmp_path):
    import json
    from pathlib import Path

    from tests.mapkit import deploy_roster
    from tests.test_roster import H_AND_A
    got, _ = deploy_roster(capsys, tmp_path, TAU, Path(H_AND_A), "--json", player="orks",
                           roster_name="tau.txt")
    data = json.loads(got.out)
    units = {u["name"]: u for u in data["units"]}
    # 1 Hammerhead on 60mm + 3 Crisis suits = 4 models
    assert units["Hammerhead Gunship"]["models"] == 1
    assert units["Hammerhead Gunship"]["bases"] == ["60mm"]
    assert data["models"] == 4 and data["warnings"] == []


def test_empty_tables_hold_the_layouts_terrain_and_no_units():
    from tabletop.board.mapfile import load
    from tests.test_roster import ROOT
    for empty, game in (("ca-layout-1-table.toml", "ca-layout-1-hammer-and-anvil.toml"),
                        ("ca-layout-2-table.toml", "ca-layout-2-crucible-of-battle.toml")):
        t, g = load(str(ROOT / "maps" / empty)), load(str(ROOT / "maps" / game))
        assert len(t.units) == 0 and g.units      # the game map holds units, the table none
        assert [(p.id, p.polygon) for p in t.terrain] == [(p.id, p.polygon) for p in g.terrain]
        assert [(o.id, o.at) for o in t.objectives] == [(o.id, o.at) for o in g.objectives]
        assert [d.polygon for d in t.deployment] == [d.polygon for d in g.deployment]
        assert sorted(p.id for p in t.players) == ["attacker", "defender"]
        assert sorted(d.player for d in t.deployment) == ["attacker", "defender"]


def test_readme_roster_quick_example_deploys_on_the_empty_table(capsys, tmp_path):
    from tabletop.board.mapfile import load
    from tabletop.cli import main
    from tests.test_roster import ROOT
    out = tmp_path / "my-table.toml"
    assert main(["roster", str(ROOT / "examples/rosters/space-marines-app.txt"), "--map",
                 str(ROOT / "maps/ca-layout-1-table.toml"), "--player", "defender", "-o",
                 str(out)]) == 0
    state = load(str(out))
    # 1 + 5 + 5 + 5 = 16 models, all the defender's (the table held none)
    assert sum(len(u.models) for u in state.units) == 16
    assert {u.player for u in state.units} == {"defender"}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "--map maps/ca-layout-1-table.toml --player defender" in readme


def test_readme_layout_example_imports_as_described(capsys, tmp_path):
    import re

    from tabletop.board.mapfile import load
    from tabletop.cli import main
    from tests.test_roster import ROOT
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"A minimal layout file.*?```json\n(.*?)```", readme, re.S).group(1)
    src = tmp_path / "my-layout.json"
    src.write_text(block, encoding="utf-8")
    out = tmp_path / "my-table.toml"
    assert main(["layout", "import", str(src), "-o", str(out)]) == 0
    state = load(str(out))
    ruin, crates = state.terrain
    box = lambda pts: (min(p[0] for p in pts), min(p[1] for p in pts),  # noqa: E731
                       max(p[0] for p in pts), max(p[1] for p in pts))
    # ruin-a: 12x6 centred on (15, 14) y-down -> x 15 +- 6, map y 44 - 14 = 30 +- 3
    assert ruin.id == "ruin-a" and box(ruin.polygon) == (9, 27, 21, 33)
    # crates: 4x2 centred on (45, 30), turned 90 deg -> 2 wide, 4 deep: x 44..46, y 14 +- 2
    assert crates.id == "crates" and box(crates.polygon) == (44, 12, 46, 16)
    # the objective piece named "centre" keeps that id; (30, 22) -> (30, 44 - 22)
    assert [(o.id, tuple(o.at)) for o in state.objectives] == [("centre", (30, 22))]
    # the zone rectangle by its top-left corner (0, 0): 60 x 10 -> map y 34..44
    zone, = state.deployment
    assert zone.player == "attacker" and box(zone.polygon) == (0, 34, 60, 44)
    # both sides are players though only the attacker has a zone, so the editor can give
    # units to either (layout_io.read.SIDE_NAMES)
    assert [p.id for p in state.players] == ["attacker", "defender"]


# ---------------------------------------------------------------- overlapping terrain
OVERLAP_MAP = """
[map]
name = "overlaps"
ruleset = "fight-phase"
width = 60
depth = 44

[[players]]
id = "a"
active = true
[[players]]
id = "b"

[[terrain]]
id = "ruin-1"
kind = "ruin"
polygon = [[10, 10], [22, 10], [22, 16], [10, 16]]

[[terrain]]
id = "ruin-2"
kind = "ruin"
polygon = [[20, 12], [26, 12], [26, 16], [20, 16]]

[[terrain]]
id = "ruin-3"
kind = "ruin"
polygon = [[26, 12], [30, 12], [30, 16], [26, 16]]

[[units]]
id = "u"
player = "a"
base = "32mm"
models = [[40, 30]]
"""


def test_check_warns_of_overlapping_terrain(capsys, tmp_path):
    import json

    from tabletop.cli import main
    path = tmp_path / "overlap.toml"
    path.write_text(OVERLAP_MAP, encoding="utf-8")
    code = main(["check", str(path), "--json"])
    data = json.loads(capsys.readouterr().out)
    # ruin-1 x 10..22, ruin-2 x 20..26, both y 12..16 shared: 2 x 4 = 8 sq in;
    # ruin-2 and ruin-3 only touch along x = 26: no area, no warning
    assert data["terrain_overlaps"] == [{"a": "ruin-1", "b": "ruin-2", "area": 8.0}]
    assert "terrain ruin-1 and ruin-2 overlap (8.00 sq in)" in data["warnings"]
    assert code == 1
    main(["check", str(path)])
    text = capsys.readouterr().out
    assert "terrain ruin-1 and ruin-2 overlap (8.00 sq in)" in text
    assert "Problems: none - the layout is legal" not in text


def test_mirror_warns_when_a_twin_lands_on_a_piece():
    import tomllib

    from tabletop.app import editor_ops as ops
    from tabletop.board.mapfile import from_dict
    text = OVERLAP_MAP.split("[[terrain]]")[0] + """
[[terrain]]
id = "ruin-1"
kind = "ruin"
polygon = [[10, 10], [16, 10], [16, 14], [10, 14]]

[[terrain]]
id = "ruin-2"
kind = "ruin"
polygon = [[41, 30], [47, 30], [47, 34], [41, 34]]
"""
    before = from_dict(tomllib.loads(text), path="twins.toml")
    after = ops.mirror_table(before)
    # (x, y) -> (60 - x, 44 - y): ruin-1-twin 44..50 x 30..34 shares x 44..47 with ruin-2
    # (3 x 4 = 12 sq in); ruin-2-twin 13..19 x 10..14 shares x 13..16 with ruin-1 (12 sq in)
    assert ops.twin_overlaps(before, after) == [("ruin-1-twin", "ruin-2"), ("ruin-2-twin", "ruin-1")]
    assert ops.twin_overlaps(before, ops.mirror_table(from_dict(
        tomllib.loads(text.split("[[terrain]]")[0] + "[[terrain]]" + text.split("[[terrain]]")[1]),
        path="one.toml"))) == []          # ruin-1 alone: its twin lands on nothing


# ---------------------------------------------------------------- New Recruit keywords
def _nr_roster() -> dict:
    blade = {"name": "Hyperphase blade", "typeName": "Melee Weapons", "characteristics": [
        {"name": "Range", "$text": "Melee"}, {"name": "A", "$text": "4"},
        {"name": "WS", "$text": "3+"}, {"name": "S", "$text": "6"}, {"name": "AP", "$text": "-2"},
        {"name": "D", "$text": "1"}, {"name": "Keywords", "$text": "Devastating Wounds, Precision"}]}
    unit = {"name": "Lychguard", "type": "unit", "number": 1,
            "categories": [{"name": "Infantry"}, {"name": "Faction: Necrons"}],
            "profiles": [{"name": "Lychguard", "typeName": "Unit", "characteristics": [
                {"name": "M", "$text": "5\""}, {"name": "T", "$text": "5"},
                {"name": "SV", "$text": "3+"}, {"name": "W", "$text": "2"},
                {"name": "LD", "$text": "6+"}, {"name": "OC", "$text": "1"}]},
                {"name": "Guardian Protocols", "typeName": "Abilities", "characteristics": []}],
            "selections": [{"name": "Lychguard", "type": "model", "number": 5,
                            "selections": [{"name": "Hyperphase blade", "type": "upgrade",
                                            "number": 1, "profiles": [blade]}]}]}
    return {"roster": {"name": "Necrons", "gameSystemName": "Warhammer 40,000 10th Edition",
                       "forces": [{"catalogueName": "Xenos - Necrons", "selections": [unit]}]}}


def test_new_recruit_faction_keyword_and_unmodelled_abilities():
    from tabletop.roster.tree import read_tree
    roster = read_tree(_nr_roster(), "newrecruit", "necrons.json")
    unit, = roster.units
    # "Faction: Necrons" is the faction keyword necrons
    assert unit.keywords == ["infantry", "necrons"]
    # the attacks read Devastating Wounds (kept as a weapon rule); Precision and the
    # Guardian Protocols ability they do not: one warning line for the unit
    assert unit.models[0].weapons == [{"name": "Hyperphase blade", "A": 4, "WS": 3, "S": 6,
                                       "AP": -2, "D": 1, "rules": ["Devastating Wounds"]}]
    assert roster.warnings == [
        "necrons.json: Lychguard: not modelled, left out: Guardian Protocols, Precision"]
