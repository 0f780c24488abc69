"""compare / check --layout wording (issue 10, audit-uses finding 8): the wall detail kept
whatever the turn tolerance, told once by check, and a hint for a terrain-only table.
The layouts are test_compare_fix's: ruin C (x 9..21, y 7..13, centre (15, 10)) with walls
over its western 8" (walls' centre (13, 10): west of the centre), ruin V, objective "mid"."""

from __future__ import annotations

from test_compare_fix import PUBLISHED, V, _measured, _turned

from tests.mapkit import cli as _run


def test_a_wide_turn_tolerance_keeps_which_way_the_walls_face(write_map, capsys):
    # C turned 180 deg about (15, 10): the walls' centre (13, 10) goes to (17, 10), east of
    # the centre; published west.  With --turn-tolerance 180 the turn itself is tolerated
    # but the walls are still on the wrong side, and the line says which way they face
    pub = write_map(PUBLISHED, "pub.toml")
    got = write_map(_measured(_turned(180)), "got.toml")
    code, out, _ = _run(capsys, "compare", pub, got, "--turn-tolerance", "180")
    line = next(ln for ln in out.splitlines() if "terrain C:" in ln)
    assert "walls on the wrong side: face east, published west" in line, line


def test_check_layout_tells_the_walls_once(write_map, capsys):
    pub = write_map(PUBLISHED, "pub.toml")
    got = write_map(_measured(_turned(180)), "got.toml")
    code, out, _ = _run(capsys, "check", got, "--layout", pub)
    assert code == 1
    line = next(ln for ln in out.splitlines() if "terrain C is off" in ln)
    # before: "turned +180 deg, walls on the wrong side, walls face east, published west
    # (not moved, turned +180.0 deg, walls on the wrong side: face east, published west)"
    assert line.endswith("terrain C is off the published layout: not moved, turned +180.0 deg, "
                         "walls on the wrong side: face east, published west"), line
    assert line.count("wrong side") == 1 and line.count("face east") == 1


def test_a_terrain_only_table_gets_a_hint(write_map, capsys):
    # the measured table has C and V only: the published objective "mid" is MISSING, and a
    # one-line hint names --terrain-only
    pub = write_map(PUBLISHED, "pub.toml")
    got = write_map(_measured(_turned(0), rest=V), "got.toml")
    code, out, _ = _run(capsys, "compare", pub, got)
    assert code == 1 and "MISSING objective mid" in out
    hints = [ln for ln in out.splitlines() if "--terrain-only" in ln]
    assert len(hints) == 1 and hints[0].startswith("hint: the measured table has terrain only")
    code, out, _ = _run(capsys, "compare", pub, got, "--terrain-only")
    assert code == 0 and "hint" not in out
