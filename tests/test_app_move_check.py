"""The window's move check (App.check_move on ``v`` / ``V``, the drag's pile-in readout),
driven by posted pygame events.  fight-phase.txt 12.03 / 12.08, 11th edition (engagement
range 2", coherency 2" to one other model, tolerance 0.02").

The view is fixed at 10 pixels per inch with table (0, 0) at pixel (50, 850): table (x, y)
is pixel (50 + 10x, 850 - 10y), so a drop lands on a 0.1" grid.  32mm bases are
1.25984" across (radius 0.62992").

The map: int (charged this turn, so eligible to pile in) at int/1 (10, 10), int/2 (10, 11.5);
orks/1 at (13.95984, 11.5) = 12.7 + 1.25984, so int/2 dropped at (12.7, 11.5) touches it.
At the start int/2 is 13.95984 - 10 - 1.25984 = 2.7" from orks/1 (not engaged, within 5":
orks is the pile-in target; within 3": engaging consolidation toward orks).
"""

from __future__ import annotations

import pygame
import pytest

from tabletop.app.app import App
from tabletop.app.move_checker import BAD_COLOUR
from tabletop.board import mapfile
from tabletop.render.view import View

MAP = """\
[map]
name = "Move check"
ruleset = "fight-phase"
width = 40.0
depth = 30.0

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "int"
player = "red"
base = "32mm"
charged = true
models = [[10, 10], [10, 11.5]]

[[units]]
id = "orks"
player = "blue"
base = "32mm"
models = [[13.95984, 11.5], [13.95984, 13]]
"""

E = pygame.event.Event
COHERENCY = 'ends out of coherency (03.03): within 2" of 0 other models, needs 1 (12.03)'


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1400, 900))
    yield screen
    pygame.display.quit()


def px(x: float, y: float) -> tuple[int, int]:
    return round(50 + 10 * x), round(850 - 10 * y)


def make_app(write_map, text: str = MAP) -> App:
    path = write_map(text)
    a = App(mapfile.load(path), path, (1400, 900))
    a.toggle_legend()
    a.view = View(scale=10.0, origin_x=50.0, origin_y=850.0)
    return a


@pytest.fixture
def app(write_map):
    return make_app(write_map)


def mouse(app, kind, pos):
    if kind == pygame.MOUSEMOTION:
        app.handle(E(kind, pos=pos, rel=(0, 0), buttons=(1, 0, 0)))
    else:
        app.handle(E(kind, pos=pos, button=1))


