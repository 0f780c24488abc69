"""The editor drops 40K units in coherency (issue 12 leftover 1), driven by posted events.

A 40K formation is laid out as ``tabletop roster`` lays a unit (``editor.formation_layouts``):
the typed frontage at the roster's model gap (0.5"), then at its tighter gaps (0.25", 0.1"),
then the roster's cluster (a square grid, else a hexagonal blob); the drop is checked with the
geometry snapshot for coherency (core 03.03/03.04) as for overlaps and the table edge.

The view is fixed at 10 px per inch with table (0, 0) at pixel (50, 850).  A 32mm base is
32 / 25.4 = 1.259843" across.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pygame
import pytest

from tabletop.app.app import App
from tabletop.board import mapfile
from tabletop.cli import main
from tabletop.cli.edit_cmd import blank_table
from tests.window_helpers import display_fixture, fix_view, keydown, pixel_of

E = pygame.event.Event
display = display_fixture((1400, 900))
px = pixel_of(900)
ROOT = Path(__file__).resolve().parent.parent
D32 = 32 / 25.4


def click(x: float, y: float) -> list:
    return [E(pygame.MOUSEBUTTONDOWN, pos=px(x, y), button=1),
            E(pygame.MOUSEBUTTONUP, pos=px(x, y), button=1)]


def formation(text: str) -> list:
    """``N`` (shift-n), the TEXTINPUT echo of the key, the formation typed, Enter."""
    return [keydown(pygame.K_n, "N", pygame.KMOD_SHIFT), E(pygame.TEXTINPUT, text="N"),
            E(pygame.TEXTINPUT, text=text), keydown(pygame.K_RETURN, "\r")]


def post(app: App, *events) -> None:
    pygame.event.clear()
    for e in events:
        pygame.event.post(e)
    for e in pygame.event.get():
        app.handle(e)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def editor_app(state, **edit) -> App:
    return fix_view(App(state, None, (1400, 900), edit=edit), 900)


def widest(unit) -> float:
    """The largest edge-to-edge gap (inches) between two models of a unit of round bases."""
    return max(math.dist(a.at, b.at) - D32 for a, b in itertools.combinations(unit.models, 2))


def test_a_30_model_formation_and_a_roster_unit_pass_check_after_saving(tmp_path, capsys):
    from tabletop.roster.deploy import resolve_bases
    from tabletop.roster.read import read_roster
    roster = read_roster(str(ROOT / "examples" / "rosters" / "orks.json"))
    resolved = resolve_bases(roster, {}, "orks.json")
    out = str(tmp_path / "dropped.toml")
    app = editor_app(blank_table(60, 44, "fight-phase"), out=out, roster=resolved,
                     system=roster.system, player="red")
    # 30 x 32mm, 10 abreast, clicked at (30, 20): faces the table centre (30, 22), 90 deg.
    # 10 abreast cannot keep the 9" spread (core 03.04) at any gap the roster packs at:
    # at 0.1" the end models' centres are 9 x (1.259843 + 0.1) = 12.24" apart, 10.98" edge
    # to edge (the old editor laid them touching: 9 x 1.259843 - 1.259843 = 10.08", broken),
    # so it is packed as the roster's cluster
    post(app, *formation("30 32mm 10"), *click(30, 20))
    line = app.message_lines()[0]
    assert line.startswith("placed unit-1 (30 x 32mm) at (30, 20), facing 90 deg (packed as a cluster")
    unit = app.state.unit("unit-1")
    assert len(unit.models) == 30
    assert widest(unit) <= 9.0
    # the front edge is centred on the click: the front row's centres half a base (0.629921") behind
    top = max(m.at[1] for m in unit.models)
    front = [m.at[0] for m in unit.models if m.at[1] > top - 1e-3]
    assert top == pytest.approx(20 - 0.629921, abs=1e-3)
    assert sum(front) / len(front) == pytest.approx(30, abs=1e-3)
    # the roster's first unit (the Warboss, 1 model) at (10, 20), then its Boyz (10 models:
    # a Boss Nob and 9 Boyz) at (48, 20): a 4-wide grid (ceil(sqrt 10)), as tabletop roster lays it
    post(app, keydown(pygame.K_u, "U", pygame.KMOD_SHIFT), *click(10, 20), *click(48, 20))
    boyz = app.state.units[-1]
    assert boyz.name == "Boyz" and len(boyz.models) == 10
    assert boyz.models[0].at == (48, 20)
    post(app, keydown(pygame.K_s, "s"))
    assert app.message_lines()[0] == f"saved the table to {out}"
    capsys.readouterr()
    assert main(["check", out, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["coherency"] == []
    assert len(mapfile.load(out).units) == 3


def test_a_formation_that_cannot_keep_9_inches_is_refused():
    app = editor_app(blank_table(60, 44, "fight-phase"))
    # 100 x 32mm: any set of points no two more than 9 + 1.259843 = 10.26" apart lies in a
    # circle of radius 10.26 / sqrt(3) = 5.92" (Jung), so the bases lie in one of radius
    # 5.92 + 0.63 = 6.55", 134.9 sq in; circles cover at most pi / sqrt(12) = 0.9069 of it,
    # 122.3 sq in, less than the bases' 100 x pi x 0.63^2 = 124.7 sq in: it cannot fit
    post(app, *formation("100 32mm 10"), *click(30, 22))
    assert app.message_lines()[0] == ('100 x 32mm does not fit within 9" (coherency, core 03.04): '
                                      "use fewer models or smaller bases")
    assert app.state.units == ()


def test_a_line_in_10th_closes_up_to_keep_two_neighbours():
    state = mapfile.from_dict({
        "map": {"name": "t", "ruleset": "fight-phase", "width": 60, "depth": 44},
        "rules": {"edition": "10th"},
        "players": [{"id": "red", "active": True}, {"id": "blue"}]}, path="<t>")
    app = editor_app(state)
    # 10th: no 9" spread, but units of 7+ need two others within 2" (03.03).  A line of 10 at
    # the 0.5" gap: an end model's second neighbour is 2 x 1.759843 - 1.259843 = 2.26" away,
    # too far; at 0.25": 2 x 1.509843 - 1.259843 = 1.76", so the line stands 0.25" apart
    post(app, *formation("10 32mm 10"), *click(30, 20))
    assert app.message_lines()[0].startswith("placed unit-1 (10 x 32mm) at (30, 20), facing 90 deg "
                                             '(10 abreast, 0.25" apart)')
    xs = sorted(m.at[0] for m in app.state.unit("unit-1").models)
    # centred on 30: 30 - 4.5 x 1.509843 = 23.205580 to 36.794420, at y = 20 - 0.629921
    assert xs[0] == pytest.approx(30 - 4.5 * 1.509843, abs=1e-4)
    assert [b - a for a, b in zip(xs, xs[1:])] == pytest.approx([D32 + 0.25] * 9, abs=1e-4)


LAYOUT_ONLY = """\
# a layout with no units (as tabletop layout import writes one)

