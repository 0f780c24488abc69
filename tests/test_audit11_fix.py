"""Issue 11 audit, second pass (items 6 and 7): no command makes folders for its output,
every command refuses a map with a bad profile number at load (the unit's index in the map
file as the place), one load lists every fault, ``check`` runs the lesson entries' checks,
long map strings are shortened in error lines.  Every position is written here."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mapkit import cli

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "maps" / "lessons" / "pile-in.toml"   # intercessors engaged with boyz


# --- 1. a missing output folder is refused, never made --------------------------------------

@pytest.mark.parametrize("argv", [
    ["render", LESSON, "-o", "{out}/a/b/x.png"],
    ["fight", LESSON, "--seed", "1", "-o", "{out}/a/b/x.toml"],
    ["pile-in", LESSON, "intercessors", "-o", "{out}/a/b/x.toml"],
    ["consolidate", LESSON, "intercessors", "-o", "{out}/a/b/x.toml"],
    ["lesson", LESSON, "--gif", "{out}/a/b/g.gif"],
    ["layout", "export", LESSON, "-o", "{out}/a/b/x.json"],
])
def test_missing_output_folder_is_refused_not_made(tmp_path, capsys, argv):
    argv = [str(a).replace("{out}", str(tmp_path)) for a in argv]
    out = argv[argv.index("-o") + 1] if "-o" in argv else argv[argv.index("--gif") + 1]
    flag = "-o" if "-o" in argv else "--gif"
    code, _, err = cli(capsys, *argv)
    assert code == 2
    # the one wording of cli/output.py: the folder named is out's own folder, tmp/a/b
    assert err.strip() == (f"{out}: the folder {tmp_path / 'a' / 'b'} does not exist "
                           f"({flag} makes no folders)")
    assert not (tmp_path / "a").exists()            # nothing made, not even the first level


def test_frames_folder_is_made_but_never_its_parents(tmp_path, capsys):
    frames = tmp_path / "a" / "fr"
    code, _, err = cli(capsys, "fight", LESSON, "--seed", "1", "--frames", frames)
    assert code == 2
    assert err.strip() == (f"{frames}: the folder {tmp_path / 'a'} does not exist "
                           f"(--frames makes the frames folder only, never its parents)")
    assert not (tmp_path / "a").exists()
    # the frames folder itself, under an existing folder, is still made (README)
    frames = tmp_path / "fr"
    code, _, err = cli(capsys, "fight", LESSON, "--seed", "1", "--frames", frames)
    assert code == 0, err
    assert frames.is_dir() and any(frames.iterdir())


def test_the_writer_itself_makes_no_folders(tmp_path):
    from tabletop.board.writes import write_atomic
    with pytest.raises(FileNotFoundError):
        write_atomic(str(tmp_path / "a" / "x.txt"), "x", force=False)
    assert not (tmp_path / "a").exists()


# --- 2. every command refuses a bad profile number at load, placed by the map file ----------

HAMMER = ROOT / "maps" / "ca-layout-1-hammer-and-anvil.toml"


def _stormboyz_with(tmp_path, old: str, new: str) -> Path:
    """The shipped hammer-and-anvil map with one value of the stormboyz' changed.  The
    stormboyz are the 19th [[units]] table (assault, boyz, bladeguard, gretchin, nobz,
    intercessors-b, captain, intercessors, lieutenant, scouts, outriders, terminators,
    hellblasters, boyz-2, warboss, meganobz, beastboss, warbikers, stormboyz): units[18]."""
    text = HAMMER.read_text(encoding="utf-8")
    at = text.index('id = "stormboyz"')
    end = text.index("[[units]]", at)
    block = text[at:end]
    assert old in block
    path = tmp_path / "map.toml"
    path.write_text(text[:at] + block.replace(old, new, 1) + text[end:], encoding="utf-8")
    return path


@pytest.mark.parametrize("old, new, place", [
    ("WS = 3", 'WS = "abc"', "units[18].weapons[0].WS"),
    ("D = 1", "D = -3", "units[18].weapons[0].D"),
    ("T = 5", 'T = 5\nFNP = "often"', "units[18].profile.FNP"),
])
def test_every_command_refuses_a_bad_profile_at_load_with_checks_line(tmp_path, capsys, old,
                                                                        new, place):
    bad = _stormboyz_with(tmp_path, old, new)
    code, _, want = cli(capsys, "check", bad)
    assert code == 2
    want = want.strip()
    assert want.startswith(f"{bad}: {place}: ") and "\n" not in want   # one located line
    for argv in (["charge", bad, "stormboyz", "intercessors-b"],
                 ["charge", bad, "stormboyz", "intercessors-b", "--no-fight"],
                 ["view", bad],
                 ["compare", HAMMER, bad],
                 ["render", bad, "-o", tmp_path / "x.png"],
                 ["measure", bad, "stormboyz", "intercessors-b"]):
        code, out, err = cli(capsys, *argv)
        assert (code, err.strip()) == (2, want), argv
        assert "units[1]" not in out + err        # never the index of a two-unit sub-map
    assert not (tmp_path / "x.png").exists()


# --- 3. one load lists every fault -------------------------------------------------------------

HEAD = """
[map]
name = "faults"
ruleset = "fight-phase"
width = 30
depth = 20

