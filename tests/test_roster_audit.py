"""``tabletop roster`` after the r12 audit (/work/notes/audit-r12.md findings 1-14): the app
text format's model lines, large units in coherency, bounded input, ``--force``, the
written map, ``--base`` per model, wording.  Expected values are worked out by hand beside
each assert; 32mm = 1.2598", 25mm = 0.9843", 60mm = 2.3622".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.board.mapfile import load
from tabletop.cli import main
from tabletop.geometry import snapshot
from tabletop.roster.read import read_roster

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples" / "rosters"
H_AND_A = str(ROOT / "maps" / "ca-layout-1-hammer-and-anvil.toml")


def run(capsys, *argv, code=0):
    got = main([str(a) for a in argv])
    out = capsys.readouterr()
    assert got == code, out.err
    return out


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
    err = run(capsys, "roster", p, "--map", H_AND_A, "--player", "orks", "-o",
              tmp_path / "o.toml", code=2).err
    # line 6 is the ◦ line with no model line above it
    assert err.count("\n") == 1 and "line 6" in err and not (tmp_path / "o.toml").exists()