[map]
name = "bare layout"
ruleset = "fight-phase"
width = 60
depth = 44

[[players]]
id = "attacker"
active = true

[[players]]
id = "defender"

[[terrain]]
id = "ruin-a"
kind = "ruin"
polygon = [[9, 27], [21, 27], [21, 33], [9, 33]]
"""


def test_units_dropped_on_a_map_without_units_are_saved_as_unit_tables(tmp_path):
    src = tmp_path / "layout.toml"
    src.write_text(LAYOUT_ONLY, encoding="utf-8")
    out = tmp_path / "deployed.toml"
    app = fix_view(App(mapfile.load(str(src)), str(src), (1400, 900), edit={"out": str(out)}), 900)
    # 2 x 32mm, 2 abreast, at (30, 10): facing 90, the rank half a base (0.629921") behind
    # the click, the models (1.259843 + 0.5) / 2 = 0.879921" either side of x = 30
    post(app, *formation("2 32mm 2"), *click(30, 10), keydown(pygame.K_s, "s"))
    assert app.message_lines()[0] == f"saved the table to {out}"
    text = out.read_text(encoding="utf-8")
    # the file's own text kept (its comment), the unit appended as a [[units]] table, one
    # model a line - not an inline "units = [...]" above [map]
    assert text.startswith("# a layout with no units")
    assert "[[units]]" in text and "units = [" not in text
    assert "    [29.1201, 9.3701],\n    [30.8799, 9.3701],\n" in text
    assert mapfile.load(str(out)).units == app.state.units


def test_a_roster_unit_too_big_for_9_inches_is_refused():
    from tabletop.roster.deploy import resolve_bases
    from tabletop.roster.tree import read_tree
    # a unit of 100 Boyz (32mm, the base table's Boyz row): as the formation test above,
    # 100 x 32mm cannot keep every model within 9" of every other (core 03.04)
    data = {"roster": {"name": "horde", "gameSystemName": "Warhammer 40,000 10th Edition",
                       "forces": [{"catalogueName": "Xenos - Orks", "selections": [
                           {"name": "Boyz", "type": "unit", "number": 1, "selections": [
                               {"name": "Boy", "type": "model", "number": 100}]}]}]}}
    roster = read_tree(data, "newrecruit", "horde.json")
    resolved = resolve_bases(roster, {}, "horde.json")
    app = editor_app(blank_table(60, 44, "fight-phase"), roster=resolved, system="40k", player="red")
    post(app, keydown(pygame.K_u, "U", pygame.KMOD_SHIFT), *click(30, 22))
    assert app.message_lines()[0] == ('Boyz (100 models) does not fit within 9" (coherency, core '
                                      "03.04): use fewer models or smaller bases")
    assert app.state.units == ()
