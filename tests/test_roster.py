"""``tabletop roster``: the example rosters of each format, the base table, placement.

Bases are checked against the rows of reference/base-sizes.csv named beside them (line
numbers); positions on the small inline maps are worked out by hand from the layout rules
(``roster/layout.py``: a grid ``ceil(sqrt(n))`` wide, pitch = base + 0.5"; ``geometry/
deploy_area.py``: front edge first, left to right, every 0.5", 1" from other models).
32mm = 1.2598" (r 0.6299), 40mm = 1.5748" (r 0.7874), 25mm = 0.9843".
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from tabletop.board.mapfile import load
from tabletop.cli import main
from tabletop.geometry import snapshot
from tabletop.roster.base_table import BaseTable, normalise
from tabletop.roster.read import RosterError, read_roster
from tests.mapkit import cli_expect, deploy_roster

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples" / "rosters"
H_AND_A = str(ROOT / "maps" / "ca-layout-1-hammer-and-anvil.toml")
OLD_WORLD = str(ROOT / "maps" / "old-world-72x48.toml")
R32, R40 = 32 / 25.4 / 2, 40 / 25.4 / 2


def placed(path, before):
    """The units of ``path`` that ``before`` did not hold, by id."""
    old = {u.id for u in load(before).units}
    state = load(str(path))
    return state, {u.id: u for u in state.units if u.id not in old}


def check_clean(state, units):
    """No new model overlaps anything; every new unit in coherency; every base inside
    the player's zone (a rectangle here)."""
    geo = snapshot(state)
    new = {m.id for u in units.values() for m in u.models}
    assert not [p for p in geo.overlaps if p[0] in new or p[1] in new]
    for uid in units:
        assert geo.in_coherency(uid), geo.coherency.get(uid)


def by_name(units):
    return {u.name: u for u in units.values()}


# ------------------------------------------------------------------ the example rosters

def test_battlescribe_ros_every_unit_model_base_and_role(capsys, tmp_path):
    out = tmp_path / "sm.toml"
    cli_expect(capsys, "roster", EX / "space-marines.ros", "--map", H_AND_A, "--player", "marines",
               "-o", out)
    state, units = placed(out, H_AND_A)
    names = by_name(units)
    # 5 units, 1 + 5 + 3 + 3 + 5 = 17 models; the Battle Size upgrade is not a unit
    assert {n: len(u.models) for n, u in names.items()} == {
        "Captain": 1, "Intercessor Squad": 5, "Bladeguard Veteran Squad": 3,
        "Outrider Squad": 3, "Scout Squad": 5}
    # bases: lines 755 Captain 40mm, 788 Intercessor Squad 32mm, 753 Bladeguard 40mm,
    # 808 Outrider Squad 90x52.5mm oval, 819 Scout Squad 28.5mm (the GW guide rows)
    assert {n: {m.base.text for m in u.models} for n, u in names.items()} == {
        "Captain": {"40mm"}, "Intercessor Squad": {"32mm"},
        "Bladeguard Veteran Squad": {"40mm"}, "Outrider Squad": {"90x52.5mm oval"},
        "Scout Squad": {"28.5mm"}}
    cap = names["Captain"].models[0]
    assert cap.role == "commander"                  # the Character category, one model
    assert cap.profile == {"M": 6, "T": 4, "Sv": 3, "W": 5, "Ld": 6, "OC": 1}
    # the melee weapon (the bolt pistol has a BS, not a WS: not a fight weapon)
    assert [w["name"] for w in cap.weapons] == ["Master-crafted power weapon"]
    assert cap.weapons[0] == {"name": "Master-crafted power weapon", "A": 6, "WS": 2, "S": 5,
                              "AP": -2, "D": 2}
    squad = names["Intercessor Squad"].models
    assert [(m.name, m.role) for m in squad] == [("Intercessor Sergeant", "champion")] + [
        ("Intercessor", None)] * 4
    assert squad[0].weapons[0]["name"] == "Power weapon"
    assert squad[1].weapons[0]["name"] == "Close combat weapon"
    check_clean(state, units)
    # every new base inside the defender zone x 0..18 (edge to edge, tolerance 0.02")
    for u in units.values():
        for m in u.models:
            assert m.x + m.base.radius <= 18 + 0.02 and m.x - m.base.radius >= -0.02
    # the first unit, facing 0 (zone centre (9, 22) to table centre (30, 22)): front edge on
    # x = 18, the army's left is the top edge y = 44, and that corner is free:
    # Captain at (18 - 0.7874, 44 - 0.7874)
    assert (cap.x, cap.y) == pytest.approx((18 - R40, 44 - R40), abs=1e-3)


