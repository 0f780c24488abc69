"""``tabletop roster`` after the r12 new-user audit (its findings 1-14): the app
text format's model lines, large units in coherency, bounded input, ``--force``, the
written map, ``--base`` per model, wording.  Expected values are worked out by hand beside
each assert; 32mm = 1.2598", 25mm = 0.9843", 60mm = 2.3622".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.board.mapfile import load
from tabletop.geometry import snapshot
from tabletop.roster.read import read_roster
from tests.mapkit import cli_expect, deploy_roster

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples" / "rosters"
H_AND_A = str(ROOT / "maps" / "ca-layout-1-hammer-and-anvil.toml")


# ------------------------------------------------------------------ 1: app text model lines

def test_app_text_model_lines_without_wargear_are_models():
    r = read_roster(str(EX / "orks-app.txt"))
    got = {u.name: [(m.name, m.count) for m in u.models] for u in r.units}
    assert got == {
        # "• 1x Attack squig" + unbulleted lines: the Warboss's own wargear list
        "Warboss": [("Warboss", 1)],
        "Boyz": [("Boss Nob", 1), ("Boy", 9)],                  # lines with ◦ wargear
        # no ◦ lines at all, but "9x" counts models: 1 + 9
        "Beast Snagga Boyz": [("Beast Snagga Nob", 1), ("Beast Snagga Boy", 9)],
        "Stormboyz": [("Boss Nob", 1), ("Stormboy", 4)],         # 1 + 4
        "Killa Kans": [("Killa Kan", 3)]}
    assert sum(u.model_count for u in r.units) == 29            # 1 + 10 + 10 + 5 + 3
    assert r.units[0].models[0].gear == ["Attack squig", "Big choppa", "Kombi-weapon"]


def test_app_text_character_with_wargear_list_and_a_model_entry(tmp_path):
    # Ghazghkull-like: his own wargear list, then Makari as a model entry with ◦ wargear:
    # two models, the unit's own first
    p = tmp_path / "g.txt"
    p.write_text("Army (300 points)\n\nOrks\n\nCHARACTERS\n\nBig Boss (235 points)\n"
                 "  • Warlord\n  • 1x Klaw\n    1x Roar\n  • 1x Grot Helper\n"
                 "    ◦ 1x Stabba\n\nGorkanaut (280 points)\n  • 1x Mega-shoota\n"
                 "  • 1x Klaw of Gork\n")
    r = read_roster(str(p))
    assert [(m.name, m.count) for m in r.units[0].models] == [("Big Boss", 1),
                                                              ("Grot Helper", 1)]
    # two bare "1x" lines and no model entry: the Gorkanaut's wargear, one model
    assert [(m.name, m.count) for m in r.units[1].models] == [("Gorkanaut", 1)]


def test_app_text_unreadable_line_is_named_exit_2(capsys, tmp_path):
    p = tmp_path / "bad.txt"
    p.write_text("Army (100 points)\n\nOrks\n\nBoyz (85 points)\n    ◦ 9x Choppa\n"
                 "  • 10x Boy\n")
    err = cli_expect(capsys, "roster", p, "--map", H_AND_A, "--player", "orks", "-o",
                     tmp_path / "o.toml", code=2).err
    # line 6 is the ◦ line with no model line above it
    assert err.count("\n") == 1 and "line 6" in err and not (tmp_path / "o.toml").exists()


# ------------------------------------------------------------------ 3: large units in coherency

ZONE18 = """
[map]
name = "18 x 44 zone"
ruleset = "fight-phase"
width = 60
depth = 44

[[players]]
id = "a"
active = true

[[players]]
id = "b"

