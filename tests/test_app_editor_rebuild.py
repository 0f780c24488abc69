"""The table editor rebuilds published pieces exactly, walls included (issue 12 item 3,
the organiser's audit): wall forms (``w`` / ``W``), ids (``i``), ``k`` dropping walls, and
typed lines that open empty.  Driven by posted pygame events.

The view is fixed at 10 px per inch with table (0, 0) at pixel (50, 850) (``window_helpers``).
"""

from __future__ import annotations

import json

import pygame
import pytest

from tabletop.app.app import App
from tabletop.board import mapfile
from tabletop.cli import main
from tabletop.cli.edit_cmd import blank_table
from tests.window_helpers import display_fixture, fix_view, keydown, pixel_of, post_and_handle

E = pygame.event.Event
display = display_fixture((1400, 900))
px = pixel_of(900)
SHIFT = pygame.KMOD_SHIFT


def click(x: float, y: float) -> list:
    return [E(pygame.MOUSEBUTTONDOWN, pos=px(x, y), button=1),
            E(pygame.MOUSEBUTTONUP, pos=px(x, y), button=1)]


def opened_line(k: int, uni: str, text: str, mod: int = 0) -> list:
    """The key that opens a typed line, the TEXTINPUT echo pygame sends for that key, the
    text typed, Enter - as a real keyboard produces them."""
    return [keydown(k, uni, mod), E(pygame.TEXTINPUT, text=uni), E(pygame.TEXTINPUT, text=text),
            keydown(pygame.K_RETURN, "\r")]


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """Each test runs in its own folder: a blank table's autosave goes to the current one."""
    monkeypatch.chdir(tmp_path)


def editor_app(state, **edit) -> App:
    return fix_view(App(state, None, (1400, 900), edit=edit), 900)


def ring(pts) -> list[tuple[float, float]]:
    return sorted((round(x, 4), round(y, 4)) for x, y in pts)


# Layout 1's pieces A, B and C (maps/ca-layout-1-hammer-and-anvil.toml), alone on a 60x44
# table: A a 6x4 obstacle without walls, B a 12x6 ruin tall all over, C a 12x6 ruin whose
# walls are a block 8" of its 12" (the full 6" depth) at its west end.
PUBLISHED_ABC = """\
[map]
name = "layout 1: A, B, C"
ruleset = "fight-phase"
width = 60
depth = 44

[[terrain]]
id = "A"
kind = "obstacle"
polygon = [[28, 44], [32, 44], [32, 38], [28, 38]]

[[terrain]]
id = "B"
kind = "ruin"
polygon = [[38, 40], [44, 40], [44, 28], [38, 28]]
tall_part = [[38, 40], [44, 40], [44, 28], [38, 28]]

[[terrain]]
id = "C"
kind = "ruin"
polygon = [[44, 28], [56, 28], [56, 22], [44, 22]]
tall_part = [[44, 28], [52, 28], [52, 22], [44, 22]]
"""


