"""The table editor (issue 12 item 3), driven by posted pygame events.

The view is fixed at 10 px per inch with table (0, 0) at pixel (50, 850): table (x, y) is
pixel (50 + 10x, 850 - 10y).  Placing and dragging snap an item's centre to 1"
(``editor.SNAP_IN``), turning to 15 degrees (``TURN_STEP_DEG``).  A ruin template's walls
are an L 1" thick (``RUIN_WALL_THICKNESS_IN``) along its local -y long side and -x short side.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pygame
import pytest

from tabletop.app import editor_input
from tabletop.app.app import App
from tabletop.board import mapfile
from tabletop.cli import main
from tabletop.cli.edit_cmd import blank_table, parse_table
from tabletop.errors import TabletopError
from tabletop.render.view import View

E = pygame.event.Event
ROOT = Path(__file__).resolve().parent.parent
R2 = math.sqrt(2) / 2


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1400, 900))
    yield
    pygame.display.quit()


def px(x: float, y: float) -> tuple[int, int]:
    return round(50 + 10 * x), round(850 - 10 * y)


def key(k: int, uni: str = "", shift: bool = False) -> pygame.event.Event:
    return E(pygame.KEYDOWN, key=k, mod=pygame.KMOD_SHIFT if shift else 0, unicode=uni, scancode=0)


def click(x: float, y: float) -> list[pygame.event.Event]:
    return [E(pygame.MOUSEBUTTONDOWN, pos=px(x, y), button=1),
            E(pygame.MOUSEBUTTONUP, pos=px(x, y), button=1)]


def drag(a: tuple[float, float], b: tuple[float, float]) -> list[pygame.event.Event]:
    out = [E(pygame.MOUSEBUTTONDOWN, pos=px(*a), button=1)]
    for k in range(1, 5):
        p = (a[0] + (b[0] - a[0]) * k / 4, a[1] + (b[1] - a[1]) * k / 4)
        out.append(E(pygame.MOUSEMOTION, pos=px(*p), rel=(0, 0), buttons=(1, 0, 0)))
    out.append(E(pygame.MOUSEBUTTONUP, pos=px(*b), button=1))
    return out


def typed(text: str) -> list[pygame.event.Event]:
    return [E(pygame.TEXTINPUT, text=text), key(pygame.K_RETURN, "\r")]


def post(app: App, *events) -> None:
    """Post to pygame's queue and feed the queue to the window, as its loop does."""
    pygame.event.clear()
    for e in events:
        pygame.event.post(e)
    for e in pygame.event.get():
        app.handle(e)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """Each test runs in its own folder: a blank table's autosave goes to the current one."""
    monkeypatch.chdir(tmp_path)


def editor_app(state, path=None, **edit) -> App:
    app = App(state, path, (1400, 900), edit=edit)
    if app.legend_shown:
        app.toggle_legend()
    app.view = View(scale=10.0, origin_x=50.0, origin_y=850.0)
    return app


def ring(pts) -> list[tuple[float, float]]:
    return sorted((round(x, 4), round(y, 4)) for x, y in pts)