[[deployment]]
player = "a"
polygon = [[0, 0], [18, 0], [18, 44], [0, 44]]
name = "west"
"""


def _nr(*units):
    """A New Recruit roster of ``(unit name, [(model name, count), ...])``."""
    return {"roster": {"name": "t", "gameSystemName": "Warhammer 40,000 10th Edition",
                       "forces": [{"catalogueName": "Orks", "selections": [
                           {"name": u, "type": "unit", "selections": [
                               {"name": m, "type": "model", "number": n} for m, n in ms]}
                           for u, ms in units]}]}}


def _deploy(capsys, tmp_path, roster, *extra, code=0):
    return deploy_roster(capsys, tmp_path, roster, ZONE18, *extra, code=code)


def _assert_placed(out, want):
    state = load(str(out))
    geo = snapshot(state)
    assert {u.id: len(u.models) for u in state.units} == want
    assert not geo.overlaps
    for u in state.units:
        assert geo.in_coherency(u.id), geo.coherency.get(u.id)
        for m in u.models:       # wholly inside x 0..18, y 0..44 (positions written to 1e-4)
            r = max(m.base.across, m.base.along) / 2 - 1e-3
            assert 0 <= m.x - r and m.x + r <= 18 and 0 <= m.y - r and m.y + r <= 44
        # every model within 9" of every other, edge to edge (03.04)
        ms = u.models
        far = max((((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5 - a.base.radius - b.base.radius
                   for i, a in enumerate(ms) for b in ms[i + 1:]), default=0)
        assert far <= 9.0


@pytest.mark.parametrize("n", [30, 40])
def test_large_unit_placed_in_coherency(capsys, tmp_path, n):
    # the old grid, ceil(sqrt 30) = 6 wide x 5 deep at pitch 1.2598 + 0.5 = 1.7598": corner
    # to corner 1.7598 x sqrt(5^2 + 4^2) - 1.2598 = 11.268 - 1.260 = 10.01" > 9" (03.04);
    # 40: 7 x 6, 1.7598 x sqrt(6^2 + 5^2) - 1.2598 = 12.48" > 9".  Packed as a hex blob
    # at 0.5" (30) or 0.25" (40) they stay within 9"
    _, out = _deploy(capsys, tmp_path, _nr(("Boyz", [("Boss Nob", 1), ("Boy", n - 1)])))
    _assert_placed(out, {"boyz": n})


def test_mixed_bases_unit_placed_in_coherency(capsys, tmp_path):
    # 3 guns on 60mm and 9 crew on 25mm: the old grid 4 x 3 at 2.3622 + 0.5 = 2.8622" put
    # two 25mm crew 2.8622 x sqrt(3^2 + 2^2) - 0.9843 = 10.32 - 0.98 = 9.34" apart (> 9")
    _, out = _deploy(capsys, tmp_path, _nr(("Gunz", [("Big Gun", 3), ("Grot Crew", 9)])),
                     "--base", "Big Gun=60mm", "--base", "Grot Crew=25mm")
    _assert_placed(out, {"gunz": 12})


def test_unit_too_big_for_the_spread_says_why(capsys, tmp_path):
    # 60 models on 32mm even 0.1" apart: a hex cell of 1.3598^2 x 0.866 = 1.601 sq in each,
    # 60 of them a disc of radius sqrt(60 x 1.601 / pi) = 5.53": about 11.06 - 1.26 = 9.8"
    # edge to edge, past 9": one line, exit 2, naming the 9" rule
    got, out = _deploy(capsys, tmp_path, _nr(("Boyz", [("Boy", 60)])), code=2)
    assert got.err.count("\n") == 1 and "03.04" in got.err and "9\"" in got.err
    assert not out.exists()


# ------------------------------------------------------------------ 4, 14: -o

def test_force_replaces_an_existing_out_and_a_missing_folder_is_refused(capsys, tmp_path):
    out = tmp_path / "o.toml"
    args = ["roster", EX / "orks-app.txt", "--map", H_AND_A, "--player", "orks", "-o", out]
    cli_expect(capsys, *args)
    first = out.read_text()
    err = cli_expect(capsys, *args, code=2).err          # exists: refused, the advice is --force
    assert "--force" in err and out.read_text() == first
    cli_expect(capsys, *args, "--force")                  # and --force is accepted
    assert out.exists()
    missing = tmp_path / "nodir" / "x.toml"
    err = cli_expect(capsys, "roster", EX / "orks-app.txt", "--map", H_AND_A, "--player", "orks",
                     "-o", missing, code=2).err
    assert err.count("\n") == 1 and "no folder" in err and not missing.parent.exists()


# ------------------------------------------------------------------ 5: numbers, nesting

def test_huge_number_and_deep_nesting_one_located_line(capsys, tmp_path):
    big = tmp_path / "big.json"
    # line 1 "{", line 2 the 5000-digit number: past Python's 4300-digit int limit
    big.write_text('{\n"roster": ' + "9" * 5000 + "}\n")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)                   # 100,000 arrays on line 1
    trunc = tmp_path / "trunc.json"
    trunc.write_text('{\n"roster": "ab')              # the string opened on line 2, column 11
    for path, want in ((big, "big.json: line 2: a number of 5000 digits"),
                       (deep, "deep.json: line 1: arrays and objects nested 100000 deep"),
                       (trunc, "trunc.json: line 2 column 11: not valid JSON: Unterminated "
                               "string starting at\n")):
        err = cli_expect(capsys, "roster", path, "--map", H_AND_A, "--player", "orks", "-o",
                         tmp_path / "o.toml", code=2).err
        assert err.count("\n") == 1 and want in err, err


# ------------------------------------------------------------------ 6: counts bounded

@pytest.mark.parametrize("roster, want", [
    # one unit of 100,000: over MAX_UNIT_MODELS 200
    (_nr(("Horde", [("Boy", 100_000)])), "Horde: 100000 models in one unit; a map unit holds "
                                         "at most 200"),
    # 6 units of 180 (each within 200): 6 x 180 = 1080 > MAX_MODELS 1000
    (_nr(*[(f"Mob {k}", [("Boy", 180)]) for k in range(6)]),
     "1080 models in the roster; a map holds at most 1000"),
])
def test_model_counts_bounded_by_the_map_limits(capsys, tmp_path, roster, want):
    got, out = _deploy(capsys, tmp_path, roster, code=2)
    assert got.err.count("\n") == 1 and want in got.err and not out.exists()


def test_an_infinite_number_is_refused_not_a_traceback(capsys, tmp_path):
    roster = _nr(("Horde", [("Boy", 1)]))
    roster["roster"]["forces"][0]["selections"][0]["selections"][0]["number"] = "1e999"
    got, _ = _deploy(capsys, tmp_path, roster, code=2)
    assert got.err.count("\n") == 1 and "models in one unit" in got.err


# ------------------------------------------------------------------ 9: the written map

def test_written_map_has_units_tables_one_model_a_line_and_its_own_header(capsys, tmp_path):
    _, out = deploy_roster(capsys, tmp_path, _nr(("Boyz", [("Boss Nob", 1), ("Boy", 9)]),
                                                 ("Grots", [("Gretchin", 5)])),
                           "# Generated by some script: edit the script, not this file\n" + ZONE18,
                           "--base", "Gretchin=25mm")
    text = out.read_text()
    lines = text.splitlines()
    assert lines[0] == "# Placed by tabletop roster: r.json on t.toml (player a)"
    assert "Generated by some script" not in text
    assert text.count("[[units]]") == 2                       # Boyz and Grots
    # one model a line: 1 + 9 Boyz and 5 Gretchin = 15 lines "    {... at = [x, y]},"
    assert sum(1 for ln in lines if ln.startswith("    {") and "at = [" in ln) == 15
    assert max(len(ln) for ln in lines) < 120
    assert {u.id: len(u.models) for u in load(str(out)).units} == {"boyz": 10, "grots": 5}


# ------------------------------------------------------------------ 10: bases per model, crews

def test_base_per_model_and_crews_on_infantry_bases(capsys, tmp_path):
    # Mek Gunz: the table's unit row is "Hull" (no size, bases.csv line 720); the Gretchin
    # crew are a unit of their own on 25mm (reference line 709), the gun given per model
    roster = _nr(("Mek Gunz", [("Mek Gun", 3), ("Gretchin", 9)]))
    got, out = _deploy(capsys, tmp_path, roster, code=2)
    # only the gun is missing: the suggestion names the model within the unit
    assert got.err.count("\n") == 1 and '--base "Mek Gunz/Mek Gun=SIZE"' in got.err
    _, out = _deploy(capsys, tmp_path, roster, "--base", "Mek Gunz/Mek Gun=60mm")
    unit = load(str(out)).unit("mek-gunz")
    assert [m.base.text for m in unit.models] == ["60mm"] * 3 + ["25mm"] * 9


def test_old_world_war_machine_crew_stand_on_their_own_bases(capsys, tmp_path):
    table = tmp_path / "t.toml"
    table.write_text(ZONE18.replace("fight-phase", "rank-and-flank"))
    r = tmp_path / "r.json"
    r.write_text(json.dumps({"roster": {"name": "t", "gameSystemName": "Warhammer: The Old World",
                                        "forces": [{"catalogueName": "The Empire of Man",
                                                    "selections": [
        {"name": "Great Cannon", "type": "unit", "selections": [
            {"name": "Great Cannon", "type": "model", "number": 1},
            {"name": "Crew", "type": "model", "number": 3}]}]}]}}))
    out = tmp_path / "o.toml"
    cli_expect(capsys, "roster", r, "--map", table, "--player", "a", "-o", out)
    state = load(str(out))
    unit = state.unit("great-cannon")
    # the cannon on 50x75mm (line 2868), its crew on the Empire's Gun Crew 25x25mm (2875)
    assert [m.base.text for m in unit.models] == ["50x75mm"] + ["25x25mm"] * 3
    gun, c1, c2, c3 = unit.models
    # facing 0 (zone centre (9, 22) to table centre (30, 22)): the crew abreast behind the
    # gun, touching it and each other: 25mm = 0.9843" apart across, and the gun's rear
    # 75/2 mm = 1.4764" behind its centre, a crew's centre 0.4921" further back
    assert c1.x == c2.x == c3.x == pytest.approx(gun.x - 1.4764 - 0.4921, abs=1e-3)
    assert sorted(m.y - gun.y for m in (c1, c2, c3)) == pytest.approx(
        [-0.9843, 0, 0.9843], abs=1e-3)
    geo = snapshot(state)
    assert not geo.overlaps and geo.in_coherency("great-cannon")


def test_base_for_a_name_not_in_the_roster_is_refused(capsys, tmp_path):
    got, out = _deploy(capsys, tmp_path, _nr(("Boyz", [("Boy", 10)])), "--base", "Rhinoo=50mm",
                       code=2)
    assert got.err == f'{tmp_path / "r.json"}: --base "Rhinoo=50mm": no unit or model of the ' \
                      "roster is named so\n"
    assert not out.exists()


def test_unknown_name_suggests_the_nearest_names_bases(capsys, tmp_path):
    # "Intercesor Squad": the nearest names are 32mm, 32mm and 40mm squads, not "e.g. 32mm"
    roster = _nr(("Intercesor Squad", [("Intercessor", 5)]))
    roster["roster"]["forces"][0]["catalogueName"] = "Imperium - Space Marines"
    got, _ = _deploy(capsys, tmp_path, roster, code=2)
    assert "(the nearest names stand on 32mm, 40mm)" in got.err and "e.g. 32mm" not in got.err


# ------------------------------------------------------------------ 13: small zones

SHALLOW = """
[map]
name = "shallow"
ruleset = "{ruleset}"
width = 12
depth = 12

