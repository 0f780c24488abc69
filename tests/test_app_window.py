"""The window's logic (tabletop.app.app.App) driven by constructed pygame events.

Every test fixes the view at 10 pixels per inch with table (0, 0) at pixel
(50, 850), so table (x, y) is pixel (50 + 10x, 850 - 10y) and each expected
length below is worked out from that by hand.  32mm bases have radius
16 / 25.4 = 0.629921" (diameter 1.259843").
"""

from __future__ import annotations

import math
import os

import pygame
import pytest
from window_helpers import E, display_fixture, fix_view, pixel_of

from tabletop.app.app import App
from tabletop.board import mapfile
from tabletop.render.step_draw import with_keys
from tabletop.render.view import View
from tabletop.rules.events import EventLog

R32 = 16 / 25.4

MAP = """\
[map]
name = "Window test"
ruleset = "fight-phase"
width = 60.0
depth = 44.0

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[objectives]]
id = "A"
at = [30, 22]

[[units]]
id = "int"
name = "Intercessor Squad"
player = "red"
base = "32mm"
profile = { M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }
weapons = [{ name = "Close combat weapon", A = 3, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[10, 10], [10, 12]]

[[units]]
id = "orks"
name = "Boyz"
player = "blue"
base = "32mm"
models = [[20, 10], [22, 10]]
"""

display = display_fixture((1400, 900))
px = pixel_of(900)        # table inches -> pixels of the fixed test view


@pytest.fixture
def app(write_map):
    path = write_map(MAP)
    a = App(mapfile.load(path), path, (1400, 900))
    assert a.legend_shown and a.board_rect.bottom == a.legend_rect.top
    fix_view(a, 900)        # the board takes the whole left column (1000 x 900 px)
    assert a.board_rect == pygame.Rect(0, 0, 1000, 900)
    return a


def press(app, pos, button=1):
    app.handle(E(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))


def move(app, pos, buttons=(1, 0, 0)):
    app.handle(E(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=buttons))