def test_the_editor_builds_a_table_that_check_and_compare_pass(tmp_path):
    out = str(tmp_path / "built.toml")
    app = editor_app(blank_table(60, 44, "fight-phase"), out=out)
    assert app.editor.active
    # 1: a 12x6 ruin clicked at (15.3, 10.4): its centre snaps to (15, 10)
    post(app, key(pygame.K_1, "1"), *click(15.3, 10.4))
    r1 = app.state.terrain_piece("ruin-1")
    # outline (15 -+ 6, 10 -+ 3); walls: the -y long side 1" deep and the -x short side 1" wide
    assert ring(r1.polygon) == ring([(9, 7), (21, 7), (21, 13), (9, 13)])
    assert ring(r1.tall_part) == ring([(9, 7), (21, 7), (21, 8), (10, 8), (10, 13), (9, 13)])
    # 2: a 10x5 ruin at (30, 30), turned r r r: 0 -> 15 -> 30 -> 45 degrees
    post(app, key(pygame.K_2, "2"), *click(30, 30), *[key(pygame.K_r, "r")] * 3)
    r2 = app.state.terrain_piece("ruin-2")
    # corner (-5, -2.5) turned 45: ((-5 + 2.5) r2, (-5 - 2.5) r2) = (-1.767767, -5.303301), etc.
    want2 = [(30 - 2.5 * R2, 30 - 7.5 * R2), (30 + 7.5 * R2, 30 + 2.5 * R2),
             (30 + 2.5 * R2, 30 + 7.5 * R2), (30 - 7.5 * R2, 30 - 2.5 * R2)]
    for got, want in zip(r2.polygon, want2):
        assert got == pytest.approx(want, abs=1e-5)
    # 3: select, drag ruin-1 by (2.4, 1.6): its centre (17.4, 11.6) snaps to (17, 12)
    post(app, key(pygame.K_0, "0"), *drag((15, 10), (17.4, 11.6)))
    assert ring(app.state.terrain_piece("ruin-1").polygon) == ring([(11, 9), (23, 9), (23, 15), (11, 15)])
    # 4: "left 6": its leftmost x 11 -> 6, so it moves 5" left
    post(app, key(pygame.K_t, "t"), *typed("left 6"))
    assert ring(app.state.terrain_piece("ruin-1").polygon) == ring([(6, 9), (18, 9), (18, 15), (6, 15)])
    # 5: an objective clicked at (10.2, 21.8) -> (10, 22); a zone of red from (0, 0) to (12, 44)
    post(app, key(pygame.K_o, "o"), *click(10.2, 21.8))
    post(app, key(pygame.K_d, "d"), *click(0, 0), *click(12, 44))
    # 6: M mirrors the table: each (x, y) -> (60 - x, 44 - y)
    post(app, key(pygame.K_m, "M", shift=True))
    st = app.state
    assert [t.id for t in st.terrain] == ["ruin-1", "ruin-2", "ruin-1-twin", "ruin-2-twin"]
    # ruin-1 (6..18, 9..15) -> (42..54, 29..35); its walls' corner (6, 9) -> (54, 35)
    assert ring(st.terrain_piece("ruin-1-twin").polygon) == ring([(42, 29), (54, 29), (54, 35), (42, 35)])
    assert ring(st.terrain_piece("ruin-1-twin").tall_part) == ring(
        [(54, 35), (42, 35), (42, 34), (53, 34), (53, 29), (54, 29)])
    # ruin-2's centre (30, 30) -> (30, 14); (30 - 2.5 r2, 30 - 7.5 r2) -> (30 + 2.5 r2, 14 + 7.5 r2)
    twin2 = st.terrain_piece("ruin-2-twin").polygon
    assert twin2[0] == pytest.approx((30 + 2.5 * R2, 14 + 7.5 * R2), abs=1e-5)
    assert [o.at for o in st.objectives] == [(10, 22), (50, 22)]
    assert [(z.player, ring(z.polygon)) for z in st.deployment] == [
        ("red", ring([(0, 0), (12, 0), (12, 44), (0, 44)])),
        ("blue", ring([(48, 0), (60, 0), (60, 44), (48, 44)]))]
    # the editor on screen: saved to look at (tests/test_app_editor.py writes it to tmp)
    screen = pygame.display.get_surface()
    for _ in range(12):
        app.update(1 / 60)
    app.draw(screen)
    pygame.image.save(screen, str(tmp_path / "editor.png"))
    # 7: s saves to -o; check passes; compare against itself: all in place
    post(app, key(pygame.K_s, "s"))
    assert app.message_lines()[0] == f"saved the table to {out}"
    assert mapfile.load(out).terrain == st.terrain
    assert main(["check", out]) == 0
    assert main(["compare", out, out]) == 0


def test_turn_snaps_to_the_next_15_degrees_from_any_angle(write_map):
    path = write_map(MAP_RECT)
    app = editor_app(mapfile.load(path), path)
    post(app, *click(30, 22))                     # select tool: picks the piece
    assert app.editor.selected == "A"
    post(app, key(pygame.K_r, "r"))               # 10 -> 15 degrees: turned 5
    c, s = math.cos(math.radians(15)), math.sin(math.radians(15))
    # corner (-6, -3) at 15 deg: (-6c + 3s, -6s - 3c) = (-5.019098, -4.450691) about (30, 22)
    assert app.state.terrain_piece("A").polygon[0] == pytest.approx(
        (30 - 6 * c + 3 * s, 22 - 6 * s - 3 * c), abs=1e-5)
    post(app, *[key(pygame.K_r, "R", shift=True)] * 2)   # 15 -> 0 -> -15 (165)
    c, s = math.cos(math.radians(-15)), math.sin(math.radians(-15))
    assert app.state.terrain_piece("A").polygon[0] == pytest.approx(
        (30 - 6 * c + 3 * s, 22 - 6 * s - 3 * c), abs=1e-5)


MAP_RECT = """\
[map]
name = "one piece"
ruleset = "fight-phase"
width = 60
depth = 44

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[terrain]]
id = "A"
kind = "ruin"
rect = { centre = [30, 22], width = 12, depth = 6, angle = 10 }
"""


def test_mirror_a_piece_puts_its_short_wall_at_the_other_end():
    app = editor_app(blank_table(60, 44, "fight-phase"))
    post(app, key(pygame.K_1, "1"), *click(15, 10), key(pygame.K_m, "m"))
    t = app.state.terrain_piece("ruin-1")
    assert ring(t.polygon) == ring([(9, 7), (21, 7), (21, 13), (9, 13)])
    # x -> 30 - x about the centre 15: the short wall 9..10 goes to 20..21
    assert ring(t.tall_part) == ring([(21, 7), (9, 7), (9, 8), (20, 8), (20, 13), (21, 13)])


