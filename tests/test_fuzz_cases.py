"""The cases fuzzing found (issue 11 item 6), each a regular test with its minimal example.

Each map here is a small hand-written fight-phase or rank-and-flank map; every bad value
must end in a located one-line error and exit 2 (or load and run), never a traceback, a
hang, or a control code reaching the terminal.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tabletop.board import mapfile
from tabletop.board.limits import MAX_NESTING, MAX_UNIT_MODELS
from tabletop.cli import main
from tabletop.errors import MAX_ERROR_LINES, MapSyntaxError, MapValidationError, printable
from tabletop.layout_io import read as layout_read
from tabletop.roster import read as roster_read

ROOT = Path(__file__).resolve().parent.parent
LESSON = str(ROOT / "maps" / "lessons" / "pile-in.toml")
TABLE = str(ROOT / "maps" / "ca-layout-1-table.toml")          # players attacker, defender
LAYOUT = str(ROOT / "tests" / "scenarios" / "layout" / "two-pieces.json")

# two 32mm units of one model each, 1.0" apart centre to centre along x ... no: red/1 at
# (10, 9) and blue/1 at (11.26, 9): 32 mm = 1.259843" so the gap is 0.000157", in base
# contact at the default 0.02" tolerance.
FIGHT = """
[map]
name = "duel"
ruleset = "fight-phase"
width = 24
depth = 18
[[players]]
id = "red"
active = true
[[players]]
id = "blue"
[[units]]
id = "red"
name = "RED_NAME"
player = "red"
base = "32mm"
profile = { T = RED_T, Sv = RED_SV, W = 2, A = RED_A }
weapons = [{ name = "Blade", A = RED_WA, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[10, 9]]
[[units]]
id = "blue"
player = "blue"
base = "32mm"
profile = { T = 4, Sv = 3, W = 2 }
weapons = [{ name = "Axe", A = 2, WS = 4, S = 4, AP = 0, D = 1 }]
models = [[11.26, 9]]
"""


def fight_map(write_map, *, t="4", sv="3", a="2", wa="3", name="Reds", extra=""):
    text = (FIGHT.replace("RED_T", t).replace("RED_SV", sv).replace("RED_A", a)
            .replace("RED_WA", wa).replace("RED_NAME", name))
    return write_map(text + extra)


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return rc, out, err


def one_error(capsys, path, *argv):
    """Run; expect exit 2 and exactly one stderr line naming the file.  Returns that line."""
    rc, out, err = run(capsys, *argv)
    assert rc == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}: "), lines
    return lines[0]


# ------------------------------------------------------------------ profiles as numbers
def test_profile_attacks_half_is_refused_when_the_map_loads(write_map, capsys):
    # A = 0.5 in the profile: attacks are whole numbers 0..MAX_ATTACKS (100); check refused
    # nothing before (exit 0) and the value reached the gambit challenge's dice
    path = fight_map(write_map, a="0.5")
    for cmd in (["check", path], ["fight", path, "--seed", "1"], ["measure", path, "red", "blue"]):
        line = one_error(capsys, path, *cmd)
        assert line.endswith("units[0].profile.A: must be a whole number from 0 to 100, got 0.5")


def spears_map(write_map, attacks: str):
    """A rank-and-flank table of one unit of spears (5 files x 2 ranks) whose profile has
    ``Attacks = <attacks>`` (written as TOML)."""
    return write_map(f"""
    [map]
    name = "rnf"
    ruleset = "rank-and-flank"
    width = 48
    depth = 48
    [[players]]
    id = "a"
    active = true
    [[units]]
    id = "spears"
    player = "a"
    base = "25x25mm"
    profile = {{ Move = 4, Skill = 3, Power = 3, Defense = 3, Attacks = {attacks}, Wounds = 1, Discipline = 7 }}
    formation = {{ front_centre = [24, 24], facing = 90, files = 5, ranks = 2 }}
    """)


def test_rank_and_flank_attacks_one_and_a_half_is_refused(write_map, capsys):
    path = spears_map(write_map, "1.5")
    line = one_error(capsys, path, "check", path)
    assert line == f"{path}: units[0].profile.Attacks: must be a whole number from 0 to 100, got 1.5"


def test_a_save_written_3_plus_is_read_as_3_and_the_fight_runs(write_map, capsys):
    # Sv = "3+" passed check and crashed fight (int("3+")); it is a roll needed, read as 3
    path = fight_map(write_map, sv='"3+"')
    state = mapfile.load(path)
    assert state.unit("red").models[0].profile["Sv"] == 3
    assert run(capsys, "check", path)[0] == 0
    rc, out, _ = run(capsys, "fight", path, "--seed", "1", "--json")
    assert rc == 0 and json.loads(out)["events"]


def test_toughness_four_in_words_is_refused(write_map, capsys):
    path = fight_map(write_map, t='"four"')
    line = one_error(capsys, path, "check", path)
    assert line == f"{path}: units[0].profile.T: must be a number from 1 to 99, got 'four'"


def test_a_weapon_of_a_trillion_attacks_is_refused(write_map, capsys):
    # 10^12 attacks: check said nothing and fight rolled dice for hours
    path = fight_map(write_map, wa="1000000000000")
    line = one_error(capsys, path, "fight", path, "--seed", "1")
    assert line == f"{path}: units[0].weapons[0].A: must be at most 100 (MAX_ATTACKS), got 1000000000000"
    path = fight_map(write_map, wa='"1000000D6"')
    line = one_error(capsys, path, "check", path)
    assert "units[0].weapons[0].A: rolls at most 10 dice (MAX_DICE)" in line


# ------------------------------------------------------------------ numbers and sizes
def test_a_coordinate_of_1e308_is_a_map_error(write_map, capsys):
    # it overflowed the pile-in solver (float infinity to int); coordinates lie within
    # MAX_COORD_INCHES = 10000" of the corner
    path = write_map(FIGHT.replace("RED_T", "4").replace("RED_SV", "3").replace("RED_A", "2")
                     .replace("RED_WA", "3").replace("RED_NAME", "r")
                     .replace("models = [[10, 9]]", "models = [[1e308, 9]]"))
    line = one_error(capsys, path, "pile-in", path, "red", "-o", path + ".out.toml")
    assert line.startswith(f"{path}: units[0].models[0]: a model's position is [x, y] in inches, "
                           f"each within 10000\"")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_nan_and_infinity_are_refused(write_map, capsys, value):
    path = write_map(FIGHT.replace("RED_T", "4").replace("RED_SV", "3").replace("RED_A", "2")
                     .replace("RED_WA", "3").replace("RED_NAME", "r")
                     .replace("width = 24", f"width = {value}"))
    line = one_error(capsys, path, "check", path)
    assert line.startswith(f"{path}: map.width: ")


def test_contact_tolerance_zero_runs(write_map, capsys):
    # contact_tolerance = 0 divided by zero once; the gap here is 11.26 - 10 - 32/25.4 =
    # 0.000157" > 0, so with no tolerance the two models are not in base contact but are
    # engaged (2" engagement range): check is clean, the fight runs
    path = fight_map(write_map, extra="\n[rules]\ncontact_tolerance = 0\n")
    rc, out, _ = run(capsys, "check", path, "--json")
    report = json.loads(out)
    assert rc == 0 and report["base_contact"] == [] and report["engaged"] == [["blue", "red"]]
    assert run(capsys, "fight", path, "--seed", "1")[0] == 0


def test_a_deeply_nested_array_is_a_syntax_error(write_map, capsys):
    # 5000 nested arrays overflowed the TOML reader (RecursionError traceback)
    path = fight_map(write_map, extra="\n[rules]\nx = " + "[" * 5000 + "]" * 5000 + "\n")
    line = one_error(capsys, path, "check", path)
    assert line == f"{path}: arrays or tables nested more than {MAX_NESTING} deep (MAX_NESTING)"
    # 20 deep parses, and is refused by the depth walk (top table 1, rules 2, x 3..22)
    path = fight_map(write_map, extra="\n[rules]\nx = " + "[" * 20 + "]" * 20 + "\n")
    with pytest.raises(MapSyntaxError, match="nested more than 16 deep"):
        mapfile.load(path)


def test_a_self_crossing_outline_is_a_map_error(write_map, capsys):
    # a bow-tie: (0,0)-(2,2) crosses (2,0)-(0,2) at (1, 1)
    path = fight_map(write_map, extra='\n[[terrain]]\nid = "t"\nkind = "ruin"\n'
                                      'polygon = [[0, 0], [2, 2], [2, 0], [0, 2]]\n')
    line = one_error(capsys, path, "check", path)
    assert line == f"{path}: terrain[0].polygon: the outline crosses itself at (1 1)"


def test_a_wide_formation_is_a_limit(write_map, capsys):
    # 1000 files and no profile: check ran for minutes; a unit is at most 200 models
    path = write_map("""
    [map]
    name = "rnf"
    ruleset = "rank-and-flank"
    width = 48
    depth = 48
    [[players]]
    id = "a"
    active = true
    [[units]]
    id = "wide"
    player = "a"
    base = "25x25mm"
    formation = { front_centre = [24, 24], facing = 90, files = 1000, ranks = 1 }
    """)
    line = one_error(capsys, path, "check", path)
    assert line == f"{path}: units[0].formation.files: input should be less than or equal to " \
                   f"{MAX_UNIT_MODELS}, got 1000"
    # 20 files x 20 ranks = 400 models, each number under the limit, the product over it
    path = write_map(Path(path).read_text().replace("files = 1000, ranks = 1",
                                                    "files = 20, ranks = 20"))
    line = one_error(capsys, path, "check", path)
    assert line == f"{path}: units[0].formation: 20 files x 20 ranks make 400 models; a unit " \
                   f"has at most 200 (MAX_UNIT_MODELS)"


def test_ten_thousand_stacked_models_are_a_limit(write_map, capsys):
    path = fight_map(write_map).replace("", "")
    text = Path(path).read_text().replace("models = [[10, 9]]",
                                          "models = [" + ", ".join(["[10, 9]"] * 10000) + "]")
    Path(path).write_text(text)
    line = one_error(capsys, path, "check", path)
    assert line == f"{path}: units[0].models: at most 200 entries (a limit of the map format), got 10000"


def test_more_models_than_a_map_holds(write_map, capsys):
    # six units of 200 models (formations of 20 x 10): 1200 > MAX_MODELS = 1000
    units = "".join(f"""
[[units]]
id = "u{k}"
player = "red"
base = "25mm"
formation = {{ front_centre = [{10 + 30 * k}, 40], facing = 90, files = 20, ranks = 10 }}
""" for k in range(6))
    path = write_map('[map]\nname = "m"\nruleset = "fight-phase"\nwidth = 200\ndepth = 60\n'
                     '[[players]]\nid = "red"\nactive = true\n' + units)
    line = one_error(capsys, path, "check", path)
    assert line == f"{path}: (top level): the map makes 1200 models; a map holds at most 1000 (MAX_MODELS)"


def test_a_ruleset_written_as_a_list_is_a_map_error(write_map, capsys):
    # ruleset = ["fight-phase"] crashed even check (a list as a dict key)
    path = fight_map(write_map).replace("", "")
    Path(path).write_text(Path(path).read_text().replace('ruleset = "fight-phase"',
                                                         'ruleset = ["fight-phase"]'))
    line = one_error(capsys, path, "check", path)
    assert line == f"{path}: map.ruleset: input should be a valid string"


# ------------------------------------------------------------------ files
def test_a_fifo_is_refused_without_waiting(tmp_path, capsys):
    fifo = tmp_path / "map.toml"
    os.mkfifo(fifo)            # opening it to read would wait for a writer forever
    line = one_error(capsys, str(fifo), "check", str(fifo))
    assert line == f"{fifo}: is not a regular file (a pipe or a device); give a map file"


def test_dev_zero_is_refused(capsys):
    line = one_error(capsys, "/dev/zero", "check", "/dev/zero")
    assert line == "/dev/zero: is not a regular file (a pipe or a device); give a map file"


def test_a_map_over_the_size_limit_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(mapfile, "MAX_MAP_BYTES", 100)
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * 101)     # one byte over a limit of 100
    line = one_error(capsys, str(path), "check", str(path))
    assert line == f"{path}: is 101 bytes; a map file is at most 100 bytes (MAX_MAP_BYTES)"


def test_undecodable_bytes_name_their_line(tmp_path, capsys):
    path = tmp_path / "bytes.toml"
    path.write_bytes(b'[map]\nname = "x"\nname2 = "\xff"\n')      # 0xff on line 3
    line = one_error(capsys, str(path), "check", str(path))
    assert line == f"{path}: line 3: cannot read: not UTF-8 text (byte 0xff)"


# ------------------------------------------------------------------ printing
def test_printable_escapes_control_codes():
    assert printable("a\x1b[2Jb") == "a\\u001b[2Jb"
    assert printable("x\ny") == "x\\u000ay"
    assert printable("x\ny", keep="\n") == "x\ny"
    assert printable("evil\u202e") == "evil\\u202e"
    assert printable("plain é ✓") == "plain é ✓"


def test_control_codes_in_a_name_are_escaped_when_printed(write_map, capsys):
    # the unit's name clears the screen when printed raw: ESC [ 2 J
    path = fight_map(write_map, name="\\u001b[2JReds")
    Path(path).write_text(Path(path).read_text().replace('name = "duel"', 'name = "\\u001b[2Jduel"'))
    assert mapfile.load(path).unit("red").name == "\x1b[2JReds"
    rc, out, err = run(capsys, "fight", path, "--seed", "1")
    assert rc == 0 and "\x1b" not in out + err
    # check's header prints the map's name: escaped, as \u001b
    rc, out, err = run(capsys, "check", path)
    assert rc == 0 and "\x1b" not in out and out.splitlines()[0].startswith("\\u001b[2Jduel")
    rc, out, err = run(capsys, "measure", path, "red", "\x1b[2J")
    # the id is shown as repr shows it: escaped, never raw
    assert rc == 2 and "\x1b" not in err and "'\\x1b[2J'" in err and len(err.splitlines()) == 1


def test_a_newline_in_an_id_is_a_map_error_on_one_line(write_map, capsys):
    path = fight_map(write_map)
    Path(path).write_text(Path(path).read_text().replace('id = "red"\nname', 'id = "r\\ned"\nname'))
    line = one_error(capsys, path, "check", path)
    assert line == f"{path}: units[0].id: a unit id cannot hold a control character ('\\n'), got 'r\\ned'"


# ------------------------------------------------------------------ arguments
@pytest.mark.parametrize("argv", [
    ["pile-in", LESSON, "intercessors", "-o", ""],
    ["fight", LESSON, "--seed", "1", "-o", ""],
    ["check", LESSON, "-o", ""],
    ["charge", LESSON, "boyz", "-o", ""],
])
def test_an_empty_output_name_is_refused(capsys, argv, tmp_path):
    # -o '' was silently ignored (the move made, nothing written, exit 0)
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and out == ""
    assert err.splitlines() == [f"tabletop {argv[0]}: {'-o/--out' if argv[0] in ('pile-in', 'fight') else '-o/--output' if argv[0] == 'check' else '-o'}: "
                                f"an empty value; give a file name, an id or a value (see tabletop {argv[0]} -h)"]


@pytest.mark.parametrize("size", ["100000x100000", "0x0", "319x200"])
def test_view_refuses_an_absurd_window_size(capsys, size):
    # 100000x100000 reached pygame (a 16384 px window, out of memory); bounds 320x200..7680x4320
    rc, out, err = run(capsys, "view", LESSON, "--size", size)
    assert rc == 2
    assert err.strip() == f"--size {size}: give WIDTHxHEIGHT in pixels, from 320x200 to 7680x4320 (e.g. 1400x900)"


def test_a_terrain_id_like_a_model_id_is_refused(write_map, capsys):
    # terrain "red/1" would collide with the model red/1 in measure and every report
    path = fight_map(write_map, extra='\n[[terrain]]\nid = "red/1"\nkind = "ruin"\n'
                                      'rect = { centre = [4, 4], width = 2, depth = 2 }\n')
    line = one_error(capsys, path, "measure", path, "red/1", "blue/1")
    assert line == f"{path}: terrain[0].id: a terrain id cannot contain '/', got 'red/1' (model ids are <unit id>/<n>)"


@pytest.mark.parametrize("value", ['"nobody"', '["zz", "yy"]', "{ a = 1 }", "12", "true"])
def test_unknown_ids_in_decisions_are_a_map_error_not_a_crash(write_map, capsys, value):
    # a scripted answer naming nothing on the map, whatever its type, can never answer the
    # question: one line naming decisions[0].value, exit 2 (board/decision_checks.py)
    path = fight_map(write_map, extra=f'\n[[decisions]]\nplayer = "red"\nchoice = "fight"\nvalue = {value}\n')
    line = one_error(capsys, path, "fight", path, "--seed", "1", "--json")
    assert line.startswith(f"{path}: decisions[0].value: ")


def test_an_out_of_range_seed_is_refused(capsys):
    rc, _, err = run(capsys, "fight", LESSON, "--seed", str(2 ** 63))
    assert rc == 2 and err.strip() == (f"tabletop fight: --seed {2 ** 63}: the dice seed is at "
                                       f"most {2 ** 63 - 1} (MAX_SEED)")


def test_the_validation_errors_are_map_errors():
    with pytest.raises(MapValidationError):
        mapfile.from_dict({"map": {"name": "x", "ruleset": ["fight-phase"], "width": 1, "depth": 1}})


@pytest.mark.parametrize("runs", ["0", "-1", "99999999999999999999"])
def test_odds_runs_are_bounded(capsys, runs):
    # the fuzz suite's argument cases include --runs 99999999999999999999, which nothing
    # bounded (1e20 Monte Carlo runs); runs are now 1..MAX_ODDS_RUNS
    rc, out, err = run(capsys, "fight", LESSON, "--odds", "--sample", "--runs", runs)
    assert rc == 2 and out == ""
    assert err.strip() == (f"tabletop fight: --runs {runs}: give a number of runs from 1 to "
                           f"100,000 (MAX_ODDS_RUNS)")


def test_a_clause_of_one_control_character_is_a_map_error(write_map, capsys):
    # found by the long profile: "\x1f" is no whitespace to the schema's strip, so it passed
    # the clause's min_length, but str.split() splits on it and left no words (IndexError)
    text = Path(LESSON).read_text(encoding="utf-8").replace(
        'clause = "fight-phase.txt 12.03"', 'clause = "\\u001f"', 1)
    assert main(["check", write_map(text)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "lesson[0].clause" in err[0] and "blank" in err[0], err


@pytest.mark.parametrize("lost, ok", [(1, True), (2, False), (5, False)])
def test_wounds_lost_must_leave_the_model_a_wound(write_map, capsys, lost, ok):
    # audit 9 finding 2: red/1 (W 2 from the unit's profile) with wounds_lost = 5 was
    # accepted and fought with "-3 left"; W 2 leaves room to have lost at most 1
    path = write_map((FIGHT.replace("RED_T", "4").replace("RED_SV", "3").replace("RED_A", "2")
                      .replace("RED_WA", "3").replace("RED_NAME", "Reds"))
                     .replace("models = [[10, 9]]",
                              f"models = [{{ at = [10, 9], wounds_lost = {lost} }}]"))
    code = main(["check", path])
    err = capsys.readouterr().err.strip().splitlines()
    if ok:
        assert code == 0, err
    else:
        assert code == 2 and err == [
            f"{path}: units[0].models[0].wounds_lost: a model of 2 wounds can have lost at most "
            f"1 (one that lost them all is removed), got {lost}"], err


# ------------------------------------------------------------------ every file a command reads
def _fifo(tmp_path, name):
    fifo = tmp_path / name
    os.mkfifo(fifo)            # opening it to read would wait for a writer forever
    return str(fifo)


def _reads(kind, path, tmp_path):
    """The command line that reads ``path`` as a file of ``kind``."""
    out = str(tmp_path / "out.toml")
    return {
        "roster": ["roster", path, "--map", TABLE, "--player", "attacker", "-o", out],
        "edit --roster": ["edit", TABLE, "--roster", path, "--player", "attacker"],
        "layout import": ["layout", "import", path, "-o", out],
        "--check": ["pile-in", LESSON, "intercessors", "--check", path],
        "compare": ["compare", LESSON, path],
    }[kind]


_WHAT = {"roster": "roster file", "edit --roster": "roster file",
         "layout import": "layout .json file", "--check": "map file", "compare": "map file"}


@pytest.mark.parametrize("kind", list(_WHAT))
def test_dev_zero_is_refused_by_every_reader(capsys, tmp_path, kind):
    # /dev/zero has size 0 to stat: roster, edit --roster and layout import read it until
    # memory ran out (MemoryError at 2.7 GB); now refused from its stat, before any read
    line = one_error(capsys, "/dev/zero", *_reads(kind, "/dev/zero", tmp_path))
    assert line == f"/dev/zero: is not a regular file (a pipe or a device); give a {_WHAT[kind]}"


@pytest.mark.parametrize("kind, name", [("roster", "army.json"), ("roster", "army.rosz"),
                                        ("layout import", "layout.json"),
                                        ("--check", "moved.json"), ("--check", "moved.toml"),
                                        ("compare", "measured.toml")])
def test_a_fifo_is_refused_by_every_reader(capsys, tmp_path, kind, name):
    # layout import and roster waited forever for a writer to the FIFO
    fifo = _fifo(tmp_path, name)
    line = one_error(capsys, fifo, *_reads(kind, fifo, tmp_path))
    what = "JSON file" if name == "moved.json" else _WHAT[kind]
    assert line == f"{fifo}: is not a regular file (a pipe or a device); give a {what}"


def test_a_roster_over_the_size_limit_is_refused_before_it_is_read(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(roster_read, "MAX_ROSTER_BYTES", 100)
    path = tmp_path / "army.json"
    path.write_bytes(b" " * 101)     # one byte over a limit of 100
    line = one_error(capsys, str(path), *_reads("roster", str(path), tmp_path))
    assert line == f"{path}: is 101 bytes; a roster file is at most 100 bytes (MAX_ROSTER_BYTES)"
    # a .rosz is bounded as a file before it is opened as a zip
    path = tmp_path / "army.rosz"
    path.write_bytes(b"P" * 101)
    line = one_error(capsys, str(path), *_reads("roster", str(path), tmp_path))
    assert line == f"{path}: is 101 bytes; a roster file is at most 100 bytes (MAX_ROSTER_BYTES)"


def test_a_layout_over_the_size_limit_is_refused_before_it_is_read(capsys, tmp_path, monkeypatch):
    # a regular 33 MB layout JSON was parsed and checked entity by entity for minutes
    monkeypatch.setattr(layout_read, "MAX_LAYOUT_BYTES", 100)
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 101)
    line = one_error(capsys, str(path), *_reads("layout import", str(path), tmp_path))
    assert line == f"{path}: is 101 bytes; a layout .json file is at most 100 bytes (MAX_LAYOUT_BYTES)"


def test_a_layout_of_too_many_entities_is_one_line(capsys, tmp_path, monkeypatch):
    # 4 entities against a limit of 3: counted before any is checked, one line
    monkeypatch.setattr(layout_read, "MAX_LAYOUT_ENTITIES", 3)
    path = tmp_path / "many.json"
    path.write_text(json.dumps([{"id": "x"}] * 4))
    line = one_error(capsys, str(path), *_reads("layout import", str(path), tmp_path))
    assert line == (f"{path}: 4 entities (layouts, deployment patterns, terrain templates); a "
                    f"layout file holds at most 3 (MAX_LAYOUT_ENTITIES)")


def test_a_layout_of_more_pieces_than_a_map_holds_is_one_line(capsys, tmp_path):
    # the shipped test layout's second piece copied 501 times: over MAX_TERRAIN = 500, each
    # piece left unchecked (they were checked one by one, then refused by the map)
    doc = json.loads(Path(LAYOUT).read_text())
    piece = doc[0]["pieces"][1]
    doc[0]["pieces"] = [dict(piece, id=f"p{i}") for i in range(501)]
    path = tmp_path / "pieces.json"
    path.write_text(json.dumps(doc))
    line = one_error(capsys, str(path), *_reads("layout import", str(path), tmp_path))
    assert line == f"{path}: [0].pieces: at most 500 entries (a limit of the map format), got 501"


def test_error_lines_are_capped(capsys, tmp_path):
    # 60 entries that are no entity: one problem each, [0] .. [59]; the first
    # MAX_ERROR_LINES (50) are printed, then one line for the other 60 - 50 = 10
    path = tmp_path / "numbers.json"
    path.write_text(json.dumps(list(range(60))))
    rc, out, err = run(capsys, *_reads("layout import", str(path), tmp_path))
    lines = err.splitlines()
    assert rc == 2 and out == "" and MAX_ERROR_LINES == 50 and len(lines) == 51
    assert lines[0].startswith(f"{path}: [0]: not a terrain layout")
    assert lines[49].startswith(f"{path}: [49]: not a terrain layout")
    assert lines[50] == f"{path}: ... and 10 more problems (only the first 50 are shown: MAX_ERROR_LINES)"
    # 50 problems exactly: all printed, no extra line
    path.write_text(json.dumps(list(range(50))))
    rc, out, err = run(capsys, *_reads("layout import", str(path), tmp_path))
    assert rc == 2 and len(err.splitlines()) == 50


# ------------------------------------------------------------------ bench arguments
@pytest.mark.parametrize("argv, msg", [
    (["--sizes", "100000000", "--only", "snapshot"],
     "tabletop bench: --sizes 100000000: a benchmark table holds at most 10,000 models "
     "(MAX_BENCH_MODELS)"),
    (["--sizes", ",".join(["2"] * 11)],
     "tabletop bench: --sizes: give at most 10 model counts (MAX_BENCH_SIZES), got 11"),
    (["--only", "odds", "--repeat", "1000000"],
     "tabletop bench: --repeat: give 1 to 100 timed runs (MAX_BENCH_REPEAT), got 1000000"),
    (["--only", "snapshot", "--seed", "-1"],
     "tabletop bench: --seed -1: the dice seed is a whole number from 0"),
])
def test_bench_arguments_that_scale_work_are_bounded(capsys, argv, msg):
    # --sizes 100000000 ran for over a minute before anything said it was too many
    rc, out, err = run(capsys, "bench", *argv)
    assert rc == 2 and out == "" and err.splitlines() == [msg]


# ------------------------------------------------------------------ misleading messages
def test_a_rect_written_as_a_list_says_what_a_rect_is(write_map, capsys):
    # "valid dictionary or instance of RectIn" named a class of the code, not the format
    path = fight_map(write_map, extra='\n[[terrain]]\nid = "t"\nkind = "ruin"\nrect = [1, 1, 0, 0]\n')
    line = one_error(capsys, path, "check", path)
    assert line == (f"{path}: terrain[0].rect: expected a rectangle table: rect = {{ centre = "
                    f"[x, y], width = W, depth = D, angle = A }} (inches, degrees; angle "
                    f"optional), got [1, 1, 0, 0]")
    assert "RectIn" not in line


def test_a_table_written_as_a_number_never_names_a_class(write_map, capsys):
    path = write_map('map = 3\n')
    rc, out, err = run(capsys, "check", path)
    assert rc == 2 and "In," not in err and "instance of" not in err
    assert f"{path}: map: expected the [map] table (name, ruleset, width, depth), got 3" in err.splitlines()


def test_a_map_starting_with_a_byte_order_mark_loads(tmp_path, capsys):
    # Notepad's UTF-8 BOM gave "invalid statement" at line 1; it is dropped on reading
    text = Path(LESSON).read_text(encoding="utf-8")
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert mapfile.load(str(path)).units == mapfile.load(LESSON).units
    rc, out, _ = run(capsys, "check", str(path), "--json")
    rc0, out0, _ = run(capsys, "check", LESSON, "--json")
    assert rc == rc0 == 0 and json.loads(out)["engaged"] == json.loads(out0)["engaged"]


def test_layout_json_starting_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + Path(LAYOUT).read_bytes())
    found = layout_read.read_files([str(path)])
    assert [m.id for _, m in found.layouts] == ["two-pieces"]


@pytest.mark.parametrize("name, as_name", [("space-marines.ros", "army.xml"), ("orks.json", "army.json")])
def test_a_roster_starting_with_a_byte_order_mark_is_read(tmp_path, name, as_name):
    # BattleScribe XML saved under another name with a BOM was not told apart as XML
    src = ROOT / "examples" / "rosters" / name
    path = tmp_path / as_name
    path.write_bytes(b"\xef\xbb\xbf" + src.read_bytes())
    got, want = roster_read.read_roster(str(path)), roster_read.read_roster(str(src))
    assert [u.label for u in got.units] == [u.label for u in want.units] and got.units


# ------------------------------------------------------------------ weapon rules and dice
# (issue 11 item 6, the second audit: a rule's number, dice, AP, a rules text, a polygon)
def weapon_rules_map(write_map, rules, ap="0", wa="3"):
    """The duel map with the red weapon's ``rules`` written as ``rules`` (TOML text)."""
    return write_map(
        FIGHT.replace("RED_T", "4").replace("RED_SV", "3").replace("RED_A", "2")
        .replace("RED_WA", wa).replace("RED_NAME", "r")
        .replace('A = ' + wa + ', WS = 3, S = 4, AP = 0, D = 1 }',
                 f'A = {wa}, WS = 3, S = 4, AP = {ap}, D = 1, rules = {rules} }}'))


@pytest.mark.parametrize("word", ["Sustained Hits 1000", "Sustained Hits 7", "Sustained Hits 2D6",
                                  "sustained-hits-(1000000000)", "Sustained Hits 1" + "0" * 5000])
def test_a_sustained_hits_number_over_its_bound_is_refused(write_map, capsys, word):
    # "Sustained Hits 1000": every Critical Hit made 1000 more wound rolls; check, fight and
    # view --fight ran for minutes.  X is at most MAX_SUSTAINED_HITS = 6, a dice X by its
    # largest roll (2D6: 12 > 6); a 5,001-digit X is read without converting it
    path = weapon_rules_map(write_map, f'["{word}"]')
    for cmd in (["check", path], ["fight", path, "--seed", "1"]):
        line = one_error(capsys, path, *cmd)
        head = (f"{path}: units[0].weapons[0].rules[0]: Sustained Hits X must be at most "
                f"6 (MAX_SUSTAINED_HITS; dice by their largest roll), got ")
        # a value of over 40 characters is printed shortened (its length after it)
        assert line == head + repr(word) if len(word) < 40 else line.startswith(head + "'Sus")


@pytest.mark.parametrize("word", ["Sustained Hits 6", "Sustained Hits D6", "Sustained Hits D3+1",
                                  "+7 to hit", "-99 to wound", "Duellist's Edge (2)"])
def test_rule_numbers_within_their_bounds_load(write_map, capsys, word):
    # D6 rolls at most 6 and D3+1 at most 4 (<= 6); +7 to hit is the README's cap example
    # (held to +1 when rolled); N up to MAX_CHARACTERISTIC = 99
    path = weapon_rules_map(write_map, f'["{word}"]')
    rc, out, err = run(capsys, "check", path)
    assert rc == 0, err


@pytest.mark.parametrize("word", ["+100 to hit", "-1000000 to wound", "Duellist's Edge (100)"])
def test_a_roll_modifier_over_its_bound_is_refused(write_map, capsys, word):
    path = weapon_rules_map(write_map, f'["{word}"]')
    line = one_error(capsys, path, "check", path)
    assert line == (f"{path}: units[0].weapons[0].rules[0]: its number must be at most 99 "
                    f"(MAX_CHARACTERISTIC), got {word!r}")


def test_rules_written_as_one_text_is_refused(write_map, capsys):
    # docs/map-format.md: "an optional rules list"; a single text was read silently
    path = weapon_rules_map(write_map, '"Lethal Hits"')
    line = one_error(capsys, path, "check", path)
    assert line == (f"{path}: units[0].weapons[0].rules: must be a list of names "
                    f"(rules = [\"Lethal Hits\"]), got 'Lethal Hits'")


@pytest.mark.parametrize(("ap", "shown"), [("-1000000", "-1000000"), ("1000000", "1000000"),
                                           ('"-100"', "'-100'")])
def test_an_ap_over_its_bound_is_refused(write_map, capsys, ap, shown):
    # AP within MAX_CHARACTERISTIC = 99 either sign (the fight phase's weapons run 0 to -6)
    path = weapon_rules_map(write_map, "[]", ap=ap)
    line = one_error(capsys, path, "check", path)
    assert line == (f"{path}: units[0].weapons[0].AP: must be from -99 to 99 "
                    f"(MAX_CHARACTERISTIC), got {shown}")


def test_an_ap_of_six_loads(write_map, capsys):
    path = weapon_rules_map(write_map, "[]", ap="-6")
    assert run(capsys, "check", path)[0] == 0


def test_dice_over_max_dice_are_refused_and_ten_d6_checks(write_map, capsys):
    # MAX_DICE = 10: "11D6" is refused; "10D6" loads and check runs its fight
    path = weapon_rules_map(write_map, "[]", wa='"11D6"')
    line = one_error(capsys, path, "check", path)
    assert line == (f"{path}: units[0].weapons[0].A: rolls at most 10 dice (MAX_DICE) plus at "
                    f"most 100, got '11D6'")
    path = weapon_rules_map(write_map, "[]", wa='"1' + "0" * 5000 + 'D6"')   # never an int()
    assert one_error(capsys, path, "check", path).startswith(
        f"{path}: units[0].weapons[0].A: rolls at most 10 dice (MAX_DICE)")
    path = weapon_rules_map(write_map, "[]", wa='"10D6"')
    assert run(capsys, "fight", path, "--seed", "1")[0] == 0


def test_a_polygon_of_one_repeated_point_says_so_in_the_map_format_s_words(write_map, capsys):
    # it printed the geometry library's "too few points in geometry component[1 1]"
    path = write_map(FIGHT.replace("RED_T", "4").replace("RED_SV", "3").replace("RED_A", "2")
                     .replace("RED_WA", "3").replace("RED_NAME", "r")
                     + '[[terrain]]\nid = "t"\nkind = "ruin"\n'
                       'polygon = [[1, 1], [1, 1], [1, 1], [1, 1]]\n')
    line = one_error(capsys, path, "check", path)
    assert line == (f"{path}: terrain[0].polygon: a polygon needs at least 3 distinct points "
                    f"[[x, y], ...], got 1 distinct of 4: [[1, 1], [1, 1], [1, 1], [1, 1]]")


def test_a_bad_unit_value_is_one_line_not_one_per_model(write_map, capsys):
    # Attacks = "four" on a unit of 5 x 2 = 10 models: the unit's line, and no
    # "model spears/N: Attacks is not a number" for each model that only inherits it
    path = spears_map(write_map, '"four"')
    line = one_error(capsys, path, "check", path)
    assert line == f"{path}: units[0].profile.Attacks: must be a number from 0 to 100, got 'four'"