def test_three_published_pieces_rebuilt_by_keys_compare_all_in_place(tmp_path, capsys):
    out = str(tmp_path / "rebuilt.toml")
    app = editor_app(blank_table(60, 44, "fight-phase"), out=out)
    r = keydown(pygame.K_r, "r")
    # A: a 6x4 template at (30, 41) is 27..33 x 39..43; six 15-degree turns = 90 degrees
    # about its centre -> 28..32 x 38..44; k, k: ruin -> woods -> obstacle, walls dropped
    post_and_handle(app, keydown(pygame.K_4, "4"), *click(30, 41), *[r] * 6,
                    keydown(pygame.K_k, "k"), keydown(pygame.K_k, "k"),
                    *opened_line(pygame.K_i, "i", "A"))
    a = app.state.terrain_piece("A")
    assert ring(a.polygon) == ring([(28, 38), (32, 38), (32, 44), (28, 44)])
    assert a.kind == "obstacle" and a.tall_part is None and a.name == "obstacle 6x4"
    # B: a 12x6 at (41, 34) is 35..47 x 31..37; turned 90 -> 38..44 x 28..40;
    # w: the L it has -> the next form, the whole piece tall
    post_and_handle(app, keydown(pygame.K_1, "1"), *click(41, 34), *[r] * 6,
                    keydown(pygame.K_w, "w"), *opened_line(pygame.K_i, "i", "B"))
    b = app.state.terrain_piece("B")
    assert ring(b.tall_part) == ring([(38, 28), (44, 28), (44, 40), (38, 40)])
    # C: a 12x6 at (50, 25) is 44..56 x 22..28, first long side from (44, 22) along +x;
    # W 8: a block the full depth 8" from that end -> 44..52 x 22..28
    post_and_handle(app, keydown(pygame.K_1, "1"), *click(50, 25),
                    *opened_line(pygame.K_w, "W", "8", SHIFT), *opened_line(pygame.K_i, "i", "C"))
    c = app.state.terrain_piece("C")
    assert ring(c.tall_part) == ring([(44, 22), (52, 22), (52, 28), (44, 28)])
    assert [t.id for t in app.state.terrain] == ["A", "B", "C"]
    post_and_handle(app, keydown(pygame.K_s, "s"))
    published = tmp_path / "published.toml"
    published.write_text(PUBLISHED_ABC, encoding="utf-8")
    capsys.readouterr()
    assert main(["compare", str(published), out, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    text = json.dumps(got)
    assert "walls" in text and "measured, none published" not in text


def test_wall_forms_cycle_and_typed_partial_walls():
    app = editor_app(blank_table(60, 44, "fight-phase"))
    # a 12x6 at (15, 10): 9..21 x 7..13; first corner (9, 7), long side along +x, 1" bands
    post_and_handle(app, keydown(pygame.K_1, "1"), *click(15, 10))
    walls = []
    for _ in range(5):
        post_and_handle(app, keydown(pygame.K_w, "w"))
        tall = app.state.terrain_piece("ruin-1").tall_part
        walls.append(None if tall is None else ring(tall))
    assert walls == [
        ring([(9, 7), (21, 7), (21, 13), (9, 13)]),              # whole
        ring([(9, 7), (21, 7), (21, 8), (9, 8)]),                # long side: y 7..8
        ring([(9, 7), (10, 7), (10, 13), (9, 13)]),              # short side: x 9..10
        None,                                                    # none
        ring([(9, 7), (21, 7), (21, 8), (10, 8), (10, 13), (9, 13)])]   # back to the L
    # long 5: a band 5" from (9, 7) -> 9..14 x 7..8; short 3: 9..10 x 7..10
    post_and_handle(app, *opened_line(pygame.K_w, "W", "long 5", SHIFT))
    assert ring(app.state.terrain_piece("ruin-1").tall_part) == ring([(9, 7), (14, 7), (14, 8), (9, 8)])
    post_and_handle(app, *opened_line(pygame.K_w, "W", "short 3", SHIFT))
    assert ring(app.state.terrain_piece("ruin-1").tall_part) == ring([(9, 7), (10, 7), (10, 10), (9, 10)])
    # a block longer than the 12" side is refused, the walls unchanged
    post_and_handle(app, *opened_line(pygame.K_w, "W", "13", SHIFT))
    assert "at most 12" in app.message_lines()[0]
    assert ring(app.state.terrain_piece("ruin-1").tall_part) == ring([(9, 7), (10, 7), (10, 10), (9, 10)])


def test_a_typed_line_opens_empty_the_opening_key_is_not_typed():
    app = editor_app(blank_table(60, 44, "fight-phase"))
    # a 6x4 at (20, 20): 17..23 x 18..22; "left 30" moves its left extent 17 -> 30: centre 33
    post_and_handle(app, keydown(pygame.K_4, "4"), *click(20, 20),
                    *opened_line(pygame.K_t, "t", "left 30"))
    assert ring(app.state.terrain_piece("ruin-1").polygon) == ring([(30, 18), (36, 18), (36, 22), (30, 22)])
    # a line that starts with the opening key's letter keeps it: "top 12" (top extent 22 -> 32)
    post_and_handle(app, keydown(pygame.K_t, "t"), E(pygame.TEXTINPUT, text="t"),
                    *[ev for ch in "top 12" for ev in (keydown(0, ch), E(pygame.TEXTINPUT, text=ch))],
                    keydown(pygame.K_RETURN, "\r"))
    assert ring(app.state.terrain_piece("ruin-1").polygon) == ring([(30, 28), (36, 28), (36, 32), (30, 32)])
    # N then Enter on the empty line: the default formation
    post_and_handle(app, *opened_line(pygame.K_n, "N", "", SHIFT))
    assert app.message_lines()[0] == "click to place 10 32mm 5"


def test_rename_refuses_a_taken_id_and_twins_take_2():
    app = editor_app(blank_table(60, 44, "fight-phase"))
    post_and_handle(app, keydown(pygame.K_o, "o"), *click(30, 38), *opened_line(pygame.K_i, "i", "north"),
                    keydown(pygame.K_1, "1"), *click(15, 10), *opened_line(pygame.K_i, "i", "north"))
    assert "taken" in app.message_lines()[0]
    post_and_handle(app, *opened_line(pygame.K_i, "i", "B"), keydown(pygame.K_m, "M", SHIFT))
    # (x, y) -> (60 - x, 44 - y): north (30, 38) -> (30, 6) named north2; B's twin B2
    assert [o.id for o in app.state.objectives] == ["north", "north2"]
    assert [t.id for t in app.state.terrain] == ["B", "B2"]


def test_mirror_twice_is_mirror_once_and_a_new_piece_alone_is_twinned():
    app = editor_app(blank_table(60, 44, "fight-phase"))
    # a 12x6 at (15, 10) and objectives at (10, 22) and the centre (30, 22)
    post_and_handle(app, keydown(pygame.K_1, "1"), *click(15, 10), keydown(pygame.K_o, "o"),
                    *click(10, 22), *click(30, 22), keydown(pygame.K_m, "M", SHIFT))
    once = app.state
    # (x, y) -> (60 - x, 44 - y): ruin-1 9..21 x 7..13 -> 39..51 x 31..37; obj-1 -> (50, 22);
    # the centre objective is its own twin
    assert [t.id for t in once.terrain] == ["ruin-1", "ruin-1-twin"]
    assert ring(once.terrain_piece("ruin-1-twin").polygon) == ring([(39, 31), (51, 31), (51, 37), (39, 37)])
    assert [o.at for o in once.objectives] == [(10, 22), (30, 22), (50, 22)]
    post_and_handle(app, keydown(pygame.K_m, "M", SHIFT))
    assert app.state.terrain == once.terrain and app.state.objectives == once.objectives
    assert "0 pieces, 0 objectives" in app.message_lines()[0]
    # one new piece, a 6x4 at (5, 40) (2..8 x 38..42), then M: only it gets a twin,
    # 52..58 x 2..6
    post_and_handle(app, keydown(pygame.K_4, "4"), *click(5, 40), keydown(pygame.K_m, "M", SHIFT))
    assert [t.id for t in app.state.terrain] == ["ruin-1", "ruin-1-twin", "ruin-2", "ruin-2-twin"]
    assert ring(app.state.terrain_piece("ruin-2-twin").polygon) == ring([(52, 2), (58, 2), (58, 6), (52, 6)])
    assert len(app.state.objectives) == 3


def test_off_the_table_is_refused_never_lost(tmp_path):
    app = editor_app(blank_table(60, 44, "fight-phase"))
    # a 12x6 clicked at (59, 43) would span 53..65 x 40..46: 5" past the right edge
    post_and_handle(app, keydown(pygame.K_1, "1"), *click(59, 43))
    assert app.state.terrain == ()
    assert app.message_lines()[0].startswith("ruin 12x6 not placed at (59, 43): it would run off "
                                             "the right edge by 5.00\"")
    # an objective at (59, 0): its 40mm marker (radius 0.787") reaches 0.79" below the table
    post_and_handle(app, keydown(pygame.K_o, "o"), *click(59, 0))
    assert app.state.objectives == () and "bottom edge by 0.79" in app.message_lines()[0]
    # a 12x6 at (50, 22) (44..56) dragged 8" right: 52..64 would be 4" off -> stays
    post_and_handle(app, keydown(pygame.K_1, "1"), *click(50, 22), keydown(pygame.K_0, "0"),
                    E(pygame.MOUSEBUTTONDOWN, pos=px(50, 22), button=1),
                    E(pygame.MOUSEMOTION, pos=px(58, 22), rel=(0, 0), buttons=(1, 0, 0)),
                    E(pygame.MOUSEBUTTONUP, pos=px(58, 22), button=1))
    assert ring(app.state.terrain_piece("ruin-1").polygon) == ring([(44, 19), (56, 19), (56, 25), (44, 25)])
    assert "not moved" in app.message_lines()[0] and "right edge by 4.00" in app.message_lines()[0]
    # flush with the edge is on the table: dragged 4" right, 48..60
    post_and_handle(app, E(pygame.MOUSEBUTTONDOWN, pos=px(50, 22), button=1),
                    E(pygame.MOUSEMOTION, pos=px(54, 22), rel=(0, 0), buttons=(1, 0, 0)),
                    E(pygame.MOUSEBUTTONUP, pos=px(54, 22), button=1))
    assert ring(app.state.terrain_piece("ruin-1").polygon) == ring([(48, 19), (60, 19), (60, 25), (48, 25)])
    # the panel shows clean distances: right 0 (60 - 60), top 19 (44 - 25)
    assert "right 0, bottom 19, top 19" in app.editor.describe("ruin-1")


def test_f_fits_the_table_and_a_piece_off_it(write_map):
    path = write_map(PUBLISHED_ABC.replace("[[56, 28], [56, 22]]", "[[56, 28], [56, 22]]").replace(
        'polygon = [[44, 28], [56, 28], [56, 22], [44, 22]]',
        'polygon = [[64, 28], [76, 28], [76, 22], [64, 22]]').replace(
        'tall_part = [[44, 28], [52, 28], [52, 22], [44, 22]]', ''))
    app = fix_view(App(mapfile.load(path), path, (1400, 900), edit={}), 900)
    post_and_handle(app, keydown(pygame.K_f, "f"))
    # the box 0..76 x 0..44 fits the board: table x 76 lands inside it
    x76, _ = app.view.to_screen(76, 22)
    x0, _ = app.view.to_screen(0, 22)
    assert app.board_rect.left <= x0 < x76 <= app.board_rect.right


def test_a_blank_table_is_autosaved_beside_o_and_quit_says_where_s_writes(tmp_path, monkeypatch):
    out = tmp_path / "b.toml"
    app = editor_app(blank_table(60, 44, "fight-phase"), out=str(out))
    post_and_handle(app, keydown(pygame.K_1, "1"), *click(15, 10))
    auto = tmp_path / "b.autosave.toml"
    assert [t.id for t in mapfile.load(str(auto)).terrain] == ["ruin-1"]
    post_and_handle(app, keydown(pygame.K_q, "q"))
    assert app.message_lines()[0] == (
        f"quit with unsaved moves? y: quit (the moves stay in b.autosave.toml), n: keep the board "
        f"(s saves them to {out})")
    post_and_handle(app, keydown(pygame.K_n, "n"), keydown(pygame.K_s, "s"))
    assert out.exists() and not auto.exists()          # saved: the autosave goes
    # no -o: table.autosave.toml in the folder the command ran in
    monkeypatch.chdir(tmp_path)
    app = editor_app(blank_table(60, 44, "fight-phase"))
    post_and_handle(app, keydown(pygame.K_o, "o"), *click(30, 22))
    assert [o.at for o in mapfile.load(str(tmp_path / "table.autosave.toml")).objectives] == [(30, 22)]


def test_x_flips_the_whole_table_units_too():
    app = editor_app(blank_table(60, 44, "fight-phase"))
    # D: Hammer and Anvil, red 0..18, blue 42..60; 2 x 32mm, 2 abreast, for red at (5, 22):
    # (models saved to 1e-4) facing the centre (30, 22) = 0 deg (east): the rank stands 0.629921" (half of
    # 32mm = 1.259843") behind the front centre: x = 5 - 0.629921 = 4.370079; 40K lays it as the
    # roster does, 0.5" apart: y = 22 -+ (1.259843 + 0.5) / 2 = 22 -+ 0.879921
    post_and_handle(app, keydown(pygame.K_d, "D", SHIFT), keydown(pygame.K_n, "N", SHIFT),
                    E(pygame.TEXTINPUT, text="2 32mm 2"), keydown(pygame.K_RETURN, "\r"), *click(5, 22))
    (u,) = app.state.units
    assert sorted(m.at for m in u.models) == [
        pytest.approx((4.370079, 22 - 0.879921), abs=1e-4), pytest.approx((4.370079, 22 + 0.879921), abs=1e-4)]
    post_and_handle(app, keydown(pygame.K_x, "x"))
    (u,) = app.state.units
    # x -> 60 - x: 55.629921, facing 0 -> 180 (west, to the centre again); red's zone 42..60
    assert sorted(m.at for m in u.models) == [
        pytest.approx((55.629921, 22 - 0.879921), abs=1e-4), pytest.approx((55.629921, 22 + 0.879921), abs=1e-4)]
    assert {m.facing_deg for m in u.models} == {180.0}
    red = next(z for z in app.state.deployment if z.player == "red")
    assert ring(red.polygon) == ring([(42, 0), (60, 0), (60, 44), (42, 44)])
    assert app.message_lines()[0] == "flipped the table left to right, 1 units with it"


def test_a_refused_polygon_keeps_no_corner_and_a_bow_tie_crosses_itself():
    app = editor_app(blank_table(60, 44, "fight-phase"))
    enter = keydown(pygame.K_RETURN, "\r")
    post_and_handle(app, keydown(pygame.K_6, "6"), *click(10, 10))
    assert app.message_lines()[0] == "polygon: 1 corner (Enter closes)"
    post_and_handle(app, enter)
    assert app.message_lines()[0].startswith("polygon: a polygon needs 3 points or more")
    # two more clicks after the refusal are 2 corners, not a triangle with the dropped one
    post_and_handle(app, *click(20, 10), *click(20, 20), enter)
    assert app.state.terrain == () and "3 points or more" in app.message_lines()[0]
    # a bow-tie (10,10) (20,20) (20,10) (10,20): sides (10,10)-(20,20) and (20,10)-(10,20)
    # cross at (15, 15)
    post_and_handle(app, *click(10, 10), *click(20, 20), *click(20, 10), *click(10, 20), enter)
    assert app.state.terrain == ()
    assert app.message_lines()[0].startswith("polygon: the outline crosses itself")
    # three points on one line enclose no area
    post_and_handle(app, *click(10, 10), *click(15, 10), *click(20, 10), enter)
    assert app.message_lines()[0].startswith("polygon: the points enclose no area")
    # a square after all that: exactly its 4 corners
    post_and_handle(app, *click(10, 10), *click(14, 10), *click(14, 14), *click(10, 14), enter)
    assert app.state.terrain_piece("area-1").polygon == ((10, 10), (14, 10), (14, 14), (10, 14))


def test_a_unit_dropped_in_the_other_players_zone_is_warned(capsys):
    from pathlib import Path

    from tabletop.roster.deploy import resolve_bases
    from tabletop.roster.read import read_roster
    root = Path(__file__).resolve().parent.parent
    roster = read_roster(str(root / "examples" / "rosters" / "orks.json"))
    resolved = resolve_bases(roster, {}, "orks.json")
    app = editor_app(blank_table(60, 44, "fight-phase", "orks"), roster=resolved,
                     system=roster.system, player="orks")
    # players orks (--player renames red) and blue; D: Hammer and Anvil gives orks 0..18
    # and blue 42..60; the Warboss (first roster unit, one model) at (50, 22) stands in blue's
    post_and_handle(app, keydown(pygame.K_d, "D", SHIFT), keydown(pygame.K_u, "U", SHIFT), *click(50, 22))
    assert app.state.units[0].models[0].at == (50, 22)
    assert app.message_lines()[0].endswith(
        "- warning: 1 of 1 models of orks stand outside the zone of orks, 1 in the zone of blue "
        "(p: the player units go to)")
    # the next unit at (9, 22), in the orks' own zone (the Boyz 4 wide from there): no warning
    post_and_handle(app, *click(9, 22))
    assert "warning" not in app.message_lines()[0]
    # --table under 12" a side: one line, exit 2
    assert main(["edit", "--table", "0.1x0.1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "error: --table 0.1x0.1: each side from 12 to 1200 inches" or (
        "each side from 12 to" in err and "\n" not in err)


def test_turned_pieces_save_clean_numbers_and_the_panel_says_top_0(tmp_path):
    out = tmp_path / "t.toml"
    app = editor_app(blank_table(60, 44, "fight-phase"), out=str(out))
    # a 6x4 at (30, 41) turned 90 degrees in six 15-degree steps: 28..32 x 38..44, flush with
    # the top edge (44 - 44 = 0); every corner exactly on the inch, no 27.999999 / -0
    post_and_handle(app, keydown(pygame.K_4, "4"), *click(30, 41), *[keydown(pygame.K_r, "r")] * 6,
                    keydown(pygame.K_s, "s"))
    t = app.state.terrain_piece("ruin-1")
    assert sorted(t.polygon) == [(28, 38), (28, 44), (32, 38), (32, 44)]
    assert all(v == int(v) for p in t.polygon + t.tall_part for v in p)
    assert "left 28, right 28, bottom 38, top 0" in app.editor.describe("ruin-1")
    text = out.read_text(encoding="utf-8")
    assert "27.99" not in text and "e-0" not in text and "-0.0" not in text and "[28, 44]" in text.replace(".0", "")


def test_zone_warning_counts_outside_own_zone_and_in_the_others_separately():
    # issue 12 finding 2: orks' zone x 0..18, blue's x 42..60 (D: Hammer and Anvil on a
    # 60x44 table).  A 10-model orks unit strung along y = 22, as a long formation dropped
    # near blue's zone stands: 4 models in blue's zone (x 43, 44, 45, 46), 5 in no man's
    # land (x 20, 25, 30, 35, 40), 1 in the orks' own zone (x 10).  Outside the orks' zone: 4 + 5 = 9 of 10;
    # of those, in blue's zone: 4.  (Before: "9 of 10 ... stand in the zone of blue".)
    app = editor_app(blank_table(60, 44, "fight-phase", "orks"), player="orks")
    post_and_handle(app, keydown(pygame.K_d, "D", SHIFT))
    data = mapfile.to_dict(app.state)
    xs = [43, 44, 45, 46, 20, 25, 30, 35, 40, 10]
    data["units"] = [{"id": "mob", "player": "orks", "base": "25mm",
                      "models": [[x, 22] for x in xs]}]
    state = mapfile.from_dict(data, path="<test>")
    assert app.editor._zone_warning(state, "mob") == (
        " - warning: 9 of 10 models of orks stand outside the zone of orks, 4 in the zone of "
        "blue (p: the player units go to)")
    # only no man's land: no second clause (x 20 and 40 are outside both zones)
    data["units"][0]["models"] = [[20, 22], [40, 22]]
    state = mapfile.from_dict(data, path="<test>")
    assert app.editor._zone_warning(state, "mob") == (
        " - warning: 2 of 2 models of orks stand outside the zone of orks "
        "(p: the player units go to)")


def test_a_formation_off_the_edge_says_the_click_is_its_front_centre():
    # issue 12 finding 3: `N` 10 32mm 5 clicked at (30, 1) on a blank 60x44 table (no zones:
    # it faces the centre, 90 deg, so it stands towards y = 0).  Two ranks of 5, pitch
    # 1.2598 + 0.5 gap = 1.7598": the back rank's centre 0.6299 + 1.7598 = 2.3898" behind
    # the click, its bases' back edge 2.3898 + 0.6299 = 3.0197" behind: "3.0".
    app = editor_app(blank_table(60, 44, "fight-phase"))
    post_and_handle(app, *opened_line(pygame.K_n, "N", "10 32mm 5", SHIFT), *click(30, 1))
    msg = app.message_lines()[0]
    assert app.state.units == ()
    assert msg.startswith("10 x 32mm not placed: ") and "off the table" in msg
    assert msg.endswith("(the click marks the unit's front centre; it stands 3.0\" behind it: "
                        "click further in)")


def test_placing_or_moving_a_piece_onto_another_warns_as_check_does():
    # issue 12 finding 4.  A 6x4 (key 4, 6" along x) at (20, 20): ruin-1 17..23 x 18..22.
    # Another at (24, 21): ruin-2 21..27 x 19..23, sharing x 21..23 (2") by y 19..22 (3"):
    # 2 x 3 = 6 sq in, over [rules] terrain_overlap_area (0.01).
    app = editor_app(blank_table(60, 44, "fight-phase"))
    post_and_handle(app, keydown(pygame.K_4, "4"), *click(20, 20))
    assert "warning" not in app.message_lines()[0]
    post_and_handle(app, *click(24, 21))
    assert app.message_lines()[0].endswith("; warning: ruin-2 overlaps ruin-1 (6.00 sq in)")
    # dragged 10" right, 31..37: clear, no warning
    post_and_handle(app, keydown(pygame.K_0, "0"),
                    E(pygame.MOUSEBUTTONDOWN, pos=px(24, 21), button=1),
                    E(pygame.MOUSEMOTION, pos=px(34, 21), rel=(0, 0), buttons=(1, 0, 0)),
                    E(pygame.MOUSEBUTTONUP, pos=px(34, 21), button=1))
    assert app.message_lines()[0] == "moved ruin-2: centre (34, 21)"
    # dragged to centre (22, 20): 19..25 x 18..22, sharing x 19..23 (4") by y 18..22 (4"):
    # 16 sq in
    post_and_handle(app, E(pygame.MOUSEBUTTONDOWN, pos=px(34, 21), button=1),
                    E(pygame.MOUSEMOTION, pos=px(22, 20), rel=(0, 0), buttons=(1, 0, 0)),
                    E(pygame.MOUSEBUTTONUP, pos=px(22, 20), button=1))
    assert app.message_lines()[0] == (
        "moved ruin-2: centre (22, 20); warning: ruin-2 overlaps ruin-1 (16.00 sq in)")


def test_a_unit_dropped_in_the_editor_drops_empty_from_the_name():
    # issue 12 finding 11, the editor's way: a table named "Practice (empty)", `N` 5 32mm 5
    # clicked at (30, 20) (5 abreast facing the centre: well inside the 60x44 table)
    state = blank_table(60, 44, "fight-phase")
    from dataclasses import replace
    app = editor_app(replace(state, name="Practice (empty)"))
    post_and_handle(app, *opened_line(pygame.K_n, "N", "5 32mm 5", SHIFT), *click(30, 20))
    assert len(app.state.units) == 1
    assert app.state.name == "Practice"


ZONES_ALONG_LONG_EDGES = {
    "map": {"name": "long edges", "ruleset": "fight-phase", "width": 60, "depth": 44},
    "players": [{"id": "red", "active": True}, {"id": "blue"}],
    "deployment": [{"player": "red", "polygon": [[0, 0], [60, 0], [60, 12], [0, 12]]},
                   {"player": "blue", "polygon": [[0, 32], [60, 32], [60, 44], [0, 44]]}]}


def test_units_dropped_in_one_zone_all_face_the_same_way():
    # issue 12 finding 12: red's zone is y 0..12 along the bottom; its centre (30, 6), the
    # table's (30, 22): straight up, 90 deg, as `tabletop roster` faces the army.  Before,
    # each unit faced the centre from its own click: (10, 5) -> atan2(17, 20) = 40 deg ->
    # 0; (22, 5) -> atan2(17, 8) = 65 deg -> 90.
    state = mapfile.from_dict(ZONES_ALONG_LONG_EDGES, path="<test>")
    app = editor_app(state, player="red")
    post_and_handle(app, *opened_line(pygame.K_n, "N", "1 32mm 1", SHIFT), *click(10, 5))
    post_and_handle(app, *click(22, 5))
    assert [u.facing_deg for u in app.state.units] == [90.0, 90.0]
    # blue's units (its zone's centre (30, 38) -> the centre: down, 270 deg)
    app2 = editor_app(state, player="blue")
    post_and_handle(app2, *opened_line(pygame.K_n, "N", "1 32mm 1", SHIFT), *click(10, 40),
                    *click(50, 35))
    assert [u.facing_deg for u in app2.state.units] == [270.0, 270.0]


def test_saved_tables_stand_apart_and_models_are_one_a_line(tmp_path):
    # issue 12 finding 13.  (a) a piece and two objectives added to a map read from a file:
    # every [[...]] header after the first has a blank line before it (before, the new
    # tables ran straight into the next: "tall_part = [...]\n[[objectives]]")
    import re
    src = tmp_path / "abc.toml"
    src.write_text(PUBLISHED_ABC + '\n[[objectives]]\nid = "centre"\nat = [30, 22]\n')
    state = mapfile.load(str(src))
    app = fix_view(App(state, str(src), (1400, 900), edit={"out": str(tmp_path / "a.toml")}), 900)
    post_and_handle(app, keydown(pygame.K_4, "4"), *click(10, 10), keydown(pygame.K_o, "o"),
                    *click(10, 30), *click(20, 30), keydown(pygame.K_s, "s"))
    text = (tmp_path / "a.toml").read_text()
    assert text.count("[[terrain]]") == 4 and text.count("[[objectives]]") == 3
    assert re.search(r"[^\n]\n\[\[", text) is None
    # (b) a blank table (no file: written afresh) with a roster unit of 10 models (the
    # example Boyz: a Boss Nob and 9 Boyz with their own weapons): one model a line as
    # [[units]] models = [...], never [[units.models]] tables of four lines a model
    from pathlib import Path

    from tabletop.roster.deploy import resolve_bases
    from tabletop.roster.read import read_roster
    root = Path(__file__).resolve().parent.parent
    roster = read_roster(str(root / "examples" / "rosters" / "orks.json"))
    resolved = resolve_bases(roster, {}, "orks.json")
    out = tmp_path / "b.toml"
    app = editor_app(blank_table(60, 44, "fight-phase", "orks"), roster=resolved,
                     system=roster.system, player="orks", out=str(out))
    post_and_handle(app, keydown(pygame.K_u, "U", SHIFT), *click(10, 22), *click(20, 10),
                    keydown(pygame.K_s, "s"))
    text = out.read_text()
    assert "[[units.models]]" not in text
    boyz = app.state.unit("boyz")
    assert len(boyz.models) == 10
    assert len(re.findall(r"^    \{at = \[", text, re.M)) == 1 + 10    # warboss + 10 boyz
    assert mapfile.to_dict(mapfile.load(str(out))) == mapfile.to_dict(app.state)


def test_a_piece_released_over_the_side_panel_is_not_moved_and_says_so():
    # issue 12 finding 14: before, nothing was said.  A 6x4 at (20, 20): 17..23 x 18..22;
    # dragged and released over the panel (right of the board)
    app = editor_app(blank_table(60, 44, "fight-phase"))
    post_and_handle(app, keydown(pygame.K_4, "4"), *click(20, 20), keydown(pygame.K_0, "0"))
    before = app.state.terrain_piece("ruin-1").polygon
    outside = (app.board_rect.right + 20, app.board_rect.centery)
    assert not app.board_rect.collidepoint(outside)
    post_and_handle(app, E(pygame.MOUSEBUTTONDOWN, pos=px(20, 20), button=1),
                    E(pygame.MOUSEMOTION, pos=px(25, 20), rel=(0, 0), buttons=(1, 0, 0)),
                    E(pygame.MOUSEMOTION, pos=outside, rel=(0, 0), buttons=(1, 0, 0)),
                    E(pygame.MOUSEBUTTONUP, pos=outside, button=1))
    assert app.state.terrain_piece("ruin-1").polygon == before
    assert app.message_lines()[0] == "dropped outside the table: ruin-1 not moved"
    assert app.editor.drag is None
