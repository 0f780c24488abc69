"""Issue 11 item 6: a map of no players (a measured table) gives one located line, exit 2,
wherever the rules need the two players; ``check`` still passes such a table."""

from __future__ import annotations

import pytest

from tabletop.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err



NO_PLAYERS = '[map]\nname = "x"\nruleset = "fight-phase"\nwidth = 24.0\ndepth = 18.0\n'


@pytest.mark.parametrize("argv, lesson", [(["fight"], False), (["fight", "--odds"], False),
                                          (["check"], True), (["lesson", "--gif", "g.gif"], True)])
def test_a_map_with_no_players_is_one_line_where_the_rules_run(capsys, tmp_path, argv, lesson):
    # the audit of issue 11 (and the long fuzz profile): a map of no players (a measured table)
    # gave an IndexError traceback from fight, fight --odds, and check / lesson of a lesson map
    text = NO_PLAYERS + ('\n[[lesson]]\ntitle = "a"\nstep = "setup"\ntext = "t"\n' if lesson else "")
    path = tmp_path / "np.toml"
    path.write_text(text, encoding="utf-8")
    cmd = argv[0]
    extra = [str(tmp_path / a) if a.endswith(".gif") else a for a in argv[1:]]
    rc, out, err = run(capsys, cmd, str(path), *extra)
    assert rc == 2
    assert err.strip() == (f"{path}: [[players]]: none: the rules need the two players (a "
                           f"measured table has none; check, measure, render and compare work "
                           f"without)")
    # a measured table with no lesson still passes check
    path.write_text(NO_PLAYERS, encoding="utf-8")
    assert run(capsys, "check", str(path))[0] == 0