def drag_model(app, start, end, release=True):
    """Click the model at ``start`` (select it), then drag it to ``end``."""
    mouse(app, pygame.MOUSEBUTTONDOWN, start)
    mouse(app, pygame.MOUSEBUTTONUP, start)
    mouse(app, pygame.MOUSEBUTTONDOWN, start)
    for k in range(1, 5):
        mouse(app, pygame.MOUSEMOTION, (start[0] + (end[0] - start[0]) * k // 4,
                                        start[1] + (end[1] - start[1]) * k // 4))
    if release:
        mouse(app, pygame.MOUSEBUTTONUP, end)


def key(app, k, shift=False):
    app.handle(E(pygame.KEYDOWN, key=k, mod=pygame.KMOD_LSHIFT if shift else 0,
                 unicode=("V" if shift else "v") if k == pygame.K_v else "", scancode=0))


def test_a_model_dragged_3_50_is_listed_and_ringed(app, display, tmp_path):
    # int/1 (10, 10) -> (13.5, 10): 35 px = 3.5" > 3"; the drag reads it live, in red
    drag_model(app, px(10, 10), px(13.5, 10), release=False)
    assert app.drag_readout() == ('3.50" / 3"', True)
    assert app.measure_text() == ('moving int/1: 3.50" from its start; pile-in: 3.50" / 3" from '
                                  'where the map put it, past the limit (12.03)')
    mouse(app, pygame.MOUSEBUTTONUP, px(13.5, 10))
    assert app.state.model("int/1").at == pytest.approx((13.5, 10))
    key(app, pygame.K_v)
    # int/1 ends sqrt(0.45984^2 + 1.5^2) - 1.25984 = 0.30906" from orks/1 (closer than
    # sqrt(3.95984^2 + 1.5^2) - 1.25984 = 2.97458", engaged, no overlap); it ends
    # sqrt(3.5^2 + 1.5^2) - 1.25984 = 2.54805" from int/2: both out of coherency
    assert app.message_lines()[:4] == [
        "check: int pile-in (fight-phase.txt 12.03) toward orks: 3 broken clauses",
        '  int/1 moved 3.50" > 3" (12.03)',
        f"  int/1 {COHERENCY}",
        f"  int/2 {COHERENCY}",
    ]
    assert app.checker.result.offenders == ["int/1", "int/2"]
    # the ring: 6.3 px base radius -> 7 + 8 = 15 px, 3 px wide, round int/1's centre (185, 750)
    app.draw(display)
    assert tuple(display.get_at((185, 750 - 14)))[:3] == BAD_COLOUR
    pygame.image.save(display, str(tmp_path / "move_check_window.png"))  # to look at
    # a new drag makes the verdict stale: it is cleared
    drag_model(app, px(10, 11.5), px(10, 12))
    assert app.checker.result is None


def test_a_model_dragged_into_base_contact_is_a_legal_pile_in(app):
    # int/2 (10, 11.5) -> (12.7, 11.5): 2.70"; 13.95984 - 12.7 = 1.25984: base contact
    # with orks/1; to int/1 sqrt(2.7^2 + 1.5^2) - 1.25984 = 1.82885" (coherent)
    drag_model(app, px(10, 11.5), px(12.7, 11.5), release=False)
    assert app.drag_readout() == ('2.70" / 3"', False)
    mouse(app, pygame.MOUSEBUTTONUP, px(12.7, 11.5))
    assert app.geo.in_base_contact("int/2", "orks/1")
    key(app, pygame.K_v)
    assert app.message_lines()[:3] == [
        "check: int pile-in (fight-phase.txt 12.03) toward orks: legal",
        '  int/2: (10.00, 11.50) -> (12.70, 11.50) moved 2.70"',
        "  the validator finds no broken clause",
    ]
    assert app.checker.result.legal and app.checker.result.offenders == []
    # shift+v: the same move as a consolidation.  Not engaged at the start, orks within 3"
    # (2.7"): engaging, toward the closest enemy unit within 3", orks; it ends engaged with it
    key(app, pygame.K_v, shift=True)
    assert app.message_lines()[0] == ("check: int consolidation (engaging) (fight-phase.txt 12.08) "
                                      "toward orks: legal")


def test_the_start_is_where_the_map_put_the_models(app):
    # two drags of int/1: 1.5" then 2.0" to the right; the second reads 3.50" from the start
    drag_model(app, px(10, 10), px(11.5, 10))
    drag_model(app, px(11.5, 10), px(13.5, 10), release=False)
    assert app.drag.moved == pytest.approx(2.0)
    assert app.drag_readout() == ('3.50" / 3"', True)
    mouse(app, pygame.MOUSEBUTTONUP, px(13.5, 10))
    key(app, pygame.K_v)
    assert app.message_lines()[1] == '  int/1 moved 3.50" > 3" (12.03)'
    # undo one drag: 1.5" from the start, and int/1 (11.5, 10) to int/2 (10, 11.5):
    # sqrt(1.5^2 + 1.5^2) - 1.25984 = 0.86148" (coherent); to orks/1
    # sqrt(2.45984^2 + 1.5^2) - 1.25984 = 1.62127" (closer, engaged): legal
    key(app, pygame.K_u)
    key(app, pygame.K_v)
    assert app.message_lines()[:2] == [
        "check: int pile-in (fight-phase.txt 12.03) toward orks: legal",
        '  int/1: (10.00, 10.00) -> (11.50, 10.00) moved 1.50"']
    # r reloads the file (y: int/1 is still moved, so it asks first): the positions in it
    # are the start again, nothing moved
    key(app, pygame.K_r)
    key(app, pygame.K_y)
    key(app, pygame.K_v)
    # nothing moved and the unit is not engaged: 12.03 AFTER MOVING "your unit must be
    # engaged"; int/2 is 2.7" from orks/1
    assert app.message_lines()[:3] == [
        "check: int pile-in (fight-phase.txt 12.03) toward orks: 1 broken clause",
        ('  int must be engaged after its pile-in, but this move leaves it 2.70" from the '
         'nearest enemy model (engagement range 2") (12.03)'),
        "reloaded map.toml",
    ]


def test_a_unit_that_may_not_pile_in(write_map):
    app = make_app(write_map, MAP.replace("charged = true\n", ""))
    drag_model(app, px(10, 10), px(11, 10), release=False)
    assert app.drag_readout() is None          # not engaged and did not charge: no 3" to read
    assert app.measure_text() == 'moving int/1: 1.00" from its start'
    mouse(app, pygame.MOUSEBUTTONUP, px(11, 10))
    key(app, pygame.K_v)
    assert app.message_lines()[:2] == [
        "check: int pile-in: not eligible",
        "  int is not engaged, did not make a charge move this turn and was not selected to "
        "make an overrun fight (fight-phase.txt 12.03 ELIGIBLE IF)"]
    assert app.checker.result.offenders == []


def test_v_without_a_unit_says_what_to_do(app):
    key(app, pygame.K_v)
    assert app.message_lines()[0].startswith("select a model of the unit to check")
