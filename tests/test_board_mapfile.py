"""Map files: load, validation (every problem at once, one line each), save round trip."""

from __future__ import annotations

import tomllib

import pytest

from tabletop.board import mapfile
from tabletop.board.bases import parse_base
from tabletop.cli import main
from tabletop.errors import MapSyntaxError, MapValidationError

GOOD = """
[map]
name = "Round trip"
ruleset = "fight-phase"
width = 60.0
depth = 44.0
source = "hand-made"

[rules]
edition = "10th"
contact_tolerance = 0.03

[[players]]
id = "red"
colour = "#b03a2e"
active = true

[[players]]
id = "blue"

[[terrain]]
id = "ruin-1"
kind = "ruin"
polygon = [[10, 10], [22, 10], [22, 16], [10, 16]]

[[terrain]]
id = "wood"
kind = "woods"
rect = { centre = [40, 30], width = 8, depth = 4, angle = 30 }

[[objectives]]
id = "A"
at = [30, 22]
range = 3.5

[[deployment]]
player = "red"
polygon = [[0, 0], [60, 0], [60, 12], [0, 12]]

[[units]]
id = "int"
name = "Intercessor Squad"
player = "red"
base = "32mm"
keywords = ["infantry"]
profile = { M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }
weapons = [{ name = "Close combat weapon", A = 3, WS = 3, S = 4, AP = 0, D = 1 }]
charged = true
models = [[10, 5], [11.5, 5], [13, 5, 45], { at = [14.5, 5], name = "Sergeant", role = "champion", wounds_lost = 1 }]

[[units]]
id = "bikes"
player = "blue"
base = "75x42mm oval"
facing = 270
models = [[30, 40], [33, 40]]

[[units]]
id = "spears"
player = "blue"
base = "25x25mm"
keywords = ["spear-and-shield"]
formation = { front_centre = [45, 20], facing = 270, files = 5, ranks = 4, count = 18 }
models = [{ file = 3, rank = 1, role = "commander", name = "Captain", profile = { Discipline = 8 } }]

[[decisions]]
player = "red"
choice = "fight"
value = "int"
"""


def test_load_reads_every_part(write_map):
    s = mapfile.load(write_map(GOOD))
    assert s.rules.engagement_range == 1.0 and s.rules.contact_tolerance == 0.03
    assert s.active_player == "red"
    assert [m.id for m in s.unit("int").models] == ["int/1", "int/2", "int/3", "int/4"]
    assert s.model("int/3").facing_deg == 45 and s.model("int/1").facing_deg == 90
    assert s.model("int/4").role == "champion" and s.model("int/4").wounds_lost == 1
    assert s.model("bikes/1").facing_deg == 270 and s.model("bikes/1").base.shape == "oval"
    spears = s.unit("spears")
    assert len(spears.models) == 18
    assert spears.model("spears/3").role == "commander"
    assert spears.model("spears/3").profile["Discipline"] == 8
    # the formation: front centre (45, 20) facing 270 (down): the front rank's centres are
    # half a base (12.5mm = 0.492126") behind the front edge, i.e. at y = 20.492126
    assert spears.model("spears/3").at == pytest.approx((45, 20 + 12.5 / 25.4))
    # the 4th rank holds 18 - 15 = 3 models, centred
    assert [m.y for m in spears.models[15:]] == pytest.approx([20 + 3.5 * 25 / 25.4] * 3)
    assert s.terrain_piece("wood").polygon[0] == pytest.approx(
        (40 - 4 * 0.8660254 + 2 * 0.5, 30 - 4 * 0.5 - 2 * 0.8660254))


def test_round_trip_load_save_load_gives_the_same_state(write_map, tmp_path):
    s = mapfile.load(write_map(GOOD))
    out = str(tmp_path / "out.toml")
    mapfile.save(s, out)
    s2 = mapfile.load(out)
    assert s2 == s
    # the formation is kept as written, not exploded into models
    data = tomllib.loads(open(out).read())
    assert "formation" in data["units"][2]
    # and a moved model is written back as a position
    moved = s.with_positions({"spears/1": (50.0, 30.0)})
    s3 = mapfile.from_dict(tomllib.loads(mapfile.dumps(moved)))
    assert s3 == moved


def test_save_never_overwrites_silently(write_map):
    path = write_map(GOOD)
    s = mapfile.load(path)
    with pytest.raises(FileExistsError):
        mapfile.save(s, path)
    assert mapfile.next_free_path(path).endswith("map-1.toml")


@pytest.mark.parametrize("text,expected", [
    ("32mm", ("round", 32, 32)),
    ("40mm round", ("round", 40, 40)),
    ("60x35mm oval", ("oval", 60, 35)),
    ("35x60mm oval", ("oval", 60, 35)),
    ("25x50mm", ("rect", 50, 25)),       # frontage 25 across, depth 50 along
    ("25x25mm", ("rect", 25, 25)),
])
def test_base_strings(text, expected):
    b = parse_base(text)
    assert (b.shape, b.along_mm, b.across_mm) == expected


def test_missing_file():
    with pytest.raises(MapSyntaxError) as e:
        mapfile.load("no/such/map.toml")
    assert e.value.problems == ["no/such/map.toml: no such file"]