def test_new_recruit_json_orks(capsys, tmp_path):
    out = tmp_path / "orks.toml"
    cli_expect(capsys, "roster", EX / "orks.json", "--map", H_AND_A, "--player", "orks", "-o", out)
    state, units = placed(out, H_AND_A)
    names = by_name(units)
    # 1 + (1 + 9) + (1 + 10) + 3 = 25 models
    assert {n: len(u.models) for n, u in names.items()} == {
        "Warboss": 1, "Boyz": 10, "Gretchin": 11, "Meganobz": 3}
    # lines 736 Warboss 40mm, 696 Boyz 32mm, 710 Gretchin: Runtherd 32mm, 709 Gretchin 25mm,
    # 717 Meganobz 40mm
    # (a model named as its unit is written without a name of its own)
    bases = {(m.name or u.name, m.base.text) for u in units.values() for m in u.models}
    assert bases == {("Warboss", "40mm"), ("Boss Nob", "32mm"), ("Boy", "32mm"),
                     ("Runtherd", "32mm"), ("Gretchin", "25mm"), ("Meganob", "40mm")}
    assert names["Boyz"].models[0].role == "champion"        # Boss Nob
    assert names["Boyz"].profile["Sv"] == 5 and names["Boyz"].profile["T"] == 5
    assert names["Warboss"].models[0].weapons[0]["S"] == 7
    check_clean(state, units)
    for u in units.values():            # attacker zone x 42..60
        for m in u.models:
            assert m.x - m.base.radius >= 42 - 0.02 and m.facing_deg == 180


def test_app_text_export(capsys, tmp_path):
    out = tmp_path / "app.toml"
    got = cli_expect(capsys, "roster", EX / "space-marines-app.txt", "--map", H_AND_A, "--player",
                     "marines", "-o", out, "--json").out
    data = json.loads(got)
    assert data["format"] == "app-text" and data["system"] == "40k"
    assert data["models"] == 16            # 1 + 5 + 5 + 5
    state, units = placed(out, H_AND_A)
    names = by_name(units)
    # lines 801 Lieutenant 40mm, 749 Assault Intercessor Squad 32mm, 831 Terminator Squad
    # 40mm, 782 Hellblaster Squad 32mm
    assert {n: ({m.base.text for m in u.models}, len(u.models)) for n, u in names.items()} == {
        "Lieutenant": ({"40mm"}, 1), "Assault Intercessor Squad": ({"32mm"}, 5),
        "Terminator Squad": ({"40mm"}, 5), "Hellblaster Squad": ({"32mm"}, 5)}
    assert names["Lieutenant"].models[0].role == "commander"      # CHARACTERS section
    assert [m.name for m in names["Terminator Squad"].models] == ["Terminator Sergeant"] + [
        "Terminator"] * 4
    assert {u["name"]: u["reference_lines"] for u in data["units"]}["Terminator Squad"] == [831]
    check_clean(state, units)


