"""The lessons teach what they say (issue 10 item 2): each new lesson's phase run, with its
map's own seed, holds what its header works out by hand; and the lesson window shades a
pile-in model's legal region and names a broken clause while it is dragged.

Bases are 32mm round (radius 0.62992"), the "11th" preset: engagement range 2", objective
range 3" from a 40mm marker's edge (radius 0.7874"), contact tolerance 0.02".
"""

from __future__ import annotations

import math
from pathlib import Path

import pygame
import pytest

from tabletop.app.lesson_window import LessonWindow
from tabletop.board import mapfile
from tabletop.render.legal_shade import ENGAGED_FILL, LEGAL_FILL
from tabletop.render.lesson_plan import build_lesson

LESSONS = Path(__file__).resolve().parent.parent / "maps" / "lessons"
R = 32 / 25.4 / 2           # 32mm base radius, inches


def run_of(name: str):
    lesson = build_lesson(mapfile.load(str(LESSONS / name)))
    return lesson, lesson.log.events


def test_fights_first_lesson_alternates_in_the_worked_order():
    _, events = run_of("fights-first.toml")
    order = [e.unit for e in events if e.type == "selected_to_fight"]
    # 12.04: Fights First first, red (whose turn it is) starting: raiders (charged), then
    # blue's only Fights First unit wardens, then red's blademasters; blue would choose next
    # and no Fights First unit is left, so the Remaining Combats start with blue: grunts,
    # then red: guards.  (Nobody can die: W10, T8, 2+ against one S3 attack.)
    assert order == ["raiders", "wardens", "blademasters", "grunts", "guards"]


def test_consolidation_lesson_makes_each_mode_once():
    lesson, events = run_of("consolidation.toml")
    modes = {e.unit: e.mode for e in events if e.type == "consolidate" and e.player == "red"}
    # ongoing stays engaged with brute (W10) -> ongoing; engaging's victim dies and foe is
    # 6 - 2.24 - 1.26 = 2.50" away (<= 3") -> engaging; holders' sentry dies, no enemy
    # within 3", A's marker 2.66" from holders/2 -> objective (12.08)
    assert modes == {"ongoing": "ongoing", "engaging": "engaging", "holders": "objective"}
    moved = {e.unit: e for e in events if e.type == "consolidate" and e.moves}
    # engaging/1 from (6, 15) into base contact with foe at (2.24, 15): x = 2.24 + 1.26 = 3.50
    end = moved["engaging"].moves["engaging/1"][-1]
    assert end[0] == pytest.approx(3.5, abs=0.03) and end[1] == pytest.approx(15, abs=0.03)
    # ongoing/1 touches brute and may not move; ongoing/3 and ongoing/4 do move
    assert "ongoing/1" not in moved["ongoing"].moves
    assert {"ongoing/3", "ongoing/4"} <= set(moved["ongoing"].moves)
    # objective mode: every holders model ends within 3" of A's marker at (24.5, 9.5)
    final = lesson.log.steps[-1].state
    for m in final.unit("holders").models:
        assert math.dist((m.x, m.y), (24.5, 9.5)) - R - 40 / 25.4 / 2 <= 3.0 + 0.02
    # foe, engaged by the engaging consolidation and not yet selected, fights (12.08)
    assert any(e.type == "eligible_to_fight" and e.unit == "foe" for e in events)


def test_surrounded_lesson_destroys_the_militia_instead_of_fleeing():
    _, events = run_of("surrounded.toml")
    destroyed = [e for e in events if e.type == "destroyed"]
    # orc-mob on militia's front edge (y = 12), wolf-riders on its rear (y = 12 - 3 x
    # 0.984252 = 9.047244): opposite sides, so a broken militia cannot flee
    assert [(e.unit, e.reason) for e in destroyed] == [
        ("militia", "surrounded: enemies on opposite sides")]
    assert not any(e.type == "fled" for e in events)
    # seed 1: orc-mob causes 4 wounds and wolf-riders 1 (W1 each): 5 of the 15 removed as
    # casualties, the other 15 - 5 = 10 destroyed with the unit
    removed = [e.model for e in events if e.type == "removed" and e.model.startswith("militia/")]
    assert len(removed) == 5 and len(destroyed[0].models) == 10


# ------------------------------------------------------------------ the window's shade
@pytest.fixture()
def window():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1000, 560))
    lesson = build_lesson(mapfile.load(str(LESSONS / "pile-in.toml")))
    n = next(k for k, p in enumerate(lesson.pages) if p.entry.select == "intercessors/1")
    w = LessonWindow(lesson, (1000, 560), start=n)     # the pile-in step, the sergeant selected
    yield w
    pygame.display.quit()