def release(app, pos, button=1):
    app.handle(E(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def drag(app, start, end, button=1, steps=4):
    press(app, start, button)
    for k in range(1, steps + 1):
        move(app, (start[0] + (end[0] - start[0]) * k // steps,
                   start[1] + (end[1] - start[1]) * k // steps))
    release(app, end, button)


def key(app, k):
    app.handle(E(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def click(app, pos):
    press(app, pos)
    release(app, pos)


def test_click_selects_model_and_its_unit(app):
    # int/1 is at (10, 10) -> pixel (150, 750); 5 px right is 0.5" from its centre,
    # inside the 0.63" radius
    click(app, (155, 750))
    assert app.selected == "int/1"
    assert app.selected_unit() == ["int/1", "int/2"]
    info = app.info_lines()
    assert info[0] == "int/1"
    # nearest enemy orks/1 at (20, 10): 10 - 2 * 0.629921 = 8.740157 -> 8.74"
    assert 'nearest enemy: orks/1 8.74"' in info
    # objective A (40mm marker, r 0.787402) at (30, 22): hypot(20, 12) = 23.323808
    # - 0.629921 - 0.787402 = 21.906485 -> 21.91"
    assert 'nearest objective: A 21.91"' in info
    assert any(line.startswith("weapons:") for line in info)
    assert "wounds lost: 0 of 2" in info
    # a click on empty table clears the selection
    click(app, px(40, 30))
    assert app.selected is None


def test_ruler_from_empty_table_reports_its_length(app):
    # table (25, 35) -> (28, 39): a 3-4-5 triangle, 5.00"
    drag(app, px(25, 35), px(28, 39))
    assert app.selected is None
    assert app.ruler is not None and not app.ruler.active
    assert app.ruler.length == pytest.approx(5.0, abs=1e-9)
    assert app.ruler.a == pytest.approx((25, 35)) and app.ruler.b == pytest.approx((28, 39))
    assert app.measure_text().startswith('ruler: 5.00"')


def test_ruler_from_empty_table_snaps_to_the_base_it_ends_on(app):
    # from (14, 10) to the centre of orks/1 (20, 10): ends on its edge, 6 - 0.629921 = 5.370079
    drag(app, px(14, 10), px(20, 10))
    assert app.ruler.end == "orks/1"
    assert app.ruler.length == pytest.approx(6 - R32, abs=1e-9)
    assert app.ruler.b == pytest.approx((20 - R32, 10), abs=1e-9)


def test_ruler_base_to_base_is_the_geometry_edge_distance(app):
    # int/1 (10, 10) to orks/1 (20, 10), both unselected: 10 - 2 * 0.629921 = 8.740157
    drag(app, px(10, 10), px(20, 10))
    r = app.ruler
    assert (r.start, r.end) == ("int/1", "orks/1")
    assert r.length == pytest.approx(app.geo.distance("int/1", "orks/1"), abs=1e-12)
    assert r.length == pytest.approx(10 - 2 * R32, abs=1e-9)
    assert r.a == pytest.approx((10 + R32, 10), abs=1e-9)
    assert r.b == pytest.approx((20 - R32, 10), abs=1e-9)
    assert math.dist(r.a, r.b) == pytest.approx(r.length, abs=1e-9)
    assert app.selected is None and app.state.model("int/1").at == (10, 10)


def test_shift_drag_measures_from_the_selected_model(app):
    click(app, px(10, 10))
    pygame.key.set_mods(pygame.KMOD_SHIFT)
    try:
        # int/1 to int/2 (10, 12): 2 - 1.259843 = 0.740157
        drag(app, px(10, 10), px(10, 12))
    finally:
        pygame.key.set_mods(0)
    assert app.state.model("int/1").at == (10, 10)
    assert app.ruler.length == pytest.approx(2 - 2 * R32, abs=1e-9)


def test_dragging_the_selected_model_moves_it(app):
    click(app, px(10, 10))
    # grab it 3 px right of its centre, drop 30 px right and 40 px up: (+3", +4")
    start = (153, 750)
    press(app, start)
    move(app, (168, 730))
    assert app.drag is not None
    # halfway: +1.5" x, +2" y -> 2.50" from its start, shown live
    assert app.drag.moved == pytest.approx(2.5, abs=1e-9)
    assert app.measure_text().startswith('moving int/1: 2.50"')
    move(app, (183, 710))
    release(app, (183, 710))
    m = app.state.model("int/1")
    assert (m.x, m.y) == pytest.approx((13, 14), abs=1e-9)
    assert app.geo.model("int/1").at == pytest.approx((13, 14))
    assert any('moved int/1 5.00"' in line for line in app.messages)
    # u puts it back
    key(app, pygame.K_u)
    assert app.state.model("int/1").at == (10, 10)


def test_dropping_onto_another_base_is_refused(app):
    click(app, px(10, 10))
    # onto orks/1's centre (20, 10): centres 0" apart, overlapping by 1.26"
    drag(app, px(10, 10), px(20, 10))
    assert app.state.model("int/1").at == (10, 10)
    assert app.undo_stack == []
    assert any("would overlap orks/1" in line for line in app.messages)
    # touching (gap 0 at x = 20 - 1.259843 = 18.740157) is allowed: 18.74 is 0.000157"
    # into orks/1, within the 0.02" tolerance.  Pixel 237.4 -> use 100 px/inch instead.
    # pixel = (-500 + 100x, 1400 - 100y): int/1 centre at (500, 400)
    app.view = View(scale=100.0, origin_x=-500.0, origin_y=1400.0)
    press(app, (500, 400))
    move(app, (1374, 400))
    release(app, (1374, 400))
    assert app.state.model("int/1").at == pytest.approx((18.74, 10))
    assert app.geo.in_base_contact("int/1", "orks/1")


def test_s_writes_a_new_file_that_loads_back(app, tmp_path):
    click(app, px(10, 10))
    drag(app, px(10, 10), px(12, 7))      # +2", -3"
    key(app, pygame.K_s)
    assert app.saved == [str(tmp_path / "map-1.toml")]
    back = mapfile.load(app.saved[0])
    assert back.model("int/1").at == pytest.approx((12, 7))
    assert back.model("orks/2").at == (22, 10)
    # the original map is untouched; a second save takes the next free name
    assert mapfile.load(str(tmp_path / "map.toml")).model("int/1").at == (10, 10)
    key(app, pygame.K_s)
    assert app.saved[1] == str(tmp_path / "map-2.toml")
    assert os.path.exists(app.saved[1])


def test_r_reloads_after_an_external_edit_and_keeps_state_on_a_bad_file(app):
    path = app.path
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(MAP.replace("models = [[20, 10], [22, 10]]", "models = [[30, 10], [22, 10]]"))
    key(app, pygame.K_r)
    assert app.state.model("orks/1").at == (30, 10)
    # a broken file: its problems are shown, the board keeps the last good state
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(MAP.replace('base = "32mm"\nmodels = [[20', 'base = "banana"\nmodels = [[20'))
    key(app, pygame.K_r)
    assert app.state.model("orks/1").at == (30, 10)
    lines = app.message_lines()
    assert lines[0].startswith("reload failed; the board is unchanged (1 problem)")
    assert "units[1].base" in lines[1] and "banana" in lines[1]
    assert lines[1].startswith(path)


def test_wheel_zoom_keeps_the_point_under_the_cursor(app):
    pos = (400, 300)
    before = app.view.to_table(*pos)          # (35, 55)
    app.handle(E(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.handle(E(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    assert app.view.scale == pytest.approx(11.5)
    assert app.view.to_table(*pos) == pytest.approx(before)
    app.handle(E(pygame.MOUSEWHEEL, x=0, y=-2, flipped=False, pos=(700, 600)))
    assert app.view.scale == pytest.approx(11.5 / 1.15 ** 2)
    assert app.view.to_table(*pos) != pytest.approx(before)


def test_right_drag_and_arrow_keys_pan(app):
    drag(app, (500, 500), (530, 480), button=3)
    assert (app.view.origin_x, app.view.origin_y) == (80.0, 830.0)
    key(app, pygame.K_LEFT)
    assert app.view.origin_x == 120.0


def test_overlays_cycle_and_quit_keys(app):
    from tabletop.app.app import OVERLAYS
    key(app, pygame.K_o)
    assert app.overlays == frozenset([OVERLAYS[0]])
    for _ in OVERLAYS[1:]:
        key(app, pygame.K_o)
    key(app, pygame.K_o)
    assert app.overlays == frozenset(OVERLAYS)
    key(app, pygame.K_o)
    assert app.overlays == frozenset()
    key(app, pygame.K_h)
    assert app.help_shown and app.help_layout().items
    key(app, pygame.K_q)
    assert not app.running


def test_events_posted_through_the_queue(app):
    pygame.event.clear()
    for ev in (E(pygame.MOUSEBUTTONDOWN, pos=px(22, 10), button=1),
               E(pygame.MOUSEBUTTONUP, pos=px(22, 10), button=1)):
        pygame.event.post(ev)
    for ev in pygame.event.get():
        app.handle(ev)
    assert app.selected == "orks/2"


def test_draw_runs_and_resizes(app, display):
    click(app, px(10, 10))
    drag(app, px(25, 35), px(28, 39))
    app.update(0.016)
    app.draw(display)
    app.handle(E(pygame.VIDEORESIZE, size=(1000, 700), w=1000, h=700))
    assert app.board_rect.width == 600 and app.panel_rect.x == 600
    key(app, pygame.K_l)    # the legend strip comes back under the board
    assert app.legend_rect.top == app.board_rect.bottom and app.legend_rect.bottom == 700
    assert 0 < app.legend_rect.height <= 0.3 * 700
    surf = pygame.Surface((1000, 700))
    app.update(0.016)
    app.draw(surf)


def _steps(state):
    log = EventLog()
    log.emit("selected_to_fight", "fight-phase.txt 12.04", unit="int", player="red", fight="normal",
             step="remaining", fights_first=False)
    log.step("int selected to fight", "fight-phase.txt 12.04", state)
    for result in (5, 2):
        log.emit("roll", "fight-phase.txt 12.05", purpose="hit", dice=[result], modifiers=0,
                 target=3, result=int(result >= 3), player="red")
    moved = state.with_positions({"int/1": (18, 10)})
    log.step("int/1 attacks", "fight-phase.txt 12.05", moved)
    return log


def test_n_and_p_change_the_step(write_map):
    path = write_map(MAP)
    state = mapfile.load(path)
    log = _steps(state)
    app = App(state, path, (1400, 900), steps=log.steps, events=log)
    assert app.step_index == 0
    key(app, pygame.K_n)
    assert app.step_index == 1
    assert app.shown_state.model("int/1").at == (18, 10)
    lines = app.panel.texts["step"]
    assert "int/1 attacks" in lines and "fight-phase.txt 12.05" in lines
    assert "hit: dice [5] mod" not in lines     # modifiers 0 are not shown
    assert "hit: dice [5] target 3 -&gt; 1" in lines and "hit: dice [2] target 3 -&gt; 0" in lines
    key(app, pygame.K_n)                         # already at the last step
    assert app.step_index == 1 and app.messages[-1] == "at the last step"
    key(app, pygame.K_p)
    assert app.step_index == 0
    assert "rolls: none in this step" in app.panel.texts["step"]
    # moving models is off in step-through: a drag from the selected model measures instead
    app.toggle_legend()
    app.view = View(scale=10.0, origin_x=50.0, origin_y=850.0)
    click(app, px(10, 10))
    drag(app, px(10, 10), px(20, 10))
    assert app.shown_state.model("int/1").at == (10, 10)
    assert app.ruler.length == pytest.approx(10 - 2 * R32, abs=1e-9)
    app.draw(pygame.Surface((1400, 900)))


def test_panel_buttons_are_pygame_gui_buttons(app, tmp_path):
    b = app.panel.buttons["save"]
    press(app, b.rect.center)
    release(app, b.rect.center)
    app.update(0.016)
    assert app.saved == [str(tmp_path / "map-1.toml")]
    ov = app.panel.buttons["overlay:coherency"]
    press(app, ov.rect.center)
    release(app, ov.rect.center)
    app.update(0.016)
    assert app.overlays == frozenset(["coherency"])
    assert app.selected is None and app.ruler is None     # the panel click never reached the board


def test_a_dragged_model_is_drawn_at_the_cursor(app):
    from tabletop.render.theme import DEFAULT_THEME
    red = DEFAULT_THEME.player_colours(app.state)["red"]
    surf = pygame.Surface((1400, 900))
    click(app, px(10, 10))
    press(app, px(10, 10))
    move(app, px(13, 10))          # +3" to the right, not dropped yet
    app.draw(surf)
    # 0.3" below its centre (3 px; the base is 6.3 px in radius, the move line runs
    # through the centre and the facing tick points up)
    assert tuple(surf.get_at(px(13, 9.7)))[:3] == red
    assert tuple(surf.get_at(px(16, 9.7)))[:3] != red
    assert app.state.model("int/1").at == (10, 10)      # the map changes only on the drop


def test_panning_shifts_the_last_board_image_until_the_button_is_let_go(app):
    surf = pygame.Surface((1400, 900))
    app.draw(surf)
    first = app._board[2]
    press(app, (500, 500), button=3)
    move(app, (520, 490), buttons=(0, 0, 1))
    app.draw(surf)
    assert app._board[2] is first            # shifted, not redrawn
    assert surf.get_at((520, 490)) == first.get_at((500, 500))
    release(app, (520, 490), button=3)
    app.draw(surf)
    assert app._board[2] is not first


def test_wheel_shows_the_last_image_scaled_until_the_view_settles(app):
    surf = pygame.Surface((1400, 900))
    app.draw(surf)
    first = app._board[2]
    app.handle(E(pygame.MOUSEMOTION, pos=(400, 300), rel=(0, 0), buttons=(0, 0, 0)))
    app.handle(E(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    assert app.view_moving
    app.draw(surf)
    assert app._board[2] is first                       # scaled, not redrawn
    # the point under the cursor stays put while zooming, so its pixel does too
    assert surf.get_at((400, 300)) == first.get_at((400, 300))
    app._settle_at = 0.0                                # SETTLE_S has passed
    assert not app.view_moving
    app.draw(surf)
    assert app._board[2] is not first and app._board[0][1] == pytest.approx(11.5)


def test_arrow_keys_shift_the_last_image_until_the_view_settles(app):
    surf = pygame.Surface((1400, 900))
    app.draw(surf)
    first = app._board[2]
    key(app, pygame.K_LEFT)                             # the view moves 40 px right
    app.draw(surf)
    assert app._board[2] is first
    assert surf.get_at((540, 500)) == first.get_at((500, 500))
    app._settle_at = 0.0
    app.draw(surf)
    assert app._board[2] is not first


def test_moved_image_scales_about_the_new_view():
    from tabletop.app.app import moved_image
    # old view: 10 px/inch, origin (0, 100); zoom x2 about pixel (50, 50) (table (5, 5)):
    # new scale 20, origin (50 - 5 x 20, 50 + 5 x 20) = (-50, 150).  Old pixel (60, 40) is
    # table (6, 6) -> new pixel (-50 + 6 x 20, 150 - 6 x 20) = (70, 30)
    img = pygame.Surface((100, 100))
    img.fill((0, 0, 0))
    img.fill((255, 0, 0), pygame.Rect(60, 40, 1, 1))
    piece, at = moved_image(img, (10.0, 0.0, 100.0), (20.0, -50.0, 150.0), (100, 100))
    out = pygame.Surface((100, 100))
    out.fill((0, 0, 255))
    out.blit(piece, at)
    assert tuple(out.get_at((70, 30)))[:3] == (255, 0, 0)
    assert tuple(out.get_at((71, 31)))[:3] == (255, 0, 0)   # one old pixel is 2 x 2 now
    assert tuple(out.get_at((72, 30)))[:3] == (0, 0, 0)
    # the same scale: a plain shift
    assert moved_image(img, (10.0, 0.0, 100.0), (10.0, 7.0, 95.0), (100, 100))[1] == (7, -5)


def test_step_through_frames_each_step_round_its_action_and_z_turns_it_off():
    from pathlib import Path

    from tabletop.rules.events import Step
    state = mapfile.load(str(Path(__file__).resolve().parent / "scenarios" / "frame-zoom.toml"))
    steps = [with_keys(Step("Start", "fight-phase.txt 12.01", state, range(0)), {}),
             with_keys(Step("a piles in", "fight-phase.txt 12.03", state, range(0)),
                       {"arrows": {"a/2": [[36.0, 33.0], [38.0, 31.5]]}, "selected_unit": "a"})]
    app = App(state, None, (1400, 900), steps=steps, events=[])
    assert app.follow
    whole = app.view.scale
    key(app, pygame.K_n)
    # the action (a, its foe b, the path) spans x 36..39.3, y 30..33: a window at least 14"
    # each way round it, so the view is more than twice as close as the whole 60" table
    assert app.view.scale > 2 * whole
    r = app.board_rect
    for x, y in ((38.0, 31.5), (36.0, 33.0), (39.3, 30.0)):
        assert r.collidepoint(app.view.to_screen(x, y))
    assert not r.collidepoint(app.view.to_screen(10.0, 8.0))      # the other fight
    key(app, pygame.K_p)
    assert app.view.scale == pytest.approx(whole)                 # a step about nothing in particular
    key(app, pygame.K_z)
    assert not app.follow
    key(app, pygame.K_n)
    assert app.view.scale == pytest.approx(whole)                 # the view stays put


def test_a_frame_rebuilds_at_most_one_changed_text_box(write_map):
    """A step change rewrites several panel boxes; each is laid out afresh in a frame of
    its own (``PANEL_BOXES_PER_FRAME`` = 1, counted), the texts themselves at once."""
    from tabletop.app import app as app_mod

    path = write_map(MAP)
    state = mapfile.load(path)
    log = _steps(state)
    a = App(state, path, (1400, 900), steps=log.steps, events=log)
    a.update(0.016)
    while a.panel.stale:                         # the first texts, one box a frame
        a.update(0.016)
    built = []
    from tabletop.app.text_pane import TextPane

    for box in a.panel.boxes.values():
        if not isinstance(box, TextPane):        # a one-line label is set at once (cheap)
            continue
        real = box.set_text
        box.set_text = lambda *args, real=real, box=box: built.append(box) or real(*args)
    key(a, pygame.K_n)
    # step 2 changes the step box (its title, clause and rolls) and the messages stay:
    # at least the step box waits; nothing was laid out in the key's handling itself
    assert "int/1 attacks" in a.panel.texts["step"]
    waiting = len(a.panel.stale)
    assert waiting >= 1 and built == []
    per_frame = []
    for _ in range(waiting + 1):
        n = len(built)
        a.update(0.016)
        per_frame.append(len(built) - n)
    assert per_frame == [1] * waiting + [0]      # one box a frame, then none
    assert app_mod.PANEL_BOXES_PER_FRAME == 1