def test_old_world_rosz_blocks_in_ranks(capsys, tmp_path):
    out = tmp_path / "tow.toml"
    cli_expect(capsys, "roster", EX / "empire.rosz", "--map", OLD_WORLD, "--player", "empire",
               "-o", out)
    state, units = placed(out, OLD_WORLD)
    names = by_name(units)
    assert {n: len(u.models) for n, u in names.items()} == {
        "Captain of the Empire": 1, "State Troops": 20, "Empire Knights": 5}
    # lines 2872 Captain 25x25, 2852 State Troops 25x25; Empire Knights: the rider row 2861
    # says 25x25, the mount row 2839 (Barded Warhorse) 30x60: a mounted model takes its mount's
    assert {n: u.base.text for n, u in names.items()} == {
        "Captain of the Empire": "25x25mm", "State Troops": "25x25mm", "Empire Knights": "30x60mm"}
    troops = names["State Troops"]
    # 20 models, frontage 5 (roster_frontage): 5 files x 4 ranks, facing 90 (zone y 0..12)
    assert (troops.formation.files, troops.formation.ranks) == (5, 4)
    ys = sorted({round(m.y, 4) for m in troops.models})
    assert len(ys) == 4                                  # four ranks
    assert ys[3] - ys[2] == pytest.approx(25 / 25.4, abs=1e-4)      # one base deep apart
    front = [m for m in troops.models if round(m.y, 4) == ys[3]]
    assert sorted(m.role or "" for m in front) == ["", "", "champion", "musician", "standard"]
    # the champion in the centre file (3), the standard left of it, the musician right
    by_x = sorted(front, key=lambda m: m.x)
    assert [m.role for m in by_x] == [None, "standard", "champion", "musician", None]
    knights = names["Empire Knights"]
    assert (knights.formation.files, knights.formation.ranks) == (5, 1)
    assert names["Captain of the Empire"].models[0].role == "commander"
    assert names["State Troops"].profile["Discipline"] == 7
    check_clean(state, units)
    for u in units.values():
        for m in u.models:                # zone y 0..12, every base wholly inside
            assert 0 - 0.02 <= m.y - m.base.along / 2 and m.y + m.base.along / 2 <= 12 + 0.02


# ------------------------------------------------------------------ unknown names, --base

GROTS = {"roster": {"name": "t", "gameSystemName": "Warhammer 40,000 10th Edition", "forces": [
    {"catalogueName": "Xenos - Orks", "selections": [
        {"name": "Grot Mob", "type": "unit", "selections": [
            {"name": "Grot", "type": "model", "number": 5}]},
        {"name": "Boyz", "type": "unit", "selections": [
            {"name": "Boy", "type": "model", "number": 5}]}]}]}}


def test_unknown_name_is_listed_with_candidates_and_base_resolves_it(capsys, tmp_path):
    roster = tmp_path / "grots.json"
    roster.write_text(json.dumps(GROTS))
    out = tmp_path / "o.toml"
    err = cli_expect(capsys, "roster", roster, "--map", H_AND_A, "--player", "orks", "-o", out,
                     code=2).err
    lines = err.strip().splitlines()
    assert len(lines) == 1                             # one line per unknown unit
    assert "Grot Mob" in lines[0] and "not in the base table" in lines[0]
    near = lines[0].split("nearest: ")[1].split("; give")[0].split("; ")
    assert len(near) == 3                              # three nearest names, with their bases
    assert "--base \"Grot Mob=SIZE\"" in lines[0]
    assert not out.exists()                            # nothing written, nothing dropped
    cli_expect(capsys, "roster", roster, "--map", H_AND_A, "--player", "orks", "-o", out,
               "--base", "Grot Mob=25mm")
    state, units = placed(out, H_AND_A)
    names = by_name(units)
    assert {m.base.text for m in names["Grot Mob"].models} == {"25mm"}
    assert len(names["Grot Mob"].models) == 5 and len(names["Boyz"].models) == 5