def click(w, at, kind=pygame.MOUSEBUTTONDOWN):
    view = w.painter.page_parts(w.player.page)[2]
    sx, sy = view.to_screen(*at)
    pos = (round(sx) + w.painter.board_rect.x, round(sy) + w.painter.board_rect.y)
    if kind == pygame.MOUSEMOTION:
        ev = pygame.event.Event(kind, pos=pos, rel=(0, 0), buttons=(1, 0, 0))
    else:
        ev = pygame.event.Event(kind, pos=pos, button=1)
    pygame.event.post(ev)
    w.pump()
    return pos


def blend(under, rgba):
    a = rgba[3] / 255
    return tuple(round(u * (1 - a) + c * a) for u, c in zip(under, rgba[:3]))


def test_a_clicked_pile_in_model_is_shaded_and_a_bad_drag_names_the_clause(window):
    w = window
    step = w.player.current.step
    m2 = step.state.model("intercessors/2")
    # intercessors/2 stood at (11.24, 10.6), 14 - 11.24 - 1.26 = 1.50" from boyz/3 at (14, 10.6)
    assert math.dist(m2.at, (11.24, 10.6)) > 0.1       # the step moved it
    surface = pygame.display.get_surface()
    w.draw(surface)
    before = surface.copy()
    click(w, m2.at)                                     # select it (its unit piled in)
    click(w, m2.at, pygame.MOUSEBUTTONUP)
    assert w.pick.selected(w.player.page) == "intercessors/2"
    region = w.pick.region(w.player.page)
    assert region is not None and not region.engaged.is_empty
    w.draw(surface)
    # a point inside the strong shade (ends engaged): its pixel is the unshaded pixel blended
    # with the light fill, then the strong one (render.legal_shade draws both)
    p = region.engaged.representative_point()
    view = w.painter.page_parts(w.player.page)[2]
    px = tuple(round(c) for c in view.to_screen(p.x, p.y))
    want = blend(blend(before.get_at(px)[:3], LEGAL_FILL), ENGAGED_FILL)
    got = surface.get_at(px)[:3]
    assert all(abs(a - b) <= 3 for a, b in zip(got, want)), (got, want)
    # drag it to (11.24, 12.6), 2" straight up from where it stood: from boyz/3 at (14, 10.6)
    # that is sqrt(2.76^2 + 2^2) - 1.26 = 3.408 - 1.26 = 2.15", not closer than the 1.50" it
    # started, and outside the 2" engagement range it started in (12.03)
    click(w, m2.at)
    click(w, (11.24, 12.6), pygame.MOUSEMOTION)
    check = w.pick.check_of(w.player.page)
    assert check and "broken clause" in check[0] and w.pick.bad()
    closer = [line for line in check[1:] if "not closer than the 1.50\"" in line]
    assert len(closer) == 1 and "(12.03)" in closer[0], check
    got_gap = float(closer[0].split(" ends ")[1].split('"')[0])
    assert got_gap == pytest.approx(2.15, abs=0.03)
    assert any("outside engagement range 2\"" in line for line in check[1:])
    w.draw(surface)                                     # the panel draws the check lines
    click(w, (11.24, 12.6), pygame.MOUSEBUTTONUP)
    assert w.pick.drag is None and "back where the step put it" in w.pick.check_of(w.player.page)[-1]
    assert w.player.current.step.state.model("intercessors/2").at == m2.at   # states unchanged


def test_the_gif_shades_a_selected_pile_in_model_on_its_still_frame(tmp_path, capsys):
    from PIL import Image

    from tabletop.app.lesson_drag import lesson_regions
    from tabletop.cli import main
    from tabletop.render.lesson_draw import LessonPainter
    from tabletop.render.lesson_plan import Frame

    path = str(LESSONS / "pile-in.toml")
    lesson = build_lesson(mapfile.load(path))
    n = next(k for k, p in enumerate(lesson.pages) if p.entry.select == "intercessors/2")
    region = lesson_regions(lesson)(lesson.pages[n], "intercessors/2")
    assert region is not None and not region.engaged.is_empty
    size = (640, 360)
    plain = pygame.Surface(size)
    LessonPainter(lesson, size).draw(plain, Frame(n, "still", 0))
    p = region.engaged.representative_point()
    view = LessonPainter(lesson, size).page_parts(n)[2]
    px = tuple(round(c) for c in view.to_screen(p.x, p.y))
    want = blend(blend(plain.get_at(px)[:3], LEGAL_FILL), ENGAGED_FILL)
    out = tmp_path / "step.gif"
    assert main(["lesson", path, "--step", str(n + 1), "--gif", str(out), "--size", "640x360"]) == 0
    capsys.readouterr()
    got = Image.open(out).convert("RGB").getpixel(px)
    # the GIF's 255-colour palette moves a colour a little
    assert all(abs(a - b) <= 12 for a, b in zip(got, want)), (got, want)
    assert abs(got[2] - plain.get_at(px)[2]) > 20 or abs(got[0] - plain.get_at(px)[0]) > 20