def test_a_free_polygon_a_barricade_and_a_reference_deployment():
    app = editor_app(blank_table(60, 44, "fight-phase"))
    # clockwise clicks are stored counter-clockwise
    post(app, key(pygame.K_6, "6"), *click(10, 10), *click(10, 20), *click(20, 10),
         key(pygame.K_RETURN, "\r"))
    a = app.state.terrain_piece("area-1")
    assert a.kind == "obstacle" and a.polygon == ((20, 10), (10, 20), (10, 10))
    post(app, key(pygame.K_5, "5"), *click(40, 40))    # 6" long along x, 2" deep
    b = app.state.terrain_piece("barricade-1")
    assert ring(b.polygon) == ring([(37, 39), (43, 39), (43, 41), (37, 41)]) and b.tall_part is None
    post(app, key(pygame.K_d, "D", shift=True))        # Hammer and Anvil: 18" short edges
    assert [(z.player, ring(z.polygon)) for z in app.state.deployment] == [
        ("red", ring([(0, 0), (18, 0), (18, 44), (0, 44)])),
        ("blue", ring([(42, 0), (60, 0), (60, 44), (42, 44)]))]
    post(app, key(pygame.K_x, "x"))                    # flip: x -> 60 - x
    assert app.state.terrain_piece("area-1").polygon == ((50, 10), (50, 20), (40, 10))


def test_a_formation_is_dropped_as_the_roster_lays_a_unit_in_coherency():
    app = editor_app(blank_table(60, 44, "fight-phase"))
    post(app, key(pygame.K_n, "N", shift=True), *typed("6 32mm 3"), *click(30, 10))
    u = app.state.units[0]
    # faces the table centre (30, 22): 90 deg; 40K: a grid 3 abreast at the roster's 0.5" gap
    # (32mm = 1.259843", pitch 1.759843"), its front edge centred on the click (30, 10): the
    # front row's centres half a base (0.629921") behind it, the second row a pitch further
    d = 32 / 25.4 + 0.5
    want = [(30 + f * d, 10 - 0.629921 - r) for r in (0, d) for f in (-1, 0, 1)]
    assert [c for m in u.models for c in m.at] == pytest.approx([c for p in want for c in p], abs=1e-4)
    assert u.player == "red"
    # a second block on top of it is refused
    post(app, *click(30, 10))
    assert len(app.state.units) == 1 and "not placed" in app.message_lines()[0]


def orks_editor() -> App:
    """The editor on a blank 60x44 table with the example Orks roster for player blue."""
    from tabletop.roster.deploy import resolve_bases
    from tabletop.roster.read import read_roster
    roster = read_roster(str(ROOT / "examples" / "rosters" / "orks.json"))
    resolved = resolve_bases(roster, {}, "orks.json")
    return editor_app(blank_table(60, 44, "fight-phase", "blue"), roster=resolved,
                      system=roster.system, player="blue")


def test_a_roster_unit_is_dropped_at_the_click():
    app = orks_editor()
    post(app, key(pygame.K_u, "U", shift=True), *click(10, 10), *click(30, 10))
    boss, boyz = app.state.units
    # the Warboss alone at the click; the Boyz's first model at the click, a 4-wide grid
    # facing 90 (32mm + 0.5" gap = 1.759843" pitch): the 4th model 3 pitches to the right
    assert boss.name == "Warboss" and boss.models[0].at == (10, 10)
    assert len(boyz.models) == 10 and boyz.models[0].at == (30, 10)
    assert boyz.models[3].at == pytest.approx((30 + 3 * (32 / 25.4 + 0.5), 10), abs=1e-4)
    assert {boss.player, boyz.player} == {"blue"}


def test_save_never_writes_over_the_opened_map_without_yes(write_map):
    path = write_map(MAP_RECT)
    app = editor_app(mapfile.load(path), path, out=path)
    post(app, key(pygame.K_o, "o"), *click(5, 5), key(pygame.K_s, "s"))
    assert open(path, encoding="utf-8").read() == MAP_RECT
    assert "the map you opened" in app.message_lines()[0]
    post(app, key(pygame.K_n, "n"))
    assert open(path, encoding="utf-8").read() == MAP_RECT
    post(app, key(pygame.K_s, "s"), key(pygame.K_y, "y"))
    assert [o.at for o in mapfile.load(path).objectives] == [(5, 5)]