def test_a_base_without_size_is_not_guessed():
    table = BaseTable("40k", "Xenos - Orks")
    got = table.find("Trukk", "Trukk")        # line 1063 (Wahapedia): "Use model", no size
    assert not hasattr(got, "base") and "no size" in got.reason


def test_names_are_normalised_case_punctuation_plural():
    assert normalise("Intercessors!") == normalise("intercessor") == "intercessor"
    assert normalise("Sisters Repentia") == "sister repentia"
    t = BaseTable("40k", "Imperium - Space Marines")
    assert t.find("INTERCESSOR SQUADS", "Intercessor").base == "32mm"        # line 788


# ------------------------------------------------------------------ placement by hand

SMALL = """
[map]
name = "deploy test"
ruleset = "{ruleset}"
width = 24
depth = 12

[[players]]
id = "a"
active = true

[[players]]
id = "b"

[[terrain]]
id = "wall"
kind = "impassable"
polygon = [[0, 0], [4, 0], [4, 12], [0, 12]]

[[deployment]]
player = "a"
polygon = [[0, 0], [24, 0], [24, 6], [0, 6]]
name = "south"
"""

SQUAD = {"roster": {"name": "t", "gameSystemName": "Warhammer 40,000 10th Edition", "forces": [
    {"catalogueName": "Imperium - Space Marines", "selections": [
        {"name": "Intercessor Squad", "type": "unit", "selections": [
            {"name": "Intercessor", "type": "model", "number": 5}]},
        {"name": "Captain", "type": "model", "number": 1}]}]}}


def test_cluster_placed_by_hand_beside_impassable_terrain(capsys, tmp_path):
    _, out = deploy_roster(capsys, tmp_path, SQUAD, SMALL.format(ruleset="fight-phase"))
    state = load(str(out))
    p = 32 / 25.4 + 0.5                  # pitch 1.7598": base + roster_model_gap
    # facing 90 (zone centre (12, 3) to table centre (12, 6)); the wall covers x 0..4, so
    # the unit's left edge steps right 0.5" at a time to x = 4.0 (3.5 overlaps the wall):
    # first model x = 4 + 0.6299; front edge on y = 6: front row y = 6 - 0.6299;
    # 3 models a row (ceil(sqrt 5)), the second row one pitch behind
    x0, y0 = 4 + R32, 6 - R32
    want = [(x0, y0), (x0 + p, y0), (x0 + 2 * p, y0), (x0, y0 - p), (x0 + p, y0 - p)]
    got = [c for m in state.unit("intercessor-squad").models for c in (m.x, m.y)]
    assert got == pytest.approx([c for xy in want for c in xy], abs=1e-3)
    # the Captain in the same row, 1" (roster_unit_gap) from the squad: the squad's right
    # edge is at x0 + 2p + 0.6299 = 8.7795, so its left edge at 8.7795 + 0.98 = 9.76 at
    # least, on the 0.5" steps from x = 0: 10.0 -> centre (10.7874, 6 - 0.7874)
    # (at 9.5 the gap to the squad's nearest model is 2.1436 - 1.4173 = 0.73" < 0.98")
    cap = state.unit("captain").models[0]
    assert (cap.x, cap.y) == pytest.approx((10 + R40, 6 - R40), abs=1e-3)
    assert snapshot(state).in_coherency("intercessor-squad")


TOW = {"roster": {"name": "t", "gameSystemName": "Warhammer: The Old World", "forces": [
    {"catalogueName": "The Empire of Man", "selections": [
        {"name": "State Troops", "type": "unit", "selections": [
            {"name": "State Trooper", "type": "model", "number": 10}]}]}]}}