[[players]]
id = "blue"
active = true

[[players]]
id = "red"
"""


def test_schema_and_profile_faults_are_listed_in_one_pass(tmp_path, capsys):
    # three faults: unit a's T is text, unit b names no player and its model stands at NaN
    path = tmp_path / "three.toml"
    path.write_text(HEAD + """
[[units]]
id = "a"
player = "blue"
base = "32mm"
weapons = [{ name = "knife", A = 2, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[5, 5], [6.5, 5]]
[units.profile]
T = "tough"
Sv = 3
W = 1

[[units]]
id = "b"
player = "green"
base = "32mm"
weapons = [{ name = "knife", A = 2, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[nan, 10]]
[units.profile]
T = 4
Sv = 3
W = 1
""", encoding="utf-8")
    code, _, err = cli(capsys, "check", path)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 3
    # in map order: units[0] (T) before units[1] (its model, then its player)
    assert lines[0] == f"{path}: units[0].profile.T: must be a number from 1 to 99, got 'tough'"
    assert lines[1].startswith(f"{path}: units[1].models[0]: ") and "nan" in lines[1]
    assert lines[2] == f"{path}: units[1].player: no player 'green' (players are blue, red)"


def test_four_profile_faults_are_listed_in_one_pass(tmp_path, capsys):
    # T, Sv and Ld out of bounds (board.profile_values) and a weapon's D = -3 (the ruleset's
    # weapon check): all four at once, in map order
    path = tmp_path / "four.toml"
    path.write_text(HEAD + """
[[units]]
id = "a"
player = "blue"
base = "32mm"
weapons = [{ name = "knife", A = 2, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[5, 5], [6.5, 5]]
[units.profile]
T = "tough"
Sv = 0
W = 1
Ld = -1

[[units]]
id = "b"
player = "red"
base = "32mm"
weapons = [{ name = "knife", A = 2, WS = 3, S = 4, AP = 0, D = -3 }]
models = [[15, 10]]
[units.profile]
T = 4
Sv = 3
W = 1
""", encoding="utf-8")
    for argv in (["check", path], ["fight", path]):
        code, _, err = cli(capsys, *argv)
        places = [line.split(": ")[1] for line in err.strip().splitlines()]
        assert code == 2
        assert places == ["units[0].profile.T", "units[0].profile.Sv", "units[0].profile.Ld",
                          "units[1].weapons[0].D"]


# --- 4. check runs the lesson entries' checks ------------------------------------------------

def test_check_refuses_lesson_entries_that_lesson_refuses(tmp_path, capsys):
    text = LESSON.read_text(encoding="utf-8")
    # lesson[4] (the fifth [[lesson]]) selects intercessors/3; the eighth, lesson[7], shows
    # "intercessors fights": give the first a model that is not there, the second step 99
    assert text.count('select = "intercessors/3"') == 1
    assert text.count('step = "intercessors fights"') == 1
    path = tmp_path / "lesson.toml"
    path.write_text(text.replace('select = "intercessors/3"', 'select = "nobody/9"')
                    .replace('step = "intercessors fights"', "step = 99"), encoding="utf-8")
    code, _, lesson_err = cli(capsys, "lesson", path, "--json")
    assert code == 2
    code, out, err = cli(capsys, "check", path)
    assert code == 2 and "Problems: none" not in out
    assert err == lesson_err                   # the very lines `lesson` gives, in entry order
    lines = err.strip().splitlines()
    assert len(lines) == 2
    assert lines[0] == f"{path}: lesson[4].select: no model 'nobody/9' on the table"
    assert lines[1].startswith(f"{path}: lesson[7].step: step 99, but the phase run has ")


def test_check_of_a_good_lesson_map_still_passes(capsys):
    code, out, err = cli(capsys, "check", LESSON)
    assert err == "" and code in (0, 1)        # the shipped lesson is a good lesson


# --- 5a. a long map string is shortened where error lines are printed --------------------------

def test_a_20000_character_id_is_cut_in_its_error_line(tmp_path, capsys):
    text = LESSON.read_text(encoding="utf-8")
    long_id = "x" * 20_000
    path = tmp_path / "long.toml"
    path.write_text(text.replace('id = "intercessors"\n', f'id = "{long_id}"\n', 1), encoding="utf-8")
    code, _, err = cli(capsys, "check", path)
    assert code == 2
    # the first 60 x's (ECHO_KEEP), "…", and the length written with a thousands comma
    assert err.strip().splitlines() == [
        f"{path}: units[0].id: string should have at most 10000 characters, got "
        f"'{'x' * 60}…' (20,000 characters)"]


def test_shorten_echoes_leaves_short_strings_and_apostrophes_alone():
    from tabletop.errors import MAX_ECHO_CHARS, shorten_echoes
    line = "m.toml: units[0].models[1]: a model's position is off the table's edge, got 'abc'" * 2
    assert shorten_echoes(line) == line            # 'abc' is 3 characters; "model's" opens nothing
    exact = "m.toml: x: got '" + "y" * MAX_ECHO_CHARS + "'"
    assert shorten_echoes(exact) == exact          # 80 characters: echoed whole
    over = 'm.toml: units[1].player: no player "' + "z" * 81 + '" (players are a, b)'
    assert shorten_echoes(over) == ('m.toml: units[1].player: no player "' + "z" * 60
                                    + '…" (81 characters) (players are a, b)')


# --- 5b. the README's command table shows --force wherever --help does --------------------------

def test_readme_command_table_shows_force_where_help_does(capsys):
    import re
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = [line for line in text[text.index("| command | does | exit status |"):].splitlines()]
    rows = rows[:next(i for i, r in enumerate(rows) if not r.startswith("|"))]
    shown: dict[str, str] = {}
    for row in rows:
        for m in re.finditer(r"`tabletop ([a-z-]+(?: (?:import|export))?)([^`]*)`", row):
            shown[m.group(1)] = shown.get(m.group(1), "") + m.group(2)
    with_force = []
    for cmd in ("render", "check", "fight", "charge", "compare", "lesson", "pile-in",
                "consolidate", "roster"):
        with pytest.raises(SystemExit):
            cli(capsys, cmd, "--help")
        if "--force" in capsys.readouterr().out:
            with_force.append(cmd)
    assert set(with_force) >= {"render", "check", "fight", "charge", "compare", "lesson"}
    for cmd in with_force:
        assert "--force" in shown[cmd], cmd