def test_toml_syntax_error_gives_line_and_column(write_map):
    path = write_map('[map]\nname = "x"\nwidth = = 3\n')
    with pytest.raises(MapSyntaxError) as e:
        mapfile.load(path)
    assert e.value.problems[0].startswith(f"{path}: line 3, column 9: invalid TOML")


BAD = """
[map]
name = "bad"
ruleset = "chess"
width = 0
depth = 44

[[players]]
id = "red"
active = true

[[units]]
id = "a"
player = "green"
base = "33 parsecs"
models = [[1, 2], [3]]

[[units]]
id = "a"
player = "red"
base = "32mm"
models = [[1, 2]]
"""


def test_every_problem_at_once(write_map):
    path = write_map(BAD)
    with pytest.raises(MapValidationError) as e:
        mapfile.load(path)
    lines = e.value.problems
    expected = [
        f"{path}: map.ruleset: unknown ruleset 'chess'",
        f"{path}: map.width: the table size must be positive",
        f"{path}: units[0].base: unknown base '33 parsecs'",
        f"{path}: units[0].models[1]: a model is [x, y] or [x, y, facing], got [3]",
        f"{path}: units[1].id: duplicate id 'a'",
        f"{path}: units[0].player: no player 'green'",
    ]
    for want in expected:
        assert any(line.startswith(want) for line in lines), (want, lines)
    assert len(lines) == len(expected)


def test_bad_map_on_the_command_line_exits_2_without_traceback(write_map, capsys):
    path = write_map(BAD)
    assert main(["check", path]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 6
    assert main(["check", "missing.toml"]) == 2
    assert capsys.readouterr().err.strip() == "missing.toml: no such file"


def test_unknown_keys_and_formation_problems(write_map):
    path = write_map("""
    [map]
    name = "x"
    ruleset = "rank-and-flank"
    width = 72
    depth = 48
    [[players]]
    id = "red"
    active = true
    [[units]]
    id = "s"
    player = "red"
    base = "25x25mm"
    colour = "red"
    formation = { front_centre = [10, 10], files = 5, ranks = 2, count = 11 }
    """)
    with pytest.raises(MapValidationError) as e:
        mapfile.load(path)
    text = "\n".join(e.value.problems)
    assert f"{path}: units[0].colour: unknown key" in text
    assert "count 11 does not fit in 5 files x 2 ranks" in text


def test_challenges_option_must_match_the_ruleset(write_map):
    path = write_map("""
    [map]
    name = "x"
    ruleset = "fight-phase"
    width = 60
    depth = 44
    [rules]
    challenges = "character"
    [[players]]
    id = "red"
    active = true
    """)
    with pytest.raises(MapValidationError) as e:
        mapfile.load(path)
    assert "rules.challenges" in e.value.problems[0]


def test_model_ids_survive_casualties_through_save(write_map):
    s = mapfile.load(write_map(GOOD))
    after = s.without_models(["int/1", "spears/2"])
    text = mapfile.dumps(after)
    again = mapfile.from_dict(tomllib.loads(text))
    assert [m.id for m in again.unit("int").models] == ["int/2", "int/3", "int/4"]
    assert [m.id for m in again.unit("spears").models][:3] == ["spears/1", "spears/3", "spears/4"]
    assert again == after


def test_duplicate_model_numbers_are_an_error(write_map):
    path = write_map(GOOD.replace("models = [[10, 5], [11.5, 5],", "models = [[10, 5], { at = [11.5, 5], n = 1 },"))
    with pytest.raises(MapValidationError) as e:
        mapfile.load(path)
    assert "units[0].models[1]: model number 1 is already models[0]" in e.value.problems[0]


def _mini(extra: str = "", meta: str = 'width = 30\ndepth = 20') -> str:
    return f"""
[map]
name = "mini"
ruleset = "fight-phase"
{meta}
{extra}
[[players]]
id = "red"
active = true
"""


def test_nan_inf_and_absurd_sizes_are_errors(write_map):
    path = write_map(_mini(meta="width = nan\ndepth = 1e300"))
    with pytest.raises(MapValidationError) as e:
        mapfile.load(path)
    assert e.value.problems == [
        f"{path}: map.width: input should be a finite number, got nan",
        f'{path}: map.depth: the table size is inches; 1e+300" is more than 1200" (100 feet)']


def test_a_field_of_several_types_gets_one_line(write_map):
    path = write_map(_mini(extra='[rules]\nengagement_range = "far"'))
    with pytest.raises(MapValidationError) as e:
        mapfile.load(path)
    assert e.value.problems == [
        f"{path}: rules.engagement_range: expected a number or \"contact\", got 'far'"]


def test_unknown_decision_choice(write_map):
    path = write_map(_mini() + '\n[[decisions]]\nplayer = "red"\nchoice = "dance"\nvalue = 1\n')
    with pytest.raises(MapValidationError) as e:
        mapfile.load(path)
    assert e.value.problems[0].startswith(
        f"{path}: decisions[0].choice: unknown choice 'dance' for fight-phase (choices are pile_in,")