def test_block_frontage_and_front_centre_by_hand(capsys, tmp_path):
    _, out = deploy_roster(capsys, tmp_path, TOW, SMALL.format(ruleset="rank-and-flank"),
                           "--frontage", "4")
    unit = load(str(out)).unit("state-troops")
    f = unit.formation
    # 10 models, 4 files: ceil(10 / 4) = 3 ranks (4, 4, 2); 25x25mm = 0.9843" a file;
    # left edge on the wall (x = 4), front edge on y = 6: front centre (4 + 2 x 0.9843, 6)
    assert (f.files, f.ranks, f.count) == (4, 3, 10)
    assert f.front_centre == pytest.approx((4 + 2 * 25 / 25.4, 6), abs=1e-3)
    assert f.facing == 90
    out2 = tmp_path / "o2.toml"
    cli_expect(capsys, "roster", tmp_path / "r.json", "--map", tmp_path / "t.toml", "--player", "a",
               "-o", out2)
    f2 = load(str(out2)).unit("state-troops").formation
    assert (f2.files, f2.ranks) == (5, 2)              # roster_frontage 5: 10 = 5 x 2


# ------------------------------------------------------------------ formats and bad input

def test_rosz_is_the_same_tree_as_ros(tmp_path):
    ros = (EX / "space-marines.ros").read_bytes()
    rosz = tmp_path / "sm.rosz"
    with zipfile.ZipFile(rosz, "w") as zf:
        zf.writestr("sm.ros", ros)
    assert read_roster(str(rosz)) == read_roster(str(EX / "space-marines.ros"))


def test_doctype_and_entities_are_refused(tmp_path):
    bad = tmp_path / "bomb.ros"
    bad.write_text('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa">]>'
                   '<roster gameSystemName="Warhammer 40,000">&a;</roster>')
    with pytest.raises(RosterError, match="DOCTYPE or ENTITY"):
        read_roster(str(bad))


def test_bad_input_one_line_exit_2(capsys, tmp_path):
    err = cli_expect(capsys, "roster", EX / "orks.json", "--map", H_AND_A, "--player", "nobody",
                     "-o", tmp_path / "o.toml", code=2).err
    assert err.count("\n") == 1 and "no such player" in err
    err = cli_expect(capsys, "roster", EX / "orks.json", "--map", H_AND_A, "--player", "orks",
                     "-o", H_AND_A, code=2).err
    assert "-o is the input map" in err
    err = cli_expect(capsys, "roster", EX / "empire.rosz", "--map", H_AND_A, "--player", "marines",
                     "-o", tmp_path / "o.toml", code=2).err
    assert "laid out for rank-and-flank" in err
    err = cli_expect(capsys, "roster", EX / "orks.json", "--map", H_AND_A, "--player", "orks",
                     "-o", tmp_path / "o.toml", "--base", "Boyz", code=2).err
    assert "NAME=SIZE" in err


def test_json_contract(capsys, tmp_path):
    from test_json_contract import Contract
    c = Contract("roster")
    for roster, mp, player in (("space-marines.ros", H_AND_A, "marines"),
                               ("empire.rosz", OLD_WORLD, "empire")):
        got = cli_expect(capsys, "roster", EX / roster, "--map", mp, "--player", player, "-o",
                         tmp_path / f"{player}.toml", "--json").out
        c.check(json.loads(got), roster)
    from tests.test_roster_12b import _nr_roster  # a list with a "warnings" line
    src = tmp_path / "necrons.json"
    src.write_text(json.dumps(_nr_roster()), encoding="utf-8")
    got = cli_expect(capsys, "roster", src, "--map", H_AND_A, "--player", "marines", "-o",
                     tmp_path / "necrons.toml", "--json").out
    c.check(json.loads(got), "warnings")
    c.assert_covered()