[[players]]
id = "a"
active = true

[[players]]
id = "b"

[[deployment]]
player = "a"
polygon = [[0, 0], [12, 0], [12, {deep}], [0, {deep}]]
name = "strip"
"""


def _shallow(capsys, tmp_path, roster, deep, *extra, ruleset="fight-phase", code=0):
    return deploy_roster(capsys, tmp_path, roster, SHALLOW.format(ruleset=ruleset, deep=deep),
                         *extra, code=code)


def test_a_shallow_zone_takes_the_unit_as_a_line(capsys, tmp_path):
    # a 12" x 2" strip: the square grid of 5 (3 + 2) is 1.2598 + 1.7598 = 3.02" deep, too
    # deep; all 5 abreast are 1.2598" deep and 4 x 1.7598 + 1.2598 = 8.30" wide.  Facing 90
    # (zone centre (6, 1) to table centre (6, 6)), right hand +x: front edge y = 2, so
    # y = 2 - 0.6299; left edge x = 0, so x = 0.6299 + k x 1.7598
    _, out = _shallow(capsys, tmp_path, _nr(("Boyz", [("Boy", 5)])), 2)
    ms = load(str(out)).unit("boyz").models
    assert [c for m in ms for c in (m.x, m.y)] == pytest.approx(
        [c for k in range(5) for c in (0.6299 + k * 1.7598, 2 - 0.6299)], abs=1e-3)


def test_every_unit_without_room_is_named_with_why(capsys, tmp_path):
    # a 12" x 2" strip: a line of 5 takes 8.30" (above); a second and a third unit of 5 find
    # no room (8.30 + 1" gap + 8.30 > 12), though each would fit alone: both named
    got, out = _shallow(capsys, tmp_path, _nr(("Boyz", [("Boy", 5)]),
                                              ("Stormboyz", [("Stormboy", 5)]),
                                              ("Beast Snagga Boyz", [("Beast Snagga Boy", 5)])),
                        2, code=2)
    lines = got.err.splitlines()
    assert [ln.split(": ")[1].split(" (")[0] for ln in lines] == ["Stormboyz",
                                                                   "Beast Snagga Boyz"]
    assert all("finds no room left in strip beside the other units" in ln for ln in lines)
    assert not out.exists()


def test_a_block_too_deep_for_the_zone_says_so(capsys, tmp_path):
    roster = {"roster": {"name": "t", "gameSystemName": "Warhammer: The Old World", "forces": [
        {"catalogueName": "The Empire of Man", "selections": [
            {"name": "State Troops", "type": "unit", "selections": [
                {"name": "State Trooper", "type": "model", "number": 20}]}]}]}}
    # --frontage 1: a block 1 x 20 of 25x25mm: 0.9843" wide, 20 x 0.9843 = 19.7" deep, in
    # a 6"-deep zone: it cannot fit even alone (not "beside the units already there")
    got, _ = _shallow(capsys, tmp_path, roster, 6, "--frontage", "1", ruleset="rank-and-flank",
                      code=2)
    assert got.err.count("\n") == 1
    assert ("State Troops (20 models) cannot fit in strip even alone: a block 1 x 20 is about "
            '1.0" x 19.7" (give a wider --frontage)') in got.err


# ------------------------------------------------------------------ 14: wording, empty roster

def test_one_model_one_unit_wording(capsys, tmp_path):
    got, _ = _deploy(capsys, tmp_path, _nr(("Warboss", [("Warboss", 1)])))
    lines = got.out.splitlines()
    # 1 unit of 1 model: singular both times, never "1 models"
    assert lines[0].startswith(f"{tmp_path / 'r.json'}: 1 unit, 1 model (")
    assert lines[1] == "  warboss: Warboss, 1 model on 40mm, cluster"
    assert "1 models" not in got.out and "1 units" not in got.out


def test_an_empty_roster_is_refused(capsys, tmp_path):
    roster = _nr()                                     # a force with no selections
    got, out = _deploy(capsys, tmp_path, roster, code=2)
    assert got.err == f"{tmp_path / 'r.json'}: no units in the roster; nothing to place\n"
    assert not out.exists()


def test_old_world_roster_on_a_40k_map_says_an(capsys, tmp_path):
    err = cli_expect(capsys, "roster", EX / "empire.rosz", "--map", H_AND_A, "--player", "marines",
                     "-o", tmp_path / "o.toml", code=2).err
    assert "an Old World roster is laid out for rank-and-flank" in err