def test_e_in_view_opens_and_leaves_the_editor(write_map):
    path = write_map(MAP_RECT)
    app = App(mapfile.load(path), path, (1400, 900))
    assert not app.editor.active
    post(app, key(pygame.K_e, "e"))
    assert app.editor.active
    post(app, key(pygame.K_e, "e"))
    assert not app.editor.active and app.running


def test_the_readme_editor_key_table_is_the_editors():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### edit — building a table"):]
    table = section[section.index("| input | does |"):]
    rows = []
    for line in table.splitlines()[2:2 + len(editor_input.EDITOR_BINDINGS)]:
        m = re.fullmatch(r"\| (.*?) \| (.*) \|", line)
        rows.append((m.group(1), m.group(2)))
    assert rows == [(b.label, b.does) for b in editor_input.EDITOR_BINDINGS]


def test_edit_command_arguments(capsys):
    assert parse_table("44x60") == (60, 44) and parse_table("72 x 48") == (72, 48)
    for bad in (["edit", "--table", "44by60"], ["edit", "--table", "0x60"],
                ["edit", "--roster", "x.json"], ["edit", "-o", "out.png"]):
        assert main(bad) == 2
        err = capsys.readouterr().err.strip()
        assert err and "\n" not in err and "Traceback" not in err



def _args(*argv):
    from tabletop.cli import build_parser
    return build_parser(["edit"]).parse_args(["edit", *argv])


def test_edit_builds_a_blank_table_or_opens_a_map(write_map):
    from tabletop.cli.edit_cmd import build
    state, path, edit = build(_args())
    # 44x60: the long side along x; two players, no file
    assert (state.table.width, state.table.depth) == (60, 44) and path is None
    assert [p.id for p in state.players] == ["red", "blue"] and state.path is None
    state, _, _ = build(_args("--table", "48x72", "--ruleset", "rank-and-flank"))
    assert (state.table.width, state.table.depth, state.ruleset) == (72, 48, "rank-and-flank")
    roster = str(ROOT / "examples" / "rosters" / "orks.json")
    state, _, edit = build(_args("--roster", roster, "--player", "orks"))
    assert [p.id for p in state.players] == ["orks", "blue"] and edit["player"] == "orks"
    assert len(edit["roster"]) >= 2 and edit["system"] == "40k"
    m = write_map(MAP_RECT)
    state, path, edit = build(_args(m, "-o", m))
    assert path == m and edit["out"] == m and state.terrain[0].id == "A"
    for bad in (["--roster", roster, "--player", "green", m], [m, "--table", "44x60"]):
        with pytest.raises(TabletopError) as err:
            build(_args(*bad))
        assert "\n" not in str(err.value)


def test_a_barricade_placed_on_models_warns_which_stand_on_it():
    app = editor_app(blank_table(60, 44, "fight-phase"))
    post(app, key(pygame.K_n, "N", shift=True), *typed("6 32mm 3"), *click(30, 10))
    # the front row's centres at y 9.3701 (bases 8.7402..10.0), the back row's at 7.6102
    # (6.9803..8.2402); a 6x2 barricade centred on (30, 10) covers x 27..33, y 9..11: the
    # front row's three bases stand on it, the back row's reach 8.24 < 9 and do not
    post(app, key(pygame.K_5, "5"), *click(30, 10))
    assert app.message_lines()[0] == (
        "placed barricade-1 (barricade 2x6) centred at (30, 10); warning: 3 models stand "
        "on barricade-1's footprint (unit-1/1, unit-1/2, unit-1/3)")


def test_a_roster_unit_off_the_edge_says_the_click_marks_its_first_model():
    app = orks_editor()
    post(app, key(pygame.K_u, "U", shift=True), *click(10, 10), *click(30, 43))
    # the Boyz at (30, 43) face the table centre (270 deg): a 4-wide grid at a 1.759843"
    # pitch with its rows behind, up the table: the 2nd and 3rd rows (models 5-10, centres
    # at y 44.76 and 46.52) stand off the 44" table. The farthest model, the 2nd row's 4th,
    # is 1.759843 * sqrt(3^2 + 1^2) = 5.565" from the click, plus half a 32mm base 0.630"
    assert app.message_lines()[0] == (
        "Boyz not placed: boyz/5 off the table; boyz/6 off the table; boyz/7 off the table "
        "and 3 more (the click marks the unit's first model; the unit reaches 6.2\" from it: "
        "click further in)")


def test_edit_with_a_player_the_map_lacks_names_the_map(capsys):
    path = str(ROOT / "maps" / "ca-layout-1-table.toml")
    roster = str(ROOT / "examples" / "rosters" / "orks.json")
    assert main(["edit", path, "--roster", roster, "--player", "red"]) == 2
    err = capsys.readouterr().err.strip()
    # the map's players are its two sides; the line names the map as every refusal does
    assert err.startswith(f"{path}: --player 'red': no such player (players are ")
    assert "\n" not in err