def test_shipped_table_is_what_the_tool_builds():
    """tabletop/data/bases.csv and base-sources.csv come from reference/base-sizes.csv by
    tools/make_bases.py (``--check`` exits 0 when they match)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_bases", ROOT / "tools" / "make_bases.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.main(["--check"]) == 0


def test_nearest_names_are_never_blank_and_always_a_base_size():
    # issue 12 finding 9: the table has rows naming only a model (unit name blank) and
    # rows with no size ("Hull", "Use model"); before, "Castigatorr" offered "Castigator
    # (Adepta Sororitas, Hull)" and a Greek name " (, 100mm/32mm/50mm/75x42mm oval)"
    from tabletop.board.bases import parse_base
    from tabletop.roster.base_table import BaseTable
    table = BaseTable("40k")
    for name in ("Castigatorr", "Κένταυροι Ιππείς", "Big Gunzz", "Wartrakk"):
        got = table.nearest(name)
        assert len(got) == 3
        for cand in got:
            assert cand[0] not in " (" and "Hull" not in cand and "Use model" not in cand
            sizes = cand.rsplit(", ", 1)[-1].rstrip(")") if ", " in cand else \
                cand.rsplit("(", 1)[-1].rstrip(")")
            for size in sizes.split("/"):
                parse_base(size)            # every size offered is a base
        assert all(parse_base(s) for s in table.nearest_sizes(name))
    assert not any(c.startswith("Castigator ") for c in table.nearest("Castigatorr"))


def test_placing_units_drops_empty_from_the_map_name(tmp_path, capsys):
    # issue 12 finding 11: maps/ca-layout-1-table.toml is named "CA 2025-26 layout 1 - Hammer
    # and Anvil (empty)"; with an army placed on it the name loses " (empty)"
    out = tmp_path / "army.toml"
    assert main(["roster", str(EX / "orks.json"), "--map",
                 str(ROOT / "maps" / "ca-layout-1-table.toml"), "--player", "attacker",
                 "-o", str(out)]) == 0
    capsys.readouterr()
    state = load(str(out))
    assert state.units and state.name == "CA 2025-26 layout 1 - Hammer and Anvil"
    from tabletop.roster.deploy import name_with_units
    assert name_with_units("Table (empty)") == "Table"
    assert name_with_units("(empty) table") == "(empty) table"     # only at the end
    assert name_with_units(" (empty)") == " (empty)"                # nothing left: kept


def test_app_text_without_its_title_line_reads_the_first_unit():
    # issue 12 finding 14: an app export cut to its units (no "Army (N points)" title):
    # line 1 "Warboss (75 points)" has bullets under it, so it is a unit, not the title.
    # Warboss: one model with its wargear list; Boyz: 1 Boss Nob + 9 Boy = 10 models.
    from tabletop.roster.app_text import read_app_text
    text = ("Warboss (75 points)\n  • Warlord\n  • 1x Attack squig\n    1x Big choppa\n\n"
            "Boyz (85 points)\n  • 1x Boss Nob\n    ◦ 1x Power klaw\n  • 9x Boy\n"
            "    ◦ 9x Choppa\n")
    roster = read_app_text(text, "cut.txt")
    assert [u.name for u in roster.units] == ["Warboss", "Boyz"]
    assert [sum(m.count for m in u.models) for u in roster.units] == [1, 10]
    assert roster.name == "cut.txt"
    # one unit alone: before, "no unit lines ... found"
    alone = read_app_text("Boyz (85 points)\n  • 1x Boss Nob\n  • 9x Boy\n", "one.txt")
    assert [(u.name, sum(m.count for m in u.models)) for u in alone.units] == [("Boyz", 10)]


def test_the_example_rosters_own_comment_counts_the_models_read():
    # issue 12 finding 14: empire.rosz said 28 models; read: Captain 1 + State Troops 20
    # (the Sergeant, Standard Bearer and Drummer are 3 of the 20) + Knights 5 (the
    # Preceptor one of them) = 26
    import re
    text = zipfile.ZipFile(EX / "empire.rosz").read("empire.ros").decode()
    said = int(re.search(r"(\d+) models", text).group(1))
    roster = read_roster(str(EX / "empire.rosz"))
    assert said == sum(m.count for u in roster.units for m in u.models) == 26
